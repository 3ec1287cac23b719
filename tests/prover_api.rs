//! The library API (`batch_ecdsa::prover::api`) as a sequencer uses it: the module doc's
//! example (marked `no_run` there) runs here with real keys and a real proof, plus the key
//! cache: reused when sound, regenerated when corrupted.
//!
//! The naive circuit at B = 1 (k = 15) keeps keygen and proving short; the API is the same
//! for the batch circuit, which `tests/prover_cli.rs` proves through the command line.

use std::path::{Path, PathBuf};

use batch_ecdsa::batch_file::BatchFile;
use batch_ecdsa::demo::demo_batch;
use batch_ecdsa::prover::api::{ProveOptions, Prover, ProverError, Silent, Verifier};
use batch_ecdsa::prover::circuit::CircuitKind;
use batch_ecdsa::prover::proof::public_input_record;

fn batch(seed: u64, count: usize) -> BatchFile {
    let records = demo_batch(count, seed, &[]).expect("demo batch");
    BatchFile::from_records(&records).expect("well formed")
}

fn fresh_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("prover-api-{}-{name}", std::process::id()));
    std::fs::remove_dir_all(&dir).ok();
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The one cached file of `dir/keys` with this extension.
fn cached(dir: &Path, ext: &str) -> PathBuf {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir.join("keys"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    assert_eq!(found.len(), 1, "{found:?}");
    found.pop().unwrap()
}

fn flip_middle_byte(path: &Path) {
    let mut bytes = std::fs::read(path).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x5a;
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn prover_built_once_proves_and_the_key_cache_is_checked() {
    let dir = fresh_dir("cache");
    let kind = CircuitKind::Naive;

    // First build: keys generated and cached.
    let first = Prover::new(kind, 1, &dir, &Silent).expect("prover");
    assert!(!first.setup_report().keys_from_cache);
    assert!(first.setup_report().params_generated);
    let keygen_s = first.setup_report().keygen_s;
    let vk_hash = first.vk_hash();
    drop(first);

    // Second build: the cache, same key, faster than keygen.
    let prover = Prover::new(kind, 1, &dir, &Silent).expect("prover");
    let setup = prover.setup_report();
    assert!(setup.keys_from_cache, "{setup:?}");
    assert!(!setup.params_generated);
    assert_eq!(prover.vk_hash(), vk_hash);
    assert!(
        setup.keygen_s < keygen_s,
        "reading the cache ({:.2} s) should beat keygen ({keygen_s:.2} s)",
        setup.keygen_s
    );

    // The module doc's example: prove a batch, save, verify with a verifier of its own.
    let proved = prover
        .prove(&batch(21, 1), ProveOptions::default(), &Silent)
        .expect("proof");
    assert!(proved.self_verified);
    let path = dir.join("proof.json");
    proved.file.save(&path).unwrap();
    let file = batch_ecdsa::prover::proof::ProofFile::load(&path).unwrap();
    assert_eq!(file, proved.file);
    let verifier = Verifier::for_proof_file(&file, &dir, &Silent).expect("verifier");
    assert!(verifier.vk_from_cache);
    assert_eq!(verifier.vk_hash(), vk_hash);
    verifier.verify(&file).expect("valid proof");
    prover
        .verify(&file)
        .expect("valid proof (prover's own check)");

    // Someone else's public inputs: invalid (exit code 1).
    let mut swapped = file.clone();
    swapped.public_inputs = batch(22, 1)
        .items(Default::default())
        .expect("valid")
        .iter()
        .map(|it| public_input_record(&it.h, &it.q))
        .collect();
    assert_ne!(swapped.public_inputs, file.public_inputs);
    let err = verifier.verify(&swapped).unwrap_err();
    assert_eq!(err.exit_code(), 1, "{err}");

    // Wrong batch size: bad input (2); an invalid signature: 1, named.
    let err = prover
        .prove(&batch(23, 2), ProveOptions::default(), &Silent)
        .unwrap_err();
    assert_eq!(err.exit_code(), 2, "{err}");
    let records = demo_batch(1, 24, &[0]).unwrap();
    let invalid = BatchFile::from_records(&records).unwrap();
    match prover.prove(&invalid, ProveOptions::default(), &Silent) {
        Err(e @ ProverError::Witness(_)) => {
            assert_eq!(e.exit_code(), 1);
            assert!(e.to_string().contains("signature 0"), "{e}");
        }
        other => panic!("expected the invalid signature to be refused, got {other:?}"),
    }
    drop(prover);

    // A corrupted proving key is rejected (not handed to halo2) and generated again.
    flip_middle_byte(&cached(&dir, "pk"));
    let again = Prover::new(kind, 1, &dir, &Silent).expect("prover");
    let setup = again.setup_report();
    assert!(!setup.keys_from_cache);
    let why = setup.cache_rejected.clone().expect("a rejection reason");
    assert!(why.contains("corrupted"), "{why}");
    assert_eq!(
        again.vk_hash(),
        vk_hash,
        "the same circuit gives the same key"
    );
    drop(again);

    // A corrupted verifying key: the verifier generates its own and still accepts.
    flip_middle_byte(&cached(&dir, "vk"));
    let verifier = Verifier::for_proof_file(&file, &dir, &Silent).expect("verifier");
    assert!(!verifier.vk_from_cache);
    verifier.verify(&file).expect("valid proof");

    std::fs::remove_dir_all(&dir).ok();
}

/// The digest statement through the API (batch circuit, B = 1, k = 14): `SetupOptions`
/// chooses it; the file records the raw signing hash, the signer's address and D; a signing
/// hash ≥ n is recorded as it is (the circuit hashes its 32 bytes, the signature signs it
/// mod n), and the same file with the reduced hash (D recomputed) does not verify. A keys
/// verifier is not this proof's.
#[test]
fn digest_statement_through_the_api() {
    use batch_ecdsa::batch_file::{BatchRecords, SignatureRecord};
    use batch_ecdsa::hexfmt::encode_hex;
    use batch_ecdsa::native::digest::batch_digest;
    use batch_ecdsa::native::ecdsa::sign;
    use batch_ecdsa::native::encoding::{fq_from_be_bytes_reduced, fq_to_be_bytes};
    use batch_ecdsa::native::public_key::PublicKey;
    use batch_ecdsa::prover::api::SetupOptions;
    use batch_ecdsa::prover::proof::{digest_record, PublicStatement};
    use batch_ecdsa_circuits::ecdsa::Statement;
    use halo2curves::secp256k1::Fq;

    // A signature on the hash H = 2^256 − 1 ≥ n (it signs H mod n).
    let raw = [0xffu8; 32];
    let h = fq_from_be_bytes_reduced(&raw);
    assert_ne!(
        fq_to_be_bytes(&h),
        raw,
        "H ≥ n: its scalar differs from its bytes"
    );
    let d = Fq::from(123_456_789u64);
    let key = PublicKey::from_secret(&d).unwrap();
    let (sig, id, _) = sign(&d, &h, &Fq::from(987_654_321u64)).unwrap();
    let records = BatchRecords {
        signatures: vec![SignatureRecord {
            msg_hash: encode_hex(&raw),
            r: encode_hex(&fq_to_be_bytes(&sig.r())),
            s: encode_hex(&fq_to_be_bytes(&sig.s())),
            v: Some(u64::from(id.to_u8())),
            pubkey: None,
            address: Some(encode_hex(&key.address())),
        }],
    };
    let batch = BatchFile::from_records(&records).expect("well formed");

    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("prover-api-digest");
    let setup = SetupOptions {
        statement: Statement::Digest,
        ..SetupOptions::default()
    };
    let prover = Prover::with_setup(CircuitKind::Batch, 1, &dir, &setup, &Silent).expect("prover");
    assert_eq!(
        (prover.statement(), prover.num_instance()),
        (Statement::Digest, 2)
    );
    let proved = prover
        .prove(&batch, ProveOptions::default(), &Silent)
        .expect("proof");
    assert!(proved.self_verified);
    let file = proved.file;
    assert_eq!(file.statement, Statement::Digest);
    let pair = (raw, key.address());
    assert_eq!(file.public_inputs, vec![digest_record(&pair)]);
    assert_eq!(file.digest, Some(encode_hex(&batch_digest(&[pair]))));
    assert!(matches!(
        file.statement_inputs().unwrap(),
        PublicStatement::Digest { .. }
    ));
    let verifier = Verifier::for_proof_file(&file, &dir, &Silent).expect("verifier");
    assert_eq!(verifier.statement(), Statement::Digest);
    verifier.verify(&file).expect("valid proof");

    // Against the batch the caller holds: this one passes; another key, or another hash (the
    // reduced one, equal mod n), is named by its index, before any proof check.
    use batch_ecdsa::batch_file::Policy;
    use batch_ecdsa::prover::api::VerifyError;
    use batch_ecdsa::prover::expected::Entries;
    verifier
        .verify_batch(&file, &batch, Policy::default(), Entries::Signatures)
        .expect("the proof is for this batch");
    let other_key = PublicKey::from_secret(&Fq::from(5u64)).unwrap();
    let mut changed = records.clone();
    changed.signatures[0].address = Some(encode_hex(&other_key.address()));
    let changed = BatchFile::from_records(&changed).expect("well formed");
    match verifier.verify_batch(&file, &changed, Policy::default(), Entries::Signatures) {
        Err(VerifyError::NotTheBatch(e)) => {
            assert_eq!(e.mismatches.len(), 1);
            assert_eq!(e.mismatches[0].index, Some(0));
        }
        other => panic!("a changed key: {other:?}"),
    }
    let mut reduced_hash = records.clone();
    reduced_hash.signatures[0].msg_hash = encode_hex(&fq_to_be_bytes(&h));
    let reduced_hash = BatchFile::from_records(&reduced_hash).expect("well formed");
    let err = verifier
        .verify_batch(&file, &reduced_hash, Policy::default(), Entries::Signatures)
        .unwrap_err();
    assert_eq!(err.exit_code(), 1);
    assert!(
        err.to_string()
            .contains("signature 0 differs: message hash"),
        "{err}"
    );
    let two = batch_ecdsa::batch_file::BatchRecords {
        signatures: vec![records.signatures[0].clone(), records.signatures[0].clone()],
    };
    let err = verifier
        .verify_batch(
            &file,
            &BatchFile::from_records(&two).expect("well formed"),
            Policy::default(),
            Entries::Signatures,
        )
        .unwrap_err();
    assert!(
        err.to_string().contains("hold 2 signatures, the proof 1"),
        "{err}"
    );

    // The reduced hash, D recomputed: a consistent file, but not what was proven.
    let reduced = (fq_to_be_bytes(&h), key.address());
    let mut other = file.clone();
    other.public_inputs = vec![digest_record(&reduced)];
    other.digest = Some(encode_hex(&batch_digest(&[reduced])));
    let err = verifier.verify(&other).unwrap_err();
    assert_eq!(err.exit_code(), 1, "{err}");
    assert!(err.to_string().contains("does not verify"), "{err}");

    // The keys circuit's verifier refuses it by its statement.
    let keys = Prover::new(CircuitKind::Batch, 1, &dir, &Silent).expect("keys prover");
    let err = keys.verify(&file).unwrap_err();
    assert!(err.to_string().contains("states digest"), "{err}");
}
