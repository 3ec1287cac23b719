//! A user's batch proven for Ethereum as an aggregated proof folder, in memory: what
//! `prove-aggregated` writes and a fleet worker stores. Feature `aggregate`.
//!
//! Order (cheap refusals first, nothing written): the batch circuit's limit for B (the
//! planner's table), every signature checked (each invalid one named), the machine's memory
//! against the outer proof's floor, solc-js, the setup (one τ for both circuits), the inner proof
//! ([`crate::aggregation_prover::inner_snark_of`], keys cached), the outer proof and verifier
//! ([`crate::aggregation_prover::aggregate`], keys cached), then the check a chain makes
//! ([`crate::aggregated_folder::verify_on_chain`]: the verifier deployed under EIP-170 and
//! called, the wrapper called with the batch under the digest statement). A folder that fails
//! that check is an error, never returned.

use std::path::Path;
use std::time::Duration;

use batch_ecdsa::batch_file::{BatchFile, Policy};
use batch_ecdsa::prover::api::digest_pairs_of;
use batch_ecdsa::prover::circuit::{witnesses_from_batch, WitnessBuildError};
use batch_ecdsa::prover::memory;
use batch_ecdsa::prover::phases::{process_peak_mib, Phases};
use batch_ecdsa::prover::proving_key;
use batch_ecdsa::prover::srs::{SetupIdentity, SetupSource};
use batch_ecdsa::prover::transcript::scalar_word;
use batch_ecdsa_circuits::ecdsa::Statement;

use crate::aggregated_folder::{
    verify_on_chain, wrapper_calldata, AggregatedProofFile, OnChain, ACCUMULATOR_WORDS,
};
use crate::aggregation_prover::{
    aggregate, inner_k, inner_line, inner_snark_of, load_setup, outer_memory_floor, source_word,
    OuterShape,
};
use crate::solc::Solc;
use batch_ecdsa::calldata::rows::{OuterLayout, PhaseRow};

/// What to prove.
pub struct FolderRequest<'a> {
    /// The batch: its n signatures are proven on the key for `batch_size` ≥ n (the rest the
    /// canonical filler; digest statement only when n < B).
    pub batch: &'a BatchFile,
    /// The signing payloads when the batch is transactions (the wrapper's
    /// `verifyTransactions` is then called with them).
    pub payloads: Option<&'a [Vec<u8>]>,
    pub statement: Statement,
    pub batch_size: usize,
    /// log2 rows of the outer circuit (22: the digest statement's verifier fits EIP-170).
    pub outer_k: u32,
    pub policy: Policy,
    pub setup: &'a SetupSource,
    /// Where the setup and the keys (inner and outer, made once) are cached.
    pub params_dir: &'a Path,
}

/// Why no folder was made.
#[derive(Debug, thiserror::Error)]
pub enum FolderError {
    /// Signatures of the batch are invalid (each named); nothing is proved.
    #[error("{} of {n} signatures invalid; nothing is proved: {}", .invalid.len(), .invalid.join("; "))]
    Invalid { invalid: Vec<String>, n: usize },
    /// The request cannot be proved as asked (B, padding, statement).
    #[error("{0}")]
    Input(String),
    /// This machine has too little memory for the outer proof.
    #[error("{0}")]
    Memory(String),
    /// The setup, keys, solc, or a proof that fails its own check.
    #[error("{0}")]
    Environment(String),
}

/// A folder made, with the figures of its making.
pub struct ProvedFolder {
    pub file: AggregatedProofFile,
    /// The outer verifier's Solidity (with its header).
    pub solidity: String,
    /// The wrapper's calldata (digest statement).
    pub wrapper_calldata: Option<Vec<u8>>,
    pub on_chain: OnChain,
    pub setup: SetupIdentity,
    pub inner_k: u32,
    pub inner_proof_bytes: usize,
    pub inner_keys: String,
    pub inner_keygen: Duration,
    pub inner_prove: Duration,
    pub outer: OuterLayout,
    pub outer_keys: String,
    pub outer_keygen: Duration,
    pub outer_prove: Duration,
    pub outer_proof_bytes: usize,
    /// Each phase's time and own peak memory, in order: batch check, setup, inner keys, inner
    /// proof, outer keys (then `outer keys, made again` where cached keys were refused), outer
    /// proof, verifier and chain check.
    pub phases: Vec<PhaseRow>,
    /// The process's peak resident memory from its start to the chain check, MiB.
    pub peak_rss_mib: Option<u64>,
}

/// Proves `req` (module doc). `log` hears each step.
pub fn prove_folder(req: &FolderRequest, log: &dyn Fn(&str)) -> Result<ProvedFolder, FolderError> {
    // Before the batch's signatures are read (secp256k1 arithmetic, in assembly under `asm`).
    batch_ecdsa::cpu::check().map_err(|e| FolderError::Environment(e.to_string()))?;
    let mut phases = Phases::start(log);
    let (n, b, statement) = (req.batch.len(), req.batch_size, req.statement);
    if b < n {
        return Err(FolderError::Input(format!(
            "B = {b} is smaller than the batch ({n} signatures)"
        )));
    }
    if b > n && statement != Statement::Digest {
        return Err(FolderError::Input(
            "padding to B is for the digest statement (the folder records its real pairs)".into(),
        ));
    }
    // The batch circuit's limit, from the planner's table, before any signature is checked.
    let ik = inner_k(b, statement).map_err(|e| FolderError::Input(e.to_string()))?;
    let witnesses = match witnesses_from_batch(&req.batch.padded_to(b), req.policy, true) {
        Ok(w) => w,
        Err(WitnessBuildError::Invalid(invalid)) => {
            return Err(FolderError::Invalid {
                invalid: invalid.iter().map(|e| e.to_string()).collect(),
                n,
            })
        }
        Err(e) => return Err(FolderError::Input(e.to_string())),
    };
    // The n real pairs (the folder's records; D is theirs padded to b).
    let pairs = digest_pairs_of(&witnesses)[..n].to_vec();
    phases.end("batch check");
    memory::check(
        req.outer_k,
        outer_memory_floor(req.outer_k),
        memory::available_bytes(),
    )
    .map_err(|e| FolderError::Memory(e.to_string()))?;
    let env = FolderError::Environment;
    let solc = &Solc::locate_or_install().map_err(|e| env(e.to_string()))?;
    let (inner_srs, outer_srs) =
        load_setup(req.setup, req.params_dir, ik, req.outer_k).map_err(env)?;
    log(&format!("setup: {}", outer_srs.identity.describe()));
    phases.end("setup");
    let keys_dir = proving_key::keys_dir(req.params_dir);
    let inner = inner_snark_of(
        witnesses,
        statement,
        &inner_srs.params,
        &keys_dir,
        &mut phases,
    )
    .map_err(env)?;
    log(&inner_line(&inner, statement));
    let shape = OuterShape {
        k: req.outer_k,
        lookup_bits: req.outer_k as usize - 1,
    };
    let agg = aggregate(
        &inner,
        statement,
        shape,
        &outer_srs,
        &keys_dir,
        solc,
        &mut phases,
    )
    .map_err(env)?;
    let words: Vec<[u8; 32]> = agg.instance.iter().map(scalar_word).collect();
    let (accumulator, inner_words) = words.split_at(ACCUMULATOR_WORDS);
    let digest_pairs: &[_] = if statement == Statement::Digest {
        &pairs
    } else {
        &[]
    };
    let file = AggregatedProofFile::new(
        statement,
        b,
        inner.k,
        req.outer_k,
        &outer_srs.identity,
        digest_pairs,
        inner_words,
        accumulator,
        &agg.proof,
    );
    let decoded = file.decode().map_err(|e| env(e.to_string()))?;
    // The check a chain makes, before anything is returned.
    let on_chain = verify_on_chain(&decoded, &agg.solidity, req.payloads, solc)
        .map_err(|e| env(format!("the aggregated proof fails its own check: {e}")))?;
    let wrapper = match decoded.digest {
        Some(_) => Some(
            wrapper_calldata(&decoded, req.payloads)
                .map_err(|e| env(e.to_string()))?
                .0,
        ),
        None => None,
    };
    phases.end("verifier and chain check");
    Ok(ProvedFolder {
        file,
        solidity: agg.solidity,
        wrapper_calldata: wrapper,
        on_chain,
        setup: outer_srs.identity,
        inner_k: inner.k,
        inner_proof_bytes: inner.snark.proof.len(),
        inner_keys: source_word(&inner.keys_source),
        inner_keygen: inner.keygen,
        inner_prove: inner.prove,
        outer: agg.layout,
        outer_keys: source_word(&agg.outer_keys_source),
        outer_keygen: agg.outer_keygen,
        outer_prove: agg.outer_prove,
        outer_proof_bytes: agg.proof.len(),
        phases: phases.into_rows(),
        peak_rss_mib: process_peak_mib(),
    })
}
