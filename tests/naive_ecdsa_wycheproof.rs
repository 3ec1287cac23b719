//! `NaiveEcdsaCircuit` on the Wycheproof secp256k1 SHA-256 P1363 vectors (repository copy):
//! every valid case is accepted by MockProver (grouped into batches of 8), and every invalid
//! case whose fault is arithmetic (a 64-byte signature; the others are encoding faults that
//! never reach a circuit) is rejected for **every** nonce point the prover could offer for
//! its r, as recovery finds them: x(R) ∈ {r, r + n} below p with both y parities, or, when
//! there is none, an arbitrary on-curve point (G). s and h go in as the raw integers, even
//! when s ≥ n or s = 0.
//!
//! The circuit does not take r: it derives r = x(R) mod n. One Wycheproof case ("r too large",
//! tcId 116, r = p − 3) encodes r = x(R) ≥ n un-reduced, and (r mod n, s) *is* a valid
//! signature; with R the true nonce point (x(R) = r) the circuit proves that true statement
//! (Q signed h), and the test expects exactly that one witness to be accepted and every other
//! one rejected. Refusing r ≥ n in an
//! encoding is the native parser's job (it does: `Signature::from_compact`).

mod circuit_support;

use batch_ecdsa::native::ecdsa::nonce_point;
use batch_ecdsa::native::signature::Signature;
use batch_ecdsa_circuits::bigint::{big_to_fe, fe_to_big, modulus};
use batch_ecdsa_circuits::ecdsa::SignatureWitness;
use circuit_support::*;
use ff::Field;
use halo2curves::secp256k1::{Fp, Fq, Secp256k1Affine};
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

/// The nonce points a prover could offer for this r, as `recover` finds them: x ∈ {r, r + n}
/// with x < p and x³ + 7 a square, both y parities; when there is none, one on-curve point (G).
fn nonce_candidates(r: &BigUint) -> Vec<(BigUint, BigUint)> {
    let n = modulus::<Fq>();
    let p = modulus::<Fp>();
    let mut out = Vec::new();
    for x in [r.clone(), r + &n] {
        if x >= p {
            continue;
        }
        let xf: Fp = big_to_fe(&x);
        if let Some(y) = Option::<Fp>::from((xf.square() * xf + Fp::from(7)).sqrt()) {
            out.push((x.clone(), fe_to_big(&y)));
            out.push((x, fe_to_big(&(-y))));
        }
    }
    if out.is_empty() {
        let g = Secp256k1Affine::generator();
        out.push((fe_to_big(&g.x), fe_to_big(&g.y)));
    }
    out
}

/// For a case whose encoded r is not reduced (`r ≥ n`) while `(r mod n, s)` is a valid
/// signature: the nonce point of that valid signature. The circuit takes R, not r, so a
/// witness with this R proves the true statement that Q signed h; rejecting an unreduced
/// encoding is the native parser's job (it does).
fn unreduced_valid_nonce(c: &WycheCase) -> Option<(BigUint, BigUint)> {
    let n = modulus::<Fq>();
    let r = BigUint::from_bytes_be(&c.sig[..32]);
    let s = BigUint::from_bytes_be(&c.sig[32..]);
    if r < n || s >= n {
        return None;
    }
    let sig = Signature::new(big_to_fe(&(&r % &n)), big_to_fe(&s)).ok()?;
    let pt = nonce_point(&c.key, &c.h, &sig).ok()?;
    Some((fe_to_big(&pt.x), fe_to_big(&pt.y)))
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
    // (tcId, comment, witness, expected verdict)
    let mut runs = Vec::new();
    for c in &cases {
        let r = BigUint::from_bytes_be(&c.sig[..32]);
        let s = BigUint::from_bytes_be(&c.sig[32..]);
        let (qx, qy) = key_xy(&c.key);
        let true_nonce = unreduced_valid_nonce(c);
        for cand in nonce_candidates(&r) {
            let accept = true_nonce.as_ref() == Some(&cand);
            let w = SignatureWitness::from_raw(
                cand,
                s.clone(),
                fe_to_big(&c.h),
                (qx.clone(), qy.clone()),
            )
            .expect("64-byte signatures hold 256-bit integers");
            runs.push((c.tc_id, c.comment.clone(), w, accept));
        }
    }
    // Only "r too large" (r = p − 3) encodes an x(R) ≥ n un-reduced with a valid (r mod n, s),
    // so its candidate x = r is the true R. ("r is larger than n", r = n + 2, and "r = 1 + n",
    // also have a valid (r mod n, s), but with x(R) = r mod n, which no candidate of r is.)
    let mut unreduced: Vec<u64> = runs.iter().filter(|r| r.3).map(|r| r.0).collect();
    unreduced.dedup();
    assert_eq!(
        unreduced,
        vec![116],
        "cases whose only fault is an unreduced r"
    );
    let (params, k) = fitted_params(1);
    let verdicts = par_map(&runs, |(id, comment, w, accept)| {
        let ok = mock(k, &circuit(&params, vec![w.clone()])).is_ok();
        (*id, comment.clone(), ok, *accept)
    });
    let wrong: Vec<String> = verdicts
        .iter()
        .filter(|(_, _, ok, accept)| ok != accept)
        .map(|(id, c, ok, _)| format!("tcId {id} ({c}): accepted = {ok}"))
        .collect();
    assert!(wrong.is_empty(), "unexpected verdicts: {wrong:?}");
    let rejected = verdicts.iter().filter(|v| !v.2).count();
    assert_eq!(rejected, runs.len() - 1);
    println!(
        "{} invalid cases, {} candidate witnesses, {rejected} rejected, 1 accepted (unreduced r)",
        cases.len(),
        runs.len()
    );
}
