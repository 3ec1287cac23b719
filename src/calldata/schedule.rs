//! Ethereum L1 pricing rules for data, one function per rule.
//!
//! Every function here is a pure formula over byte counts; the cost model in
//! [`super::model`] decides which bytes go where. Sources:
//!
//! - EIP-2028 (Istanbul): calldata costs 16 gas per non-zero byte and 4 gas per zero byte.
//! - EIP-7623 (Pectra, 2025-05-07): with `tokens = zero + 4·nonzero`, a transaction pays
//!   `21000 + max(4·tokens + execution_gas, 10·tokens)`, i.e. at least 10 / 40 gas per zero /
//!   non-zero byte unless its execution gas lifts it off that floor. `4·tokens` is exactly the
//!   EIP-2028 data gas.
//! - EIP-7976 (proposed for Glamsterdam, in Last Call): the same formula with the floor at 64
//!   gas per calldata byte, zero or not (`16 · 4·(zero + nonzero)`); the standard side stays
//!   at EIP-2028's 16 / 4.
//! - EIP-4844 (Dencun): a blob is 4096 field elements of 32 bytes (131,072 bytes) and costs
//!   2^17 blob gas, priced at the blob base fee (a separate market from the execution gas).
//!   Each field element must be below the BLS12-381 scalar modulus (≈ 2^254.86), so it carries
//!   254 free bits: at most 4096 · 254 / 8 = 130,048 payload bytes per blob. The OP Stack's
//!   blob encoding packs 4 field elements into 127 bytes and spends 4 bytes on a version and
//!   a length: 1024 · 127 − 4 = 130,044 bytes, this model's default.
//! - EIP-7918 (Fusaka): the blob base fee's update rule stops lowering it while
//!   `BLOB_BASE_COST · base_fee_per_gas > GAS_PER_BLOB · blob_base_fee`, with
//!   `BLOB_BASE_COST = 2^13`. It is not a clamp (the fee can sit below the line for a few blocks
//!   after the base fee jumps), but with blob demand below target the blob base fee settles at
//!   that reserve, `base_fee · 2^13 / 2^17 = base_fee / 16`.

use serde::Serialize;

/// Intrinsic gas of every transaction (all calldata formulas start from it).
pub const TX_BASE_GAS: u64 = 21_000;
/// EIP-2028: gas per non-zero calldata byte.
pub const CALLDATA_NONZERO_BYTE_GAS: u64 = 16;
/// EIP-2028: gas per zero calldata byte.
pub const CALLDATA_ZERO_BYTE_GAS: u64 = 4;
/// EIP-7623: a non-zero byte counts as this many tokens (a zero byte as one).
pub const TOKENS_PER_NONZERO_BYTE: u64 = 4;
/// EIP-4844: field elements per blob.
pub const FIELD_ELEMENTS_PER_BLOB: u64 = 4096;
/// EIP-4844: bytes in one blob (4096 field elements × 32 bytes), payload or not.
pub const BLOB_BYTES: u64 = FIELD_ELEMENTS_PER_BLOB * 32;
/// Most payload bytes a blob can carry: 254 bits per field element (below the BLS12-381
/// scalar modulus), 4096 · 254 / 8 = 130,048.
pub const MAX_BLOB_PAYLOAD_BYTES: u64 = FIELD_ELEMENTS_PER_BLOB * 254 / 8;
/// Payload bytes per blob of the OP Stack's blob encoding: 1024 rounds of 127 bytes (4 field
/// elements each) less a 1-byte version and a 3-byte length.
pub const OP_STACK_BLOB_PAYLOAD_BYTES: u64 = 1024 * 127 - 4;
/// EIP-4844: blob gas charged per blob (2^17).
pub const GAS_PER_BLOB: u64 = 1 << 17;
/// EIP-7918: execution gas whose price a blob must at least cost (2^13).
pub const BLOB_BASE_COST: u64 = 1 << 13;

/// The floor side of an EIP-7623-style transaction gas formula, per calldata byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct CalldataFloor {
    pub zero_byte_gas: u64,
    pub nonzero_byte_gas: u64,
}

/// EIP-7623: `10·tokens` = 10 per zero byte, 40 per non-zero byte.
pub const EIP7623_FLOOR: CalldataFloor = CalldataFloor {
    zero_byte_gas: 10,
    nonzero_byte_gas: 40,
};
/// EIP-7976: `16 · 4·(zero + nonzero)` = 64 per byte, zero or not.
pub const EIP7976_FLOOR: CalldataFloor = CalldataFloor {
    zero_byte_gas: 64,
    nonzero_byte_gas: 64,
};

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

/// EIP-2028 data gas: `16·nonzero + 4·zero` (without the 21,000 base); also EIP-7623's
/// standard side `4·tokens`.
pub fn eip2028_data_gas(bytes: ByteCounts) -> u64 {
    CALLDATA_NONZERO_BYTE_GAS * bytes.nonzero + CALLDATA_ZERO_BYTE_GAS * bytes.zero
}

/// EIP-7623 tokens: `zero + 4·nonzero`.
pub fn eip7623_tokens(bytes: ByteCounts) -> u64 {
    bytes.zero + TOKENS_PER_NONZERO_BYTE * bytes.nonzero
}

/// Floor data gas: `zero_byte_gas·zero + nonzero_byte_gas·nonzero`.
pub fn floor_data_gas(bytes: ByteCounts, floor: CalldataFloor) -> u64 {
    floor.zero_byte_gas * bytes.zero + floor.nonzero_byte_gas * bytes.nonzero
}

/// Gas used by a whole transaction carrying `bytes` of calldata and spending `execution_gas`:
/// `21000 + eip2028(bytes) + exec` without a floor, and with one
/// `21000 + max(eip2028(bytes) + exec, floor(bytes))`.
pub fn tx_gas(bytes: ByteCounts, execution_gas: u64, floor: Option<CalldataFloor>) -> u64 {
    let standard = eip2028_data_gas(bytes) + execution_gas;
    let floor = floor.map_or(0, |f| floor_data_gas(bytes, f));
    TX_BASE_GAS + standard.max(floor)
}

/// EIP-7623 gas of a whole transaction: `21000 + max(4·tokens + exec, 10·tokens)`.
pub fn eip7623_tx_gas(bytes: ByteCounts, execution_gas: u64) -> u64 {
    tx_gas(bytes, execution_gas, Some(EIP7623_FLOOR))
}

/// Blobs needed for `bytes` when each blob carries `usable_per_blob` payload bytes.
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
    // The quotient exceeds u64 only for absurd inputs; saturate rather than wrap.
    u64::try_from(num.div_ceil(den)).unwrap_or(u64::MAX)
}

/// EIP-7918 reserve blob base fee at an execution base fee:
/// `ceil(base_fee · BLOB_BASE_COST / GAS_PER_BLOB)` = `ceil(base_fee / 16)`, the lowest blob
/// base fee at which the update rule lets the fee fall again.
pub fn blob_reserve_fee_wei(base_fee_wei: u128) -> u128 {
    (base_fee_wei * u128::from(BLOB_BASE_COST)).div_ceil(u128::from(GAS_PER_BLOB))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eip2028_prices_nonzero_and_zero_bytes() {
        assert_eq!(eip2028_data_gas(ByteCounts::nonzero(64 * 200)), 204_800);
        let zeros = ByteCounts {
            zero: 10,
            nonzero: 0,
        };
        assert_eq!(eip2028_data_gas(zeros), 40);
        let mixed = ByteCounts {
            zero: 3,
            nonzero: 2,
        };
        assert_eq!(eip2028_data_gas(mixed), 12 + 32);
    }

    #[test]
    fn eip7623_floor_binds_without_execution() {
        // 100 non-zero bytes: 400 tokens; standard 1,600 < floor 4,000.
        let b = ByteCounts::nonzero(100);
        assert_eq!(eip7623_tokens(b), 400);
        assert_eq!(eip7623_tx_gas(b, 0), 21_000 + 4_000);
        let zeros = ByteCounts {
            zero: 100,
            nonzero: 0,
        };
        assert_eq!(eip7623_tx_gas(zeros, 0), 21_000 + 1_000);
        // Mixed: tokens = 7 + 4·5 = 27 → floor 270.
        let mixed = ByteCounts {
            zero: 7,
            nonzero: 5,
        };
        assert_eq!(eip7623_tx_gas(mixed, 0), 21_000 + 270);
    }

    #[test]
    fn eip7623_execution_lifts_off_the_floor() {
        // 400 tokens: standard 1,600 + exec, floor 4,000; exec < 6·tokens keeps the floor.
        let b = ByteCounts::nonzero(100);
        assert_eq!(eip7623_tx_gas(b, 2_399), 21_000 + 4_000);
        assert_eq!(eip7623_tx_gas(b, 2_400), 21_000 + 4_000);
        assert_eq!(eip7623_tx_gas(b, 2_401), 21_000 + 1_600 + 2_401);
        assert_eq!(eip7623_tx_gas(b, 350_000), 21_000 + 1_600 + 350_000);
        assert_eq!(eip7623_tx_gas(ByteCounts::default(), 5), 21_005);
    }

    #[test]
    fn eip7976_floor_is_64_per_byte_zero_or_not() {
        let mixed = ByteCounts {
            zero: 10,
            nonzero: 100,
        };
        assert_eq!(floor_data_gas(mixed, EIP7976_FLOOR), 64 * 110);
        assert_eq!(
            tx_gas(mixed, 0, Some(EIP7976_FLOOR)),
            21_000 + 64 * 110,
            "no execution: on the floor"
        );
        // Standard side 16·100 + 4·10 = 1,640; lifted off once exec > 7,040 − 1,640 = 5,400.
        assert_eq!(tx_gas(mixed, 5_400, Some(EIP7976_FLOOR)), 21_000 + 7_040);
        assert_eq!(tx_gas(mixed, 5_401, Some(EIP7976_FLOOR)), 21_000 + 7_041);
        assert_eq!(tx_gas(mixed, 5, None), 21_000 + 1_645);
    }

    #[test]
    fn blob_payload_constants() {
        assert_eq!(BLOB_BYTES, 131_072);
        assert_eq!(MAX_BLOB_PAYLOAD_BYTES, 130_048);
        assert_eq!(OP_STACK_BLOB_PAYLOAD_BYTES, 130_044);
    }

    #[test]
    fn blob_counting_rounds_up() {
        assert_eq!(blobs_needed(0, 130_044), 0);
        assert_eq!(blobs_needed(1, 130_044), 1);
        assert_eq!(blobs_needed(130_044, 130_044), 1);
        assert_eq!(blobs_needed(130_045, 130_044), 2);
        assert_eq!(blob_gas_whole(1, 130_044), 131_072);
        assert_eq!(blob_gas_whole(130_045, 130_044), 262_144);
    }

    #[test]
    fn prorata_blob_gas() {
        assert_eq!(blob_gas_prorata(64, BLOB_BYTES), 64);
        assert_eq!(blob_gas_prorata(0, 130_044), 0);
        // 65 bytes in OP-packed blobs: 65 · 131072 / 130044 = 65.51… → 66.
        assert_eq!(blob_gas_prorata(65, 130_044), 66);
        // 200 × 65 bytes: 13,102.47… → 13,103.
        assert_eq!(blob_gas_prorata(13_000, 130_044), 13_103);
    }

    #[test]
    fn eip7918_reserve_is_a_sixteenth_of_the_base_fee_rounded_up() {
        assert_eq!(blob_reserve_fee_wei(30_000_000_000), 1_875_000_000);
        assert_eq!(blob_reserve_fee_wei(1_000_000_000), 62_500_000);
        assert_eq!(blob_reserve_fee_wei(17), 2);
        assert_eq!(blob_reserve_fee_wei(16), 1);
        assert_eq!(blob_reserve_fee_wei(0), 0);
    }
}
