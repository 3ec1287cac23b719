//! Deterministic demo batches (`gen-batch`, and `prove` with no `--batch`).
//!
//! Signature i of seed S: secret key dᵢ, nonce kᵢ drawn from ChaCha20 seeded with S (k ≠ 0 and
//! d ≠ 0 are ensured by drawing again), message hash hᵢ = keccak256("batch-ecdsa demo S i"),
//! signed natively. A corrupted signature keeps its form (hex, ranges, key and v are all well
//! formed) but gets another message hash, so it is *invalid*, not malformed.

use ff::Field;
use halo2curves::secp256k1::Fq;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;

use crate::batch_file::{BatchRecords, SignatureRecord};
use crate::hexfmt::encode_hex;
use crate::native::ecdsa::sign;
use crate::native::encoding::{fq_from_be_bytes_reduced, fq_to_be_bytes};
use crate::native::hash::keccak256;
use crate::native::public_key::PublicKey;

/// Error of [`demo_batch`]: the arguments make no batch.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DemoError {
    #[error("--count must be at least 1")]
    Empty,
    #[error("--corrupt index {index} is out of range for a batch of {count}")]
    CorruptOutOfRange { index: usize, count: usize },
}

fn nonzero_scalar(rng: &mut ChaCha20Rng) -> Fq {
    loop {
        let x = Fq::random(&mut *rng);
        if !bool::from(x.is_zero()) {
            return x;
        }
    }
}

/// A batch of `count` valid signatures from `seed`, with the signatures at `corrupt` made
/// invalid. Every record carries `msg_hash`, `r`, `s`, `v` (0/1), `pubkey` (uncompressed) and
/// `address`.
pub fn demo_batch(count: usize, seed: u64, corrupt: &[usize]) -> Result<BatchRecords, DemoError> {
    if count == 0 {
        return Err(DemoError::Empty);
    }
    if let Some(&index) = corrupt.iter().find(|&&i| i >= count) {
        return Err(DemoError::CorruptOutOfRange { index, count });
    }
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let mut signatures = Vec::with_capacity(count);
    for i in 0..count {
        let d = nonzero_scalar(&mut rng);
        let k = nonzero_scalar(&mut rng);
        let key = PublicKey::from_secret(&d).expect("d is non-zero");
        let msg_hash = keccak256(format!("batch-ecdsa demo {seed} {i}").as_bytes());
        let h = fq_from_be_bytes_reduced(&msg_hash);
        // r = 0 or s = 0 happens with probability ~2^-255 per draw; a new nonce is drawn then.
        let (sig, id) = {
            let mut k = k;
            loop {
                if let Ok((sig, id, _)) = sign(&d, &h, &k) {
                    break (sig, id);
                }
                k = nonzero_scalar(&mut rng);
            }
        };
        let signed_hash = if corrupt.contains(&i) {
            keccak256(&msg_hash)
        } else {
            msg_hash
        };
        signatures.push(SignatureRecord {
            msg_hash: encode_hex(&signed_hash),
            r: encode_hex(&fq_to_be_bytes(&sig.r())),
            s: encode_hex(&fq_to_be_bytes(&sig.s())),
            v: Some(u64::from(id.to_u8())),
            pubkey: Some(encode_hex(&key.to_sec1_uncompressed())),
            address: Some(encode_hex(&key.address())),
        });
    }
    Ok(BatchRecords { signatures })
}
