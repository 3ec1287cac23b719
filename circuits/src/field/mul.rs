//! Multiplication and what is built on it: square, mul by constant, inverse, division, reduce,
//! `x·y ≡ z` checks. Each is one relation block (`field::relation`), whose module doc says why
//! a dishonest witness cannot pass.

use ff::PrimeField;
use num_bigint::BigUint;

use super::chip::FieldChip;
use super::relation::{NewValue, Relation};
use super::types::{FieldValue, Proper, Reduced};

impl<P: PrimeField> FieldChip<P> {
    /// `x·y mod p` as a proper value (honestly canonical; `assert_canonical` proves it): the
    /// relation `x·y − r ≡ 0` with `r` the block's new value (range-checked 88/88/80 bits).
    pub fn mul(
        &self,
        b: &mut Builder,
        x: &impl FieldValue<P>,
        y: &impl FieldValue<P>,
    ) -> Proper<P> {
        self.new_value(b, &Relation::product(x, y).remainder())
    }

    /// `x²`.
    pub fn square(&self, b: &mut Builder, x: &impl FieldValue<P>) -> Proper<P> {
        self.mul(b, x, x)
    }

    /// `x·c` for a field constant `c` (the constant's limbs are cached constant cells).
    pub fn mul_const(&self, b: &mut Builder, x: &impl FieldValue<P>, c: P) -> Proper<P> {
        let k = self.load_constant(b, c);
        self.mul(b, x, &k)
    }

    /// `x⁻¹`: the relation `v·x − 1 ≡ 0` with `v` the new value (a factor). If
    /// `x ≡ 0 (mod p)` then `v·x − 1 ≡ −1` for every `v`: no witness satisfies the circuit (the
    /// halo2-lib PR #41 class); the honest generator then writes `v = 0` and the proof fails, it
    /// does not panic.
    pub fn inv(&self, b: &mut Builder, x: &impl FieldValue<P>) -> Proper<P> {
        self.new_value(b, &Relation::factor_times(x, None).constant(-1))
    }

    /// Proves `x ≢ 0 (mod p)` (for any lazy `x`), by exhibiting its inverse (see [`Self::inv`]).
    pub fn assert_nonzero(&self, b: &mut Builder, x: &impl FieldValue<P>) {
        self.inv(b, x);
    }

    /// `x / y`, checked: `y⁻¹` then `x·y⁻¹` (two blocks); unsatisfiable when `y ≡ 0`,
    /// whatever `x` is (so 0/0 is rejected too).
    pub fn div(
        &self,
        b: &mut Builder,
        x: &impl FieldValue<P>,
        y: &impl FieldValue<P>,
    ) -> Proper<P> {
        let yi = self.inv(b, y);
        self.mul(b, x, &yi)
    }

    /// `x / y` in one block (`v·y − x ≡ 0`, `v` a factor) for a divisor the caller has proven
    /// `≢ 0 (mod p)` (e.g. a signature's `s`, proven in `[1, n)`). With `y ≢ 0` the solution
    /// is unique mod p; with `y ≡ 0` and `x ≡ 0` it would be free, hence the precondition.
    pub fn div_by_nonzero(
        &self,
        b: &mut Builder,
        x: &impl FieldValue<P>,
        y: &impl FieldValue<P>,
    ) -> Proper<P> {
        self.new_value(b, &Relation::factor_times(y, None).plus_term(-1, x))
    }

    /// The canonical value of any (lazy or proper) `x`: the relation `x − r ≡ 0` with `r` the
    /// new value, then `r ≤ p − 1`.
    pub fn reduce(&self, b: &mut Builder, x: &impl FieldValue<P>) -> Reduced<P> {
        let r = self.new_value(b, &Relation::linear().plus_term(1, x).remainder());
        self.assert_canonical(b, &r)
    }

    /// The mul block with a caller-chosen witness `(q, r)` (no check that it is honest): lets
    /// soundness tests try forged quotients and remainders. Not for circuit code.
    #[doc(hidden)]
    pub fn mul_with_witness(
        &self,
        b: &mut Builder,
        x: &impl FieldValue<P>,
        y: &impl FieldValue<P>,
        q: &BigUint,
        r: &BigUint,
    ) -> Proper<P> {
        self.relation_with_witness(
            b,
            &Relation::product(x, y).remainder(),
            Some(r.clone()),
            Some(q.clone().into()),
        )
        .expect("a remainder relation has a new value")
    }

    /// Proves `x·y ≡ z (mod p)` for any (lazy) `z`, without producing a new value: the relation
    /// `x·y − z ≡ 0`.
    ///
    /// Typical use: `λ` witnessed, `assert_mul_eq(λ, x2 − x1, y2 − y1)`; the caller must also
    /// prove `x2 − x1 ≢ 0`, otherwise `λ` is free (the division-by-zero gap). (The ecc chip
    /// uses the relation block directly, which folds the differences into the gate.)
    pub fn assert_mul_eq(
        &self,
        b: &mut Builder,
        x: &impl FieldValue<P>,
        y: &impl FieldValue<P>,
        z: &impl FieldValue<P>,
    ) {
        self.relation(b, &Relation::product(x, y).plus_term(-1, z));
    }

    /// The new value of a relation that has one (a construction error otherwise).
    pub fn new_value(&self, b: &mut Builder, rel: &Relation<'_>) -> Proper<P> {
        assert!(rel.new != NewValue::None, "the relation has no new value");
        self.relation(b, rel)
            .expect("a relation with a new value returns it")
    }
}

use crate::layout::Builder;
