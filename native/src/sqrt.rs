//! Square roots in the secp256k1 base field and point decompression.
//!
//! p = 2^256 - 2^32 - 977 is ≡ 3 (mod 4), so for a quadratic residue a the element
//! `c = a^((p+1)/4)` satisfies `c^2 = a^((p+1)/2) = a · a^((p-1)/2) = a` (Euler's
//! criterion gives `a^((p-1)/2) = 1`). For a non-residue `a^((p-1)/2) = -1` and `c^2 = -a`,
//! so the candidate is always checked by squaring it back: a wrong root cannot be returned.

use ff::{Field, PrimeField};
use halo2curves::secp256k1::{Fp, Secp256k1Affine};

/// `x^(2^k)`: k successive squarings.
#[inline]
fn sqr_n(x: &Fp, k: usize) -> Fp {
    let mut t = *x;
    for _ in 0..k {
        t = t.square();
    }
    t
}

/// `a^((p+1)/4)` by a fixed addition chain (the one of libsecp256k1's `secp256k1_fe_sqrt`).
///
/// In binary, (p+1)/4 = 2^254 - 2^30 - 244 consists of three runs of ones, of lengths
/// 223, 22 and 2:
///
/// ```text
/// (p+1)/4 = (2^223 - 1)·2^31 + (2^22 - 1)·2^8 + (2^2 - 1)·2^2
/// ```
///
/// Writing `x_k = a^(2^k - 1)` (a run of k ones), `x_{j+k} = x_j^(2^k) · x_k`, so the chain
/// builds x2, x3, x6, x9, x11, x22, x44, x88, x176, x220, x223 and then assembles
/// `((x223^(2^23) · x22)^(2^6) · x2)^(2^2)`. Cost: 253 squarings and 13 multiplications,
/// against about 254 squarings and ~127 multiplications for generic square-and-multiply.
fn pow_p_plus_1_over_4(a: &Fp) -> Fp {
    let x2 = a.square() * a;
    let x3 = x2.square() * a;
    let x6 = sqr_n(&x3, 3) * x3;
    let x9 = sqr_n(&x6, 3) * x3;
    let x11 = sqr_n(&x9, 2) * x2;
    let x22 = sqr_n(&x11, 11) * x11;
    let x44 = sqr_n(&x22, 22) * x22;
    let x88 = sqr_n(&x44, 44) * x44;
    let x176 = sqr_n(&x88, 88) * x88;
    let x220 = sqr_n(&x176, 44) * x44;
    let x223 = sqr_n(&x220, 3) * x3;
    let t = sqr_n(&x223, 23) * x22;
    let t = sqr_n(&t, 6) * x2;
    sqr_n(&t, 2)
}

/// Square root by the fixed addition chain: `Some(c)` with `c^2 = a`, or `None` when `a` is
/// not a square mod p. The root returned is `a^((p+1)/4)`, which for `a != 0` is itself a
/// quadratic residue (either root may be odd or even; callers pick the parity they need).
pub fn sqrt_fixed(a: &Fp) -> Option<Fp> {
    let c = pow_p_plus_1_over_4(a);
    (c.square() == *a).then_some(c)
}

/// Square root through `ff::Field::sqrt` (halo2curves computes `a^((p+1)/4)` with a generic
/// `pow`). Same contract as [`sqrt_fixed`]; kept for the benchmark comparison.
pub fn sqrt_generic(a: &Fp) -> Option<Fp> {
    Option::from(Field::sqrt(a))
}

/// The curve point with the given x coordinate and y parity: `y^2 = x^3 + 7`, choosing the
/// root with `y mod 2 = y_is_odd`. `None` when x^3 + 7 is not a square (no such point).
///
/// y = 0 never occurs (it would be a point of order 2 in a group of odd prime order n),
/// so both parities exist whenever a root does; the check is kept anyway.
pub fn decompress(x: &Fp, y_is_odd: bool) -> Option<Secp256k1Affine> {
    let rhs = x.square() * x + Fp::from(7);
    let y = sqrt_fixed(&rhs)?;
    let y = if bool::from(y.is_odd()) == y_is_odd {
        y
    } else {
        -y
    };
    if bool::from(y.is_odd()) != y_is_odd {
        return None;
    }
    Some(Secp256k1Affine { x: *x, y })
}

#[cfg(test)]
mod tests {
    use super::*;
    use halo2curves::CurveAffine;
    use rand_chacha::rand_core::SeedableRng;
    use rand_chacha::ChaCha20Rng;

    /// (p+1)/4 as little-endian u64 limbs, for a generic `pow` comparison.
    const P_PLUS_1_OVER_4: [u64; 4] = [
        0xffff_ffff_bfff_ff0c,
        0xffff_ffff_ffff_ffff,
        0xffff_ffff_ffff_ffff,
        0x3fff_ffff_ffff_ffff,
    ];

    #[test]
    fn chain_equals_exponent() {
        let mut rng = ChaCha20Rng::seed_from_u64(1);
        for _ in 0..200 {
            let a = Fp::random(&mut rng);
            assert_eq!(pow_p_plus_1_over_4(&a), a.pow(P_PLUS_1_OVER_4));
        }
        assert_eq!(pow_p_plus_1_over_4(&Fp::ZERO), Fp::ZERO);
        assert_eq!(pow_p_plus_1_over_4(&Fp::ONE), Fp::ONE);
    }

    #[test]
    fn fixed_and_generic_agree() {
        let mut rng = ChaCha20Rng::seed_from_u64(2);
        let (mut squares, mut non_squares) = (0, 0);
        for _ in 0..400 {
            let a = Fp::random(&mut rng);
            let f = sqrt_fixed(&a);
            assert_eq!(f, sqrt_generic(&a));
            match f {
                Some(c) => {
                    assert_eq!(c.square(), a);
                    squares += 1;
                }
                None => {
                    // a non-residue: -a is a residue since p ≡ 3 mod 4.
                    assert!(sqrt_fixed(&-a).is_some());
                    non_squares += 1;
                }
            }
            // Every square has a root.
            let sq = a.square();
            assert_eq!(sqrt_fixed(&sq).map(|c| c.square()), Some(sq));
        }
        assert!(squares > 100 && non_squares > 100);
        assert_eq!(sqrt_fixed(&Fp::ZERO), Some(Fp::ZERO));
        // -1 is a non-residue when p ≡ 3 mod 4.
        assert_eq!(sqrt_fixed(&-Fp::ONE), None);
    }

    #[test]
    fn decompress_generator_and_parity() {
        let g = Secp256k1Affine::generator();
        let odd = bool::from(g.y.is_odd());
        assert_eq!(decompress(&g.x, odd), Some(g));
        assert_eq!(decompress(&g.x, !odd), Some(-g));
        // x = 5: 125 + 7 = 132 is a non-residue mod p? Check against the generic root.
        let mut found_none = false;
        for i in 0..20u64 {
            let x = Fp::from(i);
            let rhs = x.square() * x + Fp::from(7);
            let has = sqrt_generic(&rhs).is_some();
            for parity in [false, true] {
                let pt = decompress(&x, parity);
                assert_eq!(pt.is_some(), has);
                if let Some(pt) = pt {
                    assert!(bool::from(pt.is_on_curve()));
                    assert_eq!(bool::from(pt.y.is_odd()), parity);
                    assert_eq!(pt.x, x);
                }
            }
            found_none |= !has;
        }
        assert!(found_none);
    }
}
