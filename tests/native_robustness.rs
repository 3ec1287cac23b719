//! No input makes the native parsers or recovery panic: arbitrary bytes and values give
//! either a value or an error (proptest).

use batch_ecdsa::native::encoding::{fp_from_be_bytes, fq_from_be_bytes_reduced};
use batch_ecdsa::native::public_key::PublicKey;
use batch_ecdsa::native::recover::{ecrecover, recover_nonce_point};
use batch_ecdsa::native::signature::{RecoveryId, Signature};
use batch_ecdsa::native::sqrt::{decompress, sqrt_fixed, sqrt_generic};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn parsers_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..80), prefix in 0u8..8) {
        let _ = PublicKey::from_sec1(&bytes);
        let mut with_prefix = bytes.clone();
        if let Some(b) = with_prefix.first_mut() {
            *b = prefix;
        }
        let _ = PublicKey::from_sec1(&with_prefix);
        let _ = Signature::from_compact(&bytes);
        if let Ok(sig) = Signature::from_der_strict(&bytes) {
            // Whatever the strict parser accepts is the unique encoding of its value.
            prop_assert_eq!(sig.to_der(), bytes.clone());
        }
        let mut der_like = bytes.clone();
        if der_like.len() > 2 {
            der_like[0] = 0x30;
            der_like[1] = (der_like.len() - 2) as u8;
            der_like[2] = 0x02;
        }
        if let Ok(sig) = Signature::from_der_strict(&der_like) {
            prop_assert_eq!(sig.to_der(), der_like);
        }
    }

    #[test]
    fn values_never_panic(a in any::<[u8; 32]>(), b in any::<[u8; 32]>(), v in any::<u64>(), id in any::<u8>()) {
        let _ = RecoveryId::from_v(v);
        let _ = RecoveryId::new(id);
        if let Some(x) = fp_from_be_bytes(&a) {
            prop_assert_eq!(sqrt_fixed(&x), sqrt_generic(&x));
            let _ = decompress(&x, id & 1 == 1);
        }
        let r = fq_from_be_bytes_reduced(&a);
        if let Ok(rid) = RecoveryId::new(id & 3) {
            let _ = recover_nonce_point(&r, rid);
            if let Ok(sig) = Signature::from_be_bytes(&a, &b) {
                let _ = ecrecover(&fq_from_be_bytes_reduced(&b), &sig, rid);
            }
        }
    }
}
