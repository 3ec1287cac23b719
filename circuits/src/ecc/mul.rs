//! Scalar multiplication with signed odd window digits: scalar recoding, the shared-doubling
//! Straus multi-scalar multiplication over point-table lookups, and the fixed-base and
//! variable-base multiplications built on it.
//!
//! **Signed odd digits.** At window `w` (3, 4 or 5; `W = 2^w`) every scalar is written as
//! `k' = Σ_j (2e_j − (W − 1))·W^j` with window digits `e_j ∈ [0, W)`, i.e. signed odd digits
//! `±1, ±3, …, ±(W − 1)`, and `k' ≡ k (mod n)`. The window table of a point holds
//! `(2e − (W − 1))·P` (`ecc::table`): `W/2` computed multiples and their negations, half the
//! additions of an unsigned table, and never the identity. An odd `k'` always exists: `k`
//! itself when odd, else `k + n` (n is odd). The recodings below prove `2E = k' + (W^m − 1)`
//! for `E = Σ e_j·W^j`, from which `Σ (2e_j − (W − 1))·W^j = k'` follows.

use std::sync::OnceLock;

use ff::Field;
use group::Curve;
use halo2curves::secp256k1::{Fq, Secp256k1, Secp256k1Affine};
use halo2curves::CurveExt;
use num_bigint::{BigInt, BigUint};
use num_traits::One;

use super::point::{AccPoint, AssignedPoint, EccChip};
use super::table::{odd_digit, PointLookupTable};
use crate::bigint::{fe_to_big, modulus, native, pow2};
use crate::field::params::{to_limbs, LIMB_BITS, NUM_LIMBS};
use crate::field::{FieldChip, FieldValue, Proper};
use crate::layout::{AssignedValue, Builder, Native};
use crate::range::{Chunking, RangeChecked};

/// The default window width (16-entry tables): every multiplication that names no window,
/// and the short `2·lo + 1` coefficients.
pub const WINDOW: u32 = 4;

/// The window widths the odd tables and recodings support: 3, 4 and 5 (8, 16, 32 entries).
pub const WINDOWS: [u32; 3] = [3, 4, 5];

/// Panics unless `w` is one of [`WINDOWS`] (a construction error).
pub(crate) fn assert_window(w: u32) {
    assert!(WINDOWS.contains(&w), "windows of 3, 4 or 5 bits");
}

/// Windows of a recoded full-width scalar at window `w`: the least m with `w·m ≥ 257`
/// (65 at w = 4, 52 at w = 5, 86 at w = 3).
pub fn full_windows(w: u32) -> usize {
    257u32.div_ceil(w) as usize
}

/// One window of a recoded scalar: table index `digit + plus ∈ [0, 2^window)` (`digit`
/// proven `< 2^width` where it was made: a [`RangeChecked`] cell, so it cannot name another
/// table's entry) of a table with `2^window` entries, worth the signed odd digit
/// `2·(digit + plus) − (2^window − 1)` times `2^offset`.
#[derive(Clone, Debug)]
pub struct ScalarWindow {
    pub digit: RangeChecked,
    pub offset: u32,
    pub width: u32,
    pub plus: u64,
    pub window: u32,
}

impl ScalarWindow {
    /// The table index of the honest digit.
    pub fn index(&self) -> u64 {
        let d = fe_to_big(&self.digit.cell().value);
        d.to_u64_digits().first().copied().unwrap_or(0) + self.plus
    }
}

/// The integer a list of windows represents, `Σ (2·index − (2^window − 1))·2^offset`
/// (tests, witnesses).
pub fn windows_value(ws: &[ScalarWindow]) -> BigInt {
    ws.iter()
        .map(|w| BigInt::from(odd_digit(w.index() as usize, w.window)) << w.offset)
        .sum()
}

/// The nothing-up-my-sleeve accumulator start `A`: `Secp256k1::hash_to_curve` (SvdW, RFC 9380
/// style) with domain `"batch-ecdsa-circuits/ecc-offset"` of the message `"A"`. Nobody knows
/// its discrete logarithm (to G or to any input point), which is what makes a degenerate
/// intermediate addition negligible for honest inputs; the multiplications start from it so
/// the accumulator is never a small combination of the inputs, and remove `2^(o_top)·A` at the
/// end (a constant).
pub(crate) fn offset_point() -> Secp256k1Affine {
    static A: OnceLock<Secp256k1Affine> = OnceLock::new();
    *A.get_or_init(|| {
        let h = Secp256k1::hash_to_curve("batch-ecdsa-circuits/ecc-offset");
        h(b"A").to_affine()
    })
}

/// `α·x + Σⱼ (cⱼ·yⱼ + γⱼ)` as a chain of linear rows, one per term `(yⱼ, cⱼ, γⱼ)`: the first
/// row is `α·x + c₀·y₀ + γ₀`, each later row `acc + cⱼ·yⱼ + γⱼ` (its first input a copy of the
/// row before's output). Returns the last output. Needs at least one term.
fn linear_chain(
    fq: &FieldChip<Fq>,
    b: &mut Builder,
    (x, alpha): (&AssignedValue, Native),
    terms: &[(&AssignedValue, Native, Native)],
) -> AssignedValue {
    let (mut acc, mut a) = (*x, alpha);
    for (y, c, g) in terms {
        acc = fq
            .range
            .linear_row(b, Some(&acc), Some(y), a, *c, Native::ZERO, *g);
        a = Native::ONE;
    }
    acc
}

/// Bit sizes of the three digit groups of a recoding at window `w`: each a multiple of `w`,
/// the first ending at or above bit 88 (so that everything above it is a multiple of 2^88),
/// together `w·m` bits for `m = full_windows(w)`: `[88, 88, 84]` at w = 4, `[90, 90, 80]` at
/// w = 5, `[90, 87, 81]` at w = 3.
fn group_bits(w: u32) -> [u32; 3] {
    let total = w * full_windows(w) as u32;
    let g0 = LIMB_BITS.div_ceil(w) * w;
    let g1 = (2 * LIMB_BITS).div_ceil(w) * w - g0;
    [g0, g1, total - g0 - g1]
}

/// The `m = full_windows(w)` signed-odd windows of a proper scalar `k` at window `w ∈ {3, 4,
/// 5}` (limbs range-checked, `k < 2^256`, maybe `≥ n`): the recoding `k' = k + β·n` (β a
/// proven bit), `E = (k' + 2^(wm) − 1)/2`, decomposed into w-bit digits in three groups
/// `E₀, E₁, E₂` ([`group_bits`]: `E₀` has `g₀ ≥ 88` bits) by range rows of the w-bit table
/// section.
///
/// **Constraints.** With `M = 2^(wm) − 1` and `X = 2E − k − β·n − M` (an integer,
/// `|X| < 2^262`, all parts range-checked):
/// * the low limb: `2E₀ − k₀ − β·n₀ − M₀ = 2^88·(t − 2)` with `M₀ = 2^88 − 1` the low limb of
///   M and t range-checked to 2 bits at `g₀ = 88`, 4 bits at `g₀ = 90` (the left side lies in
///   `(−3·2^88, 2^(g₀+1))`, so the honest `t < 2^(g₀−87) + 2` is in range), and every other
///   part of X (`2^g₀·E₁`, `2^(g₀+g₁)·E₂`, `k₁·2^88`, …) is a multiple of 2^88, so
///   `X ≡ 0 (mod 2^88)`;
/// * natively: `X ≡ 0 (mod r)`, from the limbs and the groups.
///
/// `2^88` and `r` are coprime and `|X| < 2^88·r`, so `X = 0`: `2E = k + β·n + M`, hence
/// `Σ (2e_j − (W − 1))·W^j = 2E − M = k + β·n ≡ k (mod n)`. If β has the wrong parity,
/// `k + β·n + M` is odd and no E exists: the honest β is forced. `E < 2^(wm)` holds for the
/// honest E because `k + β·n < 2n + 1 ≤ 2^257 ≤ 2^(wm)`.
pub fn odd_windows(
    fq: &FieldChip<Fq>,
    b: &mut Builder,
    k: &Proper<Fq>,
    w: u32,
) -> Vec<ScalarWindow> {
    assert_window(w);
    let range = &fq.range;
    let tag = range
        .params
        .window_tag(w)
        .unwrap_or_else(|| panic!("no table section for {w}-bit windows"));
    let n = modulus::<Fq>();
    let m = full_windows(w);
    let kv = k.crt().value.clone();
    let beta = (&kv % 2u32) == BigUint::from(0u8);
    let kp = if beta { &kv + &n } else { kv.clone() };
    let m_all = (BigUint::one() << (w as usize * m)) - 1u32;
    let e = (&kp + &m_all) >> 1;
    let gb = group_bits(w);
    let starts = [0, gb[0], gb[0] + gb[1]];
    let eg: Vec<BigUint> = (0..3)
        .map(|g| (&e >> starts[g]) & ((BigUint::one() << gb[g]) - 1u32))
        .collect();
    let beta_bit = range.load_bit(b, beta);
    let mut groups = Vec::with_capacity(NUM_LIMBS);
    let mut out = Vec::with_capacity(m);
    for g in 0..3 {
        let rr = range.copyable_rows(b, &eg[g], Chunking::new(gb[g], w, tag));
        for (j, digit) in rr.chunks.iter().enumerate() {
            out.push(ScalarWindow {
                // A w-bit chunk of a copyable range row.
                digit: RangeChecked::proven(*digit, w),
                offset: starts[g] + w * j as u32,
                width: w,
                plus: 0,
                window: w,
            });
        }
        groups.push(rr.x);
    }
    let kl = k.limbs();
    let nl = to_limbs(&n);
    let ml = to_limbs(&m_all);
    let (one, zero) = (Native::ONE, Native::ZERO);
    // Low limb: 2E₀ − k₀ − β·n₀ − M₀ = 2^88·(t − 2).
    let low = BigInt::from(eg[0].clone()) * 2
        - BigInt::from(fe_to_big(&kl[0].value))
        - if beta {
            BigInt::from(nl[0].clone())
        } else {
            BigInt::from(0u8)
        }
        - BigInt::from(ml[0].clone());
    // The honest t is below 2^(g₀−87) + 2 (see the doc): its bits.
    let t_max = (BigUint::one() << (gb[0] - LIMB_BITS + 1)) + 1u32;
    let t_bits = t_max.bits() as u32;
    let t: BigInt = (low >> LIMB_BITS) + BigInt::from(2u8);
    let t = t
        .to_biguint()
        .filter(|x| x.bits() <= t_bits as u64)
        .unwrap_or_default();
    let t_cell = range.load_checked(b, native(&t), t_bits);
    let u = linear_chain(
        fq,
        b,
        (&groups[0], Native::from(2u64)),
        &[
            (&kl[0], -one, zero),
            (beta_bit.cell(), -native(&nl[0]), -native(&ml[0])),
            (&t_cell, -pow2(LIMB_BITS), pow2(LIMB_BITS + 1)),
        ],
    );
    let zero_cell = b.constant(zero);
    b.constrain_equal(&u, &zero_cell);
    // Natively: 2(E₀ + 2^g₀·E₁ + 2^(g₀+g₁)·E₂) − k̂ − β·n − M ≡ 0.
    let w = linear_chain(
        fq,
        b,
        (&groups[0], Native::from(2u64)),
        &[
            (&groups[1], pow2(starts[1] + 1), zero),
            (&groups[2], pow2(starts[2] + 1), zero),
            (&kl[0], -one, zero),
            (&kl[1], -pow2(LIMB_BITS), zero),
            (&kl[2], -pow2(2 * LIMB_BITS), zero),
            (beta_bit.cell(), -native(&n), -native(&m_all)),
        ],
    );
    b.constrain_equal(&w, &zero_cell);
    out
}

/// The signed-odd windows of the odd scalar `z = 2·lo + 1` for a cell `lo` proven
/// `< 2^bits` here, `bits = 4m − 1`: `E = (z + 16^m − 1)/2 = lo + 8·16^(m−1)`, so the windows
/// are the 4-bit digits of `lo` with 8 added to the top index. The decomposition (range rows
/// of the 4-bit section starting from a copy of `lo`, `m` full digits) proves
/// `lo = Σ digit_j·16^j`, and a 3-bit range check of the top digit makes `lo < 2^bits`; hence
/// `Σ (2·index_j − 15)·16^j = z`. `lo = 0`, `bits = 3` gives the single window of `z = 1`.
pub fn odd_windows_short(
    fq: &FieldChip<Fq>,
    b: &mut Builder,
    lo: &AssignedValue,
    bits: u32,
) -> Vec<ScalarWindow> {
    assert!(
        bits % WINDOW == WINDOW - 1 && bits <= 251,
        "a short odd scalar 2·lo + 1 needs lo of 4m − 1 bits"
    );
    let digits = fq.range.decompose(b, lo, bits + 1, WINDOW);
    let m = digits.len();
    fq.range.range_check(b, &digits[m - 1], WINDOW - 1);
    digits
        .into_iter()
        .enumerate()
        .map(|(j, digit)| ScalarWindow {
            // A 4-bit chunk of `decompose`; the top one also range-checked to 3 bits.
            digit: RangeChecked::proven(digit, if j + 1 == m { WINDOW - 1 } else { WINDOW }),
            offset: WINDOW * j as u32,
            width: if j + 1 == m { WINDOW - 1 } else { WINDOW },
            plus: if j + 1 == m { 8 } else { 0 },
            window: WINDOW,
        })
        .collect()
}

/// One term of an MSM: a window table laid out for the lookup and the windows of its scalar.
pub type MsmTerm<'a> = (&'a PointLookupTable, &'a [ScalarWindow]);

impl EccChip {
    /// The Straus accumulator `acc = 2^(o_top)·A + Σ k'ᵢ·Pᵢ` over window tables with ONE shared
    /// chain of doublings, and the constant `2^(o_top)·A`. Each term's table must be
    /// [`Self::odd_table`] (or a constant odd table) of its point; `k'ᵢ` is the integer its
    /// windows represent ([`windows_value`]).
    ///
    /// From the top window offset down: the accumulator starts at the constant `A` plus every
    /// term's entry at the top offset; at each lower offset it is doubled `gap − 1` times, then
    /// `2·acc + (entries at this offset)` is one chained run ([`Self::add_run`] with the
    /// accumulator as its second term: the last doubling merged with the first addition).
    /// Every selection is a lookup of the window's proven index; every addition proves its x's
    /// distinct; every doubling is of an on-curve point. Windows of different scalars may sit
    /// at different offsets (a 128-bit coefficient has fewer windows).
    pub fn msm_tables(&self, b: &mut Builder, terms: &[MsmTerm<'_>]) -> (AccPoint, Secp256k1) {
        for (table, ws) in terms {
            assert!(
                ws.iter().all(|w| table.entries.len() == 1 << w.window),
                "a window's table has 2^window entries"
            );
            let mut o: Vec<u32> = ws.iter().map(|x| x.offset).collect();
            o.sort_unstable();
            o.dedup();
            assert_eq!(
                o.len(),
                ws.len(),
                "a scalar's windows have distinct offsets"
            );
            assert!(
                ws.iter()
                    .all(|w| w.width <= w.window && w.plus + (1u64 << w.width) <= 1 << w.window),
                "window index beyond the table"
            );
        }
        let mut offs: Vec<u32> = terms
            .iter()
            .flat_map(|(_, ws)| ws.iter().map(|w| w.offset))
            .collect();
        assert!(!offs.is_empty(), "an MSM needs at least one window");
        offs.sort_unstable();
        offs.dedup();
        let a = offset_point();
        let mut acc: AccPoint = self.constant_point(b, a).into();
        let mut prev: Option<u32> = None;
        for &o in offs.iter().rev() {
            let sels: Vec<AccPoint> = terms
                .iter()
                .filter_map(|(table, ws)| {
                    ws.iter()
                        .find(|w| w.offset == o)
                        .map(|w| self.select_lookup(b, table, &w.digit, w.plus))
                })
                .collect();
            acc = match prev {
                None => self.add_run(b, acc, &sels),
                Some(p) => {
                    for _ in 1..(p - o) {
                        acc = self.double_acc(b, &acc);
                    }
                    match sels.split_first() {
                        Some((s0, rest)) => {
                            let mut run = vec![s0.clone(), acc.clone()];
                            run.extend_from_slice(rest);
                            self.add_run(b, acc.clone(), &run)
                        }
                        None => self.double_acc(b, &acc),
                    }
                }
            };
            prev = Some(o);
        }
        for _ in 0..offs[0] {
            acc = self.double_acc(b, &acc);
        }
        let top = BigUint::one() << offs[offs.len() - 1];
        let off = Secp256k1::from(a) * crate::bigint::big_to_fe::<Fq>(&top);
        (acc, off)
    }

    /// `Σ kᵢ·Pᵢ (+ k₀·base)` for proper scalars at window `w` (3, 4 or 5; the builder's
    /// parameters need the w-bit table section): a window table per point, the cached
    /// constant table of `base`, the signed-odd recodings ([`odd_windows`]),
    /// [`Self::msm_tables`], and the constant offset removed by one addition; the result is
    /// proven canonical. The result must not be the identity (then the circuit is
    /// unsatisfiable), nor may a point be the identity (it cannot be represented).
    pub(crate) fn msm_with_base(
        &self,
        b: &mut Builder,
        points: &[AssignedPoint],
        scalars: &[Proper<Fq>],
        base: Option<(Secp256k1Affine, &Proper<Fq>)>,
        w: u32,
    ) -> AssignedPoint {
        assert_eq!(points.len(), scalars.len(), "one scalar per point");
        let mut tables: Vec<PointLookupTable> = points
            .iter()
            .map(|p| {
                let t = self.odd_table(b, &p.clone().into(), w);
                self.load_lookup_table(b, t)
            })
            .collect();
        let mut wins: Vec<Vec<ScalarWindow>> = scalars
            .iter()
            .map(|k| odd_windows(&self.fq, b, k, w))
            .collect();
        if let Some((pt, k)) = base {
            tables.push(self.constant_odd_table(b, pt, w));
            wins.push(odd_windows(&self.fq, b, k, w));
        }
        let terms: Vec<MsmTerm<'_>> = tables
            .iter()
            .zip(wins.iter())
            .map(|(t, w)| (t, w.as_slice()))
            .collect();
        let (acc, off) = self.msm_tables(b, &terms);
        let k = self.constant_point(b, (-off).to_affine());
        self.add_acc(b, &acc, &k.into()).finish(self, b)
    }

    /// `Σ kᵢ·Pᵢ (+ k₀·G)` at window `w`: [`Self::msm_with_base`] with the generator G as the
    /// base.
    pub fn msm(
        &self,
        b: &mut Builder,
        points: &[AssignedPoint],
        scalars: &[Proper<Fq>],
        g_scalar: Option<&Proper<Fq>>,
        w: u32,
    ) -> AssignedPoint {
        let g = Secp256k1::generator().to_affine();
        self.msm_with_base(b, points, scalars, g_scalar.map(|k| (g, k)), w)
    }

    /// `k·P` (the MSM with one point).
    pub fn scalar_mul(&self, b: &mut Builder, p: &AssignedPoint, k: &Proper<Fq>) -> AssignedPoint {
        self.msm(
            b,
            std::slice::from_ref(p),
            std::slice::from_ref(k),
            None,
            WINDOW,
        )
    }

    /// `k·base` for a constant `base` (its cached constant window table; no witness point).
    pub fn fixed_base_mul(
        &self,
        b: &mut Builder,
        k: &Proper<Fq>,
        base: Secp256k1Affine,
    ) -> AssignedPoint {
        self.msm_with_base(b, &[], &[], Some((base, k)), WINDOW)
    }
}
