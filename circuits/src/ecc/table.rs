//! Tables of `2^w` points and selection of one entry by a window digit (the one-hot gates of
//! `gates.rs`).

use ff::Field;
use halo2curves::secp256k1::{Fp, Secp256k1Affine};
use num_bigint::BigUint;

use super::gates::{select_height, CONST_LIMB_COLS};
use super::point::{AccPoint, AssignedPoint, EccChip};
use crate::bigint::{fe_to_big, native};
use crate::field::params::{to_limbs, NUM_LIMBS};
use crate::field::{CrtInt, FieldValue, Proper, Reduced};
use crate::layout::{AssignedValue, Builder, FixedCol, GateKind, Native};

/// The honest one-hot indicator of digit `d` among `t` entries (all zero if `d ≥ t`, which the
/// gate then rejects).
fn indicator(d: &AssignedValue, t: usize) -> Vec<Native> {
    let dv = fe_to_big(&d.value);
    (0..t)
        .map(|i| {
            if dv == BigUint::from(i) {
                Native::ONE
            } else {
                Native::ZERO
            }
        })
        .collect()
}

fn window_of(t: usize) -> u32 {
    assert!(
        t.is_power_of_two() && t >= 4,
        "tables hold 2^w entries, w ≥ 2"
    );
    t.trailing_zeros()
}

impl EccChip {
    /// The table `[C, C + P, C + 2P, …, C + (t−1)·P]` for the constant offset point `C`:
    /// `t − 1` strict additions `T[d] = T[d−1] + P` (each proves its x's distinct; they are
    /// unless `C` is a small multiple of `±P`, which needs a discrete logarithm of the hashed
    /// `C`). Every entry is a proven on-curve point.
    pub fn offset_table(
        &self,
        b: &mut Builder,
        p: &AssignedPoint,
        c: Secp256k1Affine,
        t: usize,
    ) -> Vec<AssignedPoint> {
        let mut out = vec![self.constant_point(b, c)];
        for d in 1..t {
            let next = self.add_strict(b, &out[d - 1], p);
            out.push(next);
        }
        out
    }

    /// `table[d]` for a digit cell `d` (in `[0, 2^w)` where it was made, e.g. a scalar window),
    /// `table.len() = 2^w` with `2 ≤ w ≤ 5` configured. One block of the `EccSelect(w)` gate:
    /// one-hot indicator (booleans, `Σ = 1`, `Σ i·e_i = d`; an all-zero indicator fails), and
    /// the six output limbs are `Σ e_i·(limb of entry i)` over copies of the entries' limbs,
    /// i.e. exactly the limbs of `table[d]`: canonical and on the curve since every entry is.
    /// Cost `7·2^w + 7` cells.
    pub fn select_from_table(
        &self,
        b: &mut Builder,
        table: &[AssignedPoint],
        d: &AssignedValue,
    ) -> AssignedPoint {
        let e = indicator(d, table.len());
        self.select_from_table_with_indicator(b, table, d, &e)
    }

    /// [`Self::select_from_table`] with a caller-chosen indicator witness (soundness tests).
    #[doc(hidden)]
    pub fn select_from_table_with_indicator(
        &self,
        b: &mut Builder,
        table: &[AssignedPoint],
        d: &AssignedValue,
        e: &[Native],
    ) -> AssignedPoint {
        let entries: Vec<(&CrtInt, &CrtInt)> =
            table.iter().map(|p| (p.x.crt(), p.y.crt())).collect();
        let (x, y) = select_block(b, &entries, d, e);
        AssignedPoint {
            x: Reduced::wrap(x),
            y: Reduced::wrap(y),
        }
    }

    /// The accumulator table `[C, C + P, …, C + (t−1)·P]` (entries with y proper, see
    /// [`AccPoint`]); the same additions as [`Self::offset_table`] without proving each y `< p`.
    pub fn offset_table_acc(
        &self,
        b: &mut Builder,
        p: &AssignedPoint,
        c: Secp256k1Affine,
        t: usize,
    ) -> Vec<AccPoint> {
        let mut out: Vec<AccPoint> = vec![self.constant_point(b, c).into()];
        for d in 1..t {
            let prev = &out[d - 1];
            let next = self.add_acc(b, &prev.x, &prev.y, &p.x, &p.y);
            out.push(next);
        }
        out
    }

    /// [`Self::select_from_table`] on an accumulator table: the same block; the output's x is
    /// canonical (every entry's is) and its y proper (every entry's is), and it is exactly the
    /// entry at index `d`.
    pub fn select_from_acc_table(
        &self,
        b: &mut Builder,
        table: &[AccPoint],
        d: &AssignedValue,
    ) -> AccPoint {
        let e = indicator(d, table.len());
        let entries: Vec<(&CrtInt, &CrtInt)> =
            table.iter().map(|p| (p.x.crt(), p.y.crt())).collect();
        let (x, y) = select_block(b, &entries, d, &e);
        AccPoint {
            x: Reduced::wrap(x),
            y: Proper::wrap(y),
        }
    }

    /// `table[d]` for a table of constant points: one block of the `EccSelectConst(w)` gate,
    /// the constants' limbs in fixed columns (no copies). Same one-hot argument as
    /// [`Self::select_from_table`]; the output is exactly the limbs of the constant `table[d]`,
    /// each checked on the curve here. Cost `2^w + 7` cells.
    pub fn select_constant(
        &self,
        b: &mut Builder,
        table: &[Secp256k1Affine],
        d: &AssignedValue,
    ) -> AssignedPoint {
        let e = indicator(d, table.len());
        self.select_constant_with_indicator(b, table, d, &e)
    }

    /// [`Self::select_constant`] with a caller-chosen indicator witness (soundness tests).
    #[doc(hidden)]
    pub fn select_constant_with_indicator(
        &self,
        b: &mut Builder,
        table: &[Secp256k1Affine],
        d: &AssignedValue,
        e: &[Native],
    ) -> AssignedPoint {
        let t = table.len();
        let w = window_of(t);
        let first = b.new_rows(t as u32);
        b.enable(GateKind::EccSelectConst(w), first);
        let mut out = [Native::ZERO; 6];
        let mut xm: [BigUint; 3] = Default::default();
        let mut ym: [BigUint; 3] = Default::default();
        for (i, pt) in table.iter().enumerate() {
            assert!(
                pt.y.square() == pt.x.square() * pt.x + Fp::from(7),
                "constant table entries must be on the curve"
            );
            let r = first + i as u32;
            let ei = e.get(i).copied().unwrap_or(Native::ZERO);
            b.assign(r, 0, ei);
            let limbs: Vec<BigUint> = to_limbs(&fe_to_big(&pt.x))
                .into_iter()
                .chain(to_limbs(&fe_to_big(&pt.y)))
                .collect();
            for (l, v) in limbs.iter().enumerate() {
                b.set_fixed(CONST_LIMB_COLS[l], r, native(v));
                out[l] += ei * native(v);
                let m = if l < 3 { &mut xm[l] } else { &mut ym[l - 3] };
                if v > m {
                    *m = v.clone();
                }
            }
        }
        let cells: Vec<AssignedValue> = (0..6)
            .map(|l| b.assign(first + (l / 3) as u32, 1 + l % 3, out[l]))
            .collect();
        b.copy_of(d, first + 2, 1);
        point_from_cells(&cells, xm, ym)
    }
}

/// Lays out one `EccSelect(w)` block over the (x, y) limbs of the entries (indicator `e`,
/// missing values 0) and returns the selected x and y with the entries' largest limb bounds.
fn select_block(
    b: &mut Builder,
    entries: &[(&CrtInt, &CrtInt)],
    d: &AssignedValue,
    e: &[Native],
) -> (CrtInt, CrtInt) {
    let t = entries.len();
    let w = window_of(t);
    let first = b.new_rows(select_height(t) as u32);
    b.enable(GateKind::EccSelect(w), first);
    let mut out = [Native::ZERO; 6];
    for (i, (x, y)) in entries.iter().enumerate() {
        let r = first + i as u32;
        let ei = e.get(i).copied().unwrap_or(Native::ZERO);
        b.assign(r, 0, ei);
        for l in 0..NUM_LIMBS {
            let xl = b.copy_of(&x.limbs[l], r, 1 + l);
            let yl = b.copy_of(&y.limbs[l], r + t as u32, 1 + l);
            out[l] += ei * xl.value;
            out[3 + l] += ei * yl.value;
        }
    }
    let cells: Vec<AssignedValue> = (0..6)
        .map(|l| b.assign(first + (t + l) as u32, 0, out[l]))
        .collect();
    b.copy_of(d, first + (t + 6) as u32, 0);
    let max = |pick: usize, l: usize| {
        entries
            .iter()
            .map(|(x, y)| if pick == 0 { x } else { y }.max_limbs[l].clone())
            .max()
            .unwrap_or_default()
    };
    let xm = [0, 1, 2].map(|l| max(0, l));
    let ym = [0, 1, 2].map(|l| max(1, l));
    (
        crt_from_cells(&cells[0..3], xm),
        crt_from_cells(&cells[3..6], ym),
    )
}

fn crt_from_cells(c: &[AssignedValue], m: [BigUint; NUM_LIMBS]) -> CrtInt {
    let limbs = [c[0], c[1], c[2]];
    let vals = limbs.map(|v| fe_to_big(&v.value));
    CrtInt {
        limbs,
        value: crate::field::params::from_limbs(&vals),
        max_limbs: m,
    }
}

/// Wraps six selected limb cells (x0..x2, y0..y2) as a point; the integer values are read
/// back from the limb cells (honest witness only).
fn point_from_cells(
    cells: &[AssignedValue],
    xm: [BigUint; NUM_LIMBS],
    ym: [BigUint; NUM_LIMBS],
) -> AssignedPoint {
    let mk = |c: &[AssignedValue], m: [BigUint; NUM_LIMBS]| -> Reduced<Fp> {
        let limbs = [c[0], c[1], c[2]];
        let vals = limbs.map(|v| fe_to_big(&v.value));
        Reduced::wrap(CrtInt {
            limbs,
            value: crate::field::params::from_limbs(&vals),
            max_limbs: m,
        })
    };
    AssignedPoint {
        x: mk(&cells[0..3], xm),
        y: mk(&cells[3..6], ym),
    }
}

/// A table of points laid out for the dynamic point-table lookup (see `gates.rs`): `id` is
/// unique per builder (the table's first row + 1), entry `i` has keys `512·id + 2i + 2 (+1)`.
#[derive(Clone, Debug)]
pub struct PointLookupTable {
    pub id: u64,
    pub entries: Vec<AccPoint>,
}

impl EccChip {
    /// Lays out `entries` (at most 256) as a lookup table: per entry two rows of copies of its
    /// limbs and the fixed key. Cost `6·t` cells (copies), once per table. Tables live in the
    /// builder of the first phase with column groups (`LayoutParams::first_group_phase`: phase
    /// 0, or phase 1 when phase 0 is a commit column), lane 0: the table group every group's
    /// queries look up (see `ecc::gates`), so their ids are unique; a later phase selects from
    /// them with [`Self::select_lookup`]. Panics on a builder of another phase (a construction
    /// error).
    pub fn load_lookup_table(&self, b: &mut Builder, entries: Vec<AccPoint>) -> PointLookupTable {
        assert!(
            entries.len() <= 256,
            "a point table holds at most 256 entries"
        );
        assert_eq!(
            b.phase,
            b.params.first_group_phase(),
            "point tables are laid out in the table group's phase"
        );
        // One extra empty row (key 0, nothing assigned): the zero tuple of non-query rows.
        let first = b.new_rows_in_lane(0, 2 * entries.len() as u32 + 1);
        let id = first as u64 + 1;
        for (i, p) in entries.iter().enumerate() {
            let r = first + 2 * i as u32;
            for (part, v) in [&p.x.limbs()[..], &p.y.limbs()[..]].iter().enumerate() {
                let row = r + part as u32;
                let key = 512 * id + 2 * i as u64 + 2 + part as u64;
                b.set_fixed(FixedCol::LookupTable, row, Native::from(key));
                for (l, cell) in v.iter().enumerate() {
                    b.copy_of(cell, row, 1 + l);
                }
            }
        }
        PointLookupTable { id, entries }
    }

    /// `table.entries[d]` by two lookup rows, each a copy of the digit and three selected limbs
    /// (8 cells). The digit must be `< 256` where it was made (a window of at most 8 bits), so
    /// the keys `512·id + 2d + 2 (+1)` name exactly entry d of this table (see
    /// `gates.rs`); a digit with no entry has no matching row and fails the lookup. The
    /// output is that entry: x canonical, y proper, on the curve.
    pub fn select_lookup(
        &self,
        b: &mut Builder,
        table: &PointLookupTable,
        d: &AssignedValue,
    ) -> AccPoint {
        let idx = fe_to_big(&d.value);
        // An out-of-range digit (no honest witness) selects nothing: the lookup then fails.
        let pick = (0..table.entries.len()).find(|i| BigUint::from(*i) == idx);
        self.select_lookup_pick(b, table, d, pick)
    }

    /// [`Self::select_lookup`] with the outputs taken from a caller-chosen entry (`None`: all
    /// zero): soundness tests. Not for circuit code.
    #[doc(hidden)]
    pub fn select_lookup_pick(
        &self,
        b: &mut Builder,
        table: &PointLookupTable,
        d: &AssignedValue,
        pick: Option<usize>,
    ) -> AccPoint {
        let pick = pick.and_then(|i| table.entries.get(i));
        let r = b.new_rows(2);
        for part in 0..2u32 {
            b.set_fixed(FixedCol::LookupIn, r + part, Native::ONE);
            let key = 512 * table.id + 2 + part as u64;
            b.set_fixed(FixedCol::Gamma, r + part, Native::from(key));
            b.copy_of(d, r + part, 0);
        }
        let val = |f: &dyn Fn(&AccPoint) -> Native| pick.map(f).unwrap_or(Native::ZERO);
        let xs: Vec<AssignedValue> = (0..NUM_LIMBS)
            .map(|l| b.assign(r, 1 + l, val(&|p| p.x.limbs()[l].value)))
            .collect();
        let ys: Vec<AssignedValue> = (0..NUM_LIMBS)
            .map(|l| b.assign(r + 1, 1 + l, val(&|p| p.y.limbs()[l].value)))
            .collect();
        let bound = |f: &dyn Fn(&AccPoint) -> &CrtInt, l: usize| {
            table
                .entries
                .iter()
                .map(|p| f(p).max_limbs[l].clone())
                .max()
                .unwrap_or_default()
        };
        let xm = [0, 1, 2].map(|l| bound(&|p| p.x.crt(), l));
        let ym = [0, 1, 2].map(|l| bound(&|p| p.y.crt(), l));
        AccPoint {
            x: Reduced::wrap(crt_from_cells(&xs, xm)),
            y: Proper::wrap(crt_from_cells(&ys, ym)),
        }
    }
}
