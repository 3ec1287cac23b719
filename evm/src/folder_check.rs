//! An aggregated proof folder checked against what its user trusts, then as Ethereum would:
//! `verify-aggregated`, and the fleet's `fetch` before it writes a folder a worker made.
//!
//! What the user trusts, never the folder's word ([`crate::aggregated_folder`]'s module doc):
//! the verifier ([`PinnedVerifier`]: the source of the contract they deployed, or its code
//! hash, which the folder's source must compile to), the setup (its `[τ]₂`, which the
//! verifier's pairing check must use), and the batch they hold ([`HeldBatch`]: its (signing
//! hash, address) pairs must be the folder's, its signing payloads go to the wrapper).

use std::path::Path;

use batch_ecdsa::batch_file::{BatchFile, Policy};
use batch_ecdsa::prover::api::digest_pairs_of;
use batch_ecdsa::prover::circuit::{witnesses_from_batch, WitnessBuildError};
use batch_ecdsa::prover::proof::DigestPair;
use batch_ecdsa::prover::srs::{tau_g2_of, SetupSource};
use batch_ecdsa::txs::SignedTxs;

use crate::aggregated_folder::{
    check_folder_setup_kind, check_pairs, check_trusted, verify_on_chain, AggregatedError,
    AggregatedProofFile, Decoded, OnChain, Trusted,
};
use crate::solc::Solc;

/// The verifier the user trusts.
pub enum PinnedVerifier {
    /// The source of the contract they deployed (`label` names it in errors: its path).
    Source { text: String, label: String },
    /// The deployed contract's runtime code hash (`cast codehash ADDRESS`): the folder's own
    /// source must compile to exactly that code.
    CodeHash([u8; 32]),
}

/// The batch the user holds: its (signing hash, address) pairs in order, and the signing
/// payloads when it is transactions.
pub struct HeldBatch {
    pub pairs: Vec<DigestPair>,
    pub payloads: Option<Vec<Vec<u8>>>,
    /// What one entry is called in errors ("signature", "transaction").
    pub item: &'static str,
}

impl HeldBatch {
    /// Decoded and checked transactions.
    pub fn of_txs(txs: &SignedTxs) -> Self {
        HeldBatch {
            pairs: txs
                .records
                .iter()
                .map(|r| (r.tx.signing_hash, r.sender))
                .collect(),
            payloads: Some(
                txs.records
                    .iter()
                    .map(|r| r.tx.signing_payload.clone())
                    .collect(),
            ),
            item: "transaction",
        }
    }

    /// A batch file, each signature checked (an invalid one is [`AggregatedError::Invalid`]).
    pub fn of_batch(batch: &BatchFile, policy: Policy) -> Result<Self, AggregatedError> {
        let ws = witnesses_from_batch(batch, policy, true).map_err(|e| match e {
            WitnessBuildError::Invalid(_) => {
                AggregatedError::Invalid(format!("the batch holds invalid signatures: {e}"))
            }
            other => AggregatedError::BadInput(other.to_string()),
        })?;
        Ok(HeldBatch {
            pairs: digest_pairs_of(&ws),
            payloads: None,
            item: "signature",
        })
    }
}

/// One folder to check.
pub struct FolderCheck<'a> {
    pub file: &'a AggregatedProofFile,
    /// The folder's verifier source (compiled and pinned by [`PinnedVerifier::CodeHash`]).
    pub folder_verifier: &'a str,
    pub pinned: &'a PinnedVerifier,
    /// The batch the user holds (a digest folder only; None: the folder's own pairs).
    pub held: Option<&'a HeldBatch>,
    /// The setup the user trusts.
    pub setup: &'a SetupSource,
    pub params_dir: &'a Path,
}

/// Checks `c` (module doc): the folder's claims, its setup kind, the held batch's pairs
/// against the folder's, the pinned verifier (compiled, its τ and header), then the verifier
/// and (digest) the wrapper on an EVM with EIP-170 enforced. Returns the decoded folder and
/// the chain's figures.
pub fn check_folder(c: &FolderCheck) -> Result<(Decoded, OnChain), AggregatedError> {
    let bad = AggregatedError::BadInput;
    let decoded = c.file.decode()?;
    // Before any setup is read (check_trusted makes it again).
    check_folder_setup_kind(c.file, c.setup.kind())?;
    let s_g2 =
        tau_g2_of(c.setup, c.params_dir, &c.file.setup.tau_g2).map_err(|e| bad(e.to_string()))?;
    let payloads = match c.held {
        Some(held) => {
            if decoded.digest.is_none() {
                return Err(bad(
                    "a keys proof is checked on its own: its public inputs are the keys".into(),
                ));
            }
            check_pairs(&decoded.pairs, &held.pairs, held.item)?;
            held.payloads.as_deref()
        }
        None => None,
    };
    let (source, label, code_hash) = match c.pinned {
        PinnedVerifier::Source { text, label } => (text.as_str(), label.as_str(), None),
        PinnedVerifier::CodeHash(h) => (c.folder_verifier, "the folder's verifier", Some(*h)),
    };
    if source.trim().is_empty() {
        return Err(bad(format!("{label}: the verifier source is empty")));
    }
    let solc = Solc::locate_or_install().map_err(|e| bad(e.to_string()))?;
    let compiled = solc.compile(source).map_err(|e| {
        bad(format!(
            "{label}: the verifier source does not compile: {e}"
        ))
    })?;
    check_trusted(
        c.file,
        &Trusted {
            source,
            compiled: &compiled,
            code_hash,
            s_g2,
            kind: c.setup.kind(),
        },
    )?;
    let on_chain = verify_on_chain(&decoded, source, payloads, &solc)?;
    Ok((decoded, on_chain))
}
