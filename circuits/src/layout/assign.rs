//! Writes a builder into a halo2 region, and the range table.

use std::collections::HashMap;

use halo2_proofs::circuit::{Cell, Layouter, Region, Value};
use halo2_proofs::plonk::{Error, TableColumn};

use super::builder::{lane_of, local_row, Builder, CellRef};
use super::config::{GroupConfig, LayoutParams};
use super::Native;

/// Assigns every cell, fixed value and selector of `b` into `region` and applies every copy
/// constraint of `b`. `lanes` are the column groups of the builder's phase (index = lane); a
/// builder row `lane << LANE_SHIFT | r` is row `r` (absolute) of group `lanes[lane]`. `cells`
/// collects the halo2 cells of this and earlier phases, so a later phase can copy cells of an
/// earlier one. A row naming a missing lane, or a copy with an end that is not assigned (in
/// this builder or an earlier phase's), is a synthesis error: a copy never silently drops.
pub(crate) fn assign_builder(
    region: &mut Region<'_, Native>,
    lanes: &[&GroupConfig],
    b: &Builder,
    cells: &mut HashMap<CellRef, Cell>,
) -> Result<(), Error> {
    let group = |row: u32| lanes.get(lane_of(row)).ok_or(Error::Synthesis);
    for (c, v) in b.advice_cells() {
        // The adversarial prover of the soundness tests may replace any value.
        #[cfg(feature = "testing")]
        let v = &super::adversary::cell_override(c).unwrap_or(*v);
        let col = group(c.row)?.advice(c.col as usize);
        let a = region.assign_advice(col, local_row(c.row) as usize, Value::known(*v));
        cells.insert(*c, a.cell());
    }
    // The adversary also writes cells the honest layout leaves unassigned.
    #[cfg(feature = "testing")]
    for (c, v) in super::adversary::phase_overrides(b.phase) {
        if !cells.contains_key(&c) {
            let col = group(c.row)?.advice(c.col as usize);
            region.assign_advice(col, local_row(c.row) as usize, Value::known(v));
        }
    }
    for (f, row, v) in b.fixed_cells() {
        region.assign_fixed(group(*row)?.fixed(*f), local_row(*row) as usize, *v);
    }
    for (g, row) in b.enabled_gates() {
        group(*row)?
            .selector(*g)
            .enable(region, local_row(*row) as usize)?;
    }
    for (x, y) in b.copy_constraints() {
        match (cells.get(x), cells.get(y)) {
            (Some(cx), Some(cy)) => region.constrain_equal(*cx, *cy),
            _ => return Err(Error::Synthesis),
        }
    }
    Ok(())
}

/// Fills the `(tag, value)` range table: tag 0 holds `[0, 2^lookup_bits)`, tag i ≥ 1 holds
/// `[0, 2^w_i)` for the i-th configured window size.
pub(crate) fn load_range_table(
    layouter: &mut impl Layouter<Native>,
    table: (TableColumn, TableColumn),
    params: &LayoutParams,
) -> Result<(), Error> {
    layouter.assign_table(
        || "range table",
        |mut t| {
            let mut row = 0;
            let sections = std::iter::once(params.lookup_bits).chain(params.sections());
            for (tag, bits) in sections.enumerate() {
                for v in 0..(1u64 << bits) {
                    t.assign_cell(
                        || "tag",
                        table.0,
                        row,
                        || Value::known(Native::from(tag as u64)),
                    )?;
                    t.assign_cell(|| "value", table.1, row, || Value::known(Native::from(v)))?;
                    row += 1;
                }
            }
            Ok(())
        },
    )
}
