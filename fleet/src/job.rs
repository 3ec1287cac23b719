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
    /// Ethereum: an aggregated proof folder, as `prove-aggregated` writes it
    /// (`verify-aggregated` checks it); the digest statement only (what the wrapper contract
    /// recomputes from the batch). Proved by workers built with the feature `aggregate`.
    Aggregated,
}

impl Route {
    /// The name stored in the jobs table's `route` column and given to `--route`.
    pub fn as_str(self) -> &'static str {
        match self {
            Route::Proof => "proof",
            Route::Aggregated => "aggregated",
        }
    }
}

impl std::str::FromStr for Route {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "proof" => Ok(Route::Proof),
            "aggregated" => Ok(Route::Aggregated),
            other => Err(format!("unknown route {other:?}: proof or aggregated")),
        }
    }
}

/// The outer circuit's k when a job does not name one: where the digest statement's
/// aggregated verifier fits EIP-170.
pub const DEFAULT_OUTER_K: u32 = 22;

/// The outer k a job may ask for: from 22, where the digest statement's aggregated verifier
/// fits EIP-170 (below it the outer circuit needs more columns and its verifier does not
/// deploy: such a job would fail on every worker after its proofs), to 26.
pub const OUTER_K_RANGE: std::ops::RangeInclusive<u32> = 22..=26;

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
    /// The aggregated route's outer k (None: [`DEFAULT_OUTER_K`]); absent for `proof`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outer_k: Option<u32>,
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
    pub route: Route,
    /// The signing payloads, when the batch is transactions (the wrapper hashes them).
    pub payloads: Option<Vec<Vec<u8>>>,
    /// The aggregated route's outer k.
    pub outer_k: u32,
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
        Self::from_file_for(path, chain_id, statement, pad_to, low_s, Route::Proof, None)
    }

    /// [`JobInput::from_file`] for `route` (and, aggregated, its outer k).
    pub fn from_file_for(
        path: &Path,
        chain_id: Option<u64>,
        statement: Statement,
        pad_to: Option<usize>,
        low_s: bool,
        route: Route,
        outer_k: Option<u32>,
    ) -> Result<Self, InputRefused> {
        let input = Self::as_submitted(path, chain_id, statement, pad_to, low_s, route, outer_k)?;
        input.check().map_err(|e| InputRefused {
            reason: format!("{}: {}", path.display(), e.reason),
            invalid: e.invalid,
        })?;
        Ok(input)
    }

    /// The job `path` and these parameters describe, read (a transactions file with
    /// `chain_id`, else a batch file, bounded by the batch file's limit) but not checked yet
    /// ([`JobInput::check`]): what `fetch` compares a stored job with ([`JobInput::same_job_as`]).
    pub fn as_submitted(
        path: &Path,
        chain_id: Option<u64>,
        statement: Statement,
        pad_to: Option<usize>,
        low_s: bool,
        route: Route,
        outer_k: Option<u32>,
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
        Ok(JobInput {
            batch,
            statement: statement.to_string(),
            route,
            pad_to,
            low_s,
            outer_k,
        })
    }

    /// Whether the stored job `stored` is exactly this one, the caller's own description of
    /// the job they submitted (the same file and flags): what `fetch` checks a result against,
    /// never the database's copy alone. Anyone who can write the database could put another
    /// batch and its honest proof in a job's row, or the same batch under another statement,
    /// B, signature policy or route; each difference is named. The outer k is compared as the
    /// job would use it (none given is [`DEFAULT_OUTER_K`]).
    pub fn same_job_as(&self, stored: &str) -> Result<(), String> {
        let stored = JobInput::parse(stored)?;
        let mut differs = Vec::new();
        if self.batch != stored.batch {
            differs.push(
                "not the batch this job holds (the file, its kind or its chain id differs)"
                    .to_string(),
            );
        }
        if self.statement != stored.statement {
            differs.push(format!(
                "the job is for the {} statement, you gave {} (--public)",
                stored.statement, self.statement
            ));
        }
        if self.route != stored.route {
            differs.push(format!(
                "the job is for the route {}, you gave {} (--route)",
                stored.route.as_str(),
                self.route.as_str()
            ));
        }
        let b = |p: Option<usize>| p.map_or("the batch's own size".to_string(), |b| b.to_string());
        if self.pad_to != stored.pad_to {
            differs.push(format!(
                "the job's B is {}, you gave {} (--pad-to)",
                b(stored.pad_to),
                b(self.pad_to)
            ));
        }
        if self.low_s != stored.low_s {
            differs.push(format!(
                "the job {} high s, you gave {} (--low-s)",
                if stored.low_s { "rejects" } else { "accepts" },
                if self.low_s { "--low-s" } else { "no --low-s" }
            ));
        }
        let outer = |i: &JobInput| match i.route {
            Route::Proof => i.outer_k,
            Route::Aggregated => Some(i.outer_k.unwrap_or(DEFAULT_OUTER_K)),
        };
        if outer(self) != outer(&stored) {
            differs.push(format!(
                "the job's outer k is {:?}, you gave {:?} (--outer-k)",
                outer(&stored),
                outer(self)
            ));
        }
        if differs.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "{}: a result is checked against the job you submitted (the same file and \
                 flags), never the database's copy",
                differs.join("; ")
            ))
        }
    }

    /// The job's transactions, decoded and checked under the chain's rules, when it was
    /// submitted as a transactions file (None for a batch file): what `fetch --strip-out`
    /// writes the stripped file of.
    pub fn signed_txs(&self) -> Result<Option<SignedTxs>, InputRefused> {
        match &self.batch {
            BatchText::Batch { .. } => Ok(None),
            BatchText::Txs { text, chain_id } => decode_txs(text, *chain_id).map(Some),
        }
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
        let (batch, entries, payloads) = match &self.batch {
            BatchText::Batch { text } => {
                let batch =
                    BatchFile::parse(text).map_err(|e| InputRefused::malformed(e.to_string()))?;
                (batch, Entries::Signatures, None)
            }
            BatchText::Txs { text, chain_id } => {
                let txs = decode_txs(text, *chain_id)?;
                let payloads = txs
                    .records
                    .iter()
                    .map(|r| r.tx.signing_payload.clone())
                    .collect();
                (txs.batch_file(), Entries::Transactions, Some(payloads))
            }
        };
        let batch_size = self.pad_to.unwrap_or(batch.len());
        if batch.len() > batch_size {
            return Err(InputRefused::malformed(format!(
                "{} signatures do not fit a key for B = {batch_size}",
                batch.len()
            )));
        }
        let inner_k = limits::planned_k(CircuitKind::Batch, statement, batch_size)
            .map_err(|e| InputRefused::malformed(e.to_string()))?;
        let outer_k = match self.route {
            Route::Proof => {
                if self.outer_k.is_some() {
                    return Err(InputRefused::malformed(
                        "outer_k is for the aggregated route",
                    ));
                }
                0
            }
            Route::Aggregated => {
                // The fetch checks the folder's pairs against the batch: the digest statement
                // (a keys folder's public inputs would need their own comparison).
                if statement != Statement::Digest {
                    return Err(InputRefused::malformed(
                        "the aggregated route proves the digest statement (--public digest)",
                    ));
                }
                let k = self.outer_k.unwrap_or(DEFAULT_OUTER_K);
                if !OUTER_K_RANGE.contains(&k) || k < inner_k {
                    return Err(InputRefused::malformed(format!(
                        "outer k = {k}: it must be in {}..={} and at least the batch circuit's \
                         k = {inner_k}",
                        OUTER_K_RANGE.start(),
                        OUTER_K_RANGE.end()
                    )));
                }
                k
            }
        };
        batch
            .check_native(policy)
            .map_err(|e| InputRefused::invalid(e.to_string()))?;
        Ok(Checked {
            batch,
            entries,
            statement,
            batch_size,
            policy,
            route: self.route,
            payloads,
            outer_k,
        })
    }
}

/// A transactions file's text decoded under Ethereum's rules (EIP-2's low s among them) for
/// `chain_id`; each malformed or invalid transaction named.
fn decode_txs(text: &str, chain_id: u64) -> Result<SignedTxs, InputRefused> {
    let raw = parse_txs_text(text).map_err(|errors| {
        InputRefused::malformed(
            errors
                .iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join("; "),
        )
    })?;
    let policy = TxPolicy {
        chain_id: Some(chain_id),
        ..TxPolicy::default()
    };
    SignedTxs::decode(&raw, &policy).map_err(|e| InputRefused {
        reason: e.to_string(),
        invalid: batch_ecdsa::txs::exit_code(&e.0) == 1,
    })
}

/// Checks a stored result against `input`, the job as the caller submitted it
/// ([`JobInput::same_job_as`]), trusting neither the worker nor the database: the proof
/// file's form, its statement and B against the job's, then
/// [`batch_ecdsa::Verifier::verify_batch`] with the caller's batch, under the setup the
/// caller names (keys made or read from `params_dir`). Returns the proof file.
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
    if file.circuit != CircuitKind::Batch {
        return Err(format!(
            "the stored proof is of the {} circuit, not the batch circuit workers prove",
            file.circuit
        ));
    }
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
