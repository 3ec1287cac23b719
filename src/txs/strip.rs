//! Layer 4: what a rollup posts instead of the signed transactions, and the byte counts.
//!
//! With the batch proof a rollup no longer posts the signatures: it posts each transaction
//! **unsigned** (its EIP-2718 signing payload, whose keccak256 is the signing hash a contract
//! recomputes) and each **sender** (20 bytes, which the proof binds to the signing hash). The
//! three payloads measured, for transactions t₀ … t_{B−1}:
//!
//! ```text
//! signed   = raw(t₀) ‖ … ‖ raw(t_{B−1})                                 (what is posted today)
//! unsigned = payload(t₀) ‖ … ‖ payload(t_{B−1})
//! stripped = unsigned ‖ sender(t₀) ‖ … ‖ sender(t_{B−1})                (posted with a proof)
//! ```
//!
//! Each raw transaction and each signing payload delimits itself (an RLP list, after a type
//! byte for a typed one), so each payload is a stream that parses back; the senders follow in
//! transaction order, 20 bytes each. Each payload is measured raw and compressed as a whole, the
//! way rollups compress their batches: zlib (level 9: the OP Stack's channels before Fjord) and
//! Brotli (quality 11, window 2²²: OP Stack channels since Fjord, Arbitrum's batches).
//! `signed − unsigned` is what the signatures really cost once compressed, `stripped −
//! unsigned` what the senders cost: the `calldata` calculator takes those two (`--txs`).
//!
//! The `--strip-out` file is JSON ([`StrippedFile`]): `format`, the `compression` settings, per
//! transaction `type`, `unsigned` (hex), `sender` (hex) and `signing_hash` (hex, keccak256 of
//! `unsigned`, for reading convenience), and `bytes` (the counts above).

use std::io::Write;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::hexfmt::encode_hex;

use super::record::TxRecord;

/// The `format` value of a stripped-transactions file.
pub const STRIPPED_FORMAT: &str = "batch-ecdsa/stripped-txs/v1";

/// The compressor settings, as the file states them.
pub const COMPRESSION: &str =
    "zlib: level 9 (flate2); brotli: quality 11, window 2^22 (brotli crate)";

/// One payload's size, raw and compressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "an object of byte counts (raw, zlib, brotli)"
)]
pub struct Sizes {
    pub raw: u64,
    pub zlib: u64,
    pub brotli: u64,
}

impl Sizes {
    /// Measures `bytes`.
    pub fn of(bytes: &[u8]) -> Self {
        Sizes {
            raw: bytes.len() as u64,
            zlib: zlib_len(bytes),
            brotli: brotli_len(bytes),
        }
    }
}

/// The byte counts of a batch (module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, expecting = "an object of byte counts")]
pub struct ByteCounts {
    /// Number of transactions B.
    pub count: u64,
    pub signed: Sizes,
    pub unsigned: Sizes,
    pub stripped: Sizes,
}

/// One stripped transaction in the file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a stripped transaction: an object with type, unsigned, sender and signing_hash"
)]
pub struct StrippedTx {
    #[serde(rename = "type")]
    pub tx_type: String,
    pub unsigned: String,
    pub sender: String,
    pub signing_hash: String,
}

/// The `--strip-out` file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a stripped-transactions file: a JSON object"
)]
pub struct StrippedFile {
    pub format: String,
    pub compression: String,
    pub transactions: Vec<StrippedTx>,
    pub bytes: ByteCounts,
}

/// The three payloads of the module doc.
pub fn payloads(records: &[TxRecord]) -> (Vec<u8>, Vec<u8>, Vec<u8>) {
    let signed: Vec<u8> = records
        .iter()
        .flat_map(|r| r.tx.raw.iter().copied())
        .collect();
    let unsigned: Vec<u8> = records
        .iter()
        .flat_map(|r| r.tx.signing_payload.iter().copied())
        .collect();
    let mut stripped = unsigned.clone();
    for r in records {
        stripped.extend_from_slice(&r.sender);
    }
    (signed, unsigned, stripped)
}

/// The byte counts of a batch of valid transactions.
pub fn byte_counts(records: &[TxRecord]) -> ByteCounts {
    let (signed, unsigned, stripped) = payloads(records);
    ByteCounts {
        count: records.len() as u64,
        signed: Sizes::of(&signed),
        unsigned: Sizes::of(&unsigned),
        stripped: Sizes::of(&stripped),
    }
}

impl StrippedFile {
    /// The file of a batch of valid transactions.
    pub fn new(records: &[TxRecord]) -> Self {
        StrippedFile {
            format: STRIPPED_FORMAT.into(),
            compression: COMPRESSION.into(),
            transactions: records
                .iter()
                .map(|r| StrippedTx {
                    tx_type: r.tx.tx_type.name().into(),
                    unsigned: encode_hex(&r.tx.signing_payload),
                    sender: encode_hex(&r.sender),
                    signing_hash: encode_hex(&r.tx.signing_hash),
                })
                .collect(),
            bytes: byte_counts(records),
        }
    }

    /// Writes the file atomically (nothing written half-way).
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let json = serde_json::to_string_pretty(self).map_err(std::io::Error::other)?;
        crate::fsutil::write_atomic_with(path, |f| {
            f.write_all(json.as_bytes())?;
            f.write_all(b"\n")
        })
    }

    /// Parses a stripped-transactions file; the counts must be consistent (B transactions,
    /// stripped = unsigned + 20·B raw bytes).
    pub fn parse(text: &str) -> Result<Self, String> {
        Self::parse_unclipped(text).map_err(|e| crate::json::clip(&e))
    }

    fn parse_unclipped(text: &str) -> Result<Self, String> {
        let f: StrippedFile = crate::json::parse(text)?;
        if f.format != STRIPPED_FORMAT {
            return Err(format!(
                "format is {:?}, expected {STRIPPED_FORMAT:?}",
                f.format
            ));
        }
        let b = f.bytes;
        if b.count == 0 || b.count != f.transactions.len() as u64 {
            return Err(format!(
                "bytes.count {} is not the number of transactions {} (at least 1)",
                b.count,
                f.transactions.len()
            ));
        }
        if b.stripped.raw != b.unsigned.raw + 20 * b.count || b.signed.raw <= b.unsigned.raw {
            return Err(
                "the byte counts are inconsistent (stripped = unsigned + 20·B, signed > unsigned)"
                    .into(),
            );
        }
        Ok(f)
    }
}

/// zlib (RFC 1950) at level 9.
pub fn zlib_len(bytes: &[u8]) -> u64 {
    let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    // Writing to a Vec cannot fail.
    let out = e
        .write_all(bytes)
        .and_then(|_| e.finish())
        .unwrap_or_default();
    out.len() as u64
}

/// Brotli (RFC 7932) at quality 11, window 2²².
pub fn brotli_len(bytes: &[u8]) -> u64 {
    let params = brotli::enc::BrotliEncoderParams {
        quality: 11,
        lgwin: 22,
        ..Default::default()
    };
    let mut out = Vec::new();
    match brotli::BrotliCompress(&mut &bytes[..], &mut out, &params) {
        Ok(_) => out.len() as u64,
        Err(_) => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compressors_shrink_repetition_and_not_noise() {
        let rep = vec![7u8; 10_000];
        assert!(zlib_len(&rep) < 100);
        assert!(brotli_len(&rep) < 100);
        // Keccak output is incompressible: the compressed form is not smaller.
        let noise: Vec<u8> = (0u32..300)
            .flat_map(|i| crate::native::hash::keccak256(&i.to_be_bytes()))
            .collect();
        assert!(zlib_len(&noise) >= noise.len() as u64);
        assert!(brotli_len(&noise) >= noise.len() as u64 - 8);
    }
}
