//! Relation-level attacks of the adversarial prover (cargo feature `testing`, tests only).
//!
//! The attack class of an absent operand slot: the relation gate evaluates
//! `A₁·(B₁ − C₁) + α·A₂·(B₂ − C₂) + …` whatever operands the relation has, so if the `C`
//! slot of a product were not pinned, a prover writing `C = B − B′` limb by limb would make
//! the block prove the relation for any `B′` of its choice. [`with_relation_adversary`]
//! installs a hook that, for each relation block laid out on this thread, may name such
//! substitute values `B′` ([`Substitution`]); the block's witness (new value, quotient,
//! carries) is then computed for `B′`, the `B` slot keeps its copy of the real operand, and
//! the absent `C` slot is written with `B − B′` (with its copy of the constant 0 kept, unless
//! the layout is unpinned: `layout::adversary::Adversary::unpinned`). Every value computed
//! from the block's new value downstream follows, so the whole witness is the attacker's.

use std::cell::RefCell;
use std::sync::Arc;

use num_bigint::BigUint;

use super::relation::Relation;

/// Substitute operand values for one relation block (`None`: the real operand).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Substitution {
    /// `B₁′`: the witness is computed as if the first product's `B` were this value; the block
    /// must have no `C₁`.
    pub b1: Option<BigUint>,
    /// `B₂′`, likewise for the second product (no `C₂`).
    pub b2: Option<BigUint>,
}

/// The hook: called with the block's modulus index (0 = `Fp`, 1 = `Fq`) and the relation.
pub type RelationHook = Arc<dyn Fn(usize, &Relation<'_>) -> Substitution + Send + Sync>;

thread_local! {
    static HOOK: RefCell<Option<RelationHook>> = const { RefCell::new(None) };
}

/// Runs `f` with `hook` deciding the substitutions of every relation block laid out on this
/// thread (restored afterwards, also on panic).
pub fn with_relation_adversary<R>(hook: RelationHook, f: impl FnOnce() -> R) -> R {
    crate::layout::adversary::scoped(&HOOK, hook, f)
}

/// The substitution the active hook names for this block (none without a hook).
pub(crate) fn substitution(modulus: usize, rel: &Relation<'_>) -> Substitution {
    HOOK.with(|h| {
        h.borrow()
            .as_ref()
            .map_or_else(Substitution::default, |f| f(modulus, rel))
    })
}
