//! `NaiveEcdsaCircuit`: B independent ECDSA* verifications in one circuit, the baseline every
//! batch figure is compared with.
//!
//! Per signature i (see the module doc of [`crate::ecdsa`] for why this is ECDSA validity):
//!
//! 1. `Qᵢ` and `Rᵢ` loaded with canonical coordinates and proven on the curve
//!    ([`EccChip::load_point_xy`]); affine, so neither is the identity.
//! 2. `hᵢ` loaded and proven canonical (`< n`); `sᵢ` proven in `[1, n)`
//!    ([`scalar::load_signature_scalar`]).
//! 3. `rᵢ = x(Rᵢ) mod n`, proven non-zero, with `x ∈ [n, p)` handled ([`scalar::x_mod_n`]).
//! 4. `uᵢ = hᵢ/sᵢ`, `vᵢ = rᵢ/sᵢ` (one relation block each, the divisor proven non-zero:
//!    [`scalar::div`]).
//! 5. `P = uᵢ·G + vᵢ·Qᵢ` by the curve chip's Straus MSM with one point plus the constant
//!    window table of G at the circuit's window (5 by default; [`EccChip::msm`], signed odd
//!    windows, so `uᵢ = 0` is fine), and
//!    `P = Rᵢ` (coordinate-wise copy constraints).
//! 6. The packed public values of `hᵢ`, `Qᵢ` are bound to the instance column
//!    ([`super::instance`]); or, under [`Statement::Digest`], the bytes of every `hᵢ`
//!    (then the 256-bit signing hash, used mod n) and `Qᵢ` are hashed into the digest D,
//!    whose halves are bound to it ([`super::digest`]).
//!
//! **Completeness limits** (never soundness): the MSM's strict additions fail when an
//! intermediate sum has the x of the point it is added to, which for honest inputs needs a
//! discrete logarithm of the hashed offset `A`; the final removal of `2^o·A` (o the top window
//! offset: 255 at w = 5) fails only if
//! `uᵢ·G + vᵢ·Qᵢ` is `O` or `−2^(o+1)·A`, i.e. never for an honest `Rᵢ` (an on-curve point whose
//! discrete logarithm to `A` nobody knows).
//!
//! **Free cells**: the inverse witness of an `is_zero`/`is_equal` block whose input is zero
//! (marked by the field chip; none occur for a valid batch here since every tested value is
//! non-zero or unequal).

use std::collections::HashMap;

use halo2_proofs::plonk::ConstraintSystem;

use super::digest::{bind_public, params_for_statement, statement_instance, PublicCells};
use super::scalar;
use super::witness::SignatureWitness;
use super::Statement;
use crate::config::{impl_layout_circuit, CircuitConfig, InstanceConfig, LaidOutCircuit};
use crate::ecc::EccChip;
use crate::layout::{AssignedValue, Builder, LayoutParams, LayoutStats, Native};

/// Default window of the MSM `u·G + v·Q`: 5, the cheapest of 3, 4, 5 (measured by `cargo bench
/// -p batch-ecdsa-circuits --bench batch_cells`; the figures: that bench's output and
/// `tests/snapshots/cells.txt`).
pub const DEFAULT_WINDOW: u32 = 5;

/// Columns of the naive circuit: the shared chip configuration plus one instance column.
pub type NaiveConfig = InstanceConfig;

/// B independent ECDSA* verifications (see the module doc).
#[derive(Clone, Debug)]
///
/// The fields are private: the layout parameters carry the window's table section and the
/// statement's columns ([`NaiveEcdsaCircuit::new`], `with_statement`).
pub struct NaiveEcdsaCircuit {
    params: LayoutParams,
    signatures: Vec<SignatureWitness>,
    /// Window of the MSM.
    window: u32,
    /// What the public input states (default [`Statement::Keys`]).
    statement: Statement,
}

/// The layout of one signature's verification for cell counts (the benches): its public
/// cells are dropped, so nothing binds them; never part of a circuit.
#[cfg(feature = "testing")]
pub fn lay_out_verification_for_counts(
    ecc: &EccChip,
    b: &mut Builder,
    w: &SignatureWitness,
    window: u32,
    statement: Statement,
) {
    let _ = verify_signature(ecc, b, w, window, statement);
}

/// Lays out the verification of one signature and returns its public cells under
/// `statement`. Never panics on witness values: a witness that is not a valid signature yields
/// cells that violate some constraint. Crate-private: the public cells mean nothing until
/// the caller binds them to the instance (`bind_public`).
pub(crate) fn verify_signature(
    ecc: &EccChip,
    b: &mut Builder,
    w: &SignatureWitness,
    window: u32,
    statement: Statement,
) -> PublicCells {
    let fq = &ecc.fq;
    let super::LoadedSignature { q, r_point, h, s } = super::load_signature(ecc, b, w, statement);
    let r = scalar::x_mod_n(fq, b, &r_point.x);
    let u = scalar::div(fq, b, &h, &s);
    let v = scalar::div(fq, b, r.value(), &s);
    let p = ecc.msm(
        b,
        std::slice::from_ref(&q),
        std::slice::from_ref(&v),
        Some(&u),
        window,
    );
    ecc.assert_equal(b, &p, &r_point);
    PublicCells::of(statement, &fq.range, b, &h, &q)
}

impl NaiveEcdsaCircuit {
    /// The circuit at window `window` (3, 4 or 5); the window's table section is added to
    /// `params` if missing.
    pub fn new(params: LayoutParams, signatures: Vec<SignatureWitness>, window: u32) -> Self {
        crate::ecc::assert_window(window);
        Self {
            params: Self::params_for(params, window),
            signatures,
            window,
            statement: Statement::Keys,
        }
    }

    /// The same circuit stating `statement` (Keccak columns added for the digest).
    pub fn with_statement(mut self, statement: Statement) -> Self {
        self.params = params_for_statement(self.params, statement);
        self.statement = statement;
        self
    }

    /// `params` with the table section of `window` added if missing.
    pub fn params_for(mut params: LayoutParams, window: u32) -> LayoutParams {
        if params.window_tag(window).is_none() {
            params.window_bits.push(window);
        }
        params
    }

    /// The layout parameters.
    pub fn params(&self) -> &LayoutParams {
        &self.params
    }

    /// The witnesses, one per signature.
    pub fn signatures(&self) -> &[SignatureWitness] {
        &self.signatures
    }

    /// The window of the MSM.
    pub fn window(&self) -> u32 {
        self.window
    }

    /// What the public input states.
    pub fn statement(&self) -> Statement {
        self.statement
    }

    /// The chips of this circuit's parameters.
    pub fn chip(&self) -> EccChip {
        EccChip::for_params(&self.params)
    }

    /// Runs the whole layout: the builder and the public cells in instance order.
    pub fn build(&self) -> (Builder, Vec<AssignedValue>) {
        let mut b = Builder::new(0, self.params.clone());
        let mirror = b.mirror_instance(&self.instance());
        let ecc = self.chip();
        let public: Vec<PublicCells> = self
            .signatures
            .iter()
            .map(|w| verify_signature(&ecc, &mut b, w, self.window, self.statement))
            .collect();
        bind_public(&mut b, public, &mirror);
        (b, mirror)
    }

    /// Cell counts of the layout (no keys, no proof).
    pub fn stats(&self) -> LayoutStats {
        self.build().0.stats()
    }

    /// The instance column for these signatures under the circuit's statement.
    pub fn instance(&self) -> Vec<Native> {
        statement_instance(self.statement, &self.signatures)
    }
}

impl_layout_circuit!(
    NaiveEcdsaCircuit,
    NaiveConfig,
    InstanceConfig::configure,
    LayoutParams::default(),
    |self, config, layouter| {
        config.base.load_table(&mut layouter)?;
        // The public cells are copied to the instance mirror rows (`Builder::mirror_instance`)
        // inside the builder; the instance gate ties those rows to the instance column.
        let (b, _public) = self.build();
        let mut cells = HashMap::new();
        config.base.assign_phase(&mut layouter, &b, &mut cells)
    }
);

impl LaidOutCircuit for NaiveEcdsaCircuit {
    fn configured(&self) -> (ConstraintSystem<Native>, CircuitConfig) {
        crate::config::configured::<Self>(&self.params, |c| c.base)
    }
    fn layout_builders(&self) -> Vec<Builder> {
        vec![self.build().0]
    }
    fn instance_values(&self) -> Vec<Native> {
        self.instance()
    }
}
