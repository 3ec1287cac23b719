//! The outer (aggregation) circuit's keys made once (`batch_ecdsa_evm::outer_keys`, feature
//! `aggregate`), on a small inner proof so that it runs in CI: a toy circuit (one squaring gate,
//! one public input) proven in snark-verifier's Poseidon transcript and verified inside the
//! aggregation circuit at outer k = 18. The first load makes and stores the keys, the second
//! reads them; a proof made with the read keys verifies natively; keys whose recorded layout or
//! break points differ from the prover's are refused before proving, and made again.
#![cfg(feature = "aggregate")]

use std::path::PathBuf;

use batch_ecdsa::calldata::rows::OuterShape;
use batch_ecdsa::prover::proving_key::{vk_hash, KeySource};
use batch_ecdsa::prover::srs::SetupSource;
use batch_ecdsa_circuits::ecdsa::Statement;
use batch_ecdsa_evm::aggregation_prover::{load_setup, outer_prove, ACCUMULATOR_LIMBS};
use batch_ecdsa_evm::outer_keys::{
    load_or_generate, prover_circuit, regenerate, OuterTarget, OUTER_STACK,
};
use halo2_proofs::circuit::{Layouter, SimpleFloorPlanner, Value};
use halo2_proofs::halo2curves::bn256::{Bn256, Fr};
use halo2_proofs::plonk::{
    keygen_pk, keygen_vk, Advice, Circuit, Column, ConstraintSystem, Error, Instance, Selector,
};
use halo2_proofs::poly::kzg::commitment::ParamsKZG;
use halo2_proofs::poly::Rotation;
use snark_verifier_sdk::halo2::gen_proof_shplonk;
use snark_verifier_sdk::snark_verifier::system::halo2::{compile, Config};
use snark_verifier_sdk::Snark;

/// `b = a²`, `b` public.
#[derive(Clone, Default)]
struct Square(u64);

#[derive(Clone)]
struct SquareConfig {
    a: Column<Advice>,
    b: Column<Advice>,
    out: Column<Instance>,
    q: Selector,
}

impl Circuit<Fr> for Square {
    type Config = SquareConfig;
    type FloorPlanner = SimpleFloorPlanner;
    type Params = ();

    fn without_witnesses(&self) -> Self {
        Self(0)
    }
    fn configure(meta: &mut ConstraintSystem<Fr>) -> SquareConfig {
        let (a, b) = (meta.advice_column(), meta.advice_column());
        let out = meta.instance_column();
        meta.enable_equality(b);
        meta.enable_equality(out);
        let q = meta.selector();
        meta.create_gate("square", |m| {
            let q = m.query_selector(q);
            let a = m.query_advice(a, Rotation::cur());
            let b = m.query_advice(b, Rotation::cur());
            vec![q * (a.clone() * a - b)]
        });
        SquareConfig { a, b, out, q }
    }
    fn synthesize(&self, c: SquareConfig, mut layouter: impl Layouter<Fr>) -> Result<(), Error> {
        let cell = layouter.assign_region(
            || "square",
            |mut region| {
                c.q.enable(&mut region, 0)?;
                region.assign_advice(c.a, 0, Value::known(Fr::from(self.0)));
                Ok(region.assign_advice(c.b, 0, Value::known(Fr::from(self.0 * self.0))))
            },
        )?;
        layouter.constrain_instance(cell.cell(), c.out, 0);
        Ok(())
    }
}

fn scratch() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("outer-keys")
}

fn toy_snark(params: &ParamsKZG<Bn256>, x: u64) -> Snark {
    let circuit = Square(x);
    let vk = keygen_vk(params, &circuit).unwrap();
    let pk = keygen_pk(params, vk, &circuit).unwrap();
    let instances = vec![vec![Fr::from(x * x)]];
    let protocol = compile(
        params,
        pk.get_vk(),
        Config::kzg().with_num_instance(vec![1]),
    );
    let proof = gen_proof_shplonk(params, &pk, circuit, instances.clone(), None);
    Snark::new(protocol, instances, proof)
}

/// Made once, read back, proven with, and refused when the recorded layout is not the prover's.
#[test]
fn outer_keys_are_made_once_and_read_back() {
    let dir = scratch();
    let keys_dir = dir.join("keys");
    let _ = std::fs::remove_dir_all(&keys_dir);
    let (inner_srs, outer_srs) = load_setup(&SetupSource::Local, &dir, 8, 18).unwrap();
    let params = &outer_srs.params;
    let shape = OuterShape {
        k: 18,
        lookup_bits: 17,
    };
    let first_batch = toy_snark(&inner_srs.params, 3);
    let target = |snark| OuterTarget {
        snark,
        statement: Statement::Keys,
        batch_size: 1,
        inner_k: 8,
        shape,
    };
    let made = load_or_generate(params, &target(&first_batch), &keys_dir).unwrap();
    assert_eq!(made.source, KeySource::Generated { rejected: None });
    assert!(made.not_stored.is_none() && made.pk_bytes > 0);
    // The keys are made in one synthesis; their verifying key is the one `keygen_vk_custom` makes
    // alone (what `outer_vk` sizes verifiers with): the same hash of its serialised bytes.
    let (_, alone) =
        batch_ecdsa_evm::aggregation_prover::outer_vk(params, &first_batch, shape).unwrap();
    assert_eq!(vk_hash(made.pk.get_vk()), vk_hash(&alone));

    // Another batch of the same circuit: the keys are read, not made.
    let second_batch = toy_snark(&inner_srs.params, 5);
    let read = load_or_generate(params, &target(&second_batch), &keys_dir).unwrap();
    assert_eq!(read.source, KeySource::Cache);
    assert_eq!(read.layout, made.layout);
    assert_eq!(read.break_points, made.break_points);
    assert_eq!(
        read.pk.get_vk().transcript_repr(),
        made.pk.get_vk().transcript_repr()
    );
    let circuit = prover_circuit(params, &read, &second_batch).unwrap();
    // `outer_prove` returns an error unless the proof verifies natively with the read key.
    let (instance, proof, _) = outer_prove(params, &read, circuit).unwrap();
    assert!(!proof.is_empty());
    // The wrapper's layout of the outer proof, from the verifying key, is the proof's.
    let layout = batch_ecdsa_evm::aggregation_prover::outer_proof_layout(
        params,
        read.pk.get_vk(),
        instance.len(),
    );
    assert_eq!(
        batch_ecdsa_evm::wrapper::ProofLayout::find(&proof).unwrap(),
        layout
    );
    assert_eq!(layout.rest_bytes, proof.len());
    assert_eq!(instance[ACCUMULATOR_LIMBS..], second_batch.instances[0][..]);

    // Keys recorded for another layout (another build of the outer circuit, or altered
    // metadata) are refused before any proving, and made again.
    let mut stale = read;
    stale.layout.advice_cells += 1;
    let Err(why) = prover_circuit(params, &stale, &second_batch) else {
        panic!("keys for another layout were used")
    };
    assert!(why.contains("its keys were made for"), "{why}");
    stale.layout.advice_cells -= 1;
    stale.break_points[0].pop();
    let Err(why) = prover_circuit(params, &stale, &second_batch) else {
        panic!("break points for other columns were used")
    };
    assert!(why.contains("break points"), "{why}");
    let again = regenerate(params, &target(&second_batch), &keys_dir, why).unwrap();
    assert!(matches!(
        again.source,
        KeySource::Generated { rejected: Some(_) }
    ));
    assert_eq!(again.break_points, made.break_points);

    // Another inner circuit (here: another number of public inputs) is another cache entry.
    let other = {
        let mut s = first_batch.clone();
        s.protocol.num_instance = vec![2];
        s
    };
    assert_ne!(
        batch_ecdsa_evm::outer_keys::outer_cache_key(params, &other, shape).unwrap(),
        batch_ecdsa_evm::outer_keys::outer_cache_key(params, &first_batch, shape).unwrap()
    );
}

/// The outer cache key names the crates the outer circuit is made of as `Cargo.lock` pins them:
/// a version bump that is not reflected in `OUTER_STACK` fails here (and would otherwise reuse
/// keys made by other code).
#[test]
fn the_outer_stack_is_the_locked_one() {
    let lock =
        std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../Cargo.lock"))
            .unwrap();
    for (name, version) in OUTER_STACK {
        let entry = format!("name = \"{name}\"\nversion = \"{version}\"\n");
        assert!(
            lock.contains(&entry),
            "{name} {version} is not the locked version"
        );
        let versions = lock.matches(&format!("name = \"{name}\"\n")).count();
        assert_eq!(versions, 1, "{name} is locked at {versions} versions");
    }
}
