//! The range chip: lookups, decomposition, less-than, and linear rows on native cells.

use num_bigint::BigUint;
use num_traits::One;

use super::gates::{COEF, NEXT, PARTIAL_TAG, RANGE_ROW, SHIFT, TAG};
use crate::bigint::{fe_to_big, native, pow2};
use crate::layout::{
    AssignedValue, Builder, LayoutParams, Native, ALPHA, BETA, COPYABLE_LOOKUP_COLS, GAMMA,
    LINEAR_ROW, MAIN_COLS, MU,
};

/// A cell proven to hold 0 or 1. Only gates that enforce booleanity create one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AssignedBit(pub(crate) AssignedValue);

impl AssignedBit {
    pub fn cell(&self) -> &AssignedValue {
        &self.0
    }
    pub fn value(&self) -> bool {
        self.0.value == Native::ONE
    }
}

/// A cell proven `< 2^bits` by the range chip (a chunk of a range row, or a cell range-checked
/// to `bits`). Only this crate's range-checked layouts make one, so a gadget whose soundness
/// needs the bound (the point-table lookup's index, whose key names an entry of *its* table
/// only because `digit + plus < 256`) can take this type instead of a bare cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RangeChecked {
    cell: AssignedValue,
    bits: u32,
}

impl RangeChecked {
    /// A cell the caller's layout has proven `< 2^bits` (range rows of at most `bits` bits).
    pub(crate) fn proven(cell: AssignedValue, bits: u32) -> Self {
        Self { cell, bits }
    }

    /// A bare cell claimed `< 2^bits` without any check: the adversary tests use it to show
    /// what the bound protects. Never for circuit code.
    #[cfg(feature = "testing")]
    #[doc(hidden)]
    pub fn unchecked_for_tests(cell: AssignedValue, bits: u32) -> Self {
        Self { cell, bits }
    }

    pub fn cell(&self) -> &AssignedValue {
        &self.cell
    }

    /// The proven bound: the cell is `< 2^bits`.
    pub fn bits(&self) -> u32 {
        self.bits
    }
}

use ff::Field;

/// Range checks over the lookup table described by [`LayoutParams`].
#[derive(Clone, Debug)]
pub struct RangeChip {
    pub params: LayoutParams,
}

/// Cells of one range-row layout.
#[derive(Clone, Debug)]
pub struct RangeRows {
    /// The value cell of the first row (column 0).
    pub x: AssignedValue,
    /// The chunks, least significant first (the partial chunk last, not its shifted copy).
    pub chunks: Vec<AssignedValue>,
    /// First row and number of rows.
    pub first_row: u32,
    pub height: u32,
}

/// How a value is cut into looked-up chunks: `bits` bits in chunks of `chunk_bits` bits (the
/// top one partial when `chunk_bits` does not divide `bits`), each looked up in the table
/// section `tag`, which must hold `[0, 2^chunk_bits)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chunking {
    pub bits: u32,
    pub chunk_bits: u32,
    pub tag: u64,
}

impl Chunking {
    pub fn new(bits: u32, chunk_bits: u32, tag: u64) -> Self {
        Self {
            bits,
            chunk_bits,
            tag,
        }
    }
}

impl RangeChip {
    pub fn new(params: LayoutParams) -> Self {
        Self { params }
    }

    /// `bits` bits in chunks of the main table section (`lookup_bits` bits, tag 0).
    pub fn main_chunks(&self, bits: u32) -> Chunking {
        Chunking::new(bits, self.params.lookup_bits, 0)
    }

    /// Lays out the decomposition of the integer `value` as `chunking` says: `bits / c` chunks
    /// of `c = chunk_bits` bits and a partial chunk of `bits mod c` bits, looked up in the table
    /// section `tag` (which must hold `[0, 2^c)`). The first row's column-0 cell holds `value` (mod r).
    ///
    /// Soundness: each row proves `x_row = Σ f_j·d_j + f_next·x_next` with every `d_j` in
    /// `[0, 2^c)`, the partial one in `[0, 2^s)` (by its own table section, or as a chunk whose
    /// shifted copy `d·2^(c−s)` is also in `[0, 2^c)`); by induction from the last row
    /// (`f_next = 0`), `x_first = Σ d_i·2^(c·i)` over the integers as long as `bits < 253`
    /// (no wrap mod r), hence `x_first ∈ [0, 2^bits)`. A value ≥ 2^bits makes the honest chunks
    /// fail a lookup or the sum: the circuit is unsatisfiable, never wrong.
    pub fn range_rows(&self, b: &mut Builder, value: &BigUint, chunking: Chunking) -> RangeRows {
        self.range_rows_in(b, value, chunking, self.params.lookup_cols)
    }

    /// [`Self::range_rows`] with every chunk in the first [`COPYABLE_LOOKUP_COLS`] looked-up
    /// columns (the ones with equality), so the returned chunks can be copied: for window
    /// digits. `bits` must be a multiple of `c` (no partial chunk; a construction error
    /// otherwise).
    #[allow(clippy::manual_is_multiple_of)] // keeps the crate buildable before Rust 1.87
    pub fn copyable_rows(&self, b: &mut Builder, value: &BigUint, chunking: Chunking) -> RangeRows {
        let Chunking {
            bits, chunk_bits, ..
        } = chunking;
        assert!(
            bits % chunk_bits == 0,
            "copyable chunks are full chunks: {bits} bits in {chunk_bits}-bit chunks"
        );
        self.range_rows_in(b, value, chunking, COPYABLE_LOOKUP_COLS)
    }

    fn range_rows_in(
        &self,
        b: &mut Builder,
        value: &BigUint,
        chunking: Chunking,
        slots: usize,
    ) -> RangeRows {
        let Chunking {
            bits,
            chunk_bits: c,
            tag,
        } = chunking;
        let k = self.params.lookup_cols;
        let n_full = (bits / c) as usize;
        let s = bits % c;
        // A partial top chunk with its own table section sits in the last column (whose lookup
        // adds `ptag` to the row's tag); without one it sits in column K−2 with its shifted copy
        // `d·2^(c−s)` in column K−1 (both looked up in the row's section).
        let tagged = s > 0 && self.params.window_tag(s).is_some();
        let partial_slot = if tagged { k - 1 } else { k - 2 };
        // Slots per row: full chunks fill rows of k; the partial needs its slot (and, untagged,
        // the one after it) free in the last row.
        let mut rows: Vec<Vec<(usize, usize)>> = Vec::new(); // (slot, chunk index)
        for i in 0..n_full {
            if !matches!(rows.last(), Some(r) if r.len() < slots.min(k)) {
                rows.push(Vec::new());
            }
            let r = rows.last_mut().expect("just pushed");
            let slot = r.len();
            r.push((slot, i));
        }
        if s > 0 && !matches!(rows.last(), Some(r) if r.len() <= partial_slot) {
            rows.push(Vec::new());
        }
        if rows.is_empty() {
            rows.push(Vec::new());
        }
        let mask = (BigUint::one() << c) - 1u32;
        let chunk_val = |i: usize| -> BigUint {
            if i < n_full {
                (value >> (c as usize * i)) & &mask
            } else {
                value >> (c as usize * n_full)
            }
        };
        let height = rows.len() as u32;
        let first = b.new_rows(height);
        let mut chunks = Vec::with_capacity(n_full + 1);
        let mut x_first = None;
        let mut consumed = 0usize;
        for (ri, plan) in rows.iter().enumerate() {
            let row = first + ri as u32;
            let last = ri + 1 == rows.len();
            b.enable(RANGE_ROW, row);
            b.set_fixed(TAG, row, Native::from(tag));
            let x = b.assign(row, 0, native(&(value >> (c as usize * consumed))));
            if ri == 0 {
                x_first = Some(x);
            }
            for (t, (slot, i)) in plan.iter().enumerate() {
                let d = b.assign(row, MAIN_COLS + slot, native(&chunk_val(*i)));
                b.set_fixed(COEF.at(*slot), row, pow2(c * t as u32));
                chunks.push(d);
            }
            let mut in_row = plan.len();
            if last && s > 0 {
                let pv = chunk_val(n_full);
                let d = b.assign(row, MAIN_COLS + partial_slot, native(&pv));
                b.set_fixed(COEF.at(partial_slot), row, pow2(c * in_row as u32));
                match self.params.window_tag(s) {
                    // A table section for s bits: one lookup (last column) with tag `tag + ptag`.
                    Some(ts) => b.set_fixed(PARTIAL_TAG, row, Native::from(ts) - Native::from(tag)),
                    // Otherwise the shifted copy d·2^(c−s) in the last column, also looked up.
                    None => {
                        let g = pow2(c - s);
                        b.assign(row, MAIN_COLS + k - 1, native(&pv) * g);
                        b.set_fixed(SHIFT, row, g);
                    }
                }
                chunks.push(d);
                in_row += 1;
            }
            consumed += in_row;
            if !last {
                b.set_fixed(NEXT, row, pow2(c * in_row as u32));
            }
        }
        RangeRows {
            x: x_first.expect("at least one row"),
            chunks,
            first_row: first,
            height,
        }
    }

    /// Whether `range_rows` of [`Self::main_chunks`]`(bits)` takes a single row: the full chunks and, if any,
    /// the partial top chunk (one slot with its own table section, two without) fit in the
    /// lookup columns.
    pub(crate) fn fits_one_row(&self, bits: u32) -> bool {
        let (k, l) = (self.params.lookup_cols, self.params.lookup_bits);
        let (n_full, s) = ((bits / l) as usize, bits % l);
        if s == 0 {
            n_full <= k
        } else if self.params.window_tag(s).is_some() {
            n_full < k
        } else {
            n_full + 2 <= k
        }
    }

    /// Loads a witness already range-checked to `bits` bits (`bits ≤ 252`).
    pub fn load_checked(&self, b: &mut Builder, value: Native, bits: u32) -> AssignedValue {
        assert!(bits <= 252, "native range checks are limited to 252 bits");
        self.range_rows(b, &fe_to_big(&value), self.main_chunks(bits))
            .x
    }

    /// [`Self::load_checked`] as a [`RangeChecked`] cell.
    pub fn load_range_checked(&self, b: &mut Builder, value: Native, bits: u32) -> RangeChecked {
        RangeChecked::proven(self.load_checked(b, value, bits), bits)
    }

    /// Constrains the existing cell `x` to `[0, 2^bits)` (`bits ≤ 252`).
    pub fn range_check(&self, b: &mut Builder, x: &AssignedValue, bits: u32) {
        let y = self.load_checked(b, x.value, bits);
        b.constrain_equal(x, &y);
    }

    /// Decomposes `x ∈ [0, 2^bits)` into chunks of `chunk_bits` (the lookup bits, or a
    /// configured window size), least significant first, in copyable columns
    /// ([`Self::copyable_rows`]): `bits` must be a multiple of `chunk_bits`. Panics if
    /// `chunk_bits` has no table section or does not divide `bits` (construction errors).
    pub fn decompose(
        &self,
        b: &mut Builder,
        x: &AssignedValue,
        bits: u32,
        chunk_bits: u32,
    ) -> Vec<AssignedValue> {
        assert!(bits <= 252, "native decomposition is limited to 252 bits");
        let tag = self
            .params
            .window_tag(chunk_bits)
            .unwrap_or_else(|| panic!("no table section for {chunk_bits}-bit chunks"));
        let rr = self.copyable_rows(
            b,
            &fe_to_big(&x.value),
            Chunking::new(bits, chunk_bits, tag),
        );
        b.constrain_equal(x, &rr.x);
        rr.chunks
    }

    /// A witness bit: looked up in the 1-bit table section when configured, else `x·x = x`.
    pub fn load_bit(&self, b: &mut Builder, v: bool) -> AssignedBit {
        let val = if v { Native::ONE } else { Native::ZERO };
        if let Some(tag) = self.params.window_tag(1) {
            let rr = self.range_rows(b, &BigUint::from(v as u8), Chunking::new(1, 1, tag));
            return AssignedBit(rr.x);
        }
        let row = b.new_rows(1);
        b.enable(LINEAR_ROW, row);
        b.set_fixed(MU, row, Native::ONE);
        let x0 = b.assign(row, 0, val);
        let x1 = b.copy_of(&x0, row, 1);
        let _ = x1;
        let x2 = b.copy_of(&x0, row, 2);
        AssignedBit(x2)
    }

    /// One lin row: `out = α·x0 + β·x1 + μ·x0·x1 + γ`, with copies of the given inputs. A
    /// missing input is 0: where its coefficient is non-zero (`α` or `μ` for `x0`, `β` or `μ`
    /// for `x1`) the gate reads it, so it is a copy of the constant-0 cell (never an unassigned
    /// cell, which the prover could fill); otherwise it is not read and stays empty. Returns
    /// the output cell.
    #[allow(clippy::too_many_arguments)]
    pub fn linear_row(
        &self,
        b: &mut Builder,
        x0: Option<&AssignedValue>,
        x1: Option<&AssignedValue>,
        alpha: Native,
        beta: Native,
        mu: Native,
        gamma: Native,
    ) -> AssignedValue {
        let zero = Native::ZERO;
        let read0 = x0.is_none() && (alpha != zero || mu != zero);
        let read1 = x1.is_none() && (beta != zero || mu != zero);
        let pin = (read0 || read1).then(|| b.constant(zero));
        let row = b.new_rows(1);
        b.enable(LINEAR_ROW, row);
        if let Some(z) = pin {
            if read0 {
                b.copy_of(&z, row, 0);
            }
            if read1 {
                b.copy_of(&z, row, 1);
            }
        }
        let v0 = x0.map_or(Native::ZERO, |x| x.value);
        let v1 = x1.map_or(Native::ZERO, |x| x.value);
        for (f, v) in [(ALPHA, alpha), (BETA, beta), (MU, mu), (GAMMA, gamma)] {
            if v != Native::ZERO {
                b.set_fixed(f, row, v);
            }
        }
        if let Some(x) = x0 {
            b.copy_of(x, row, 0);
        }
        if let Some(x) = x1 {
            b.copy_of(x, row, 1);
        }
        b.assign(row, 2, alpha * v0 + beta * v1 + mu * v0 * v1 + gamma)
    }

    /// One lin row `out = α·a + β·c` (the common two-term case of [`Self::linear_row`]).
    pub(crate) fn weighted_sum(
        &self,
        b: &mut Builder,
        a: &AssignedValue,
        alpha: Native,
        c: &AssignedValue,
        beta: Native,
    ) -> AssignedValue {
        self.linear_row(b, Some(a), Some(c), alpha, beta, Native::ZERO, Native::ZERO)
    }

    /// Returns a bit that is 1 iff `a < c`, for `a, c ∈ [0, 2^bits)` (the caller's
    /// obligation; `bits ≤ 251`).
    ///
    /// Witness `lt`, prove it boolean, and range-check `u = a − c + lt·2^bits` to `bits` bits:
    /// with `|a − c| < 2^bits`, `u ∈ [0, 2^bits)` holds for `lt = 1` iff `a < c`, for `lt = 0`
    /// iff `a ≥ c`; the other choice of `lt` leaves `u` outside the range.
    pub fn is_less_than(
        &self,
        b: &mut Builder,
        a: &AssignedValue,
        c: &AssignedValue,
        bits: u32,
    ) -> AssignedBit {
        assert!(bits <= 251);
        let lt = fe_to_big(&a.value) < fe_to_big(&c.value);
        let bit = self.load_bit(b, lt);
        let t = self.linear_row(
            b,
            Some(a),
            Some(c),
            Native::ONE,
            -Native::ONE,
            Native::ZERO,
            Native::ZERO,
        );
        let u = self.linear_row(
            b,
            Some(&t),
            Some(bit.cell()),
            Native::ONE,
            pow2(bits),
            Native::ZERO,
            Native::ZERO,
        );
        self.range_check(b, &u, bits);
        bit
    }

    /// Constrains `a < c` for `a, c ∈ [0, 2^bits)`: `c − a − 1 ∈ [0, 2^bits)`. If `a ≥ c`,
    /// `c − a − 1` is negative, i.e. ≥ r − 2^bits as a field element: outside the range.
    pub fn assert_less_than(
        &self,
        b: &mut Builder,
        a: &AssignedValue,
        c: &AssignedValue,
        bits: u32,
    ) {
        assert!(bits <= 251);
        let d = self.linear_row(
            b,
            Some(a),
            Some(c),
            -Native::ONE,
            Native::ONE,
            Native::ZERO,
            -Native::ONE,
        );
        self.range_check(b, &d, bits);
    }

    /// A free witness cell (no constraint): a main-column cell in a fresh row.
    pub fn load_witness(&self, b: &mut Builder, v: Native) -> AssignedValue {
        let row = b.new_rows(1);
        b.assign(row, 3, v)
    }
}
