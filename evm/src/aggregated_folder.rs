//! The aggregated proof folder: what `prove-aggregated` (feature `aggregate`) writes for a
//! user's batch and `verify-aggregated` checks on an EVM, the route by which a batch proof is
//! verified on Ethereum within EIP-170.
//!
//! The batch proof (inner) is verified inside snark-verifier-sdk's aggregation circuit
//! (outer, `crate::aggregation_prover`, feature `aggregate`); the outer proof's verifier is small and generic in the
//! inner circuit. The outer public inputs are the KZG accumulator ([`ACCUMULATOR_WORDS`]
//! words), then the inner proof's: D_hi, D_lo under the digest statement, 3 per signature
//! under keys.
//!
//! ## The folder
//! - [`PROOF_FILE`] ([`AggregatedProofFile`]): statement, B, both k, the (signing hash,
//!   address) pairs and D (digest), the inner public inputs, the accumulator words, the outer
//!   proof.
//! - [`VERIFIER_FILE`]: the outer verifier's Solidity, the contract to deploy. It is generated
//!   from the outer verifying key, which embeds the inner one: one verifier per circuit and B.
//! - [`VERIFIER_CALLDATA_FILE`]: the verifier's calldata (accumulator ‖ inner public inputs ‖
//!   outer proof).
//! - [`WRAPPER_CALLDATA_FILE`] (digest): the wrapper's call with the batch
//!   (`verifyTransactions` with the signing payloads when the batch was transactions,
//!   `verifyHashes` otherwise) and `accumulator ‖ outer proof` as its `proof`.
//!
//! ## Any n ≤ B (digest)
//! A folder may prove n ≤ B signatures on a key made for B (`prove-aggregated --pad-to B`):
//! its `records` are the n real (signing hash, address) pairs, `batch_size` is B, and D is the
//! digest of the records followed by B − n canonical filler pairs (`batch_ecdsa::native::filler`,
//! [`padded_pairs`]), as the prover padded the batch and as the wrapper pads what a rollup posts.
//! A folder of B records is the case n = B.
//!
//! ## What [`verify_on_chain`] checks
//! The file's own consistency (D is the pairs' digest, the inner public inputs are D's
//! words), then in revm with EIP-170 enforced: the verifier deploys, accepts the calldata
//! built **from the file's statement** (never read from the calldata file), and under the
//! digest statement the wrapper ([`crate::wrapper`], deployed with the accumulator as prefix
//! words) in front of it accepts the batch and returns D. The caller compares the pairs with
//! the batch it holds ([`check_pairs`]).
//!
//! ## What [`check_trusted`] checks first
//! The folder is checked against what the user trusts, never against itself
//! ([`crate::pinning`]): the verifier is the one the user pinned (its source, or the folder's
//! source whose code hash equals the deployed contract's), its pairing check uses the `[τ]₂`
//! of the setup the user trusts, its header says the folder's statement, B, both k and setup,
//! and a folder under the fixed-seed development setup is refused unless the user asked for it.

use std::path::Path;

use batch_ecdsa::hexfmt::{decode_hex, decode_hex_fixed, encode_hex};
use batch_ecdsa::native::digest::{batch_digest, digest_words};
use batch_ecdsa::native::filler::padded_pairs;
use batch_ecdsa::native::hash::keccak256;
use batch_ecdsa::prover::proof::DigestPair;
use batch_ecdsa::prover::srs::{SetupIdentity, SetupKind};
use halo2_proofs::halo2curves::bn256::G2Affine;
use halo2_proofs::halo2curves::serde::SerdeObject;

use crate::pinning::{code_embeds_tau, code_hash, Header};
use batch_ecdsa_circuits::ecdsa::Statement;
use serde::{Deserialize, Serialize};

use crate::chain::{CallGas, CallOutcome};
use crate::solc::{Compiled, Solc};
use crate::wrapper::{
    aggregated_wrapper_config, verify_hashes_calldata, verify_transactions_calldata, wrapper_proof,
    ProofLayout, WrapperChain, WrapperCode, WrapperRevert, AGGREGATED_PREFIX_WORDS,
};
use crate::EIP170_CODE_LIMIT;

/// The folder's proof file.
pub const PROOF_FILE: &str = "aggregated.json";
/// The outer verifier's Solidity.
pub const VERIFIER_FILE: &str = "AggregationVerifier.sol";
/// The verifier's calldata, hex.
pub const VERIFIER_CALLDATA_FILE: &str = "verifier-calldata.hex";
/// The wrapper's calldata, hex (digest statement).
pub const WRAPPER_CALLDATA_FILE: &str = "wrapper-calldata.hex";
/// [`AggregatedProofFile::format`]. v2 since the setup identity (`setup`); a v1 file was made
/// under the fixed-seed development setup (the only one the route then had) and is refused.
pub const FORMAT: &str = "batch-ecdsa aggregated proof v2";
/// Largest `aggregated.json` read, in bytes.
pub const MAX_AGGREGATED_FILE_BYTES: u64 = 4 << 20;
/// Largest verifier source read, in bytes (the generated ones are about 100 KB).
pub const MAX_VERIFIER_SOURCE_BYTES: u64 = 2 << 20;

/// Longest outer proof decoded, in bytes: the outer proof is a few KB (3,328 bytes at outer
/// k = 22); a longer one is refused before any EVM call (its calldata alone would cost more
/// gas than a block holds).
pub const MAX_AGGREGATED_PROOF_BYTES: usize = 64 << 10;
/// The format before the setup identity.
pub const FORMAT_V1: &str = "batch-ecdsa aggregated proof v1";
/// Words of the KZG accumulator before the inner public inputs.
pub const ACCUMULATOR_WORDS: usize = AGGREGATED_PREFIX_WORDS;

/// One signature of the digest statement: its raw signing hash and its signer's address.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a record: an object with msg_hash and address"
)]
pub struct PairRecord {
    pub msg_hash: String,
    pub address: String,
}

/// The folder's proof file (module doc).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "an aggregated proof file: a JSON object"
)]
pub struct AggregatedProofFile {
    /// [`FORMAT`].
    pub format: String,
    /// `digest` or `keys`: the inner proof's statement.
    pub statement: String,
    /// B.
    pub batch_size: usize,
    /// log2 rows of the inner (batch) and outer (aggregation) circuits.
    pub inner_k: u32,
    pub outer_k: u32,
    /// The setup both circuits were proven under (one τ), identified at the outer k: a claim,
    /// checked against the setup the user trusts (`verify-aggregated`).
    pub setup: SetupIdentity,
    /// Digest: per real signature (raw signing hash, address), in order: n of them,
    /// 1 ≤ n ≤ B; the B − n slots after them are the canonical filler.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub records: Vec<PairRecord>,
    /// Digest: D = keccak256(h₀ ‖ a₀ ‖ …) over the records and the filler slots, hex.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
    /// The inner proof's public inputs, 32-byte words hex.
    pub inner_public_inputs: Vec<String>,
    /// The accumulator, [`ACCUMULATOR_WORDS`] 32-byte words hex.
    pub accumulator: Vec<String>,
    /// The outer proof, hex.
    pub proof: String,
}

/// The file's contents, decoded and checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded {
    pub statement: Statement,
    /// B, the batch size the proof was made for.
    pub batch_size: usize,
    /// Digest: the n real pairs, in order (empty under keys); the B − n slots after them are
    /// the filler, which the wrapper appends itself.
    pub pairs: Vec<DigestPair>,
    /// Digest: D.
    pub digest: Option<[u8; 32]>,
    pub inner_public_inputs: Vec<[u8; 32]>,
    pub accumulator: Vec<[u8; 32]>,
    pub proof: Vec<u8>,
}

impl Decoded {
    /// The verifier's calldata: accumulator ‖ inner public inputs ‖ outer proof.
    pub fn verifier_calldata(&self) -> Vec<u8> {
        let mut out = self.accumulator.concat();
        out.extend(self.inner_public_inputs.concat());
        out.extend_from_slice(&self.proof);
        out
    }

    /// The wrapper's `proof` argument: accumulator ‖ outer proof.
    pub fn wrapper_proof(&self) -> Vec<u8> {
        wrapper_proof(&self.accumulator, &self.proof)
    }
}

/// Why an aggregated proof was not accepted. [`AggregatedError::exit_code`]: 1 when the proof
/// or its statement is wrong, 2 for bad input or the environment.
#[derive(Debug, thiserror::Error)]
pub enum AggregatedError {
    #[error("{0}")]
    Invalid(String),
    #[error("{0}")]
    BadInput(String),
}

impl AggregatedError {
    pub fn exit_code(&self) -> u8 {
        match self {
            AggregatedError::Invalid(_) => 1,
            AggregatedError::BadInput(_) => 2,
        }
    }
}

/// Bad input, the message clipped (a field's value may be megabytes long).
fn bad(what: impl Into<String>) -> AggregatedError {
    AggregatedError::BadInput(batch_ecdsa::json::clip(&what.into()))
}

fn word(text: &str, what: &str) -> Result<[u8; 32], AggregatedError> {
    decode_hex_fixed::<32>(text).map_err(|e| bad(format!("{what}: {e}")))
}

impl AggregatedProofFile {
    /// The file for `statement`, its n ≤ B real pairs (digest; D is theirs padded to B with
    /// the filler), inner public inputs, accumulator and outer proof.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        statement: Statement,
        batch_size: usize,
        inner_k: u32,
        outer_k: u32,
        setup: &SetupIdentity,
        pairs: &[DigestPair],
        inner_public_inputs: &[[u8; 32]],
        accumulator: &[[u8; 32]],
        proof: &[u8],
    ) -> Self {
        let digest = (statement == Statement::Digest).then(|| {
            // More pairs than B is refused by `decode`; D is then over the pairs as given.
            let padded = padded_pairs(pairs, batch_size).unwrap_or_else(|| pairs.to_vec());
            encode_hex(&batch_digest(&padded))
        });
        AggregatedProofFile {
            format: FORMAT.into(),
            statement: statement.to_string(),
            batch_size,
            inner_k,
            outer_k,
            setup: setup.clone(),
            records: pairs
                .iter()
                .map(|(h, a)| PairRecord {
                    msg_hash: encode_hex(h),
                    address: encode_hex(a),
                })
                .collect(),
            digest,
            inner_public_inputs: inner_public_inputs.iter().map(|w| encode_hex(w)).collect(),
            accumulator: accumulator.iter().map(|w| encode_hex(w)).collect(),
            proof: encode_hex(proof),
        }
    }

    /// Reads the proof file of `dir`.
    pub fn load(dir: &Path) -> Result<Self, AggregatedError> {
        let path = dir.join(PROOF_FILE);
        let text = batch_ecdsa::fsutil::read_text_bounded(&path, MAX_AGGREGATED_FILE_BYTES)
            .map_err(|e| bad(format!("cannot read {}: {e}", path.display())))?;
        let value: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| bad(format!("{}: {e}", path.display())))?;
        if value.get("format").and_then(|f| f.as_str()) == Some(FORMAT_V1) {
            return Err(AggregatedError::Invalid(format!(
                "{}: format v1 names no setup: such folders were made under the fixed-seed \
                 development setup, whose τ is public (anyone can forge them); prove again",
                path.display()
            )));
        }
        // From the text again: the derived reader refuses a field given twice.
        batch_ecdsa::json::parse(&text).map_err(|e| bad(format!("{}: {e}", path.display())))
    }

    /// Decodes and checks the file: format, statement, counts, and under the digest
    /// statement D = the pairs' digest and inner public inputs = D_hi, D_lo (a mismatch is
    /// [`AggregatedError::Invalid`]: the file states something its proof does not).
    pub fn decode(&self) -> Result<Decoded, AggregatedError> {
        if self.setup.k != self.outer_k {
            return Err(bad(format!(
                "setup.k = {} but outer_k = {}",
                self.setup.k, self.outer_k
            )));
        }
        if self.format != FORMAT {
            return Err(bad(format!(
                "format is {:?}, expected {FORMAT:?}",
                self.format
            )));
        }
        let statement: Statement = self.statement.parse().map_err(bad)?;
        if self.batch_size == 0 {
            return Err(bad("batch_size is 0: an empty batch proves nothing"));
        }
        // Before anything is sized by B (the filler slots of D): the largest batch the batch
        // circuit proves under this statement.
        let max = batch_ecdsa_circuits::limits::max_batch(
            batch_ecdsa_circuits::plan::CircuitKind::Batch,
            statement,
        );
        if self.batch_size > max {
            return Err(bad(format!(
                "batch_size {} is above {max}, the largest batch the batch circuit proves \
                 ({statement} statement)",
                self.batch_size
            )));
        }
        let words = |v: &[String], what: &str| -> Result<Vec<[u8; 32]>, AggregatedError> {
            v.iter()
                .enumerate()
                .map(|(i, w)| word(w, &format!("{what} {i}")))
                .collect()
        };
        let inner_public_inputs = words(&self.inner_public_inputs, "inner public input")?;
        let accumulator = words(&self.accumulator, "accumulator word")?;
        if accumulator.len() != ACCUMULATOR_WORDS {
            return Err(bad(format!(
                "{} accumulator words, expected {ACCUMULATOR_WORDS}",
                accumulator.len()
            )));
        }
        let proof = decode_hex(&self.proof).map_err(|e| bad(format!("proof: {e}")))?;
        if proof.is_empty() {
            return Err(bad("the proof is empty"));
        }
        if proof.len() > MAX_AGGREGATED_PROOF_BYTES {
            return Err(bad(format!(
                "proof too long: {} bytes, an aggregation proof is at most \
                 {MAX_AGGREGATED_PROOF_BYTES} (one outer proof is 3,328 bytes at k = 22)",
                proof.len()
            )));
        }
        let (pairs, digest) = match statement {
            Statement::Keys => {
                if !self.records.is_empty() || self.digest.is_some() {
                    return Err(bad("a keys file has no records or digest"));
                }
                if inner_public_inputs.len() != 3 * self.batch_size {
                    return Err(bad(format!(
                        "{} inner public inputs, expected 3 per signature ({})",
                        inner_public_inputs.len(),
                        3 * self.batch_size
                    )));
                }
                (Vec::new(), None)
            }
            Statement::Digest => {
                if self.records.is_empty() || self.records.len() > self.batch_size {
                    return Err(bad(format!(
                        "{} records for batch_size {}: 1 to B real pairs (the slots after \
                         them are the canonical filler)",
                        self.records.len(),
                        self.batch_size
                    )));
                }
                let pairs = self
                    .records
                    .iter()
                    .enumerate()
                    .map(|(i, r)| {
                        Ok((
                            word(&r.msg_hash, &format!("signature {i}: msg_hash"))?,
                            decode_hex_fixed::<20>(&r.address)
                                .map_err(|e| bad(format!("signature {i}: address: {e}")))?,
                        ))
                    })
                    .collect::<Result<Vec<DigestPair>, AggregatedError>>()?;
                let stated = word(
                    self.digest
                        .as_deref()
                        .ok_or_else(|| bad("a digest file needs its digest"))?,
                    "digest",
                )?;
                let padded = padded_pairs(&pairs, self.batch_size).expect("n ≤ B, checked above");
                let d = batch_digest(&padded);
                if stated != d {
                    return Err(AggregatedError::Invalid(format!(
                        "the file's digest {} is not its pairs' D = {} (padded to B with the \
                         filler)",
                        encode_hex(&stated),
                        encode_hex(&d)
                    )));
                }
                if inner_public_inputs != digest_words(&d) {
                    return Err(AggregatedError::Invalid(
                        "the inner public inputs are not D_hi, D_lo of the pairs".into(),
                    ));
                }
                (pairs, Some(d))
            }
        };
        Ok(Decoded {
            statement,
            batch_size: self.batch_size,
            pairs,
            digest,
            inner_public_inputs,
            accumulator,
            proof,
        })
    }
}

/// What the user trusts, for [`check_trusted`].
pub struct Trusted<'a> {
    /// The verifier's source: the user's own (`--verifier`), or the folder's when pinned by
    /// `code_hash`.
    pub source: &'a str,
    /// `source` compiled.
    pub compiled: &'a Compiled,
    /// The deployed contract's code hash (`--verifier-code-hash`), when the user gave it.
    pub code_hash: Option<[u8; 32]>,
    /// `[τ]₂` of the setup the user trusts, and its kind.
    pub s_g2: G2Affine,
    pub kind: SetupKind,
}

/// Refuses a folder that names the fixed-seed development setup unless the user trusts that
/// setup (`--insecure-dev-setup`): a cheap first answer from the folder's claim; the τ it
/// names is checked against the trusted one in [`check_trusted`].
pub fn check_folder_setup_kind(
    file: &AggregatedProofFile,
    trusted: SetupKind,
) -> Result<(), AggregatedError> {
    if file.setup.kind.is_insecure() && !trusted.is_insecure() {
        return Err(AggregatedError::Invalid(
            "refused: the folder was proven under the INSECURE fixed-seed development setup, \
             whose τ is public, so anyone can forge an aggregated proof of anything under it \
             (an audit forged one for two unsigned 1,000-ETH transfers); pass \
             --insecure-dev-setup to check it anyway (test fixtures only)"
                .into(),
        ));
    }
    Ok(())
}

/// Checks the folder's file against what the user trusts (module doc). Every refusal is
/// [`AggregatedError::Invalid`] with the reason.
pub fn check_trusted(file: &AggregatedProofFile, t: &Trusted) -> Result<(), AggregatedError> {
    let invalid = |m: String| Err(AggregatedError::Invalid(m));
    check_folder_setup_kind(file, t.kind)?;
    let trusted_tau = encode_hex(&keccak256(&t.s_g2.to_raw_bytes()));
    if trusted_tau == batch_ecdsa::prover::srs::insecure_dev_tau_hash() && !t.kind.is_insecure() {
        // The fixed-seed τ is recognised by its value, whatever file it came in.
        return invalid(
            "refused: the parameters you trust are the INSECURE fixed-seed development setup \
             (its τ is public: anyone can forge proofs under it); pass --insecure-dev-setup to \
             check a test fixture"
                .into(),
        );
    }
    if file.setup.tau_g2 != trusted_tau {
        return invalid(format!(
            "refused: the folder names the {}, but the setup you trust has keccak256([τ]₂) = {trusted_tau}",
            file.setup.describe()
        ));
    }
    if let Some(want) = t.code_hash {
        let got = code_hash(&t.compiled.runtime);
        if got != want {
            return invalid(format!(
                "refused: the verifier source is not the deployed contract: its runtime code \
                 hash is {}, the contract's {}",
                encode_hex(&got),
                encode_hex(&want)
            ));
        }
    }
    if !code_embeds_tau(&t.compiled.runtime, &t.s_g2) {
        return invalid(
            "refused: the verifier's pairing check does not use the [τ]₂ of the setup you trust \
             (another setup's verifier, or not a batch-ecdsa verifier)"
                .into(),
        );
    }
    let header = Header::parse(t.source).map_err(AggregatedError::Invalid)?;
    let Some(h) = header else {
        if t.kind.is_insecure() {
            return Ok(());
        }
        return invalid(
            "refused: the verifier has no batch-ecdsa header (generated before setups were \
             recorded), so nothing ties it to a statement, B and k; make it again with \
             prove-aggregated"
                .into(),
        );
    };
    let mut differ = Vec::new();
    let mut cmp = |what: &str, ours: String, theirs: String| {
        if ours != theirs {
            differ.push(format!(
                "{what}: the folder says {ours}, the verifier {theirs}"
            ));
        }
    };
    cmp("statement", file.statement.clone(), h.statement);
    cmp("B", file.batch_size.to_string(), h.batch_size.to_string());
    cmp("inner k", file.inner_k.to_string(), h.inner_k.to_string());
    cmp("outer k", file.outer_k.to_string(), h.outer_k.to_string());
    cmp("setup", file.setup.kind.to_string(), h.setup_kind);
    cmp("tau_g2", file.setup.tau_g2.clone(), h.tau_g2);
    cmp("g1_powers", file.setup.g1_powers.clone(), h.g1_powers);
    if differ.is_empty() {
        Ok(())
    } else {
        invalid(format!(
            "refused: the folder is not what the pinned verifier verifies: {}",
            differ.join("; ")
        ))
    }
}

/// Compares the file's pairs with the batch's, naming every signature (or transaction) that
/// differs and a count mismatch ([`AggregatedError::Invalid`]).
pub fn check_pairs(
    file: &[DigestPair],
    batch: &[DigestPair],
    item: &str,
) -> Result<(), AggregatedError> {
    if file.len() != batch.len() {
        return Err(AggregatedError::Invalid(format!(
            "the proof is of {} signatures, the batch has {}",
            file.len(),
            batch.len()
        )));
    }
    let differ: Vec<String> = file
        .iter()
        .zip(batch)
        .enumerate()
        .filter(|(_, (f, b))| f != b)
        .map(|(i, (f, b))| {
            let mut parts = Vec::new();
            if f.0 != b.0 {
                parts.push(format!(
                    "signing hash {} here, {} in the proof",
                    encode_hex(&b.0),
                    encode_hex(&f.0)
                ));
            }
            if f.1 != b.1 {
                parts.push(format!(
                    "address {} here, {} in the proof",
                    encode_hex(&b.1),
                    encode_hex(&f.1)
                ));
            }
            format!("{item} {i} differs from the proof: {}", parts.join("; "))
        })
        .collect();
    if differ.is_empty() {
        Ok(())
    } else {
        Err(AggregatedError::Invalid(differ.join("; ")))
    }
}

/// What the verifier (and, under the digest statement, the wrapper) did on the EVM.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OnChain {
    pub verifier_runtime_code_bytes: usize,
    pub verifier_deploy_gas: u64,
    /// The verifier called with [`Decoded::verifier_calldata`].
    pub verifier_calldata_bytes: usize,
    pub verifier_total_gas: u64,
    /// The verifier's execution (its call's gas less 21,000 and the calldata; the verifier's
    /// call is never on the EIP-7623 floor, checked).
    pub verifier_execution_gas: u64,
    /// Digest: the wrapper's call (`verifyTransactions` with payloads, else `verifyHashes`).
    pub wrapper_call: Option<String>,
    pub wrapper_calldata_bytes: Option<usize>,
    pub wrapper_total_gas: Option<u64>,
    /// The wrapper's execution, when its call paid calldata plus execution; None when it paid
    /// the EIP-7623 floor of its calldata (`wrapper_on_floor`: the execution is then hidden
    /// under the floor, and `wrapper_total_gas` is the floor).
    pub wrapper_execution_gas: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wrapper_on_floor: Option<bool>,
}

impl OnChain {
    /// What it did, in words: the verifier's line, and the wrapper's under the digest statement.
    pub fn lines(&self) -> Vec<String> {
        let mut out = vec![format!(
            "verifier: {} bytes of code (EIP-170 enforced), {} gas called directly ({} execution)",
            self.verifier_runtime_code_bytes, self.verifier_total_gas, self.verifier_execution_gas
        )];
        if let (Some(call), Some(total)) = (&self.wrapper_call, self.wrapper_total_gas) {
            out.push(match self.wrapper_execution_gas {
                Some(exec) => {
                    format!("wrapper: {call} accepted, returned D; {total} gas ({exec} execution)")
                }
                None => format!(
                    "wrapper: {call} accepted, returned D; {total} gas, the EIP-7623 floor of \
                     its calldata (the execution is below it)"
                ),
            });
        }
        out
    }
}

fn gas_of(outcome: &CallOutcome, what: &str) -> Result<CallGas, AggregatedError> {
    match outcome {
        CallOutcome::Accepted(g) => Ok(*g),
        CallOutcome::Rejected { reason, .. } => Err(AggregatedError::Invalid(format!(
            "{what}: the verifier rejects the proof ({reason})"
        ))),
    }
}

/// The wrapper's calldata for the decoded file: `verifyTransactions(payloads, senders,
/// accumulator ‖ proof)` with `payloads` (each the signing payload whose keccak256 is the
/// pair's hash, checked), else `verifyHashes(hashes, senders, accumulator ‖ proof)`.
pub fn wrapper_calldata(
    decoded: &Decoded,
    payloads: Option<&[Vec<u8>]>,
) -> Result<(Vec<u8>, &'static str), AggregatedError> {
    let senders: Vec<[u8; 20]> = decoded.pairs.iter().map(|p| p.1).collect();
    let proof = decoded.wrapper_proof();
    match payloads {
        Some(p) => {
            let hashes: Vec<DigestPair> = p
                .iter()
                .zip(&senders)
                .map(|(p, a)| (batch_ecdsa::native::hash::keccak256(p), *a))
                .collect();
            check_pairs(&decoded.pairs, &hashes, "transaction")?;
            verify_transactions_calldata(p, &senders, &proof)
                .map(|c| (c, "verifyTransactions"))
                .map_err(|e| bad(e.to_string()))
        }
        None => {
            let hashes: Vec<[u8; 32]> = decoded.pairs.iter().map(|p| p.0).collect();
            verify_hashes_calldata(&hashes, &senders, &proof)
                .map(|c| (c, "verifyHashes"))
                .map_err(|e| bad(e.to_string()))
        }
    }
}

/// Checks the decoded proof on an EVM (module doc): `verifier_sol` compiled with `solc`,
/// deployed with EIP-170 enforced, called with the calldata of the file's statement; under
/// the digest statement, also through the wrapper with `payloads` (the signing payloads, in
/// order) or the pairs' hashes, which must return D. [`verify_compiled`] after compiling.
pub fn verify_on_chain(
    decoded: &Decoded,
    verifier_sol: &str,
    payloads: Option<&[Vec<u8>]>,
    solc: &Solc,
) -> Result<OnChain, AggregatedError> {
    let verifier = solc
        .compile(verifier_sol)
        .map_err(|e| bad(format!("the verifier does not compile: {e}")))?;
    // The wrapper is configured with the layout the verifier states (its header; the
    // 6-column outer circuit's for verifiers from before layouts were recorded).
    let layout = Header::parse(verifier_sol)
        .map_err(AggregatedError::Invalid)?
        .map(|h| h.wrapper_layout())
        .unwrap_or(crate::wrapper::AGGREGATED_PROOF_LAYOUT);
    let code = WrapperCode::compile(solc).map_err(bad)?;
    verify_compiled(decoded, &verifier, layout, &code.wrapper, payloads)
}

/// [`verify_on_chain`] with the verifier and the wrapper already compiled, the wrapper
/// deployed with the verifier's proof `layout`.
pub fn verify_compiled(
    decoded: &Decoded,
    verifier: &Compiled,
    layout: ProofLayout,
    wrapper: &Compiled,
    payloads: Option<&[Vec<u8>]>,
) -> Result<OnChain, AggregatedError> {
    if verifier.runtime.len() > EIP170_CODE_LIMIT {
        return Err(bad(format!(
            "the verifier's runtime code is {} bytes, over EIP-170's {EIP170_CODE_LIMIT}: it \
             does not deploy on Ethereum",
            verifier.runtime.len()
        )));
    }
    // One chain: the verifier, and the wrapper in front of it (used under the digest statement).
    let mut chain = WrapperChain::deploy(
        wrapper,
        &verifier.creation,
        false,
        &aggregated_wrapper_config(decoded.batch_size, layout),
    )
    .map_err(bad)?;
    let calldata = decoded.verifier_calldata();
    let called = chain.call_verifier(&calldata).map_err(bad)?;
    let gas = gas_of(&called.outcome, "called directly")?;
    if gas.on_floor() {
        return Err(bad(format!(
            "the verifier's call paid the EIP-7623 floor ({} gas): its execution is not measured",
            gas.total
        )));
    }
    let mut on_chain = OnChain {
        verifier_runtime_code_bytes: chain.verifier.runtime_bytes,
        verifier_deploy_gas: chain.verifier.deploy_gas,
        verifier_calldata_bytes: calldata.len(),
        verifier_total_gas: gas.total,
        verifier_execution_gas: gas.execution(),
        wrapper_call: None,
        wrapper_calldata_bytes: None,
        wrapper_total_gas: None,
        wrapper_execution_gas: None,
        wrapper_on_floor: None,
    };
    let Some(d) = decoded.digest else {
        return Ok(on_chain);
    };
    let (data, call) = wrapper_calldata(decoded, payloads)?;
    match chain.verify(&data) {
        Ok((returned, gas)) if returned == d => {
            on_chain.wrapper_call = Some(call.into());
            on_chain.wrapper_calldata_bytes = Some(data.len());
            on_chain.wrapper_total_gas = Some(gas.total);
            on_chain.wrapper_execution_gas = (!gas.on_floor()).then(|| gas.execution());
            on_chain.wrapper_on_floor = Some(gas.on_floor());
            Ok(on_chain)
        }
        Ok((returned, _)) => Err(AggregatedError::Invalid(format!(
            "the wrapper returned {}, not D = {}",
            encode_hex(&returned),
            encode_hex(&d)
        ))),
        Err(WrapperRevert::ProofRejected) => Err(AggregatedError::Invalid(format!(
            "{call} through the wrapper: the verifier rejects the proof for this batch"
        ))),
        // The proof's own form (a wrong length, a word out of range): the proof is invalid.
        Err(
            e @ (WrapperRevert::ProofLength { .. }
            | WrapperRevert::AccumulatorOutOfRange(_)
            | WrapperRevert::ProofWordOutOfRange(_)),
        ) => Err(AggregatedError::Invalid(format!(
            "{call} through the wrapper: the proof is malformed ({})",
            e.name()
        ))),
        Err(other) => Err(bad(format!(
            "{call} through the wrapper reverted: {other:?}"
        ))),
    }
}

/// Whether [`write_folder`] may write `dir`: it does not exist, or is an empty folder
/// (checked again there; `prove-aggregated` asks first, before its 20 minutes of work).
pub fn check_folder_free(dir: &Path) -> Result<(), String> {
    if !dir.exists() {
        return Ok(());
    }
    let empty = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .next()
        .is_none();
    if empty {
        Ok(())
    } else {
        Err(format!(
            "{} exists and is not empty: nothing is overwritten",
            dir.display()
        ))
    }
}

/// Writes the folder `dir` (module doc) all at once: the files go to a temporary folder
/// beside it, which is renamed to `dir`; `dir` must not exist yet, or be empty.
pub fn write_folder(
    dir: &Path,
    file: &AggregatedProofFile,
    verifier_sol: &str,
    wrapper_calldata: Option<&[u8]>,
) -> Result<(), String> {
    let decoded = file.decode().map_err(|e| e.to_string())?;
    check_folder_free(dir)?;
    if dir.exists() {
        std::fs::remove_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let name = dir
        .file_name()
        .ok_or_else(|| format!("{}: not a folder name", dir.display()))?;
    let parent = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    let tmp = parent.join(format!(
        ".{}.tmp-{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    let result = (|| -> std::io::Result<()> {
        std::fs::create_dir(&tmp)?;
        let json = serde_json::to_string_pretty(file).map_err(std::io::Error::other)?;
        std::fs::write(tmp.join(PROOF_FILE), json + "\n")?;
        std::fs::write(tmp.join(VERIFIER_FILE), verifier_sol)?;
        std::fs::write(
            tmp.join(VERIFIER_CALLDATA_FILE),
            hex::encode(decoded.verifier_calldata()) + "\n",
        )?;
        if let Some(w) = wrapper_calldata {
            std::fs::write(tmp.join(WRAPPER_CALLDATA_FILE), hex::encode(w) + "\n")?;
        }
        std::fs::rename(&tmp, dir)
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(format!("cannot write {}: {e}", dir.display()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(b: usize) -> Vec<DigestPair> {
        (0..b)
            .map(|i| ([i as u8 + 1; 32], [0xa0 + i as u8; 20]))
            .collect()
    }

    fn file(b: usize) -> AggregatedProofFile {
        let p = pairs(b);
        let words = digest_words(&batch_digest(&p));
        AggregatedProofFile::new(
            Statement::Digest,
            b,
            14,
            22,
            &SetupIdentity {
                kind: batch_ecdsa::prover::srs::SetupKind::Ceremony,
                file: Some("pot.ptau".into()),
                tau_g2: encode_hex(&[1; 32]),
                g1_powers: encode_hex(&[2; 32]),
                k: 22,
            },
            &p,
            &words,
            &[[7u8; 32]; ACCUMULATOR_WORDS],
            &[1, 2, 3],
        )
    }

    #[test]
    fn a_digest_file_round_trips_and_builds_its_calldata() {
        let f = file(3);
        let json = serde_json::to_string(&f).unwrap();
        let back: AggregatedProofFile = serde_json::from_str(&json).unwrap();
        let d = back.decode().unwrap();
        assert_eq!(d.pairs, pairs(3));
        let data = d.verifier_calldata();
        assert_eq!(data.len(), 32 * (ACCUMULATOR_WORDS + 2) + 3);
        assert_eq!(
            &data[32 * ACCUMULATOR_WORDS..32 * (ACCUMULATOR_WORDS + 2)],
            {
                let w = digest_words(&batch_digest(&pairs(3)));
                &w.concat()[..]
            }
        );
        assert_eq!(d.wrapper_proof().len(), 32 * ACCUMULATOR_WORDS + 3);
    }

    #[test]
    fn a_file_that_misstates_its_digest_is_invalid() {
        let mut f = file(2);
        f.records[1].address = encode_hex(&[0xff; 20]);
        assert!(matches!(f.decode(), Err(AggregatedError::Invalid(_))));
        let mut f = file(2);
        f.inner_public_inputs[0] = encode_hex(&[0; 32]);
        assert!(matches!(f.decode(), Err(AggregatedError::Invalid(_))));
        let mut f = file(2);
        f.accumulator.pop();
        assert!(matches!(f.decode(), Err(AggregatedError::BadInput(_))));
        // Another B: D over two pairs and a filler slot is not the stated one.
        let mut f = file(2);
        f.batch_size = 3;
        assert!(matches!(f.decode(), Err(AggregatedError::Invalid(_))));
        // More records than B, and none.
        let mut f = file(2);
        f.batch_size = 1;
        assert!(matches!(f.decode(), Err(AggregatedError::BadInput(_))));
        let mut f = file(2);
        f.records.clear();
        assert!(matches!(f.decode(), Err(AggregatedError::BadInput(_))));
    }

    /// n < B: the records are the n real pairs and D is theirs padded with the filler; a file
    /// stating D of the records alone (unpadded) is invalid, and so is one whose filler slot
    /// is dropped from the records of a proof of n + 1 real pairs.
    #[test]
    fn fewer_records_than_b_are_padded_with_the_filler() {
        let real = pairs(2);
        let padded = padded_pairs(&real, 4).unwrap();
        let words = digest_words(&batch_digest(&padded));
        let mut f = file(2);
        f.batch_size = 4;
        f.digest = Some(encode_hex(&batch_digest(&padded)));
        f.inner_public_inputs = words.iter().map(|w| encode_hex(w)).collect();
        let d = f.decode().expect("n = 2 of B = 4");
        assert_eq!(d.pairs, real);
        assert_eq!(d.batch_size, 4);
        assert_eq!(d.digest, Some(batch_digest(&padded)));
        // `new` with the real pairs and B makes the same file.
        let built = AggregatedProofFile::new(
            Statement::Digest,
            4,
            f.inner_k,
            f.outer_k,
            &f.setup,
            &real,
            &words,
            &[[7u8; 32]; ACCUMULATOR_WORDS],
            &[1, 2, 3],
        );
        assert_eq!(built, f);
        // The unpadded D of the two records.
        let mut unpadded = f.clone();
        let d2 = batch_digest(&real);
        unpadded.digest = Some(encode_hex(&d2));
        unpadded.inner_public_inputs = digest_words(&d2).iter().map(|w| encode_hex(w)).collect();
        assert!(matches!(
            unpadded.decode(),
            Err(AggregatedError::Invalid(_))
        ));
        // A proof of three real pairs, stated with two records: slot 2 is not the filler.
        let three = padded_pairs(&pairs(3), 4).unwrap();
        let mut dropped = f.clone();
        let d3 = batch_digest(&three);
        dropped.digest = Some(encode_hex(&d3));
        dropped.inner_public_inputs = digest_words(&d3).iter().map(|w| encode_hex(w)).collect();
        assert!(matches!(dropped.decode(), Err(AggregatedError::Invalid(_))));
    }

    #[test]
    fn check_pairs_names_each_differing_signature() {
        let a = pairs(3);
        let mut b = a.clone();
        b[1].1[0] ^= 1;
        b[2].0[0] ^= 1;
        let e = check_pairs(&a, &b, "transaction").unwrap_err().to_string();
        assert!(
            e.contains("transaction 1 differs from the proof: address 0x"),
            "{e}"
        );
        assert!(
            e.contains("transaction 2 differs from the proof: signing hash 0x"),
            "{e}"
        );
        assert!(!e.contains("transaction 0"), "{e}");
        assert!(check_pairs(&a, &a[..2], "signature").is_err());
        assert!(check_pairs(&a, &a, "signature").is_ok());
    }

    #[test]
    fn a_folder_is_written_whole_and_never_over_another() {
        let base = std::env::temp_dir().join(format!("agg-folder-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let dir = base.join("out");
        write_folder(&dir, &file(2), "contract V {}", Some(&[1, 2])).unwrap();
        let back = AggregatedProofFile::load(&dir).unwrap();
        assert_eq!(back, file(2));
        assert!(dir.join(WRAPPER_CALLDATA_FILE).exists());
        assert!(write_folder(&dir, &file(2), "contract V {}", None).is_err());
        std::fs::remove_dir_all(&base).unwrap();
    }
}
