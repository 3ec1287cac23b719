//! The batch file (format in docs/formats.md, *Batch file*) and its validation.
//!
//! A batch file is JSON:
//!
//! ```json
//! { "signatures": [ { "msg_hash": "0x…32 bytes", "r": "0x…", "s": "0x…", "v": 27,
//!                     "pubkey": "0x04…", "address": "0x…20 bytes" } ] }
//! ```
//!
//! Loading goes in two steps, and each step names the signature (0-based index) it rejects:
//!
//! 1. [`BatchFile::parse`] / [`BatchFile::load`] check the *form*: JSON, hex, lengths,
//!    1 ≤ r, s < n, a `v` that is a recovery id, a public key on the curve. A failure here is
//!    *bad input* ([`InputError`], exit code 2).
//! 2. [`BatchFile::to_items`] builds the ECDSA* items `(Rᵢ, sᵢ, hᵢ, Qᵢ)` the native batch check and
//!    the circuits take: Q is the given key or is recovered from `(h, r, s, v)`, R is recovered
//!    from `(r, v)` or computed as `u₁·G + u₂·Q`. A failure here is a well-formed but *invalid*
//!    signature ([`Invalid`], exit code 1): no point with x = r, a wrong address for a recovered
//!    key, high s under the EIP-2 policy, or a signature that does not verify.
//!
//! Whether the items satisfy the batch equation is the job of [`crate::native::batch_verify`].

use std::fmt;
use std::path::Path;

use halo2curves::secp256k1::{Fq, Secp256k1Affine};
use serde::{Deserialize, Serialize};

use crate::hexfmt::{decode_hex, decode_hex_fixed, encode_hex};
use crate::native::batch_verify::{batch_verify, find_invalid, BatchItem};
use crate::native::ecdsa::nonce_point;
use crate::native::encoding::fq_from_be_bytes_reduced;
use crate::native::public_key::PublicKey;
use crate::native::recover::{ecrecover, recover_nonce_point};
use crate::native::signature::{RecoveryId, Signature};

/// One signature as it stands in the file (strings not yet parsed).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a signature record: an object with msg_hash, r, s and a recovery id v, pubkey or address"
)]
pub struct SignatureRecord {
    pub msg_hash: String,
    pub r: String,
    pub s: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub v: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pubkey: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
}

/// The file as it stands on disk.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a batch file: an object with a signatures array"
)]
pub struct BatchRecords {
    pub signatures: Vec<SignatureRecord>,
}

/// A signature whose form has been checked.
#[derive(Clone, Debug)]
pub struct ParsedSignature {
    /// The 32-byte message hash as given (big-endian).
    pub msg_hash: [u8; 32],
    /// The message hash as a scalar: its 256-bit value mod n.
    pub h: Fq,
    pub sig: Signature,
    pub recovery_id: Option<RecoveryId>,
    /// The EIP-155 chain id when `v` carried one.
    pub chain_id: Option<u64>,
    pub pubkey: Option<PublicKey>,
    pub address: Option<[u8; 20]>,
}

/// A batch file whose every signature has the right form.
#[derive(Clone, Debug)]
pub struct BatchFile {
    pub signatures: Vec<ParsedSignature>,
}

/// Bad input: the file or a field in it is malformed (exit code 2).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum InputError {
    #[error("cannot read batch file {path}: {reason}")]
    Io { path: String, reason: String },
    #[error("batch file is not valid JSON for the batch format: {0}")]
    NotJson(String),
    #[error("batch is empty: no signatures")]
    Empty,
    #[error("signature {index}: {reason}")]
    Field { index: usize, reason: String },
}

/// Why a well-formed signature is invalid (exit code 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invalid {
    pub index: usize,
    pub reason: String,
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "signature {}: invalid: {}", self.index, self.reason)
    }
}

impl std::error::Error for Invalid {}

/// Every invalid signature of a batch, in index order: one error for the list.
pub type InvalidSignatures = crate::failures::Failures<Invalid>;

/// Validation policy.
#[derive(Clone, Copy, Debug, Default)]
pub struct Policy {
    /// EIP-2: reject s > n/2.
    pub low_s: bool,
}

/// Largest batch file read, in bytes (a record is about 400 bytes of JSON: room for over
/// 100,000 signatures, far more than any circuit proves).
pub const MAX_BATCH_FILE_BYTES: u64 = 64 << 20;

impl BatchFile {
    /// Reads and parses a batch file. Every malformed signature is reported, not only the first.
    pub fn load(path: &Path) -> Result<Self, InputErrors> {
        let text = crate::fsutil::read_text_bounded(path, MAX_BATCH_FILE_BYTES).map_err(|e| {
            crate::failures::Failures(vec![InputError::Io {
                path: path.display().to_string(),
                reason: e.to_string(),
            }])
        })?;
        Self::parse(&text)
    }

    /// Parses batch-file JSON text. Every malformed signature is reported, not only the first.
    pub fn parse(text: &str) -> Result<Self, InputErrors> {
        let records: BatchRecords = crate::json::parse(text)
            .map_err(|e| crate::failures::Failures(vec![InputError::NotJson(e)]))?;
        Self::from_records(&records)
    }

    /// Checks the form of every record.
    pub fn from_records(records: &BatchRecords) -> Result<Self, InputErrors> {
        if records.signatures.is_empty() {
            return Err(crate::failures::Failures(vec![InputError::Empty]));
        }
        let signatures = crate::failures::all_or_failures(
            records.signatures.iter().enumerate().map(|(index, rec)| {
                parse_record(rec).map_err(|reason| InputError::Field { index, reason })
            }),
        )?;
        Ok(BatchFile { signatures })
    }

    pub fn len(&self) -> usize {
        self.signatures.len()
    }

    /// This batch followed by `size − len` copies of the canonical filler signature
    /// ([`crate::native::filler`]: why padding is sound), so that a key made for B proves any
    /// n ≤ B; a batch already of `size` or more is returned as it is.
    pub fn padded_to(&self, size: usize) -> BatchFile {
        let mut out = self.clone();
        if out.len() < size {
            let f = crate::native::filler::filler();
            let key = f.public_key.to_sec1_compressed();
            let filler = parse_input(&SignatureInput {
                hash: f.hash,
                r: f.r,
                s: f.s,
                v: Some(u64::from(f.recovery_id)),
                signer: Signer::PublicKey(&key),
            })
            .expect("the filler is well formed (tested in the native crate)");
            out.signatures.resize(size, filler);
        }
        out
    }

    pub fn is_empty(&self) -> bool {
        self.signatures.is_empty()
    }

    /// Builds the ECDSA* item of every signature (see the module doc), in order; the `Err`s
    /// name the invalid ones. A signature that builds may still fail the batch equation when
    /// both `v` and `pubkey` are given (R and Q are then taken as they are): see
    /// [`BatchFile::verify_native`].
    pub fn to_items(&self, policy: Policy) -> Vec<Result<BatchItem, Invalid>> {
        use rayon::prelude::*;
        self.signatures
            .par_iter()
            .enumerate()
            .map(|(index, p)| to_item(p, policy).map_err(|reason| Invalid { index, reason }))
            .collect()
    }

    /// The items of a batch in which every signature must build; else every invalid one.
    pub fn items(&self, policy: Policy) -> Result<Vec<BatchItem>, Vec<Invalid>> {
        crate::failures::all_or_failures(self.to_items(policy)).map_err(|f| f.0)
    }

    /// [`BatchFile::verify_native`] as a `Result`, for `?`: `Err` names every invalid
    /// signature.
    pub fn check_native(&self, policy: Policy) -> Result<(), InvalidSignatures> {
        let invalid = self.verify_native(policy);
        if invalid.is_empty() {
            Ok(())
        } else {
            Err(crate::failures::Failures(invalid))
        }
    }

    /// The full native check: builds every item, runs the random-linear-combination batch
    /// equation over those that built and, if it fails, bisects to name every invalid one.
    /// Returns the invalid signatures in index order (empty when the batch is valid).
    pub fn verify_native(&self, policy: Policy) -> Vec<Invalid> {
        self.valid_items(policy).err().unwrap_or_default()
    }

    /// [`BatchFile::verify_native`] keeping what it built: every item when the whole batch is
    /// valid, else every invalid signature in index order (each item is built once, so a
    /// caller that needs the items after the check does not build them again).
    pub fn valid_items(&self, policy: Policy) -> Result<Vec<BatchItem>, Vec<Invalid>> {
        let mut invalid = Vec::new();
        let mut items = Vec::with_capacity(self.len());
        let mut indices = Vec::with_capacity(self.len());
        for (index, r) in self.to_items(policy).into_iter().enumerate() {
            match r {
                Ok(item) => {
                    indices.push(index);
                    items.push(item);
                }
                Err(e) => invalid.push(e),
            }
        }
        if !items.is_empty() && batch_verify(&items).is_err() {
            for k in find_invalid(&items) {
                invalid.push(Invalid {
                    index: indices[k],
                    reason: "R ≠ (h/s)·G + (r/s)·Q: the signature does not verify".into(),
                });
            }
        }
        if invalid.is_empty() {
            Ok(items)
        } else {
            invalid.sort_by_key(|e| e.index);
            Err(invalid)
        }
    }
}

/// How the key of a [`SignatureInput`] is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Signer<'a> {
    /// The public key, SEC1-encoded (33 bytes compressed or 65 uncompressed).
    PublicKey(&'a [u8]),
    /// Recovered from the signature (its recovery id is then required) and checked to have
    /// this Ethereum address.
    Address([u8; 20]),
    /// Recovered from the signature (its recovery id is then required), whatever its address.
    Recovered,
}

/// One signature as typed values, for a caller building a batch from its own bytes
/// ([`BatchFile::from_signatures`]); hex is only the file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SignatureInput<'a> {
    /// The 32-byte hash that was signed (big-endian); the signature checks it mod n.
    pub hash: [u8; 32],
    /// r and s, 32 bytes each, big-endian.
    pub r: [u8; 32],
    pub s: [u8; 32],
    /// `v` as Ethereum writes it (27/28, 0/1, or an EIP-155 value), when known; needed when
    /// the key is recovered.
    pub v: Option<u64>,
    pub signer: Signer<'a>,
}

impl<'a> SignatureInput<'a> {
    /// From a 64-byte `r ‖ s` signature and a recovery id (0 or 1) when known.
    pub fn from_compact(
        hash: [u8; 32],
        signature: &[u8; 64],
        recovery_id: Option<u8>,
        signer: Signer<'a>,
    ) -> Self {
        let mut r = [0u8; 32];
        let mut s = [0u8; 32];
        r.copy_from_slice(&signature[..32]);
        s.copy_from_slice(&signature[32..]);
        Self {
            hash,
            r,
            s,
            v: recovery_id.map(u64::from),
            signer,
        }
    }

    /// From a 65-byte `r ‖ s ‖ v` signature (`v` 27/28 or 0/1), as `eth_sign` returns it.
    pub fn from_rsv(hash: [u8; 32], signature: &[u8; 65], signer: Signer<'a>) -> Self {
        let mut compact = [0u8; 64];
        compact.copy_from_slice(&signature[..64]);
        Self {
            v: Some(u64::from(signature[64])),
            ..Self::from_compact(hash, &compact, None, signer)
        }
    }
}

/// Every malformed entry of a batch (each named by its index): one error for the list.
pub type InputErrors = crate::failures::Failures<InputError>;

impl BatchFile {
    /// A batch from typed signatures (no hex): each checked for form exactly as a file's
    /// records are, every malformed one named by its index.
    pub fn from_signatures(inputs: &[SignatureInput<'_>]) -> Result<Self, InputErrors> {
        if inputs.is_empty() {
            return Err(crate::failures::Failures(vec![InputError::Empty]));
        }
        let signatures =
            crate::failures::all_or_failures(inputs.iter().enumerate().map(|(index, input)| {
                parse_input(input).map_err(|reason| InputError::Field { index, reason })
            }))?;
        Ok(BatchFile { signatures })
    }
}

/// A file record: its hex decoded into a [`SignatureInput`], then [`parse_input`].
fn parse_record(rec: &SignatureRecord) -> Result<ParsedSignature, String> {
    let hash: [u8; 32] = decode_hex_fixed(&rec.msg_hash).map_err(|e| format!("msg_hash: {e}"))?;
    let r: [u8; 32] = decode_hex_fixed(&rec.r).map_err(|e| format!("r: {e}"))?;
    let s: [u8; 32] = decode_hex_fixed(&rec.s).map_err(|e| format!("s: {e}"))?;
    let key_bytes = match &rec.pubkey {
        Some(hex) => Some(decode_hex(hex).map_err(|e| format!("pubkey: {e}"))?),
        None => None,
    };
    let address = match &rec.address {
        Some(hex) => Some(decode_hex_fixed::<20>(hex).map_err(|e| format!("address: {e}"))?),
        None => None,
    };
    let signer = match (&key_bytes, address) {
        (Some(bytes), _) => Signer::PublicKey(bytes),
        (None, Some(a)) => Signer::Address(a),
        (None, None) => Signer::Recovered,
    };
    let mut parsed = parse_input(&SignatureInput {
        hash,
        r,
        s,
        v: rec.v,
        signer,
    })?;
    // A record may give both a key and an address: the address must be the key's.
    if let (Some(key), Some(addr)) = (&parsed.pubkey, address) {
        if key.address() != addr {
            return Err(format!(
                "address {} does not match the public key (whose address is {})",
                encode_hex(&addr),
                encode_hex(&key.address())
            ));
        }
        parsed.address = Some(addr);
    }
    Ok(parsed)
}

/// The form checks of one signature (module doc, step 1).
fn parse_input(input: &SignatureInput<'_>) -> Result<ParsedSignature, String> {
    let sig = Signature::from_be_bytes(&input.r, &input.s).map_err(|e| e.to_string())?;
    let (recovery_id, chain_id) = match input.v {
        Some(v) => {
            let (id, chain) = RecoveryId::from_v(v).map_err(|e| e.to_string())?;
            (Some(id), chain)
        }
        None => (None, None),
    };
    let (pubkey, address) = match input.signer {
        Signer::PublicKey(bytes) => (
            Some(PublicKey::from_sec1(bytes).map_err(|e| format!("pubkey: {e}"))?),
            None,
        ),
        Signer::Address(a) => (None, Some(a)),
        Signer::Recovered => (None, None),
    };
    if pubkey.is_none() && recovery_id.is_none() {
        return Err("neither pubkey nor v is given: the public key cannot be known".into());
    }
    Ok(ParsedSignature {
        msg_hash: input.hash,
        h: fq_from_be_bytes_reduced(&input.hash),
        sig,
        recovery_id,
        chain_id,
        pubkey,
        address,
    })
}

/// The ECDSA* item of one well-formed signature, or why it is invalid.
fn to_item(p: &ParsedSignature, policy: Policy) -> Result<BatchItem, String> {
    if policy.low_s && !p.sig.is_low_s() {
        return Err("s > n/2 (high s) under the EIP-2 low-s policy".into());
    }
    let q: PublicKey = match (&p.pubkey, p.recovery_id) {
        (Some(key), _) => *key,
        (None, Some(id)) => {
            let key = ecrecover(&p.h, &p.sig, id).map_err(|e| format!("ecrecover failed: {e}"))?;
            if let Some(addr) = p.address {
                if key.address() != addr {
                    return Err(format!(
                        "recovered signer {} is not the given address {}",
                        encode_hex(&key.address()),
                        encode_hex(&addr)
                    ));
                }
            }
            key
        }
        (None, None) => return Err("neither pubkey nor v is given".into()),
    };
    let r_point: Secp256k1Affine = match p.recovery_id {
        Some(id) => recover_nonce_point(&p.sig.r(), id)
            .map_err(|e| format!("nonce point from (r, v): {e}"))?,
        None => nonce_point(&q, &p.h, &p.sig).map_err(|e| e.to_string())?,
    };
    Ok(BatchItem {
        r_point,
        s: p.sig.s(),
        h: p.h,
        q: q.point(),
    })
}
