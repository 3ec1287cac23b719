#![allow(dead_code)]
//! Shared helpers of the circuits tests: small-k parameters and chip construction.

use batch_ecdsa_circuits::field::FieldChip;
use batch_ecdsa_circuits::layout::{Builder, LayoutParams};
use batch_ecdsa_circuits::range::RangeChip;
use batch_ecdsa_circuits::test_utils::mock_verify;
use batch_ecdsa_circuits::test_utils::BuilderCircuit;
use halo2curves::secp256k1::{Fp, Fq};

/// k of the MockProver runs: table of 2^11 + 2 + 16 rows fits in 2^12.
pub const K: u32 = 12;

pub fn params() -> LayoutParams {
    let mut p = LayoutParams::new(K - 1);
    p.extra_gates = true;
    p
}

/// Lookup bits of the ecc tests (table 2^L plus window sections).
pub const ECC_L: u32 = 12;

/// Parameters of the ecc tests: lookup bits [`ECC_L`], the extra gates on.
pub fn ecc_params() -> LayoutParams {
    let mut p = LayoutParams::new(ECC_L);
    p.extra_gates = true;
    p
}

/// The curve chip over both field chips of the builder's parameters.
pub fn ecc_chip(b: &Builder) -> batch_ecdsa_circuits::ecc::EccChip {
    batch_ecdsa_circuits::ecc::EccChip::new(fp_chip(b), fq_chip(b))
}

/// The 16-entry window tables of `p` and `q` (window [`batch_ecdsa_circuits::ecc::WINDOW`]),
/// loaded for the point-table lookup, in that order.
pub fn two_lookup_tables(
    e: &batch_ecdsa_circuits::ecc::EccChip,
    b: &mut Builder,
    p: halo2curves::secp256k1::Secp256k1Affine,
    q: halo2curves::secp256k1::Secp256k1Affine,
) -> [batch_ecdsa_circuits::ecc::PointLookupTable; 2] {
    use batch_ecdsa_circuits::ecc::{AccPoint, WINDOW};
    [p, q].map(|pt| {
        let a: AccPoint = e.load_point(b, pt).into();
        let t = e.odd_table(b, &a, WINDOW);
        e.load_lookup_table(b, t)
    })
}

pub fn fp_chip(b: &Builder) -> FieldChip<Fp> {
    FieldChip::new(RangeChip::new(b.params.clone()), 0)
}

/// The `Fp` chip and the proper values `x`, `y` loaded with it, in that order.
pub fn fp_chip_with(
    b: &mut Builder,
    x: Fp,
    y: Fp,
) -> (
    FieldChip<Fp>,
    batch_ecdsa_circuits::field::Proper<Fp>,
    batch_ecdsa_circuits::field::Proper<Fp>,
) {
    let chip = fp_chip(b);
    let (px, py) = (chip.load_proper(b, x), chip.load_proper(b, y));
    (chip, px, py)
}

pub fn fq_chip(b: &Builder) -> FieldChip<Fq> {
    FieldChip::new(RangeChip::new(b.params.clone()), 1)
}

pub fn circuit(build: impl Fn(&mut Builder) + Send + Sync + 'static) -> BuilderCircuit {
    BuilderCircuit::new(params(), build)
}

pub fn assert_ok(build: impl Fn(&mut Builder) + Send + Sync + 'static) {
    let c = circuit(build);
    if let Err(e) = mock_verify(K, &c) {
        panic!("expected a satisfied circuit: {e}");
    }
}

pub fn assert_fails(build: impl Fn(&mut Builder) + Send + Sync + 'static) {
    let c = circuit(build);
    assert!(
        mock_verify(K, &c).is_err(),
        "expected MockProver to reject the circuit"
    );
}

/// Real KZG (SHPLONK, Blake2b) keygen on `keygen_circuit`, a proof of `circuit` (no instance
/// column), and whether it verifies. Insecure fixed-seed params: for tests only.
pub fn prove_and_verify<C: halo2_proofs::plonk::Circuit<batch_ecdsa_circuits::layout::Native>>(
    k: u32,
    keygen_circuit: &C,
    circuit: C,
) -> bool {
    prove_and_verify_with(k, keygen_circuit, circuit, &[])
}

/// [`prove_and_verify`] for a circuit with one instance column holding `instance`.
pub fn prove_and_verify_with_instance<
    C: halo2_proofs::plonk::Circuit<batch_ecdsa_circuits::layout::Native>,
>(
    k: u32,
    keygen_circuit: &C,
    circuit: C,
    instance: &[batch_ecdsa_circuits::layout::Native],
) -> bool {
    prove_and_verify_with(k, keygen_circuit, circuit, &[instance])
}

/// Keygen from `keygen_circuit`, a real SHPLONK proof of `circuit` with the instance columns
/// `columns`, and its verification: true iff the proof verifies.
fn prove_and_verify_with<C: halo2_proofs::plonk::Circuit<batch_ecdsa_circuits::layout::Native>>(
    k: u32,
    keygen_circuit: &C,
    circuit: C,
    columns: &[&[batch_ecdsa_circuits::layout::Native]],
) -> bool {
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
    let params = ParamsKZG::<Bn256>::setup(k, ChaCha20Rng::seed_from_u64(0));
    let vk = keygen_vk(&params, keygen_circuit).expect("vk");
    let pk = keygen_pk(&params, vk, keygen_circuit).expect("pk");
    let mut transcript = Blake2bWrite::<_, G1Affine, Challenge255<_>>::init(vec![]);
    create_proof::<KZGCommitmentScheme<Bn256>, ProverSHPLONK<'_, Bn256>, _, _, _, _>(
        &params,
        &pk,
        &[circuit],
        &[columns],
        ChaCha20Rng::seed_from_u64(1),
        &mut transcript,
    )
    .expect("proof");
    let proof = transcript.finalize();
    let mut tr = Blake2bRead::<_, G1Affine, Challenge255<_>>::init(&proof[..]);
    verify_proof::<KZGCommitmentScheme<Bn256>, VerifierSHPLONK<'_, Bn256>, _, _, _>(
        params.verifier_params(),
        pk.get_vk(),
        SingleStrategy::new(&params),
        &[columns],
        &mut tr,
    )
    .is_ok()
}
