//! What a job holds and how it is proved and checked.
//!
//! A job's input is the batch exactly as submitted (a batch file's JSON, or a transactions
//! file's text with its chain id), the statement, the route and the key's B. It is stored as
//! strict JSON ([`JobInput::to_text`], read back by [`JobInput::parse`]: unknown fields
//! refused) and checked again by the worker: the database is not trusted to hold what
//! `submit` checked.

use std::path::Path;

use batch_ecdsa::txs::file::parse_txs_text;
use batch_ecdsa::{BatchFile, CircuitKind, Entries, Policy, SignedTxs, Statement, TxPolicy};
use batch_ecdsa_circuits::limits;
use serde::{Deserialize, Serialize};

/// What a job's proof is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Route {
    /// A batch proof file, as `prove` writes it (`verify` checks it).
    Proof,
}

/// How the batch was submitted.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "format", rename_all = "lowercase", deny_unknown_fields)]
pub enum BatchText {
    /// A batch file (JSON).
    Batch { text: String },
    /// A transactions file: raw signed transactions, one hex a line.
    Txs { text: String, chain_id: u64 },
}

/// A job: the batch as submitted and what to prove of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JobInput {
    pub batch: BatchText,
    pub statement: String,
    pub route: Route,
    /// The key's B: the batch is padded to it with the canonical filler (`None`: its own
    /// size).
    pub pad_to: Option<usize>,
    /// Reject high s (EIP-2).
    pub low_s: bool,
}

/// Why a job did not produce a result.
#[derive(Debug, thiserror::Error)]
pub enum JobOutcome {
    /// The job's own fault (malformed or invalid input): fail it, no retry.
    #[error("{0}")]
    Bad(String),
    /// The worker's trouble (its setup or keys): give the job back uncounted; the worker
    /// stops (its operator must fix it).
    #[error("{0}")]
    Worker(String),
    /// Neither's alone (this machine has too little memory for the batch): give the job back
    /// counted, so that a larger worker may take it and the job fails after its tries if none
    /// can.
    #[error("{0}")]
    Retry(String),
}

/// Why a job's input cannot be proved: `invalid` when it is well formed but a signature or
/// transaction is invalid (exit 1), else malformed (exit 2).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{reason}")]
pub struct InputRefused {
    pub reason: String,
    pub invalid: bool,
}

impl InputRefused {
    fn malformed(reason: impl Into<String>) -> Self {
        InputRefused {
            reason: reason.into(),
            invalid: false,
        }
    }
    fn invalid(reason: impl Into<String>) -> Self {
        InputRefused {
            reason: reason.into(),
            invalid: true,
        }
    }
    /// The exit code a command gives for it.
    pub fn exit_code(&self) -> u8 {
        if self.invalid {
            1
        } else {
            2
        }
    }
}

/// A batch ready to prove: the batch file, how its entries are compared, the key's B.
pub struct Checked {
    pub batch: BatchFile,
    pub entries: Entries,
    pub statement: Statement,
    pub batch_size: usize,
    pub policy: Policy,
}

impl JobInput {
    /// Reads `path` as a batch file or (with `chain_id`) a transactions file, bounded by the
    /// batch file's limit.
    pub fn from_file(
        path: &Path,
        chain_id: Option<u64>,
        statement: Statement,
        pad_to: Option<usize>,
        low_s: bool,
    ) -> Result<Self, InputRefused> {
        let text = batch_ecdsa::fsutil::read_text_bounded(
            path,
            batch_ecdsa::batch_file::MAX_BATCH_FILE_BYTES,
        )
        .map_err(|e| InputRefused::malformed(format!("{}: {e}", path.display())))?;
        let batch = match chain_id {
            None => BatchText::Batch { text },
            Some(chain_id) => BatchText::Txs { text, chain_id },
        };
        let input = JobInput {
            batch,
            statement: statement.to_string(),
            route: Route::Proof,
            pad_to,
            low_s,
        };
        input.check().map_err(|e| InputRefused {
            reason: format!("{}: {}", path.display(), e.reason),
            invalid: e.invalid,
        })?;
        Ok(input)
    }

    /// The stored form.
    pub fn to_text(&self) -> String {
        serde_json::to_string(self).expect("a job input serialises")
    }

    /// Reads the stored form strictly.
    pub fn parse(text: &str) -> Result<Self, String> {
        batch_ecdsa::json::parse(text).map_err(|e| format!("the job's input: {e}"))
    }

    /// Checks the input (form, every signature or transaction, the size against the batch
    /// circuit's limits) and returns the batch to prove; every bad entry named.
    pub fn check(&self) -> Result<Checked, InputRefused> {
        let statement: Statement = self
            .statement
            .parse()
            .map_err(|e| InputRefused::malformed(format!("statement: {e}")))?;
        let policy = Policy { low_s: self.low_s };
        let (batch, entries) = match &self.batch {
            BatchText::Batch { text } => {
                let batch =
                    BatchFile::parse(text).map_err(|e| InputRefused::malformed(e.to_string()))?;
                (batch, Entries::Signatures)
            }
            BatchText::Txs { text, chain_id } => {
                let raw = parse_txs_text(text).map_err(|errors| {
                    InputRefused::malformed(
                        errors
                            .iter()
                            .map(|e| e.to_string())
                            .collect::<Vec<_>>()
                            .join("; "),
                    )
                })?;
                // Ethereum's rules (EIP-2's low s among them) for the chain submitted.
                let policy = TxPolicy {
                    chain_id: Some(*chain_id),
                    ..TxPolicy::default()
                };
                let txs = SignedTxs::decode(&raw, &policy).map_err(|e| InputRefused {
                    reason: e.to_string(),
                    invalid: batch_ecdsa::txs::exit_code(&e.0) == 1,
                })?;
                (txs.batch_file(), Entries::Transactions)
            }
        };
        let batch_size = self.pad_to.unwrap_or(batch.len());
        if batch.len() > batch_size {
            return Err(InputRefused::malformed(format!(
                "{} signatures do not fit a key for B = {batch_size}",
                batch.len()
            )));
        }
        limits::planned_k(CircuitKind::Batch, statement, batch_size)
            .map_err(|e| InputRefused::malformed(e.to_string()))?;
        batch
            .check_native(policy)
            .map_err(|e| InputRefused::invalid(e.to_string()))?;
        Ok(Checked {
            batch,
            entries,
            statement,
            batch_size,
            policy,
        })
    }
}

/// Checks a stored result against the job's own input, trusting neither the worker nor the
/// database: the proof file's form, its statement and B against the job's, then
/// [`batch_ecdsa::Verifier::verify_batch`] with the batch that was submitted, under the setup
/// the caller names (keys made or read from `params_dir`). Returns the proof file.
pub fn verify_result(
    input: &str,
    result: &[u8],
    setup: &batch_ecdsa::SetupSource,
    params_dir: &Path,
) -> Result<batch_ecdsa::prover::proof::ProofFile, String> {
    let checked = JobInput::parse(input)?.check().map_err(|e| e.reason)?;
    let text = std::str::from_utf8(result).map_err(|_| "the stored proof is not UTF-8 text")?;
    let file = batch_ecdsa::prover::proof::ProofFile::parse(text)
        .map_err(|e| format!("the stored proof: {e}"))?;
    if file.statement != checked.statement || file.batch_size != checked.batch_size {
        return Err(format!(
            "the stored proof is for the {} statement at B = {}, the job asked for {} at B = {}",
            file.statement, file.batch_size, checked.statement, checked.batch_size
        ));
    }
    let verifier =
        batch_ecdsa::Verifier::for_proof_file_with(&file, params_dir, setup, &batch_ecdsa::Silent)
            .map_err(|e| format!("the stored proof: {e}"))?;
    verifier
        .verify_batch(&file, &checked.batch, checked.policy, checked.entries)
        .map_err(|e| format!("the stored proof: {e}"))?;
    Ok(file)
}
