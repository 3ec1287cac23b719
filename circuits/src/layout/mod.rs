//! One place lays cells out.
//!
//! Gadgets never talk to a halo2 `Region`. They append *blocks* of cells to a [`Builder`]
//! (one builder per proving phase); every block is a small grid of rows over the column group of
//! that phase, and names the gates it switches on and the fixed coefficients it needs. The
//! [`assign`] step then writes the builder into one halo2 region. Because the builder holds every
//! advice cell, its counts (advice cells, lookup cells, rows) are known before any key or proof
//! exists, and a witness-mutation test can re-run the same build with one cell changed (the
//! adversarial prover of the tests, `adversary`, feature `testing`).
//!
//! Column group of a phase (see [`GroupConfig`]): `MAIN_COLS` main advice columns followed by
//! `lookup_cols` advice columns whose every cell is looked up in the range table. Rows are
//! consecutive: SimpleFloorPlanner in halo2-axiom places every region at row 0, so the builder's
//! row numbers are the absolute rows.

#[cfg(feature = "testing")]
pub mod adversary;
mod assign;
mod builder;
mod config;
mod gates;
mod ids;

pub(crate) use assign::{assign_builder, load_range_table};
pub use builder::{lane_of, local_row, AssignedValue, Builder, CellRef, LayoutStats, LANE_SHIFT};
pub use config::{
    GroupConfig, LayoutParams, CHALLENGES_PER_GATE, COPYABLE_LOOKUP_COLS, KECCAK_COLS, MAIN_COLS,
};
pub(crate) use gates::{configure_instance_gate, configure_linear_row};
pub use gates::{ALPHA, BETA, GAMMA, INSTANCE, LINEAR_ROW, LINEAR_ROW_COLUMNS, MU};
pub use ids::{FixedColumn, FixedId, Gate, GateId, Id};

/// The native field of the proof system: the BN254 scalar field.
pub type Native = halo2curves::bn256::Fr;
