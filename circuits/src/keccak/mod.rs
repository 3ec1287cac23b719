//! Keccak-f\[1600\] and Keccak-256 on this crate's layout: sparse base-8 lanes (one digit per
//! bit, so XORs are additions without carries), normalised through lookups over packed
//! chunks of `d` digits (`LayoutParams::keccak_digits`).
//!
//! * [`spec`]: constants, the native permutation (witness generation only), sparse encoding.
//! * [`geometry`]: the one plan of where every cell goes, shared by gates and witness.
//! * [`gates`]: columns, tables, the round / absorb / squeeze gates and the lookups, with
//!   what each reads and what pins it.
//! * [`chip`]: [`KeccakChip::keccak256`] over byte cells, the digest as bytes and halves.
//!
//! Per round (m parts per lane, `m = 10` at d = 7, 12 at d = 6, 14 at d = 5): 25 lanes of m
//! ρπ pieces with their outputs, one extra piece per straddling part, 25·m χ outputs and 5·m
//! θ column parities, i.e. about `80·m` cells: the θ sums, the χ input combinations and ι
//! are lookup-input expressions or gate terms, never cells.

pub mod chip;
pub mod gates;
pub mod geometry;
pub mod spec;

pub use chip::{KeccakChip, KeccakDigest};
pub use geometry::Geometry;

/// The largest chunk width whose Keccak tables (the largest is θ's, `6^d` rows) fit in
/// `2^k − unusable` rows, at most 7.
pub fn digits_for_k(k: u32, unusable: usize) -> u32 {
    (2..=7)
        .rev()
        .find(|&d| gates::table_rows(d) + unusable <= 1 << k)
        .unwrap_or(2)
}

/// Rows of the largest Keccak table of `params` (0 without Keccak).
pub fn table_rows(params: &crate::layout::LayoutParams) -> usize {
    gates::table_rows(params.keccak_digits)
}
