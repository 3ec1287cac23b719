//! The circuit planner: for a circuit kind, a batch size B, a window and a goal, the layout
//! parameters and the circuit size `2^k`. Every caller that needs a k (the circuits'
//! `fitted`, the prover, the comparison bench) asks here, so there is one rule:
//!
//! ```text
//!   k = min { k : max(rows(k), table_rows(k)) + unusable(k) ≤ 2^k },
//! ```
//!
//! where `rows(k)` is the tallest column group of the layout with range-table bits `k − 1`,
//! `table_rows(k)` the rows of that table (`2^(k−1)` plus its window and partial sections),
//! and `unusable(k)` the rows halo2 keeps at the end of every column
//! (`blinding_factors + 1`), **read from the configured constraint system** rather than
//! assumed. A larger k never needs more rows (more table bits, fewer chunks), so the
//! predicate is monotone and a walk from a guess finds the least k.
//!
//! The layout depends only on B, the window and the parameters, never on the witness values,
//! so the planner lays out [`SignatureWitness::placeholder`]s. The guess comes from the rows of
//! B = 1 and 2 (the rows grow linearly in B), so a plan for a large B costs about two of its
//! layouts, not one per k.
//!
//! The batch circuit can also spread its phase-1 work over several column groups ("lanes"):
//! [`LayoutGoal::FastProver`] trades proof size for proving work.

use std::fmt;
use std::str::FromStr;

use halo2_proofs::plonk::{Circuit, ConstraintSystem};

use crate::ecdsa::batch::{batch_params, BatchEcdsaCircuit, Coefficients};
use crate::ecdsa::challenge::challenges_for;
use crate::ecdsa::digest::params_for_statement;
use crate::ecdsa::naive::NaiveEcdsaCircuit;
use crate::ecdsa::{SignatureWitness, Statement};
use crate::layout::{LayoutParams, Native};

/// Which circuit proves a batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CircuitKind {
    /// B independent verifications (the baseline the batch circuit is compared with).
    Naive,
    /// One random linear combination of every signature, one shared MSM (the product).
    Batch,
}

impl CircuitKind {
    /// Both kinds, the baseline first.
    pub const ALL: [CircuitKind; 2] = [CircuitKind::Naive, CircuitKind::Batch];

    /// `"batch"` or `"naive"` (the command-line, CSV and proof-file spelling).
    pub fn as_str(self) -> &'static str {
        match self {
            CircuitKind::Batch => "batch",
            CircuitKind::Naive => "naive",
        }
    }

    /// The window the circuit takes when none is given (5 for both: `batch_cells`).
    pub fn default_window(self) -> u32 {
        match self {
            CircuitKind::Batch => crate::ecdsa::batch::DEFAULT_BATCH_WINDOW,
            CircuitKind::Naive => crate::ecdsa::naive::DEFAULT_WINDOW,
        }
    }
}

impl fmt::Display for CircuitKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The name is not a circuit kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownCircuit(pub String);

impl fmt::Display for UnknownCircuit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown circuit {:?}: expected \"batch\" or \"naive\"",
            self.0
        )
    }
}

impl std::error::Error for UnknownCircuit {}

impl FromStr for CircuitKind {
    type Err = UnknownCircuit;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        CircuitKind::ALL
            .into_iter()
            .find(|k| k.as_str() == s)
            .ok_or_else(|| UnknownCircuit(s.to_string()))
    }
}

/// What the batch circuit's plan optimises (the naive circuit has one column group).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LayoutGoal {
    /// The smallest proof and fastest verification: one phase-1 column group at the smallest
    /// k that holds it (k grows with the batch).
    #[default]
    SmallProof,
    /// The least proving work: for every k, the fewest phase-1 lanes (column groups, at most
    /// [`MAX_LANES`]) that fit, keeping the (k, lanes) with the smallest
    /// [`proving_columns`]` × 2^k`. Larger proofs (each lane adds ~35 committed polynomials).
    FastProver,
}

/// The sizes the planner tries, `MIN_K ..= MAX_K`: from a range table of 2^10 rows to 2^26
/// rows (more than any batch this crate lays out needs).
pub const K_RANGE: (u32, u32) = (11, 26);
const MIN_K: u32 = K_RANGE.0;
const MAX_K: u32 = K_RANGE.1;

/// Most phase-1 column groups (lanes) [`LayoutGoal::FastProver`] uses: each lane adds
/// ~35 committed polynomials (11 advice columns, 8 lookup arguments of 3) to the proof and
/// its verification, so the search stops there.
pub const MAX_LANES: usize = 8;

/// A circuit's layout decided: its parameters (range-table bits `k − 1`, lanes, challenges,
/// window sections) and its size `2^k`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub kind: CircuitKind,
    pub batch_size: usize,
    pub window: u32,
    pub statement: Statement,
    pub k: u32,
    pub params: LayoutParams,
}

/// How the planner lays a circuit out besides its kind and B: the one set of options of
/// [`Plan::fit`] and of the circuits' `fitted` constructors. Every field's default is what the
/// prover uses; set the ones that differ (`FitOptions::default().statement(s)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FitOptions {
    /// MSM window bits; `None`: the circuit's default ([`CircuitKind::default_window`]).
    pub window: Option<u32>,
    /// What the proof states (keys, or the digest D).
    pub statement: Statement,
    /// Batch circuit only: what the layout minimises ([`LayoutGoal`]).
    pub goal: LayoutGoal,
    /// Batch circuit only: the batch equation's coefficients.
    pub coefficients: Coefficients,
    /// Naive circuit only: fixed range-table bits (k is then at least `lookup_bits + 1`);
    /// `None`: `k − 1`.
    pub lookup_bits: Option<u32>,
}

impl Default for FitOptions {
    fn default() -> Self {
        Self {
            window: None,
            statement: Statement::Keys,
            goal: LayoutGoal::SmallProof,
            coefficients: Coefficients::Short,
            lookup_bits: None,
        }
    }
}

impl FitOptions {
    pub fn window(self, window: u32) -> Self {
        Self {
            window: Some(window),
            ..self
        }
    }
    pub fn statement(self, statement: Statement) -> Self {
        Self { statement, ..self }
    }
    pub fn goal(self, goal: LayoutGoal) -> Self {
        Self { goal, ..self }
    }
    pub fn coefficients(self, coefficients: Coefficients) -> Self {
        Self {
            coefficients,
            ..self
        }
    }
    pub fn lookup_bits(self, lookup_bits: Option<u32>) -> Self {
        Self {
            lookup_bits,
            ..self
        }
    }
    /// The window for `kind`: the one set, else the circuit's default.
    pub fn window_for(&self, kind: CircuitKind) -> u32 {
        self.window.unwrap_or_else(|| kind.default_window())
    }
}

impl Plan {
    /// The plan of `kind` for `b` signatures under `options`: the smallest k whose rows hold
    /// the layout (the digest adds Keccak columns whose chunk width follows k:
    /// `crate::keccak::digits_for_k`). The one way to plan a circuit.
    pub fn fit(kind: CircuitKind, b: usize, options: &FitOptions) -> Self {
        let window = options.window_for(kind);
        match kind {
            CircuitKind::Batch => Self::batch(
                b,
                window,
                options.coefficients,
                options.goal,
                options.statement,
            ),
            CircuitKind::Naive => Self::naive(b, window, options.lookup_bits, options.statement),
        }
    }

    /// The naive circuit for `b` signatures stating `statement`; range-table bits `k − 1`,
    /// or `lookup_bits` when given (k is then at least `lookup_bits + 1`).
    pub(crate) fn naive(
        b: usize,
        window: u32,
        lookup_bits: Option<u32>,
        statement: Statement,
    ) -> Self {
        let params_at = |l: u32| naive_params(l, window, statement);
        let rows_at = |p: &LayoutParams, n: usize| naive_rows(p, n, window, statement);
        let k = match lookup_bits {
            Some(l) => {
                let p = params_at(l);
                let unusable = unusable_rows::<NaiveEcdsaCircuit>(&p);
                min_k(&p, rows_at(&p, b), unusable).max(l + 1)
            }
            None => {
                let guess = guess_k(b, |n| rows_at(&params_at(17), n));
                smallest_k(guess, |k| {
                    room(CircuitKind::Naive, b, window, statement, k) >= 0
                })
            }
        };
        Self {
            kind: CircuitKind::Naive,
            batch_size: b,
            window,
            statement,
            k,
            params: params_at(lookup_bits.unwrap_or(k - 1)),
        }
    }

    /// The batch circuit for `b` signatures with coefficients `mode`, laid out for `goal`.
    /// Phase 0 is always the commit column; only phase 1 gets lanes. For every k it takes the
    /// fewest phase-1 lanes that fit (1 for [`LayoutGoal::SmallProof`], at most [`MAX_LANES`]
    /// for [`LayoutGoal::FastProver`]) and keeps the (k, lanes) with the smallest proving
    /// work [`proving_columns`]` × 2^k` (ties: fewer columns).
    pub(crate) fn batch(
        b: usize,
        window: u32,
        mode: Coefficients,
        goal: LayoutGoal,
        statement: Statement,
    ) -> Self {
        let shape = BatchShape {
            window,
            mode,
            statement,
        };
        let plan = |k: u32, lanes: usize| Self {
            kind: CircuitKind::Batch,
            batch_size: b,
            window,
            statement,
            k,
            params: shape.params(b, k, lanes),
        };
        // The smallest k with one lane; FastProver looks below it (at most 2^3 lanes per k
        // less, so 4 below holds nothing new).
        let guess = guess_k(b, |n| shape.phase_rows(&shape.params(n, 18, 1), n));
        let single = smallest_k(guess, |k| shape.room(b, k) >= 0);
        if goal == LayoutGoal::SmallProof {
            return plan(single, 1);
        }
        // As k grows: the fewest lanes that fit; the least (work, columns) wins, the first
        // (smallest k) on a tie.
        let mut best: Option<(usize, usize, u32, usize)> = None;
        for k in single.saturating_sub(4).max(MIN_K)..=single {
            let Some(lanes) = shape.fit_lanes(b, k, MAX_LANES) else {
                continue;
            };
            let cols = proving_columns(&plan(k, lanes).params);
            let cost = cols << k;
            if !matches!(best, Some((bc, bcols, _, _)) if (bc, bcols) <= (cost, cols)) {
                best = Some((cost, cols, k, lanes));
            }
        }
        let (_, _, k, lanes) = best.expect("one lane fits at the single-lane k");
        plan(k, lanes)
    }
}

/// The rows to spare (negative: the rows short) when `b` signatures of `kind` stating
/// `statement` are laid out at size `2^k` by the small-proof plan ([`Plan::fit`]: range
/// table bits `k − 1`, one column group per phase, short batch coefficients):
///
/// ```text
///   room(b, k) = 2^k − (max(rows(b, k), table_rows(k)) + unusable(k)),
/// ```
///
/// with `rows` the taller phase. [`Plan::fit`]'s k is the least k with `room ≥ 0`; the
/// planner's table ([`crate::limits`]) is made from this predicate. One layout of `b`
/// placeholders.
pub fn room(kind: CircuitKind, b: usize, window: u32, statement: Statement, k: u32) -> i64 {
    let (params, rows, unusable) = match kind {
        CircuitKind::Naive => {
            let p = naive_params(k - 1, window, statement);
            let rows = naive_rows(&p, b, window, statement);
            let unusable = unusable_rows::<NaiveEcdsaCircuit>(&p);
            (p, rows, unusable)
        }
        CircuitKind::Batch => {
            let shape = BatchShape {
                window,
                mode: Coefficients::Short,
                statement,
            };
            return shape.room(b, k);
        }
    };
    room_of(&params, rows, unusable, k)
}

/// The naive circuit's parameters with range-table bits `lookup_bits`.
fn naive_params(lookup_bits: u32, window: u32, statement: Statement) -> LayoutParams {
    params_for_statement(
        NaiveEcdsaCircuit::params_for(LayoutParams::new(lookup_bits), window),
        statement,
    )
}

/// The naive circuit's builder rows over `n` placeholders at `params`.
fn naive_rows(params: &LayoutParams, n: usize, window: u32, statement: Statement) -> usize {
    NaiveEcdsaCircuit::new(params.clone(), SignatureWitness::placeholders(n), window)
        .with_statement(statement)
        .stats()
        .rows
}

/// `2^k − rows_needed`: [`fits`] as a signed margin.
fn room_of(params: &LayoutParams, rows: usize, unusable: usize, k: u32) -> i64 {
    (1i64 << k) - rows_needed(params, rows, unusable) as i64
}

/// The rows a layout of `rows` builder rows needs: the taller of them and the range and
/// Keccak tables of `params`, plus the `unusable` rows at the end.
fn rows_needed(params: &LayoutParams, rows: usize, unusable: usize) -> usize {
    rows.max(params.table_rows())
        .max(crate::keccak::table_rows(params))
        + unusable
}

/// Rows at the end of every column that halo2 keeps for blinding (`blinding_factors + 1`),
/// read from the constraint system `C` configures for `params`.
pub fn unusable_rows<C: Circuit<Native, Params = LayoutParams>>(params: &LayoutParams) -> usize {
    configured::<C>(params).blinding_factors() + 1
}

/// The constraint system `C` configures for `params`.
pub fn configured<C: Circuit<Native, Params = LayoutParams>>(
    params: &LayoutParams,
) -> ConstraintSystem<Native> {
    let mut cs = ConstraintSystem::<Native>::default();
    let _ = C::configure_with_params(&mut cs, params.clone());
    cs
}

/// Whether `rows` builder rows and the range table of `params` fit in `2^k` rows with
/// `unusable` rows kept at the end.
pub fn fits(params: &LayoutParams, rows: usize, unusable: usize, k: u32) -> bool {
    rows_needed(params, rows, unusable) <= 1usize << k
}

/// The smallest k whose usable rows hold both the range table and `rows` builder rows.
pub fn min_k(params: &LayoutParams, rows: usize, unusable: usize) -> u32 {
    rows_needed(params, rows, unusable)
        .next_power_of_two()
        .trailing_zeros()
}

/// The smallest k in `[MIN_K, MAX_K]` with `fits_at(k)`, walking from `guess`: up while it
/// does not fit, down while the one below does. `fits_at` must be monotone in k.
pub fn smallest_k(guess: u32, mut fits_at: impl FnMut(u32) -> bool) -> u32 {
    let mut k = guess.clamp(MIN_K, MAX_K);
    while !fits_at(k) {
        assert!(k < MAX_K, "no k up to {MAX_K} holds this layout");
        k += 1;
    }
    while k > MIN_K && fits_at(k - 1) {
        k -= 1;
    }
    k
}

/// A first guess of k for `b` signatures from the rows of 1 and 2 signatures (`rows_of(n)`,
/// at some fixed parameters): the rows grow as `shared + b·per`. The walk of [`smallest_k`]
/// corrects it either way.
fn guess_k(b: usize, mut rows_of: impl FnMut(usize) -> usize) -> u32 {
    let (one, two) = (rows_of(1), rows_of(2));
    let rows = (2 * one).saturating_sub(two) + b * two.saturating_sub(one);
    // With table bits k − 1 the table (about 2^(k−1) rows) fits whenever the rows do.
    (rows + 16).next_power_of_two().trailing_zeros()
}

/// Polynomials the prover commits per proof for this batch layout, read from the configured
/// constraint system: advice columns, 3 per lookup argument (permuted input, permuted table,
/// grand product) and the permutation's grand products (one per `degree − 2` columns with
/// equality). Times `2^k` this is the proving work [`LayoutGoal::FastProver`] minimises.
pub fn proving_columns(params: &LayoutParams) -> usize {
    let cs = configured::<BatchEcdsaCircuit>(params);
    let chunk = cs.degree().saturating_sub(2).max(1);
    cs.num_advice_columns()
        + 3 * cs.lookups().len()
        + cs.permutation().get_columns().len().div_ceil(chunk)
}

/// What a batch plan is for besides B and k: window, coefficients, statement.
#[derive(Clone, Copy)]
struct BatchShape {
    window: u32,
    mode: Coefficients,
    statement: Statement,
}

impl BatchShape {
    /// The batch circuit's parameters at size `2^k` (table bits `k − 1`) with `lanes`
    /// phase-1 column groups, the challenges `mode` needs for `b` signatures and the Keccak
    /// columns of the statement.
    fn params(&self, b: usize, k: u32, lanes: usize) -> LayoutParams {
        let mut p = batch_params(k - 1, self.window);
        p.challenges = match self.mode {
            Coefficients::Powers => 1,
            Coefficients::Short => challenges_for(b),
        };
        if lanes > 1 {
            p.lanes = vec![1, lanes];
        }
        params_for_statement(p, self.statement)
    }

    /// Rows of both phases of the batch circuit over `n` placeholders at `params`.
    fn rows(&self, params: &LayoutParams, n: usize) -> [usize; 2] {
        let c = BatchEcdsaCircuit::new(
            params.clone(),
            SignatureWitness::placeholders(n),
            self.window,
        )
        .with_coefficients(self.mode)
        .with_statement(self.statement);
        c.phase_stats().map(|s| s.rows)
    }

    /// The taller phase's rows of the batch circuit.
    fn phase_rows(&self, params: &LayoutParams, n: usize) -> usize {
        let [r0, r1] = self.rows(params, n);
        r0.max(r1)
    }

    /// [`room`] of the batch circuit with one lane per phase: both phases' rows must fit.
    fn room(&self, b: usize, k: u32) -> i64 {
        let p = self.params(b, k, 1);
        let unusable = unusable_rows::<BatchEcdsaCircuit>(&p);
        let [r0, r1] = self.rows(&p, b);
        room_of(&p, r0.max(r1), unusable, k)
    }

    /// The fewest phase-1 lanes (at most `max_lanes`) with which the batch circuit for `b`
    /// signatures fits at size `2^k`, or `None`.
    fn fit_lanes(&self, b: usize, k: u32, max_lanes: usize) -> Option<usize> {
        let one = self.params(b, k, 1);
        let unusable = unusable_rows::<BatchEcdsaCircuit>(&one);
        if !fits(&one, 0, unusable, k) {
            return None;
        }
        let cap = (1usize << k) - unusable;
        let [r0, r1] = self.rows(&one, b);
        if !fits(&one, r0, unusable, k) {
            return None;
        }
        let mut lanes = r1.div_ceil(cap).max(1);
        while lanes <= max_lanes {
            let p = self.params(b, k, lanes);
            let unusable = unusable_rows::<BatchEcdsaCircuit>(&p);
            if fits(&p, self.rows(&p, b)[1], unusable, k) {
                return Some(lanes);
            }
            lanes += 1;
        }
        None
    }
}

/// The planner's constructors live here, beside the planner, so that the circuits never
/// depend on it (the planner measures them).
impl BatchEcdsaCircuit {
    /// The circuit laid out by the planner under `options` ([`Plan::fit`]: window, statement,
    /// goal, coefficients), and its k (lookup bits `k − 1`).
    pub fn fitted(signatures: Vec<SignatureWitness>, options: &FitOptions) -> (Self, u32) {
        let plan = Plan::fit(CircuitKind::Batch, signatures.len(), options);
        let c = Self::new(plan.params, signatures, plan.window)
            .with_coefficients(options.coefficients)
            .with_statement(options.statement);
        (c, plan.k)
    }
}

impl NaiveEcdsaCircuit {
    /// The circuit laid out by the planner under `options` ([`Plan::fit`]:
    /// window, statement, lookup bits), and its k.
    pub fn fitted(signatures: Vec<SignatureWitness>, options: &FitOptions) -> (Self, u32) {
        let plan = Plan::fit(CircuitKind::Naive, signatures.len(), options);
        (
            Self::new(plan.params, signatures, plan.window).with_statement(options.statement),
            plan.k,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kind_round_trips_and_rejects_unknown() {
        for k in CircuitKind::ALL {
            assert_eq!(k.to_string().parse::<CircuitKind>(), Ok(k));
        }
        assert!("Batch".parse::<CircuitKind>().is_err());
        assert!("".parse::<CircuitKind>().is_err());
    }

    #[test]
    fn smallest_k_walks_both_ways() {
        for guess in [MIN_K, 14, 15, 16, 20] {
            assert_eq!(smallest_k(guess, |k| k >= 15), 15, "guess {guess}");
        }
        assert_eq!(smallest_k(3, |_| true), MIN_K);
    }

    #[test]
    fn min_k_counts_table_and_unusable_rows() {
        let p = LayoutParams::new(10);
        let t = p.table_rows();
        assert_eq!(
            min_k(&p, 0, 12),
            (t + 12).next_power_of_two().trailing_zeros()
        );
        assert!(fits(&p, (1 << 12) - 12, 12, 12));
        assert!(!fits(&p, (1 << 12) - 11, 12, 12));
    }
}
