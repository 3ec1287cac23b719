//! The two selection gates of the ecc layer (one pair per configured window size `w`,
//! `t = 2^w` table entries).
//!
//! **Witness table** (`EccSelect(w)`, block of `max(2t, t + 7)` rows on the main columns):
//! rows `i < t`: column 0 the indicator `e_i`, columns 1–3 the x limbs of entry `i` (copies);
//! rows `t + i`: columns 1–3 the y limbs of entry `i` (copies); column 0 rows `t .. t + 7`:
//! the selected limbs `ox_0, ox_1, ox_2, oy_0, oy_1, oy_2` and a copy of the digit `d`.
//!
//! **Constant table** (`EccSelectConst(w)`, block of `t` rows, `t ≥ 4`): column 0 row `i` the
//! indicator `e_i`; the limbs of constant entry `i` in the fixed columns α, β, μ, γ, coef 0,
//! coef 1 at row `i`; row 0 columns 1–3 `ox`, row 1 columns 1–3 `oy`, row 2 column 1 `d`.
//!
//! Both gates enforce, with the selector on the first row:
//! `e_i·(1 − e_i) = 0` for every i, `Σ e_i = 1`, `Σ i·e_i = d`, and `o_l = Σ e_i·entry_i,l`
//! for the six limbs. Booleans summing to 1 are one-hot, so exactly one `e_j = 1`, then
//! `d = j` and `o = entry_j` limb for limb: the output is the table entry at index `d`. An
//! all-zero indicator violates `Σ e_i = 1` (halo2-lib TOB-AXIOM-3); a digit outside `[0, t)`
//! has no one-hot preimage, so the block is unsatisfiable.

use halo2_proofs::plonk::{ConstraintSystem, Expression, VirtualCells};
use halo2_proofs::poly::Rotation;

use crate::layout::{ecc_select_sizes, FixedCol, GateKind, GroupConfig, LayoutParams, Native};

/// Fixed columns holding the six limbs (x0, x1, x2, y0, y1, y2) of a constant table entry.
pub const CONST_LIMB_COLS: [FixedCol; 6] = [
    FixedCol::Alpha,
    FixedCol::Beta,
    FixedCol::Mu,
    FixedCol::Gamma,
    FixedCol::Coef(0),
    FixedCol::Coef(1),
];

/// Height of a witness-table selection block for `t` entries.
pub fn select_height(t: usize) -> usize {
    (2 * t).max(t + 7)
}

fn adv(
    m: &mut VirtualCells<'_, Native>,
    c: &GroupConfig,
    col: usize,
    rot: usize,
) -> Expression<Native> {
    m.query_advice(c.main[col], Rotation(rot as i32))
}

fn k(x: u64) -> Expression<Native> {
    Expression::Constant(Native::from(x))
}

/// One-hot constraints shared by both gates: booleanity, `Σ e = 1`, `Σ i·e_i = d`.
fn one_hot(
    sel: &Expression<Native>,
    e: &[Expression<Native>],
    d: Expression<Native>,
) -> Vec<Expression<Native>> {
    let mut out: Vec<_> = e
        .iter()
        .map(|x| sel.clone() * x.clone() * (k(1) - x.clone()))
        .collect();
    let sum = e.iter().fold(k(0), |a, x| a + x.clone());
    out.push(sel.clone() * (sum - k(1)));
    let idx = e
        .iter()
        .enumerate()
        .fold(k(0), |a, (i, x)| a + x.clone() * k(i as u64));
    out.push(sel.clone() * (idx - d));
    out
}

/// Adds the point-table lookup of the queries of `cfg` into the tables of `table_group`, and
/// the selection gates of `cfg` for every window size of [`ecc_select_sizes`].
///
/// **Where tables live.** Every point table is laid out in ONE group, the table group (lane 0
/// of the first phase with column groups, see `CircuitConfig::configure` and
/// `EccChip::load_lookup_table`); the queries of every group look it up there. A lookup
/// argument is evaluated after every advice phase is committed, so a second-phase query may
/// read a first-phase table. The batch circuit, whose phase 0 is a commit column, builds its
/// tables and selects from them in phase 1.
///
/// **Point-table lookup** (dynamic, `lookup_any`, every query at the current row). The table
/// side is `(key, l0, l1, l2)` on every row: `key` is a fixed column used by nothing else, 0
/// except on table rows; `l0..l2` are main columns 1–3. A table entry occupies two rows: the
/// x limbs then the y limbs in columns 1–3 (copies of the entry's cells), with keys
/// `512·id + 2i + 2` (x) and `512·id + 2i + 3` (y), `id ≥ 1` unique per table, `i` the entry's
/// index (columns and key of the table group). A query occupies two rows with the fixed `lookup_in = 1`: column 0 a copy of the digit
/// `d` on both, columns 1–3 the selected x limbs, then y limbs, γ = `512·id + 2` and
/// `512·id + 3`; its tuple is `lookup_in·(γ + 2d, l0, l1, l2)`.
///
/// Soundness: a query's key `512·id + 2d + 2 (+1)` is nonzero, so it can only match a row
/// whose fixed key equals it, and keys are unique (ids distinct, every entry index and digit
/// `< 256`: digits are range-checked windows of at most 8 bits): that row is the x (or y) row
/// of entry d of that table, whose limbs are copy-constrained to the entry. A digit with no
/// entry matches no row. Rows with `lookup_in = 0` give the input `(0, 0, 0, 0)`, matched by
/// the empty row every table reserves (key 0, limbs unassigned = 0); rows with key 0 can only
/// match such zero inputs, whatever their advice holds.
pub fn configure(
    meta: &mut ConstraintSystem<Native>,
    cfg: &GroupConfig,
    table_group: &GroupConfig,
    params: &LayoutParams,
) {
    let c = cfg.clone();
    let tg = table_group.clone();
    meta.lookup_any("ecc point table", move |m| {
        let qi = m.query_fixed(c.lookup_in, Rotation::cur());
        let key = m.query_fixed(tg.lookup_table, Rotation::cur());
        let g = m.query_fixed(c.gamma, Rotation::cur());
        let d = m.query_advice(c.main[0], Rotation::cur());
        // Table side of degree 1 (a dedicated key column, 0 off table rows): the lookup has
        // degree 2 + 2 + 1 = 5, which keeps the extended domain of the degree-4 circuit.
        let mut out = vec![(qi.clone() * (g + d * k(2)), key)];
        for col in 1..4 {
            let v = m.query_advice(c.main[col], Rotation::cur());
            let tv = m.query_advice(tg.main[col], Rotation::cur());
            out.push((qi.clone() * v, tv));
        }
        out
    });
    for w in ecc_select_sizes(params) {
        let t = 1usize << w;
        let c = cfg.clone();
        meta.create_gate("ecc select", move |m| {
            let sel = m.query_selector(c.selector(GateKind::EccSelect(w)));
            let e: Vec<_> = (0..t).map(|i| adv(m, &c, 0, i)).collect();
            let d = adv(m, &c, 0, t + 6);
            let mut out = one_hot(&sel, &e, d);
            for l in 0..6 {
                // limb l: x limbs in rows 0..t, y limbs in rows t..2t; columns 1..3.
                let (base, col) = if l < 3 { (0, 1 + l) } else { (t, l - 2) };
                let o = adv(m, &c, 0, t + l);
                let s = (0..t).fold(k(0), |a, i| a + e[i].clone() * adv(m, &c, col, base + i));
                out.push(sel.clone() * (o - s));
            }
            out
        });
        let c = cfg.clone();
        meta.create_gate("ecc select const", move |m| {
            let sel = m.query_selector(c.selector(GateKind::EccSelectConst(w)));
            let e: Vec<_> = (0..t).map(|i| adv(m, &c, 0, i)).collect();
            let d = adv(m, &c, 1, 2);
            let mut out = one_hot(&sel, &e, d);
            for (l, f) in CONST_LIMB_COLS.iter().enumerate() {
                let o = adv(m, &c, 1 + l % 3, l / 3);
                let col = c.fixed(*f);
                let s = (0..t).fold(k(0), |a, i| {
                    a + e[i].clone() * m.query_fixed(col, Rotation(i as i32))
                });
                out.push(sel.clone() * (o - s));
            }
            out
        });
    }
}
