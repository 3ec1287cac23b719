//! Which statement the batch proof makes public, and so what the proof path posts beside the
//! proof and what runs on chain besides the verifier.
//!
//! - **keys** (the first statement): each signature's signing hash and public key are public
//!   inputs, three field elements a signature, each a 32-byte word of the verifier's calldata.
//!   The proof path posts the proof, those words and a sender per signature; L1 runs the
//!   verifier only. An EVM bench row with no `statement` field is a keys row.
//! - **digest** (the rollup statement, the default): the only public input is
//!   `D = keccak256(h₀ ‖ a₀ ‖ … ‖ h_{B−1} ‖ a_{B−1})` (hᵢ the signing hash, aᵢ the sender's
//!   address), two field elements. A rollup does not post D: it calls the digest wrapper
//!   (`evm/contracts/BatchEcdsaWrapper.sol`) with what it posts anyway, the signing payloads
//!   and the senders, and the wrapper hashes each payload, computes D with the EVM's keccak
//!   and calls the verifier with `D_hi ‖ D_lo ‖ proof`. The proof path therefore posts the
//!   proof, a sender per signature and, per payload, the wrapper's
//!   [`PAYLOAD_LENGTH_PREFIX_BYTES`]-byte length prefix (`verifyTransactions` takes the
//!   payloads as one `bytes` of length-prefixed entries). The signature path has no such bytes:
//!   a signed transaction's RLP encoding is self-delimiting. L1 runs the verifier and the
//!   wrapper ([`super::wrapper_gas`]), whose gas grows with B.
//!
//! A bridge or committee checks signatures over messages it already holds, so its proof path
//! uses the wrapper's `verifyHashes` (fixed 32-byte hashes, no length prefixes; the hashes are
//! posted on both paths and left out, as `ecrecover` takes them too).

pub use batch_ecdsa_circuits::ecdsa::Statement;

/// Bytes of the digest wrapper's length prefix before each payload in `verifyTransactions`'
/// `payloads` (3, big-endian; `LENGTH_PREFIX_BYTES` in `evm/src/wrapper.rs`). The embedded
/// wrapper measurement is checked against it ([`super::wrapper_gas::WrapperGas::parse`]).
pub const PAYLOAD_LENGTH_PREFIX_BYTES: u64 = 3;

/// The statement of an EVM bench row's `statement` field (absent: keys).
pub fn of_field(field: Option<&str>) -> Result<Statement, String> {
    match field {
        None => Ok(Statement::Keys),
        Some(s) => s.parse(),
    }
}

/// Framing bytes per signature the rollup's proof path posts besides the sender.
pub fn framing_bytes(statement: Statement) -> u64 {
    match statement {
        Statement::Keys => 0,
        Statement::Digest => PAYLOAD_LENGTH_PREFIX_BYTES,
    }
}

/// What the statement means for the cost model, in a line of the cost table.
pub fn describe(statement: Statement) -> &'static str {
    match statement {
        Statement::Keys => {
            "keys (each signature's hash and key as public-input words beside the proof)"
        }
        Statement::Digest => {
            "digest (one digest D of the hashes and senders, recomputed on chain by the digest \
             wrapper; not posted)"
        }
    }
}

/// Serialises an optional statement as its name (`"keys"`, `"digest"`) or null.
pub(crate) fn serialize_opt<S: serde::Serializer>(
    statement: &Option<Statement>,
    ser: S,
) -> Result<S::Ok, S::Error> {
    match statement {
        Some(s) => ser.serialize_some(s.as_str()),
        None => ser.serialize_none(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_field_reads_absent_as_keys() {
        assert_eq!(of_field(None), Ok(Statement::Keys));
        assert_eq!(of_field(Some("keys")), Ok(Statement::Keys));
        assert_eq!(of_field(Some("digest")), Ok(Statement::Digest));
        assert!(of_field(Some("Digest")).is_err());
        assert_eq!(framing_bytes(Statement::Keys), 0);
        assert_eq!(framing_bytes(Statement::Digest), 3);
    }
}
