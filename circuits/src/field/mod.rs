//! Non-native field chip: secp256k1 `Fp` / `Fq` elements as 3 × 88-bit limbs on BN254 `Fr`,
//! with the native value (mod r) computed from the limbs inside each gate (CRT).
//!
//! Layout: a multiplication is one *wide block* of 9 range rows (q, r and carry limbs in
//! column 0, their chunks in the looked-up columns) plus copies of the 6 input limbs in column 1;
//! the gate checks the three carry equations and the native equation at once (see `gates.rs`).
//! The vertical halo2-base-style prototype (`vertical.rs`) proves the same relation with the
//! `a + b·c = d` gate and costs about 2.9× the cells (200 against 68 at L = 17); see
//! `circuits/CELLS.md`.

mod chip;
mod decompose;
pub mod gates;
mod mul;
pub mod params;
mod types;
mod vertical;

pub use chip::{FieldChip, FieldError};
pub use types::{CrtInt, FieldValue, Overflowing, Proper, Reduced, Selectable};
