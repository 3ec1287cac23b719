//! MockProver helpers and the reusable witness-mutation test.
//!
//! [`mutation_test`] takes a satisfied circuit implementing [`Mutable`] (e.g. a
//! [`BuilderCircuit`]), re-synthesises it once per sampled advice cell with that one cell
//! changed (the builder's tamper hook adds a delta when the cell is assigned), and counts how
//! many changes MockProver catches. Cells marked free by their gadget (e.g. the inverse witness
//! of `is_zero(0)`) are not sampled. A multi-phase circuit implements [`Mutable`] by numbering
//! the cells of its builders one after the other.

use halo2_proofs::dev::MockProver;
use halo2_proofs::plonk::{Circuit, ConstraintSystem};
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;

use crate::config::BuilderCircuit;
use crate::footprint::{check_footprint, FootprintReport};
use crate::layout::Native;

/// A circuit whose advice cells can be tampered with one at a time.
pub trait Mutable: Circuit<Native> + Clone {
    /// Indices of the constrained advice cells (candidates for tampering) and the number of
    /// cells documented as free.
    fn mutable_cells(&self) -> (Vec<usize>, usize);
    /// A copy that adds `delta` to cell `index` when it is assigned.
    fn tampered(&self, index: usize, delta: Native) -> Self;
    /// Public inputs for MockProver (none by default).
    fn instances(&self) -> Vec<Vec<Native>> {
        vec![]
    }
    /// The footprint check of this circuit's layout ([`crate::footprint`]).
    fn footprint(&self) -> FootprintReport;
}

impl Mutable for BuilderCircuit {
    fn mutable_cells(&self) -> (Vec<usize>, usize) {
        let b = self.builder();
        let all = b.constrained_cell_indices();
        let free = b.advice_cells().len() - all.len();
        (all, free)
    }
    fn tampered(&self, index: usize, delta: Native) -> Self {
        let mut c = self.clone();
        c.tamper = Some((index, delta));
        c
    }
    fn footprint(&self) -> FootprintReport {
        let mut cs = ConstraintSystem::default();
        let config = BuilderCircuit::configure_with_params(&mut cs, self.params.clone());
        check_footprint(&cs, &config, &[&self.builder()])
    }
}

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

impl std::fmt::Display for MutationReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "caught {}/{} mutations ({} free cells skipped)",
            self.caught, self.total, self.free
        )
    }
}

/// Changes up to `samples` sampled constrained advice cells of `circuit`, one at a time, and
/// checks each with MockProver. Deltas alternate between +1 and a random field element, so
/// both "small" changes (a chunk that stays in range) and wild ones are tried. Panics if the
/// untampered circuit is not satisfied (a broken test).
pub fn mutation_test<C: Mutable>(k: u32, circuit: &C, samples: usize, seed: u64) -> MutationReport {
    if let Err(e) = mock_verify(k, circuit) {
        panic!("the untampered circuit must be satisfied: {e}");
    }
    let (all, free) = circuit.mutable_cells();
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let picked: Vec<usize> = if all.len() <= samples {
        all
    } else {
        let mut v = all;
        for i in 0..samples {
            let j = i + (rng.next_u64() as usize) % (v.len() - i);
            v.swap(i, j);
        }
        v.truncate(samples);
        v
    };
    let mut report = MutationReport {
        caught: 0,
        total: picked.len(),
        escaped: Vec::new(),
        free,
    };
    for (n, idx) in picked.into_iter().enumerate() {
        let delta = if n % 2 == 0 {
            Native::from(1u64)
        } else {
            Native::from(rng.next_u64()) + Native::from(1u64)
        };
        if mock_only(k, &circuit.tampered(idx, delta)).is_err() {
            report.caught += 1;
        } else {
            report.escaped.push(idx);
        }
    }
    report
}

/// Mutates each cell of `indices` (assignment indices, see [`Mutable::mutable_cells`]) once, on
/// `threads` threads: deltas alternate between +1 and a random field element drawn from
/// `seed`. Indices of free cells are skipped (counted in `free`). Panics if the untampered
/// circuit is not satisfied (a broken test).
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
    let (all, _) = circuit.mutable_cells();
    let constrained: std::collections::HashSet<usize> = all.into_iter().collect();
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let jobs: Vec<(usize, Native)> = indices
        .iter()
        .filter(|i| constrained.contains(i))
        .enumerate()
        .map(|(n, &i)| {
            let d = if n % 2 == 0 {
                Native::from(1u64)
            } else {
                Native::from(rng.next_u64()) + Native::from(1u64)
            };
            (i, d)
        })
        .collect();
    let free = indices.len() - jobs.len();
    let threads = threads.max(1);
    let escaped: Vec<usize> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let jobs = &jobs;
                s.spawn(move || {
                    jobs.iter()
                        .skip(t)
                        .step_by(threads)
                        .filter(|(i, d)| mock_only(k, &circuit.tampered(*i, *d)).is_ok())
                        .map(|(i, _)| *i)
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
    });
    MutationReport {
        caught: jobs.len() - escaped.len(),
        total: jobs.len(),
        escaped,
        free,
    }
}

/// Changes up to `samples` cells of the circuit's **footprint** (every cell a gate or strict
/// lookup reads, assigned or not: [`crate::footprint`]), one at a time, through the adversarial
/// prover ([`crate::layout::adversary`]): an assigned cell gets its value plus a delta, an
/// unassigned one the delta (what the layout before the absent-operand fix allowed). `base`
/// is the adversary every run starts from (e.g. `unpinned`). Deltas alternate between +1 and a
/// random field element. Cells marked free are skipped (counted in `free`). The circuit must
/// have been satisfied once already (a batch circuit then builds its footprint with the
/// challenges MockProver drew).
#[cfg(feature = "adversary")]
pub fn footprint_mutation_test<C: Mutable>(
    k: u32,
    circuit: &C,
    samples: usize,
    seed: u64,
    base: &crate::layout::adversary::Adversary,
) -> MutationReport {
    use crate::layout::adversary::with_adversary;
    let fp = with_adversary(base.clone(), || circuit.footprint()).footprint;
    let free = fp.iter().filter(|c| c.free).count();
    let mut cells: Vec<_> = fp.into_iter().filter(|c| !c.free).collect();
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    if cells.len() > samples {
        for i in 0..samples {
            let j = i + (rng.next_u64() as usize) % (cells.len() - i);
            cells.swap(i, j);
        }
        cells.truncate(samples);
    }
    let mut report = MutationReport {
        caught: 0,
        total: cells.len(),
        escaped: Vec::new(),
        free,
    };
    for (n, c) in cells.iter().enumerate() {
        let delta = if n % 2 == 0 {
            Native::from(1u64)
        } else {
            Native::from(rng.next_u64()) + Native::from(1u64)
        };
        let mut adv = base.clone();
        adv.cells
            .insert(c.cell, c.value.map_or(delta, |v| v + delta));
        if with_adversary(adv, || mock_only(k, circuit)).is_err() {
            report.caught += 1;
        } else {
            report.escaped.push(n);
        }
    }
    report
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
