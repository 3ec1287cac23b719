//! Cell counts of both circuits, from their layouts (no keys, no proofs): what the comparison
//! reports for every B, including the B too large to prove here.
//!
//! Each circuit is taken at its smallest k (lookup bits `k − 1`), as the circuits' own
//! `fitted` does; [`fit`] finds the same k with about two layouts instead of one per k from 10
//! up (a layout of B = 256 takes seconds and gigabytes). The naive circuit is B independent
//! verifications sharing only constants, so its layout is exactly `shared + B·per`; above
//! `--naive-layout-max-b` its figures come from that model ([`naive_model`]), fitted to
//! layouts of B = 1 and 2 at the same lookup bits, and are marked extrapolated.

use batch_ecdsa_circuits::ecdsa::batch::{batch_params, BatchEcdsaCircuit, DEFAULT_BATCH_WINDOW};
use batch_ecdsa_circuits::ecdsa::naive::{NaiveEcdsaCircuit, DEFAULT_WINDOW};
use batch_ecdsa_circuits::ecdsa::SignatureWitness;
use batch_ecdsa_circuits::layout::{LayoutParams, Native};
use ff::Field;
use halo2_proofs::plonk::{Circuit, ConstraintSystem};

use super::record::{Cells, Kind};
use crate::batch::{BatchFile, Policy};
use crate::demo::demo_batch;

/// Seed of the demo batches the comparison lays out and proves.
pub const DEMO_SEED: u64 = 1;

/// `b` valid signatures of the deterministic demo batch (seed [`DEMO_SEED`]) as circuit
/// witnesses.
pub fn demo_witnesses(b: usize) -> Result<Vec<SignatureWitness>, String> {
    let records = demo_batch(b, DEMO_SEED, &[]).map_err(|e| e.to_string())?;
    let file = BatchFile::from_records(&records).map_err(|e| {
        let reasons: Vec<String> = e.iter().map(|x| x.to_string()).collect();
        reasons.join("; ")
    })?;
    let items = file.items(Policy::default()).map_err(|e| {
        let reasons: Vec<String> = e.iter().map(|x| x.to_string()).collect();
        reasons.join("; ")
    })?;
    items
        .into_iter()
        .enumerate()
        .map(|(i, it)| {
            SignatureWitness::new(it.r_point, it.s, it.h, it.q)
                .map_err(|e| format!("signature {i}: {e}"))
        })
        .collect()
}

/// Layout figures of one circuit at lookup bits `lookup_bits` (k not yet decided).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub advice_cells: usize,
    pub lookup_cells: usize,
    pub fixed_cells: usize,
    /// Rows of the taller phase.
    pub rows: usize,
    pub params_min_k: u32,
}

fn params(kind: Kind, lookup_bits: u32) -> LayoutParams {
    match kind {
        Kind::Naive => LayoutParams::new(lookup_bits),
        Kind::Batch => batch_params(lookup_bits, DEFAULT_BATCH_WINDOW),
    }
}

/// Lays `kind` out over `sigs` at lookup bits `lookup_bits`.
pub fn layout(kind: Kind, sigs: &[SignatureWitness], lookup_bits: u32) -> Layout {
    let p = params(kind, lookup_bits);
    let (advice_cells, lookup_cells, fixed_cells, rows) = match kind {
        Kind::Naive => {
            let c = NaiveEcdsaCircuit::new(p.clone(), sigs.to_vec(), DEFAULT_WINDOW);
            let (b, _) = c.build();
            let s = b.stats();
            (
                s.advice_cells,
                s.lookup_cells,
                b.fixed_cells().len(),
                s.rows,
            )
        }
        Kind::Batch => {
            let w = DEFAULT_BATCH_WINDOW;
            let c = BatchEcdsaCircuit::new(p.clone(), sigs.to_vec(), w);
            // The layout does not depend on the challenge value.
            let (b0, b1, _) = c.build(Native::ONE);
            let (s0, s1) = (b0.stats(), b1.stats());
            (
                s0.advice_cells + s1.advice_cells,
                s0.lookup_cells + s1.lookup_cells,
                b0.fixed_cells().len() + b1.fixed_cells().len(),
                s0.rows.max(s1.rows),
            )
        }
    };
    Layout {
        advice_cells,
        lookup_cells,
        // As `prover::circuit::CircuitStats`: one per range-table row, plus the assigned ones.
        fixed_cells: fixed_cells + p.table_rows(),
        rows,
        params_min_k: p.min_k(rows),
    }
}

/// Advice and fixed columns of `kind`'s configuration at these lookup bits (from halo2's
/// constraint system, so exactly what keygen sees).
pub fn columns(kind: Kind, lookup_bits: u32) -> (usize, usize) {
    let mut cs = ConstraintSystem::<Native>::default();
    let p = params(kind, lookup_bits);
    match kind {
        Kind::Naive => {
            NaiveEcdsaCircuit::configure_with_params(&mut cs, p);
        }
        Kind::Batch => {
            BatchEcdsaCircuit::configure_with_params(&mut cs, p);
        }
    }
    (cs.num_advice_columns(), cs.num_fixed_columns())
}

/// The smallest k (lookup bits `k − 1`) at which `layout_at(k)` fits, starting the search at
/// `guess`: it walks up while the layout does not fit and down while the one below does.
/// `layout_at` must be monotone (fewer rows for more lookup bits), as the circuits are.
pub fn search_k(guess: u32, mut layout_at: impl FnMut(u32) -> Layout) -> (u32, Layout) {
    let mut k = guess.max(2);
    let mut l = layout_at(k);
    while l.params_min_k > k {
        k += 1;
        l = layout_at(k);
    }
    while k > 2 {
        let below = layout_at(k - 1);
        if below.params_min_k > k - 1 {
            break;
        }
        k -= 1;
        l = below;
    }
    (k, l)
}

/// `shared + B·per` fitted to layouts of B = 1 and 2 at lookup bits `lookup_bits`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinearModel {
    pub one: Layout,
    pub two: Layout,
    pub lookup_bits: u32,
}

impl LinearModel {
    /// The model's prediction for `b` signatures.
    pub fn at(&self, b: usize) -> Layout {
        let f = |x1: usize, x2: usize| {
            // shared = 2·x1 − x2, per = x2 − x1 (as signed: shared may be negative in principle).
            let (x1, x2, b) = (x1 as i128, x2 as i128, b as i128);
            let v = (2 * x1 - x2) + b * (x2 - x1);
            v.max(0) as usize
        };
        let rows = f(self.one.rows, self.two.rows);
        Layout {
            advice_cells: f(self.one.advice_cells, self.two.advice_cells),
            lookup_cells: f(self.one.lookup_cells, self.two.lookup_cells),
            fixed_cells: f(self.one.fixed_cells, self.two.fixed_cells),
            rows,
            params_min_k: LayoutParams::new(self.lookup_bits).min_k(rows),
        }
    }
}

/// The naive circuit's linear model at lookup bits `lookup_bits` (two small layouts).
pub fn naive_model(lookup_bits: u32) -> Result<LinearModel, String> {
    let sigs = demo_witnesses(2)?;
    Ok(LinearModel {
        one: layout(Kind::Naive, &sigs[..1], lookup_bits),
        two: layout(Kind::Naive, &sigs, lookup_bits),
        lookup_bits,
    })
}

/// A first guess of k for `b` signatures from the rows of B = 1 and 2 at lookup bits 17.
fn guess_k(kind: Kind, b: usize, sigs2: &[SignatureWitness]) -> u32 {
    let one = layout(kind, &sigs2[..1], 17);
    let two = layout(kind, sigs2, 17);
    let m = LinearModel {
        one,
        two,
        lookup_bits: 17,
    };
    let rows = m.at(b).rows + LayoutParams::RESERVED_ROWS;
    // With lookup bits k − 1 the table (about 2^(k−1) rows) fits whenever the rows do; the
    // search corrects the guess either way.
    rows.next_power_of_two().trailing_zeros()
}

/// The fitted layout of `kind` over `sigs` (laid out, not extrapolated).
pub fn fitted_cells(kind: Kind, sigs: &[SignatureWitness]) -> Result<Cells, String> {
    if sigs.is_empty() {
        return Err("a batch has at least one signature".into());
    }
    let two = demo_witnesses(2)?;
    let guess = guess_k(kind, sigs.len(), &two);
    let (k, l) = search_k(guess, |k| layout(kind, sigs, k - 1));
    Ok(cells_of(kind, k, l, false))
}

/// The naive circuit's cells for `b` signatures from the linear model, at the smallest k the
/// predicted rows fit.
pub fn extrapolated_naive_cells(b: usize) -> Result<Cells, String> {
    let two = demo_witnesses(2)?;
    let guess = guess_k(Kind::Naive, b, &two);
    let mut err = None;
    let (k, l) = search_k(guess, |k| match naive_model(k - 1) {
        Ok(m) => m.at(b),
        Err(e) => {
            err = Some(e);
            Layout {
                advice_cells: 0,
                lookup_cells: 0,
                fixed_cells: 0,
                rows: 0,
                params_min_k: 0,
            }
        }
    });
    if let Some(e) = err {
        return Err(e);
    }
    Ok(cells_of(Kind::Naive, k, l, true))
}

fn cells_of(kind: Kind, k: u32, l: Layout, extrapolated: bool) -> Cells {
    let (advice_columns, _) = columns(kind, k - 1);
    Cells {
        k,
        lookup_bits: k - 1,
        advice_columns,
        advice_cells: l.advice_cells,
        lookup_cells: l.lookup_cells,
        fixed_cells: l.fixed_cells,
        rows: l.rows,
        extrapolated,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use batch_ecdsa_circuits::layout::MAIN_COLS;

    fn fake(rows_at: impl Fn(u32) -> usize) -> impl FnMut(u32) -> Layout {
        move |k| {
            let rows = rows_at(k);
            Layout {
                advice_cells: rows,
                lookup_cells: 0,
                fixed_cells: 0,
                rows,
                params_min_k: (rows + 16).next_power_of_two().trailing_zeros(),
            }
        }
    }

    #[test]
    fn search_finds_the_smallest_fitting_k_from_any_guess() {
        // Rows shrink as k grows; fits from k = 15 on (rows at 14: 20,000 > 2^14 − 16).
        let rows = |k: u32| 300_000 / k as usize;
        for guess in [5, 14, 15, 16, 22] {
            assert_eq!(search_k(guess, fake(rows)).0, 15, "guess {guess}");
        }
    }

    #[test]
    fn linear_model_reproduces_its_points_and_extends() {
        let l = |a, r| Layout {
            advice_cells: a,
            lookup_cells: a / 2,
            fixed_cells: 100,
            rows: r,
            params_min_k: 0,
        };
        let m = LinearModel {
            one: l(127_431, 25_050),
            two: l(254_848, 50_086),
            lookup_bits: 17,
        };
        assert_eq!(m.at(1).advice_cells, 127_431);
        assert_eq!(m.at(2).rows, 50_086);
        // CELLS.md: B = 4 laid out is 509,682 cells, 100,158 rows.
        assert_eq!(m.at(4).advice_cells, 509_682);
        assert_eq!(m.at(4).rows, 100_158);
        assert_eq!(m.at(4).fixed_cells, 100);
    }

    /// The naive circuit's linear model equals a layout of a B it was not fitted to.
    #[test]
    fn naive_model_equals_a_layout() {
        let sigs = demo_witnesses(3).expect("demo batch");
        let m = naive_model(16).expect("model");
        assert_eq!(m.at(3), layout(Kind::Naive, &sigs, 16));
    }

    /// The layout-only rows count exactly what the prover (and `prove --json`) reports, at
    /// the k the circuits' own `fitted` picks.
    #[test]
    fn cells_match_the_prover_stats() {
        use crate::compare::timing::circuit_kind;
        use crate::prover::circuit::AnyCircuit;
        for kind in Kind::ALL {
            let ours = fitted_cells(kind, &demo_witnesses(1).expect("demo")).expect("fits");
            let any = AnyCircuit::fitted_for_size(circuit_kind(kind), 1).expect("fits");
            let s = any.stats();
            assert_eq!(ours.k, any.k(), "{kind:?}");
            assert_eq!(
                (
                    ours.advice_cells,
                    ours.lookup_cells,
                    ours.fixed_cells,
                    ours.rows
                ),
                (s.advice_cells, s.lookup_cells, s.fixed_cells, s.rows),
                "{kind:?}"
            );
            assert_eq!(ours.advice_columns, s.advice_columns, "{kind:?}");
            let l = LayoutParams::new(ours.lookup_bits);
            // One column group; the batch circuit adds its phase-0 commit column.
            let commit = usize::from(kind == Kind::Batch);
            assert_eq!(ours.advice_columns, MAIN_COLS + l.lookup_cols + commit);
        }
    }
}
