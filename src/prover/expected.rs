//! A proof file checked against the batch the caller holds, never only against itself.
//!
//! A proof file carries its own public inputs, and a proof that verifies for them says only
//! that *some* batch with those inputs was signed. A sequencer, a bridge or a third party
//! holds a batch of its own — the signing hashes, keys or senders, in order — and must ask
//! whether the proof is for **that** batch. [`mismatches`] answers, entry by entry, under the
//! proof's statement:
//!
//! - **keys**: entry i's hash reduced mod n (what the circuit checks) and its key must be the
//!   proof's i-th (hash mod n, key), so a hash ≥ n compares correctly;
//! - **digest**: entry i's raw 32-byte signing hash and the address of its key (for a
//!   transaction, the recovered sender) must be the proof's i-th pair, whose digest D the
//!   proof states (the file's D is recomputed from its pairs when it is read, so the pairs are
//!   what the proof binds).
//!
//! The batch held is first checked natively (every signature valid): the proof binds the
//! hashes and keys, not the bytes of each signature, so a corrupt signature held must fail
//! here rather than pass on the strength of a valid one proven in its place.
//!
//! The caller may hold fewer entries than the proof has slots (n ≤ B: a key made for B proves
//! any n ≤ B by padding): every slot after the n-th must then state the canonical filler
//! ([`crate::native::filler`], which argues why this is sound). Each differing entry or slot
//! is named with its index and, under the digest statement, both values.
//! [`crate::prover::api::Verifier::verify_batch`] runs this before the proof check; the
//! command line's `verify --proof F --batch B` calls it.

use crate::batch_file::{BatchFile, Policy};
use crate::hexfmt::encode_hex;
use crate::native::batch_verify::BatchItem;
use crate::native::filler::{filler, filler_scalar};
use crate::native::public_key::PublicKey;
use crate::prover::proof::ProofFile;
use batch_ecdsa_circuits::ecdsa::Statement;

/// How the caller's entries are named in a [`Mismatch`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Entries {
    /// Signatures of a batch file (or built in memory).
    #[default]
    Signatures,
    /// Signed transactions (the hash is the signing hash, the address the recovered sender).
    Transactions,
}

impl Entries {
    fn words(self) -> (&'static str, &'static str, &'static str, &'static str) {
        match self {
            Entries::Signatures => ("signature", "the batch file", "message hash", "address"),
            Entries::Transactions => ("transaction", "the transactions", "signing hash", "sender"),
        }
    }
}

/// One way the caller's batch and the proof differ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The entry that differs, or `None` for the batch as a whole (its size).
    pub index: Option<usize>,
    /// What differs, in words (both values where the statement carries them).
    pub reason: String,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.reason)
    }
}

/// The proof is not for the caller's batch: every difference found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the proof is not for this batch: {}", .mismatches.iter().map(|m| m.reason.as_str()).collect::<Vec<_>>().join("; "))]
pub struct NotTheBatch {
    pub mismatches: Vec<Mismatch>,
}

/// Every difference between `batch` (read under `policy`) and the proof file's public inputs,
/// under the file's statement (module doc); empty when the proof is for this batch.
pub fn mismatches(
    file: &ProofFile,
    batch: &BatchFile,
    policy: Policy,
    entries: Entries,
) -> Vec<Mismatch> {
    // The batch held must itself be valid: the proof binds (hash, key) or (hash, address),
    // never the bytes of r and s, so an entry whose own signature is corrupt (given with both
    // its key and v, where nothing else would check it) must not pass because someone proved
    // a valid signature on the same hash by the same key.
    let items = match batch.valid_items(policy) {
        Ok(items) => items,
        Err(invalid) => {
            let (unit, source, _, _) = entries.words();
            return invalid
                .into_iter()
                .map(|e| {
                    at(
                        e.index,
                        format!(
                            "{unit} {} in {source} is invalid: {} (so no proof can be for this \
                             batch)",
                            e.index, e.reason
                        ),
                    )
                })
                .collect();
        }
    };
    match file.statement {
        Statement::Keys => keys(file, &items, entries),
        Statement::Digest => digest(file, batch, &items, entries),
    }
}

fn whole(reason: String) -> Mismatch {
    Mismatch {
        index: None,
        reason,
    }
}

fn at(i: usize, reason: String) -> Mismatch {
    Mismatch {
        index: Some(i),
        reason,
    }
}

/// Slot `i ≥ n` of the proof states something else than the filler.
fn not_filler(i: usize, n: usize, unit: &str, source: &str) -> Mismatch {
    at(
        i,
        format!(
            "slot {i} of the proof is not the filler: {source} hold {n} {unit}s, so every slot \
             after them must state the canonical filler, and this one states another signature"
        ),
    )
}

/// `items` are `batch`'s, every one valid ([`BatchFile::valid_items`]).
fn digest(
    file: &ProofFile,
    batch: &BatchFile,
    items: &[BatchItem],
    entries: Entries,
) -> Vec<Mismatch> {
    let pairs = match file.digest_pairs() {
        Ok(p) => p,
        Err(e) => {
            return vec![whole(format!(
                "the proof file's public inputs do not parse: {e}"
            ))]
        }
    };
    let (unit, source, hash_name, addr_name) = entries.words();
    if items.len() > pairs.len() {
        return vec![whole(format!(
            "{source} hold {} {unit}s, the proof {}",
            items.len(),
            pairs.len()
        ))];
    }
    let f = filler();
    let mut out: Vec<Mismatch> = pairs
        .iter()
        .enumerate()
        .skip(items.len())
        .filter(|(_, (h, a))| *h != f.hash || *a != f.address)
        .map(|(i, _)| not_filler(i, items.len(), unit, source))
        .collect();
    for (i, ((item, sig), (h, a))) in items.iter().zip(&batch.signatures).zip(&pairs).enumerate() {
        let address = match PublicKey::from_affine(item.q) {
            Ok(k) => k.address(),
            Err(e) => {
                out.push(at(i, format!("{unit} {i}: its key has no address: {e}")));
                continue;
            }
        };
        let mut what = Vec::new();
        if sig.msg_hash != *h {
            what.push(format!(
                "{hash_name} {} in {source}, {} in the proof",
                encode_hex(&sig.msg_hash),
                encode_hex(h)
            ));
        }
        if address != *a {
            what.push(format!(
                "{addr_name} {} in {source}, {} in the proof",
                encode_hex(&address),
                encode_hex(a)
            ));
        }
        if !what.is_empty() {
            out.push(at(i, format!("{unit} {i} differs: {}", what.join("; "))));
        }
    }
    out
}

/// `items` are the batch's, every one valid ([`BatchFile::valid_items`]).
fn keys(file: &ProofFile, items: &[BatchItem], entries: Entries) -> Vec<Mismatch> {
    let (unit, source, hash_name, _) = entries.words();
    let Ok(inputs) = file.public_inputs() else {
        return vec![whole("the proof file's public inputs do not parse".into())];
    };
    if items.len() > inputs.len() {
        return vec![whole(format!(
            "{source} hold {} {unit}s, the proof {}",
            items.len(),
            inputs.len()
        ))];
    }
    let (fh, fq) = (filler_scalar(), filler().public_key.point());
    let mut out: Vec<Mismatch> = inputs
        .iter()
        .enumerate()
        .skip(items.len())
        .filter(|(_, (h, q))| *h != fh || *q != fq)
        .map(|(i, _)| not_filler(i, items.len(), unit, source))
        .collect();
    for (i, (item, (h, q))) in items.iter().zip(&inputs).enumerate() {
        let mut what = Vec::new();
        if item.h != *h {
            what.push(hash_name.to_string());
        }
        if item.q != *q {
            what.push("public key".to_string());
        }
        if !what.is_empty() {
            out.push(at(
                i,
                format!(
                    "{unit} {i}: {} {} between {source} and the proof",
                    what.join(" and "),
                    if what.len() > 1 { "differ" } else { "differs" }
                ),
            ));
        }
    }
    out
}
