//! Ethereum L1 pricing rules for data, one function per rule.
//!
//! Every function here is a pure formula over byte counts; the cost model in
//! [`super::model`] decides which bytes go where. Sources:
//!
//! - EIP-2028 (Istanbul): calldata costs 16 gas per non-zero byte and 4 gas per zero byte.
//! - EIP-7623 (Pectra, 2025-05-07): with `tokens = zero + 4·nonzero`, a transaction pays
//!   `21000 + max(4·tokens + execution_gas, 10·tokens)`, i.e. at least 10 / 40 gas per zero /
//!   non-zero byte unless its execution gas lifts it off that floor.
//! - EIP-4844 (Dencun): a blob holds 4096 × 32 = 131,072 bytes and costs 2^17 blob gas, priced
//!   at the blob base fee (a separate market from the execution gas price).

use serde::Serialize;

/// Intrinsic gas of every transaction (EIP-2028 / EIP-7623 formulas both start from it).
pub const TX_BASE_GAS: u64 = 21_000;
/// EIP-2028: gas per non-zero calldata byte.
pub const CALLDATA_NONZERO_BYTE_GAS: u64 = 16;
/// EIP-2028: gas per zero calldata byte.
pub const CALLDATA_ZERO_BYTE_GAS: u64 = 4;
/// EIP-7623: a non-zero byte counts as this many tokens (a zero byte as one).
pub const TOKENS_PER_NONZERO_BYTE: u64 = 4;
/// EIP-7623: standard cost per token (4 × 4 = 16 per non-zero byte, as EIP-2028).
pub const STANDARD_TOKEN_GAS: u64 = 4;
/// EIP-7623: floor cost per token (10 per zero byte, 40 per non-zero byte).
pub const FLOOR_TOKEN_GAS: u64 = 10;
/// EIP-4844: bytes in one blob (4096 field elements × 32 bytes).
pub const BLOB_BYTES: u64 = 131_072;
/// EIP-4844: blob gas charged per blob (2^17).
pub const GAS_PER_BLOB: u64 = 1 << 17;

/// A payload described only by how many of its bytes are zero and non-zero: that is all the
/// calldata rules look at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct ByteCounts {
    pub zero: u64,
    pub nonzero: u64,
}

impl ByteCounts {
    /// A payload whose bytes are all non-zero.
    pub fn nonzero(n: u64) -> Self {
        ByteCounts {
            zero: 0,
            nonzero: n,
        }
    }

    pub fn total(&self) -> u64 {
        self.zero + self.nonzero
    }

    /// Concatenation of two payloads.
    pub fn plus(self, other: ByteCounts) -> Self {
        ByteCounts {
            zero: self.zero + other.zero,
            nonzero: self.nonzero + other.nonzero,
        }
    }
}

/// EIP-2028 data gas: `16·nonzero + 4·zero` (without the 21,000 base).
pub fn eip2028_data_gas(bytes: ByteCounts) -> u64 {
    CALLDATA_NONZERO_BYTE_GAS * bytes.nonzero + CALLDATA_ZERO_BYTE_GAS * bytes.zero
}

/// EIP-7623 tokens: `zero + 4·nonzero`.
pub fn eip7623_tokens(bytes: ByteCounts) -> u64 {
    bytes.zero + TOKENS_PER_NONZERO_BYTE * bytes.nonzero
}

/// EIP-7623 gas used by a whole transaction carrying `bytes` of calldata and spending
/// `execution_gas` on execution: `21000 + max(4·tokens + execution_gas, 10·tokens)`.
pub fn eip7623_tx_gas(bytes: ByteCounts, execution_gas: u64) -> u64 {
    let tokens = eip7623_tokens(bytes);
    let standard = STANDARD_TOKEN_GAS * tokens + execution_gas;
    let floor = FLOOR_TOKEN_GAS * tokens;
    TX_BASE_GAS + standard.max(floor)
}

/// Blobs needed for `bytes` when each blob carries `usable_per_blob` payload bytes
/// (131,072 when every byte of every field element is used; OP Stack packs 130,044).
/// Zero bytes need zero blobs. `usable_per_blob` must be non-zero (checked by the caller's
/// parameter validation); a zero is treated as one to stay panic-free.
pub fn blobs_needed(bytes: u64, usable_per_blob: u64) -> u64 {
    bytes.div_ceil(usable_per_blob.max(1))
}

/// Blob gas for `bytes` when the poster pays whole blobs (`blobs_needed × 2^17`).
pub fn blob_gas_whole(bytes: u64, usable_per_blob: u64) -> u64 {
    blobs_needed(bytes, usable_per_blob) * GAS_PER_BLOB
}

/// Blob gas for `bytes` charged pro rata, as for a rollup whose blobs are full anyway:
/// `ceil(bytes · 2^17 / usable_per_blob)` (so 65 bytes at 130,044 usable bytes per blob cost
/// 66 blob gas, 65.5 before rounding).
pub fn blob_gas_prorata(bytes: u64, usable_per_blob: u64) -> u64 {
    let num = u128::from(bytes) * u128::from(GAS_PER_BLOB);
    let den = u128::from(usable_per_blob.max(1));
    // bytes ≤ u64::MAX and GAS_PER_BLOB / usable ≤ 2^17, so the quotient can exceed u64 only
    // for absurd inputs; saturate rather than wrap.
    u64::try_from(num.div_ceil(den)).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eip2028_prices_nonzero_and_zero_bytes() {
        assert_eq!(eip2028_data_gas(ByteCounts::nonzero(64 * 200)), 204_800);
        assert_eq!(
            eip2028_data_gas(ByteCounts {
                zero: 10,
                nonzero: 0
            }),
            40
        );
        assert_eq!(
            eip2028_data_gas(ByteCounts {
                zero: 3,
                nonzero: 2
            }),
            12 + 32
        );
    }

    #[test]
    fn eip7623_floor_binds_without_execution() {
        // 100 non-zero bytes: 400 tokens; standard 1,600 < floor 4,000.
        let b = ByteCounts::nonzero(100);
        assert_eq!(eip7623_tokens(b), 400);
        assert_eq!(eip7623_tx_gas(b, 0), 21_000 + 4_000);
        // Zero bytes: 10 gas each on the floor.
        assert_eq!(
            eip7623_tx_gas(
                ByteCounts {
                    zero: 100,
                    nonzero: 0
                },
                0
            ),
            21_000 + 1_000
        );
        // Mixed: tokens = 7 + 4·5 = 27 → floor 270.
        assert_eq!(
            eip7623_tx_gas(
                ByteCounts {
                    zero: 7,
                    nonzero: 5
                },
                0
            ),
            21_000 + 270
        );
    }

    #[test]
    fn eip7623_execution_lifts_off_the_floor() {
        let b = ByteCounts::nonzero(100); // 400 tokens: standard 1,600 + exec, floor 4,000
                                          // exec < 6·tokens = 2,400: the floor still binds.
        assert_eq!(eip7623_tx_gas(b, 2_399), 21_000 + 4_000);
        // exec = 6·tokens: both sides equal.
        assert_eq!(eip7623_tx_gas(b, 2_400), 21_000 + 4_000);
        // exec > 6·tokens: standard pricing (16 gas per non-zero byte) plus execution.
        assert_eq!(eip7623_tx_gas(b, 2_401), 21_000 + 1_600 + 2_401);
        assert_eq!(eip7623_tx_gas(b, 350_000), 21_000 + 1_600 + 350_000);
        // Empty calldata: only the base and execution.
        assert_eq!(eip7623_tx_gas(ByteCounts::default(), 5), 21_005);
    }

    #[test]
    fn blob_counting_rounds_up() {
        assert_eq!(blobs_needed(0, BLOB_BYTES), 0);
        assert_eq!(blobs_needed(1, BLOB_BYTES), 1);
        assert_eq!(blobs_needed(131_072, BLOB_BYTES), 1);
        assert_eq!(blobs_needed(131_073, BLOB_BYTES), 2);
        assert_eq!(blobs_needed(130_045, 130_044), 2);
        assert_eq!(blob_gas_whole(1, BLOB_BYTES), 131_072);
        assert_eq!(blob_gas_whole(131_073, BLOB_BYTES), 262_144);
    }

    #[test]
    fn prorata_blob_gas_is_bytes_when_blobs_are_fully_used() {
        assert_eq!(blob_gas_prorata(64, BLOB_BYTES), 64);
        assert_eq!(blob_gas_prorata(0, BLOB_BYTES), 0);
        // 65 bytes in OP-packed blobs: 65 · 131072 / 130044 = 65.51… → 66.
        assert_eq!(blob_gas_prorata(65, 130_044), 66);
        // 200 × 65 bytes: 13,102.47… → 13,103.
        assert_eq!(blob_gas_prorata(13_000, 130_044), 13_103);
    }
}
