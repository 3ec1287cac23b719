//! batch-ecdsa: prove in one Halo2 proof that a whole batch of secp256k1 ECDSA signatures is
//! valid.
//!
//! - [`native`]: the native secp256k1 ECDSA / ECDSA* reference and native batch verification;
//! - [`batch_file`]: the batch file format and its validation;
//! - [`demo`]: deterministic demo batches;
//! - [`calldata`]: the rollup cost model;
//! - [`prover`]: parameters, keys, proofs and the API a sequencer uses;
//! - `txs` (feature `txs`): raw signed Ethereum transactions in (alloy decoding, our
//!   recovery), stripped out (feature `compression`);
//! - `cli` (feature `cli`): the command-line arguments the binaries share;
//! - `compare` (feature `reports`, for the benches): the naive vs batch comparison bench's
//!   measurements and writers. The progress bars of the command-line tools are behind the
//!   default feature `cli`.
//!
//! # The API a sequencer embeds
//!
//! The types a caller needs are re-exported here: build a [`BatchFile`] from typed values
//! ([`BatchFile::from_signatures`] with [`SignatureInput`]s: hashes, r, s, v and a key or an
//! address as bytes) or from signed transactions ([`SignedTxs::decode`]); prove it with a
//! [`Prover`] (made once per circuit, B and [`Statement`]; keys cached); check a proof with a
//! [`Verifier`] **against the batch you hold** ([`Verifier::verify_batch`], which names every
//! entry that differs). Every error implements [`std::error::Error`], so `?` composes.
//!
//! ```no_run
//! use batch_ecdsa::{BatchFile, CircuitKind, Entries, Policy, ProveOptions, Prover, Silent,
//!                   SignatureInput, Signer, Verifier};
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let (hash, sig, key) = ([0u8; 32], [0u8; 64], [0u8; 33]);
//! let batch = BatchFile::from_signatures(&[SignatureInput::from_compact(
//!     hash, &sig, None, Signer::PublicKey(&key),
//! )])?;
//! let dir = std::path::Path::new("params");
//! let prover = Prover::new(CircuitKind::Batch, batch.len(), dir, &Silent)?;
//! let proved = prover.prove(&batch, ProveOptions::default(), &Silent)?;
//! let verifier = Verifier::for_proof_file(&proved.file, dir, &Silent)?;
//! verifier.verify_batch(&proved.file, &batch, Policy::default(), Entries::Signatures)?;
//! # Ok(()) }
//! ```
//!
//! Runnable programs: `examples/own_signatures.rs` (a caller's own k256 signatures, proved and
//! verified), `examples/signed_transactions.rs` (signed transactions in, the digest statement
//! out), `examples/third_party_verify.rs` (someone else's proof checked against the batch you
//! hold). Run one with `cargo run --release --example own_signatures`.

pub mod batch_file;
pub mod calldata;
#[cfg(feature = "cli")]
pub mod cli;
#[cfg(feature = "reports")]
pub mod compare;
pub mod cpu;
pub mod demo;
pub mod failures;
pub mod fsutil;
pub mod hexfmt;
pub mod json;
/// The native reference (its own crate, `batch-ecdsa-native`, so that the circuits crate uses
/// the same definitions of keys, addresses and D).
pub use batch_ecdsa_native as native;
pub mod prover;
#[cfg(feature = "txs")]
pub mod txs;

pub use batch_ecdsa_circuits::ecdsa::Statement;
pub use batch_file::{
    BatchFile, InputError, InputErrors, Invalid, InvalidSignatures, Policy, SignatureInput, Signer,
};
pub use prover::api::{
    Progress, ProveOptions, Proved, Prover, ProverError, SetupOptions, Silent, Verifier,
    VerifyError,
};
pub use prover::circuit::CircuitKind;
pub use prover::expected::{Entries, Mismatch, NotTheBatch};
pub use prover::srs::SetupSource;
#[cfg(feature = "txs")]
pub use txs::{SignedTxs, TxError, TxErrors, TxPolicy};
