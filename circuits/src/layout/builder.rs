//! The builder: an append-only record of blocks of advice cells, gates and fixed values.

use std::collections::HashMap;

use ff::PrimeField;

use super::config::{LayoutParams, MAIN_COLS};
use super::gates::{GAMMA, INSTANCE, LINEAR_ROW};
use super::ids::{FixedId, GateId};
use super::Native;

/// A cell of a builder: phase, row, global column (main columns first, then lookup columns).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CellRef {
    pub phase: u8,
    pub row: u32,
    pub col: u16,
}

/// An advice cell with its witness value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AssignedValue {
    pub cell: CellRef,
    pub value: Native,
}

/// Counts of one builder, known without keys or proofs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LayoutStats {
    /// All assigned advice cells (main and looked-up).
    pub advice_cells: usize,
    /// Assigned cells in looked-up columns (a subset of `advice_cells`).
    pub lookup_cells: usize,
    /// Rows used.
    pub rows: usize,
    /// Copy constraints.
    pub copies: usize,
}

impl std::ops::Sub for LayoutStats {
    type Output = LayoutStats;
    fn sub(self, o: LayoutStats) -> LayoutStats {
        LayoutStats {
            advice_cells: self.advice_cells - o.advice_cells,
            lookup_cells: self.lookup_cells - o.lookup_cells,
            rows: self.rows - o.rows,
            copies: self.copies - o.copies,
        }
    }
}

/// Bits of a builder row number below the lane index: row numbers are
/// `lane << LANE_SHIFT | row in that lane` (see [`Builder`]).
pub const LANE_SHIFT: u32 = 26;

/// The lane (column group of the phase) of a builder row number.
pub fn lane_of(row: u32) -> usize {
    (row >> LANE_SHIFT) as usize
}

/// The row inside its lane of a builder row number (the halo2 row).
pub fn local_row(row: u32) -> u32 {
    row & ((1 << LANE_SHIFT) - 1)
}

/// Virtual cells of one phase, laid out row by row.
///
/// **Lanes.** A phase may have several column groups (`LayoutParams::lanes_of`), the lanes;
/// row numbers handed out by the builder carry their lane in the bits above [`LANE_SHIFT`], so
/// gadgets keep writing `first + i` inside a block and never name a lane. Each allocation
/// outside an open block ([`Builder::begin_block`]) goes to the currently shortest lane (ties:
/// the lowest), so the lanes fill evenly; a block whose rows are allocated by several calls
/// (and whose gate reads them by rotation) opens a block so they stay contiguous in one lane.
///
/// **Keccak rows.** The Keccak columns (`LayoutParams::keccak_digits > 0`, lane 0 only) have
/// their own row counter ([`Builder::new_keccak_rows`]): Keccak blocks run beside the main
/// work of the same rows instead of after it, so a lane is as tall as the taller of the two.
/// This is sound because no gate reads across the two: the Keccak gates and lookups query
/// only Keccak columns and Keccak fixed columns, every other gate only main and looked-up
/// columns (the two sets of selectors are disjoint), and values cross between them only by
/// copy constraints.
#[derive(Clone, Debug)]
pub struct Builder {
    pub phase: u8,
    pub params: LayoutParams,
    lane_rows: Vec<u32>,
    /// Rows used in lane 0's Keccak columns.
    keccak_rows: u32,
    cur_lane: usize,
    depth: u32,
    advice: Vec<(CellRef, Native)>,
    free: Vec<bool>,
    lookup_cells: usize,
    fixed: Vec<(FixedId, u32, Native)>,
    selectors: Vec<(GateId, u32)>,
    copies: Vec<(CellRef, CellRef)>,
    constants: HashMap<[u8; 32], AssignedValue>,
    tables: HashMap<String, (u64, Vec<AssignedValue>)>,
}

/// Takes `h` rows from the row counter `used` of lane `lane` and returns the first (as a
/// builder row number). Panics past `2^LANE_SHIFT` rows (a construction error).
fn reserve(used: &mut u32, lane: usize, h: u32) -> u32 {
    let r = *used;
    *used += h;
    assert!(
        *used < 1 << LANE_SHIFT,
        "a lane holds fewer than 2^{LANE_SHIFT} rows"
    );
    ((lane as u32) << LANE_SHIFT) | r
}

impl Builder {
    pub fn new(phase: u8, params: LayoutParams) -> Self {
        Self {
            phase,
            lane_rows: vec![0; params.lanes_of(phase)],
            keccak_rows: 0,
            params,
            cur_lane: 0,
            depth: 0,
            advice: Vec::new(),
            free: Vec::new(),
            lookup_cells: 0,
            fixed: Vec::new(),
            selectors: Vec::new(),
            copies: Vec::new(),
            constants: HashMap::new(),
            tables: HashMap::new(),
        }
    }

    /// Reserves `h` fresh consecutive rows and returns the first one: in the current lane
    /// inside an open block, else in the shortest lane.
    pub fn new_rows(&mut self, h: u32) -> u32 {
        if self.depth == 0 {
            self.cur_lane = self.shortest_lane();
        }
        self.alloc(self.cur_lane, h)
    }

    /// Reserves `h` fresh rows in lane `lane` (e.g. point tables, which live in lane 0 of the
    /// first phase with column groups). Panics if the phase has no such lane (a construction error).
    pub(crate) fn new_rows_in_lane(&mut self, lane: usize, h: u32) -> u32 {
        assert!(lane < self.lane_rows.len(), "no lane {lane}");
        self.alloc(lane, h)
    }

    /// Reserves `h` consecutive rows of the Keccak columns (see the type doc), which only lane
    /// 0 has, and returns the first. Only Keccak blocks may write there; the main columns of
    /// those rows belong to the main counter.
    pub(crate) fn new_keccak_rows(&mut self, h: u32) -> u32 {
        reserve(&mut self.keccak_rows, 0, h)
    }

    fn alloc(&mut self, lane: usize, h: u32) -> u32 {
        reserve(&mut self.lane_rows[lane], lane, h)
    }

    fn shortest_lane(&self) -> usize {
        (0..self.lane_rows.len())
            .min_by_key(|&l| self.lane_rows[l])
            .unwrap_or(0)
    }

    /// Opens a block: until the matching [`Self::end_block`], every allocation goes to one
    /// lane (the shortest when the outermost block opens), so its rows are consecutive.
    pub fn begin_block(&mut self) {
        if self.depth == 0 {
            self.cur_lane = self.shortest_lane();
        }
        self.depth += 1;
    }

    /// Closes the block opened by the matching [`Self::begin_block`].
    pub fn end_block(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// The row the next allocation of the open block gets (call after `begin_block`).
    pub(crate) fn next_row(&self) -> u32 {
        ((self.cur_lane as u32) << LANE_SHIFT) | self.lane_rows[self.cur_lane]
    }

    /// Assigns a witness cell at (row, col).
    pub fn assign(&mut self, row: u32, col: usize, value: Native) -> AssignedValue {
        debug_assert!(local_row(row) < self.lane_rows[lane_of(row)].max(self.keccak_rows));
        let cell = CellRef {
            phase: self.phase,
            row,
            col: col as u16,
        };
        self.advice.push((cell, value));
        self.free.push(false);
        if col >= MAIN_COLS {
            self.lookup_cells += 1;
        }
        AssignedValue { cell, value }
    }

    /// Assigns a copy of `src` at (row, col), tied to it by a copy constraint.
    pub fn copy_of(&mut self, src: &AssignedValue, row: u32, col: usize) -> AssignedValue {
        let v = self.assign(row, col, src.value);
        self.copies.push((src.cell, v.cell));
        v
    }

    /// Constrains two existing cells to be equal.
    pub fn constrain_equal(&mut self, a: &AssignedValue, b: &AssignedValue) {
        self.copies.push((a.cell, b.cell));
    }

    pub fn set_fixed(&mut self, col: FixedId, row: u32, value: Native) {
        self.fixed.push((col, row, value));
    }

    pub fn enable(&mut self, gate: GateId, row: u32) {
        self.selectors.push((gate, row));
    }

    /// The public-input mirror: rows `0..n` of lane 0, column 0 holding `values` (the instance
    /// column, in order) under the `Instance` gate, which makes each cell equal the instance
    /// value at its row. Must be the builder's first allocation (a construction error
    /// otherwise), so the rows are the instance rows. Copy the circuit's public cells to the
    /// returned cells.
    pub fn mirror_instance(&mut self, values: &[Native]) -> Vec<AssignedValue> {
        assert!(
            self.lane_rows.first() == Some(&0),
            "the instance mirror must be the first rows of lane 0"
        );
        let first = self.new_rows_in_lane(0, values.len() as u32);
        values
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let row = first + i as u32;
                self.enable(INSTANCE, row);
                self.assign(row, 0, *v)
            })
            .collect()
    }

    /// Marks the last assigned cell with this reference as legitimately free: any value
    /// satisfies the constraints (e.g. the inverse witness of `is_zero` when the input is 0).
    /// Mutation tests skip such cells.
    pub fn mark_free(&mut self, v: &AssignedValue) {
        if let Some(i) = self.advice.iter().rposition(|(c, _)| *c == v.cell) {
            self.free[i] = true;
        }
    }

    /// A cell fixed to `value` (one lin row `c = γ`), created once per builder and reused.
    pub fn constant(&mut self, value: Native) -> AssignedValue {
        let key = value.to_repr();
        if let Some(c) = self.constants.get(&key) {
            return *c;
        }
        let row = self.new_rows(1);
        self.enable(LINEAR_ROW, row);
        self.set_fixed(GAMMA, row, value);
        let c = self.assign(row, 2, value);
        self.constants.insert(key, c);
        c
    }

    /// A table laid out earlier in this builder under `key` (its id and cells), for gadgets
    /// that share one constant table per circuit (e.g. the window table of G).
    pub(crate) fn cached_table(&self, key: &str) -> Option<(u64, Vec<AssignedValue>)> {
        self.tables.get(key).cloned()
    }

    /// Records a table laid out under `key` (see [`Self::cached_table`]).
    pub(crate) fn cache_table(&mut self, key: &str, id: u64, cells: Vec<AssignedValue>) {
        self.tables.insert(key.to_string(), (id, cells));
    }

    pub fn stats(&self) -> LayoutStats {
        LayoutStats {
            advice_cells: self.advice.len(),
            lookup_cells: self.lookup_cells,
            rows: self.rows() as usize,
            copies: self.copies.len(),
        }
    }

    /// Indices (in assignment order) of the cells that are not marked free.
    pub(crate) fn constrained_cell_indices(&self) -> Vec<usize> {
        (0..self.advice.len()).filter(|&i| !self.free[i]).collect()
    }

    pub fn advice_cells(&self) -> &[(CellRef, Native)] {
        &self.advice
    }
    pub fn fixed_cells(&self) -> &[(FixedId, u32, Native)] {
        &self.fixed
    }
    pub fn enabled_gates(&self) -> &[(GateId, u32)] {
        &self.selectors
    }
    pub fn copy_constraints(&self) -> &[(CellRef, CellRef)] {
        &self.copies
    }
    /// Height of the tallest lane (its main or its Keccak rows, whichever is taller).
    pub fn rows(&self) -> u32 {
        self.lane_rows
            .iter()
            .copied()
            .max()
            .unwrap_or(0)
            .max(self.keccak_rows)
    }
}
