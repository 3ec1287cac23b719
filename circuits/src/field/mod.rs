//! Non-native field chip: secp256k1 `Fp` / `Fq` elements as 3 × 88-bit limbs on BN254 `Fr`,
//! with the native value (mod r) computed from the limbs inside each gate (CRT).
//!
//! Layout: every multiplicative identity is one *relation block* (`relation.rs`) of 9 range
//! rows (quotient, new value and carry limbs in column 0, their chunks in the looked-up
//! columns) plus copies of up to eight operands in columns 1–3; the gate checks the three carry
//! equations and the native equation at once, with two products, two linear terms and a
//! constant folded in (see `gates.rs`).

#[cfg(feature = "testing")]
pub mod adversary;
mod chip;
mod decompose;
pub mod gates;
mod mul;
pub mod params;
pub mod relation;
mod types;

pub use chip::{FieldChip, FieldError};
pub use relation::{NewValue, Relation};
pub use types::{CrtInt, FieldValue, Overflowing, Proper, Reduced, Selectable};
