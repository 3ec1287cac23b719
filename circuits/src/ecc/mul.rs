//! Scalar multiplication: scalar windows, fixed-base multiplication from constant tables,
//! variable-base windowed multiplication, and the shared-doubling Straus MSM.

use std::sync::OnceLock;

use group::Curve;
use halo2curves::secp256k1::{Fq, Secp256k1, Secp256k1Affine};
use halo2curves::CurveExt;
use num_bigint::BigUint;

use super::point::{AccPoint, AssignedPoint, EccChip};
use super::table::PointLookupTable;
use crate::bigint::{big_to_fe, fe_to_big};
use crate::field::params::{LIMB_BITS, TOP_LIMB_BITS};
use crate::field::{FieldChip, Reduced};
use crate::layout::{AssignedValue, Builder};

/// One window of a scalar: `digit ∈ [0, 2^width)` (looked up), worth `digit·2^offset`.
#[derive(Clone, Debug)]
pub struct ScalarWindow {
    pub digit: AssignedValue,
    pub offset: u32,
    pub width: u32,
}

/// The nothing-up-my-sleeve offset points `(A, C)`: `Secp256k1::hash_to_curve` (SvdW, RFC 9380
/// style) with domain `"batch-ecdsa-circuits/ecc-offset"` of the messages `"A"` and `"C"`.
/// Nobody knows their discrete logarithms (to G, to each other, or to any input point), which
/// is what makes a degenerate intermediate addition negligible for honest inputs.
pub fn offsets() -> (Secp256k1Affine, Secp256k1Affine) {
    static OFFSETS: OnceLock<(Secp256k1Affine, Secp256k1Affine)> = OnceLock::new();
    *OFFSETS.get_or_init(|| {
        let h = Secp256k1::hash_to_curve("batch-ecdsa-circuits/ecc-offset");
        (h(b"A").to_affine(), h(b"C").to_affine())
    })
}

/// The `w`-bit windows of a canonical scalar, least significant first. Each of the three limbs
/// (88, 88, 80 bits, already range-checked where the scalar was loaded) is decomposed on its own
/// by range rows of the `w`-bit table section, starting from a copy of the limb: the rows prove
/// `limb = Σ digit_j·2^(w j)` with every full digit looked up in `[0, 2^w)` and the last, partial
/// one in `[0, 2^s)` (`s = bits mod w`), no wrap (`< 2^88`). So the digits are the unique base-2^w
/// digits of each limb, and `Σ digit·2^offset` is the scalar. Works for any `w` with a table
/// section (`w` need not divide 88). Panics if `w` has none (a construction error).
pub fn scalar_windows(
    fq: &FieldChip<Fq>,
    b: &mut Builder,
    k: &Reduced<Fq>,
    w: u32,
) -> Vec<ScalarWindow> {
    let tag = fq
        .range
        .params
        .window_tag(w)
        .unwrap_or_else(|| panic!("no table section for {w}-bit windows"));
    let bits = [LIMB_BITS, LIMB_BITS, TOP_LIMB_BITS];
    let mut out = Vec::new();
    for (i, (limb, nbits)) in k.limbs().iter().zip(bits).enumerate() {
        let rr = fq
            .range
            .range_rows(b, &fe_to_big(&limb.value), nbits, w, tag);
        b.constrain_equal(limb, &rr.x);
        for (j, digit) in rr.chunks.into_iter().enumerate() {
            let offset = LIMB_BITS * i as u32 + w * j as u32;
            let width = w.min(nbits - w * j as u32);
            out.push(ScalarWindow {
                digit,
                offset,
                width,
            });
        }
    }
    out
}

/// `k·P` natively for a small integer `k` times a power of two (table construction).
fn mul_big(p: &Secp256k1, k: &BigUint) -> Secp256k1 {
    *p * big_to_fe::<Fq>(k)
}

impl EccChip {
    /// `k·base` for a scalar given as canonical `Fq`, `base` a constant (G). Window
    /// `w = self.fixed_window`; window `j` (bit offset `o_j`) selects from the constant table
    /// `T_j[d] = d·2^(o_j)·base + C` (`T_0` also carries the start offset `A`), so no doubling
    /// is needed: `acc = T_0[d_0] + T_1[d_1] + …` is `k·base + A + m·C`, and the constant
    /// `−(A + m·C)` is added at the end. Every table is fixed (selected by the one-hot const
    /// gate), every offset a hashed constant: nothing is chosen by the prover.
    ///
    /// Fails (unsatisfiable) only when an intermediate addition degenerates: always for
    /// `k = 0` (the result would be the identity, which has no affine form), otherwise only if
    /// `k·base` or a partial sum hits a relation with the hashed `A`, `C` (negligible).
    pub fn fixed_base_mul(
        &self,
        b: &mut Builder,
        k: &Reduced<Fq>,
        base: Secp256k1Affine,
    ) -> AssignedPoint {
        self.fixed_base_mul_w(b, k, base, self.fixed_window)
    }

    /// [`Self::fixed_base_mul`] with an explicit window (a configured selection size).
    pub fn fixed_base_mul_w(
        &self,
        b: &mut Builder,
        k: &Reduced<Fq>,
        base: Secp256k1Affine,
        w: u32,
    ) -> AssignedPoint {
        let (acc, off) = self.fixed_base_acc(b, k, base, w);
        self.add_constant_acc(b, &acc, -off).finish(self, b)
    }

    /// The accumulator of [`Self::fixed_base_mul_w`] before the offset is removed, and that
    /// offset `A + m·C` (`acc = k·base + offset`).
    pub fn fixed_base_mul_raw(
        &self,
        b: &mut Builder,
        k: &Reduced<Fq>,
        base: Secp256k1Affine,
        w: u32,
    ) -> (AssignedPoint, Secp256k1) {
        let (acc, off) = self.fixed_base_acc(b, k, base, w);
        (acc.finish(self, b), off)
    }

    fn fixed_base_acc(
        &self,
        b: &mut Builder,
        k: &Reduced<Fq>,
        base: Secp256k1Affine,
        w: u32,
    ) -> (AccPoint, Secp256k1) {
        let (a, c) = offsets();
        let (a, c) = (Secp256k1::from(a), Secp256k1::from(c));
        let base = Secp256k1::from(base);
        let wins = scalar_windows(&self.fq, b, k, w);
        let t = 1usize << w;
        let mut acc: Option<AccPoint> = None;
        for (j, win) in wins.iter().enumerate() {
            let start = if j == 0 { a + c } else { c };
            let step = mul_big(&base, &(BigUint::from(1u8) << win.offset));
            let mut table = Vec::with_capacity(t);
            let mut cur = start;
            for _ in 0..t {
                table.push(cur.to_affine());
                cur += step;
            }
            let sel = self.select_constant(b, &table, &win.digit);
            acc = Some(match acc {
                None => sel.into(),
                Some(acc) => self.add_acc(b, &acc.x, &acc.y, &sel.x, &sel.y),
            });
        }
        let m = Fq::from(wins.len() as u64);
        let acc = acc.expect("a scalar has at least one window");
        (acc, a + c * m)
    }

    /// `P + K` for a constant `K` (strict: proves the x's distinct).
    pub fn add_constant(&self, b: &mut Builder, p: &AssignedPoint, k: Secp256k1) -> AssignedPoint {
        let kc = self.constant_point(b, k.to_affine());
        self.add_strict(b, p, &kc)
    }

    fn add_constant_acc(&self, b: &mut Builder, p: &AccPoint, k: Secp256k1) -> AccPoint {
        let kc = self.constant_point(b, k.to_affine());
        self.add_acc(b, &p.x, &p.y, &kc.x, &kc.y)
    }

    /// `k·P`, windowed (the MSM below with one point, window `self.fixed_window`).
    pub fn scalar_mul(&self, b: &mut Builder, p: &AssignedPoint, k: &Reduced<Fq>) -> AssignedPoint {
        self.msm(
            b,
            std::slice::from_ref(p),
            std::slice::from_ref(k),
            None,
            self.fixed_window,
        )
    }

    /// `Σ kᵢ·Pᵢ (+ k₀·G when g_scalar is given)` with ONE shared chain of doublings (Straus,
    /// window `w`). See [`Self::msm_raw`]; the constant offset is removed with one strict
    /// addition, so the result must not be the identity (then the circuit is unsatisfiable).
    pub fn msm(
        &self,
        b: &mut Builder,
        points: &[AssignedPoint],
        scalars: &[Reduced<Fq>],
        g_scalar: Option<&Reduced<Fq>>,
        w: u32,
    ) -> AssignedPoint {
        let (acc, off) = self.msm_acc(b, points, scalars, g_scalar, w);
        self.add_constant_acc(b, &acc, -off).finish(self, b)
    }

    /// The Straus accumulator `acc = Σ kᵢ·Pᵢ (+ k₀·G) + offset` and the constant `offset`.
    /// A caller that expects the sum to be the identity (batch verification) asserts
    /// `acc = offset` instead of subtracting it.
    ///
    /// Each point gets the table `[C + d·Pᵢ]` (`2^w − 1` strict additions), G the constant table
    /// `[C + d·G]`. All scalars are split into the same windows ([`scalar_windows`]); from the
    /// top window down: double the accumulator `o_(j+1) − o_j` times (shared by all points; the
    /// last doubling is merged with the window's first addition, see
    /// [`EccChip::double_and_add_acc`]), then add every point's selected entry. Starting from
    /// the constant `A` (folded into G's top-window entries when there is a G term),
    /// `acc = 2^(o_top)·A + (Σ_j 2^(o_j))·n_terms·C + Σ kᵢ·Pᵢ`; the offset is that constant.
    /// The selections are the one-hot gates (an index is the proven window digit), every
    /// addition proves its x's distinct, and every doubling is of an on-curve point (`y ≠ 0`).
    pub fn msm_raw(
        &self,
        b: &mut Builder,
        points: &[AssignedPoint],
        scalars: &[Reduced<Fq>],
        g_scalar: Option<&Reduced<Fq>>,
        w: u32,
    ) -> (AssignedPoint, Secp256k1) {
        let (acc, off) = self.msm_acc(b, points, scalars, g_scalar, w);
        (acc.finish(self, b), off)
    }

    fn msm_acc(
        &self,
        b: &mut Builder,
        points: &[AssignedPoint],
        scalars: &[Reduced<Fq>],
        g_scalar: Option<&Reduced<Fq>>,
        w: u32,
    ) -> (AccPoint, Secp256k1) {
        assert_eq!(points.len(), scalars.len(), "one scalar per point");
        let wins: Vec<Vec<ScalarWindow>> = scalars
            .iter()
            .map(|k| scalar_windows(&self.fq, b, k, w))
            .collect();
        let g_wins = g_scalar.map(|k| scalar_windows(&self.fq, b, k, w));
        self.msm_windows_acc(b, points, &wins, g_wins.as_deref(), w)
    }

    /// The MSM of [`Self::msm_raw`] on scalars already split into windows, each digit
    /// proven `< 2^width` with `width ≤ w` where it was made (e.g. [`scalar_windows`], or
    /// [`native_windows`] for a short scalar such as a 128-bit batch randomiser, which then
    /// costs additions only for its own windows). The windows of different scalars may sit at
    /// different bit offsets: Horner runs over the union of the offsets, and at each offset adds
    /// the entry of every scalar that has a window there. Returns the accumulator with its
    /// y canonical and the constant offset `2^(o_top)·A + Σ_(terms) Σ_(windows) 2^o·C`.
    pub fn msm_windows_raw(
        &self,
        b: &mut Builder,
        points: &[AssignedPoint],
        windows: &[Vec<ScalarWindow>],
        g_windows: Option<&[ScalarWindow]>,
        w: u32,
    ) -> (AssignedPoint, Secp256k1) {
        let (acc, off) = self.msm_windows_acc(b, points, windows, g_windows, w);
        (acc.finish(self, b), off)
    }

    fn msm_windows_acc(
        &self,
        b: &mut Builder,
        points: &[AssignedPoint],
        windows: &[Vec<ScalarWindow>],
        g_windows: Option<&[ScalarWindow]>,
        w: u32,
    ) -> (AccPoint, Secp256k1) {
        assert_eq!(points.len(), windows.len(), "one scalar per point");
        let (_, c) = offsets();
        let t = 1usize << w;
        let tables: Vec<Vec<AccPoint>> = points
            .iter()
            .map(|p| self.offset_table_acc(b, p, c, t))
            .collect();
        if self.lookup_select {
            let lookups: Vec<PointLookupTable> = tables
                .into_iter()
                .map(|tb| self.load_lookup_table(b, tb))
                .collect();
            self.straus_acc(b, windows, g_windows, w, |b, i, d| {
                self.select_lookup(b, &lookups[i], d)
            })
        } else {
            self.straus_acc(b, windows, g_windows, w, |b, i, d| {
                self.select_from_acc_table(b, &tables[i], d)
            })
        }
    }

    /// The Straus MSM of [`Self::msm_windows_raw`] on point tables that are already built and
    /// laid out for the point-table lookup (in the table group; the batch circuit builds them
    /// in phase 1 before its scalars). `tables[i]` must be
    /// `load_lookup_table(offset_table_acc(Pᵢ, C, 2^w))` with `C = offsets().1`, i.e. the entries
    /// `[C + d·Pᵢ]` for `d < 2^w`: the returned offset assumes it (a table with other entries
    /// gives a different, still exactly computed, sum). Every selection is a lookup (8 cells).
    /// Panics if a table does not have `2^w` entries (a construction error).
    pub fn msm_lookup_tables_raw(
        &self,
        b: &mut Builder,
        tables: &[&PointLookupTable],
        windows: &[Vec<ScalarWindow>],
        g_windows: Option<&[ScalarWindow]>,
        w: u32,
    ) -> (AssignedPoint, Secp256k1) {
        assert_eq!(tables.len(), windows.len(), "one scalar per table");
        assert!(
            tables.iter().all(|tb| tb.entries.len() == 1usize << w),
            "a table holds 2^w entries"
        );
        let (acc, off) = self.straus_acc(b, windows, g_windows, w, |b, i, d| {
            self.select_lookup(b, tables[i], d)
        });
        (acc.finish(self, b), off)
    }

    /// Straus over the union of the windows' offsets (see [`Self::msm_windows_raw`]);
    /// `select(b, i, d)` returns the entry `C + d·Pᵢ` of term i's table.
    fn straus_acc(
        &self,
        b: &mut Builder,
        windows: &[Vec<ScalarWindow>],
        g_windows: Option<&[ScalarWindow]>,
        w: u32,
        mut select: impl FnMut(&mut Builder, usize, &AssignedValue) -> AccPoint,
    ) -> (AccPoint, Secp256k1) {
        let all = windows
            .iter()
            .flatten()
            .chain(g_windows.into_iter().flatten());
        let mut offs: Vec<u32> = all.clone().map(|x| x.offset).collect();
        assert!(!offs.is_empty(), "an MSM needs at least one window");
        assert!(
            all.clone().all(|x| x.width <= w),
            "digit wider than the window"
        );
        for ws in windows.iter().map(|v| v.as_slice()).chain(g_windows) {
            let mut o: Vec<u32> = ws.iter().map(|x| x.offset).collect();
            o.sort_unstable();
            o.dedup();
            assert_eq!(
                o.len(),
                ws.len(),
                "a scalar's windows must have distinct offsets"
            );
        }
        offs.sort_unstable();
        offs.dedup();
        let (a, c) = offsets();
        let t = 1usize << w;
        let (a_p, c_p) = (Secp256k1::from(a), Secp256k1::from(c));
        let const_table = |start: Secp256k1| -> Vec<Secp256k1Affine> {
            let g = Secp256k1::generator();
            let mut cur = start;
            (0..t)
                .map(|_| {
                    let e = cur.to_affine();
                    cur += g;
                    e
                })
                .collect()
        };
        let g_table = const_table(c_p);
        let at = |ws: &[ScalarWindow], o: u32| -> Option<AssignedValue> {
            ws.iter().find(|x| x.offset == o).map(|x| x.digit)
        };
        let mut acc: Option<AccPoint> = None;
        let mut c_mult = BigUint::from(0u8);
        for (pos, &o) in offs.iter().enumerate().rev() {
            let top = acc.is_none();
            let mut sels: Vec<AccPoint> = Vec::new();
            for (i, ws) in windows.iter().enumerate() {
                if let Some(d) = at(ws, o) {
                    sels.push(select(b, i, &d));
                    c_mult += BigUint::from(1u8) << o;
                }
            }
            let g_digit = g_windows.and_then(|gw| at(gw, o));
            if let Some(d) = g_digit {
                c_mult += BigUint::from(1u8) << o;
                if !top {
                    sels.push(self.select_constant(b, &g_table, &d).into());
                }
            }
            let mut it = sels.into_iter();
            let mut acc_v: AccPoint = match acc {
                // Top offset: start from A, folded into G's entries when G has a window here.
                None => match g_digit {
                    Some(d) => self.select_constant(b, &const_table(a_p + c_p), &d).into(),
                    None => self.constant_point(b, a).into(),
                },
                Some(mut prev) => {
                    for _ in 1..(offs[pos + 1] - o) {
                        prev = self.double_acc(b, &prev.x, &prev.y);
                    }
                    // The last doubling merged with the first addition at this offset.
                    match it.next() {
                        Some(s) => self.double_and_add_acc(b, &prev, &s.x, &s.y),
                        None => self.double_acc(b, &prev.x, &prev.y),
                    }
                }
            };
            for s in it {
                acc_v = self.add_acc(b, &acc_v.x, &acc_v.y, &s.x, &s.y);
            }
            acc = Some(acc_v);
        }
        let top = BigUint::from(1u8) << offs[offs.len() - 1];
        let off = mul_big(&a_p, &top) + mul_big(&c_p, &c_mult);
        (acc.expect("at least one offset"), off)
    }
}

/// Windows of a native cell `x` proven `< 2^bits` (`bits ≤ 252`), e.g. a short batch
/// randomiser: range rows of the `w`-bit section starting from a copy of `x` prove
/// `x = Σ digit_j·2^(w j)` with each digit looked up (`< 2^w`, the last `< 2^(bits mod w)`),
/// which also proves `x < 2^bits`. Offsets `w·j`.
pub fn native_windows(
    fq: &FieldChip<Fq>,
    b: &mut Builder,
    x: &AssignedValue,
    bits: u32,
    w: u32,
) -> Vec<ScalarWindow> {
    let digits = fq.range.decompose(b, x, bits, w);
    digits
        .into_iter()
        .enumerate()
        .map(|(j, digit)| ScalarWindow {
            digit,
            offset: w * j as u32,
            width: w.min(bits - w * j as u32),
        })
        .collect()
}
