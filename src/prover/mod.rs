//! The prover side (README, *How it works* and *Commands*): KZG parameters, the circuit
//! choice and its layout, keys (cached), proofs and proof files, and the [`api`] a sequencer
//! uses.
//!
//! Layers, each using only those above it in this list: [`params`] (the SRS), [`circuit`]
//! (which circuit, its layout, witnesses from a batch file), [`keys`] (keygen, key hash,
//! cache), [`proof`] (create / verify, the proof file), [`api`] (`Prover`, `Verifier`).

pub mod api;
#[cfg(feature = "cli")]
pub mod bars;
pub mod circuit;
pub mod keys;
pub mod params;
pub mod proof;
