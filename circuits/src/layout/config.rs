//! Columns, selectors and fixed coefficient columns of one phase's column group.

use halo2_proofs::plonk::{
    Advice, Column, ConstraintSystem, FirstPhase, Fixed, SecondPhase, Selector,
};

use super::ids::{FixedId, GateId};
use super::Native;

/// Number of main (not looked-up) advice columns in a group.
pub const MAIN_COLS: usize = 4;

/// Looked-up columns with equality (copy constraints): the first one. Chunks that other
/// gadgets copy (window digits) live only there ([`crate::range::RangeChip::decompose`]); the
/// others hold chunks no constraint refers to by copy, so they need no permutation slot.
pub const COPYABLE_LOOKUP_COLS: usize = 1;

/// Advice columns of the Keccak chip in a group that has them (`crate::keccak::gates`): piece
/// inputs and outputs and the state, five lane slots each, θ's column parities, and two pairs
/// of second-piece columns.
pub const KECCAK_COLS: usize = 20;

/// The Keccak columns with equality (state / digest bytes, column parities / digest halves,
/// second-piece inputs / message bytes), by index among the group's Keccak columns.
pub const KECCAK_EQUALITY: [usize; 8] = [10, 11, 12, 13, 14, 15, 16, 18];

/// Challenges pinned by one `Challenge(k)` gate: challenge `16k + j` sits at main column
/// `j mod 4`, `j / 4` rows below the gate's row.
pub const CHALLENGES_PER_GATE: usize = 16;

/// Knobs of the layout: they change rows, columns and k, never the gadgets' code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayoutParams {
    /// Bits of the main range table: it holds `[0, 2^lookup_bits)` (tag 0). Needs
    /// `2^lookup_bits + Σ 2^w + 1 ≤ 2^k − blinding rows`; the usual choice is `k − 1`.
    pub lookup_bits: u32,
    /// Number of looked-up advice columns per phase (chunks of one range row).
    pub lookup_cols: usize,
    /// Window sizes w (bits) that get their own table section `[0, 2^w)` (tags 1, 2, ...).
    pub window_bits: Vec<u32>,
    /// Sizes s of partial top chunks that get a table section `[0, 2^s)`, so such a chunk is
    /// checked by one lookup (in the last lookup column, whose tag is `tag + ptag`) instead of
    /// a lookup plus a shifted copy. Other partial sizes fall back to the shifted copy.
    pub partial_bits: Vec<u32>,
    /// Number of phases with a column group (1, or 2 for a second-phase group).
    pub phases: u8,
    /// Column groups ("lanes") per phase, index = phase; a missing or zero entry means 1.
    /// The builder of a phase spreads its blocks over the lanes (see `Builder`), trading
    /// columns for rows.
    pub lanes: Vec<usize>,
    /// Proof-system challenges drawn after phase 0 (when `phases ≥ 2`; 0 means 1), each with
    /// its own `Challenge(j)` gate on lane 0 of the later phases.
    pub challenges: usize,
    /// Also configure the gates no production circuit uses (the limb-wise `Select` and the
    /// `IsEqual` block): each unused gate is a selector, i.e. a fixed evaluation in every
    /// proof. Default off; the chip tests that exercise those gadgets turn it on.
    pub extra_gates: bool,
    /// Phase 0 is a single *commit column* instead of column groups: one first-phase advice
    /// column with equality enabled and no gates or lookups, holding raw witness values that
    /// later phases copy (copy constraints) and check. Every column group, the point tables
    /// included, is then in phase 1 or later. Needs `phases ≥ 2`.
    pub commit_phase0: bool,
    /// Digits per lookup chunk of the Keccak chip (`crate::keccak`), 0 = no Keccak columns,
    /// gates or tables (every circuit without Keccak keeps its verifying key). The Keccak
    /// tables grow as `6^d`: see `crate::keccak::digits_for_k` for the largest choice a k holds.
    pub keccak_digits: u32,
}

impl LayoutParams {
    /// Parameters for table bits `lookup_bits` with enough lookup columns that a value of
    /// `row_bits` bits is one range row (`⌈row_bits / L⌉` chunks), table sections for windows
    /// of 1 and 4 bits and for the partial top chunks of the sizes in `chunked_bits` (each
    /// `b mod L` that is not 0), one phase. The chips' own choice is
    /// [`LayoutParams::new`] (in `field::params`, which knows the limb sizes).
    pub fn for_chunks(lookup_bits: u32, row_bits: u32, chunked_bits: &[u32]) -> Self {
        let lookup_cols = (row_bits as usize).div_ceil(lookup_bits as usize);
        let mut partial_bits: Vec<u32> = chunked_bits
            .iter()
            .map(|b| b % lookup_bits)
            .filter(|&s| s > 0)
            .collect();
        partial_bits.sort_unstable();
        partial_bits.dedup();
        Self {
            lookup_bits,
            lookup_cols,
            window_bits: vec![1, 4],
            partial_bits,
            phases: 1,
            lanes: Vec::new(),
            challenges: 1,
            extra_gates: false,
            commit_phase0: false,
            keccak_digits: 0,
        }
    }

    /// Number of challenges configured when `phases ≥ 2` (at least 1).
    pub fn num_challenges(&self) -> usize {
        self.challenges.max(1)
    }

    /// Number of `Challenge(k)` gates (selectors) pinning those challenges.
    pub(crate) fn challenge_gates(&self) -> usize {
        self.num_challenges().div_ceil(CHALLENGES_PER_GATE)
    }

    /// Number of column groups of phase `phase` (at least 1).
    pub fn lanes_of(&self, phase: u8) -> usize {
        self.lanes.get(phase as usize).copied().unwrap_or(1).max(1)
    }

    /// The first phase that has column groups: 1 with a commit column for phase 0
    /// ([`Self::commit_phase0`]), else 0. Lane 0 of this phase holds the point tables.
    pub(crate) fn first_group_phase(&self) -> u8 {
        u8::from(self.commit_phase0 && self.phases >= 2)
    }

    /// Bit sizes of the table sections after tag 0: windows, then partial sizes not already
    /// there. Section i (0-based) has tag i + 1.
    pub fn sections(&self) -> Vec<u32> {
        let mut v = self.window_bits.clone();
        for s in &self.partial_bits {
            if !v.contains(s) && *s != self.lookup_bits {
                v.push(*s);
            }
        }
        v
    }

    /// Tag of the table section holding `[0, 2^w)`, `None` if there is none.
    pub fn window_tag(&self, w: u32) -> Option<u64> {
        if w == self.lookup_bits {
            return Some(0);
        }
        self.sections()
            .iter()
            .position(|&x| x == w)
            .map(|i| i as u64 + 1)
    }

    /// Rows of the lookup table (tag 0 section and every other section).
    pub fn table_rows(&self) -> usize {
        (1usize << self.lookup_bits) + self.sections().iter().map(|w| 1usize << w).sum::<usize>()
    }
}

/// The columns and selectors of one column group.
#[derive(Clone, Debug)]
pub struct GroupConfig {
    pub phase: u8,
    /// Index of this group among the groups of its phase.
    pub lane: usize,
    pub main: [Column<Advice>; MAIN_COLS],
    pub lookup: Vec<Column<Advice>>,
    /// The fixed columns the chips declared, in allocation order.
    pub fixed: Vec<(FixedId, Column<Fixed>)>,
    /// The selectors of the gates the chips declared, in allocation order.
    pub selectors: Vec<(GateId, Selector)>,
    /// The Keccak chip's advice columns (`crate::keccak::gates`), after the looked-up ones in
    /// the builder's column numbering; empty unless `LayoutParams::keccak_digits > 0`, and
    /// on lane 0 of a phase only.
    pub keccak: Vec<Column<Advice>>,
}

impl GroupConfig {
    /// Allocates the columns of one column group: `MAIN_COLS` main and `params.lookup_cols`
    /// looked-up advice columns (equality on the main columns and the first
    /// [`COPYABLE_LOOKUP_COLS`]), one fixed column per id of `fixed` and one selector per id
    /// of `gates`, in the order given: the order is part of the verifying key. The chips add
    /// the gates and lookups (`range::gates`, `field::gates`, `ecc::gates`).
    pub fn configure(
        meta: &mut ConstraintSystem<Native>,
        phase: u8,
        lane: usize,
        params: &LayoutParams,
        fixed: &[FixedId],
        gates: &[GateId],
    ) -> Self {
        let mut advice = || match phase {
            0 => meta.advice_column_in(FirstPhase),
            _ => meta.advice_column_in(SecondPhase),
        };
        let main = [advice(), advice(), advice(), advice()];
        let lookup: Vec<_> = (0..params.lookup_cols).map(|_| advice()).collect();
        for c in main.iter().chain(lookup.iter().take(COPYABLE_LOOKUP_COLS)) {
            meta.enable_equality(*c);
        }
        let fixed = fixed.iter().map(|&f| (f, meta.fixed_column())).collect();
        let selectors = gates.iter().map(|&g| (g, meta.selector())).collect();
        // Allocated last, and only when asked for (circuits without Keccak keep their keys),
        // on lane 0 only: Keccak blocks have their own rows there (`Builder::new_keccak_rows`),
        // beside the main work, so one lane's Keccak columns serve the phase.
        let keccak = if params.keccak_digits > 0 && lane == 0 {
            (0..KECCAK_COLS)
                .map(|i| {
                    let c = match phase {
                        0 => meta.advice_column_in(FirstPhase),
                        _ => meta.advice_column_in(SecondPhase),
                    };
                    if KECCAK_EQUALITY.contains(&i) {
                        meta.enable_equality(c);
                    }
                    c
                })
                .collect()
        } else {
            Vec::new()
        };
        Self {
            phase,
            lane,
            main,
            lookup,
            fixed,
            selectors,
            keccak,
        }
    }

    /// The selector of a gate. Panics only on a configuration bug (a gate not declared).
    pub(crate) fn selector(&self, kind: GateId) -> Selector {
        self.try_selector(kind)
            .unwrap_or_else(|| panic!("gate {kind:?} not configured"))
    }

    /// The selector of a gate, if configured.
    pub(crate) fn try_selector(&self, kind: GateId) -> Option<Selector> {
        self.selectors
            .iter()
            .find(|(k, _)| *k == kind)
            .map(|(_, s)| *s)
    }

    /// The advice column of global column index `col` (main columns first, then lookups).
    pub fn advice(&self, col: usize) -> Column<Advice> {
        if col < MAIN_COLS {
            self.main[col]
        } else if col < MAIN_COLS + self.lookup.len() {
            self.lookup[col - MAIN_COLS]
        } else {
            self.keccak[col - MAIN_COLS - self.lookup.len()]
        }
    }

    /// Number of advice columns of the group (main, looked-up, Keccak).
    pub fn num_advice(&self) -> usize {
        MAIN_COLS + self.lookup.len() + self.keccak.len()
    }

    /// The fixed column `f`. Panics only on a configuration bug (a column not declared).
    pub fn fixed(&self, f: FixedId) -> Column<Fixed> {
        self.fixed
            .iter()
            .find(|(id, _)| *id == f)
            .map(|(_, c)| *c)
            .unwrap_or_else(|| panic!("fixed column {f:?} not configured"))
    }

    /// Every fixed column of the group.
    pub fn fixed_columns(&self) -> impl Iterator<Item = Column<Fixed>> + '_ {
        self.fixed.iter().map(|(_, c)| *c)
    }
}
