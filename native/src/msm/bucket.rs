//! Filling Pippenger buckets with batched affine additions.
//!
//! For one window every point goes to bucket `|d|` (negated when `d < 0`). Instead of adding
//! points one by one into Jacobian buckets (7M + 4S each), the points of each bucket are summed
//! pairwise in rounds, as a tree: in one round every bucket with `k >= 2` pending points gets
//! `floor(k/2)` affine additions, and the slopes' denominators of ALL those additions in all
//! buckets are inverted together (Montgomery's trick: one inversion + 3M per addition). An affine
//! addition then costs about 1S + 5M with the shared inversion, and the rounds number about
//! `log2(points per bucket)`. Exceptional pairs are handled: identity operand, `P + P`
//! (tangent slope `3x^2 / 2y`), `P + (-P) = O`.

use super::point::{batch_invert_fp, Affine};
use ff::Field;
use halo2curves::secp256k1::Fp;

/// Returns `buckets[m] = Σ { sign(d_i)·P_i : |d_i| = m + 1 }` for `m < num_buckets`, each
/// affine (possibly the identity).
pub(crate) fn fill_buckets(points: &[Affine], digits: &[i32], num_buckets: usize) -> Vec<Affine> {
    // Counting sort of the (signed) points by bucket.
    let mut offsets = vec![0usize; num_buckets + 1];
    for (p, &d) in points.iter().zip(digits) {
        if d != 0 && !p.infinity {
            offsets[d.unsigned_abs() as usize] += 1;
        }
    }
    for m in 0..num_buckets {
        offsets[m + 1] += offsets[m];
    }
    let total = offsets[num_buckets];
    let mut cur = vec![Affine::IDENTITY; total];
    let mut fill = offsets.clone();
    for (p, &d) in points.iter().zip(digits) {
        if d != 0 && !p.infinity {
            let m = d.unsigned_abs() as usize - 1;
            cur[fill[m]] = if d > 0 { *p } else { p.neg() };
            fill[m] += 1;
        }
    }

    let mut denominators: Vec<Fp> = Vec::with_capacity(total / 2);
    loop {
        // One round: pair up the points of every bucket.
        denominators.clear();
        let mut any_pair = false;
        for m in 0..num_buckets {
            let seg = &cur[offsets[m]..offsets[m + 1]];
            for pair in seg.chunks_exact(2) {
                any_pair = true;
                denominators.push(pair_denominator(&pair[0], &pair[1]));
            }
        }
        if !any_pair {
            break;
        }
        batch_invert_fp(&mut denominators);

        let mut next = Vec::with_capacity(total / 2 + num_buckets);
        let mut next_offsets = Vec::with_capacity(num_buckets + 1);
        next_offsets.push(0);
        let mut inv = denominators.iter();
        for m in 0..num_buckets {
            let seg = &cur[offsets[m]..offsets[m + 1]];
            let mut pairs = seg.chunks_exact(2);
            for pair in &mut pairs {
                let zinv = inv.next().copied().unwrap_or(Fp::ZERO);
                next.push(add_with_inverse(&pair[0], &pair[1], &zinv));
            }
            next.extend_from_slice(pairs.remainder());
            next_offsets.push(next.len());
        }
        cur = next;
        offsets = next_offsets;
    }

    (0..num_buckets)
        .map(|m| {
            if offsets[m + 1] > offsets[m] {
                cur[offsets[m]]
            } else {
                Affine::IDENTITY
            }
        })
        .collect()
}

/// The denominator of the slope of `a + b`: `x_b - x_a`, or `2·y_a` for a doubling, or 0 when
/// no inversion is needed (identity operand, or `a = -b`).
fn pair_denominator(a: &Affine, b: &Affine) -> Fp {
    if a.infinity || b.infinity {
        return Fp::ZERO;
    }
    if a.x == b.x {
        if a.y == b.y {
            // y != 0 for every finite point: the curve has odd order.
            return a.y.double();
        }
        return Fp::ZERO;
    }
    b.x - a.x
}

/// `a + b` given `zinv`, the inverse of [`pair_denominator`]`(a, b)`.
fn add_with_inverse(a: &Affine, b: &Affine, zinv: &Fp) -> Affine {
    if a.infinity {
        return *b;
    }
    if b.infinity {
        return *a;
    }
    let lambda = if a.x == b.x {
        if a.y != b.y {
            return Affine::IDENTITY;
        }
        let xx = a.x.square();
        (xx.double() + xx) * zinv
    } else {
        (b.y - a.y) * zinv
    };
    let x3 = lambda.square() - a.x - b.x;
    let y3 = lambda * (a.x - x3) - a.y;
    Affine {
        x: x3,
        y: y3,
        infinity: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::msm::point::{batch_normalize, Jacobian};
    use halo2curves::secp256k1::{Fq, Secp256k1};
    use rand_chacha::ChaCha20Rng;
    use rand_core::{RngCore, SeedableRng};

    #[test]
    fn buckets_match_sequential_sums_with_collisions() {
        let mut rng = ChaCha20Rng::seed_from_u64(21);
        // Few distinct points, many repeats and negations, so that pairs hit P + P, P + (-P)
        // and the identity.
        let base: Vec<Jacobian> = (1..=3u64)
            .map(|k| {
                let p = group::Curve::to_affine(&(Secp256k1::generator() * Fq::from(k)));
                Jacobian::from_affine(&Affine::from_halo2(&p))
            })
            .collect();
        let base = batch_normalize(&base);
        for num_buckets in [1usize, 2, 4] {
            let mut points = Vec::new();
            let mut digits = Vec::new();
            for _ in 0..200 {
                let p = base[(rng.next_u32() % 3) as usize];
                points.push(if rng.next_u32() % 2 == 0 { p } else { p.neg() });
                let m = (rng.next_u32() as usize % num_buckets) as i32 + 1;
                digits.push(match rng.next_u32() % 3 {
                    0 => 0,
                    1 => m,
                    _ => -m,
                });
            }
            points.push(Affine::IDENTITY);
            digits.push(1);
            let buckets = fill_buckets(&points, &digits, num_buckets);
            for (m, b) in buckets.iter().enumerate() {
                let mut expected = Jacobian::IDENTITY;
                for (p, &d) in points.iter().zip(&digits) {
                    if d.unsigned_abs() as usize == m + 1 {
                        expected = if d > 0 {
                            expected.add_affine(p)
                        } else {
                            expected.sub_affine(p)
                        };
                    }
                }
                let got = Jacobian::from_affine(b);
                assert_eq!(got.to_halo2(), expected.to_halo2(), "bucket {m}");
            }
        }
    }
}
