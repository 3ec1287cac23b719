//! Fixed-base multiplication by the generator `G` from a precomputed table.
//!
//! The table holds `m · 2^(8j) · G` for every window `j` (33 windows of 8 bits, enough for
//! the signed recoding of a 256-bit scalar) and `m = 1..=128`, in affine form (4224 points,
//! about 280 KiB), built once on first use ([`std::sync::OnceLock`]). With the signed digits
//! `d_j` of `k`, `k·G = Σ_j sign(d_j) · T[j][|d_j|]`: at most 33 mixed additions and no
//! doubling at all.

use super::digits::{num_windows, signed_digits_into};
use super::point::{batch_normalize, Affine, Jacobian};
use halo2curves::secp256k1::{Fq, Secp256k1Affine};
use std::sync::OnceLock;

const WINDOW: usize = 8;
const ENTRIES: usize = 1 << (WINDOW - 1);

fn table() -> &'static [Affine] {
    static TABLE: OnceLock<Vec<Affine>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let windows = num_windows(WINDOW);
        let mut jac = Vec::with_capacity(windows * ENTRIES);
        let mut base = Jacobian::from_affine(&Affine::from_halo2(&Secp256k1Affine::generator()));
        for _ in 0..windows {
            let mut cur = base;
            jac.push(cur);
            for _ in 2..=ENTRIES {
                cur = cur.add(&base);
                jac.push(cur);
            }
            // 2^8 · base = 2 · (128 · base)
            base = cur.double();
        }
        batch_normalize(&jac)
    })
}

/// `k · G` in Jacobian form.
pub(crate) fn mul_generator_jacobian(k: &Fq) -> Jacobian {
    let table = table();
    let mut digits = [0i32; 33];
    let nw = num_windows(WINDOW);
    signed_digits_into(k, WINDOW, &mut digits[..nw]);
    let mut acc = Jacobian::IDENTITY;
    for (j, &d) in digits[..nw].iter().enumerate() {
        if d == 0 {
            continue;
        }
        let entry = &table[j * ENTRIES + (d.unsigned_abs() as usize - 1)];
        acc = if d > 0 {
            acc.add_affine(entry)
        } else {
            acc.sub_affine(entry)
        };
    }
    acc
}
