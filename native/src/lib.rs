//! Native (out-of-circuit) secp256k1 ECDSA / ECDSA* reference.
//!
//! Layers, lowest first: [`encoding`] (big-endian bytes <-> field elements), [`hash`],
//! [`sqrt`] (square roots and point decompression), [`public_key`], [`signature`] (parsing and
//! invariants), [`ecdsa`] (verify, ECDSA* nonce point, sign), [`recover`] (R and Q from
//! (r, v)), [`msm`] (multi-scalar multiplication, fixed-base G), [`batch_verify`] (the
//! random-linear-combination batch check). Beside them, [`digest`]: the batch digest D of the
//! digest-mode statement (signing hashes and addresses). Errors live in [`error`].

pub mod batch_verify;
pub mod digest;
pub mod ecdsa;
pub mod encoding;
pub mod error;
pub mod filler;
pub mod hash;
pub mod msm;
pub mod public_key;
pub mod recover;
pub mod signature;
pub mod sqrt;
