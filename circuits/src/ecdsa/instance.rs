//! The public instance of the ECDSA circuits: per signature the message hash `h` and the public
//! key `Q`, packed into three field elements.
//!
//! **Layout** (one instance column; signature i occupies rows `3·i .. 3·i + 3`), with
//! `v = l₀ + 2^88·l₁ + 2^176·l₂` the limbs of the field chip (`l₀, l₁ < 2^88`, `l₂ < 2^80`) and
//! `π` the parity of `y(Q)` (its lowest bit):
//!
//! | row    | value                                          |
//! | ------ | ---------------------------------------------- |
//! | 3i + 0 | `h₀ + 2^88·h₁` (the low 176 bits of `h`)        |
//! | 3i + 1 | `x₀ + 2^88·x₁` (of `x(Q)`)                      |
//! | 3i + 2 | `h₂ + 2^80·x₂ + 2^160·π`                        |
//!
//! Each packed value is a sum of range-checked limbs (and a proven bit) times distinct powers
//! of two below 2^176 + 2^88, so it is an integer `< 2^176 < r` that determines its parts
//! uniquely: binding the packed cell (lin rows from the limb cells, [`pack_public`]) to the
//! instance binds every limb. The binding: each packed cell is copy-constrained to a *mirror*
//! cell at row `j` of main column 0 (the first rows of the last phase's builder,
//! [`crate::layout::Builder::mirror_instance`]), and the `Instance` gate
//! (`CircuitConfig::configure_instance`) forces that cell to equal instance row `j`; the
//! instance column itself has no equality (a smaller proof). `y(Q)` is not public: the circuit loads it canonical and on the
//! curve, and proves `y₀ = 2τ + π` with `τ < 2^87` range-checked, so `π` is the parity of the
//! canonical `y`; the two square roots `±y` of `x³ + 7` have different parities (p is odd), so
//! `(x, π)` names exactly one key (SEC 1 point compression). Three values instead of the nine
//! limbs make the verifier's instance evaluation (two exponentiations per value in halo2) and
//! any on-chain public-input cost three times smaller. `h` is the message hash as a scalar, i.e.
//! the 32-byte big-endian digest reduced mod n (SEC 1 for 256-bit hashes), and the circuit
//! proves it canonical (`< n`); `x(Q)` is proven canonical (`< p`). A verifier that feeds other
//! values gets a failing proof, not a statement about another key.

use halo2curves::secp256k1::{Fq, Secp256k1Affine};
use num_bigint::BigUint;

use crate::bigint::{fe_to_big, native, pow2};
use crate::field::params::{to_limbs, LIMB_BITS, TOP_LIMB_BITS};
use crate::layout::{AssignedValue, Builder, Native};
use crate::range::RangeChip;

/// Instance cells per signature (see the module doc).
pub const INSTANCE_CELLS_PER_SIGNATURE: usize = 3;

/// The 3 instance values of one signature from raw integers (each `< 2^256`; `qy` only for its
/// parity).
pub(crate) fn signature_instance_raw(
    h: &BigUint,
    qx: &BigUint,
    qy: &BigUint,
) -> [Native; INSTANCE_CELLS_PER_SIGNATURE] {
    let [h, x] = [h, qx].map(|v| to_limbs(v).map(|l| native(&l)));
    let parity = Native::from(u64::from(qy.bit(0)));
    [
        h[0] + pow2(LIMB_BITS) * h[1],
        x[0] + pow2(LIMB_BITS) * x[1],
        h[2] + pow2(TOP_LIMB_BITS) * x[2] + pow2(2 * TOP_LIMB_BITS) * parity,
    ]
}

/// The cells bound to the instance for one signature, from the limb cells of `h`, `x(Q)`,
/// `y(Q)` (range-checked and canonical where they were loaded): the parity `π` of `y` with
/// `y₀ = 2τ + π` (`π` a proven bit, `τ` range-checked to 87 bits, so the native equation holds
/// over the integers: `2τ + π < 2^88`), then four lin rows computing the packed values of the
/// module doc, in instance order.
pub(crate) fn pack_public(
    range: &RangeChip,
    b: &mut Builder,
    h: &[AssignedValue; 3],
    x: &[AssignedValue; 3],
    y: &[AssignedValue; 3],
) -> [AssignedValue; INSTANCE_CELLS_PER_SIGNATURE] {
    use ff::Field;
    let one = Native::ONE;
    let y0 = fe_to_big(&y[0].value);
    let parity = range.load_bit(b, y0.bit(0));
    let tau = range.load_checked(b, native(&(&y0 >> 1)), LIMB_BITS - 1);
    let y0_again = range.weighted_sum(b, &tau, Native::from(2u64), parity.cell(), one);
    b.constrain_equal(&y0_again, &y[0]);
    let mut low =
        |l: &[AssignedValue; 3]| range.weighted_sum(b, &l[0], one, &l[1], pow2(LIMB_BITS));
    let (ph, px) = (low(h), low(x));
    let t = range.weighted_sum(b, &h[2], one, &x[2], pow2(TOP_LIMB_BITS));
    let top = range.weighted_sum(b, &t, one, parity.cell(), pow2(2 * TOP_LIMB_BITS));
    [ph, px, top]
}

/// The 3 instance values of one signature: `h` (mod n) and the affine key `Q`.
pub(crate) fn signature_instance(
    h: &Fq,
    q: &Secp256k1Affine,
) -> [Native; INSTANCE_CELLS_PER_SIGNATURE] {
    signature_instance_raw(&fe_to_big(h), &fe_to_big(&q.x), &fe_to_big(&q.y))
}

/// The instance column of a batch, signature after signature.
pub fn batch_instance(items: &[(Fq, Secp256k1Affine)]) -> Vec<Native> {
    items
        .iter()
        .flat_map(|(h, q)| signature_instance(h, q))
        .collect()
}
