//! The audit's forgery, as a regression test: **with τ one opens any commitment anywhere.**
//!
//! An auditor forged an aggregated proof for transactions nobody signed by keeping an honest
//! proof and replacing only its last SHPLONK point: halo2's SHPLONK verifier accepts when
//! `τ·W′ = F + u·W′`, where `F` (the combined commitments minus evaluations) and `u` (the last
//! challenge) are fixed before `W′` is read; whoever knows τ sets `W′ = F/(τ − u)`. The
//! fixed-seed development setup's τ is public (anyone can rerun its seed), so every proof
//! under it is forgeable. Here the same forgery is made on a batch proof (digest statement,
//! B = 1, the smallest k): the public digest is changed to that of a signature nobody made.
//!
//! What must hold: under the fixed-seed setup the forgery verifies (the danger is real, and
//! `verify --insecure-dev-setup` says INSECURE on every line), `verify` without the flag refuses
//! the file, and under a setup whose τ the forger does not know (the local one) the same
//! forgery fails. (The aggregated route's forgery works the same way on the outer proof; its
//! 20-minute outer prover is not run in CI, and `verify-aggregated` refuses fixed-seed
//! folders the same way: `evm/tests/aggregated_folder.rs`.)

use std::path::{Path, PathBuf};
use std::process::Output;

use batch_ecdsa::batch_file::{BatchFile, Policy};
use batch_ecdsa::demo::demo_batch;
use batch_ecdsa::hexfmt::encode_hex;
use batch_ecdsa::native::digest::batch_digest;
use batch_ecdsa::prover::api::{ProveOptions, Prover, SetupOptions, Silent};
use batch_ecdsa::prover::circuit::CircuitKind;
use batch_ecdsa::prover::params::DEV_SEED;
use batch_ecdsa::prover::proof::{digest_record, ProofFile};
use batch_ecdsa::prover::srs::SetupSource;
use batch_ecdsa_circuits::ecdsa::digest::digest_instance;
use batch_ecdsa_circuits::ecdsa::Statement;
use ff::{Field, PrimeField};
use group::{Curve, GroupEncoding};
use halo2_proofs::halo2curves::bn256::{Bn256, Fq, Fr, G1Affine, G1};
use halo2_proofs::plonk::VerifyingKey;
use halo2_proofs::poly::commitment::ParamsProver;
use halo2_proofs::poly::kzg::commitment::{KZGCommitmentScheme, ParamsKZG};
use halo2_proofs::poly::kzg::multiopen::VerifierSHPLONK;
use halo2_proofs::poly::kzg::strategy::AccumulatorStrategy;
use halo2_proofs::transcript::{Blake2bRead, Challenge255, TranscriptReadBuffer};
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;

mod cli_support;
use cli_support::{assert_exit, run, text};

/// The scalars and bases of the `right` MSM of halo2's KZG accumulator after verifying
/// `proof` for `instance` (read from its `Debug` form: its fields are crate-private).
fn right_msm(
    params: &ParamsKZG<Bn256>,
    vk: &VerifyingKey<G1Affine>,
    instance: &[Fr],
    proof: &[u8],
) -> Vec<(Fr, G1)> {
    let mut transcript = Blake2bRead::<_, G1Affine, Challenge255<_>>::init(proof);
    let strategy = halo2_proofs::plonk::verify_proof::<
        KZGCommitmentScheme<Bn256>,
        VerifierSHPLONK<'_, Bn256>,
        _,
        _,
        _,
    >(
        params.verifier_params(),
        vk,
        AccumulatorStrategy::new(params),
        &[&[instance]],
        &mut transcript,
    )
    .expect("the proof parses");
    let text = format!("{strategy:?}");
    let right = &text[text.rfind("right: MSMKZG {").expect("the right MSM")..];
    let list = |name: &str| {
        let start = right.find(name).expect(name) + name.len();
        let end = start + right[start..].find(']').expect("]");
        right[start..end].to_string()
    };
    let hex_fields = |s: &str| -> Vec<[u8; 32]> {
        s.split("0x")
            .skip(1)
            .map(|h| {
                let mut b: [u8; 32] = hex::decode(&h[..64]).unwrap().try_into().unwrap();
                b.reverse(); // Debug prints big-endian; from_repr takes little-endian
                b
            })
            .collect()
    };
    let scalars: Vec<Fr> = hex_fields(&list("scalars: ["))
        .into_iter()
        .map(|b| Fr::from_repr(b).unwrap())
        .collect();
    let coords: Vec<Fq> = hex_fields(&list("bases: ["))
        .into_iter()
        .map(|b| Fq::from_repr(b).unwrap())
        .collect();
    let bases: Vec<G1> = coords
        .chunks(3)
        .map(|c| G1 {
            x: c[0],
            y: c[1],
            z: c[2],
        })
        .collect();
    assert_eq!(scalars.len(), bases.len());
    scalars.into_iter().zip(bases).collect()
}

/// `proof` (Blake2b transcript, SHPLONK) changed so that it verifies for `instance` under a
/// setup whose τ is `tau`: its last point W′ replaced by F/(τ − u) (module doc).
fn forge(
    params: &ParamsKZG<Bn256>,
    vk: &VerifyingKey<G1Affine>,
    instance: &[Fr],
    proof: &[u8],
    tau: Fr,
) -> Vec<u8> {
    let terms = right_msm(params, vk, instance, proof);
    let (u, w) = *terms.last().expect("terms");
    let mut repr = <G1Affine as GroupEncoding>::Repr::default();
    repr.as_mut().copy_from_slice(&proof[proof.len() - 32..]);
    let last = G1Affine::from_bytes(&repr).unwrap();
    assert_eq!(w.to_affine(), last, "the last term is u·W′");
    let f: G1 = terms[..terms.len() - 1].iter().map(|(s, b)| b * s).sum();
    let w_forged = (f * (tau - u).invert().unwrap()).to_affine();
    let mut out = proof.to_vec();
    let n = out.len();
    out[n - 32..].copy_from_slice(w_forged.to_bytes().as_ref());
    out
}

fn scratch(name: &str) -> PathBuf {
    cli_support::tmp_dir("forgery", name)
}

fn verify(args: &[&str]) -> Output {
    run(env!("CARGO_BIN_EXE_verify"), args)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Proves the demo batch of one signature under `source` (digest statement), then forges
/// the proof file for the same batch with another signer's address, with τ = `tau`.
fn prove_and_forge(source: SetupSource, dir: &Path, tau: Fr) -> (ProofFile, ProofFile) {
    let setup = SetupOptions {
        params: source,
        statement: Statement::Digest,
        ..Default::default()
    };
    let prover = Prover::with_setup(CircuitKind::Batch, 1, dir, &setup, &Silent).unwrap();
    let records = demo_batch(1, 7, &[]).unwrap();
    let batch = BatchFile::from_records(&records).unwrap();
    let options = ProveOptions {
        policy: Policy::default(),
        seed: Some(1),
        ..Default::default()
    };
    let honest = prover.prove(&batch, options, &Silent).unwrap().file;
    // The lie: the same signing hash, "signed" by an address that signed nothing.
    let pairs = honest.digest_pairs().unwrap();
    let lie = vec![(pairs[0].0, [0x10; 20])];
    let d = batch_digest(&lie);
    let instance = digest_instance(&d);
    let proof = honest.proof_bytes().unwrap();
    let forged_proof = forge(
        prover.params(),
        prover.verifying_key(),
        &instance,
        &proof,
        tau,
    );
    let forged = ProofFile {
        public_inputs: lie.iter().map(digest_record).collect(),
        digest: Some(encode_hex(&d)),
        proof: encode_hex(&forged_proof),
        ..honest.clone()
    };
    (honest, forged)
}

#[test]
fn with_the_fixed_seed_anyone_forges_and_verify_refuses_the_setup() {
    let dir = scratch("dev");
    let params_dir = dir.join("params");
    // τ of the fixed-seed setup, recomputed from its public seed as anyone can.
    let tau = Fr::random(ChaCha20Rng::seed_from_u64(DEV_SEED));
    let (honest, forged) = prove_and_forge(SetupSource::InsecureDev, &params_dir, tau);
    assert_ne!(honest.digest, forged.digest);
    let path = dir.join("forged.json");
    forged.save(&path).unwrap();

    // The danger: the forgery verifies under the fixed-seed setup, and says INSECURE.
    let out = verify(&[
        "--proof",
        s(&path),
        "--params-dir",
        s(&params_dir),
        "--insecure-dev-setup",
    ]);
    assert_exit(&out, 0, "the forgery verifies under the public τ");
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        assert!(line.contains("INSECURE"), "{line:?}\n{}", text(&out));
    }
    // The guard: without the flag the file is refused for its setup.
    let out = verify(&["--proof", s(&path), "--params-dir", s(&params_dir)]);
    assert_exit(&out, 1, "a fixed-seed proof without --insecure-dev-setup");
    assert!(
        text(&out).contains("INSECURE fixed-seed development setup"),
        "{}",
        text(&out)
    );
    // The forgery is not a change the checks miss: the unforged proof with the lie fails.
    let lie_only = ProofFile {
        proof: honest.proof.clone(),
        ..forged.clone()
    };
    let lie_path = dir.join("lie.json");
    lie_only.save(&lie_path).unwrap();
    let out = verify(&[
        "--proof",
        s(&lie_path),
        "--params-dir",
        s(&params_dir),
        "--insecure-dev-setup",
    ]);
    assert_exit(&out, 1, "the lie without the forged point");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn without_tau_the_same_forgery_fails() {
    let dir = scratch("local");
    let params_dir = dir.join("params");
    // The forger knows the fixed seed's τ, not the local setup's.
    let guess = Fr::random(ChaCha20Rng::seed_from_u64(DEV_SEED));
    let (_, forged) = prove_and_forge(SetupSource::Local, &params_dir, guess);
    let path = dir.join("forged.json");
    forged.save(&path).unwrap();
    let out = verify(&["--proof", s(&path), "--params-dir", s(&params_dir)]);
    assert_exit(&out, 1, "a forgery under the local setup");
    assert!(text(&out).contains("does not verify"), "{}", text(&out));
    std::fs::remove_dir_all(&dir).ok();
}
