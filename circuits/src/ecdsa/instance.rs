//! The public instance of the ECDSA circuits: per signature the message hash `h` and the public
//! key `Q`, as limbs.
//!
//! **Layout** (one instance column; signature i occupies rows `9·i .. 9·i + 9`):
//!
//! | row        | value                                   |
//! | ---------- | --------------------------------------- |
//! | 9i + 0..3  | `h` limbs 0, 1, 2                       |
//! | 9i + 3..6  | `x(Q)` limbs 0, 1, 2                    |
//! | 9i + 6..9  | `y(Q)` limbs 0, 1, 2                    |
//!
//! Limbs are little-endian: `value = l_0 + 2^88·l_1 + 2^176·l_2` with `l_0, l_1 < 2^88` and
//! `l_2 < 2^80`, exactly the limbs of the field chip, so each instance cell is bound by one copy
//! constraint to a limb cell of the circuit (no recomposition gate). `h` is the message hash as
//! a scalar, i.e. the 32-byte big-endian digest reduced mod n (SEC 1 for 256-bit hashes), and
//! the circuit proves it canonical (`< n`); `x(Q)`, `y(Q)` are the affine coordinates, proven
//! canonical (`< p`) and on the curve. A verifier that feeds non-canonical limbs gets a failing
//! proof, not a statement about another key.

use halo2curves::secp256k1::{Fq, Secp256k1Affine};
use num_bigint::BigUint;

use crate::bigint::{fe_to_big, native};
use crate::field::params::to_limbs;
use crate::layout::Native;

/// Instance cells per signature (h, x(Q), y(Q), three limbs each).
pub const INSTANCE_CELLS_PER_SIGNATURE: usize = 9;

/// The 9 instance values of one signature from raw integers (each `< 2^256`).
pub fn signature_instance_raw(h: &BigUint, qx: &BigUint, qy: &BigUint) -> [Native; 9] {
    let mut out = [Native::from(0u64); 9];
    for (j, v) in [h, qx, qy].into_iter().enumerate() {
        for (i, l) in to_limbs(v).iter().enumerate() {
            out[3 * j + i] = native(l);
        }
    }
    out
}

/// The 9 instance values of one signature: `h` (mod n) and the affine key `Q`.
pub fn signature_instance(h: &Fq, q: &Secp256k1Affine) -> [Native; 9] {
    signature_instance_raw(&fe_to_big(h), &fe_to_big(&q.x), &fe_to_big(&q.y))
}

/// The instance column of a batch, signature after signature.
pub fn batch_instance(items: &[(Fq, Secp256k1Affine)]) -> Vec<Native> {
    items
        .iter()
        .flat_map(|(h, q)| signature_instance(h, q))
        .collect()
}
