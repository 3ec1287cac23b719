//! The prover side (docs/how-it-works.md, docs/commands.md): KZG parameters, the circuit
//! choice and its layout, keys (cached), proofs and proof files, and the [`api`] a sequencer
//! uses.
//!
//! Layers, each using only those above it in this list: [`params`] (the setups this machine
//! makes, and their cache) and [`srs`] (ceremony files, the three kinds of setup, identities), [`circuit`]
//! (which circuit, its layout, witnesses from a batch file), [`key_files`] (any circuit's proving key on disk, checked; a cache of one), [`proving_key`] (keygen, key hash,
//! cache), [`transcript`] (Blake2b or the EVM's Keccak transcript), [`proof`] (create / verify,
//! the proof file), [`expected`] (a proof file against the caller's batch), [`api`] (`Prover`, `Verifier`).
//! Beside them, using none of them: [`memory`] (the memory a proof needs, against what the
//! machine has) and [`phases`] (what each phase of a long job took: time and its own peak memory).

pub mod api;
#[cfg(feature = "cli")]
pub mod bars;
pub mod circuit;
pub mod expected;
pub mod key_files;
pub mod memory;
pub mod params;
pub mod phases;
pub mod proof;
pub mod proving_key;
pub mod srs;
pub mod transcript;
