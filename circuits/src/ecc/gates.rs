//! The point-table lookup of the ecc layer: a query selects one entry of a point table by a
//! window digit (see [`configure`]). Window tables hold the odd multiples `(2e − (2^w − 1))·P`
//! (`ecc::table`), so no selection ever returns the identity.

use halo2_proofs::plonk::{ConstraintSystem, Expression};
use halo2_proofs::poly::Rotation;

use crate::layout::{FixedId, GroupConfig, Native, GAMMA};

/// 1 on the rows of a point-table query, 0 elsewhere.
pub const LOOKUP_IN: FixedId = FixedId::new("ecc lookup in");
/// The key of a point-table entry row, 0 elsewhere; used by nothing else.
pub const LOOKUP_TABLE: FixedId = FixedId::new("ecc lookup table");
/// The fixed columns of the ecc layer, in allocation order.
pub const FIXED_COLUMNS: [FixedId; 2] = [LOOKUP_IN, LOOKUP_TABLE];

fn k(x: u64) -> Expression<Native> {
    Expression::Constant(Native::from(x))
}

/// Adds the point-table lookup of the queries of `cfg` into the tables of `table_group`.
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
/// index (columns and key of the table group). A query for index `d + plus` occupies two rows
/// with the fixed `lookup_in = 1`: column 0 a copy of the digit `d` on both, columns 1–3 the
/// selected x limbs, then y limbs, γ = `512·id + 2·plus + 2` and `512·id + 2·plus + 3`; its
/// tuple is `lookup_in·(γ + 2d, l0, l1, l2)`.
///
/// Soundness: a query's key `512·id + 2d + 2 (+1)` is nonzero, so it can only match a row
/// whose fixed key equals it, and keys are unique (ids distinct, every entry index and every
/// `d + plus < 256`: `EccChip::select_lookup` takes only a `range::RangeChecked` digit, of at
/// most 8 bits, and asserts `plus + 2^bits ≤ 256`; an unchecked digit `d + 256·(id′ − id)`
/// would name entry `d` of table `id′`, `tests/lookup_digit.rs`): that row is the x (or y) row
/// of entry `d + plus` of that
/// table, whose limbs are copy-constrained to the entry. A digit with no
/// entry matches no row. Rows with `lookup_in = 0` give the input `(0, 0, 0, 0)`, matched by
/// the empty row every table reserves (key 0; its limbs are 0 for an honest prover, which
/// only completeness needs); rows with key 0 can only match such zero inputs.
///
/// **Reads and what pins them.** Input side: on a query row (`lookup_in = 1`) the digit copy
/// and the three selected limbs, all assigned; elsewhere the input is 0 whatever the cells
/// hold. Table side: columns 1–3 of the table group on every row. On a key row they are the
/// copies of an entry's limbs; on a row with key 0 they are **free by design** (any values:
/// such a row matches only the zero input of a non-query row, so it selects nothing), which
/// the footprint check (`crate::footprint`) allows for this lookup alone.
pub fn configure(
    meta: &mut ConstraintSystem<Native>,
    cfg: &GroupConfig,
    table_group: &GroupConfig,
) {
    let c = cfg.clone();
    let tg = table_group.clone();
    meta.lookup_any("ecc point table", move |m| {
        let qi = m.query_fixed(c.fixed(LOOKUP_IN), Rotation::cur());
        let key = m.query_fixed(tg.fixed(LOOKUP_TABLE), Rotation::cur());
        let g = m.query_fixed(c.fixed(GAMMA), Rotation::cur());
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
}
