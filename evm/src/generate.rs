//! The Solidity verifier of a verifying key, from snark-verifier's EVM loader.
//!
//! snark-verifier compiles the verifying key into its protocol description (columns,
//! rotations, gates, lookups, permutation, the challenge phases of multi-phase advice, and the
//! instance evaluated as `Σ instᵢ·Lᵢ(z)` since the instance column is not committed), then runs
//! its SHPLONK verifier over an EVM "loader" that records every operation as Yul. The result is
//! one contract whose `fallback` reads `instances ‖ proof` from calldata through the Keccak
//! transcript (`batch_ecdsa::prover::transcript`, byte-compatible with snark-verifier's
//! `EvmTranscript`) and ends in one pairing check. The contract embeds the verifying key and
//! the number of public inputs: one contract per circuit, B and k.

use std::rc::Rc;

use halo2_proofs::halo2curves::bn256::{Bn256, Fq, Fr, G1Affine};
use halo2_proofs::plonk::VerifyingKey;
use halo2_proofs::poly::commitment::ParamsProver;
use halo2_proofs::poly::kzg::commitment::ParamsKZG;
use snark_verifier_sdk::snark_verifier::loader::evm::EvmLoader;
use snark_verifier_sdk::snark_verifier::pcs::kzg::KzgDecidingKey;
use snark_verifier_sdk::snark_verifier::system::halo2::transcript::evm::EvmTranscript;
use snark_verifier_sdk::snark_verifier::system::halo2::{compile, Config};
use snark_verifier_sdk::snark_verifier::verifier::SnarkVerifier;
use snark_verifier_sdk::{PlonkVerifier, SHPLONK};

/// The verifier contract's Solidity source for `vk` with `num_instance` public inputs (one
/// instance column), under the KZG parameters `params` (their `g`, `g2`, `s·g2`).
pub fn verifier_solidity(
    params: &ParamsKZG<Bn256>,
    vk: &VerifyingKey<G1Affine>,
    num_instance: usize,
) -> String {
    let protocol = compile(
        params,
        vk,
        Config::kzg().with_num_instance(vec![num_instance]),
    );
    let dk: KzgDecidingKey<Bn256> = (params.get_g()[0], params.g2(), params.s_g2()).into();
    let loader = EvmLoader::new::<Fq, Fr>();
    let protocol = protocol.loaded(&loader);
    let mut transcript = EvmTranscript::<_, Rc<EvmLoader>, _, _>::new(&loader);
    let instances = transcript.load_instances(vec![num_instance]);
    // Over the EVM loader these only record code: they cannot fail on values.
    let proof = PlonkVerifier::<SHPLONK>::read_proof(&dk, &protocol, &instances, &mut transcript)
        .expect("the EVM loader records the proof reads");
    PlonkVerifier::<SHPLONK>::verify(&dk, &protocol, &instances, &proof)
        .expect("the EVM loader records the verification");
    loader.solidity_code()
}
