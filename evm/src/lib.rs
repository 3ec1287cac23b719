//! The Ethereum side of a batch-ecdsa proof: the Solidity verifier of a circuit's verifying
//! key, compiled offline, deployed and called in an EVM (revm) to measure its gas and size.
//!
//! Layers, each using only those above it in this list:
//! - [`solc`]: Solidity → bytecode with solc-js 0.8.19 (npm, pinned in `evm/solc/`);
//! - [`generate`]: the verifier's Solidity for a verifying key (snark-verifier's EVM loader,
//!   SHPLONK, the Keccak transcript of `batch_ecdsa::prover::transcript`);
//! - [`chain`]: an in-memory EVM: deploy, call, gas;
//! - [`measure`]: one circuit and batch size end to end (prove with the EVM transcript,
//!   generate, compile, deploy, verify) and the row the bench and the calldata calculator read;
//! - [`ecrecover`]: the path a proof replaces for a bridge or committee, N `ecrecover`s in a
//!   Solidity loop, measured in the same EVM;
//! - [`wrapper`]: the digest wrapper a rollup calls with its signing payloads (or hashes),
//!   senders and proof: it recomputes the digest-mode public input D and calls the verifier;
//! - [`pinning`]: what a user checks an aggregated proof against: the verifier they pinned
//!   (code hash or source) and the setup they trust (its `[τ]₂` in the verifier's code);
//! - [`aggregated_folder`]: the aggregated proof folder (the batch proof verified inside an
//!   aggregation circuit, whose verifier fits EIP-170), checked on the EVM with the wrapper;
//!   `aggregation_prover` (feature `aggregate`) makes it, with the outer circuit and its
//!   keys (made once, cached) from `outer_keys`; `folder_prover` (feature `aggregate`) is a
//!   user's batch to a checked folder in memory (`prove-aggregated`, the fleet's workers);
//!   [`folder_check`] checks one against what its user trusts (`verify-aggregated`, the
//!   fleet's `fetch`).
//!
//! What the deployed verifier checks: the calldata is the instance column as 32-byte words
//! followed by the proof (`batch_ecdsa::prover::transcript::evm_calldata`); it returns
//! nothing on success and reverts otherwise. It reduces each word mod r and ignores calldata
//! past the proof, so the caller must build the calldata itself from the statement it wants
//! proven (never pass a user's calldata through). A failing check can use all the gas it is
//! given (the precompiles consume the gas forwarded to them on bad input): cap it.

pub mod aggregated_folder;
#[cfg(feature = "aggregate")]
pub mod aggregation_prover;
pub mod chain;
pub mod ecrecover;
pub mod folder_check;
#[cfg(feature = "aggregate")]
pub mod folder_prover;
pub mod generate;
pub mod measure;
#[cfg(feature = "aggregate")]
pub mod outer_keys;
pub mod pinning;
pub mod solc;
pub mod wrapper;

/// EIP-170: the largest runtime code a contract may have on Ethereum mainnet.
pub const EIP170_CODE_LIMIT: usize = 24_576;
