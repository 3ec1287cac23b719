//! The secp256k1 endomorphism (GLV): `λ·(x, y) = (β·x, y)` with `λ^3 = 1 (mod n)`,
//! `β^3 = 1 (mod p)`, and the split of a scalar `k = k1 + k2·λ (mod n)` into two halves of
//! about 128 bits each (constants of libsecp256k1, `secp256k1_scalar_split_lambda`; the
//! rounding argument is in its `scalar_impl.h`). Straus with the endomorphism needs half the
//! doublings.

use super::digits::scalar_limbs;
use ff::PrimeField;
use halo2curves::secp256k1::{Fp, Fq};

/// β = 0x7ae96a2b657c07106e64479eac3434e99cf0497512f58995c1396c28719501ee (mod p).
pub(crate) const BETA: Fp = Fp::from_raw([
    0xc1396c28719501ee,
    0x9cf0497512f58995,
    0x6e64479eac3434e9,
    0x7ae96a2b657c0710,
]);

/// −λ, λ = 0x5363ad4cc05c30e0a5261c028812645a122e22ea20816678df02967c1b23bd72 (mod n).
const MINUS_LAMBDA: Fq = Fq::from_raw([
    0xe0cfc810b51283cf,
    0xa880b9fc8ec739c2,
    0x5ad9e3fd77ed9ba4,
    0xac9c52b33fa3cf1f,
]);
const MINUS_B1: Fq = Fq::from_raw([0x6f547fa90abfe4c3, 0xe4437ed6010e8828, 0, 0]);
const MINUS_B2: Fq = Fq::from_raw([
    0xd765cda83db1562c,
    0x8a280ac50774346d,
    0xfffffffffffffffe,
    0xffffffffffffffff,
]);
const G1: [u64; 4] = [
    0xe893209a45dbb031,
    0x3daa8a1471e8ca7f,
    0xe86c90e49284eb15,
    0x3086d221a7d46bcd,
];
const G2: [u64; 4] = [
    0x1571b4ae8ac47f71,
    0x221208ac9df506c6,
    0x6f547fa90abfe4c4,
    0xe4437ed6010e8828,
];

/// `round(a·b / 2^384)` for 256-bit `a, b` (fits in 128 bits + 1).
fn mul_shift_384_rounded(a: &[u64; 4], b: &[u64; 4]) -> Fq {
    let mut wide = [0u64; 8];
    for i in 0..4 {
        let mut carry = 0u128;
        for j in 0..4 {
            let t = (a[i] as u128) * (b[j] as u128) + wide[i + j] as u128 + carry;
            wide[i + j] = t as u64;
            carry = t >> 64;
        }
        wide[i + 4] = carry as u64;
    }
    let hi = ((wide[7] as u128) << 64) | wide[6] as u128;
    let round = (wide[5] >> 63) as u128;
    // a < 2^256 and b <= G2 < 0.9·2^256, so hi < 0.9·2^128 and hi + round cannot overflow.
    Fq::from_u128(hi + round)
}

/// A scalar as a sign and a magnitude: `k = ±magnitude (mod n)` with the smaller magnitude.
pub(crate) fn signed_magnitude(k: Fq) -> (bool, Fq) {
    let neg = -k;
    // Compare as integers: pick whichever of k, n − k is smaller.
    let (a, b) = (scalar_limbs(&k), scalar_limbs(&neg));
    if a.iter().rev().lt(b.iter().rev()) {
        (false, k)
    } else {
        (true, neg)
    }
}

/// `(k1, k2)` with `k = k1 + k2·λ (mod n)` and both `|k1|, |k2| < 2^128` (as signed values).
pub(crate) fn split(k: &Fq) -> (Fq, Fq) {
    let limbs = scalar_limbs(k);
    let c1 = mul_shift_384_rounded(&limbs, &G1) * MINUS_B1;
    let c2 = mul_shift_384_rounded(&limbs, &G2) * MINUS_B2;
    let k2 = c1 + c2;
    let k1 = *k + k2 * MINUS_LAMBDA;
    (k1, k2)
}

/// λ as a scalar (tests).
#[cfg(test)]
pub(crate) fn lambda() -> Fq {
    -MINUS_LAMBDA
}

#[cfg(test)]
mod tests {
    use super::*;
    use ff::Field;
    use group::Curve;
    use halo2curves::secp256k1::Secp256k1;
    use rand_chacha::ChaCha20Rng;
    use rand_core::SeedableRng;

    #[test]
    fn beta_is_the_endomorphism_for_lambda() {
        let lam = lambda();
        assert_eq!(lam * lam * lam, Fq::ONE);
        assert_ne!(lam, Fq::ONE);
        assert_eq!(BETA * BETA * BETA, Fp::ONE);
        let g = Secp256k1::generator().to_affine();
        let lg = (Secp256k1::generator() * lam).to_affine();
        assert_eq!(lg.x, g.x * BETA);
        assert_eq!(lg.y, g.y);
    }

    #[test]
    fn split_recomposes_with_short_halves() {
        let mut rng = ChaCha20Rng::seed_from_u64(5);
        let bound = Fq::from_u128(1u128 << 127) * Fq::from(2u64) + Fq::ONE; // 2^128 + 1
        let bound = scalar_limbs(&bound);
        let mut ks = vec![Fq::ZERO, Fq::ONE, -Fq::ONE, lambda(), -lambda()];
        ks.extend((0..500).map(|_| Fq::random(&mut rng)));
        for k in ks {
            let (k1, k2) = split(&k);
            assert_eq!(k1 + k2 * lambda(), k);
            for half in [k1, k2] {
                let (_, mag) = signed_magnitude(half);
                let m = scalar_limbs(&mag);
                assert!(m.iter().rev().lt(bound.iter().rev()), "{k:?}");
            }
        }
    }
}
