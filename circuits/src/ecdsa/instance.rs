//! The public instance of the ECDSA circuits: per signature the message hash `h` and the public
//! key `Q`, packed into four field elements.
//!
//! **Layout** (one instance column; signature i occupies rows `4·i .. 4·i + 4`), with
//! `v = l₀ + 2^88·l₁ + 2^176·l₂` the limbs of the field chip (`l₀, l₁ < 2^88`, `l₂ < 2^80`):
//!
//! | row    | value                                          |
//! | ------ | ---------------------------------------------- |
//! | 4i + 0 | `h₀ + 2^88·h₁` (the low 176 bits of `h`)        |
//! | 4i + 1 | `x₀ + 2^88·x₁` (of `x(Q)`)                      |
//! | 4i + 2 | `y₀ + 2^88·y₁` (of `y(Q)`)                      |
//! | 4i + 3 | `h₂ + 2^80·x₂ + 2^160·y₂` (the three top limbs) |
//!
//! Each packed value is a sum of range-checked limbs times distinct powers of two below 2^240,
//! so it is an integer `< 2^240 < r` that determines its limbs uniquely: binding the packed
//! cell (computed by lin rows from the limb cells, [`pack_public`]) to the instance binds every
//! limb. Four values instead of nine make the verifier's instance evaluation (one Lagrange
//! term per value) and any on-chain public-input cost 2.25× smaller. `h` is the message hash as
//! a scalar, i.e. the 32-byte big-endian digest reduced mod n (SEC 1 for 256-bit hashes), and
//! the circuit proves it canonical (`< n`); `x(Q)`, `y(Q)` are the affine coordinates, proven
//! canonical (`< p`) and on the curve. A verifier that feeds other values gets a failing proof,
//! not a statement about another key.

use halo2curves::secp256k1::{Fq, Secp256k1Affine};
use num_bigint::BigUint;

use crate::bigint::{fe_to_big, native, pow2};
use crate::field::params::{to_limbs, LIMB_BITS, TOP_LIMB_BITS};
use crate::layout::{AssignedValue, Builder, Native};
use crate::range::RangeChip;

/// Instance cells per signature (see the module doc).
pub const INSTANCE_CELLS_PER_SIGNATURE: usize = 4;

/// The 4 instance values of one signature from raw integers (each `< 2^256`).
pub fn signature_instance_raw(
    h: &BigUint,
    qx: &BigUint,
    qy: &BigUint,
) -> [Native; INSTANCE_CELLS_PER_SIGNATURE] {
    let [h, x, y] = [h, qx, qy].map(|v| to_limbs(v).map(|l| native(&l)));
    let low = |l: &[Native; 3]| l[0] + pow2(LIMB_BITS) * l[1];
    [
        low(&h),
        low(&x),
        low(&y),
        h[2] + pow2(TOP_LIMB_BITS) * x[2] + pow2(2 * TOP_LIMB_BITS) * y[2],
    ]
}

/// The cells bound to the instance for one signature, from the limb cells of `h`, `x(Q)`,
/// `y(Q)` (range-checked where they were loaded): five lin rows computing the packed values of
/// the module doc, in instance order.
pub fn pack_public(
    range: &RangeChip,
    b: &mut Builder,
    h: &[AssignedValue; 3],
    x: &[AssignedValue; 3],
    y: &[AssignedValue; 3],
) -> [AssignedValue; INSTANCE_CELLS_PER_SIGNATURE] {
    use ff::Field;
    let (one, zero) = (Native::ONE, Native::ZERO);
    let mut low = |l: &[AssignedValue; 3]| {
        range.lin(
            b,
            Some(&l[0]),
            Some(&l[1]),
            one,
            pow2(LIMB_BITS),
            zero,
            zero,
        )
    };
    let (ph, px, py) = (low(h), low(x), low(y));
    let t = range.lin(
        b,
        Some(&h[2]),
        Some(&x[2]),
        one,
        pow2(TOP_LIMB_BITS),
        zero,
        zero,
    );
    let top = range.lin(
        b,
        Some(&t),
        Some(&y[2]),
        one,
        pow2(2 * TOP_LIMB_BITS),
        zero,
        zero,
    );
    [ph, px, py, top]
}

/// The 4 instance values of one signature: `h` (mod n) and the affine key `Q`.
pub fn signature_instance(h: &Fq, q: &Secp256k1Affine) -> [Native; INSTANCE_CELLS_PER_SIGNATURE] {
    signature_instance_raw(&fe_to_big(h), &fe_to_big(&q.x), &fe_to_big(&q.y))
}

/// The instance column of a batch, signature after signature.
pub fn batch_instance(items: &[(Fq, Secp256k1Affine)]) -> Vec<Native> {
    items
        .iter()
        .flat_map(|(h, q)| signature_instance(h, q))
        .collect()
}
