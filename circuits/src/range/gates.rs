//! The range-row gate and the range-chunk lookups: the gates, fixed columns and lookups the
//! range layer declares.

use halo2_proofs::plonk::{ConstraintSystem, TableColumn};
use halo2_proofs::poly::Rotation;

use crate::layout::{FixedId, GateId, GroupConfig, LayoutParams, Native};

/// The range row (see [`configure`]).
pub const RANGE_ROW: GateId = GateId::new("range row");

/// The gates of the range layer, in selector order.
pub const GATES: [GateId; 1] = [RANGE_ROW];

/// `COEF.at(j)`: the coefficient of lookup column j in a range row.
pub const COEF: FixedId = FixedId::new("range coef");
/// Coefficient of the next row's column 0 in a range row (running sum).
pub const NEXT: FixedId = FixedId::new("range next");
/// Shift factor `2^(c − s)` of a partial chunk (0 when the row has none).
pub const SHIFT: FixedId = FixedId::new("range shift");
/// Table tag of the row's lookups.
pub const TAG: FixedId = FixedId::new("range tag");
/// Added to the row's tag for the last lookup column (a tagged partial chunk).
pub const PARTIAL_TAG: FixedId = FixedId::new("range partial tag");

/// The fixed columns of the range layer, in allocation order: one coefficient per lookup
/// column, then [`NEXT`], [`SHIFT`], [`TAG`], [`PARTIAL_TAG`].
pub fn fixed_columns(params: &LayoutParams) -> Vec<FixedId> {
    (0..params.lookup_cols)
        .map(|j| COEF.at(j))
        .chain([NEXT, SHIFT, TAG, PARTIAL_TAG])
        .collect()
}

/// Adds the range-row gate for one column group.
///
/// * Range row (selector [`RANGE_ROW`]): `x − Σ_j coef_j·d_j − next·x[next] = 0`, and, without
///   a selector (the fixed `shift` is 0 elsewhere), `shift·(d_(K−1) − shift·d_(K−2)) = 0`.
///
/// **Reads and what pins them.** A range row reads `x` (its value cell), each chunk `d_j`
/// whose fixed `coef_j ≠ 0`, `x[next]` where `next ≠ 0` (the next range row's value cell), and
/// the partial chunk and its shifted copy where `shift ≠ 0`; every one is assigned by
/// `RangeChip::range_rows` and looked up, and chunk slots with `coef_j = 0` are read by the
/// lookup only (which only bounds them: `crate::footprint`).
pub fn configure(meta: &mut ConstraintSystem<Native>, cfg: &GroupConfig) {
    let k = cfg.lookup.len();
    assert!(
        k >= 2,
        "at least two lookup columns are needed (partial chunk and its shifted copy)"
    );
    let c = cfg.clone();
    meta.create_gate("range row", move |m| {
        let s = m.query_selector(c.selector(RANGE_ROW));
        let x = m.query_advice(c.main[0], Rotation::cur());
        let xn = m.query_advice(c.main[0], Rotation::next());
        let mut sum = m.query_fixed(c.fixed(NEXT), Rotation::cur()) * xn;
        for j in 0..k {
            sum = sum
                + m.query_fixed(c.fixed(COEF.at(j)), Rotation::cur())
                    * m.query_advice(c.lookup[j], Rotation::cur());
        }
        let g = m.query_fixed(c.fixed(SHIFT), Rotation::cur());
        let dp = m.query_advice(c.lookup[k - 2], Rotation::cur());
        let ds = m.query_advice(c.lookup[k - 1], Rotation::cur());
        vec![s * (x - sum), g.clone() * (ds - g * dp)]
    });
}

/// Adds the lookups of the looked-up columns of one column group against the `(tag, value)`
/// range table: every looked-up cell must be in the table section named by its row's tag (the
/// last column: tag + partial tag, for a partial top chunk). Rows without range chunks have
/// tag 0 and zero cells, and (0, 0) is in the table.
pub(crate) fn configure_lookups(
    meta: &mut ConstraintSystem<Native>,
    cfg: &GroupConfig,
    table: (TableColumn, TableColumn),
) {
    let k = cfg.lookup.len();
    let (tag, ptag) = (cfg.fixed(TAG), cfg.fixed(PARTIAL_TAG));
    for (j, col) in cfg.lookup.iter().copied().enumerate() {
        meta.lookup("range chunk", |m| {
            let mut t = m.query_fixed(tag, Rotation::cur());
            if j + 1 == k {
                t = t + m.query_fixed(ptag, Rotation::cur());
            }
            let v = m.query_advice(col, Rotation::cur());
            vec![(t, table.0), (v, table.1)]
        });
    }
}
