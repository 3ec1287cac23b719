//! Keys in one synthesis against two, paired in one process: halo2's `keygen_vk` then
//! `keygen_pk` (the circuit laid out twice, its fixed columns and permutation built twice)
//! against `keygen_pk2` (once), on the inner batch circuit under the digest statement at B
//! (default 32) and on the outer aggregation circuit at outer k (default 22) verifying a B = 1
//! digest proof (the outer circuit's size follows the inner proof's shape, not B:
//! docs/results.md). Each pair runs `--rounds` times (default 1), alternating which comes
//! first; the verifying keys of both ways are checked equal. The keys the crates make
//! (`batch_ecdsa::prover::proving_key::generate`, `batch_ecdsa_evm::outer_keys::outer_keygen`)
//! are made the one-synthesis way.
//!
//! Run: `cargo bench -p batch-ecdsa-evm --features aggregate --bench keygen [-- --b 32
//! --outer-k 22 --rounds 1]` (the fixed-seed development setup in the workspace's `params/`; keygen reads no
//! secret, so the setup changes no time). Prints one line per keygen and the medians.

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
use batch_ecdsa_evm::outer_keys::outer_layout;
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

/// Keys made both ways, `rounds` times, the first way alternating; returns the times of
/// (two syntheses, one synthesis).
fn pair<C: Circuit<Fr>>(
    what: &str,
    params: &ParamsKZG<Bn256>,
    circuit: &C,
    compress: bool,
    rounds: u32,
) -> (Vec<Duration>, Vec<Duration>) {
    let two = || {
        let t = Instant::now();
        let vk = keygen_vk_custom(params, circuit, compress).expect("keygen_vk");
        let pk = keygen_pk(params, vk, circuit).expect("keygen_pk");
        (t.elapsed(), pk)
    };
    let one = || {
        let t = Instant::now();
        let pk = keygen_pk2(params, circuit, compress).expect("keygen_pk2");
        (t.elapsed(), pk)
    };
    let (mut twos, mut ones) = (Vec::new(), Vec::new());
    for round in 0..rounds {
        let mut run = |first_two: bool| {
            let (d, pk): (Duration, ProvingKey<G1Affine>) = if first_two { two() } else { one() };
            let hash = vk_hash(pk.get_vk());
            drop(pk);
            let way = if first_two {
                "keygen_vk + keygen_pk"
            } else {
                "keygen_pk2"
            };
            eprintln!("{what}, round {round}: {way}: {:.1} s", d.as_secs_f64());
            if first_two {
                twos.push(d)
            } else {
                ones.push(d)
            }
            hash
        };
        let order = [round % 2 == 0, round % 2 == 1];
        let a = run(order[0]);
        let b = run(order[1]);
        assert_eq!(a, b, "{what}: the two ways made different verifying keys");
    }
    (twos, ones)
}

fn median(mut v: Vec<Duration>) -> f64 {
    v.sort();
    v[v.len() / 2].as_secs_f64()
}

fn report(what: &str, (twos, ones): (Vec<Duration>, Vec<Duration>)) {
    let (t, o) = (median(twos), median(ones));
    println!(
        "{what}: keygen_vk + keygen_pk {t:.1} s, keygen_pk2 {o:.1} s ({:+.1}%)",
        100.0 * (o - t) / t
    );
}

fn main() {
    let b = arg("--b", 32) as usize;
    let outer_k = arg("--outer-k", 22);
    let rounds = arg("--rounds", 1).max(1);
    // The workspace's params folder (a bench runs in its package's folder).
    let params_dir = &Path::new(env!("CARGO_MANIFEST_DIR")).join("../params");

    // The inner batch circuit, digest statement, B signatures (placeholder witnesses: keygen
    // reads none), with selector compression as the prover's keys.
    let plan = Plan::fit(
        CircuitKind::Batch,
        b,
        &FitOptions::default().statement(Statement::Digest),
    );
    let circuit = BatchEcdsaCircuit::new(
        plan.params.clone(),
        SignatureWitness::placeholders(b),
        plan.window,
    )
    .with_statement(Statement::Digest);
    let (inner_srs, _) = load_setup(
        &SetupSource::InsecureDev,
        params_dir,
        plan.k,
        plan.k.max(outer_k),
    )
    .expect("setup");
    let what = format!("inner, digest, B = {b}, k = {}", plan.k);
    report(
        &what,
        pair(&what, &inner_srs.params, &circuit, true, rounds),
    );
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
    let (_, _, outer) = outer_layout(&outer_srs.params, &inner.snark, shape);
    let what = format!("outer, k = {outer_k}");
    report(&what, pair(&what, &outer_srs.params, &outer, false, rounds));
}
