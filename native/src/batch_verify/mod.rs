//! Batch verification of ECDSA* signatures (signatures that carry their full nonce point R).
//!
//! # The check
//!
//! An ECDSA* item `(R_i, s_i, h_i, Q_i)` is valid iff `R_i, Q_i` are curve points other than the
//! identity, `1 <= s_i < n`, `r_i = x(R_i) mod n != 0`, and
//!
//! ```text
//! R_i = u1_i·G + u2_i·Q_i,   u1_i = h_i·s_i^-1,  u2_i = r_i·s_i^-1   (mod n).
//! ```
//!
//! A valid item is in particular a valid ordinary ECDSA signature `(r_i, s_i)`, since
//! `x(u1_i·G + u2_i·Q_i) mod n = x(R_i) mod n = r_i`; ECDSA* additionally pins the exact point
//! (`-R_i` has the same `r_i` and is rejected). For a batch of `B` items, [`batch_verify`]
//! checks each item's structure (errors name the index) and then the single equation
//!
//! ```text
//! Σ_i t^i·R_i − Σ_i (t^i·r_i·s_i^-1)·Q_i − (Σ_i t^i·h_i·s_i^-1)·G = O,   i = 0..B-1,
//! ```
//!
//! evaluated as ONE multi-scalar multiplication over the `2B` points `R_i, Q_i`
//! ([`crate::msm`], Pippenger for large `B`) plus one fixed-base multiplication of `G`.
//! The inverses `s_i^-1` come from one field inversion (Montgomery's trick).
//!
//! # Why an invalid batch cannot pass
//!
//! Let `E_i = R_i − u1_i·G − u2_i·Q_i`, so item `i` (structurally sound) is valid iff
//! `E_i = O`, and the equation above reads `Σ_i t^i·E_i = O`. The group has prime order `n`,
//! so `E_i = c_i·G` for unique `c_i ∈ Z_n`, and the equation holds iff
//! `P(t) = Σ_i c_i·t^i ≡ 0 (mod n)`. If some item is invalid, `P` is a non-zero polynomial of
//! degree `<= B-1` over the field `Z_n`, with at most `B-1` roots (Schwartz–Zippel). The
//! challenge `t` ([`batch_challenge`]) is Keccak-256 over a domain tag, `B` and every
//! coordinate and scalar of every item, computed by the verifier itself after it holds the
//! whole batch: the items (hence `P`) are fixed before `t` exists, and changing any of them
//! changes `t` unpredictably. Modelling Keccak as a random oracle, a batch containing an
//! invalid item passes with probability `<= (B-1)/n < 2^-245` for `B <= 2^10`; an adversary
//! who tries `q` different batches gains at most a factor `q`. `t = 0` would make the check
//! look at item 0 only, so it is excluded by re-hashing with a counter.
//!
//! Conversely, when every item is valid all `E_i = O` and the equation holds for every `t`:
//! valid batches are never rejected.
//!
//! # Naming the invalid items
//!
//! [`find_invalid`] bisects: a sub-batch that passes its own batch equation (its own `t`,
//! hashed over its own items only) is accepted, one that fails is split in halves, and a
//! single item is checked directly (`R == u1·G + u2·Q`), so every index it returns is
//! individually invalid. An invalid item is missed only if some sub-batch containing it
//! passes, probability `<= (B-1)/n` per sub-batch check.

mod bisect;
mod challenge;
mod equation;

#[cfg(test)]
mod tests;

pub use bisect::find_invalid;
pub use challenge::{batch_challenge, BATCH_CHALLENGE_DOMAIN};

use halo2curves::secp256k1::{Fq, Secp256k1Affine};

/// One ECDSA* item: nonce point `R`, signature scalar `s`, message hash `h` (as a scalar mod
/// n) and public key `Q`. `r` is not stored: it is derived as `x(R) mod n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BatchItem {
    pub r_point: Secp256k1Affine,
    pub s: Fq,
    pub h: Fq,
    pub q: Secp256k1Affine,
}

/// Why a batch was rejected. Structural errors name the (0-based) index of the first bad item.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BatchError {
    #[error("item {index}: nonce point R is the point at infinity")]
    NonceIsIdentity { index: usize },
    #[error("item {index}: nonce point R is not on the secp256k1 curve")]
    NonceNotOnCurve { index: usize },
    #[error("item {index}: public key Q is the point at infinity")]
    KeyIsIdentity { index: usize },
    #[error("item {index}: public key Q is not on the secp256k1 curve")]
    KeyNotOnCurve { index: usize },
    #[error("item {index}: s is zero (ECDSA needs 1 <= s < n)")]
    ZeroS { index: usize },
    #[error("item {index}: r = x(R) mod n is zero")]
    ZeroR { index: usize },
    #[error(
        "batch equation does not hold: at least one signature is invalid \
         (find_invalid names them)"
    )]
    EquationFailed,
}

/// Verifies a whole batch: structural checks on every item (the first failure is returned,
/// naming its index), then the random-linear-combination equation described in the module
/// documentation. An empty batch is (vacuously) valid.
pub fn batch_verify(items: &[BatchItem]) -> Result<(), BatchError> {
    let r_values = equation::check_structure(items)?;
    if equation::batch_equation_holds(items, &r_values) {
        Ok(())
    } else {
        Err(BatchError::EquationFailed)
    }
}
