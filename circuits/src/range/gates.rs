//! The range-row gate and the linear row gate.

use halo2_proofs::plonk::{ConstraintSystem, Expression};
use halo2_proofs::poly::Rotation;

use crate::layout::{GateKind, GroupConfig, Native};

/// Adds the gates of the range layer for one column group.
///
/// * Range row (selector `Range`): `x − Σ_j coef_j·d_j − next·x[next] = 0`, and, without a
///   selector (the fixed `shift` is 0 elsewhere), `shift·(d_(K−1) − shift·d_(K−2)) = 0`.
/// * Lin row (selector `Lin`): `α·x0 + β·x1 + μ·x0·x1 + γ − x2 = 0` on the main columns.
///
/// **Reads and what pins them.** A range row reads `x` (its value cell), each chunk `d_j`
/// whose fixed `coef_j ≠ 0`, `x[next]` where `next ≠ 0` (the next range row's value cell), and
/// the partial chunk and its shifted copy where `shift ≠ 0`; every one is assigned by
/// `RangeChip::range_rows` and looked up, and chunk slots with `coef_j = 0` are read by the
/// lookup only (which only bounds them: `crate::footprint`). A lin row reads `x2` always,
/// `x0` where `α` or `μ ≠ 0` and `x1` where `β` or `μ ≠ 0`: its callers assign (copy or
/// determine) each cell with a non-zero coefficient, e.g. the constant cell `x2 = γ`.
pub fn configure(meta: &mut ConstraintSystem<Native>, cfg: &GroupConfig) {
    let k = cfg.lookup.len();
    assert!(
        k >= 2,
        "at least two lookup columns are needed (partial chunk and its shifted copy)"
    );
    let c = cfg.clone();
    meta.create_gate("range row", move |m| {
        let s = m.query_selector(c.selector(GateKind::Range));
        let x = m.query_advice(c.main[0], Rotation::cur());
        let xn = m.query_advice(c.main[0], Rotation::next());
        let mut sum = m.query_fixed(c.next, Rotation::cur()) * xn;
        for j in 0..k {
            sum = sum
                + m.query_fixed(c.coef[j], Rotation::cur())
                    * m.query_advice(c.lookup[j], Rotation::cur());
        }
        let g = m.query_fixed(c.shift, Rotation::cur());
        let dp = m.query_advice(c.lookup[k - 2], Rotation::cur());
        let ds = m.query_advice(c.lookup[k - 1], Rotation::cur());
        vec![s * (x - sum), g.clone() * (ds - g * dp)]
    });
    let c = cfg.clone();
    meta.create_gate("lin row", move |m| {
        let s = m.query_selector(c.selector(GateKind::LinearRow));
        let q = |m: &mut halo2_proofs::plonk::VirtualCells<'_, Native>,
                 i: usize|
         -> Expression<Native> { m.query_advice(c.main[i], Rotation::cur()) };
        let (x0, x1, x2) = (q(m, 0), q(m, 1), q(m, 2));
        let al = m.query_fixed(c.alpha, Rotation::cur());
        let be = m.query_fixed(c.beta, Rotation::cur());
        let mu = m.query_fixed(c.mu, Rotation::cur());
        let ga = m.query_fixed(c.gamma, Rotation::cur());
        vec![s * (al * x0.clone() + be * x1.clone() + mu * x0 * x1 + ga - x2)]
    });
}
