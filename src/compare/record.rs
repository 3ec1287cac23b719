//! What the comparison measures for one circuit at one batch size.

use super::stats::Summary;

pub use crate::prover::circuit::CircuitKind;

/// Layout figures of one circuit (no keys, no proof).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cells {
    /// log2 of the number of rows.
    pub k: u32,
    /// Bits of the range table (`k − 1` for fitted circuits).
    pub lookup_bits: u32,
    /// Advice columns of the configuration (all phases).
    pub advice_columns: usize,
    /// All assigned advice cells, the looked-up chunk cells included.
    pub advice_cells: usize,
    /// The looked-up subset of `advice_cells` (not extra cells).
    pub lookup_cells: usize,
    /// Fixed cells as `prover::circuit::CircuitStats` counts them: one per range-table row
    /// plus the assigned fixed cells (constants and per-row coefficients).
    pub fixed_cells: usize,
    /// Rows used (the taller phase).
    pub rows: usize,
    /// True when the figures come from the linear model `shared + B·per` (fitted to laid-out
    /// circuits at the same lookup bits) instead of a layout of this B.
    pub extrapolated: bool,
}

impl Cells {
    /// Advice area `columns × 2^k`: what the prover commits to and interpolates, so the
    /// first-order cost of keygen and proving (empty cells cost as much as used ones).
    pub fn advice_area(&self) -> u64 {
        (self.advice_columns as u64) << self.k
    }

    /// The used fraction of the advice area.
    pub fn fill(&self) -> f64 {
        let a = self.advice_area();
        if a == 0 {
            0.0
        } else {
            self.advice_cells as f64 / a as f64
        }
    }
}

/// Timings and sizes of real keys and proofs, over `runs` repetitions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Timings {
    /// Witness generation (circuit layout with the signatures' values), seconds.
    pub witness_s: Summary,
    /// Verifying key plus proving key generation, seconds.
    pub keygen_s: Summary,
    /// Proof creation, seconds.
    pub prove_s: Summary,
    /// Proof verification, seconds.
    pub verify_s: Summary,
    /// Serialized proving key, bytes.
    pub pk_bytes: u64,
    /// Proof, bytes.
    pub proof_bytes: u64,
}

/// One line of the comparison: a circuit at a batch size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Row {
    pub kind: CircuitKind,
    /// Signatures in the batch.
    pub batch_size: usize,
    pub cells: Cells,
    /// `None` when this B was only laid out (above `--max-prove-b`, or `--cells-only`).
    pub timings: Option<Timings>,
}

impl Row {
    /// Advice cells per signature.
    pub fn cells_per_sig(&self) -> f64 {
        self.cells.advice_cells as f64 / self.batch_size.max(1) as f64
    }

    /// Mean proving time per signature, seconds.
    pub fn prove_per_sig(&self) -> Option<f64> {
        self.timings
            .map(|t| t.prove_s.mean / self.batch_size.max(1) as f64)
    }
}

/// Batch against naive at one B: how many times fewer cells and how many times faster proving.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Speedup {
    /// naive advice cells / batch advice cells.
    pub cells: f64,
    /// naive mean proving time / batch mean proving time (when both were proved).
    pub prove: Option<f64>,
}

/// The speedup at batch size `b`, when both circuits have a row for it.
pub fn speedup(rows: &[Row], b: usize) -> Option<Speedup> {
    let find = |kind| rows.iter().find(|r| r.kind == kind && r.batch_size == b);
    let (n, bt) = (find(CircuitKind::Naive)?, find(CircuitKind::Batch)?);
    if bt.cells.advice_cells == 0 {
        return None;
    }
    let cells = n.cells.advice_cells as f64 / bt.cells.advice_cells as f64;
    let prove = match (n.timings, bt.timings) {
        (Some(tn), Some(tb)) if tb.prove_s.mean > 0.0 => Some(tn.prove_s.mean / tb.prove_s.mean),
        _ => None,
    };
    Some(Speedup { cells, prove })
}

/// The batch sizes present in `rows`, ascending, without repeats.
pub fn batch_sizes(rows: &[Row]) -> Vec<usize> {
    let mut v: Vec<usize> = rows.iter().map(|r| r.batch_size).collect();
    v.sort_unstable();
    v.dedup();
    v
}

#[cfg(test)]
pub(crate) mod fixtures {
    use super::*;

    /// A naive row and a batch row at `b` with made-up, easily checked figures.
    pub fn pair(b: usize, proved: bool) -> [Row; 2] {
        let t = |prove: f64| Timings {
            witness_s: Summary::single(0.5),
            keygen_s: Summary::of(&[10.0, 12.0]).expect("values"),
            prove_s: Summary::single(prove),
            verify_s: Summary::single(0.012),
            pk_bytes: 150_000_000,
            proof_bytes: 11_904,
        };
        let cells = |per: usize, extra: usize| Cells {
            k: 17,
            lookup_bits: 16,
            advice_columns: 11,
            advice_cells: per * b + extra,
            lookup_cells: (per * b + extra) / 2,
            fixed_cells: 1000,
            rows: 25_000 * b,
            extrapolated: false,
        };
        [
            Row {
                kind: CircuitKind::Naive,
                batch_size: b,
                cells: cells(120_000, 0),
                timings: proved.then(|| t(20.0 * b as f64)),
            },
            Row {
                kind: CircuitKind::Batch,
                batch_size: b,
                cells: cells(60_000, 120_000),
                timings: proved.then(|| t(10.0 * b as f64 + 10.0)),
            },
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures::pair;
    use super::*;

    #[test]
    fn speedup_of_cells_and_proving() {
        let rows = pair(2, true);
        let s = speedup(&rows, 2).expect("both kinds");
        // naive 240k cells, batch 240k → 1.0; naive 40 s, batch 30 s → 1.33.
        assert!((s.cells - 1.0).abs() < 1e-12);
        assert!((s.prove.expect("proved") - 40.0 / 30.0).abs() < 1e-12);
        let unproved = pair(4, false);
        let s = speedup(&unproved, 4).expect("both kinds");
        assert!((s.cells - 480_000.0 / 360_000.0).abs() < 1e-12);
        assert_eq!(s.prove, None);
        assert_eq!(speedup(&unproved, 8), None);
    }

    #[test]
    fn area_and_fill() {
        let [n, _] = pair(1, false);
        assert_eq!(n.cells.advice_area(), 11 << 17);
        assert!((n.cells.fill() - 120_000.0 / (11.0 * 131_072.0)).abs() < 1e-12);
    }

    #[test]
    fn per_signature_figures() {
        let [n, b] = pair(4, true);
        assert_eq!(n.cells_per_sig(), 120_000.0);
        assert_eq!(b.cells_per_sig(), 90_000.0);
        assert_eq!(n.prove_per_sig(), Some(20.0));
        assert_eq!(b.prove_per_sig(), Some(12.5));
    }
}
