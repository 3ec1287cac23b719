//! `NaiveEcdsaCircuit` on the Wycheproof secp256k1 SHA-256 P1363 vectors (repository copy):
//! every valid case is accepted by MockProver (grouped into batches of 8), and every invalid
//! case whose fault is arithmetic (a 64-byte signature; the others are encoding faults that
//! never reach a circuit) is rejected for **every** nonce point the prover could offer for
//! its r: x(R) ∈ {r, r + n} (as integers, forced into the witness even when ≥ p), with both
//! y parities (or an off-curve y when x³ + 7 has no root). The circuit does not see r (it is
//! derived from R), so these are exactly the witnesses that claim "(r, s) is a valid
//! signature on h under Q".

mod circuit_support;

use batch_ecdsa::native::ecdsa::nonce_point;
use batch_ecdsa::native::signature::Signature;
use batch_ecdsa_circuits::bigint::{big_to_fe, fe_to_big, modulus};
use batch_ecdsa_circuits::ecdsa::SignatureWitness;
use circuit_support::*;
use ff::Field;
use halo2curves::secp256k1::{Fp, Fq};
use num_bigint::BigUint;

const BATCH: usize = 8;

#[test]
fn wycheproof_p1363_valid_cases_accepted_in_batches() {
    let cases: Vec<WycheCase> = wycheproof_p1363().into_iter().filter(|c| c.valid).collect();
    assert_eq!(cases.len(), 167, "valid P1363 cases");
    let witnesses: Vec<(u64, SignatureWitness)> = cases
        .iter()
        .map(|c| {
            let (sig, _) = Signature::from_compact(&c.sig).expect("a valid case parses");
            let r = nonce_point(&c.key, &c.h, &sig).expect("a valid case verifies natively");
            (c.tc_id, witness(r, sig.s(), c.h, c.key.point()))
        })
        .collect();
    let (params, k) = fitted_params(BATCH);
    let batches: Vec<&[(u64, SignatureWitness)]> = witnesses.chunks(BATCH).collect();
    let verdicts = par_map(&batches, |batch| {
        let ids: Vec<u64> = batch.iter().map(|(id, _)| *id).collect();
        let sigs = batch.iter().map(|(_, w)| w.clone()).collect();
        (ids, mock(k, &circuit(&params, sigs)))
    });
    let mut seen = 0;
    for (ids, v) in &verdicts {
        assert!(v.is_ok(), "batch with tcIds {ids:?} rejected: {v:?}");
        seen += ids.len();
    }
    assert_eq!(seen, 167);
}

/// The witnesses a prover could offer for a signature with this r: x ∈ {r, r + n} below 2^256,
/// both roots y of x³ + 7 (mod p), or y = 1 (off the curve) when there is no root.
fn nonce_candidates(r: &BigUint) -> Vec<(BigUint, BigUint)> {
    let n = modulus::<Fq>();
    let mut xs = vec![r.clone()];
    if (r + &n).bits() <= 256 {
        xs.push(r + &n);
    }
    let mut out = Vec::new();
    for x in xs {
        let xf: Fp = big_to_fe(&x);
        let rhs = xf.square() * xf + Fp::from(7);
        match Option::<Fp>::from(rhs.sqrt()) {
            Some(y) => {
                out.push((x.clone(), fe_to_big(&y)));
                out.push((x, fe_to_big(&(-y))));
            }
            None => out.push((x, BigUint::from(1u8))),
        }
    }
    out
}

#[test]
fn wycheproof_p1363_arithmetic_invalid_cases_rejected() {
    let cases: Vec<WycheCase> = wycheproof_p1363()
        .into_iter()
        .filter(|c| !c.valid && c.sig.len() == 64)
        .collect();
    assert_eq!(
        cases.len(),
        67,
        "invalid P1363 cases with a 64-byte signature"
    );
    let mut runs = Vec::new();
    for c in &cases {
        let r = BigUint::from_bytes_be(&c.sig[..32]);
        let s = BigUint::from_bytes_be(&c.sig[32..]);
        let (qx, qy) = key_xy(&c.key);
        for cand in nonce_candidates(&r) {
            let w = SignatureWitness::from_raw(
                cand,
                s.clone(),
                fe_to_big(&c.h),
                (qx.clone(), qy.clone()),
            )
            .expect("64-byte signatures hold 256-bit integers");
            runs.push((c.tc_id, c.comment.clone(), w));
        }
    }
    assert!(
        runs.len() >= 2 * cases.len() - 10,
        "{} candidate witnesses",
        runs.len()
    );
    let (params, k) = fitted_params(1);
    let verdicts = par_map(&runs, |(id, comment, w)| {
        (
            *id,
            comment.clone(),
            mock(k, &circuit(&params, vec![w.clone()])),
        )
    });
    let accepted: Vec<String> = verdicts
        .iter()
        .filter(|(_, _, v)| v.is_ok())
        .map(|(id, c, _)| format!("tcId {id} ({c})"))
        .collect();
    assert!(
        accepted.is_empty(),
        "invalid signatures accepted: {accepted:?}"
    );
    println!(
        "{} invalid cases, {} candidate witnesses, all rejected",
        cases.len(),
        runs.len()
    );
}
