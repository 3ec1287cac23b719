//! Layer 3: a decoded transaction → a batch record, its signature checked by our own
//! [`crate::native`] reference (alloy's recovery is used in tests only, as a cross-check).
//!
//! With h the signing hash read mod n, r and s the transaction's, and the recovery id
//! (x(R) = r, y(R) of the transaction's y-parity; Ethereum never signs with x(R) = r + n):
//!
//! 1. 1 ≤ r, s < n (SEC 1 §4.1.4), else invalid;
//! 2. s ≤ n/2 (EIP-2) unless the policy allows high s;
//! 3. R = the curve point with x = r and that parity (none: invalid), and the sender's key
//!    Q = r⁻¹·(s·R − h·G) (ecrecover; Q = O: invalid). By construction (h/s)·G + (r/s)·Q = R,
//!    so (r, s) is a valid signature of h under Q and x(R) mod n = r;
//! 4. the sender is the last 20 bytes of keccak256(x(Q) ‖ y(Q)).
//!
//! The record is then exactly a batch-file record (hash, r, s, v = y-parity, key, address), and
//! proving is unchanged.

use crate::batch_file::SignatureRecord;
use crate::hexfmt::encode_hex;
use crate::native::encoding::fq_from_be_bytes_reduced;
use crate::native::public_key::PublicKey;
use crate::native::recover::ecrecover;
use crate::native::signature::{RecoveryId, Signature};

use super::decode::DecodedTx;
use super::rules::{check_rules, TxInvalid, TxPolicy};

/// A valid signed transaction, as the batch takes it: the decoded transaction, whose rules and
/// signature have been checked, with the key our recovery gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TxRecord {
    pub tx: DecodedTx,
    /// The recovered public key.
    pub pubkey: PublicKey,
    /// The sender: the recovered key's address.
    pub sender: [u8; 20],
}

impl TxRecord {
    /// The batch-file record: signing hash, r, s, v = recovery id (0/1), key and address.
    pub fn signature_record(&self) -> SignatureRecord {
        SignatureRecord {
            msg_hash: encode_hex(&self.tx.signing_hash),
            r: encode_hex(&self.tx.r),
            s: encode_hex(&self.tx.s),
            v: Some(u64::from(self.tx.y_parity)),
            pubkey: Some(encode_hex(&self.pubkey.to_sec1_uncompressed())),
            address: Some(encode_hex(&self.sender)),
        }
    }
}

/// Checks the rules and the signature of one decoded transaction (module doc).
pub fn check_tx(tx: DecodedTx, policy: &TxPolicy) -> Result<TxRecord, TxInvalid> {
    check_rules(&tx, policy)?;
    let sig = Signature::from_be_bytes(&tx.r, &tx.s)
        .map_err(|e| TxInvalid::SignatureRange(e.to_string()))?;
    if !policy.allow_high_s && !sig.is_low_s() {
        return Err(TxInvalid::HighS);
    }
    let h = fq_from_be_bytes_reduced(&tx.signing_hash);
    let id = RecoveryId::from_parts(tx.y_parity, false);
    let pubkey = ecrecover(&h, &sig, id).map_err(|e| TxInvalid::Recovery(e.to_string()))?;
    Ok(TxRecord {
        tx,
        sender: pubkey.address(),
        pubkey,
    })
}
