//! The measured rows the project publishes in `results/`, one definition each: the `evm`
//! crate's benches and binaries write these types and the calculator reads the same types
//! (never a second struct declaring "the fields it reads"), so a field renamed or retyped on
//! one side fails to compile on the other.
//!
//! | row | written by | read by |
//! | --- | --- | --- |
//! | [`BenchRow`] | `cargo bench -p batch-ecdsa-evm --bench evm_gas` (`results/evm.json`) | [`super::measured::Measured`], `calldata --proof` |
//! | [`EcrecoverBench`] | the same bench (`results/ecrecover.json`) | [`super::bridge`] |
//! | [`WrapperGasRow`] | `evm-wrapper-gas` (`results/wrapper-gas.json`) | [`super::wrapper_gas`] |
//! | [`AggregateRow`] (with [`OuterLayout`], [`OuterShape`]) | `evm-aggregate` (`results/aggregate-*.json`) | the results docs |
//! | [`ProveAggregatedRow`] (with [`OnChainRow`]) | `prove-aggregated --json` (`results/prove-aggregated-b*.json`) | [`super::measured::aggregated_digest_row`] |
//! | [`PhaseRow`] | [`crate::prover::phases::Phases`]: `phases` in [`AggregateRow`] and in `prove-aggregated --json` | the results docs |

use serde::{Deserialize, Serialize};

use super::statement::Statement;

/// Bytes of calldata per public input in the EVM verifier's layout.
pub const PUBLIC_INPUT_WORD_BYTES: u64 = 32;

/// One row of the EVM bench's output (see the module doc).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BenchRow {
    // A missing `Option` field reads as `None` (serde's rule for `Option`).
    pub circuit: String,
    /// `keys` or `digest`; absent: keys (rows written before the digest statement existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub statement: Option<String>,
    pub batch_size: u64,
    pub k: Option<u32>,
    pub transcript: Option<String>,
    pub proof_bytes: u64,
    #[serde(default)]
    pub public_inputs: u64,
    pub verify_gas: Option<u64>,
    pub verify_gas_execution: u64,
    pub deploy_gas: Option<u64>,
    pub runtime_code_bytes: Option<u64>,
    /// The same circuit's proof with the Blake2b transcript (compressed points), for the size
    /// difference (informational).
    pub proof_bytes_blake2b: Option<u64>,
    /// The EIP-7623 floor of the verifying call's calldata (informational).
    pub verify_gas_floor: Option<u64>,
    /// The verifier's creation code (informational).
    pub creation_code_bytes: Option<u64>,
    /// Whether the runtime code fits EIP-170's 24,576 bytes (informational).
    pub fits_eip170: Option<bool>,
    /// Where the row was measured when not by the EVM bench (e.g. the aggregated digest
    /// verifier, [`super::measured::AGGREGATED_DIGEST_PATH`]); absent for bench rows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

impl BenchRow {
    /// Whether the row measures the keys statement (the field absent or `"keys"`).
    pub fn is_keys(&self) -> bool {
        self.statement.as_deref().is_none_or(|s| s == "keys")
    }

    /// Calldata of the verifying call: `proof_bytes + 32 · public_inputs`.
    pub fn calldata_bytes(&self) -> u64 {
        self.proof_bytes + PUBLIC_INPUT_WORD_BYTES * self.public_inputs
    }

    /// The row's statement (checked when the row is read, so keys for a bad field never
    /// happens to a row from [`super::proof_file::proof_input_from_json`]).
    pub fn statement(&self) -> Statement {
        super::statement::of_field(self.statement.as_deref()).unwrap_or(Statement::Keys)
    }

    /// Bytes the proof path posts for the proof under its statement: the verifier's calldata
    /// ([`Self::calldata_bytes`]) for keys, the proof alone for digest (the wrapper makes D).
    pub fn posted_proof_bytes(&self) -> u64 {
        match self.statement() {
            Statement::Keys => self.calldata_bytes(),
            Statement::Digest => self.proof_bytes,
        }
    }
}

/// The `ecrecover` loop the EVM bench measured (`evm/src/ecrecover.rs`,
/// `results/ecrecover.json`): execution gas fitted as `base_execution + N ·
/// per_signature_execution` from two N.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EcrecoverBench {
    /// The two N measured and their execution gas.
    pub n: [u64; 2],
    pub execution_gas: [u64; 2],
    /// Execution gas per signature, the 3,000-gas precompile included.
    pub per_signature_execution: u64,
    /// Of that, what is not the precompile (call, memory, decoding, loop, ordering check).
    pub loop_overhead: u64,
    /// Execution gas of the call whatever N (dispatch, ABI decoding).
    pub base_execution: u64,
    /// Calldata bytes per signature (r, s, v).
    pub calldata_bytes_per_signature: u64,
}

/// The wrapper's cost at one B, measured against the stand-in verifier (`results/wrapper-gas.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WrapperGasRow {
    /// B.
    pub batch_size: u64,
    /// Σ |payloadᵢ| (the signing payloads posted).
    pub payload_bytes: u64,
    /// What the batch adds to `verifyTransactions`' calldata per transaction:
    /// |payload| + 3 + 20, averaged over the batch (ABI words and the proof excluded).
    pub batch_bytes_per_tx: f64,
    /// Bytes of the proof passed through (a stand-in of the batch proof's length).
    pub proof_bytes: u64,
    /// `verifyTransactions`: the whole calldata.
    pub transactions_calldata_bytes: u64,
    /// `verifyTransactions`: the wrapper's own execution gas (the transaction's execution less
    /// the stand-in verifier's): parsing, hashing, building D and the verifier's calldata, the
    /// call itself (a cold account).
    pub transactions_wrapper_gas: u64,
    /// `verifyTransactions`: the transaction's intrinsic gas (21,000 and the calldata).
    pub transactions_intrinsic_gas: u64,
    /// `verifyHashes`: the whole calldata.
    pub hashes_calldata_bytes: u64,
    /// `verifyHashes`: the wrapper's own execution gas.
    pub hashes_wrapper_gas: u64,
    /// `verifyHashes`: the transaction's intrinsic gas.
    pub hashes_intrinsic_gas: u64,
    /// The stand-in verifier's execution, called alone with D_hi ‖ D_lo ‖ proof (subtracted).
    pub mock_verifier_gas: u64,
    /// The wrapper's runtime code.
    pub runtime_code_bytes: u64,
    /// Gas of the wrapper's deployment.
    pub deploy_gas: u64,
    /// `verifyHashes` with one pair posted on a wrapper for this B, which appends B − 1
    /// filler pairs: the wrapper's own gas (absent in rows measured before the wrapper took
    /// n ≤ B). With the B = 1 row, what each filler slot costs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hashes_one_of_b_wrapper_gas: Option<u64>,
}

/// The outer (aggregation) circuit's shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OuterShape {
    pub k: u32,
    pub lookup_bits: usize,
}

/// The layout of the outer circuit for a shape: cell counts and the columns they need.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OuterLayout {
    pub shape: OuterShape,
    /// Advice cells of the basic gate.
    pub advice_cells: usize,
    /// Advice cells copied into lookup columns (range checks).
    pub lookup_cells: usize,
    /// Distinct constants (fixed cells).
    pub fixed_cells: usize,
    pub num_advice: usize,
    pub num_lookup_advice: usize,
    pub num_fixed: usize,
    /// Public inputs: the accumulator limbs and the inner proof's.
    pub num_instance: usize,
}

/// A `prove-aggregated --json` line: a user's batch proven for Ethereum, with the check a
/// chain makes that the command ran before writing the folder (other fields are ignored).
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct ProveAggregatedRow {
    /// The inner proof's statement.
    pub statement: String,
    /// B, and the real signatures (n ≤ B).
    pub batch_size: u64,
    pub signatures: u64,
    pub inner_k: u32,
    pub outer: OuterLayout,
    pub outer_proof_bytes: u64,
    pub on_chain: OnChainRow,
}

/// One phase of a proving job: its wall time and the most memory the process held during it
/// ([`crate::prover::phases`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PhaseRow {
    /// What the phase does (`inner keys`, `inner proof`, `outer keys`, `outer proof`, …).
    pub name: String,
    /// Its wall time.
    pub seconds: f64,
    /// The process's peak resident memory during this phase alone, MiB; `None` where the
    /// peak could not be reset at its start (then only the process's overall peak is known).
    pub peak_rss_mib: Option<u64>,
}

/// The chain check of a `prove-aggregated` or `verify-aggregated` run (revm, EIP-170
/// enforced): the verifier called directly, then (digest) the wrapper with the batch.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct OnChainRow {
    pub verifier_runtime_code_bytes: u64,
    pub verifier_deploy_gas: u64,
    /// `accumulator ‖ inner public inputs ‖ outer proof`.
    pub verifier_calldata_bytes: u64,
    pub verifier_total_gas: u64,
    pub verifier_execution_gas: u64,
    pub wrapper_call: Option<String>,
    pub wrapper_calldata_bytes: Option<u64>,
    pub wrapper_total_gas: Option<u64>,
    /// None when the wrapper's call paid the EIP-7623 floor (`wrapper_on_floor`).
    pub wrapper_execution_gas: Option<u64>,
    #[serde(default)]
    pub wrapper_on_floor: Option<bool>,
}

/// The measured figures of one aggregation (what `evm-aggregate` prints and writes).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AggregateRow {
    pub circuit: String,
    /// The inner proof's statement (`keys`: 3 public inputs per signature; `digest`: 2).
    pub statement: String,
    pub batch_size: u64,
    pub inner_k: u32,
    pub inner_public_inputs: u64,
    pub inner_proof_bytes: u64,
    /// The inner keygen time, or the time to read the cached keys when `inner_keys_cached`.
    pub inner_keygen_s: f64,
    /// Whether the inner keys were read from the cache (absent in rows from before the cache).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inner_keys_cached: Option<bool>,
    pub inner_prove_s: f64,
    pub outer: OuterLayout,
    /// The outer keygen time (with its layout), or the time to read the cached keys when
    /// `outer_keys_cached`.
    pub outer_keygen_s: f64,
    /// Whether the outer keys were read from the cache (absent in rows from before the cache).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outer_keys_cached: Option<bool>,
    pub outer_prove_s: f64,
    pub outer_proof_bytes: u64,
    pub outer_public_inputs: u64,
    pub verify_gas: u64,
    pub verify_gas_execution: u64,
    pub verify_gas_floor: u64,
    pub deploy_gas: u64,
    pub runtime_code_bytes: u64,
    pub creation_code_bytes: u64,
    pub fits_eip170: bool,
    /// The process's peak resident memory over the run, MiB
    /// ([`crate::prover::phases::process_peak_mib`]).
    pub peak_rss_mib: Option<u64>,
    /// Each phase's time and own peak memory (absent in rows from before phases were measured).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub phases: Vec<PhaseRow>,
}
