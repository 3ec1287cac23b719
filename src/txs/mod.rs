//! Signed Ethereum transactions in: what a sequencer actually holds.
//!
//! Each raw signed transaction (EIP-2718 bytes, every type from legacy to EIP-7702) becomes a
//! batch record: signing hash, r, s, recovery id, recovered key and sender. The layers, lowest
//! first, one job each:
//!
//! - [`decode`]: bytes → fields, signing payload, signing hash, r, s, y-parity (alloy), with the
//!   checks alloy leaves out (trailing bytes, a 0x00 type byte, EIP-4844 sidecars);
//! - [`wide_fee`]: the same decoding for a fee of 2¹²⁸ wei or more, which alloy's u128 fee
//!   fields cannot hold (valid on Ethereum, whose fees are 256-bit): our own strict alloy-rlp
//!   decoder, used only when alloy's fails with an overflow;
//! - [`rules`]: the chain's validity rules besides the signature (chain id, EIP-155,
//!   intrinsic gas, nonce, fees, initcode, empty blob and authorization lists);
//! - [`record`]: the signature checked and the key recovered by our own [`crate::native`]
//!   reference (1 ≤ r, s < n, EIP-2's low s, ecrecover, address);
//! - [`file`](mod@file): the `--txs FILE` formats;
//! - [`strip`]: what a rollup posts instead (unsigned transactions and senders) and the byte
//!   counts, raw and compressed;
//! - [`demo`]: deterministic signed demo transactions of every type.
//!
//! A transaction that does not decode is *malformed* (bad input, exit code 2); one that decodes
//! but breaks a rule or whose signature fails is *invalid* (exit code 1). Either way it is named
//! by its 0-based index: `transaction I: <reason>`.
//!
//! ```
//! use batch_ecdsa::txs::{demo::demo_txs, SignedTxs, TxPolicy};
//! let raw = demo_txs(4, 1, 1).unwrap();
//! let txs = SignedTxs::decode(&raw, &TxPolicy::for_chain(1)).unwrap();
//! assert_eq!(txs.records.len(), 4);
//! let batch = txs.batch_file(); // the existing batch: prove it as any other
//! assert!(batch.verify_native(Default::default()).is_empty());
//! ```

pub mod decode;
pub mod demo;
pub mod file;
pub mod record;
pub mod rules;
#[cfg(feature = "compression")]
pub mod strip;
pub mod wide_fee;

pub use decode::{decode_signed_tx, DecodeError, DecodedTx, TxType};
pub use record::{check_tx, TxRecord};
pub use rules::{TxInvalid, TxPolicy};

use crate::batch_file::{BatchFile, BatchRecords};

/// Why transaction `index` cannot join the batch.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TxError {
    /// It does not decode (exit code 2).
    #[error("transaction {index}: {reason}")]
    Malformed { index: usize, reason: DecodeError },
    /// It decodes but is invalid (exit code 1).
    #[error("transaction {index}: invalid: {reason}")]
    Invalid { index: usize, reason: TxInvalid },
}

impl TxError {
    pub fn index(&self) -> usize {
        match self {
            TxError::Malformed { index, .. } | TxError::Invalid { index, .. } => *index,
        }
    }

    /// 2 for malformed, 1 for invalid.
    pub fn exit_code(&self) -> u8 {
        match self {
            TxError::Malformed { .. } => 2,
            TxError::Invalid { .. } => 1,
        }
    }
}

/// The exit code of a list of errors: 2 when any transaction is malformed, else 1.
pub fn exit_code(errors: &[TxError]) -> u8 {
    errors.iter().map(TxError::exit_code).max().unwrap_or(0)
}

/// Decodes and checks one raw transaction.
pub fn decode_and_check(raw: &[u8], policy: &TxPolicy, index: usize) -> Result<TxRecord, TxError> {
    let decoded = decode_signed_tx(raw).map_err(|reason| TxError::Malformed { index, reason })?;
    check_tx(decoded, policy).map_err(|reason| TxError::Invalid { index, reason })
}

/// A batch of valid signed transactions.
#[derive(Clone, Debug)]
pub struct SignedTxs {
    pub records: Vec<TxRecord>,
}

/// Every transaction that cannot join a batch, in index order: one error for the list.
pub type TxErrors = crate::failures::Failures<TxError>;

impl SignedTxs {
    /// Decodes and checks every transaction (in parallel); every failing one is reported, in
    /// index order. An empty list is no batch: it is reported as transaction 0 missing.
    pub fn decode<B: AsRef<[u8]> + Sync>(raw: &[B], policy: &TxPolicy) -> Result<Self, TxErrors> {
        use rayon::prelude::*;
        if raw.is_empty() {
            return Err(crate::failures::Failures(vec![TxError::Malformed {
                index: 0,
                reason: DecodeError::Empty,
            }]));
        }
        let results: Vec<Result<TxRecord, TxError>> = raw
            .par_iter()
            .enumerate()
            .map(|(i, t)| decode_and_check(t.as_ref(), policy, i))
            .collect();
        let records = crate::failures::all_or_failures(results)?;
        Ok(SignedTxs { records })
    }

    /// The batch-file records (one per transaction, in order).
    pub fn batch_records(&self) -> BatchRecords {
        BatchRecords {
            signatures: self
                .records
                .iter()
                .map(TxRecord::signature_record)
                .collect(),
        }
    }

    /// The batch the prover takes: exactly the records a batch file would give.
    pub fn batch_file(&self) -> BatchFile {
        // The records are built from checked values (32-byte hashes, r and s in [1, n), keys
        // on the curve whose address is the sender), so their form is valid.
        BatchFile::from_records(&self.batch_records())
            .expect("records of checked transactions are well formed")
    }

    /// What a rollup posts instead, with the byte counts ([`strip`]).
    #[cfg(feature = "compression")]
    pub fn stripped(&self) -> strip::StrippedFile {
        strip::StrippedFile::new(&self.records)
    }
}

impl BatchFile {
    /// The batch of a sequencer's raw signed transactions (in memory): each decoded, checked
    /// under `policy` and turned into a record (signing hash, r, s, recovery id, recovered key,
    /// sender). Every failing transaction is reported.
    pub fn from_signed_txs<B: AsRef<[u8]> + Sync>(
        raw: &[B],
        policy: &TxPolicy,
    ) -> Result<BatchFile, TxErrors> {
        SignedTxs::decode(raw, policy).map(|t| t.batch_file())
    }
}
