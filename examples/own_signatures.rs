//! A sequencer's own signatures, proved and verified through the library: typed values in
//! (32-byte hashes, 64-byte signatures, recovery ids, SEC1 keys), no hex anywhere.
//!
//! The signatures are made here with k256, standing in for whatever signer the caller runs;
//! the library checks them with its own native reference and proves them in one proof.
//!
//! `cargo run --release --example own_signatures` (about a minute on 2 cores the first time:
//! a local setup and keys are made and cached in `params/`).

use batch_ecdsa::{
    BatchFile, CircuitKind, Entries, Policy, ProveOptions, Prover, SignatureInput, Signer, Silent,
    Verifier,
};
use k256::ecdsa::SigningKey;
use sha3::{Digest, Keccak256};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The default feature `asm` needs BMI2 and ADX on x86-64: say so rather than crash.
    batch_ecdsa::cpu::check()?;
    // Four signers, four messages: (hash, r ‖ s, recovery id, compressed key).
    let mut signed = Vec::new();
    for i in 1u8..=4 {
        let key = SigningKey::from_bytes(&[i; 32].into())?;
        let hash: [u8; 32] = Keccak256::digest(format!("transfer #{i}")).into();
        let (signature, recovery_id) = key.sign_prehash_recoverable(&hash)?;
        let compact: [u8; 64] = signature.to_bytes().into();
        let sec1 = key
            .verifying_key()
            .to_encoded_point(true)
            .as_bytes()
            .to_vec();
        signed.push((hash, compact, recovery_id.to_byte(), sec1));
    }
    let inputs: Vec<SignatureInput> = signed
        .iter()
        .map(|(hash, sig, id, key)| {
            SignatureInput::from_compact(*hash, sig, Some(*id), Signer::PublicKey(key))
        })
        .collect();
    let batch = BatchFile::from_signatures(&inputs)?;
    batch.check_native(Policy::default())?;

    let params = std::path::Path::new("params");
    let prover = Prover::new(CircuitKind::Batch, batch.len(), params, &Silent)?;
    let proved = prover.prove(&batch, ProveOptions::default(), &Silent)?;
    println!(
        "proved {} signatures in {:.1} s: {} bytes, k = {}",
        batch.len(),
        proved.prove_s,
        proved.proof_bytes,
        prover.k()
    );

    // Checked against the batch we hold, not against the proof file's own claims.
    let verifier = Verifier::for_proof_file(&proved.file, params, &Silent)?;
    let t = verifier.verify_batch(&proved.file, &batch, Policy::default(), Entries::Signatures)?;
    println!(
        "verified against our batch in {:.1} ms",
        t.as_secs_f64() * 1e3
    );
    Ok(())
}
