//! Ethereum L1 limits a batch runs into, and the precompile prices the model uses.
//!
//! - EIP-7825 (Fusaka): a transaction's gas limit is capped at 2^24 = 16,777,216 gas, so a
//!   batch whose transaction would use more must be split.
//! - EIP-7594 (PeerDAS, Fusaka): a transaction carries at most 6 blobs.
//! - BPO2 (the second blob-parameter-only fork after Fusaka, EIP-7892): 14 blobs per block
//!   target, 21 maximum.
//! - EIP-170: a contract's runtime code is at most 24,576 bytes (a verifier above it cannot be
//!   deployed as one contract).
//! - EIP-4844: the point-evaluation precompile (0x0a) costs 50,000 gas; it is how a contract
//!   checks a claimed evaluation of a blob's polynomial against the blob's versioned hash.
//! - Yellow paper / EIP-2929: `ecrecover` (precompile 0x01) costs 3,000 gas; a `STATICCALL`
//!   to a precompile pays the warm account access, 100 gas.

use serde::Serialize;

/// EIP-7825: most gas one transaction may use.
pub const TX_GAS_LIMIT_CAP: u64 = 1 << 24;
/// EIP-7594: most blobs one transaction may carry.
pub const MAX_BLOBS_PER_TX: u64 = 6;
/// BPO2: blobs per block, target.
pub const BLOB_TARGET_PER_BLOCK: u64 = 14;
/// BPO2: blobs per block, maximum.
pub const MAX_BLOBS_PER_BLOCK: u64 = 21;
/// EIP-170: most bytes of runtime code a contract may have.
pub const MAX_CODE_BYTES: u64 = 24_576;
/// EIP-4844: gas of the point-evaluation precompile.
pub const POINT_EVALUATION_GAS: u64 = 50_000;
/// `ecrecover` precompile gas.
pub const ECRECOVER_GAS: u64 = 3_000;
/// Bytes of one signature as `ecrecover` takes it: r, s and v.
pub const ECRECOVER_SIGNATURE_BYTES: u64 = 65;

/// Whether one transaction carrying a path's payload stays inside the L1 limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Fit {
    /// Gas the whole transaction uses, the 21,000 base included.
    pub tx_gas: u64,
    /// Blobs it carries.
    pub blobs: u64,
    /// `tx_gas ≤ 2^24` and `blobs ≤ 6`.
    pub one_tx: bool,
    /// `blobs ≤ 21`: the blobs fit one block at all.
    pub one_block: bool,
}

impl Fit {
    pub fn new(tx_gas: u64, blobs: u64) -> Self {
        Fit {
            tx_gas,
            blobs,
            one_tx: tx_gas <= TX_GAS_LIMIT_CAP && blobs <= MAX_BLOBS_PER_TX,
            one_block: blobs <= MAX_BLOBS_PER_BLOCK,
        }
    }
}

/// Largest `n` in `1..=bound` with `fits(n)`, for a `fits` that is true up to some point and
/// false after it (binary search); `None` when even `n = 1` does not fit.
pub fn largest_fitting(bound: u64, fits: impl Fn(u64) -> bool) -> Option<u64> {
    if bound == 0 || !fits(1) {
        return None;
    }
    let (mut lo, mut hi) = (1u64, bound); // fits(lo) holds; the answer is in lo..=hi
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if fits(mid) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    Some(lo)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_checks_gas_cap_and_blob_counts() {
        assert!(Fit::new(TX_GAS_LIMIT_CAP, 6).one_tx);
        assert!(!Fit::new(TX_GAS_LIMIT_CAP + 1, 0).one_tx);
        assert!(!Fit::new(21_000, 7).one_tx);
        assert!(Fit::new(21_000, 21).one_block);
        assert!(!Fit::new(21_000, 22).one_block);
    }

    #[test]
    fn largest_fitting_finds_the_edge() {
        assert_eq!(largest_fitting(1_000, |n| n <= 377), Some(377));
        assert_eq!(largest_fitting(1_000, |n| n <= 5_000), Some(1_000));
        assert_eq!(largest_fitting(1_000, |_| false), None);
        assert_eq!(largest_fitting(1, |n| n == 1), Some(1));
    }
}
