//! One key for every batch size up to B (issue 29): a prover made for B proves n ≤ B
//! signatures, padded with the canonical filler (`batch_ecdsa::native::filler`, which argues
//! soundness), and a verifier holding the n entries checks the proof against them.
//!
//! Tests at n = 1, B − 1 and B on one B = 4 key (keys statement), and n = 1 on a B = 2 digest
//! key; the negatives: a filler slot that states another (valid) signature, a real entry that
//! the proof states as filler, and a batch held that is shorter than the proof's real part.

use std::path::PathBuf;

use batch_ecdsa::demo::demo_batch;
use batch_ecdsa::prover::api::SetupOptions;
use batch_ecdsa::{
    BatchFile, CircuitKind, Entries, Policy, ProveOptions, Prover, Silent, Statement, Verifier,
    VerifyError,
};

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("any-batch-size")
}

fn batch(seed: u64, n: usize) -> BatchFile {
    BatchFile::from_records(&demo_batch(n, seed, &[]).unwrap()).unwrap()
}

fn first(b: &BatchFile, n: usize) -> BatchFile {
    let mut out = b.clone();
    out.signatures.truncate(n);
    out
}

/// The indices `verify_batch` names, or `None` when it accepts.
fn refused_at(
    v: &Verifier,
    file: &batch_ecdsa::prover::proof::ProofFile,
    held: &BatchFile,
) -> Option<Vec<Option<usize>>> {
    match v.verify_batch(file, held, Policy::default(), Entries::Signatures) {
        Ok(_) => None,
        Err(VerifyError::NotTheBatch(e)) => Some(e.mismatches.iter().map(|m| m.index).collect()),
        Err(e) => panic!("not a batch mismatch: {e}"),
    }
}

#[test]
fn one_key_proves_every_n_up_to_b() {
    const B: usize = 4;
    let prover = Prover::new(CircuitKind::Batch, B, &dir(), &Silent).expect("prover");
    let all = batch(3, B);
    let mut files = Vec::new();
    for n in [1, B - 1, B] {
        let held = first(&all, n);
        let proved = prover
            .prove(&held, ProveOptions::default(), &Silent)
            .unwrap_or_else(|e| panic!("n = {n}: {e}"));
        assert_eq!(proved.file.batch_size, B, "the proof states B slots");
        let v = Verifier::for_proof_file(&proved.file, &dir(), &Silent).expect("verifier");
        assert_eq!(refused_at(&v, &proved.file, &held), None, "n = {n}");
        files.push((n, proved.file));
    }
    let v = Verifier::for_proof_file(&files[0].1, &dir(), &Silent).unwrap();
    let (n3, ref p3) = files[1];
    let (_, ref p4) = files[2];
    // A filler slot stating another valid signature: the full proof against 3 entries.
    assert_eq!(refused_at(&v, p4, &first(&all, n3)), Some(vec![Some(3)]));
    // A real entry the proof states as filler: 4 entries held, the proof has 3 + filler.
    assert_eq!(refused_at(&v, p3, &all), Some(vec![Some(3)]));
    // The held batch shorter than the proof's real part: slots 1 and 2 are not filler.
    assert_eq!(
        refused_at(&v, p3, &first(&all, 1)),
        Some(vec![Some(1), Some(2)])
    );
    // The filler itself held as a real entry is what the padded proof states: accepted.
    let with_filler = first(&all, n3).padded_to(B);
    assert_eq!(refused_at(&v, p3, &with_filler), None);
    // A file with one public input more than its B slots (built in memory, never parsed):
    // the extra entry is not proven, so the file is refused for its form, before any
    // comparison or proof check.
    let five = BatchFile::from_records(&demo_batch(5, 3, &[]).unwrap()).unwrap();
    let mut extra = p4.clone();
    let fifth = five.items(Policy::default()).unwrap()[4];
    extra
        .public_inputs
        .push(batch_ecdsa::prover::proof::public_input_record(
            &fifth.h, &fifth.q,
        ));
    match v.verify_batch(&extra, &five, Policy::default(), Entries::Signatures) {
        Err(VerifyError::File(e)) => assert!(e.to_string().contains("public inputs"), "{e}"),
        other => panic!("an unproven extra entry: {other:?}"),
    }
    assert!(matches!(v.verify(&extra), Err(VerifyError::File(_))));
    // A held entry whose own signature is corrupt (key and v given, s changed): refused by
    // index, although the proof is for a valid signature on the same hash by the same key.
    let mut records = demo_batch(B, 3, &[]).unwrap();
    let s = &records.signatures[1].s;
    let last = u8::from_str_radix(&s[s.len() - 2..], 16).unwrap();
    records.signatures[1].s = format!("{}{:02x}", &s[..s.len() - 2], last ^ 1);
    let corrupt = BatchFile::from_records(&records).unwrap();
    assert_eq!(refused_at(&v, p4, &corrupt), Some(vec![Some(1)]));
    // More entries than slots: refused as a whole.
    assert_eq!(refused_at(&v, p4, &five), Some(vec![None]));
    assert!(prover
        .prove(&five, ProveOptions::default(), &Silent)
        .is_err());
}

#[test]
fn digest_statement_pads_too() {
    let setup = SetupOptions {
        statement: Statement::Digest,
        ..SetupOptions::default()
    };
    let prover =
        Prover::with_setup(CircuitKind::Batch, 2, &dir(), &setup, &Silent).expect("prover");
    let held = batch(9, 1);
    let proved = prover
        .prove(&held, ProveOptions::default(), &Silent)
        .expect("proof");
    let v = Verifier::for_proof_file(&proved.file, &dir(), &Silent).expect("verifier");
    assert_eq!(refused_at(&v, &proved.file, &held), None);
    // Another real signature in place of the filler: slot 1 named.
    let two = batch(9, 2);
    let full = prover
        .prove(&two, ProveOptions::default(), &Silent)
        .expect("proof");
    assert_eq!(refused_at(&v, &full.file, &held), Some(vec![Some(1)]));
}
