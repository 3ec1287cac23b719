//! Tables of odd multiples of a point, laid out for the point-table lookup, and selection of
//! one entry by a window digit.

use ff::Field;
use group::Curve;
use halo2curves::secp256k1::{Secp256k1, Secp256k1Affine};
use num_bigint::BigUint;

use super::gates::{LOOKUP_IN, LOOKUP_TABLE};
use super::point::{AccPoint, EccChip};
use crate::bigint::fe_to_big;
use crate::field::params::NUM_LIMBS;
use crate::field::{CrtInt, FieldValue, Overflowing, Proper};
use crate::layout::{AssignedValue, Builder, Native, GAMMA};
use crate::range::RangeChecked;

/// The signed odd digit of table index `e` in a table of `2^w` entries: `2e − (2^w − 1)`.
pub fn odd_digit(e: usize, w: u32) -> i64 {
    2 * e as i64 - ((1i64 << w) - 1)
}

/// A table of points laid out for the dynamic point-table lookup (see `gates.rs`): `id` is
/// unique per builder (the table's first row + 1), entry `i` has keys `512·id + 2i + 2 (+1)`.
#[derive(Clone, Debug)]
pub struct PointLookupTable {
    pub id: u64,
    pub entries: Vec<AccPoint>,
}

impl EccChip {
    /// The window table of `P` at window `w` (3, 4 or 5): entry `e` is `(2e − (2^w − 1))·P` for
    /// `e < 2^w` (at w = 4: `−15P, −13P, …, −P, P, 3P, …, 15P`). Built as `2P` (one doubling),
    /// the odd multiples `P, 3P, …` by `2^(w−1) − 1` additions of `2P` (each proves its x's
    /// distinct: `(2j−1)·P ≠ ±2P` as n is a prime above 33), and the negatives as lazy
    /// `(x, D − y)`. Every entry is on the curve; no entry is the identity, so a window digit
    /// never adds it.
    pub fn odd_table(&self, b: &mut Builder, p: &AccPoint, w: u32) -> Vec<AccPoint> {
        super::assert_window(w);
        let entries = 1usize << w;
        let half = entries / 2;
        let p2 = self.double_acc(b, p);
        let mut pos = vec![p.clone()];
        for j in 1..half {
            let next = self.add_acc(b, &pos[j - 1], &p2);
            pos.push(next);
        }
        let neg: Vec<AccPoint> = pos.iter().map(|e| self.neg_acc(b, e)).collect();
        // Index e < half: −(2^w − 1 − 2e)·P = neg[half − 1 − e]; else pos[e − half].
        (0..entries)
            .map(|e| {
                if e < half {
                    neg[half - 1 - e].clone()
                } else {
                    pos[e - half].clone()
                }
            })
            .collect()
    }

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
                b.set_fixed(LOOKUP_TABLE, row, Native::from(key));
                for (l, cell) in v.iter().enumerate() {
                    b.copy_of(cell, row, 1 + l);
                }
            }
        }
        PointLookupTable { id, entries }
    }

    /// The window table `(2e − (2^w − 1))·base` (`e < 2^w`, w = 3, 4 or 5) of a constant
    /// point, laid out once per builder and cached per base and window: constant cells
    /// (canonical, checked on the curve here) copied into the table rows, so nothing in it is
    /// chosen by the prover.
    pub fn constant_odd_table(
        &self,
        b: &mut Builder,
        base: Secp256k1Affine,
        w: u32,
    ) -> PointLookupTable {
        super::assert_window(w);
        let key = format!(
            "odd-table:{w}:{:x}:{:x}",
            fe_to_big(&base.x),
            fe_to_big(&base.y)
        );
        if let Some((id, cells)) = b.cached_table(&key) {
            return PointLookupTable {
                id,
                entries: cells
                    .chunks(2 * NUM_LIMBS)
                    .map(|c| self.acc_from_cells(c))
                    .collect(),
            };
        }
        let base = Secp256k1::from(base);
        let entries: Vec<AccPoint> = (0..1usize << w)
            .map(|e| {
                let d = odd_digit(e, w);
                let m = halo2curves::secp256k1::Fq::from(d.unsigned_abs());
                let pt = if d < 0 { -(base * m) } else { base * m };
                self.constant_point(b, pt.to_affine()).into()
            })
            .collect();
        let t = self.load_lookup_table(b, entries);
        let cells: Vec<AssignedValue> = t
            .entries
            .iter()
            .flat_map(|p| p.x.limbs().iter().chain(p.y.limbs().iter()).copied())
            .collect();
        b.cache_table(&key, t.id, cells);
        t
    }

    /// The cached entry of six constant limb cells (x then y); each limb's bound is its value.
    fn acc_from_cells(&self, c: &[AssignedValue]) -> AccPoint {
        let exact =
            |c: &[AssignedValue]| crt_from_cells(c, [0, 1, 2].map(|i| fe_to_big(&c[i].value)));
        AccPoint {
            x: Proper::wrap(exact(&c[0..3])),
            y: Overflowing::wrap(exact(&c[3..6])),
        }
    }

    /// `table.entries[index]` with `index = d + plus` for a digit `d` proven `< 2^bits` by the
    /// range chip (its type; `bits ≤ 8` and `plus + 2^bits ≤ 256`, asserted): two lookup
    /// rows, each a copy of the digit and three selected limbs (8 cells). The keys
    /// `512·id + 2·index + 2 (+1)` name exactly entry `index` of this table (see `gates.rs`); an
    /// index with no entry has no matching row and fails the lookup. The output is that entry:
    /// x proper, y bounded by the table's largest limbs, on the curve.
    pub fn select_lookup(
        &self,
        b: &mut Builder,
        table: &PointLookupTable,
        d: &RangeChecked,
        plus: u64,
    ) -> AccPoint {
        let idx = fe_to_big(&d.cell().value) + BigUint::from(plus);
        // An out-of-range digit (no honest witness) selects nothing: the lookup then fails.
        let pick = (0..table.entries.len()).find(|i| BigUint::from(*i) == idx);
        self.select_lookup_pick(b, table, d, plus, pick)
    }

    /// [`Self::select_lookup`] with the outputs taken from a caller-chosen entry (`None`: all
    /// zero): soundness tests. Not for circuit code.
    #[doc(hidden)]
    pub fn select_lookup_pick(
        &self,
        b: &mut Builder,
        table: &PointLookupTable,
        d: &RangeChecked,
        plus: u64,
        pick: Option<usize>,
    ) -> AccPoint {
        // The key 512·id + 2·(d + plus) + 2 names an entry of this table only while
        // d + plus < 256 (a larger d would reach the keys of table id + 1 and beyond).
        assert!(
            d.bits() <= 8 && plus + (1u64 << d.bits()) <= 256,
            "a lookup index must stay below 256: digit of {} bits plus {plus}",
            d.bits()
        );
        let d = d.cell();
        let pick = pick.and_then(|i| table.entries.get(i));
        let r = b.new_rows(2);
        for part in 0..2u32 {
            b.set_fixed(LOOKUP_IN, r + part, Native::ONE);
            let key = 512 * table.id + 2 + 2 * plus + part as u64;
            b.set_fixed(GAMMA, r + part, Native::from(key));
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
            x: Proper::wrap(crt_from_cells(&xs, xm)),
            y: Overflowing::wrap(crt_from_cells(&ys, ym)),
        }
    }
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
