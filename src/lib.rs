//! batch-ecdsa: prove in one Halo2 proof that a whole batch of secp256k1 ECDSA signatures is
//! valid.
//!
//! - [`native`]: the native secp256k1 ECDSA / ECDSA* reference and native batch verification;
//! - [`batch`]: the batch file format and its validation;
//! - [`demo`]: deterministic demo batches;
//! - [`calldata`]: the rollup cost model;
//! - [`compare`]: the naive vs batch comparison bench's measurements and writers.

pub mod batch;
pub mod calldata;
pub mod compare;
pub mod demo;
pub mod fsutil;
pub mod hexfmt;
pub mod native;
pub mod prover;
