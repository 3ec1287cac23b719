//! Multi-scalar multiplication (MSM) on secp256k1: `Σ_i k_i · P_i`, and fixed-base `k · G`.
//!
//! * [`msm_straus`]: shared doublings, one signed-window table per point, and the secp256k1
//!   endomorphism (half the doublings) for up to 16 points; best for few points.
//! * [`msm_pippenger`]: bucket method with signed digits, windows in parallel; best for many.
//! * [`msm`]: picks the method and window from the number of points (crossover measured with
//!   `benches/native.rs`, group `msm`).
//! * [`mul_generator`]: `k · G` from a table built once.
//!
//! All of these are variable time: they are meant for verification, on public data.
//! Internally the points are kept in Jacobian coordinates (`point`) with mixed
//! (Jacobian + affine) additions; tables are normalised to affine with one inversion.
//!
//! Inputs: `points` and `scalars` are paired index by index; if their lengths differ, only the
//! first `min(points.len(), scalars.len())` pairs are used. The identity point is allowed and
//! contributes nothing. Out-of-range windows are clamped to `1..=10` (Straus) and `1..=16`
//! (Pippenger). No input makes these functions panic.

mod bucket;
mod digits;
mod fixed_base;
mod glv;
mod pippenger;
pub(crate) mod point;
pub(crate) mod straus;

#[cfg(test)]
mod tests;

use halo2curves::secp256k1::{Fq, Secp256k1, Secp256k1Affine};
use point::{Affine, Jacobian};

/// Below this many points [`msm`] uses Straus, from here on Pippenger. Measured (single
/// thread, best of 10): Straus w = 4 wins up to 48 points, they tie at 64 (1.6 ms each), and
/// Pippenger wins from 96 points on (2.0 ms vs 2.4 ms).
pub const STRAUS_PIPPENGER_CROSSOVER: usize = 64;

/// The Straus window [`msm`] uses (measured: w = 4 beats w = 5 for 2..=256 points, the
/// larger table costing more than the additions it saves).
pub fn straus_window(_n: usize) -> usize {
    4
}

/// The Pippenger window [`msm`] uses for `n` points: the `c` minimising the cost model
/// `windows(c) · (n + 2 · 2^c + 40 · rounds)`, in units of one batched affine addition
/// (about 7M): per window, `n` affine additions into the buckets, one mixed and one full
/// Jacobian addition per bucket (about 27M, for `2^(c-1)` buckets) to sum them, and one field
/// inversion (about 40 units) per round of bucket filling, `rounds ≈ log2(n / 2^(c-1)) + 1`.
/// Measured optimum (single thread): c = 5..6 at 64-192 points, 6 at 256, 8 at 2048, which
/// the model reproduces.
pub fn pippenger_window(n: usize) -> usize {
    let cost = |c: usize| {
        let per_bucket = (n as f64 / (1u64 << (c - 1)) as f64).max(1.0);
        let rounds = per_bucket.log2().ceil() + 1.0;
        (digits::num_windows(c) as f64) * (n as f64 + 2.0 * (1u64 << c) as f64 + 40.0 * rounds)
    };
    (2..=16usize)
        .min_by(|&a, &b| cost(a).total_cmp(&cost(b)))
        .unwrap_or(8)
}

fn to_internal(points: &[Secp256k1Affine]) -> Vec<Affine> {
    points.iter().map(Affine::from_halo2).collect()
}

/// `Σ_i scalars[i] · points[i]`, by Straus or Pippenger depending on the number of points.
pub fn msm(points: &[Secp256k1Affine], scalars: &[Fq]) -> Secp256k1 {
    msm_internal(&to_internal(points), scalars).to_halo2()
}

pub(crate) fn msm_internal(points: &[Affine], scalars: &[Fq]) -> Jacobian {
    let n = points.len().min(scalars.len());
    if n < STRAUS_PIPPENGER_CROSSOVER {
        straus::straus(points, scalars, straus_window(n))
    } else {
        pippenger::pippenger(points, scalars, pippenger_window(n))
    }
}

/// `Σ_i scalars[i] · points[i]` by Straus' method with signed windows of `window` bits (and
/// the GLV endomorphism for up to 16 points).
pub fn msm_straus(points: &[Secp256k1Affine], scalars: &[Fq], window: usize) -> Secp256k1 {
    straus::straus(&to_internal(points), scalars, window).to_halo2()
}

/// `Σ_i scalars[i] · points[i]` by Pippenger's bucket method with signed windows of `window` bits.
pub fn msm_pippenger(points: &[Secp256k1Affine], scalars: &[Fq], window: usize) -> Secp256k1 {
    pippenger::pippenger(&to_internal(points), scalars, window).to_halo2()
}

/// `k · G` from a precomputed fixed-base table (built on first call).
pub fn mul_generator(k: &Fq) -> Secp256k1 {
    fixed_base::mul_generator_jacobian(k).to_halo2()
}

pub(crate) fn mul_generator_internal(k: &Fq) -> Jacobian {
    fixed_base::mul_generator_jacobian(k)
}
