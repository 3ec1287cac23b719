//! Layer 1's fallback: transactions with a fee of 2¹²⁸ wei or more.
//!
//! Ethereum's fee fields (gas price, max fee, max priority fee, max fee per blob gas) are
//! 256-bit integers, and such a transaction is well formed: ethereum/tests has valid ones
//! (`TransactionWithHighGasPrice`, `V_equals38`, `GasLimitPriceProductOverflowtMinusOne`).
//! alloy's are u128, so [`super::decode`] reports an RLP overflow for them. Only then does it
//! come here: this decoder reads the same fields with alloy-rlp, the fees as U256, and is as
//! strict as alloy's (same field types otherwise, so the same checks):
//!
//! - one RLP list (after the type byte of a typed transaction) with nothing after it;
//! - exactly the type's fields, in order, then v (legacy: 27/28 or 35 + 2·chain_id + {0, 1})
//!   or y-parity (0 or 1), r and s — no field missing, none left over;
//! - canonical integers (no leading zeros, a single byte below 0x80 as itself) no wider than
//!   their type: u64 chain id, nonce and gas limit, 256 bits for fees, value, r and s;
//!   addresses of 20 bytes (or empty `to` where a creation is allowed), 32-byte blob hashes,
//!   access and authorization lists as alloy decodes them.
//!
//! Nothing is re-serialised: the signing payload is the unsigned fields' own RLP items, byte for
//! byte, in a new list header (legacy: `rlp([nonce, gasPrice, gasLimit, to, value, data])`, or
//! with `chain_id, 0, 0` appended under EIP-155; typed: `type ‖ rlp([…fields…])`).

use alloy_eips::eip2930::AccessList;
use alloy_eips::eip7702::SignedAuthorization;
use alloy_primitives::{Address, Bytes, TxKind, B256, U256};
use alloy_rlp::{Decodable, Encodable, Header};

use super::decode::{rlp_error, DecodeError, DecodedTx, TxFacts, TxType};

/// An RLP fault and the field it is in.
type Located<T> = Result<T, (&'static str, alloy_rlp::Error)>;

/// `r`, its error tagged with the field `name`.
fn at<T>(name: &'static str, r: alloy_rlp::Result<T>) -> Located<T> {
    r.map_err(|e| (name, e))
}

/// A located fault as the user reads it: the field's name and what is wrong, in our words
/// (v and y-parity keep their own variants).
fn field_error((field, e): (&'static str, alloy_rlp::Error)) -> DecodeError {
    match rlp_error(&e) {
        DecodeError::Rlp(_) => DecodeError::Field {
            field,
            reason: describe_rlp(&e),
        },
        other => other,
    }
}

/// alloy-rlp's error in words that say what the bytes do wrong.
pub(super) fn describe_rlp(e: &alloy_rlp::Error) -> String {
    use alloy_rlp::Error as E;
    match e {
        E::Overflow => "integer wider than the field's type".into(),
        E::LeadingZero => "integer with a leading zero byte (not canonical RLP)".into(),
        E::InputTooShort => "its declared length runs past the end of the transaction".into(),
        E::NonCanonicalSingleByte => {
            "a single byte below 0x80 wrapped in a header (not canonical RLP)".into()
        }
        E::NonCanonicalSize => {
            "a length written with more bytes than it needs (not canonical RLP)".into()
        }
        E::UnexpectedLength => "wrong length for the field's type".into(),
        E::UnexpectedString => "a string where a list belongs".into(),
        E::UnexpectedList => "a list where a string belongs".into(),
        E::ListLengthMismatch { expected, got } => {
            format!("the list header declares {expected} bytes, its items take {got}")
        }
        other => other.to_string(),
    }
}

/// Decodes one raw signed transaction whose fees may be 2¹²⁸ wei or more (module doc).
/// Never panics. A fault names the field it is in ([`DecodeError::Field`]), which is why
/// [`super::decode`] also runs this on a transaction alloy refuses, to say where.
pub fn decode_wide_fee(raw: &[u8]) -> Result<DecodedTx, DecodeError> {
    let rlp = |e: alloy_rlp::Error| rlp_error(&e);
    let (tx_type, mut rest) = match *raw.first().ok_or(DecodeError::Empty)? {
        0xc0.. => (TxType::Legacy, raw),
        1 => (TxType::Eip2930, &raw[1..]),
        2 => (TxType::Eip1559, &raw[1..]),
        3 => (TxType::Eip4844, &raw[1..]),
        4 => (TxType::Eip7702, &raw[1..]),
        0 => return Err(DecodeError::TypeZero),
        t @ 0x05..=0x7f => return Err(DecodeError::UnknownType(t)),
        _ => return Err(rlp(alloy_rlp::Error::UnexpectedString)),
    };
    let list =
        Header::decode_bytes(&mut rest, true).map_err(|e| field_error(("list header", e)))?;
    if !rest.is_empty() {
        return Err(DecodeError::TrailingBytes(rest.len()));
    }
    let mut fields = list;
    let (chain_id, facts) = unsigned_fields(tx_type, &mut fields).map_err(field_error)?;
    let unsigned = &list[..list.len() - fields.len()];
    let (y_parity, chain_id) = if tx_type == TxType::Legacy {
        let v = at("v", u128::decode(&mut fields)).map_err(field_error)?;
        alloy_consensus::transaction::from_eip155_value(v)
            .ok_or_else(|| rlp(alloy_rlp::Error::Custom("invalid parity value")))?
    } else {
        (
            at("y_parity", bool::decode(&mut fields)).map_err(field_error)?,
            chain_id,
        )
    };
    let r = at("r", U256::decode(&mut fields)).map_err(field_error)?;
    let s = at("s", U256::decode(&mut fields)).map_err(field_error)?;
    let (r, s) = (r.to_be_bytes::<32>(), s.to_be_bytes::<32>());
    if !fields.is_empty() {
        return Err(DecodeError::Field {
            field: "after s",
            reason: format!(
                "{} byte(s) of items after the signature (the type has no more fields)",
                fields.len()
            ),
        });
    }
    // EIP-155 signs [chain_id, 0, 0] after the six fields.
    let mut eip155 = Vec::new();
    if let (TxType::Legacy, Some(id)) = (tx_type, chain_id) {
        id.encode(&mut eip155);
        eip155.extend([alloy_rlp::EMPTY_STRING_CODE; 2]);
    }
    let mut payload = Vec::with_capacity(unsigned.len() + eip155.len() + 10);
    if tx_type != TxType::Legacy {
        payload.push(tx_type.byte());
    }
    Header {
        list: true,
        payload_length: unsigned.len() + eip155.len(),
    }
    .encode(&mut payload);
    payload.extend_from_slice(unsigned);
    payload.extend_from_slice(&eip155);
    Ok(DecodedTx::new(
        tx_type,
        chain_id,
        raw,
        payload,
        (r, s, y_parity),
        facts,
    ))
}

/// The fields before the signature, in the type's order: the chain id of a typed transaction
/// and the facts the rules read.
fn unsigned_fields(tx_type: TxType, d: &mut &[u8]) -> Located<(Option<u64>, TxFacts)> {
    let typed = tx_type != TxType::Legacy;
    let chain_id = if typed {
        Some(at("chain_id", u64::decode(d))?)
    } else {
        None
    };
    let nonce = at("nonce", u64::decode(d))?;
    let (max_priority_fee_per_gas, max_fee_per_gas) = match tx_type {
        TxType::Legacy | TxType::Eip2930 => (None, at("gas_price", U256::decode(d))?),
        _ => (
            Some(at("max_priority_fee_per_gas", U256::decode(d))?),
            at("max_fee_per_gas", U256::decode(d))?,
        ),
    };
    let gas_limit = at("gas_limit", u64::decode(d))?;
    // EIP-4844 and EIP-7702 transactions cannot create: their `to` is an address.
    let is_create = match tx_type {
        TxType::Eip4844 | TxType::Eip7702 => at("to", Address::decode(d)).map(|_| false)?,
        _ => at("to", TxKind::decode(d))?.is_create(),
    };
    at("value", U256::decode(d))?;
    let input = at("input", Bytes::decode(d))?;
    let access_list = if typed {
        Some(at("access_list", AccessList::decode(d))?)
    } else {
        None
    };
    let (mut blob_hashes, mut authorizations) = (0, 0);
    match tx_type {
        TxType::Eip4844 => {
            at("max_fee_per_blob_gas", U256::decode(d))?;
            blob_hashes = at("blob_versioned_hashes", Vec::<B256>::decode(d))?.len();
        }
        TxType::Eip7702 => {
            authorizations = at("authorization_list", Vec::<SignedAuthorization>::decode(d))?.len()
        }
        _ => {}
    }
    let facts = TxFacts {
        nonce,
        gas_limit,
        is_create,
        authorizations,
        blob_hashes,
        max_fee_per_gas,
        max_priority_fee_per_gas,
        ..TxFacts::counting(&input, access_list.as_ref())
    };
    Ok((chain_id, facts))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::txs::decode_signed_tx;

    /// A legacy transaction with the given gas price item (its RLP bytes) and trailing items,
    /// v = 27 and r = s = 1.
    fn legacy(gas_price: &[u8], extra: &[u8]) -> Vec<u8> {
        let mut fields = vec![0x80]; // nonce 0
        fields.extend_from_slice(gas_price);
        fields.extend_from_slice(&[0x82, 0x52, 0x08]); // gas limit 21000
        fields.push(0x94); // to: 20 bytes
        fields.extend_from_slice(&[0x11; 20]);
        fields.extend_from_slice(&[0x80, 0x80]); // value 0, no data
        fields.extend_from_slice(&[27, 1, 1]); // v, r, s
        fields.extend_from_slice(extra);
        let mut raw = Vec::new();
        Header {
            list: true,
            payload_length: fields.len(),
        }
        .encode(&mut raw);
        raw.extend_from_slice(&fields);
        raw
    }

    /// 2¹²⁸ as an RLP item: 0x91 then 0x01 and 16 zero bytes.
    fn two_128() -> Vec<u8> {
        let mut item = vec![0x91, 0x01];
        item.extend_from_slice(&[0; 16]);
        item
    }

    #[test]
    fn wide_fee_decodes_with_its_own_payload() {
        let raw = legacy(&two_128(), &[]);
        let tx = decode_signed_tx(&raw).unwrap();
        assert_eq!(tx.facts.max_fee_per_gas, U256::from(1) << 128);
        assert_eq!((tx.chain_id, tx.y_parity), (None, false));
        // The payload is the six unsigned items in a new list: the raw list less v, r and s.
        let items = &raw[1..raw.len() - 3];
        assert_eq!(tx.signing_payload[1..], *items);
        assert_eq!(tx.signing_payload[0], 0xc0 + items.len() as u8);
        assert_eq!(tx.r[31], 1);
    }

    /// On transactions alloy decodes (demo ones of every type), the same result as alloy's.
    #[test]
    fn wide_fee_agrees_with_alloy() {
        let raw = crate::txs::demo::demo_txs(20, 7, 1).unwrap();
        let mut types = std::collections::BTreeSet::new();
        for t in &raw {
            let tx = decode_signed_tx(t).unwrap();
            types.insert(tx.tx_type.byte());
            assert_eq!(decode_wide_fee(t).unwrap(), tx);
        }
        assert_eq!(types.len(), 5);
    }

    /// Exactly as strict as alloy: each fault is rejected, by the fallback itself.
    #[test]
    fn wide_fee_strictness() {
        let fee = two_128();
        let bad = |raw: Vec<u8>| {
            assert!(decode_wide_fee(&raw).is_err(), "{}", hex::encode(&raw));
            decode_signed_tx(&raw).unwrap_err()
        };
        // A leading zero on the fee: non-canonical.
        let mut zero_led = vec![0x92, 0x00];
        zero_led.extend_from_slice(&fee[1..]);
        assert!(matches!(
            bad(legacy(&zero_led, &[])),
            DecodeError::Field { field: "gas_price", reason } if reason.contains("leading zero")
        ));
        // A trailing byte after the list.
        let mut trailing = legacy(&fee, &[]);
        trailing.push(0x80);
        assert_eq!(bad(trailing), DecodeError::TrailingBytes(1));
        // A tenth field, or a field missing (s).
        assert!(matches!(
            bad(legacy(&fee, &[0x80])),
            DecodeError::Field {
                field: "after s",
                ..
            }
        ));
        let mut short = legacy(&fee, &[]);
        short.pop();
        short[0] -= 1;
        assert!(matches!(bad(short), DecodeError::Field { field: "s", .. }));
        // A fee over 256 bits, and v neither 27/28 nor EIP-155's.
        let mut wide = vec![0xa1, 0x01];
        wide.extend_from_slice(&[0; 32]);
        assert!(matches!(
            bad(legacy(&wide, &[])),
            DecodeError::Field { field: "gas_price", reason } if reason.contains("wider than")
        ));
        let mut v29 = legacy(&fee, &[]);
        let at = v29.len() - 3;
        v29[at] = 29;
        assert_eq!(bad(v29), DecodeError::LegacyV);
    }
}
