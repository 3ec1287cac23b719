//! A third party checks someone else's proof against the batch it holds.
//!
//! A prover (here, in the same program for the sake of a runnable example) hands over a proof
//! file as JSON. The verifier trusts none of it: it loads the parameters it chose (here the
//! local setup this machine cached; in production a ceremony file, `SetupSource::Ceremony`),
//! and checks that the proof is for **its own** batch. A proof for another batch, even one
//! that verifies for its own public inputs, is refused with the entry that differs.
//!
//! `cargo run --release --example third_party_verify`

use batch_ecdsa::demo::demo_batch;
use batch_ecdsa::prover::proof::ProofFile;
use batch_ecdsa::{
    BatchFile, CircuitKind, Entries, Policy, ProveOptions, Prover, Silent, Verifier, VerifyError,
};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The default feature `asm` needs BMI2 and ADX on x86-64: say so rather than crash.
    batch_ecdsa::cpu::check()?;
    let params = std::path::Path::new("params");

    // The prover's side: a batch of two, proved, the file handed over as JSON.
    let theirs = BatchFile::from_records(&demo_batch(2, 7, &[])?)?;
    let prover = Prover::new(CircuitKind::Batch, 2, params, &Silent)?;
    let json = prover
        .prove(&theirs, ProveOptions::default(), &Silent)?
        .file
        .to_json();

    // The third party's side: the file parsed strictly, checked against the batch it holds.
    let file = ProofFile::parse(&json)?;
    let verifier = Verifier::for_proof_file(&file, params, &Silent)?;
    let held = BatchFile::from_records(&demo_batch(2, 7, &[])?)?;
    verifier.verify_batch(&file, &held, Policy::default(), Entries::Signatures)?;
    println!("the proof is for the batch we hold");

    // Another batch (the same two signatures, swapped): refused, each entry named.
    let mut swapped = held.clone();
    swapped.signatures.swap(0, 1);
    match verifier.verify_batch(&file, &swapped, Policy::default(), Entries::Signatures) {
        Err(VerifyError::NotTheBatch(e)) => {
            for m in &e.mismatches {
                println!("refused as expected: {m}");
            }
        }
        other => return Err(format!("a swapped batch was not refused: {other:?}").into()),
    }
    Ok(())
}
