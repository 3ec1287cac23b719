//! Signed fixed-window recoding of scalars.
//!
//! A scalar `k < 2^256` is written as `k = Σ_j d_j · 2^(c·j)` with digits
//! `-2^(c-1) < d_j <= 2^(c-1)` for every window but the last, which takes the final carry
//! unsigned (`0 <= d_last <= 2^(c-1)`, see [`num_windows`]). Signed digits halve the number of
//! buckets (Pippenger) or table entries (Straus): a negative digit adds the negated point, and
//! negating an affine point is free.

use ff::PrimeField;
use halo2curves::secp256k1::Fq;

/// The canonical little-endian 64-bit limbs of a scalar.
pub(crate) fn scalar_limbs(k: &Fq) -> [u64; 4] {
    let repr = k.to_repr();
    let mut limbs = [0u64; 4];
    for (limb, chunk) in limbs.iter_mut().zip(repr.chunks_exact(8)) {
        let mut b = [0u8; 8];
        b.copy_from_slice(chunk);
        *limb = u64::from_le_bytes(b);
    }
    limbs
}

/// Number of windows of width `c` so that the windows cover at least 257 bits: then the last
/// window holds at most `c - 1` bits of the scalar plus a carry, i.e. a value `<= 2^(c-1)`,
/// and never needs to carry out.
pub(crate) fn num_windows(c: usize) -> usize {
    256 / c + 1
}

/// Bits `[pos, pos + c)` of `limbs` (bits past 256 read as zero); `c <= 32`.
fn window_bits(limbs: &[u64; 4], pos: usize, c: usize) -> u64 {
    let limb = pos / 64;
    if limb >= 4 {
        return 0;
    }
    let shift = pos % 64;
    let mut v = limbs[limb] >> shift;
    if shift + c > 64 && limb + 1 < 4 {
        v |= limbs[limb + 1] << (64 - shift);
    }
    v & ((1u64 << c) - 1)
}

/// Writes the signed digits of `k` (window `c`, `1 <= c <= 24`) into `out`
/// (length [`num_windows`]`(c)`), least significant first.
pub(crate) fn signed_digits_into(k: &Fq, c: usize, out: &mut [i32]) {
    let limbs = scalar_limbs(k);
    let half = 1i64 << (c - 1);
    let full = 1i64 << c;
    let mut carry = 0i64;
    let last = out.len() - 1;
    for (j, d) in out.iter_mut().enumerate() {
        let v = window_bits(&limbs, j * c, c) as i64 + carry;
        if j < last && v > half {
            *d = (v - full) as i32;
            carry = 1;
        } else {
            *d = v as i32;
            carry = 0;
        }
    }
}

/// The signed digits of `k` for window `c`, least significant first.
#[cfg(test)]
pub(crate) fn signed_digits(k: &Fq, c: usize) -> Vec<i32> {
    let mut out = vec![0i32; num_windows(c)];
    signed_digits_into(k, c, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use ff::Field;
    use rand_chacha::ChaCha20Rng;
    use rand_core::SeedableRng;

    #[test]
    fn digits_recompose_to_the_scalar() {
        let mut rng = ChaCha20Rng::seed_from_u64(7);
        let mut scalars = vec![Fq::ZERO, Fq::ONE, -Fq::ONE, -Fq::from(2u64)];
        scalars.extend((0..50).map(|_| Fq::random(&mut rng)));
        for c in 1..=16usize {
            let radix = Fq::from(1u64 << c);
            for k in &scalars {
                let digits = signed_digits(k, c);
                let half = 1i32 << (c - 1);
                let mut acc = Fq::ZERO;
                for (j, &d) in digits.iter().enumerate().rev() {
                    assert!(d <= half && d > -half, "digit {d} out of range, c = {c}");
                    if j == digits.len() - 1 {
                        assert!(d >= 0);
                    }
                    acc *= radix;
                    let mag = Fq::from(d.unsigned_abs() as u64);
                    acc += if d < 0 { -mag } else { mag };
                }
                assert_eq!(acc, *k, "c = {c}");
            }
        }
    }
}
