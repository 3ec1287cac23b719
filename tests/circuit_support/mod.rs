#![allow(dead_code)]
//! Shared helpers of the circuit tests of the root package: witnesses from the native
//! reference, Wycheproof cases, and MockProver runs of `NaiveEcdsaCircuit`.

use batch_ecdsa::native::encoding::fq_from_be_bytes_reduced;
use batch_ecdsa::native::public_key::PublicKey;
use batch_ecdsa_circuits::bigint::fe_to_big;
use batch_ecdsa_circuits::ecdsa::naive::NaiveEcdsaCircuit;
use batch_ecdsa_circuits::ecdsa::SignatureWitness;
use batch_ecdsa_circuits::layout::LayoutParams;
use batch_ecdsa_circuits::plan::FitOptions;
use batch_ecdsa_circuits::test_utils::mock_verify;
use halo2curves::secp256k1::{Fq, Secp256k1Affine};
use num_bigint::BigUint;
use serde_json::Value;
use sha2::{Digest, Sha256};

/// MSM window of the tests (the default).
pub const WINDOW: u32 = batch_ecdsa_circuits::ecdsa::naive::DEFAULT_WINDOW;

/// The witness of a native batch item.
pub fn witness(r_point: Secp256k1Affine, s: Fq, h: Fq, q: Secp256k1Affine) -> SignatureWitness {
    SignatureWitness::new(r_point, s, h, q).expect("a valid item has no identity and s != 0")
}

/// The witnesses of a `gen-batch` demo batch (all valid).
pub fn demo_witnesses(count: usize, seed: u64) -> Vec<SignatureWitness> {
    let records = batch_ecdsa::demo::demo_batch(count, seed, &[]).expect("demo batch");
    let file = batch_ecdsa::batch_file::BatchFile::from_records(&records).expect("parses");
    batch_ecdsa::prover::circuit::witnesses_from_batch(
        &file,
        batch_ecdsa::batch_file::Policy::default(),
        true,
    )
    .expect("valid")
}

/// Smallest k (lookup bits k − 1) for a batch of `b` signatures; the layout does not depend
/// on the values, so any witnesses of that size give the same k.
pub fn fitted_params(b: usize) -> (LayoutParams, u32) {
    let (c, k) =
        NaiveEcdsaCircuit::fitted(demo_witnesses(b, 99), &FitOptions::default().window(WINDOW));
    (c.params().clone(), k)
}

pub fn circuit(params: &LayoutParams, sigs: Vec<SignatureWitness>) -> NaiveEcdsaCircuit {
    NaiveEcdsaCircuit::new(params.clone(), sigs, WINDOW)
}

/// MockProver verdict on the circuit with its own instance column.
pub fn mock(k: u32, c: &NaiveEcdsaCircuit) -> Result<(), String> {
    mock_verify(k, c)
}

/// MockProver verdict with an explicitly given instance column.
pub fn mock_with_instance(
    k: u32,
    c: &NaiveEcdsaCircuit,
    instance: Vec<halo2curves::bn256::Fr>,
) -> Result<(), String> {
    let prover = halo2_proofs::dev::MockProver::run(k, c, vec![instance])
        .map_err(|e| format!("synthesis: {e:?}"))?;
    prover
        .verify()
        .map_err(|f| format!("{} failure(s), first: {:?}", f.len(), f.first()))
}

/// Runs `f` over `items` on two threads (the test machine has 2 cores), in order.
pub fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .min(4);
    let chunk = items.len().div_ceil(threads).max(1);
    std::thread::scope(|s| {
        let handles: Vec<_> = items
            .chunks(chunk)
            .map(|c| s.spawn(|| c.iter().map(&f).collect::<Vec<R>>()))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("worker"))
            .collect()
    })
}

/// One Wycheproof ECDSA P1363 case.
#[derive(Clone, Debug)]
pub struct WycheCase {
    pub tc_id: u64,
    pub comment: String,
    pub valid: bool,
    pub key: PublicKey,
    /// SHA-256 of the message, reduced mod n.
    pub h: Fq,
    pub sig: Vec<u8>,
}

/// Every case of `ecdsa_secp256k1_sha256_p1363_test.json` (repository copy).
pub fn wycheproof_p1363() -> Vec<WycheCase> {
    let path = format!(
        "{}/tests/vectors/wycheproof/ecdsa_secp256k1_sha256_p1363_test.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let doc: Value = serde_json::from_str(&text).expect("json");
    let mut out = Vec::new();
    for group in doc["testGroups"].as_array().expect("testGroups") {
        let key_hex = group["publicKey"]["uncompressed"].as_str().expect("key");
        let key = PublicKey::from_sec1(&hex::decode(key_hex).expect("hex")).expect("valid key");
        for case in group["tests"].as_array().expect("tests") {
            let msg = hex::decode(case["msg"].as_str().expect("msg")).expect("hex");
            let digest: [u8; 32] = Sha256::digest(&msg).into();
            out.push(WycheCase {
                tc_id: case["tcId"].as_u64().expect("tcId"),
                comment: case["comment"].as_str().unwrap_or("").to_string(),
                valid: case["result"] == "valid",
                key,
                h: fq_from_be_bytes_reduced(&digest),
                sig: hex::decode(case["sig"].as_str().expect("sig")).expect("hex"),
            });
        }
    }
    out
}

/// Affine coordinates of a key as integers.
pub fn key_xy(key: &PublicKey) -> (BigUint, BigUint) {
    let p = key.point();
    (fe_to_big(&p.x), fe_to_big(&p.y))
}
