//! batch-ecdsa: prove in one Halo2 proof that a whole batch of secp256k1 ECDSA signatures is
//! valid.
//!
//! - [`native`]: the native secp256k1 ECDSA / ECDSA* reference and native batch verification;
//! - [`batch_file`]: the batch file format and its validation;
//! - [`demo`]: deterministic demo batches;
//! - [`calldata`]: the rollup cost model;
//! - [`prover`]: parameters, keys, proofs and the API a sequencer uses;
//! - [`txs`]: raw signed Ethereum transactions in (alloy decoding, our recovery), stripped out;
//! - `cli` (feature `cli`): the command-line arguments the binaries share;
//! - `compare` (feature `reports`, for the benches): the naive vs batch comparison bench's
//!   measurements and writers. The progress bars of the command-line tools are behind the
//!   default feature `cli`.

pub mod batch_file;
pub mod calldata;
#[cfg(feature = "cli")]
pub mod cli;
#[cfg(feature = "reports")]
pub mod compare;
pub mod demo;
pub mod fsutil;
pub mod hexfmt;
pub mod json;
pub mod native;
pub mod prover;
pub mod txs;
