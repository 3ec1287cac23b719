//! `NaiveEcdsaCircuit` inside the circuits crate: a valid batch is accepted with its instance,
//! and a wrong instance (another hash) is rejected. The Wycheproof, gen-batch, negative and
//! proving tests are in the root package (`tests/naive_ecdsa*.rs`), next to the native signer.

use batch_ecdsa_circuits::ecdsa::naive::{NaiveEcdsaCircuit, DEFAULT_WINDOW};
use batch_ecdsa_circuits::plan::FitOptions;
use batch_ecdsa_circuits::test_utils::{ecdsa_witness, mock_verify};

#[test]
fn valid_pair_accepted_and_wrong_instance_rejected() {
    let sigs = vec![ecdsa_witness(1), ecdsa_witness(2)];
    let (c, k) = NaiveEcdsaCircuit::fitted(sigs, &FitOptions::default().window(DEFAULT_WINDOW));
    let st = c.stats();
    println!("B=2: k={k}, {st:?}");
    let t = std::time::Instant::now();
    mock_verify(k, &c).expect("valid batch");
    println!("mock: {:?}", t.elapsed());
    let mut inst = c.instance();
    inst[0] += <halo2curves::bn256::Fr as ff::Field>::ONE;
    let p = halo2_proofs::dev::MockProver::run(k, &c, vec![inst]).expect("synthesis");
    assert!(
        p.verify().is_err(),
        "a changed hash limb in the instance was accepted"
    );
}

/// Every window: a valid signature is accepted and `s + 1` is rejected.
#[test]
fn every_window_accepts_valid_and_rejects_s_plus_one() {
    use batch_ecdsa_circuits::bigint::modulus;
    for w in batch_ecdsa_circuits::ecc::WINDOWS {
        let sigs = vec![ecdsa_witness(3)];
        let (c, k) = NaiveEcdsaCircuit::fitted(sigs.clone(), &FitOptions::default().window(w));
        mock_verify(k, &c).unwrap_or_else(|e| panic!("valid signature at w = {w}: {e}"));
        let mut bad = sigs;
        bad[0] = bad[0]
            .edited(|r| r.s = (&r.s + 1u32) % modulus::<halo2curves::secp256k1::Fq>())
            .expect("below 2^256");
        let cb = NaiveEcdsaCircuit::new(c.params().clone(), bad, w);
        assert!(mock_verify(k, &cb).is_err(), "w = {w}: s + 1 accepted");
    }
}
