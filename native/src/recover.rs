//! ECDSA* point recovery: the nonce point R from (r, v), and the public key Q (ecrecover).
//!
//! Given r, the candidates for R are the curve points with x(R) ∈ {r, r + n} (x(R) < p, and
//! x(R) mod n = r); the recovery id picks x (bit 1) and the parity of y (bit 0). From
//! s·R = h·G + r·Q (the ECDSA equation multiplied out) the key is
//!
//! ```text
//! Q = r^-1 (s·R - h·G).
//! ```
//!
//! Every Q returned verifies: u1·G + u2·Q = s^-1 (h·G + r·Q) = s^-1 (s·R) = R and
//! x(R) mod n = r by construction. A different id (another R) gives another Q, so recovery
//! alone never proves *which* key signed: callers compare Q (or its address) to the
//! expected one.

use ff::Field;
use group::{Curve, Group};
use halo2curves::secp256k1::{Fq, Secp256k1Affine};

use super::ecdsa::mul_g_add;
use super::encoding::fq_plus_n_as_fp;
use super::error::RecoverError;
use super::public_key::PublicKey;
use super::signature::{RecoveryId, Signature};
use super::sqrt::decompress;

/// The nonce point R with x(R) = r (id bit 1 clear) or r + n (bit 1 set; only when
/// r + n < p) and y(R) of the parity in id bit 0.
///
/// r is an integer in [1, n) here (an `Fq` is reduced); since n < p, x = r is always a
/// field element. Rejects r = 0, r + n >= p, and x with x^3 + 7 a non-residue.
pub fn recover_nonce_point(r: &Fq, id: RecoveryId) -> Result<Secp256k1Affine, RecoverError> {
    if bool::from(r.is_zero()) {
        return Err(RecoverError::RZero);
    }
    let x = if id.is_x_reduced() {
        fq_plus_n_as_fp(r).ok_or(RecoverError::XNotInField)?
    } else {
        // r < n < p: the same integer is a canonical Fp element.
        let be = super::encoding::fq_to_be_bytes(r);
        super::encoding::fp_from_be_bytes(&be).ok_or(RecoverError::XNotInField)?
    };
    decompress(&x, id.is_y_odd()).ok_or(RecoverError::NoCurvePoint)
}

/// ecrecover: the public key Q = r^-1 (s·R - h·G) for which `sig` on `h` is valid with
/// nonce point R = [`recover_nonce_point`]`(r, id)`. Fails when R does not exist or Q is
/// the identity (h·G = s·R).
pub fn ecrecover(h: &Fq, sig: &Signature, id: RecoveryId) -> Result<PublicKey, RecoverError> {
    let r_point = recover_nonce_point(&sig.r(), id)?;
    let r_inv: Fq = Option::from(sig.r().invert()).ok_or(RecoverError::RZero)?;
    let u1 = -(*h * r_inv);
    let u2 = sig.s() * r_inv;
    let q = mul_g_add(&u1, &u2, &r_point);
    if bool::from(q.is_identity()) {
        return Err(RecoverError::RecoveredIdentity);
    }
    PublicKey::from_affine(q.to_affine()).map_err(|_| RecoverError::RecoveredIdentity)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ecdsa::{sign, verify};
    use crate::encoding::fq_from_be_bytes;
    use crate::encoding::{fp_to_fq_reduced, P_MINUS_N_BE};

    #[test]
    fn recovers_signer() {
        let d = Fq::from(0xdead_beefu64);
        let h = Fq::from(0x1111u64);
        let q = PublicKey::from_secret(&d).unwrap();
        for k in 1..20u64 {
            let (sig, id, r_point) = sign(&d, &h, &Fq::from(k)).unwrap();
            assert_eq!(recover_nonce_point(&sig.r(), id), Ok(r_point));
            assert_eq!(ecrecover(&h, &sig, id), Ok(q));
            // The other parity recovers some other key, which still verifies.
            let other = ecrecover(&h, &sig, id.flip_parity()).unwrap();
            assert_ne!(other, q);
            assert_eq!(verify(&other, &h, &sig), Ok(()));
        }
    }

    #[test]
    fn recovery_id_with_x_reduced() {
        // Find a small r with a curve point at x = r + n, then build a signature that uses
        // it: choose R at x = r + n, h and Q = r^-1 (s R - h G).
        let mut r = Fq::ONE;
        let (r_point, id) = loop {
            let id = RecoveryId::from_parts(false, true);
            if let Ok(p) = recover_nonce_point(&r, id) {
                break (p, id);
            }
            r += Fq::ONE;
        };
        assert_eq!(fp_to_fq_reduced(&r_point.x), r);
        let sig = Signature::new(r, Fq::from(5u64)).unwrap();
        let h = Fq::from(17u64);
        let q = ecrecover(&h, &sig, id).unwrap();
        assert_eq!(crate::ecdsa::nonce_point(&q, &h, &sig), Ok(r_point));
        // With bit 1 clear, x = r gives another R (or none): not the same point.
        if let Ok(p) = recover_nonce_point(&r, RecoveryId::from_parts(false, false)) {
            assert_ne!(p, r_point);
        }
    }

    #[test]
    fn recover_rejections() {
        let id0 = RecoveryId::new(0).unwrap();
        let id2 = RecoveryId::new(2).unwrap();
        assert_eq!(
            recover_nonce_point(&Fq::ZERO, id0),
            Err(RecoverError::RZero)
        );
        let pmn = fq_from_be_bytes(&P_MINUS_N_BE).unwrap();
        assert_eq!(
            recover_nonce_point(&pmn, id2),
            Err(RecoverError::XNotInField)
        );
        assert_eq!(
            recover_nonce_point(&-Fq::ONE, id2),
            Err(RecoverError::XNotInField)
        );
        // An r whose x^3 + 7 is a non-residue.
        let r = (1u64..)
            .map(Fq::from)
            .find(|r| recover_nonce_point(r, id0).is_err())
            .unwrap();
        assert_eq!(
            recover_nonce_point(&r, id0),
            Err(RecoverError::NoCurvePoint)
        );
        let sig = Signature::new(r, Fq::ONE).unwrap();
        assert_eq!(
            ecrecover(&Fq::ONE, &sig, id0),
            Err(RecoverError::NoCurvePoint)
        );
        // Q = O when s·R = h·G: take R = G (r = x(G) mod n), s = 1, h = 1.
        let g = Secp256k1Affine::generator();
        let r = fp_to_fq_reduced(&g.x);
        let id = RecoveryId::from_parts(bool::from(ff::PrimeField::is_odd(&g.y)), false);
        let sig = Signature::new(r, Fq::ONE).unwrap();
        assert_eq!(
            ecrecover(&Fq::ONE, &sig, id),
            Err(RecoverError::RecoveredIdentity)
        );
    }
}
