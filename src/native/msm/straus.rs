//! Straus' (Shamir's trick generalised) multi-scalar multiplication with signed windows.
//!
//! Every point `P_i` gets a table `P_i, 2P_i, …, 2^(w-1)·P_i` (all tables normalised to affine
//! together with one inversion). The scalars are recoded into signed digits of width `w`, and
//! one accumulator runs from the top window down: `w` doublings shared by all points, then one
//! mixed addition per point with a non-zero digit. Cost: about `257` doublings in total plus,
//! per point, `2^(w-1)` table additions and `257/w` mixed additions. Best for few points.

use super::digits::{num_windows, signed_digits_into};
use super::point::{batch_normalize, Affine, Jacobian};
use halo2curves::secp256k1::Fq;

/// Largest window accepted; larger requests are clamped (tables grow as `2^(w-1)`).
pub(crate) const MAX_WINDOW: usize = 10;

pub(crate) fn straus(points: &[Affine], scalars: &[Fq], window: usize) -> Jacobian {
    let w = window.clamp(1, MAX_WINDOW);
    let n = points.len().min(scalars.len());
    if n == 0 {
        return Jacobian::IDENTITY;
    }
    let table_len = 1usize << (w - 1);

    // Tables in Jacobian form: entry m-1 holds m·P.
    let mut jac = Vec::with_capacity(n * table_len);
    for p in &points[..n] {
        let base = Jacobian::from_affine(p);
        let mut cur = base;
        jac.push(cur);
        for m in 2..=table_len {
            cur = if m == 2 {
                base.double()
            } else {
                cur.add_affine(p)
            };
            jac.push(cur);
        }
    }
    let table = batch_normalize(&jac);

    let nw = num_windows(w);
    let mut digits = vec![0i32; n * nw];
    for (k, out) in scalars[..n].iter().zip(digits.chunks_exact_mut(nw)) {
        signed_digits_into(k, w, out);
    }

    let mut acc = Jacobian::IDENTITY;
    for j in (0..nw).rev() {
        for _ in 0..w {
            acc = acc.double();
        }
        for i in 0..n {
            let d = digits[i * nw + j];
            if d == 0 {
                continue;
            }
            let entry: &Affine = &table[i * table_len + (d.unsigned_abs() as usize - 1)];
            acc = if d > 0 {
                acc.add_affine(entry)
            } else {
                acc.sub_affine(entry)
            };
        }
    }
    acc
}
