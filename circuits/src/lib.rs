//! Halo2 chips and circuits for secp256k1 ECDSA batch verification (KZG over BN254,
//! halo2-axiom).
//!
//! ## Layers, lowest first
//!
//! ```text
//!   layout → range → field → ecc → ecdsa → plan
//! ```
//!
//! Each uses only the layers before it:
//! - [`layout`]: the [`layout::Builder`] of virtual cells (blocks of rows that name their gates
//!   and fixed coefficients) and the one place that assigns them to halo2; the column group
//!   of a phase ([`layout::LayoutParams`]).
//! - [`range`]: the range table and lookups, decomposition into chunks, linear rows,
//!   less-than, zero tests.
//! - [`field`]: non-native secp256k1 `Fp` / `Fq` (three 88-bit limbs, CRT), one *relation
//!   block* per non-native identity (`field::relation`).
//! - [`ecc`]: secp256k1 points, additions with proven distinct x, window tables and the
//!   point-table lookup, signed-odd recodings, Straus MSM.
//! - [`ecdsa`]: the scalar side, the public instance, the challenges, and the two circuits
//!   ([`ecdsa::NaiveEcdsaCircuit`], [`ecdsa::BatchEcdsaCircuit`]).
//! - [`keccak`] (beside `field`, uses layout and range only): Keccak-f\[1600\] and Keccak-256
//!   over byte cells, sparse base-8 lanes normalised through `(tag, input, output)` lookups;
//!   configured only when `LayoutParams::keccak_digits > 0`.
//! - [`plan`]: the one planner (circuit kind, B, window, goal → layout parameters and k).
//!
//! Beside them: [`config`] (the constraint-system configuration every circuit shares: column
//! groups, gates of each layer, the instance column, and the [`config::LaidOutCircuit`] trait
//! the harnesses use), [`footprint`] (the layout check: every cell a gate reads is assigned and
//! constrained), [`bigint`] (integer and field conversions); behind the test-only feature
//! `testing`: `test_utils` (MockProver helpers, mutation tests, `BuilderCircuit`) and the
//! adversarial prover (`layout::adversary`, `field::adversary`).
//!
//! ## Where a change goes
//! - A new gadget over existing gates: in its layer's chip (`range::RangeChip`,
//!   `field::FieldChip`, `ecc::EccChip`), with its soundness argument in the doc (what each
//!   gate reads and what pins it) and positive and mutation tests.
//! - A new gate: in its layer's `gates.rs` only: its id (`layout::GateId`), any fixed column
//!   it needs (`layout::FixedId`), the layer's list of ids, and its polynomial; the layout
//!   layer knows no chip's gates. [`config::CircuitConfig::configure`] allocates the ids each
//!   layer lists (append a new layer's list at the end: the allocation order is part of the
//!   verifying key). The footprint check covers the gate from the first test.
//! - A new circuit: a type implementing halo2's `Circuit` through `config::impl_layout_circuit!`
//!   and [`config::LaidOutCircuit`], and a [`plan::CircuitKind`] with its planning rule.
//! - Layout knobs (table bits, lanes, windows): [`layout::LayoutParams`] and [`plan`]; they
//!   change rows, columns and k, never a gadget's code.

// The docs are written for maintainers too: a public item's doc may name the private helper
// that does the work (rendered as a link by `cargo doc --document-private-items`).
#![allow(rustdoc::private_intra_doc_links)]

pub mod bigint;
pub mod config;
pub mod ecc;
pub mod ecdsa;
pub mod field;
pub mod footprint;
pub mod keccak;
pub mod layout;
pub mod limits;
pub mod plan;
pub mod range;
#[cfg(feature = "testing")]
pub mod test_utils;
