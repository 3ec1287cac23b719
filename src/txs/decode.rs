//! Layer 1: one raw signed transaction → its fields, signing payload and signature, by alloy.
//!
//! A raw transaction is its EIP-2718 encoding:
//!
//! ```text
//! legacy:  rlp([nonce, gas_price, gas_limit, to, value, data, v, r, s])      (first byte ≥ 0xc0)
//! typed:   type ‖ rlp([chain_id, …fields…, y_parity, r, s])                 (type 1, 2, 3, 4)
//! ```
//!
//! alloy's `decode_2718` does the RLP (canonical integers without leading zeros, exact list
//! lengths, field widths: u64 nonce and gas, u128 prices, 20-byte addresses, 32-byte r and s at
//! most, y-parity 0 or 1, legacy v = 27/28 or EIP-155's 35 + 2·chain_id + {0, 1}). alloy's
//! u128 prices are narrower than Ethereum's 256-bit fees: when alloy reports an overflow, the
//! transaction goes to our own decoder, [`super::wide_fee`], as strict but with 256-bit fees
//! (a fee of 2¹²⁸ wei or more is valid on Ethereum). Three checks are ours because
//! `decode_2718` does not make them:
//!
//! - **nothing left over**: `decode_2718` decodes one transaction from the front of the buffer
//!   and leaves anything after it; a raw transaction with trailing bytes is rejected here;
//! - **type byte 0x00**: alloy would read `0x00 ‖ rlp(legacy)` as a legacy transaction, but a
//!   legacy transaction has no type byte (EIP-2718: a first byte in [0xc0, 0xfe] is legacy):
//!   a second encoding of the same transaction is rejected;
//! - **EIP-4844 without sidecar**: the envelope is `EthereumTxEnvelope<TxEip4844>`, so only the
//!   canonical blob transaction (the one whose hash is the transaction hash) decodes; the
//!   network form with its blobs, commitments and proofs does not.
//!
//! The **signing payload** is what the sender signed (`SignableTransaction::encode_for_signing`):
//! `type ‖ rlp([chain_id, …fields…])` for a typed transaction, `rlp([…six fields…])` for a legacy
//! one before EIP-155 and `rlp([…six fields…, chain_id, 0, 0])` with EIP-155. The **signing
//! hash** is h = keccak256(signing payload): the ECDSA message hash (256 bits, read mod n).
//! Nothing here checks the signature: see [`super::record`].

use alloy_consensus::transaction::{RlpEcdsaDecodableTx, SignableTransaction};
use alloy_consensus::{EthereumTxEnvelope, Transaction, TxEip4844, TxLegacy};
use alloy_eips::eip2718::{Decodable2718, Eip2718Error};
use alloy_eips::eip2930::AccessList;
use alloy_primitives::U256;

use crate::native::hash::keccak256;

/// The envelope decoded: every transaction type, EIP-4844 without sidecar.
pub type Envelope = EthereumTxEnvelope<TxEip4844>;

/// Why a raw transaction is malformed (bad input, exit code 2).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    #[error("empty transaction")]
    Empty,
    #[error("unknown transaction type 0x{0:02x} (known: legacy, 0x01 EIP-2930, 0x02 EIP-1559, 0x03 EIP-4844, 0x04 EIP-7702)")]
    UnknownType(u8),
    #[error("type byte 0x00 before a legacy transaction (a legacy transaction has no type byte)")]
    TypeZero,
    #[error("legacy v is neither 27/28 nor EIP-155's 35 + 2·chain_id + y-parity")]
    LegacyV,
    #[error("y-parity of a typed transaction must be 0 or 1")]
    TypedYParity,
    #[error("malformed RLP: {0}")]
    Rlp(String),
    /// A fault located in one field of the transaction's list.
    #[error("malformed RLP in field `{field}`: {reason}")]
    Field { field: &'static str, reason: String },
    #[error("{0} trailing byte(s) after the transaction")]
    TrailingBytes(usize),
}

/// The EIP-2718 transaction type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TxType {
    Legacy,
    Eip2930,
    Eip1559,
    Eip4844,
    Eip7702,
}

impl TxType {
    /// The type byte (0 for legacy, which has none on the wire).
    pub fn byte(self) -> u8 {
        match self {
            TxType::Legacy => 0,
            TxType::Eip2930 => 1,
            TxType::Eip1559 => 2,
            TxType::Eip4844 => 3,
            TxType::Eip7702 => 4,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            TxType::Legacy => "legacy",
            TxType::Eip2930 => "EIP-2930",
            TxType::Eip1559 => "EIP-1559",
            TxType::Eip4844 => "EIP-4844",
            TxType::Eip7702 => "EIP-7702",
        }
    }
}

/// The fields the validity rules ([`super::rules`]) read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TxFacts {
    pub nonce: u64,
    pub gas_limit: u64,
    /// A contract creation (`to` empty; legacy, EIP-2930 and EIP-1559 only).
    pub is_create: bool,
    pub input_len: usize,
    pub input_zero_bytes: usize,
    pub access_list_addresses: usize,
    pub access_list_keys: usize,
    /// EIP-7702 authorizations (0 for other types).
    pub authorizations: usize,
    /// EIP-4844 blob versioned hashes (0 for other types).
    pub blob_hashes: usize,
    /// Gas price (legacy, EIP-2930) or max fee per gas: 256 bits, as Ethereum's (a fee of
    /// 2¹²⁸ wei or more is decoded by [`super::wide_fee`]).
    pub max_fee_per_gas: U256,
    /// Max priority fee per gas (EIP-1559, 4844, 7702).
    pub max_priority_fee_per_gas: Option<U256>,
}

/// One raw transaction, decoded; its signature not yet checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodedTx {
    pub tx_type: TxType,
    /// The chain id: a typed transaction's field, or the one EIP-155 folds into a legacy v;
    /// `None` for a legacy transaction before EIP-155.
    pub chain_id: Option<u64>,
    /// The raw signed transaction (EIP-2718 encoding).
    pub raw: Vec<u8>,
    /// The transaction hash keccak256(raw).
    pub tx_hash: [u8; 32],
    /// What the sender signed (see the module doc).
    pub signing_payload: Vec<u8>,
    /// keccak256(signing payload).
    pub signing_hash: [u8; 32],
    /// r and s as the transaction carries them (32-byte big-endian, any value below 2²⁵⁶).
    pub r: [u8; 32],
    pub s: [u8; 32],
    /// The parity of y(R): 0/1 of a typed transaction, v − 27 or v − 35 − 2·chain_id of a
    /// legacy one.
    pub y_parity: bool,
    pub facts: TxFacts,
}

pub(super) fn rlp_error(e: &alloy_rlp::Error) -> DecodeError {
    match e {
        alloy_rlp::Error::Custom(m) if m.contains("parity") => DecodeError::LegacyV,
        alloy_rlp::Error::Custom(m) if m.contains("bool") => DecodeError::TypedYParity,
        other => DecodeError::Rlp(super::wide_fee::describe_rlp(other)),
    }
}

/// Decodes one raw signed transaction (see the module doc). Never panics.
pub fn decode_signed_tx(raw: &[u8]) -> Result<DecodedTx, DecodeError> {
    let first = *raw.first().ok_or(DecodeError::Empty)?;
    match first {
        0x00 => return Err(DecodeError::TypeZero),
        0x05..=0x7f => return Err(DecodeError::UnknownType(first)),
        _ => {}
    }
    let mut buf = raw;
    let env = match Envelope::decode_2718(&mut buf) {
        Ok(env) => env,
        Err(e) => {
            let error = match e {
                // alloy's fallback (untyped) decoding drops the legacy decoder's error and
                // reports "type 0": decode again as legacy to say what is wrong.
                Eip2718Error::UnexpectedType(_) if first >= 0x80 => {
                    match TxLegacy::rlp_decode_signed(&mut &raw[..]) {
                        Err(e) => e,
                        Ok(_) => return Err(DecodeError::Rlp("not a legacy transaction".into())),
                    }
                }
                Eip2718Error::UnexpectedType(t) => return Err(DecodeError::UnknownType(t)),
                Eip2718Error::RlpError(e) => e,
                other => return Err(DecodeError::Rlp(other.to_string())),
            };
            // A field too wide for alloy's type, e.g. a fee ≥ 2¹²⁸ in its u128: our own
            // decoder, with 256-bit fees, says whether the transaction is well formed.
            // Any other fault: the same decoder, whose errors name the field, says where;
            // the transaction is refused either way.
            return match error {
                alloy_rlp::Error::Overflow => super::wide_fee::decode_wide_fee(raw),
                other => match super::wide_fee::decode_wide_fee(raw) {
                    Err(located @ DecodeError::Field { .. }) => Err(located),
                    _ => Err(rlp_error(&other)),
                },
            };
        }
    };
    if !buf.is_empty() {
        return Err(DecodeError::TrailingBytes(buf.len()));
    }
    let (tx_type, signing_payload, sig) = match &env {
        Envelope::Legacy(t) => (TxType::Legacy, payload(t.tx()), *t.signature()),
        Envelope::Eip2930(t) => (TxType::Eip2930, payload(t.tx()), *t.signature()),
        Envelope::Eip1559(t) => (TxType::Eip1559, payload(t.tx()), *t.signature()),
        Envelope::Eip4844(t) => (TxType::Eip4844, payload(t.tx()), *t.signature()),
        Envelope::Eip7702(t) => (TxType::Eip7702, payload(t.tx()), *t.signature()),
    };
    let facts = TxFacts {
        nonce: env.nonce(),
        gas_limit: env.gas_limit(),
        is_create: env.kind().is_create(),
        authorizations: env.authorization_list().map_or(0, <[_]>::len),
        blob_hashes: env.blob_versioned_hashes().map_or(0, <[_]>::len),
        max_fee_per_gas: U256::from(env.max_fee_per_gas()),
        max_priority_fee_per_gas: env.max_priority_fee_per_gas().map(U256::from),
        ..TxFacts::counting(env.input(), env.access_list())
    };
    let r = sig.r().to_be_bytes::<32>();
    let s = sig.s().to_be_bytes::<32>();
    let y_parity = sig.v();
    Ok(DecodedTx::new(
        tx_type,
        env.chain_id(),
        raw,
        signing_payload,
        (r, s, y_parity),
        facts,
    ))
}

impl TxFacts {
    /// The facts with the data and access-list counts filled in, every other field zero.
    pub(super) fn counting(input: &[u8], access_list: Option<&AccessList>) -> Self {
        let (addresses, keys) = access_list.map_or((0, 0), |l| {
            (
                l.0.len(),
                l.0.iter().map(|item| item.storage_keys.len()).sum(),
            )
        });
        TxFacts {
            nonce: 0,
            gas_limit: 0,
            is_create: false,
            input_len: input.len(),
            input_zero_bytes: input.iter().filter(|&&b| b == 0).count(),
            access_list_addresses: addresses,
            access_list_keys: keys,
            authorizations: 0,
            blob_hashes: 0,
            max_fee_per_gas: U256::ZERO,
            max_priority_fee_per_gas: None,
        }
    }
}

impl DecodedTx {
    /// The decoded transaction with its two hashes: keccak256 of `raw` and of the payload.
    pub(super) fn new(
        tx_type: TxType,
        chain_id: Option<u64>,
        raw: &[u8],
        signing_payload: Vec<u8>,
        (r, s, y_parity): ([u8; 32], [u8; 32], bool),
        facts: TxFacts,
    ) -> Self {
        DecodedTx {
            tx_type,
            chain_id,
            raw: raw.to_vec(),
            tx_hash: keccak256(raw),
            signing_hash: keccak256(&signing_payload),
            signing_payload,
            r,
            s,
            y_parity,
            facts,
        }
    }
}

fn payload<T: SignableTransaction<alloy_primitives::Signature>>(tx: &T) -> Vec<u8> {
    let mut out = Vec::with_capacity(tx.payload_len_for_signature());
    tx.encode_for_signing(&mut out);
    out
}
