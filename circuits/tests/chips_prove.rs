//! Real proofs (KZG/SHPLONK over BN254) of small chip circuits: the layout works with keygen
//! and `create_proof`, not only with MockProver, in one phase and across two phases (second
//! phase columns, lookups and copies from first-phase cells, a challenge read in between).

mod common;
use std::collections::HashMap;

use batch_ecdsa_circuits::config::CircuitConfig;
use batch_ecdsa_circuits::field::{FieldChip, FieldValue, Proper};
use batch_ecdsa_circuits::layout::{Builder, LayoutParams, Native};
use batch_ecdsa_circuits::range::RangeChip;
use batch_ecdsa_circuits::test_utils::mock_verify;
use batch_ecdsa_circuits::test_utils::BuilderCircuit;
use common::*;
use ff::Field;
use halo2_proofs::circuit::{Layouter, SimpleFloorPlanner};
use halo2_proofs::plonk::{Circuit, ConstraintSystem, Error};
use halo2curves::secp256k1::Fp;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;

fn mul_circuit(x: Fp, y: Fp, want: Fp) -> BuilderCircuit {
    circuit(move |b| {
        let chip = fp_chip(b);
        let a = chip.load_proper(b, x);
        let c = chip.load_proper(b, y);
        let m = chip.mul(b, &a, &c);
        let r = chip.assert_canonical(b, &m);
        let e = chip.load_constant(b, want);
        chip.assert_equal(b, &r, &e);
        let s = chip.load_reduced(b, x);
        chip.to_windows(b, &s, 4);
    })
}

#[test]
fn single_phase_proof_verifies_and_a_wrong_product_does_not_prove() {
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    let (x, y) = (Fp::random(&mut rng), Fp::random(&mut rng));
    let good = mul_circuit(x, y, x * y);
    assert!(prove_and_verify(K, &good, good.clone()));
    // A false claim (product pinned to x·y + 1) cannot be proven: the proof does not verify.
    let bad = mul_circuit(x, y, x * y + Fp::ONE);
    let ok = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        prove_and_verify(K, &good, bad)
    }))
    .unwrap_or(false);
    assert!(!ok, "a false product verified");
}

/// Phase 0 loads x and y; phase 1 (after the challenge) multiplies them in the second-phase
/// columns, copying the phase-0 limbs, and pins the product.
#[derive(Clone)]
struct TwoPhase {
    x: Fp,
    y: Fp,
    want: Fp,
}

fn two_phase_params() -> LayoutParams {
    LayoutParams {
        phases: 2,
        ..params()
    }
}

impl TwoPhase {
    /// Both builders: phase 0 loads x and y, phase 1 multiplies them and pins the product.
    fn builders(&self) -> (Builder, Builder) {
        let params = two_phase_params();
        let chip: FieldChip<Fp> = FieldChip::new(RangeChip::new(params.clone()), 0);
        let mut b0 = Builder::new(0, params.clone());
        let a = chip.load_proper(&mut b0, self.x);
        let c = chip.load_proper(&mut b0, self.y);
        let mut b1 = Builder::new(1, params);
        let m: Proper<Fp> = chip.mul(&mut b1, &a, &c);
        let r = chip.assert_canonical(&mut b1, &m);
        let e = chip.load_constant(&mut b1, self.want);
        chip.assert_equal(&mut b1, &r, &e);
        assert_eq!(r.fe(), self.x * self.y);
        (b0, b1)
    }
}

impl Circuit<Native> for TwoPhase {
    type Config = CircuitConfig;
    type FloorPlanner = SimpleFloorPlanner;
    type Params = ();

    fn without_witnesses(&self) -> Self {
        self.clone()
    }

    fn configure(meta: &mut ConstraintSystem<Native>) -> CircuitConfig {
        CircuitConfig::configure_secp256k1(meta, two_phase_params())
    }

    fn synthesize(
        &self,
        config: CircuitConfig,
        mut layouter: impl Layouter<Native>,
    ) -> Result<(), Error> {
        config.load_table(&mut layouter)?;
        let (b0, b1) = self.builders();
        let mut cells = HashMap::new();
        config.assign_phase(&mut layouter, &b0, &mut cells)?;
        layouter.next_phase();
        let mut t = Native::ZERO;
        let challenge = config.challenge.expect("two phases configure a challenge");
        layouter.get_challenge(challenge).map(|v| t = v);
        let _ = t; // the batch circuit feeds t into its gates; here only the phase order matters
        config.assign_phase(&mut layouter, &b1, &mut cells)
    }
}

#[test]
fn two_phase_mock_and_real_proof() {
    use batch_ecdsa_circuits::layout::adversary::{with_adversary, Adversary};
    let mut rng = ChaCha20Rng::seed_from_u64(4);
    let (x, y) = (Fp::random(&mut rng), Fp::random(&mut rng));
    let good = TwoPhase { x, y, want: x * y };
    let prover = halo2_proofs::dev::MockProver::run(K, &good, vec![]).expect("synthesis");
    prover.verify().expect("two-phase circuit satisfied");
    // A changed second-phase cell (the first: a copy of a first-phase limb) is caught.
    let (_, b1) = good.builders();
    for idx in [0usize, 5, 30] {
        let (cell, v) = b1.advice_cells()[idx];
        let mut adv = Adversary::default();
        adv.cells.insert(cell, v + Native::ONE);
        let rejected = with_adversary(adv, || {
            let p = halo2_proofs::dev::MockProver::run(K, &good, vec![]).expect("synthesis");
            p.verify().is_err()
        });
        assert!(rejected, "changed phase-1 cell {idx} accepted");
    }
    assert!(prove_and_verify(K, &good, good.clone()));
}

#[test]
fn builder_circuit_mock_matches() {
    let c = mul_circuit(Fp::from(3u64), Fp::from(4u64), Fp::from(12u64));
    assert!(mock_verify(K, &c).is_ok());
}
