//! Keys in one synthesis against two, paired in one process: halo2's `keygen_vk` then
//! `keygen_pk` (the circuit laid out twice) against `keygen_pk2` (laid out once; the
//! permutation polynomials are still computed for each key), on the inner batch circuit under
//! the digest statement at B (default 32) and on the outer aggregation circuit at outer k
//! (default 22) verifying a B = 1 digest proof (the outer circuit's size follows the inner
//! proof's shape, not B: docs/results.md). Each keygen starts from a freshly built circuit
//! (built outside the timer). `--rounds` rounds (default 2) of one keygen each way, the first
//! way alternating (round 0: two syntheses first), so that with an even count each way runs
//! first as often; the verifying keys of both ways are checked equal. Prints each keygen and
//! each way's mean. The keys the crates make (`batch_ecdsa::prover::proving_key::generate`,
//! `batch_ecdsa_evm::outer_keys::outer_keygen`) are made the one-synthesis way.
//!
//! Run: `cargo bench -p batch-ecdsa-evm --features aggregate --bench keygen [-- --b 32
//! --outer-k 22 --rounds 2]` (the fixed-seed development setup in the workspace's `params/`;
//! keygen reads no secret, so the setup changes no time). About 15 minutes and 16 GiB at the
//! defaults on 2 cores.

use std::path::Path;
use std::time::{Duration, Instant};

use batch_ecdsa::calldata::rows::OuterShape;
use batch_ecdsa::prover::phases::Phases;
use batch_ecdsa::prover::proving_key::vk_hash;
use batch_ecdsa::prover::srs::SetupSource;
use batch_ecdsa_circuits::ecdsa::{BatchEcdsaCircuit, SignatureWitness, Statement};
use batch_ecdsa_circuits::plan::CircuitKind;
use batch_ecdsa_circuits::plan::{FitOptions, Plan};
use batch_ecdsa_evm::aggregation_prover::{inner_k, inner_snark, load_setup};
use batch_ecdsa_evm::outer_keys::{outer_layout, OUTER_COMPRESS_SELECTORS};
use halo2_proofs::halo2curves::bn256::{Bn256, Fr, G1Affine};
use halo2_proofs::plonk::{keygen_pk, keygen_pk2, keygen_vk_custom, Circuit, ProvingKey};
use halo2_proofs::poly::kzg::commitment::ParamsKZG;

fn arg(name: &str, default: u32) -> u32 {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map(|v| {
            v.parse()
                .unwrap_or_else(|_| panic!("{name}: not a number: {v}"))
        })
        .unwrap_or(default)
}

/// Keys made both ways, `rounds` times, the first way alternating (round 0: two syntheses
/// first), each from a fresh circuit built by `make` outside the timer (a circuit laid out
/// once keeps state that makes a later synthesis of it faster); returns the times of (two
/// syntheses, one synthesis).
fn pair<C: Circuit<Fr>>(
    what: &str,
    params: &ParamsKZG<Bn256>,
    make: impl Fn() -> C,
    compress: bool,
    rounds: u32,
) -> (Vec<Duration>, Vec<Duration>) {
    let (mut twos, mut ones) = (Vec::new(), Vec::new());
    for round in 0..rounds {
        let mut run = |two_syntheses: bool| {
            let circuit = make();
            let t = Instant::now();
            let pk: ProvingKey<G1Affine> = if two_syntheses {
                let vk = keygen_vk_custom(params, &circuit, compress).expect("keygen_vk");
                keygen_pk(params, vk, &circuit).expect("keygen_pk")
            } else {
                keygen_pk2(params, &circuit, compress).expect("keygen_pk2")
            };
            let d = t.elapsed();
            let hash = vk_hash(pk.get_vk());
            drop((pk, circuit));
            let way = if two_syntheses {
                "keygen_vk + keygen_pk"
            } else {
                "keygen_pk2"
            };
            eprintln!("{what}, round {round}: {way}: {:.1} s", d.as_secs_f64());
            if two_syntheses {
                twos.push(d)
            } else {
                ones.push(d)
            }
            hash
        };
        let two_first = round % 2 == 0;
        let a = run(two_first);
        let b = run(!two_first);
        assert_eq!(a, b, "{what}: the two ways made different verifying keys");
    }
    (twos, ones)
}

fn mean(v: &[Duration]) -> f64 {
    v.iter().map(Duration::as_secs_f64).sum::<f64>() / v.len() as f64
}

fn report(what: &str, (twos, ones): (Vec<Duration>, Vec<Duration>)) {
    let (t, o) = (mean(&twos), mean(&ones));
    println!(
        "{what}: keygen_vk + keygen_pk {t:.1} s, keygen_pk2 {o:.1} s ({:+.1}%), mean of {} each",
        100.0 * (o - t) / t,
        twos.len()
    );
}

fn main() {
    let b = arg("--b", 32) as usize;
    let outer_k = arg("--outer-k", 22);
    let rounds = arg("--rounds", 2).max(1);
    // The workspace's params folder (a bench runs in its package's folder).
    let params_dir = &Path::new(env!("CARGO_MANIFEST_DIR")).join("../params");

    // The inner batch circuit, digest statement, B signatures (placeholder witnesses: keygen
    // reads none), with selector compression as the prover's keys.
    let plan = Plan::fit(
        CircuitKind::Batch,
        b,
        &FitOptions::default().statement(Statement::Digest),
    );
    let circuit = || {
        BatchEcdsaCircuit::new(
            plan.params.clone(),
            SignatureWitness::placeholders(b),
            plan.window,
        )
        .with_statement(Statement::Digest)
    };
    let (inner_srs, _) = load_setup(
        &SetupSource::InsecureDev,
        params_dir,
        plan.k,
        plan.k.max(outer_k),
    )
    .expect("setup");
    let what = format!("inner, digest, B = {b}, k = {}", plan.k);
    report(&what, pair(&what, &inner_srs.params, circuit, true, rounds));
    drop(inner_srs);

    // The outer circuit verifying a B = 1 digest proof, without selector compression as the
    // outer keys.
    let k1 = inner_k(1, Statement::Digest).expect("B = 1");
    let (inner_srs, outer_srs) =
        load_setup(&SetupSource::InsecureDev, params_dir, k1, outer_k).expect("setup");
    let inner = inner_snark(
        1,
        Statement::Digest,
        &inner_srs.params,
        &params_dir.join("keys"),
        &mut Phases::silent(),
    )
    .expect("inner proof");
    drop(inner_srs);
    let shape = OuterShape {
        k: outer_k,
        lookup_bits: outer_k as usize - 1,
    };
    // Laid out afresh for each keygen (halo2-base keeps the assignments of a synthesis).
    let outer = || outer_layout(&outer_srs.params, &inner.snark, shape).2;
    let what = format!("outer, k = {outer_k}");
    report(
        &what,
        pair(
            &what,
            &outer_srs.params,
            outer,
            OUTER_COMPRESS_SELECTORS,
            rounds,
        ),
    );
}
