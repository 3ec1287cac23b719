//! Columns, selectors and fixed coefficient columns of one phase's column group.

use halo2_proofs::plonk::{
    Advice, Column, ConstraintSystem, FirstPhase, Fixed, SecondPhase, Selector, TableColumn,
};

use super::Native;

/// Number of main (not looked-up) advice columns in a group.
pub const MAIN_COLS: usize = 4;

/// Looked-up columns with equality (copy constraints): the first one. Chunks that other
/// gadgets copy (window digits) live only there ([`crate::range::RangeChip::decompose`]); the
/// others hold chunks no constraint refers to by copy, so they need no permutation slot.
pub const COPYABLE_LOOKUP_COLS: usize = 1;

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
        }
    }

    /// Number of challenges configured when `phases ≥ 2` (at least 1).
    pub fn num_challenges(&self) -> usize {
        self.challenges.max(1)
    }

    /// Number of `Challenge(k)` gates (selectors) pinning those challenges.
    pub fn challenge_gates(&self) -> usize {
        self.num_challenges().div_ceil(CHALLENGES_PER_GATE)
    }

    /// Number of column groups of phase `phase` (at least 1).
    pub fn lanes_of(&self, phase: u8) -> usize {
        self.lanes.get(phase as usize).copied().unwrap_or(1).max(1)
    }

    /// The first phase that has column groups: 1 with a commit column for phase 0
    /// ([`Self::commit_phase0`]), else 0. Lane 0 of this phase holds the point tables.
    pub fn first_group_phase(&self) -> u8 {
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

/// The gates a block can switch on. `Relation(i)` / `RelationFactor(i)` are the two shapes of
/// the relation block for the i-th emulated modulus registered in the configuration (see `field::gates`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GateKind {
    Range,
    LinearRow,
    /// Relation block, the block's new value (if any) a linear term.
    Relation(usize),
    /// Relation block, the block's new value the first factor of the first product (for
    /// modulus 0 with the distinctness constraint of its difference).
    RelationFactor(usize),
    Select,
    IsZero,
    IsEqual,
    LessEq,
    /// Challenges `16k .. 16k + 15` of the proof system, pinned to cells (see
    /// [`CHALLENGES_PER_GATE`]; lane 0 of the second and later phases only; added by
    /// `CircuitConfig::configure`, which owns the challenges).
    Challenge(usize),
    /// The public-input mirror rows 0..n of lane 0 of the last phase: column 0 equals the
    /// instance column at the same row (added by `CircuitConfig::configure_instance`).
    Instance,
}

/// Fixed coefficient columns addressed by blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FixedCol {
    /// Coefficient of lookup column j in a range row.
    Coef(usize),
    /// Coefficient of the next row's column 0 in a range row (running sum).
    Next,
    /// Shift factor `2^(c − s)` of a partial chunk (0 when the row has none).
    Shift,
    /// Table tag of the row's lookups.
    Tag,
    /// Added to the row's tag for lookup column K−2 (a tagged partial chunk).
    PartialTag,
    Alpha,
    Beta,
    Mu,
    Gamma,
    /// 1 on the rows of a point-table query (ecc dynamic lookup), 0 elsewhere.
    LookupIn,
    /// The key of a point-table entry row (ecc dynamic lookup), 0 elsewhere; used by nothing
    /// else.
    LookupTable,
}

/// The columns and selectors of one phase.
#[derive(Clone, Debug)]
pub struct GroupConfig {
    pub phase: u8,
    /// Index of this group among the groups of its phase.
    pub lane: usize,
    pub main: [Column<Advice>; MAIN_COLS],
    pub lookup: Vec<Column<Advice>>,
    pub coef: Vec<Column<Fixed>>,
    pub next: Column<Fixed>,
    pub shift: Column<Fixed>,
    pub tag: Column<Fixed>,
    pub ptag: Column<Fixed>,
    pub alpha: Column<Fixed>,
    pub beta: Column<Fixed>,
    pub mu: Column<Fixed>,
    pub gamma: Column<Fixed>,
    pub lookup_in: Column<Fixed>,
    pub lookup_table: Column<Fixed>,
    pub selectors: Vec<(GateKind, Selector)>,
}

impl GroupConfig {
    /// Allocates the columns of one phase and the lookups of its looked-up columns against the
    /// `(tag, value)` table. Gates are added by the chips (`range::gates`, `field::gates`).
    pub fn configure(
        meta: &mut ConstraintSystem<Native>,
        phase: u8,
        lane: usize,
        params: &LayoutParams,
        table: (TableColumn, TableColumn),
        n_moduli: usize,
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
        let coef = (0..params.lookup_cols)
            .map(|_| meta.fixed_column())
            .collect();
        let (next, shift, tag) = (
            meta.fixed_column(),
            meta.fixed_column(),
            meta.fixed_column(),
        );
        let ptag = meta.fixed_column();
        let (alpha, beta, mu, gamma) = (
            meta.fixed_column(),
            meta.fixed_column(),
            meta.fixed_column(),
            meta.fixed_column(),
        );
        let (lookup_in, lookup_table) = (meta.fixed_column(), meta.fixed_column());
        let mut kinds = vec![
            GateKind::Range,
            GateKind::LinearRow,
            GateKind::IsZero,
            GateKind::LessEq,
        ];
        if params.extra_gates {
            kinds.extend([GateKind::Select, GateKind::IsEqual]);
        }
        kinds.extend(
            (0..n_moduli).flat_map(|i| [GateKind::Relation(i), GateKind::RelationFactor(i)]),
        );
        if phase >= 1 && lane == 0 {
            kinds.extend((0..params.challenge_gates()).map(GateKind::Challenge));
        }
        let selectors = kinds.into_iter().map(|k| (k, meta.selector())).collect();
        let cfg = Self {
            phase,
            lane,
            main,
            lookup,
            coef,
            next,
            shift,
            tag,
            ptag,
            alpha,
            beta,
            mu,
            gamma,
            lookup_in,
            lookup_table,
            selectors,
        };
        // Every looked-up cell must be in the table section named by its row's tag (the last
        // column: tag + ptag, for a partial top chunk). Rows without range chunks have tag 0
        // and zero cells, and (0, 0) is in the table.
        let k = cfg.lookup.len();
        for (j, col) in cfg.lookup.clone().into_iter().enumerate() {
            meta.lookup("range chunk", |m| {
                let mut t = m.query_fixed(tag, halo2_proofs::poly::Rotation::cur());
                if j + 1 == k {
                    t = t + m.query_fixed(ptag, halo2_proofs::poly::Rotation::cur());
                }
                let v = m.query_advice(col, halo2_proofs::poly::Rotation::cur());
                vec![(t, table.0), (v, table.1)]
            });
        }
        cfg
    }

    /// The selector of a gate kind. Panics only on a configuration bug (an unregistered kind).
    pub fn selector(&self, kind: GateKind) -> Selector {
        self.try_selector(kind)
            .unwrap_or_else(|| panic!("gate {kind:?} not configured"))
    }

    /// The selector of a gate kind, if configured.
    pub fn try_selector(&self, kind: GateKind) -> Option<Selector> {
        self.selectors
            .iter()
            .find(|(k, _)| *k == kind)
            .map(|(_, s)| *s)
    }

    /// The advice column of global column index `col` (main columns first, then lookups).
    pub fn advice(&self, col: usize) -> Column<Advice> {
        if col < MAIN_COLS {
            self.main[col]
        } else {
            self.lookup[col - MAIN_COLS]
        }
    }

    /// The fixed column named by `f`.
    pub fn fixed(&self, f: FixedCol) -> Column<Fixed> {
        match f {
            FixedCol::Coef(j) => self.coef[j],
            FixedCol::Next => self.next,
            FixedCol::Shift => self.shift,
            FixedCol::Tag => self.tag,
            FixedCol::PartialTag => self.ptag,
            FixedCol::Alpha => self.alpha,
            FixedCol::Beta => self.beta,
            FixedCol::Mu => self.mu,
            FixedCol::Gamma => self.gamma,
            FixedCol::LookupIn => self.lookup_in,
            FixedCol::LookupTable => self.lookup_table,
        }
    }
}
