//! The aggregated route's result: the folder `prove-aggregated` writes, stored as one JSON
//! document ([`StoredFolder`]: the aggregated proof file and the verifier's source; the
//! calldata files are derived again when it is fetched), and checked by `fetch` against the
//! batch that was submitted, the verifier the caller pins and the setup the caller trusts
//! ([`batch_ecdsa_evm::folder_check`]) before a folder is written.

use std::path::Path;

use batch_ecdsa::SetupSource;
use batch_ecdsa_evm::aggregated_folder::{
    wrapper_calldata, write_folder, AggregatedProofFile, OnChain, MAX_AGGREGATED_FILE_BYTES,
    MAX_VERIFIER_SOURCE_BYTES,
};
use batch_ecdsa_evm::folder_check::{check_folder, FolderCheck, HeldBatch, PinnedVerifier};
use serde::{Deserialize, Serialize};

use crate::job::{JobInput, Route};

/// [`StoredFolder::format`].
pub const FORMAT: &str = "batch-ecdsa fleet aggregated folder v1";

/// Largest stored folder read (the proof file and the verifier's source, with JSON's escapes).
pub const MAX_STORED_FOLDER_BYTES: usize =
    2 * (MAX_AGGREGATED_FILE_BYTES as usize + MAX_VERIFIER_SOURCE_BYTES as usize);

/// An aggregated proof folder as the jobs table stores it.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoredFolder {
    pub format: String,
    /// `aggregated.json`.
    pub aggregated: AggregatedProofFile,
    /// `AggregationVerifier.sol`: the verifier the worker generated (a claim: `fetch`
    /// compiles the caller's own, or pins this one by the deployed contract's code hash).
    pub verifier: String,
}

impl StoredFolder {
    pub fn new(aggregated: AggregatedProofFile, verifier: String) -> Self {
        StoredFolder {
            format: FORMAT.into(),
            aggregated,
            verifier,
        }
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        serde_json::to_vec(self).expect("a folder serialises")
    }

    /// Reads a stored folder strictly (size bounded, unknown fields and other formats refused).
    pub fn parse(bytes: &[u8]) -> Result<Self, String> {
        if bytes.len() > MAX_STORED_FOLDER_BYTES {
            return Err(format!(
                "the stored folder is {} bytes, more than {MAX_STORED_FOLDER_BYTES}",
                bytes.len()
            ));
        }
        let text = std::str::from_utf8(bytes).map_err(|_| "the stored folder is not UTF-8")?;
        let folder: StoredFolder =
            batch_ecdsa::json::parse(text).map_err(|e| format!("the stored folder: {e}"))?;
        if folder.format != FORMAT {
            return Err(format!(
                "the stored folder's format is {:?}, not {FORMAT:?}",
                folder.format
            ));
        }
        Ok(folder)
    }
}

/// A stored folder that passed [`verify_folder_result`], ready to write.
pub struct CheckedFolder {
    pub file: AggregatedProofFile,
    pub verifier: String,
    pub wrapper_calldata: Option<Vec<u8>>,
    pub on_chain: OnChain,
}

impl CheckedFolder {
    /// Writes the folder `dir` all at once (it must not exist, or be empty).
    pub fn write(&self, dir: &Path) -> Result<(), String> {
        write_folder(
            dir,
            &self.file,
            &self.verifier,
            self.wrapper_calldata.as_deref(),
        )
    }
}

/// Checks a stored folder against `input`, the job as the caller submitted it
/// ([`JobInput::same_job_as`]), trusting neither the worker nor the database: its statement
/// and B against the job's, its (signing hash, address) pairs against the caller's batch's
/// (each differing one named), the verifier the caller pins (`pinned`) with the `[τ]₂` of the
/// setup the caller trusts, then the verifier and the wrapper (with the batch's signing
/// payloads when it is transactions) on an EVM with EIP-170 enforced. The folder returned
/// carries the verifier that was checked: the caller's source when pinned by source (the
/// worker's, which may be anything, is dropped), the stored one when pinned by code hash
/// (it compiled to exactly that code).
pub fn verify_folder_result(
    input: &str,
    result: &[u8],
    pinned: &PinnedVerifier,
    setup: &SetupSource,
    params_dir: &Path,
) -> Result<CheckedFolder, String> {
    let checked = JobInput::parse(input)?.check().map_err(|e| e.reason)?;
    if checked.route != Route::Aggregated {
        return Err("the job is not for the aggregated route".into());
    }
    let folder = StoredFolder::parse(result)?;
    if folder.verifier.len() as u64 > MAX_VERIFIER_SOURCE_BYTES {
        return Err(format!(
            "the stored verifier is {} bytes, more than {MAX_VERIFIER_SOURCE_BYTES}",
            folder.verifier.len()
        ));
    }
    let file = folder.aggregated;
    if file.statement != checked.statement.as_str()
        || file.batch_size != checked.batch_size
        || file.outer_k != checked.outer_k
    {
        return Err(format!(
            "the stored folder is for the {} statement at B = {}, outer k = {}; the job asked \
             for {} at B = {}, outer k = {}",
            file.statement,
            file.batch_size,
            file.outer_k,
            checked.statement,
            checked.batch_size,
            checked.outer_k
        ));
    }
    let mut held =
        HeldBatch::of_batch(&checked.batch, checked.policy).map_err(|e| e.to_string())?;
    if let Some(payloads) = checked.payloads {
        held.payloads = Some(payloads);
        held.item = "transaction";
    }
    let (decoded, on_chain) = check_folder(&FolderCheck {
        file: &file,
        folder_verifier: &folder.verifier,
        pinned,
        held: Some(&held),
        setup,
        params_dir,
    })
    .map_err(|e| format!("the stored folder: {e}"))?;
    let wrapper = wrapper_calldata(&decoded, held.payloads.as_deref())
        .map_err(|e| e.to_string())?
        .0;
    let verifier = match pinned {
        PinnedVerifier::Source { text, .. } => text.clone(),
        PinnedVerifier::CodeHash(_) => folder.verifier,
    };
    Ok(CheckedFolder {
        file,
        verifier,
        wrapper_calldata: Some(wrapper),
        on_chain,
    })
}
