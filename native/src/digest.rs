//! The batch digest: the one public value of a digest-mode proof, and what the on-chain
//! wrapper (`batch-ecdsa-evm`'s `wrapper`) recomputes from the batch a rollup posts.
//!
//! For a batch of B signatures, with hᵢ the 32-byte signing hash of signature i and aᵢ the
//! 20-byte address of its key Qᵢ, aᵢ = keccak256(x(Qᵢ) ‖ y(Qᵢ))[12..32]
//! ([`crate::public_key::PublicKey::address`]):
//!
//! ```text
//! D = keccak256(h₀ ‖ a₀ ‖ h₁ ‖ a₁ ‖ … ‖ h_{B−1} ‖ a_{B−1})      (52·B bytes hashed)
//! ```
//!
//! Every pair has the same length (52 bytes), so the preimage parses back into exactly one
//! list of pairs: D binds B, the order of the pairs, and each hash to its address.
//!
//! The proof's instance column is D split into two field elements of 128 bits each, so
//! each fits BN254's scalar field (r ≈ 2²⁵⁴) without reduction:
//!
//! ```text
//! D_hi = D[0..16]  as a big-endian integer  (= D >> 128)
//! D_lo = D[16..32] as a big-endian integer  (= D mod 2¹²⁸)
//! ```
//!
//! and the EVM verifier reads them as two 32-byte big-endian words ([`digest_words`]): 16 zero
//! bytes, then the half.
//!
//! B = 0: the circuit and the wrapper take B ≥ 1 only (the wrapper rejects an empty batch);
//! [`batch_digest`] itself is total and gives keccak256 of the empty string for an empty
//! list, so that it is the plain definition above with no special case.

use super::hash::keccak256;

/// Bytes of an Ethereum address (a sender aᵢ).
pub const ADDRESS_BYTES: usize = 20;

/// Bytes of one pair hᵢ ‖ aᵢ in the digest's preimage.
pub const PAIR_BYTES: usize = 32 + ADDRESS_BYTES;

/// The Ethereum address of the key with big-endian affine coordinates (x, y):
/// `keccak256(x ‖ y)[12..32]` (the one definition; [`crate::public_key::PublicKey::address`]
/// and the circuits crate call it).
pub fn address_of_coordinates(x: &[u8; 32], y: &[u8; 32]) -> [u8; ADDRESS_BYTES] {
    let mut xy = [0u8; 64];
    xy[..32].copy_from_slice(x);
    xy[32..].copy_from_slice(y);
    let h = keccak256(&xy);
    let mut out = [0u8; ADDRESS_BYTES];
    out.copy_from_slice(&h[32 - ADDRESS_BYTES..]);
    out
}

/// The preimage h₀ ‖ a₀ ‖ … ‖ h_{B−1} ‖ a_{B−1} (52·B bytes).
pub fn digest_preimage(items: &[([u8; 32], [u8; 20])]) -> Vec<u8> {
    let mut buf = Vec::with_capacity(PAIR_BYTES * items.len());
    for (hash, address) in items {
        buf.extend_from_slice(hash);
        buf.extend_from_slice(address);
    }
    buf
}

/// D = keccak256 of [`digest_preimage`] for the (signing hash, address) pairs in batch order.
pub fn batch_digest(items: &[([u8; 32], [u8; 20])]) -> [u8; 32] {
    keccak256(&digest_preimage(items))
}

/// (D_hi, D_lo): D's first and last 16 bytes, each a big-endian 128-bit integer.
pub fn digest_halves(d: &[u8; 32]) -> ([u8; 16], [u8; 16]) {
    let mut hi = [0u8; 16];
    let mut lo = [0u8; 16];
    hi.copy_from_slice(&d[..16]);
    lo.copy_from_slice(&d[16..]);
    (hi, lo)
}

/// The two instance words the EVM verifier reads for D: D_hi and D_lo, each left-padded with
/// 16 zero bytes to a 32-byte big-endian word.
pub fn digest_words(d: &[u8; 32]) -> [[u8; 32]; 2] {
    let (hi, lo) = digest_halves(d);
    let mut words = [[0u8; 32]; 2];
    words[0][16..].copy_from_slice(&hi);
    words[1][16..].copy_from_slice(&lo);
    words
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::public_key::PublicKey;
    use ff::Field;
    use halo2curves::secp256k1::Fq;
    use sha3::{Digest, Keccak256};

    fn pair(seed: u8) -> ([u8; 32], [u8; 20]) {
        let mut h = [0u8; 32];
        let mut a = [0u8; 20];
        for (i, b) in h.iter_mut().enumerate() {
            *b = seed.wrapping_mul(31).wrapping_add(i as u8);
        }
        for (i, b) in a.iter_mut().enumerate() {
            *b = seed.wrapping_mul(17).wrapping_add(0x80 + i as u8);
        }
        (h, a)
    }

    /// Against sha3's Keccak-256 fed the pairs piece by piece (not through `digest_preimage`
    /// nor `native::hash`), and a fixed vector.
    #[test]
    fn known_answer() {
        // h = keccak256("a"), a = the address of secret key 1 (a well-known value).
        let h: [u8; 32] = Keccak256::digest(b"a").into();
        let a = PublicKey::from_secret(&Fq::ONE).unwrap().address();
        assert_eq!(hex::encode(a), "7e5f4552091a69125d5dfcb7b8c2659029395bdf");
        let items = [(h, a), pair(2), pair(3)];
        let mut k = Keccak256::new();
        for (h, a) in &items {
            k.update(h);
            k.update(a);
        }
        let expected: [u8; 32] = k.finalize().into();
        assert_eq!(batch_digest(&items), expected);
        // One pair: keccak256 of a hand-written 52-byte preimage.
        let hand = hex::decode(
            "3ac225168df54212a25c1c01fd35bebfea408fdac2e31ddd6f80a4bbf9a5f1cb\
             7e5f4552091a69125d5dfcb7b8c2659029395bdf",
        )
        .unwrap();
        assert_eq!(&hand[..32], &h);
        let one: [u8; 32] = Keccak256::digest(&hand).into();
        assert_eq!(batch_digest(&[(h, a)]), one);
    }

    #[test]
    fn empty_batch_is_the_empty_string_hash() {
        assert_eq!(
            hex::encode(batch_digest(&[])),
            "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"
        );
    }

    #[test]
    fn order_and_binding() {
        let items: Vec<_> = (0..4).map(pair).collect();
        let d = batch_digest(&items);
        // Two pairs swapped.
        let mut swapped = items.clone();
        swapped.swap(1, 2);
        assert_ne!(batch_digest(&swapped), d);
        // Two addresses swapped between their hashes (the pairs re-matched).
        let mut rematched = items.clone();
        let a1 = rematched[1].1;
        rematched[1].1 = rematched[2].1;
        rematched[2].1 = a1;
        assert_ne!(batch_digest(&rematched), d);
        // One bit of a hash, one bit of an address.
        let mut h = items.clone();
        h[3].0[31] ^= 1;
        assert_ne!(batch_digest(&h), d);
        let mut a = items.clone();
        a[0].1[0] ^= 0x80;
        assert_ne!(batch_digest(&a), d);
        // A prefix of the batch.
        assert_ne!(batch_digest(&items[..3]), d);
    }

    #[test]
    fn halves_and_words() {
        let d: [u8; 32] = std::array::from_fn(|i| i as u8 + 1);
        let (hi, lo) = digest_halves(&d);
        assert_eq!(
            u128::from_be_bytes(hi),
            u128::from_be_bytes(d[..16].try_into().unwrap())
        );
        assert_eq!(hi[0], 1);
        assert_eq!(lo[15], 32);
        let [w_hi, w_lo] = digest_words(&d);
        assert_eq!(&w_hi[..16], &[0u8; 16]);
        assert_eq!(&w_hi[16..], &d[..16]);
        assert_eq!(&w_lo[..16], &[0u8; 16]);
        assert_eq!(&w_lo[16..], &d[16..]);
    }
}
