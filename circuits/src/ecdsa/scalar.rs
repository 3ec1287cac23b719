//! The scalar side of an ECDSA verification, in the `Fq` chip (integers mod the group order n):
//! the range of `s`, the quotients `u = h/s` and `v = r/s`, and `r = x(R) mod n`.
//!
//! Everything here works on canonical values ([`Reduced`]), so a scalar has exactly one
//! representation and equality, zero tests and window decompositions mean what they say.
//! A scalar proven non-zero is a [`NonZeroScalar`]: only such a value can be a divisor, so the
//! "division by zero leaves the quotient free" gap (halo2-lib PR #41) is a type error here.

use ff::Field;
use halo2curves::secp256k1::{Fp, Fq};
use num_bigint::BigUint;
use num_traits::One;

use crate::bigint::{big_to_fe, fe_to_big, modulus, native, pow2};
use crate::field::params::{to_limbs, LIMB_BITS};
use crate::field::{FieldChip, FieldError, FieldValue, Proper, Reduced};
use crate::layout::{AssignedValue, Builder, Native};
use crate::range::AssignedBit;

/// A canonical scalar (`0 < x < n`) proven non-zero. Made only by [`assert_nonzero`] and the
/// functions that call it.
#[derive(Clone, Debug)]
pub struct NonZeroScalar(Reduced<Fq>);

impl NonZeroScalar {
    /// The canonical value.
    pub fn value(&self) -> &Reduced<Fq> {
        &self.0
    }
}

/// Proves a canonical `x ≠ 0`: `is_zero(x)` (the sum of the limbs, exact for canonical limbs)
/// pinned to 0 by a copy constraint with the constant-0 cell. 5 cells, against 71 for proving
/// `x` invertible with a witnessed inverse; for a canonical `x < n`, `x ≠ 0` is the same as
/// `x ≢ 0 (mod n)`.
pub fn assert_nonzero(fq: &FieldChip<Fq>, b: &mut Builder, x: &Reduced<Fq>) -> NonZeroScalar {
    let z: AssignedBit = fq.is_zero(b, x);
    let zero = b.constant(Native::ZERO);
    b.constrain_equal(z.cell(), &zero);
    NonZeroScalar(x.clone())
}

/// Loads the signature scalar `s` and proves `1 ≤ s < n`: limbs range-checked (88/88/80 bits,
/// so `0 ≤ s < 2^256`), `s ≤ n − 1` by the chip's less-or-equal block, `s ≠ 0` by
/// [`assert_nonzero`]. A witness `s ≥ n` or `s = 0` leaves the circuit unsatisfied.
/// Errors only when `s ≥ 2^256` (not representable in three limbs at all).
pub fn load_signature_scalar(
    fq: &FieldChip<Fq>,
    b: &mut Builder,
    s: &BigUint,
) -> Result<NonZeroScalar, FieldError> {
    let s = fq.load_uint(b, s)?;
    let s = fq.assert_canonical(b, &s);
    Ok(assert_nonzero(fq, b, &s))
}

/// Loads an integer `< 2^256` and proves it canonical (`< n`); for the public message hash
/// `h` (already reduced mod n by whoever computes the public inputs).
pub fn load_canonical_scalar(
    fq: &FieldChip<Fq>,
    b: &mut Builder,
    x: &BigUint,
) -> Result<Reduced<Fq>, FieldError> {
    let x = fq.load_uint(b, x)?;
    Ok(fq.assert_canonical(b, &x))
}

/// `num / den mod n` as a proper scalar: one relation block `q·den − num ≡ 0 (mod n)` with `q`
/// the new value (`FieldChip::div_by_nonzero`). Since `den ≢ 0` is proven (its type) and n is
/// prime, `q ≡ num·den⁻¹` is the only solution mod n; `q` is proper (limbs range-checked,
/// maybe `≥ n`), which is all the MSM's recoding needs (any representative gives the same
/// point).
pub fn div(
    fq: &FieldChip<Fq>,
    b: &mut Builder,
    num: &impl FieldValue<Fq>,
    den: &NonZeroScalar,
) -> Proper<Fq> {
    fq.div_by_nonzero(b, num, den.value())
}

/// `r = x mod n` for the canonical x-coordinate `x ∈ [0, p)` of the nonce point R, proven
/// non-zero: the ECDSA `r` that the signature would carry.
///
/// **Relation.** Witness `r` (canonical Fq, `0 ≤ r < n`) and a bit `β`, and prove
/// `x = r + β·n` over the integers. Since `p < 2n`, `x ∈ [0, p)` has exactly one such pair:
/// `β = 0, r = x` when `x < n`, and `β = 1, r = x − n` when `n ≤ x < p` (the rare
/// `x ∈ [n, p)` case, probability ≈ 2^-127 for a random R, which Wycheproof tests). `β = 1`
/// with `x < n` would need `r < 0`, and `β = 0` with `x ≥ n` would need `r ≥ n`; both are
/// excluded by r's limb range checks and `r < n`.
///
/// **Across the limbs.** x and r both have 3 limbs (88, 88, 80 bits, range-checked). With
/// `X_lo = x_0 + 2^88·x_1`, `R_lo`, `N_lo` likewise (176 bits):
///
/// ```text
///   (1)  R_lo + β·N_lo − X_lo = 0
///   (2)  r_2  + β·n_2  − x_2  = 0
/// ```
///
/// Each left side is an integer of absolute value `< 2^177` in (1) and `< 2^82` in (2), far
/// below the BN254 modulus (≈ 2^253.6), so each holds over the integers, and (1) + 2^176·(2) is
/// `r + β·n − x = 0`. No carry from the low to the high part is needed: `R_lo + N_lo ≥ 2^176`
/// would need `r ≥ 2^176 − N_lo = 2^256 − n` (secp256k1's `n_2 = 2^80 − 1`, so
/// `n = 2^256 − 2^176 + N_lo`), i.e. `x = r + n ≥ 2^256 > p`; so for every honest witness
/// (1) and (2) hold as written, and requiring them is only stronger. `β` is looked up in the
/// 1-bit table section (or proven boolean). The equations are chains of the range layer's
/// linear rows ending in a copy of the constant-0 cell.
///
/// Finally `r ≠ 0` ([`assert_nonzero`]): ECDSA demands `1 ≤ r`, and a zero `r` would make
/// `v = r/s = 0`.
pub fn x_mod_n(fq: &FieldChip<Fq>, b: &mut Builder, x: &Reduced<Fp>) -> NonZeroScalar {
    let n = modulus::<Fq>();
    let xv = fe_to_big(&x.fe());
    let beta = xv >= n;
    let rv = if beta { &xv - &n } else { xv.clone() };
    let r = fq.load_reduced(b, big_to_fe::<Fq>(&rv));
    let lo_mask = (BigUint::one() << (2 * LIMB_BITS)) - 1u32;
    let n_lo = &n & &lo_mask;
    let range = &fq.range;
    let beta_bit = range.load_bit(b, beta);
    let nl = to_limbs(&n);
    let (one, zero) = (Native::ONE, Native::ZERO);
    let weighted =
        |b: &mut Builder, a: &AssignedValue, c: &AssignedValue, alpha: Native, bt: Native| {
            range.weighted_sum(b, a, alpha, c, bt)
        };
    let (rl, xl) = (r.limbs(), x.limbs());
    let b88 = pow2(LIMB_BITS);
    // (1)
    let t = weighted(b, &rl[0], &rl[1], one, b88);
    let t = weighted(b, &t, beta_bit.cell(), one, native(&n_lo));
    let t = weighted(b, &t, &xl[0], one, -one);
    let t = weighted(b, &t, &xl[1], one, -b88);
    let zero_cell = b.constant(zero);
    b.constrain_equal(&t, &zero_cell);
    // (2)
    let t = weighted(b, &rl[2], beta_bit.cell(), one, native(&nl[2]));
    let t = weighted(b, &t, &xl[2], one, -one);
    b.constrain_equal(&t, &zero_cell);
    assert_nonzero(fq, b, &r)
}
