//! The layout layer's own gates: the linear row and the public-input mirror.

use halo2_proofs::plonk::{Column, ConstraintSystem, Expression, Instance, VirtualCells};
use halo2_proofs::poly::Rotation;

use super::config::GroupConfig;
use super::ids::{FixedId, GateId};
use super::Native;

/// The linear row (see [`configure_linear_row`]); builder constants are its rows.
pub const LINEAR_ROW: GateId = GateId::new("linear row");
/// Coefficient `α` of a linear row (other gates reuse it, e.g. the field relation).
pub const ALPHA: FixedId = FixedId::new("alpha");
/// Coefficient `β` of a linear row.
pub const BETA: FixedId = FixedId::new("beta");
/// Coefficient `μ` of a linear row.
pub const MU: FixedId = FixedId::new("mu");
/// Constant `γ` of a linear row (other gates reuse it at other rotations).
pub const GAMMA: FixedId = FixedId::new("gamma");
/// The fixed columns of the linear row, in allocation order.
pub const LINEAR_ROW_COLUMNS: [FixedId; 4] = [ALPHA, BETA, MU, GAMMA];

/// Adds the linear row gate ([`LINEAR_ROW`]) for one column group:
/// `α·x0 + β·x1 + μ·x0·x1 + γ − x2 = 0` on the main columns of the row, with the fixed
/// coefficients [`ALPHA`], [`BETA`], [`MU`] and [`GAMMA`].
///
/// **Reads and what pins them.** A linear row reads `x2` always, `x0` where `α` or `μ ≠ 0`
/// and `x1` where `β` or `μ ≠ 0`: its callers assign (copy or determine) each cell with a
/// non-zero coefficient, e.g. the constant cell `x2 = γ` of [`super::Builder::constant`].
pub(crate) fn configure_linear_row(meta: &mut ConstraintSystem<Native>, cfg: &GroupConfig) {
    let c = cfg.clone();
    meta.create_gate("lin row", move |m| {
        let s = m.query_selector(c.selector(LINEAR_ROW));
        let q = |m: &mut VirtualCells<'_, Native>, i: usize| -> Expression<Native> {
            m.query_advice(c.main[i], Rotation::cur())
        };
        let (x0, x1, x2) = (q(m, 0), q(m, 1), q(m, 2));
        let al = m.query_fixed(c.fixed(ALPHA), Rotation::cur());
        let be = m.query_fixed(c.fixed(BETA), Rotation::cur());
        let mu = m.query_fixed(c.fixed(MU), Rotation::cur());
        let ga = m.query_fixed(c.fixed(GAMMA), Rotation::cur());
        vec![s * (al * x0.clone() + be * x1.clone() + mu * x0 * x1 + ga - x2)]
    });
}

/// The public-input mirror (see [`configure_instance_gate`]): [`super::Builder::mirror_instance`]
/// lays its rows out.
pub const INSTANCE: GateId = GateId::new("instance");

/// Adds the public-input mirror gate ([`INSTANCE`]) on column group `cfg`, whose selector
/// `selector` the caller allocated: with it on row `i`, `s·(col0[i] − instance[i]) = 0`, so
/// each mirror cell of [`super::Builder::mirror_instance`] equals the public input at its row.
/// Reads: column 0 of the mirror rows, all assigned by `mirror_instance`.
pub(crate) fn configure_instance_gate(
    meta: &mut ConstraintSystem<Native>,
    cfg: &GroupConfig,
    selector: halo2_proofs::plonk::Selector,
    instance: Column<Instance>,
) {
    let col0 = cfg.main[0];
    meta.create_gate("instance", move |m| {
        let s = m.query_selector(selector);
        let x = m.query_advice(col0, Rotation::cur());
        let i = m.query_instance(instance, Rotation::cur());
        vec![s * (x - i)]
    });
}
