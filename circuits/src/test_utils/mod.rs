//! The test harness (feature `testing`): MockProver helpers, the witness-mutation tests and
//! [`BuilderCircuit`].
//!
//! [`mutation_test`] takes a satisfied circuit (any [`LaidOutCircuit`], e.g. a
//! [`BuilderCircuit`] or either ECDSA circuit), re-synthesises it once per sampled advice cell
//! with that one cell changed ([`Mutable::tampered`]: the adversarial prover,
//! `layout::adversary`, writes the changed value; nothing in the circuit itself knows), and
//! counts how many changes MockProver catches. Cells marked free by their gadget (e.g. the
//! inverse witness of `is_zero(0)`) are not sampled. Cells are numbered in assignment order,
//! phase 0 first. [`footprint_mutation_test`] does the same over every cell a gate reads,
//! assigned or not.

use std::sync::Arc;

use halo2_proofs::circuit::Layouter;
use halo2_proofs::dev::MockProver;
use halo2_proofs::plonk::{Circuit, ConstraintSystem, Error};
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;

use crate::config::{impl_layout_circuit, CircuitConfig, LaidOutCircuit};
use crate::footprint::{check_circuit, FootprintReport};
use crate::layout::adversary::{with_adversary, Adversary};
use crate::layout::{Builder, CellRef, LayoutParams, Native};

/// A circuit whose whole witness is produced by a closure appending to a first-phase builder:
/// the harness of the chip tests, the mutation tests and the cell benches.
#[derive(Clone)]
pub struct BuilderCircuit {
    pub params: LayoutParams,
    pub build: Arc<dyn Fn(&mut Builder) + Send + Sync>,
}

impl BuilderCircuit {
    pub fn new(params: LayoutParams, build: impl Fn(&mut Builder) + Send + Sync + 'static) -> Self {
        Self {
            params,
            build: Arc::new(build),
        }
    }

    /// The smallest k that holds this layout ([`crate::plan::min_k`], with the unusable rows
    /// of this configuration).
    pub fn min_k(&self) -> u32 {
        let rows = self.builder().rows() as usize;
        let unusable = crate::plan::unusable_rows::<Self>(&self.params);
        crate::plan::min_k(&self.params, rows, unusable)
    }

    /// Runs the closure on a fresh builder.
    pub fn builder(&self) -> Builder {
        let mut b = Builder::new(0, self.params.clone());
        (self.build)(&mut b);
        b
    }
}

impl_layout_circuit!(
    BuilderCircuit,
    CircuitConfig,
    CircuitConfig::configure_secp256k1,
    LayoutParams::default(),
    |self, config, layouter| {
        let b = self.builder();
        config.assign_single_phase(&mut layouter, &b)
    }
);

impl LaidOutCircuit for BuilderCircuit {
    fn configured(&self) -> (ConstraintSystem<Native>, CircuitConfig) {
        crate::config::configured::<Self>(&self.params, |c| c)
    }
    fn layout_builders(&self) -> Vec<Builder> {
        vec![self.builder()]
    }
    fn instance_values(&self) -> Vec<Native> {
        Vec::new()
    }
}

/// The first command-line argument that parses as a number (a bench's lookup bits), else
/// `default`.
pub fn number_arg(default: u32) -> u32 {
    std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(default)
}

/// `circuit` synthesised under the adversarial prover `adversary` (e.g. one cell written with
/// another value); the verifying key is the circuit's own (fixed cells, selectors and copies
/// are untouched, unless the adversary asks for the unpinned layout of before the fix).
#[derive(Clone)]
pub struct Tampered<C> {
    pub inner: C,
    pub adversary: Adversary,
}

impl<C> Tampered<C> {
    /// `inner` with `value` written into `cell`, on top of `base`.
    pub fn cell(inner: C, base: &Adversary, cell: CellRef, value: Native) -> Self {
        let mut adversary = base.clone();
        adversary.cells.insert(cell, value);
        Self { inner, adversary }
    }
}

impl<C: Circuit<Native>> Circuit<Native> for Tampered<C> {
    type Config = C::Config;
    type FloorPlanner = C::FloorPlanner;
    type Params = C::Params;

    fn without_witnesses(&self) -> Self {
        Self {
            inner: self.inner.without_witnesses(),
            adversary: self.adversary.clone(),
        }
    }

    fn params(&self) -> C::Params {
        self.inner.params()
    }

    fn configure_with_params(meta: &mut ConstraintSystem<Native>, p: C::Params) -> C::Config {
        C::configure_with_params(meta, p)
    }

    fn configure(meta: &mut ConstraintSystem<Native>) -> C::Config {
        C::configure(meta)
    }

    fn synthesize(&self, config: C::Config, layouter: impl Layouter<Native>) -> Result<(), Error> {
        with_adversary(self.adversary.clone(), || {
            self.inner.synthesize(config, layouter)
        })
    }
}

impl<C: LaidOutCircuit> LaidOutCircuit for Tampered<C> {
    fn configured(&self) -> (ConstraintSystem<Native>, CircuitConfig) {
        self.inner.configured()
    }
    fn layout_builders(&self) -> Vec<Builder> {
        self.inner.layout_builders()
    }
    fn instance_values(&self) -> Vec<Native> {
        self.inner.instance_values()
    }
}

/// What the harness does with a laid-out circuit; every [`LaidOutCircuit`] has it.
pub trait Mutable: LaidOutCircuit + Circuit<Native> + Clone {
    /// Every assigned cell in assignment order (phase 0 first): cell, honest value, and
    /// whether its gadget marked it free.
    fn assigned_cells(&self) -> Vec<(CellRef, Native, bool)> {
        let mut out = Vec::new();
        for b in self.layout_builders() {
            let constrained: std::collections::HashSet<usize> =
                b.constrained_cell_indices().into_iter().collect();
            for (i, (c, v)) in b.advice_cells().iter().enumerate() {
                out.push((*c, *v, !constrained.contains(&i)));
            }
        }
        out
    }
    /// Indices of the constrained advice cells (candidates for tampering) and the number of
    /// cells documented as free.
    fn mutable_cells(&self) -> (Vec<usize>, usize) {
        let cells = self.assigned_cells();
        let all: Vec<usize> = (0..cells.len()).filter(|&i| !cells[i].2).collect();
        let free = cells.len() - all.len();
        (all, free)
    }
    /// This circuit with `delta` added to assigned cell `index` (assignment order).
    fn tampered(&self, index: usize, delta: Native) -> Tampered<Self> {
        let (cell, value, _) = self.assigned_cells()[index];
        Tampered::cell(self.clone(), &Adversary::default(), cell, value + delta)
    }
    /// Public inputs for MockProver: the instance column, if the circuit has one.
    fn instances(&self) -> Vec<Vec<Native>> {
        if self.configured().0.num_instance_columns() == 0 {
            vec![]
        } else {
            vec![self.instance_values()]
        }
    }
    /// The footprint check of this circuit's layout ([`crate::footprint`]).
    fn footprint(&self) -> FootprintReport {
        check_circuit(self)
    }
}

impl<C: LaidOutCircuit + Circuit<Native> + Clone> Mutable for C {}

/// `Ok` iff the layout passes the footprint check ([`crate::footprint`]: every cell a gate
/// reads is assigned and constrained) and MockProver is satisfied; the error says why not.
pub fn mock_verify<C: Mutable>(k: u32, circuit: &C) -> Result<(), String> {
    circuit.footprint().result()?;
    mock_only(k, circuit)
}

/// MockProver alone (the mutation loops: the footprint does not depend on the values).
pub fn mock_only<C: Mutable>(k: u32, circuit: &C) -> Result<(), String> {
    let prover = MockProver::run(k, circuit, circuit.instances())
        .map_err(|e| format!("synthesis: {e:?}"))?;
    prover
        .verify()
        .map_err(|f| format!("{} failure(s), first: {:?}", f.len(), f.first()))
}

/// Result of a mutation run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MutationReport {
    /// Mutations MockProver rejected.
    pub caught: usize,
    /// Mutations tried.
    pub total: usize,
    /// Assignment indices of the cells whose change went unnoticed.
    pub escaped: Vec<usize>,
    /// Cells marked free (not sampled).
    pub free: usize,
}

impl MutationReport {
    /// Prints the report under `name` and asserts that more than `min_total` mutations were
    /// tried and every one was caught (the escaped cells are named otherwise).
    pub fn assert_all_caught(&self, name: &str, min_total: usize) {
        println!("{name}: {self}");
        assert!(
            self.total > min_total,
            "{name}: only {} mutations",
            self.total
        );
        assert_eq!(
            self.caught, self.total,
            "{name}: escaped cells {:?}",
            self.escaped
        );
    }
}

impl std::fmt::Display for MutationReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "caught {}/{} mutations ({} free cells skipped)",
            self.caught, self.total, self.free
        )
    }
}

/// The deltas of a mutation run: +1 and random field elements drawn from `seed`, alternating,
/// so both "small" changes (a chunk that stays in range) and wild ones are tried.
fn deltas(seed: u64, n: usize) -> Vec<Native> {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    (0..n)
        .map(|i| {
            if i % 2 == 0 {
                Native::from(1u64)
            } else {
                Native::from(rng.next_u64()) + Native::from(1u64)
            }
        })
        .collect()
}

/// Up to `samples` of `items`, chosen uniformly (a partial Fisher–Yates shuffle from `seed`).
fn sample<T>(mut items: Vec<T>, samples: usize, seed: u64) -> Vec<T> {
    if items.len() > samples {
        let mut rng = ChaCha20Rng::seed_from_u64(seed ^ 0x5eed);
        for i in 0..samples {
            let j = i + (rng.next_u64() as usize) % (items.len() - i);
            items.swap(i, j);
        }
        items.truncate(samples);
    }
    items
}

/// Runs each job (a cell, the value written there, the id reported when it escapes) as one
/// MockProver run of `circuit` under `base` plus that write, on `threads` threads; returns
/// the ids of the writes MockProver accepted.
fn escaped_writes<C: Mutable + Sync>(
    k: u32,
    circuit: &C,
    base: &Adversary,
    jobs: &[(CellRef, Native, usize)],
    threads: usize,
) -> Vec<usize> {
    let threads = threads.max(1);
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || {
                    jobs.iter()
                        .skip(t)
                        .step_by(threads)
                        .filter(|(cell, v, _)| {
                            let w = Tampered::cell(circuit.clone(), base, *cell, *v);
                            mock_only(k, &w).is_ok()
                        })
                        .map(|(_, _, id)| *id)
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| match h.join() {
                Ok(v) => v,
                Err(e) => std::panic::resume_unwind(e),
            })
            .collect()
    })
}

/// Changes up to `samples` sampled constrained advice cells of `circuit`, one at a time, and
/// checks each with MockProver (deltas: [`deltas`]). Panics if the untampered circuit is not
/// satisfied (a broken test).
pub fn mutation_test<C: Mutable + Sync>(
    k: u32,
    circuit: &C,
    samples: usize,
    seed: u64,
) -> MutationReport {
    let (all, free) = circuit.mutable_cells();
    let picked = sample(all, samples, seed);
    MutationReport {
        free,
        ..mutation_test_cells(k, circuit, &picked, seed, 1)
    }
}

/// Mutates each cell of `indices` (assignment indices, see [`Mutable::mutable_cells`]) once, on
/// `threads` threads (deltas: [`deltas`]). Indices of free cells are skipped (counted in
/// `free`). Panics if the untampered circuit is not satisfied (a broken test).
pub fn mutation_test_cells<C: Mutable + Sync>(
    k: u32,
    circuit: &C,
    indices: &[usize],
    seed: u64,
    threads: usize,
) -> MutationReport {
    if let Err(e) = mock_verify(k, circuit) {
        panic!("the untampered circuit must be satisfied: {e}");
    }
    let cells = circuit.assigned_cells();
    let chosen: Vec<usize> = indices.iter().copied().filter(|&i| !cells[i].2).collect();
    let jobs: Vec<(CellRef, Native, usize)> = chosen
        .iter()
        .zip(deltas(seed, chosen.len()))
        .map(|(&i, d)| (cells[i].0, cells[i].1 + d, i))
        .collect();
    let escaped = escaped_writes(k, circuit, &Adversary::default(), &jobs, threads);
    MutationReport {
        caught: jobs.len() - escaped.len(),
        total: jobs.len(),
        escaped,
        free: indices.len() - jobs.len(),
    }
}

/// Changes up to `samples` cells of the circuit's **footprint** (every cell a gate or strict
/// lookup reads, assigned or not: [`crate::footprint`]), one at a time, through the adversarial
/// prover ([`crate::layout::adversary`]): an assigned cell gets its value plus a delta, an
/// unassigned one the delta (what the layout before the absent-operand fix allowed). `base`
/// is the adversary every run starts from (e.g. `unpinned`). Cells marked free are skipped
/// (counted in `free`); `escaped` holds positions in the footprint. The circuit must have been
/// satisfied once already (a batch circuit then builds its footprint with the challenges
/// MockProver drew).
pub fn footprint_mutation_test<C: Mutable + Sync>(
    k: u32,
    circuit: &C,
    samples: usize,
    seed: u64,
    base: &Adversary,
) -> MutationReport {
    let fp = with_adversary(base.clone(), || circuit.footprint()).footprint;
    let free = fp.iter().filter(|c| c.free).count();
    let cells: Vec<(usize, crate::footprint::FootprintCell)> =
        fp.into_iter().filter(|c| !c.free).enumerate().collect();
    let cells = sample(cells, samples, seed);
    let jobs: Vec<(CellRef, Native, usize)> = cells
        .iter()
        .zip(deltas(seed, cells.len()))
        .map(|((i, c), d)| (c.cell, c.value.map_or(d, |v| v + d), *i))
        .collect();
    let escaped = escaped_writes(k, circuit, base, &jobs, 1);
    MutationReport {
        caught: jobs.len() - escaped.len(),
        total: jobs.len(),
        escaped,
        free,
    }
}

/// A valid ECDSA* witness from fixed secrets (halo2curves arithmetic only; for the circuits
/// crate's own tests and cell benches, which cannot use the root package's signer):
/// `Q = d·G`, `R = k·G`, `r = x(R) mod n`, `s = (h + r·d)/k`, with d, k, h drawn from `seed`.
pub fn ecdsa_witness(seed: u64) -> crate::ecdsa::SignatureWitness {
    use ff::Field;
    use group::Curve;
    use halo2curves::secp256k1::{Fq, Secp256k1};
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    loop {
        let (d, k, h) = (
            Fq::random(&mut rng),
            Fq::random(&mut rng),
            Fq::random(&mut rng),
        );
        let q = (Secp256k1::generator() * d).to_affine();
        let r_point = (Secp256k1::generator() * k).to_affine();
        let r: Fq = crate::bigint::big_to_fe(&crate::bigint::fe_to_big(&r_point.x));
        let Some(k_inv) = Option::<Fq>::from(k.invert()) else {
            continue;
        };
        let s = (h + r * d) * k_inv;
        if let Ok(w) = crate::ecdsa::SignatureWitness::new(r_point, s, h, q) {
            if !bool::from(r.is_zero()) {
                return w;
            }
        }
    }
}
