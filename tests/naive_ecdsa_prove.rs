//! One real proof of `NaiveEcdsaCircuit` (halo2-axiom KZG over BN254, SHPLONK, Blake2b
//! transcript, `ParamsKZG::setup` from a fixed seed: a development setup, not a ceremony) at
//! B = 1 and the smallest k the layout allows (lookup bits k − 1, or `NAIVE_PROVE_L` when
//! set). The proof verifies against its public inputs and fails against another hash.

mod circuit_support;

use batch_ecdsa_circuits::ecdsa::naive::NaiveEcdsaCircuit;
use batch_ecdsa_circuits::layout::Native;
use batch_ecdsa_circuits::plan::FitOptions;
use circuit_support::*;
use ff::Field;
use halo2_proofs::plonk::{create_proof, keygen_pk, keygen_vk, verify_proof};
use halo2_proofs::poly::commitment::ParamsProver;
use halo2_proofs::poly::kzg::commitment::{KZGCommitmentScheme, ParamsKZG};
use halo2_proofs::poly::kzg::multiopen::{ProverSHPLONK, VerifierSHPLONK};
use halo2_proofs::poly::kzg::strategy::SingleStrategy;
use halo2_proofs::transcript::{
    Blake2bRead, Blake2bWrite, Challenge255, TranscriptReadBuffer, TranscriptWriterBuffer,
};
use halo2curves::bn256::{Bn256, G1Affine};
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;

#[test]
fn naive_b1_keygen_prove_verify() {
    let lookup_bits = std::env::var("NAIVE_PROVE_L")
        .ok()
        .and_then(|v| v.parse().ok());
    let (c, k) = NaiveEcdsaCircuit::fitted(
        demo_witnesses(1, 5),
        &FitOptions::default()
            .window(WINDOW)
            .lookup_bits(lookup_bits),
    );
    let t = std::time::Instant::now();
    let params = ParamsKZG::<Bn256>::setup(k, ChaCha20Rng::seed_from_u64(0));
    let setup_s = t.elapsed();
    let t = std::time::Instant::now();
    let vk = keygen_vk(&params, &c).expect("vk");
    let pk = keygen_pk(&params, vk, &c).expect("pk");
    let keygen_s = t.elapsed();
    let instance = c.instance();
    let t = std::time::Instant::now();
    let mut transcript = Blake2bWrite::<_, G1Affine, Challenge255<_>>::init(vec![]);
    create_proof::<KZGCommitmentScheme<Bn256>, ProverSHPLONK<'_, Bn256>, _, _, _, _>(
        &params,
        &pk,
        std::slice::from_ref(&c),
        &[&[&instance]],
        ChaCha20Rng::seed_from_u64(1),
        &mut transcript,
    )
    .expect("proof");
    let proof = transcript.finalize();
    let prove_s = t.elapsed();
    let verify = |inst: &[Native]| {
        let mut tr = Blake2bRead::<_, G1Affine, Challenge255<_>>::init(&proof[..]);
        verify_proof::<KZGCommitmentScheme<Bn256>, VerifierSHPLONK<'_, Bn256>, _, _, _>(
            params.verifier_params(),
            pk.get_vk(),
            SingleStrategy::new(&params),
            &[&[inst]],
            &mut tr,
        )
        .is_ok()
    };
    let t = std::time::Instant::now();
    assert!(verify(&instance), "the proof must verify");
    let verify_s = t.elapsed();
    let mut other = instance.clone();
    other[0] += Native::ONE;
    assert!(!verify(&other), "the proof verified against another hash");
    println!(
        "B = 1, k = {k}, L = {}: setup {setup_s:?}, keygen {keygen_s:?}, prove {prove_s:?}, \
         verify {verify_s:?}, proof {} bytes, {:?}",
        c.params().lookup_bits,
        proof.len(),
        c.stats()
    );
}
