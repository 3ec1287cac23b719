//! Signed Ethereum transactions in, the digest statement out: what a rollup sequencer proves
//! for the on-chain wrapper, which recomputes D from the posted payloads and senders.
//!
//! The transactions are the project's deterministic demo set (every type, legacy to EIP-7702);
//! a sequencer passes its own raw EIP-2718 bytes to `SignedTxs::decode`.
//!
//! `cargo run --release --example signed_transactions`

use batch_ecdsa::native::digest::batch_digest;
use batch_ecdsa::prover::api::SetupOptions;
use batch_ecdsa::txs::demo::demo_txs;
use batch_ecdsa::{
    CircuitKind, Entries, Policy, ProveOptions, Prover, SignedTxs, Silent, Statement, TxPolicy,
    Verifier,
};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The default feature `asm` needs BMI2 and ADX on x86-64: say so rather than crash.
    batch_ecdsa::cpu::check()?;
    let raw: Vec<Vec<u8>> = demo_txs(2, 1, 1)?;
    let txs = SignedTxs::decode(&raw, &TxPolicy::for_chain(1))?;
    let batch = txs.batch_file();

    let params = std::path::Path::new("params");
    let setup = SetupOptions {
        statement: Statement::Digest,
        ..SetupOptions::default()
    };
    let prover = Prover::with_setup(CircuitKind::Batch, batch.len(), params, &setup, &Silent)?;
    let proved = prover.prove(&batch, ProveOptions::default(), &Silent)?;

    // D as the wrapper contract recomputes it: keccak256 of (signing hash ‖ sender) pairs.
    let pairs: Vec<([u8; 32], [u8; 20])> = txs
        .records
        .iter()
        .map(|r| (r.tx.signing_hash, r.sender))
        .collect();
    let d = batch_digest(&pairs);
    println!(
        "proved {} transactions; D = 0x{}",
        batch.len(),
        d.iter().map(|b| format!("{b:02x}")).collect::<String>()
    );
    assert_eq!(
        proved.file.digest.as_deref(),
        Some(
            format!(
                "0x{}",
                d.iter().map(|b| format!("{b:02x}")).collect::<String>()
            )
            .as_str()
        )
    );

    let verifier = Verifier::for_proof_file(&proved.file, params, &Silent)?;
    verifier.verify_batch(
        &proved.file,
        &batch,
        Policy::default(),
        Entries::Transactions,
    )?;
    println!("verified against the transactions held");
    Ok(())
}
