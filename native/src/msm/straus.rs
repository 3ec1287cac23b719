//! Straus' (Shamir's trick generalised) multi-scalar multiplication with signed windows,
//! optionally with the secp256k1 endomorphism.
//!
//! Without the endomorphism, every point `P_i` gets a table `P_i, 2P_i, …, 2^(w-1)·P_i` (all
//! tables normalised to affine together with one inversion), the scalars are recoded into
//! signed digits of width `w`, and one accumulator runs from the top window down: `w`
//! doublings shared by all points, then one mixed addition per non-zero digit. Cost: about
//! `257` doublings in total plus, per point, `2^(w-1)` table additions and `257/w` mixed
//! additions.
//!
//! With the endomorphism, every scalar is split as `k = k1 + k2·λ` with `|k1|, |k2| < 2^128` ([`super::glv`]), so
//! `k·P = ±|k1|·P ± |k2|·λP` and `λ·(x, y) = (β·x, y)`. Every point `P_i` gets a table
//! `P_i, 2P_i, …, 2^(w-1)·P_i` (all tables normalised to affine together with one inversion);
//! the table of `λP_i` is the same table with every `x` multiplied by `β`. The half-scalars are
//! recoded into signed digits of width `w`, and one accumulator runs from the highest non-zero
//! window down: `w` doublings shared by all points, then one mixed addition per non-zero digit.
//! Cost: about `129` doublings in total plus, per point, `2^(w-1)` table additions and
//! `2·129/w` mixed additions: half the doublings for a few more additions, which pays only for
//! very few points ([`ENDOMORPHISM_MAX_POINTS`]).

use super::digits::{num_windows, signed_digits_into};
use super::glv::{signed_magnitude, split, BETA};
use super::point::{batch_normalize, Affine, Jacobian};
use halo2curves::secp256k1::Fq;

/// Largest window accepted; larger requests are clamped (tables grow as `2^(w-1)`).
pub(crate) const MAX_WINDOW: usize = 10;

/// Up to this many points Straus uses the endomorphism. Measured (single thread, best of 10,
/// w = 4): 2 points 125 µs with it vs 171 µs without; 16 points 621 vs 618 µs (a tie);
/// 64 points 2288 vs 2092 µs.
pub(crate) const ENDOMORPHISM_MAX_POINTS: usize = 16;

/// `Σ k_i·P_i`, with the endomorphism when `n <=` [`ENDOMORPHISM_MAX_POINTS`].
pub(crate) fn straus(points: &[Affine], scalars: &[Fq], window: usize) -> Jacobian {
    let n = points.len().min(scalars.len());
    straus_with(points, scalars, window, n <= ENDOMORPHISM_MAX_POINTS)
}

pub(crate) fn straus_with(
    points: &[Affine],
    scalars: &[Fq],
    window: usize,
    endomorphism: bool,
) -> Jacobian {
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
    let table_lambda: Vec<Affine> = if endomorphism {
        table
            .iter()
            .map(|a| Affine {
                x: a.x * BETA,
                ..*a
            })
            .collect()
    } else {
        Vec::new()
    };

    // With the endomorphism rows 2i and 2i+1 hold the digits of |k1_i| and |k2_i| (signs in
    // `negate`); without it row i holds the digits of k_i.
    let rows_per_point = if endomorphism { 2 } else { 1 };
    let nw = num_windows(w);
    let mut digits = vec![0i32; rows_per_point * n * nw];
    let mut negate = vec![false; rows_per_point * n];
    for (i, k) in scalars[..n].iter().enumerate() {
        if endomorphism {
            let (k1, k2) = split(k);
            for (h, half) in [k1, k2].into_iter().enumerate() {
                let (neg, mag) = signed_magnitude(half);
                let row = 2 * i + h;
                negate[row] = neg;
                signed_digits_into(&mag, w, &mut digits[row * nw..(row + 1) * nw]);
            }
        } else {
            signed_digits_into(k, w, &mut digits[i * nw..(i + 1) * nw]);
        }
    }
    let Some(top) = (0..nw)
        .rev()
        .find(|&j| digits.chunks_exact(nw).any(|row| row[j] != 0))
    else {
        return Jacobian::IDENTITY;
    };

    let mut acc = Jacobian::IDENTITY;
    for j in (0..=top).rev() {
        for _ in 0..w {
            acc = acc.double();
        }
        for row in 0..rows_per_point * n {
            let d = digits[row * nw + j];
            if d == 0 {
                continue;
            }
            let i = row / rows_per_point;
            let tab = if endomorphism && row % 2 == 1 {
                &table_lambda
            } else {
                &table
            };
            let entry = &tab[i * table_len + (d.unsigned_abs() as usize - 1)];
            acc = if (d < 0) != negate[row] {
                acc.sub_affine(entry)
            } else {
                acc.add_affine(entry)
            };
        }
    }
    acc
}
