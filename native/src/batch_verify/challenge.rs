//! The batch challenge `t` (Fiat–Shamir, computed by the verifier over the whole batch).

use super::BatchItem;
use ff::{Field, PrimeField};
use halo2curves::secp256k1::{Fp, Fq};
use sha3::{Digest, Keccak256};

/// Domain-separation tag hashed first into every batch challenge.
pub const BATCH_CHALLENGE_DOMAIN: &[u8] = b"batch-ecdsa/native/batch-challenge/v1";

pub(crate) fn fp_be_bytes(x: &Fp) -> [u8; 32] {
    let mut b = x.to_repr();
    b.reverse();
    b
}

pub(crate) fn fq_be_bytes(x: &Fq) -> [u8; 32] {
    let mut b = x.to_repr();
    b.reverse();
    b
}

/// A 32-byte big-endian integer reduced mod n (n > 2^255, so at most one subtraction).
fn fq_from_be_reduced(be: &[u8; 32]) -> Fq {
    let mut le = [0u8; 64];
    for (dst, src) in le.iter_mut().zip(be.iter().rev()) {
        *dst = *src;
    }
    <Fq as ff::FromUniformBytes<64>>::from_uniform_bytes(&le)
}

/// `t = Keccak-256(DOMAIN ‖ B ‖ for each item: R.x ‖ R.y ‖ s ‖ h ‖ Q.x ‖ Q.y) mod n`, with `B`
/// as 8 bytes and every field element as 32 bytes, all big-endian. If that is zero (probability
/// about 2^-256), `t = Keccak-256(same input ‖ ctr) mod n` for `ctr = 1, 2, …` (4 bytes,
/// big-endian) until non-zero. Items are hashed as given, without any validation.
pub fn batch_challenge(items: &[BatchItem]) -> Fq {
    let mut hasher = Keccak256::new();
    hasher.update(BATCH_CHALLENGE_DOMAIN);
    hasher.update((items.len() as u64).to_be_bytes());
    for item in items {
        hasher.update(fp_be_bytes(&item.r_point.x));
        hasher.update(fp_be_bytes(&item.r_point.y));
        hasher.update(fq_be_bytes(&item.s));
        hasher.update(fq_be_bytes(&item.h));
        hasher.update(fp_be_bytes(&item.q.x));
        hasher.update(fp_be_bytes(&item.q.y));
    }
    let digest: [u8; 32] = hasher.clone().finalize().into();
    let t = fq_from_be_reduced(&digest);
    if !bool::from(t.is_zero()) {
        return t;
    }
    let mut ctr: u32 = 1;
    loop {
        let mut h = hasher.clone();
        h.update(ctr.to_be_bytes());
        let digest: [u8; 32] = h.finalize().into();
        let t = fq_from_be_reduced(&digest);
        if !bool::from(t.is_zero()) {
            return t;
        }
        ctr = ctr.wrapping_add(1);
    }
}

/// `x mod n` for a base-field element (`p < 2n`, so this is `x` or `x − n`).
pub(crate) fn fp_to_fq_reduced(x: &Fp) -> Fq {
    fq_from_be_reduced(&fp_be_bytes(x))
}
