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
//! Per round (`m = ⌈64/d⌉` parts per lane: 10 at d = 7, 11 at d = 6, 13 at d = 5): 25 lanes
//! of m ρπ pieces with their outputs, one extra piece per straddling part (about 20), 25·m χ
//! outputs, 5·m θ column parities and 5 top bits, i.e. about `80·m + 45` cells: the θ sums,
//! the χ input combinations and ι are lookup-input expressions or gate terms, never cells.
//! Measured (`tests/keccak.rs`, `keccak_cells_per_permutation`), per permutation with its
//! absorb block: 27,191 cells / 1,628 rows at d = 5 (k ≥ 14), 23,345 / 1,388 at d = 6
//! (k ≥ 16), 21,182 / 1,268 at d = 7 (k ≥ 19); halo2-lib's keccak takes 24,975–32,625 cells
//! (its columns × rows) at k = 20–14 (`benches/halo2-keccak-cells`).
//!
//! **Soundness in one paragraph.** Every advice cell of a Keccak block is either a looked-up
//! digit string (exact length for the cells that a gate splits a lane into, so the split is
//! unique), a lookup output (a function of its input, bound by the `(tag, tag·in, tag·out)`
//! tables), a copy of a caller's byte (range-checked by `BYTE`), or a digest byte / half pinned
//! by the squeeze gate. The gates equate integers below `8^64 < r` with digits below 8 on both
//! sides, so each equation holds digit by digit: no wrap, no carry, no choice. The footprint
//! check passes on every layout in the tests, every sampled witness mutation is caught, and a
//! wrong digest fails both MockProver and a real KZG proof.

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
