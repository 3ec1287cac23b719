//! Bad signed transactions, one fault each: every one is rejected with its reason, malformed
//! (exit code 2) or invalid (1), and nothing panics on any input (a proptest over random bytes
//! and mutations of valid transactions of every type).

use alloy_consensus::{SignableTransaction, TxEip1559, TxEip4844, TxLegacy};
use alloy_eips::eip2718::Encodable2718;
use alloy_primitives::{Address, Bytes, Signature, TxKind, U256};
use alloy_rlp::{Encodable, Header};
use batch_ecdsa::batch_file::BatchFile;
use batch_ecdsa::native::ecdsa::sign;
use batch_ecdsa::native::encoding::{fq_from_be_bytes_reduced, fq_to_be_bytes, N_BE};
use batch_ecdsa::native::public_key::PublicKey;
use batch_ecdsa::txs::decode::Envelope;
use batch_ecdsa::txs::demo::demo_txs;
use batch_ecdsa::txs::{
    decode_and_check, decode_signed_tx, DecodeError, SignedTxs, TxError, TxInvalid, TxPolicy,
    TxType,
};
use ff::Field;
use group::Curve;
use halo2curves::secp256k1::{Fq, Secp256k1};
use proptest::prelude::*;

fn tx1559(chain_id: u64) -> TxEip1559 {
    TxEip1559 {
        chain_id,
        nonce: 7,
        gas_limit: 21_000,
        max_fee_per_gas: 30_000_000_000,
        max_priority_fee_per_gas: 1_000_000_000,
        to: TxKind::Call(Address::repeat_byte(0x11)),
        value: U256::from(1_000u64),
        access_list: Default::default(),
        input: Bytes::new(),
    }
}

/// A valid signature of `tx` by secret `d` (low s): (parity, r, s).
fn sign_tx<T: SignableTransaction<Signature>>(tx: &T, d: u64) -> Signature {
    let h = fq_from_be_bytes_reduced(&tx.signature_hash().0);
    let (sig, id, _) = sign(&Fq::from(d), &h, &Fq::from(d * 31 + 5)).unwrap();
    let (low, neg) = sig.normalize_s();
    Signature::new(
        U256::from_be_bytes(fq_to_be_bytes(&low.r())),
        U256::from_be_bytes(fq_to_be_bytes(&low.s())),
        id.is_y_odd() ^ neg,
    )
}

fn encode<T>(tx: T, sig: Signature) -> Vec<u8>
where
    T: SignableTransaction<Signature>,
    Envelope: From<alloy_consensus::Signed<T>>,
{
    Envelope::from(tx.into_signed(sig)).encoded_2718()
}

fn check(raw: &[u8], policy: &TxPolicy) -> Result<batch_ecdsa::txs::TxRecord, TxError> {
    decode_and_check(raw, policy, 3)
}

fn malformed(raw: &[u8]) -> DecodeError {
    match check(raw, &TxPolicy::default()) {
        Err(TxError::Malformed { index: 3, reason }) => reason,
        other => panic!("expected malformed, got {other:?}"),
    }
}

fn invalid(raw: &[u8], policy: &TxPolicy) -> TxInvalid {
    match check(raw, policy) {
        Err(TxError::Invalid { index: 3, reason }) => reason,
        other => panic!("expected invalid, got {other:?}"),
    }
}

/// A plain legacy transfer of nothing to address 0, for `chain_id` (`None`: before EIP-155).
fn legacy_tx(chain_id: Option<u64>) -> TxLegacy {
    TxLegacy {
        chain_id,
        nonce: 1,
        gas_price: 1,
        gas_limit: 21_000,
        to: TxKind::Call(Address::ZERO),
        value: U256::ZERO,
        input: Bytes::new(),
    }
}

/// A typed transaction `ty ‖ rlp_list(body)` from an already RLP-encoded list body.
fn typed(ty: u8, body: &[u8]) -> Vec<u8> {
    let mut out = vec![ty];
    Header {
        list: true,
        payload_length: body.len(),
    }
    .encode(&mut out);
    out.extend_from_slice(body);
    out
}

#[test]
fn a_valid_transaction_gives_its_record() {
    let tx = tx1559(1);
    let sig = sign_tx(&tx, 42);
    let hash = tx.signature_hash();
    let raw = encode(tx, sig);
    let rec = check(&raw, &TxPolicy::for_chain(1)).unwrap();
    let key = PublicKey::from_secret(&Fq::from(42)).unwrap();
    assert_eq!(rec.pubkey, key);
    assert_eq!(rec.sender, key.address());
    assert_eq!(rec.tx.signing_hash, hash.0);
    assert_eq!(rec.tx.tx_type, TxType::Eip1559);
    assert_eq!(rec.tx.chain_id, Some(1));
    // The signing payload is the unsigned transaction: type ‖ rlp(fields).
    assert_eq!(rec.tx.signing_payload[0], 0x02);
    assert_eq!(
        batch_ecdsa::native::hash::keccak256(&rec.tx.signing_payload),
        hash.0
    );
}

#[test]
fn malformed_encodings() {
    let tx = tx1559(1);
    let sig = sign_tx(&tx, 42);
    let raw = encode(tx, sig);
    assert_eq!(malformed(&[]), DecodeError::Empty);
    // Trailing bytes: decode_2718 alone would accept them.
    let mut t = raw.clone();
    t.push(0x00);
    assert_eq!(malformed(&t), DecodeError::TrailingBytes(1));
    t.extend_from_slice(&raw);
    assert_eq!(malformed(&t), DecodeError::TrailingBytes(1 + raw.len()));
    // Unknown type bytes, and 0x00 before a legacy transaction.
    for ty in [0x05u8, 0x09, 0x7f] {
        let mut t = raw.clone();
        t[0] = ty;
        assert_eq!(malformed(&t), DecodeError::UnknownType(ty));
    }
    let legacy = legacy_tx(Some(1));
    let lsig = sign_tx(&legacy, 9);
    let lraw = encode(legacy.clone(), lsig);
    assert!(check(&lraw, &TxPolicy::for_chain(1)).is_ok());
    let mut t = vec![0x00];
    t.extend_from_slice(&lraw);
    assert_eq!(malformed(&t), DecodeError::TypeZero);
    // Truncated (the list header then declares more than there is), and an RLP string
    // where a list must be: each in our words, the first naming where.
    let e = malformed(&raw[..raw.len() - 1]);
    assert!(
        matches!(&e, DecodeError::Field { field: "list header", reason } if reason.contains("runs past the end")),
        "{e:?}"
    );
    let e = malformed(&[0x82, 0x01, 0x02]);
    assert!(
        matches!(&e, DecodeError::Rlp(m) if m.contains("a string where a list belongs")),
        "{e:?}"
    );
    // Non-canonical integer: nonce 7 as 0x8107 instead of 0x07 (the list length grows by 1).
    let mut body = Vec::new();
    1u64.encode(&mut body); // chain id
    body.extend_from_slice(&[0x81, 0x07]); // nonce 7, non-canonical
    let tail = &raw[1..]; // the list after the type byte
    let h = Header::decode(&mut &tail[..]).unwrap();
    let fields = &tail[tail.len() - h.payload_length..];
    body.extend_from_slice(&fields[2..]); // skip chain id (0x01) and nonce (0x07)
    let nc = typed(0x02, &body);
    assert!(
        matches!(malformed(&nc), DecodeError::Field { field: "nonce", reason } if reason.contains("canonical")),
        "{:?}",
        malformed(&nc)
    );
    assert_eq!(
        malformed(&nc).to_string(),
        "malformed RLP in field `nonce`: a single byte below 0x80 wrapped in a header (not canonical RLP)"
    );
    // y-parity 2 in a typed transaction; legacy v = 29.
    let mut y2 = raw.clone();
    let pos = y2.len() - 67; // ... y_parity, 0xa0 r(32), 0xa0 s(32)
    assert!(y2[pos] == 0x80 || y2[pos] == 0x01); // RLP of 0 is the empty string 0x80
    y2[pos] = 0x02;
    assert_eq!(malformed(&y2), DecodeError::TypedYParity);
    let mut v29 = lraw.clone();
    let pos = v29.len() - 67;
    assert_eq!(v29[pos], 37 + u8::from(lsig.v())); // EIP-155: 35 + 2·1 + parity
    v29[pos] = 29;
    assert_eq!(malformed(&v29), DecodeError::LegacyV);
}

#[test]
fn blob_transaction_with_sidecar_is_not_accepted() {
    let tx = TxEip4844 {
        chain_id: 1,
        nonce: 0,
        gas_limit: 21_000,
        max_fee_per_gas: 2,
        max_priority_fee_per_gas: 1,
        to: Address::repeat_byte(1),
        value: U256::ZERO,
        access_list: Default::default(),
        blob_versioned_hashes: vec![[1u8; 32].into()],
        max_fee_per_blob_gas: 1,
        input: Bytes::new(),
    };
    let sig = sign_tx(&tx, 5);
    let raw = encode(tx, sig);
    assert_eq!(
        check(&raw, &TxPolicy::for_chain(1)).unwrap().tx.tx_type,
        TxType::Eip4844
    );
    // The network form: 0x03 ‖ rlp([tx_payload_body, blobs, commitments, proofs]).
    let inner = &raw[1..];
    let mut body = inner.to_vec();
    body.extend_from_slice(&[0xc0, 0xc0, 0xc0]);
    let net = typed(0x03, &body);
    let e = malformed(&net);
    assert!(
        matches!(&e, DecodeError::Field { field: "chain_id", reason } if reason.contains("a list where a string belongs")),
        "{e:?}"
    );
}

#[test]
fn invalid_signatures_and_rules() {
    let policy = TxPolicy::for_chain(1);
    let tx = tx1559(1);
    let good = sign_tx(&tx, 42);
    let with = |r: U256, s: U256, v: bool| encode(tx.clone(), Signature::new(r, s, v));
    let n = U256::from_be_bytes(N_BE);
    // r or s out of range.
    for (r, s) in [
        (U256::ZERO, good.s()),
        (good.r(), U256::ZERO),
        (n, good.s()),
        (good.r(), n),
        (U256::MAX, good.s()),
    ] {
        assert!(matches!(
            invalid(&with(r, s, good.v()), &policy),
            TxInvalid::SignatureRange(_)
        ));
    }
    // High s: the same signature with n − s (and the other parity) is rejected by EIP-2 and
    // accepted, with the same sender, when high s is allowed.
    let high = with(good.r(), n - good.s(), !good.v());
    assert_eq!(invalid(&high, &policy), TxInvalid::HighS);
    let allow = TxPolicy {
        allow_high_s: true,
        ..policy
    };
    assert_eq!(
        check(&high, &allow).unwrap().sender,
        PublicKey::from_secret(&Fq::from(42)).unwrap().address()
    );
    // No curve point with x = r: find such an r.
    let r_bad = (1u64..)
        .map(U256::from)
        .find(|r| {
            let rb = r.to_be_bytes::<32>();
            batch_ecdsa::native::recover::recover_nonce_point(
                &batch_ecdsa::native::encoding::fq_from_be_bytes(&rb).unwrap(),
                batch_ecdsa::native::signature::RecoveryId::new(0).unwrap(),
            )
            .is_err()
        })
        .unwrap();
    assert!(matches!(
        invalid(&with(r_bad, good.s(), false), &policy),
        TxInvalid::Recovery(m) if m.contains("no curve point")
    ));
    // A recovered key at infinity: s·R = h·G with R = h·G, s = 1.
    let h = fq_from_be_bytes_reduced(&tx.signature_hash().0);
    let r_point = (Secp256k1::generator() * h).to_affine();
    let r = U256::from_be_bytes(batch_ecdsa::native::encoding::fp_to_be_bytes(&r_point.x));
    let parity = bool::from(ff::PrimeField::is_odd(&r_point.y));
    assert!(!bool::from(h.is_zero()));
    assert!(matches!(
        invalid(&with(r, U256::from(1u64), parity), &policy),
        TxInvalid::Recovery(m) if m.contains("infinity")
    ));
    // Another chain; pre-EIP-155 legacy when EIP-155 is required.
    let other = encode(tx1559(5), sign_tx(&tx1559(5), 42));
    assert_eq!(
        invalid(&other, &policy),
        TxInvalid::WrongChain {
            expected: 1,
            found: 5
        }
    );
    assert!(check(&other, &TxPolicy::default()).is_ok());
    let pre155 = legacy_tx(None);
    let raw = encode(pre155.clone(), sign_tx(&pre155, 3));
    assert!(check(&raw, &policy).is_ok());
    let strict = TxPolicy {
        require_eip155: true,
        ..policy
    };
    assert_eq!(invalid(&raw, &strict), TxInvalid::NoChainId);
    // Intrinsic gas and fees.
    let mut low = tx1559(1);
    low.gas_limit = 20_999;
    let raw = encode(low.clone(), sign_tx(&low, 3));
    assert_eq!(
        invalid(&raw, &policy),
        TxInvalid::IntrinsicGas {
            limit: 20_999,
            intrinsic: 21_000
        }
    );
    let mut fees = tx1559(1);
    fees.max_priority_fee_per_gas = fees.max_fee_per_gas + 1;
    let raw = encode(fees.clone(), sign_tx(&fees, 3));
    assert!(matches!(
        invalid(&raw, &policy),
        TxInvalid::PriorityAboveMax { .. }
    ));
}

#[test]
fn a_batch_names_every_bad_transaction_and_builds_the_batch_file() {
    let mut raw = demo_txs(6, 3, 1).unwrap();
    let good = SignedTxs::decode(&raw, &TxPolicy::for_chain(1)).unwrap();
    let types: Vec<TxType> = good.records.iter().map(|r| r.tx.tx_type).collect();
    assert_eq!(
        types,
        [
            TxType::Legacy,
            TxType::Eip1559,
            TxType::Eip4844,
            TxType::Eip7702,
            TxType::Eip2930,
            TxType::Legacy
        ]
    );
    assert_eq!(good.records[0].tx.chain_id, Some(1));
    assert_eq!(good.records[5].tx.chain_id, None);
    // The batch file is the existing record format; it verifies natively.
    let batch = BatchFile::from_signed_txs(&raw, &TxPolicy::for_chain(1)).unwrap();
    assert_eq!(batch.len(), 6);
    assert!(batch.verify_native(Default::default()).is_empty());
    for (p, r) in batch.signatures.iter().zip(&good.records) {
        assert_eq!(p.msg_hash, r.tx.signing_hash);
        assert_eq!(p.pubkey, Some(r.pubkey));
    }
    // Break two: a trailing byte (malformed) and another chain (invalid).
    raw[1].push(0);
    let errors = SignedTxs::decode(&raw, &TxPolicy::for_chain(1)).unwrap_err();
    assert_eq!(errors.len(), 1);
    assert_eq!(batch_ecdsa::txs::exit_code(&errors), 2);
    let errors = SignedTxs::decode(&raw, &TxPolicy::for_chain(2)).unwrap_err();
    assert_eq!(
        errors.iter().map(TxError::index).collect::<Vec<_>>(),
        [0, 1, 2, 3, 4]
    );
    assert_eq!(batch_ecdsa::txs::exit_code(&errors), 2);
    raw[1].pop();
    let errors = SignedTxs::decode(&raw, &TxPolicy::for_chain(2)).unwrap_err();
    assert_eq!(batch_ecdsa::txs::exit_code(&errors), 1);
    assert_eq!(
        errors[0].to_string(),
        "transaction 0: invalid: chain id 1 is not the batch's chain id 2"
    );
}

/// Random bytes, and valid transactions of every type with bytes changed, inserted, removed
/// or cut: decoding never panics; a failure is a clean error, and whatever passes is a record
/// whose key really signed its signing hash.
fn check_clean(raw: &[u8]) {
    match decode_and_check(raw, &TxPolicy::default(), 0) {
        Ok(rec) => {
            // Re-decoding gives the same transaction, and the signature verifies natively.
            let d = decode_signed_tx(raw).unwrap();
            assert_eq!(d.signing_hash, rec.tx.signing_hash);
            let sig =
                batch_ecdsa::native::signature::Signature::from_be_bytes(&rec.tx.r, &rec.tx.s)
                    .unwrap();
            let h = fq_from_be_bytes_reduced(&rec.tx.signing_hash);
            assert!(batch_ecdsa::native::ecdsa::verify(&rec.pubkey, &h, &sig).is_ok());
        }
        Err(e) => {
            assert!(!e.to_string().is_empty());
            assert!(e.to_string().starts_with("transaction 0: "));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        check_clean(&bytes);
    }

    #[test]
    fn typed_prefixed_random_bytes_never_panic(ty in 0u8..6, bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        let mut raw = vec![ty];
        raw.extend_from_slice(&bytes);
        check_clean(&raw);
    }

    #[test]
    fn mutated_transactions_never_panic(
        which in 0usize..6,
        edits in proptest::collection::vec((any::<u8>(), any::<prop::sample::Index>(), any::<u8>()), 1..4),
    ) {
        let txs = demo_txs(6, 11, 1).unwrap();
        let mut raw = txs[which].clone();
        for (op, at, byte) in edits {
            if raw.is_empty() {
                raw.push(byte);
                continue;
            }
            let i = at.index(raw.len());
            match op % 5 {
                0 => raw[i] = byte,
                1 => raw[i] ^= 1 << (byte % 8),
                2 => raw.insert(i, byte),
                3 => { raw.remove(i); }
                _ => raw.truncate(i),
            }
        }
        check_clean(&raw);
    }
}
