//! Cross-checks of the native reference against RustCrypto's k256 (dev-dependency only):
//! keys, signing with a given nonce, verification, recovery, SEC1 and DER parsing agree on
//! random inputs (proptest).

use batch_ecdsa::native::ecdsa::{sign, verify};
use batch_ecdsa::native::encoding::{fq_from_be_bytes, fq_from_be_bytes_reduced, fq_to_be_bytes};
use batch_ecdsa::native::public_key::PublicKey;
use batch_ecdsa::native::recover::ecrecover;
use batch_ecdsa::native::signature::{RecoveryId, Signature};
use ff::Field;
use halo2curves::secp256k1::Fq;
use k256::ecdsa::hazmat::{sign_prehashed, verify_prehashed};
use k256::ecdsa::signature::hazmat::PrehashVerifier;
use k256::elliptic_curve::PrimeField;
use proptest::prelude::*;

fn k256_scalar(b: &[u8; 32]) -> k256::Scalar {
    Option::from(k256::Scalar::from_repr((*b).into())).expect("scalar < n")
}

fn our_secret(b: &[u8; 32]) -> Option<Fq> {
    fq_from_be_bytes(b).filter(|d| !bool::from(d.is_zero()))
}

fn k256_sig(sig: &Signature) -> k256::ecdsa::Signature {
    k256::ecdsa::Signature::from_slice(&sig.to_compact()).expect("valid signature")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Q = d·G and its SEC1 encodings and address agree; each side parses the other's bytes.
    #[test]
    fn keys_and_sec1_agree(d in any::<[u8; 32]>()) {
        let Some(sk) = our_secret(&d) else { return Ok(()); };
        let ours = PublicKey::from_secret(&sk).unwrap();
        let theirs = *k256::ecdsa::SigningKey::from_bytes(&d.into()).unwrap().verifying_key();
        let unc = ours.to_sec1_uncompressed();
        let cmp = ours.to_sec1_compressed();
        prop_assert_eq!(unc.to_vec(), theirs.to_encoded_point(false).as_bytes().to_vec());
        prop_assert_eq!(cmp.to_vec(), theirs.to_encoded_point(true).as_bytes().to_vec());
        prop_assert_eq!(PublicKey::from_sec1(&unc), Ok(ours));
        prop_assert_eq!(PublicKey::from_sec1(&cmp), Ok(ours));
        prop_assert_eq!(k256::ecdsa::VerifyingKey::from_sec1_bytes(&cmp).unwrap(), theirs);
    }

    /// Random compressed encodings: accepted by us iff accepted by k256, to the same point.
    #[test]
    fn sec1_compressed_random_x(odd in any::<bool>(), x in any::<[u8; 32]>()) {
        let mut enc = [0u8; 33];
        enc[0] = if odd { 3 } else { 2 };
        enc[1..].copy_from_slice(&x);
        let ours = PublicKey::from_sec1(&enc);
        let theirs = k256::ecdsa::VerifyingKey::from_sec1_bytes(&enc);
        prop_assert_eq!(ours.is_ok(), theirs.is_ok());
        if let (Ok(o), Ok(t)) = (ours, theirs) {
            prop_assert_eq!(o.to_sec1_uncompressed().to_vec(), t.to_encoded_point(false).as_bytes().to_vec());
        }
    }

    /// sign(d, h, k) gives k256's raw (not normalised) signature and recovery id; both
    /// libraries verify it; recovery gives the signer; a changed hash fails on both sides.
    #[test]
    fn sign_verify_recover_agree(
        d in any::<[u8; 32]>(),
        k in any::<[u8; 32]>(),
        z in any::<[u8; 32]>(),
    ) {
        let (Some(sk), Some(nonce)) = (our_secret(&d), our_secret(&k)) else { return Ok(()); };
        let h = fq_from_be_bytes_reduced(&z);
        let (sig, id, _r_point) = sign(&sk, &h, &nonce).unwrap();
        let (tsig, tid) =
            sign_prehashed::<k256::Secp256k1, k256::Scalar>(&k256_scalar(&d), k256_scalar(&k), &z.into())
                .unwrap();
        prop_assert_eq!(&sig.to_compact()[..], &tsig.to_bytes()[..]);
        prop_assert_eq!(id.to_u8(), tid.to_byte());

        let q = PublicKey::from_secret(&sk).unwrap();
        let vk = k256::ecdsa::VerifyingKey::from_sec1_bytes(&q.to_sec1_compressed()).unwrap();
        prop_assert_eq!(verify(&q, &h, &sig), Ok(()));
        // k256's hazmat verify accepts high s; its VerifyingKey requires low s.
        prop_assert!(verify_prehashed(&vk.as_affine().into(), &z.into(), &tsig).is_ok());
        let (low, flipped) = sig.normalize_s();
        let low_id = if flipped { id.flip_parity() } else { id };
        prop_assert!(vk.verify_prehash(&z, &k256_sig(&low)).is_ok());
        prop_assert_eq!(verify(&q, &h, &low), Ok(()));

        prop_assert_eq!(ecrecover(&h, &sig, id), Ok(q));
        prop_assert_eq!(ecrecover(&h, &low, low_id), Ok(q));
        let recovered = k256::ecdsa::VerifyingKey::recover_from_prehash(
            &z, &k256_sig(&low), k256::ecdsa::RecoveryId::from_byte(low_id.to_u8()).unwrap());
        prop_assert_eq!(recovered.unwrap(), vk);

        let mut z2 = z;
        z2[31] ^= 1;
        let h2 = fq_from_be_bytes_reduced(&z2);
        prop_assert!(verify(&q, &h2, &sig).is_err());
        prop_assert!(verify_prehashed(&vk.as_affine().into(), &z2.into(), &tsig).is_err());
    }

    /// Recovery from arbitrary (r, s, h, id): same success and same key as k256 (k256 only
    /// takes low s, so a high s is compared through (r, n - s) with the parity flipped).
    #[test]
    fn recover_random_inputs_agree(
        r in any::<[u8; 32]>(),
        s in any::<[u8; 32]>(),
        z in any::<[u8; 32]>(),
        id in 0u8..4,
    ) {
        let Ok(sig) = Signature::from_be_bytes(&r, &s) else { return Ok(()); };
        let id = RecoveryId::new(id).unwrap();
        let h = fq_from_be_bytes_reduced(&z);
        let ours = ecrecover(&h, &sig, id);
        let (low, flipped) = sig.normalize_s();
        let low_id = if flipped { id.flip_parity() } else { id };
        let theirs = k256::ecdsa::VerifyingKey::recover_from_prehash(
            &z, &k256_sig(&low), k256::ecdsa::RecoveryId::from_byte(low_id.to_u8()).unwrap());
        prop_assert_eq!(ours.is_ok(), theirs.is_ok(), "{:?}", ours);
        if let (Ok(o), Ok(t)) = (ours, theirs) {
            prop_assert_eq!(o.to_sec1_compressed().to_vec(), t.to_encoded_point(true).as_bytes().to_vec());
            prop_assert_eq!(verify(&o, &h, &sig), Ok(()));
        }
    }

}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Strict DER: our encoding equals k256's, and a mutated encoding (byte changed, cut or
    /// extended) is accepted by us iff k256 accepts it, with the same value.
    #[test]
    fn der_agrees_with_k256(
        r in any::<[u8; 32]>(),
        s in any::<[u8; 32]>(),
        shift in 0u8..64,
        pos in any::<prop::sample::Index>(),
        xor in 1u8..=255,
        mode in 0u8..4,
    ) {
        // Shift right to get short integers too.
        let shorten = |b: [u8; 32]| -> [u8; 32] {
            let v = num_bigint::BigUint::from_bytes_be(&b) >> (shift as usize * 4);
            let bytes = v.to_bytes_be();
            let mut out = [0u8; 32];
            out[32 - bytes.len()..].copy_from_slice(&bytes);
            out
        };
        let Ok(sig) = Signature::from_be_bytes(&shorten(r), &shorten(s)) else { return Ok(()); };
        let der = sig.to_der();
        prop_assert_eq!(der.clone(), k256_sig(&sig).to_der().as_bytes().to_vec());
        prop_assert_eq!(Signature::from_der_strict(&der), Ok(sig));
        let mut bad = der.clone();
        let i = pos.index(bad.len());
        match mode {
            0 | 1 => bad[i] ^= xor,
            2 => bad.truncate(i),
            _ => bad.insert(i, xor),
        }
        let ours = Signature::from_der_strict(&bad);
        let theirs = k256::ecdsa::Signature::from_der(&bad);
        prop_assert_eq!(ours.is_ok(), theirs.is_ok(), "{} {:?}", hex::encode(&bad), ours);
        if let (Ok(o), Ok(t)) = (ours, theirs) {
            prop_assert_eq!(&o.to_compact()[..], &t.to_bytes()[..]);
        }
    }
}

/// Fixed-scalar sanity: n - 1 as a secret, and the scalar byte order used above.
#[test]
fn extreme_secret_agrees() {
    let d = fq_to_be_bytes(&-Fq::ONE);
    let ours = PublicKey::from_secret(&-Fq::ONE).unwrap();
    let theirs = *k256::ecdsa::SigningKey::from_bytes(&d.into())
        .unwrap()
        .verifying_key();
    assert_eq!(
        ours.to_sec1_uncompressed().to_vec(),
        theirs.to_encoded_point(false).as_bytes().to_vec()
    );
}

/// Recovery ids 2 and 3 (x(R) = r + n) only occur for r < p - n, which random inputs never
/// hit: sweep small r with both parities and compare with k256.
#[test]
fn recovery_ids_with_x_reduced_agree() {
    let mut recovered = 0;
    for r in 1u64..40 {
        let mut rb = [0u8; 32];
        rb[24..].copy_from_slice(&r.to_be_bytes());
        let sig = Signature::from_be_bytes(&rb, &rb).unwrap();
        let z = [0x5a; 32];
        let h = fq_from_be_bytes_reduced(&z);
        for id in 0..4u8 {
            let ours = ecrecover(&h, &sig, RecoveryId::new(id).unwrap());
            let theirs = k256::ecdsa::VerifyingKey::recover_from_prehash(
                &z,
                &k256_sig(&sig),
                k256::ecdsa::RecoveryId::from_byte(id).unwrap(),
            );
            assert_eq!(ours.is_ok(), theirs.is_ok(), "r = {r}, id = {id}: {ours:?}");
            if let (Ok(o), Ok(t)) = (ours, theirs) {
                assert_eq!(
                    o.to_sec1_compressed().to_vec(),
                    t.to_encoded_point(true).as_bytes().to_vec()
                );
                recovered += usize::from(id >= 2);
            }
        }
    }
    assert!(recovered > 10, "only {recovered} recoveries with x = r + n");
}
