//! Which circuit proves a batch, laid out for a batch size, and the witnesses it takes.
//!
//! [`AnyCircuit`] wraps the two circuits of `batch-ecdsa-circuits` (the batch circuit, one
//! random linear combination of all signatures; the naive circuit, one verification each)
//! behind one type, with the layout (lookup bits, window, k) fixed when it is built.
//!
//! The layout of both circuits depends on the number of signatures only, never on their
//! values, so a circuit fitted once for B signatures (with any witnesses) serves every batch of
//! B: [`AnyCircuit::fitted_for_size`] lays out a placeholder batch, [`AnyCircuit::with_witnesses`]
//! swaps in the real witnesses under the same layout. The proving and verifying keys are made
//! from that layout ([`super::proving_key`]).
//!
//! Each circuit states one [`Statement`]: per signature `h mod n` and Q (`keys`, three public
//! inputs a signature), or one Keccak digest of every (signing hash, address) pair (`digest`,
//! two public inputs whatever B; `batch_ecdsa_circuits::ecdsa::digest`). The statement is part
//! of the layout (the digest adds Keccak columns), so of the keys and the fingerprint.

use batch_ecdsa_circuits::ecdsa::{
    BatchEcdsaCircuit, NaiveEcdsaCircuit, SignatureWitness, Statement,
};
use batch_ecdsa_circuits::layout::{Builder, LayoutParams, Native};
use batch_ecdsa_circuits::limits::{self, SizeError};
use batch_ecdsa_circuits::plan::FitOptions;
use batch_ecdsa_circuits::plan::{configured, Plan};
use ff::{Field, PrimeField};
use halo2_proofs::plonk::{Circuit, ConstraintSystem};

use crate::batch_file::{BatchFile, Invalid, Policy};
use crate::native::batch_verify::BatchItem;
use crate::native::hash::keccak256;

pub use batch_ecdsa_circuits::plan::{CircuitKind, UnknownCircuit};

/// Cell counts of a laid-out circuit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct CircuitStats {
    /// Every assigned advice cell (main and looked-up columns, both phases).
    pub advice_cells: usize,
    /// Advice cells in looked-up columns (a subset of `advice_cells`).
    pub lookup_cells: usize,
    /// Fixed cells: the constants the layout places plus the rows of the lookup table.
    pub fixed_cells: usize,
    /// Advice columns of the constraint system (all phases).
    pub advice_columns: usize,
    /// Fixed columns of the constraint system (including selectors and the table column).
    pub fixed_columns: usize,
    /// Rows used (the taller phase for the batch circuit).
    pub rows: usize,
    /// Copy constraints of the layout.
    pub copies: usize,
}

/// Why witnesses cannot be built for a batch.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WitnessBuildError {
    /// Signatures failed the native pre-check or could not be turned into an ECDSA* item.
    #[error("{}", .0.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("; "))]
    Invalid(Vec<Invalid>),
    /// The batch has a different size than the prover was built for.
    #[error("the batch has {got} signatures; this prover is built for {expected} (at most)")]
    WrongSize { expected: usize, got: usize },
    /// An empty batch.
    #[error("the batch is empty")]
    Empty,
    /// More signatures than the circuit proves (checked from the planner's table before any
    /// layout).
    #[error(transparent)]
    Size(#[from] SizeError),
}

/// The circuit witness of one ECDSA* item. Fails (naming `index`) only on what no valid
/// signature has (R or Q the identity, s = 0): the native types already exclude the rest.
pub fn witness_from_item(index: usize, item: &BatchItem) -> Result<SignatureWitness, Invalid> {
    SignatureWitness::new(item.r_point, item.s, item.h, item.q).map_err(|e| Invalid {
        index,
        reason: e.to_string(),
    })
}

/// [`witness_from_item`] carrying the raw 32-byte signing hash `msg_hash` (big-endian, not
/// reduced) the digest statement hashes. `item.h` is `msg_hash mod n` for every item a batch
/// file builds, so this fails only on a mismatch between the two, naming `index`.
pub fn witness_with_hash(
    index: usize,
    item: &BatchItem,
    msg_hash: &[u8; 32],
) -> Result<SignatureWitness, Invalid> {
    witness_from_item(index, item)?
        .with_hash(msg_hash)
        .map_err(|e| Invalid {
            index,
            reason: e.to_string(),
        })
}

/// The witnesses of a batch file, in order.
///
/// With `checked`, the whole native check runs first ([`BatchFile::verify_native`]) and every
/// invalid signature is reported: a batch that fails it is never handed to the prover. Without
/// it (`prove --unchecked`), only the ECDSA* items are built (a signature with no nonce point
/// for its r, or a wrong address, still fails); the batch equation is left to the circuit,
/// whose proof then does not verify.
pub fn witnesses_from_batch(
    batch: &BatchFile,
    policy: Policy,
    checked: bool,
) -> Result<Vec<SignatureWitness>, WitnessBuildError> {
    if batch.is_empty() {
        return Err(WitnessBuildError::Empty);
    }
    let items = if checked {
        batch.valid_items(policy)
    } else {
        batch.items(policy)
    }
    .map_err(WitnessBuildError::Invalid)?;
    let mut out = Vec::with_capacity(items.len());
    let mut invalid = Vec::new();
    // Every witness carries the raw signing hash (the digest statement hashes its 32 bytes;
    // the keys statement reads only `h`, so this changes nothing there).
    for (i, (item, sig)) in items.iter().zip(&batch.signatures).enumerate() {
        match witness_with_hash(i, item, &sig.msg_hash) {
            Ok(w) => out.push(w),
            Err(e) => invalid.push(e),
        }
    }
    if invalid.is_empty() {
        Ok(out)
    } else {
        Err(WitnessBuildError::Invalid(invalid))
    }
}

#[derive(Clone, Debug)]
enum Inner {
    Batch(BatchEcdsaCircuit),
    Naive(NaiveEcdsaCircuit),
}

/// One of the two circuits with its layout and k fixed.
#[derive(Clone, Debug)]
pub struct AnyCircuit {
    k: u32,
    inner: Inner,
}

impl AnyCircuit {
    /// The circuit of `kind` over `witnesses` stating `statement`, laid out by the planner
    /// with the prover's options ([`Plan::fit`]: the default window, the smallest k).
    pub fn fitted(
        kind: CircuitKind,
        witnesses: Vec<SignatureWitness>,
        statement: Statement,
    ) -> Self {
        let plan = Plan::fit(
            kind,
            witnesses.len(),
            &FitOptions::default().statement(statement),
        );
        Self::planned(&plan, witnesses)
    }

    /// The circuit laid out as `plan` says (statement included), over `witnesses` (their
    /// count should be the plan's B; the layout is the plan's for any count, only the rows
    /// differ).
    pub fn planned(plan: &Plan, witnesses: Vec<SignatureWitness>) -> Self {
        let (params, w, st) = (plan.params.clone(), plan.window, plan.statement);
        let inner = match plan.kind {
            CircuitKind::Batch => {
                Inner::Batch(BatchEcdsaCircuit::new(params, witnesses, w).with_statement(st))
            }
            CircuitKind::Naive => {
                Inner::Naive(NaiveEcdsaCircuit::new(params, witnesses, w).with_statement(st))
            }
        };
        Self { k: plan.k, inner }
    }

    /// The circuit of `kind` fitted for `b` signatures stating `statement`, over placeholder
    /// witnesses (for keygen, layout statistics and verification, none of which read witness
    /// values); B beyond the circuit's limit is refused before any layout.
    pub fn fitted_for_size(
        kind: CircuitKind,
        b: usize,
        statement: Statement,
    ) -> Result<Self, WitnessBuildError> {
        if b == 0 {
            return Err(WitnessBuildError::Empty);
        }
        limits::planned_k(kind, statement, b)?;
        Ok(Self::fitted(
            kind,
            SignatureWitness::placeholders(b),
            statement,
        ))
    }

    /// The same layout (parameters, window, k) over other witnesses of the same count.
    pub fn with_witnesses(
        &self,
        witnesses: Vec<SignatureWitness>,
    ) -> Result<Self, WitnessBuildError> {
        if witnesses.len() != self.batch_size() {
            return Err(WitnessBuildError::WrongSize {
                expected: self.batch_size(),
                got: witnesses.len(),
            });
        }
        let inner = match &self.inner {
            Inner::Batch(c) => Inner::Batch(
                BatchEcdsaCircuit::new(c.params().clone(), witnesses, c.window())
                    .with_statement(c.statement()),
            ),
            Inner::Naive(c) => Inner::Naive(
                NaiveEcdsaCircuit::new(c.params().clone(), witnesses, c.window())
                    .with_statement(c.statement()),
            ),
        };
        Ok(Self { k: self.k, inner })
    }

    pub fn kind(&self) -> CircuitKind {
        match self.inner {
            Inner::Batch(_) => CircuitKind::Batch,
            Inner::Naive(_) => CircuitKind::Naive,
        }
    }

    /// What the proof's public input states.
    pub fn statement(&self) -> Statement {
        match &self.inner {
            Inner::Batch(c) => c.statement(),
            Inner::Naive(c) => c.statement(),
        }
    }

    /// log2 of the number of rows.
    pub fn k(&self) -> u32 {
        self.k
    }

    /// Number of signatures B.
    pub fn batch_size(&self) -> usize {
        self.witnesses().len()
    }

    /// The MSM window.
    pub fn window(&self) -> u32 {
        match &self.inner {
            Inner::Batch(c) => c.window(),
            Inner::Naive(c) => c.window(),
        }
    }

    /// The layout parameters (lookup bits, lookup columns, table sections, phases).
    pub fn layout_params(&self) -> &LayoutParams {
        match &self.inner {
            Inner::Batch(c) => c.params(),
            Inner::Naive(c) => c.params(),
        }
    }

    pub fn witnesses(&self) -> &[SignatureWitness] {
        match &self.inner {
            Inner::Batch(c) => c.signatures(),
            Inner::Naive(c) => c.signatures(),
        }
    }

    /// The instance column under the circuit's statement: per signature h, x(Q), y(Q) as
    /// limbs (`batch_ecdsa_circuits::ecdsa::instance`), or `[D_hi, D_lo]`
    /// (`batch_ecdsa_circuits::ecdsa::digest`).
    pub fn instance(&self) -> Vec<Native> {
        match &self.inner {
            Inner::Batch(c) => c.instance(),
            Inner::Naive(c) => c.instance(),
        }
    }

    /// The constraint system of this layout (columns, gates, lookups).
    pub fn constraint_system(&self) -> ConstraintSystem<Native> {
        match &self.inner {
            Inner::Batch(c) => configured::<BatchEcdsaCircuit>(c.params()),
            Inner::Naive(c) => configured::<NaiveEcdsaCircuit>(c.params()),
        }
    }

    /// The builders of every phase and the public cells (witness values included).
    fn builders(
        &self,
    ) -> (
        Vec<Builder>,
        Vec<batch_ecdsa_circuits::layout::AssignedValue>,
    ) {
        match &self.inner {
            Inner::Batch(c) => {
                let (b0, b1, public) = c.build(Native::ONE);
                (vec![b0, b1], public)
            }
            Inner::Naive(c) => {
                let (b, public) = c.build();
                (vec![b], public)
            }
        }
    }

    /// Cell and column counts (lays the circuit out; no keys, no proof).
    pub fn stats(&self) -> CircuitStats {
        let (builders, _) = self.builders();
        let cs = self.constraint_system();
        let mut s = CircuitStats {
            advice_cells: 0,
            lookup_cells: 0,
            fixed_cells: self.layout_params().table_rows(),
            advice_columns: cs.num_advice_columns(),
            fixed_columns: cs.num_fixed_columns() + cs.num_selectors(),
            rows: 0,
            copies: 0,
        };
        for b in &builders {
            let st = b.stats();
            s.advice_cells += st.advice_cells;
            s.lookup_cells += st.lookup_cells;
            s.rows = s.rows.max(st.rows);
            s.copies += st.copies;
            s.fixed_cells += b.fixed_cells().len();
        }
        s
    }

    /// A digest of everything the proving key depends on besides the KZG parameters: the
    /// kind, the statement (a line only for the digest, so keys-mode fingerprints, and the
    /// key caches named by them, are what they were), B, k, window, layout parameters, the
    /// constraint system (gates, lookups, columns,
    /// permutation columns: its pinned form, as halo2 hashes it into the verifying key), and
    /// the layout's fixed values, enabled gates, copy constraints and public-cell positions.
    /// Two circuits with equal fingerprints give equal keys, whatever code built them.
    pub fn fingerprint(&self) -> [u8; 32] {
        let cs = self.constraint_system();
        let (builders, public) = self.builders();
        let mut text = format!(
            "batch-ecdsa circuit fingerprint v3 (absent operands pinned)\nkind={}\nB={}\nk={}\nwindow={}\nlayout={:?}\ncs={:?}\n",
            self.kind(),
            self.batch_size(),
            self.k,
            self.window(),
            self.layout_params(),
            cs.pinned()
        );
        use std::fmt::Write;
        if self.statement() != Statement::Keys {
            let _ = writeln!(text, "statement={}", self.statement());
        }
        for b in &builders {
            let _ = writeln!(text, "rows={}", b.rows());
            for (col, row, v) in b.fixed_cells() {
                let _ = writeln!(text, "f {col:?} {row} {}", hex::encode(v.to_repr()));
            }
            for (gate, row) in b.enabled_gates() {
                let _ = writeln!(text, "g {gate:?} {row}");
            }
            for (a, c) in b.copy_constraints() {
                let _ = writeln!(text, "c {a:?} {c:?}");
            }
        }
        for v in &public {
            let _ = writeln!(text, "p {:?}", v.cell);
        }
        keccak256(text.as_bytes())
    }

    /// The circuit as halo2 takes it, for keygen and proving.
    /// The layout check of this circuit as laid out (`batch_ecdsa_circuits::footprint`): every
    /// cell a gate or lookup reads is assigned, every assigned cell constrained. Run before
    /// any proving key is made (`super::proving_key::generate`), so the production layouts are
    /// checked, not only the sizes the tests lay out.
    pub fn footprint(&self) -> Result<(), String> {
        use batch_ecdsa_circuits::footprint::check_circuit;
        match &self.inner {
            Inner::Batch(c) => check_circuit(c).result(),
            Inner::Naive(c) => check_circuit(c).result(),
        }
    }

    pub(crate) fn with_circuit<R>(&self, f: impl CircuitVisitor<R>) -> R {
        match &self.inner {
            Inner::Batch(c) => f.visit(c),
            Inner::Naive(c) => f.visit(c),
        }
    }
}

/// A generic operation over the concrete circuit type (keygen, proving, reading keys).
pub(crate) trait CircuitVisitor<R> {
    fn visit<C: Circuit<Native, Params = LayoutParams> + Clone>(self, circuit: &C) -> R;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_does_not_depend_on_witness_values() {
        let a = AnyCircuit::fitted_for_size(CircuitKind::Naive, 1, Statement::Keys).unwrap();
        let records = crate::demo::demo_batch(1, 7, &[]).unwrap();
        let file = BatchFile::from_records(&records).unwrap();
        let w = witnesses_from_batch(&file, Policy::default(), true).unwrap();
        let b = a.with_witnesses(w).unwrap();
        assert_ne!(a.instance(), b.instance());
        assert_eq!(a.fingerprint(), b.fingerprint());
        assert_eq!(a.stats(), b.stats());
        assert!(matches!(
            a.with_witnesses(vec![]),
            Err(WitnessBuildError::WrongSize { .. })
        ));
    }

    #[test]
    fn invalid_signature_is_named_when_checked() {
        let records = crate::demo::demo_batch(3, 1, &[1]).unwrap();
        let file = BatchFile::from_records(&records).unwrap();
        match witnesses_from_batch(&file, Policy::default(), true) {
            Err(WitnessBuildError::Invalid(v)) => {
                assert_eq!(v.len(), 1);
                assert_eq!(v[0].index, 1);
            }
            other => panic!("expected the invalid signature 1, got {other:?}"),
        }
        // Unchecked: the items still build (R from (r, v)); the circuit must reject it.
        assert_eq!(
            witnesses_from_batch(&file, Policy::default(), false)
                .unwrap()
                .len(),
            3
        );
    }
}
