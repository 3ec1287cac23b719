//! The canonical filler: the signature that pads a batch of `n < B` signatures to the `B` a
//! proving key was made for, so that one key proves every batch size up to B.
//!
//! **What it is.** A fixed, valid ECDSA signature, computed here and nowhere else, from three
//! public constants: the key `d_f = keccak256("batch-ecdsa filler key") mod n`, the hash
//! `h_f = keccak256("batch-ecdsa filler slot")` and the nonce
//! `k_f = keccak256("batch-ecdsa filler nonce") mod n` (its s made low by taking `n − s` when
//! needed, with the recovery id's parity flipped, so the EIP-2 policy accepts it too). Its key
//! and address are [`Filler::public_key`] and [`Filler::address`].
//!
//! **Why padding with it is sound.** The circuits check every one of the B slots as a
//! signature, filler slots included: a slot can only hold a valid signature, so a filler slot
//! cannot hide an invalid real one. What the proof states for each slot (the keys statement's
//! `(h mod n, Q)`, the digest statement's `(h, address)` inside D) is public, and a verifier
//! compares a proof against the `n` entries it holds *and* requires every slot after them to
//! state exactly the filler's values `(h_f, a_f)`: a real entry cannot be passed off as filler
//! (a slot states filler only if it is exactly `(h_f, a_f)`), and a filler slot cannot be
//! counted as a real entry the caller does not hold. The filler's secret key is public on
//! purpose: padding uses it only to sign `h_f`, and no proof depends on it being secret, but
//! anyone can sign anything with it, so **treat its address as an account anyone controls**
//! (an entry from it proves nothing about who wrote it). Posting the filler pair itself as the
//! last entry states the same slots as one entry fewer.

use std::sync::OnceLock;

use halo2curves::secp256k1::Fq;

use crate::digest::ADDRESS_BYTES;
use crate::ecdsa::sign;
use crate::encoding::{fq_from_be_bytes_reduced, fq_to_be_bytes};
use crate::hash::keccak256;
use crate::public_key::PublicKey;

/// The canonical filler signature (module doc).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Filler {
    /// `h_f`, the 32-byte hash it signs.
    pub hash: [u8; 32],
    /// r and s, big-endian (s low).
    pub r: [u8; 32],
    pub s: [u8; 32],
    /// The recovery id (0 or 1).
    pub recovery_id: u8,
    pub public_key: PublicKey,
    pub address: [u8; ADDRESS_BYTES],
}

/// The filler (computed once).
pub fn filler() -> &'static Filler {
    static FILLER: OnceLock<Filler> = OnceLock::new();
    FILLER.get_or_init(|| {
        let d = fq_from_be_bytes_reduced(&keccak256(b"batch-ecdsa filler key"));
        let hash = keccak256(b"batch-ecdsa filler slot");
        let k = fq_from_be_bytes_reduced(&keccak256(b"batch-ecdsa filler nonce"));
        let public_key = PublicKey::from_secret(&d).expect("a non-zero key");
        let (sig, id, _) =
            sign(&d, &fq_from_be_bytes_reduced(&hash), &k).expect("a non-zero nonce");
        let (s, flip) = if sig.is_low_s() {
            (sig.s(), false)
        } else {
            (-sig.s(), true)
        };
        let recovery_id = id.to_u8() ^ u8::from(flip);
        Filler {
            hash,
            r: fq_to_be_bytes(&sig.r()),
            s: fq_to_be_bytes(&s),
            recovery_id,
            address: public_key.address(),
            public_key,
        }
    })
}

/// The hash the circuits check for the filler: `h_f mod n`.
pub fn filler_scalar() -> Fq {
    fq_from_be_bytes_reduced(&filler().hash)
}

/// The digest statement's (signing hash, address) pairs of a batch of `items.len() = n`
/// signatures padded to `b` slots: the n pairs, then `b − n` filler pairs `(h_f, a_f)`, as the
/// prover pads the batch and the digest wrapper pads what a caller posts (D is `batch_digest`
/// of these). `None` when `n > b`.
pub fn padded_pairs(
    items: &[([u8; 32], [u8; ADDRESS_BYTES])],
    b: usize,
) -> Option<Vec<([u8; 32], [u8; ADDRESS_BYTES])>> {
    let missing = b.checked_sub(items.len())?;
    let f = filler();
    let mut out = items.to_vec();
    out.extend(std::iter::repeat_n((f.hash, f.address), missing));
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ecdsa::verify;
    use crate::recover::ecrecover;
    use crate::signature::{RecoveryId, Signature};

    #[test]
    fn the_filler_is_a_valid_low_s_signature_whose_key_recovers() {
        let f = filler();
        let sig = Signature::from_be_bytes(&f.r, &f.s).unwrap();
        assert!(sig.is_low_s());
        let h = filler_scalar();
        verify(&f.public_key, &h, &sig).unwrap();
        let (id, _) = RecoveryId::from_v(u64::from(f.recovery_id)).unwrap();
        assert_eq!(ecrecover(&h, &sig, id).unwrap(), f.public_key);
        assert_eq!(f.address, f.public_key.address());
        // Deterministic: the same on every call.
        assert_eq!(filler(), filler());
    }

    #[test]
    fn padded_pairs_append_the_filler_and_refuse_more_than_b() {
        let f = filler();
        let a = ([1u8; 32], [2u8; ADDRESS_BYTES]);
        assert_eq!(
            padded_pairs(&[a], 3).unwrap(),
            vec![a, (f.hash, f.address), (f.hash, f.address)]
        );
        assert_eq!(padded_pairs(&[a, a], 2).unwrap(), vec![a, a]);
        assert_eq!(padded_pairs(&[a, a], 1), None);
    }
}
