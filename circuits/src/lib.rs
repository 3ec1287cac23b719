//! Halo2 chips and circuits for secp256k1 ECDSA batch verification (KZG over BN254,
//! halo2-axiom). Layers, lowest first: [`layout`] (builder of virtual cells and the one place
//! that assigns them), [`range`] (lookups, decomposition, less-than), [`field`] (non-native
//! secp256k1 `Fp`/`Fq`).

pub mod bigint;
pub mod config;
pub mod ecdsa;
pub mod field;
pub mod layout;
pub mod range;
pub mod test_utils;
