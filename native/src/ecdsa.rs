//! ECDSA verification, the ECDSA* nonce point, and signing (SEC 1 v2, 4.1.3 / 4.1.4).
//!
//! Notation: G the generator, n its (prime) order, Q = d·G the public key, h the message
//! hash as a scalar mod n. A signature (r, s) with 1 <= r, s < n is valid iff
//!
//! ```text
//! R = u1·G + u2·Q,   u1 = h·s^-1 mod n,   u2 = r·s^-1 mod n,   R != O,   x(R) mod n = r.
//! ```
//!
//! Correctness: an honest s = k^-1 (h + r d) gives u1·G + u2·Q = s^-1 (h + r d)·G = k·G.
//! ECDSA* (the form the batch check uses) carries R itself; knowing R turns the check
//! into the linear equation s·R = h·G + r·Q, which random linear combinations can batch.

use ff::Field;
use group::{Curve, Group};
use halo2curves::secp256k1::{Fq, Secp256k1, Secp256k1Affine};

use super::encoding::{fp_is_ge_n, fp_to_fq_reduced};
use super::error::{SigError, VerifyError};
use super::msm::{msm, mul_generator};
use super::public_key::PublicKey;
use super::signature::{RecoveryId, Signature};

/// `a·G + b·Q`: the fixed-base table for G ([`mul_generator`]) plus a one-point Straus
/// multiplication of Q with the GLV endomorphism ([`msm`]). Variable time (public inputs only).
/// The projective formulas are complete, so Q = ±G and zero scalars need no special cases.
pub fn mul_g_add(a: &Fq, b: &Fq, q: &Secp256k1Affine) -> Secp256k1 {
    mul_generator(a) + msm(std::slice::from_ref(q), std::slice::from_ref(b))
}

/// The ECDSA* nonce point: `R = u1·G + u2·Q` with `u1 = h/s`, `u2 = r/s`, after checking
/// `R != O` and `x(R) mod n = r`; i.e. exactly the point whose existence makes (r, s) a
/// valid signature. s is invertible because the `Signature` type guarantees s != 0.
pub fn nonce_point(q: &PublicKey, h: &Fq, sig: &Signature) -> Result<Secp256k1Affine, VerifyError> {
    // s != 0 by the Signature invariant; inversion cannot fail, but no unwrap is used.
    let s_inv: Fq = Option::from(sig.s().invert()).ok_or(VerifyError::Mismatch)?;
    let u1 = *h * s_inv;
    let u2 = sig.r() * s_inv;
    let r_point = mul_g_add(&u1, &u2, &q.point());
    if bool::from(r_point.is_identity()) {
        return Err(VerifyError::NonceIsIdentity);
    }
    let r_affine = r_point.to_affine();
    if fp_to_fq_reduced(&r_affine.x) != sig.r() {
        return Err(VerifyError::Mismatch);
    }
    Ok(r_affine)
}

/// ECDSA verification of `sig` on hash scalar `h` under key `q` (high s accepted).
///
/// The range 1 <= r, s < n is guaranteed by the `Signature` type and Q's validity by the
/// `PublicKey` type, so this checks only the curve equation above.
pub fn verify(q: &PublicKey, h: &Fq, sig: &Signature) -> Result<(), VerifyError> {
    nonce_point(q, h, sig).map(|_| ())
}

/// [`verify`] under the low-s policy (EIP-2 / BIP-62): additionally rejects s > n/2.
pub fn verify_low_s(q: &PublicKey, h: &Fq, sig: &Signature) -> Result<(), VerifyError> {
    if !sig.is_low_s() {
        return Err(VerifyError::HighS);
    }
    verify(q, h, sig)
}

/// Signs hash scalar `h` with secret `d` and caller-chosen nonce `k` (deterministic given
/// k; for tests and demo batches, never for real keys with a non-random k):
///
/// ```text
/// R = k·G,  r = x(R) mod n,  s = k^-1 (h + r·d) mod n,  id = (y(R) odd) | (x(R) >= n) << 1
/// ```
///
/// s is returned as computed (it may be high; see [`Signature::normalize_s`]). Fails when
/// d = 0, k = 0, r = 0 or s = 0 (the latter two: choose another k).
pub fn sign(d: &Fq, h: &Fq, k: &Fq) -> Result<(Signature, RecoveryId, Secp256k1Affine), SigError> {
    if bool::from(d.is_zero()) {
        return Err(SigError::ZeroSecret);
    }
    let k_inv: Fq = Option::from(k.invert()).ok_or(SigError::ZeroNonce)?;
    let r_point = (Secp256k1::generator() * k).to_affine();
    let r = fp_to_fq_reduced(&r_point.x);
    let s = k_inv * (*h + r * d);
    let sig = Signature::new(r, s)?;
    let id = RecoveryId::from_parts(
        bool::from(ff::PrimeField::is_odd(&r_point.y)),
        fp_is_ge_n(&r_point.x),
    );
    Ok((sig, id, r_point))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(d: u64) -> PublicKey {
        PublicKey::from_secret(&Fq::from(d)).unwrap()
    }

    #[test]
    fn sign_then_verify_and_nonce_point() {
        let (d, h, k) = (
            Fq::from(0x1234_5678u64),
            Fq::from(999u64),
            Fq::from(4242u64),
        );
        let q = key(0x1234_5678);
        let (sig, id, r_point) = sign(&d, &h, &k).unwrap();
        assert_eq!(r_point, (Secp256k1::generator() * k).to_affine());
        assert_eq!(verify(&q, &h, &sig), Ok(()));
        assert_eq!(nonce_point(&q, &h, &sig), Ok(r_point));
        assert_eq!(
            id.is_y_odd(),
            bool::from(ff::PrimeField::is_odd(&r_point.y))
        );
        assert!(!id.is_x_reduced());
        // (r, n - s) verifies too, with nonce point -R; the low-s policy rejects one of them.
        let (other, flipped) = sig.normalize_s();
        let neg = Signature::new(sig.r(), -sig.s()).unwrap();
        assert_eq!(nonce_point(&q, &h, &neg), Ok(-r_point));
        assert!(verify_low_s(&q, &h, &other).is_ok());
        let high = if flipped { sig } else { neg };
        assert_eq!(verify_low_s(&q, &h, &high), Err(VerifyError::HighS));
        assert_eq!(verify(&q, &h, &high), Ok(()));
    }

    #[test]
    fn verify_rejections() {
        let d = Fq::from(77u64);
        let q = key(77);
        let h = Fq::from(5u64);
        let (sig, _, _) = sign(&d, &h, &Fq::from(31337u64)).unwrap();
        assert_eq!(verify(&q, &(h + Fq::ONE), &sig), Err(VerifyError::Mismatch));
        assert_eq!(verify(&key(78), &h, &sig), Err(VerifyError::Mismatch));
        let bad_r = Signature::new(sig.r() + Fq::ONE, sig.s()).unwrap();
        assert_eq!(verify(&q, &h, &bad_r), Err(VerifyError::Mismatch));
        let bad_s = Signature::new(sig.r(), sig.s() + Fq::ONE).unwrap();
        assert_eq!(verify(&q, &h, &bad_s), Err(VerifyError::Mismatch));
        // u1·G + u2·Q = O: with Q = G, h = -r gives u1 + u2 = 0.
        let g = key(1);
        let r = Fq::from(3u64);
        let sig0 = Signature::new(r, Fq::from(10u64)).unwrap();
        assert_eq!(verify(&g, &-r, &sig0), Err(VerifyError::NonceIsIdentity));
    }

    #[test]
    fn sign_rejections() {
        let h = Fq::from(1u64);
        assert_eq!(sign(&Fq::ZERO, &h, &Fq::ONE), Err(SigError::ZeroSecret));
        assert_eq!(sign(&Fq::ONE, &h, &Fq::ZERO), Err(SigError::ZeroNonce));
        // s = 0 when h = -r·d.
        let k = Fq::from(9u64);
        let r = fp_to_fq_reduced(&(Secp256k1::generator() * k).to_affine().x);
        let d = Fq::from(2u64);
        assert_eq!(sign(&d, &-(r * d), &k), Err(SigError::SZero));
    }

    #[test]
    fn mul_g_add_matches_separate_muls() {
        let g = Secp256k1::generator();
        let q = (g * Fq::from(678u64)).to_affine();
        for (a, b) in [
            (Fq::ZERO, Fq::ZERO),
            (Fq::ONE, -Fq::ONE),
            (-Fq::from(3), Fq::from(99)),
        ] {
            assert_eq!(mul_g_add(&a, &b, &q), g * a + q * b);
        }
        // Q = G and Q = -G: the sum doubles or cancels.
        let gq = g.to_affine();
        assert_eq!(mul_g_add(&Fq::from(5), &Fq::from(7), &gq), g * Fq::from(12));
        assert_eq!(
            mul_g_add(&Fq::from(5), &Fq::from(5), &(-g).to_affine()),
            Secp256k1::identity()
        );
    }
}
