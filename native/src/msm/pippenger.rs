//! Pippenger's bucket method with signed digits, windows spread over threads (rayon).
//!
//! Scalars are recoded into signed digits of width `c` ([`super::digits`]). For each window
//! `j`, every point goes into bucket `|d_ij|` (negated when `d_ij < 0`), the buckets being
//! filled with batched affine additions ([`super::bucket`]); the window sum `Σ_m m·B_m`
//! then costs `2·2^(c-1)` additions by the running-sum
//! trick. The windows are independent (computed in parallel) and are finally combined by
//! Horner's rule with `c` doublings per window. Cost: about `(257/c)·(N + 2^c)` additions.

use super::bucket::fill_buckets;
use super::digits::{num_windows, signed_digits_into};
use super::point::{Affine, Jacobian};
use halo2curves::secp256k1::Fq;
use rayon::prelude::*;

/// Largest window accepted; larger requests are clamped (buckets grow as `2^(c-1)`).
pub(crate) const MAX_WINDOW: usize = 16;

pub(crate) fn pippenger(points: &[Affine], scalars: &[Fq], window: usize) -> Jacobian {
    let c = window.clamp(1, MAX_WINDOW);
    let n = points.len().min(scalars.len());
    if n == 0 {
        return Jacobian::IDENTITY;
    }
    let nw = num_windows(c);

    // Digits laid out window-major so each window reads a contiguous slice.
    let mut point_digits = vec![0i32; n * nw];
    point_digits
        .par_chunks_exact_mut(nw)
        .zip(scalars[..n].par_iter())
        .for_each(|(out, k)| signed_digits_into(k, c, out));
    let mut digits = vec![0i32; n * nw];
    for (i, row) in point_digits.chunks_exact(nw).enumerate() {
        for (j, &d) in row.iter().enumerate() {
            digits[j * n + i] = d;
        }
    }

    let window_sums: Vec<Jacobian> = digits
        .par_chunks_exact(n)
        .map(|window_digits| window_sum(&points[..n], window_digits, c))
        .collect();

    let mut acc = Jacobian::IDENTITY;
    for sum in window_sums.iter().rev() {
        for _ in 0..c {
            acc = acc.double();
        }
        acc = acc.add(sum);
    }
    acc
}

/// `Σ_i d_i · P_i` for one window's digits `d_i` (`|d_i| <= 2^(c-1)`).
fn window_sum(points: &[Affine], digits: &[i32], c: usize) -> Jacobian {
    let buckets = fill_buckets(points, digits, 1usize << (c - 1));
    // Σ_m m·B_m = Σ_m (B_m + B_{m+1} + … + B_top), accumulated from the top bucket down.
    let mut running = Jacobian::IDENTITY;
    let mut total = Jacobian::IDENTITY;
    for b in buckets.iter().rev() {
        running = running.add_affine(b);
        total = total.add(&running);
    }
    total
}
