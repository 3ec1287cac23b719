//! The adversarial prover (cargo feature `testing`, for this crate's soundness tests only).
//!
//! A malicious prover controls every advice value, assigned by the honest layout or not; it
//! cannot change fixed cells, selectors, copy constraints or the instance, because those are
//! in the verifying key or checked by the verifier. [`with_adversary`] runs a closure (a
//! MockProver run, a keygen or a `create_proof`) during which every builder assignment on this
//! thread is overridden by the adversary's cell values ([`Adversary::cells`]): an assigned
//! cell gets the adversary's value, an unassigned one is written as an extra advice
//! assignment. Nothing else about the layout changes, so a proof made this way is checked
//! against the honest verifying key.
//!
//! [`Adversary::unpinned`] lays the circuit out as it was before the absent-operand fix (the
//! relation block left its absent operand slots unassigned): tests use it to show that an
//! attack passes there and fails on the pinned layout, i.e. that the attack tests can fail.
//!
//! Relation-level attacks (a witness computed for substituted operand values) are in
//! `field::relation` (`with_relation_adversary`): they build on the same thread-local state.

use std::cell::RefCell;
use std::collections::HashMap;

use super::builder::CellRef;
use super::Native;

/// What the adversary writes (see the module doc).
#[derive(Clone, Debug, Default)]
pub struct Adversary {
    /// Advice values by builder cell: replaces the honest value of an assigned cell, or is
    /// written into a cell the honest layout leaves unassigned.
    pub cells: HashMap<CellRef, Native>,
    /// Lay relation blocks out without pinning their absent operand slots (the layout before
    /// the fix): the honest layout of that older circuit.
    pub unpinned: bool,
}

thread_local! {
    static ADVERSARY: RefCell<Option<Adversary>> = const { RefCell::new(None) };
}

/// Runs `f` with `adv` active on this thread (restored afterwards, also on panic).
pub fn with_adversary<R>(adv: Adversary, f: impl FnOnce() -> R) -> R {
    scoped(&ADVERSARY, adv, f)
}

/// Runs `f` with `value` in the thread-local `slot`, restoring the previous value afterwards
/// (also on panic): the scope of every adversary hook.
pub(crate) fn scoped<T: 'static, R>(
    slot: &'static std::thread::LocalKey<RefCell<Option<T>>>,
    value: T,
    f: impl FnOnce() -> R,
) -> R {
    struct Restore<T: 'static>(
        &'static std::thread::LocalKey<RefCell<Option<T>>>,
        Option<T>,
    );
    impl<T: 'static> Drop for Restore<T> {
        fn drop(&mut self) {
            let prev = self.1.take();
            self.0.with(|a| *a.borrow_mut() = prev);
        }
    }
    let prev = slot.with(|a| a.borrow_mut().replace(value));
    let _restore = Restore(slot, prev);
    f()
}

/// The adversary's value for `cell`, if it writes one.
pub(crate) fn cell_override(cell: &CellRef) -> Option<Native> {
    ADVERSARY.with(|a| a.borrow().as_ref().and_then(|x| x.cells.get(cell).copied()))
}

/// Every cell the adversary writes in phase `phase` (for the unassigned ones).
pub(crate) fn phase_overrides(phase: u8) -> Vec<(CellRef, Native)> {
    ADVERSARY.with(|a| {
        a.borrow().as_ref().map_or_else(Vec::new, |x| {
            let mut v: Vec<_> = x
                .cells
                .iter()
                .filter(|(c, _)| c.phase == phase)
                .map(|(c, v)| (*c, *v))
                .collect();
            v.sort_by_key(|(c, _)| *c);
            v
        })
    })
}

/// Whether the relation blocks are laid out unpinned (see [`Adversary::unpinned`]).
pub(crate) fn unpinned() -> bool {
    ADVERSARY.with(|a| a.borrow().as_ref().is_some_and(|x| x.unpinned))
}
