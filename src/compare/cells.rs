//! Cell counts of both circuits, from their layouts (no keys, no proofs): what the comparison
//! reports for every B, including the B too large to prove here.
//!
//! Each circuit is taken as the planner lays it out ([`batch_ecdsa_circuits::plan`]: the
//! smallest k, lookup bits `k − 1`), through [`AnyCircuit`] like the prover, so the figures
//! are the prover's. The naive circuit is B independent verifications sharing only
//! constants, so its layout is exactly `shared + B·per`; above `--naive-layout-max-b` its
//! figures come from that model ([`naive_model`]), fitted to layouts of B = 1 and 2 at the
//! same lookup bits, and are marked extrapolated.

use batch_ecdsa_circuits::ecdsa::naive::NaiveEcdsaCircuit;
use batch_ecdsa_circuits::ecdsa::{SignatureWitness, Statement};
use batch_ecdsa_circuits::layout::LayoutParams;
use batch_ecdsa_circuits::plan::{self, FitOptions, Plan};

use super::record::{Cells, CircuitKind};
use crate::batch_file::{BatchFile, Policy};
use crate::demo::demo_batch;
use crate::prover::circuit::AnyCircuit;

/// Seed of the demo batches the comparison lays out and proves.
pub const DEMO_SEED: u64 = 1;

/// `b` valid signatures of the deterministic demo batch (seed [`DEMO_SEED`]) as circuit
/// witnesses.
pub fn demo_witnesses(b: usize) -> Result<Vec<SignatureWitness>, String> {
    let records = demo_batch(b, DEMO_SEED, &[]).map_err(|e| e.to_string())?;
    let file = BatchFile::from_records(&records).map_err(|e| joined(&e))?;
    let items = file.items(Policy::default()).map_err(|e| joined(&e))?;
    items
        .into_iter()
        .enumerate()
        .map(|(i, it)| {
            SignatureWitness::new(it.r_point, it.s, it.h, it.q)
                .map_err(|e| format!("signature {i}: {e}"))
        })
        .collect()
}

/// The reasons of a list of errors, one after the other.
fn joined<E: std::fmt::Display>(errors: &[E]) -> String {
    let reasons: Vec<String> = errors.iter().map(|x| x.to_string()).collect();
    reasons.join("; ")
}

/// The figures of a laid-out circuit (with its witnesses' values; the counts do not depend
/// on them).
pub fn cells_of(circuit: &AnyCircuit) -> Cells {
    let s = circuit.stats();
    Cells {
        k: circuit.k(),
        lookup_bits: circuit.layout_params().lookup_bits,
        advice_columns: s.advice_columns,
        advice_cells: s.advice_cells,
        lookup_cells: s.lookup_cells,
        fixed_cells: s.fixed_cells,
        rows: s.rows,
        extrapolated: false,
    }
}

/// The planned layout of `kind` over `sigs` (laid out, not extrapolated).
pub fn fitted_cells(kind: CircuitKind, sigs: &[SignatureWitness]) -> Result<Cells, String> {
    if sigs.is_empty() {
        return Err("a batch has at least one signature".into());
    }
    Ok(cells_of(&AnyCircuit::fitted(
        kind,
        sigs.to_vec(),
        Statement::Keys,
    )))
}

/// `shared + B·per` fitted to layouts of B = 1 and 2 at the same lookup bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinearModel {
    pub one: Cells,
    pub two: Cells,
}

impl LinearModel {
    /// The model's prediction for `b` signatures (k, lookup bits and columns of B = 2).
    pub fn at(&self, b: usize) -> Cells {
        let f = |x1: usize, x2: usize| {
            // shared = 2·x1 − x2, per = x2 − x1 (as signed: shared may be negative in principle).
            let (x1, x2, b) = (x1 as i128, x2 as i128, b as i128);
            let v = (2 * x1 - x2) + b * (x2 - x1);
            v.max(0) as usize
        };
        Cells {
            advice_cells: f(self.one.advice_cells, self.two.advice_cells),
            lookup_cells: f(self.one.lookup_cells, self.two.lookup_cells),
            fixed_cells: f(self.one.fixed_cells, self.two.fixed_cells),
            rows: f(self.one.rows, self.two.rows),
            extrapolated: true,
            ..self.two
        }
    }
}

/// The naive circuit's linear model at lookup bits `lookup_bits` (two small layouts).
pub fn naive_model(lookup_bits: u32) -> LinearModel {
    let at = |n: usize| {
        let p = Plan::fit(
            CircuitKind::Naive,
            n,
            &FitOptions::default().lookup_bits(Some(lookup_bits)),
        );
        cells_of(&AnyCircuit::planned(&p, SignatureWitness::placeholders(n)))
    };
    LinearModel {
        one: at(1),
        two: at(2),
    }
}

/// The naive circuit's cells for `b` signatures from the linear model, at the smallest k the
/// predicted rows fit (the planner's rule, [`plan::fits`], with the model's rows).
pub fn extrapolated_naive_cells(b: usize) -> Cells {
    let window = CircuitKind::Naive.default_window();
    let params_at = |k: u32| NaiveEcdsaCircuit::params_for(LayoutParams::new(k - 1), window);
    let guess = naive_model(17).at(b).rows;
    let guess = (guess + 16).next_power_of_two().trailing_zeros();
    // Each k's model is two layouts: keep them for the answer instead of laying out again.
    let mut models = std::collections::HashMap::new();
    let k = plan::smallest_k(guess, |k| {
        let p = params_at(k);
        let unusable = plan::unusable_rows::<NaiveEcdsaCircuit>(&p);
        let rows = models
            .entry(k)
            .or_insert_with(|| naive_model(k - 1))
            .at(b)
            .rows;
        plan::fits(&p, rows, unusable, k)
    });
    Cells {
        k,
        ..models[&k].at(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use batch_ecdsa_circuits::layout::MAIN_COLS;

    fn cells(a: usize, r: usize) -> Cells {
        Cells {
            k: 18,
            lookup_bits: 17,
            advice_columns: 11,
            advice_cells: a,
            lookup_cells: a / 2,
            fixed_cells: 100,
            rows: r,
            extrapolated: false,
        }
    }

    #[test]
    fn linear_model_reproduces_its_points_and_extends() {
        let m = LinearModel {
            one: cells(127_431, 25_050),
            two: cells(254_848, 50_086),
        };
        assert_eq!(m.at(1).advice_cells, 127_431);
        assert_eq!(m.at(2).rows, 50_086);
        // B = 4 laid out was 509,682 cells, 100,158 rows.
        assert_eq!(m.at(4).advice_cells, 509_682);
        assert_eq!(m.at(4).rows, 100_158);
        assert_eq!(m.at(4).fixed_cells, 100);
        assert!(m.at(4).extrapolated);
    }

    /// The naive circuit's linear model equals a layout of a B it was not fitted to.
    #[test]
    fn naive_model_equals_a_layout() {
        let p = Plan::fit(
            CircuitKind::Naive,
            3,
            &FitOptions::default().lookup_bits(Some(16)),
        );
        let laid = cells_of(&AnyCircuit::planned(&p, demo_witnesses(3).expect("demo")));
        let model = naive_model(16).at(3);
        assert_eq!(
            (model.advice_cells, model.lookup_cells),
            (laid.advice_cells, laid.lookup_cells)
        );
        assert_eq!(
            (model.fixed_cells, model.rows),
            (laid.fixed_cells, laid.rows)
        );
    }

    /// The extrapolation picks the k the planner picks for a layout of the same B.
    #[test]
    fn extrapolated_k_is_the_planned_k() {
        let laid = fitted_cells(CircuitKind::Naive, &demo_witnesses(2).expect("demo")).unwrap();
        let model = extrapolated_naive_cells(2);
        assert_eq!(
            (model.k, model.advice_cells, model.rows),
            (laid.k, laid.advice_cells, laid.rows)
        );
    }

    /// The comparison's figures are the prover's, at the planned k; one column group (the
    /// batch circuit adds its phase-0 commit column).
    #[test]
    fn cells_match_the_prover_layout() {
        for kind in CircuitKind::ALL {
            let ours = fitted_cells(kind, &demo_witnesses(1).expect("demo")).expect("fits");
            let any = AnyCircuit::fitted_for_size(kind, 1, Statement::Keys).expect("fits");
            assert_eq!(ours, cells_of(&any), "{kind:?}");
            let l = LayoutParams::new(ours.lookup_bits);
            let commit = usize::from(kind == CircuitKind::Batch);
            assert_eq!(ours.advice_columns, MAIN_COLS + l.lookup_cols + commit);
        }
    }
}
