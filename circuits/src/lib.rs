//! Halo2 chips and circuits for secp256k1 ECDSA batch verification (KZG over BN254,
//! halo2-axiom). Layers, lowest first: [`layout`] (builder of virtual cells and the one place
//! that assigns them), [`range`] (lookups, decomposition, less-than), [`field`] (non-native
//! secp256k1 `Fp`/`Fq`), [`ecc`] (secp256k1 points, scalar multiplication, MSM), [`ecdsa`]
//! (the scalar side, public instance, and the naive per-signature circuit).

pub mod bigint;
pub mod config;
pub mod ecc;
pub mod ecdsa;
pub mod field;
pub mod footprint;
pub mod layout;
pub mod range;
#[cfg(feature = "testing")]
pub mod test_utils;
