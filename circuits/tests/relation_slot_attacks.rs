//! The adversarial prover against the circuits: the four attacks of the absent-operand bug
//! (a relation block's unassigned `C` slot written as `B − B′`), each shown
//!
//! * to pass on the layout before the fix (`Adversary::unpinned`: the slots unassigned), so
//!   the attack is real and these tests can fail, and
//! * to fail on today's layout, where MockProver's only complaints are the copy constraints
//!   that pin the absent slots to the constant 0 (every gate and lookup still holds: the fix,
//!   not an accident of the witness, rejects it).
//!
//! The batch forgery is also run as a **real KZG proof under the honest verifying key**: it
//! verifies on the old layout and does not on the pinned one.
//!
//! Attacks: `FieldChip::mul` proving 3·5 = 21; (1, 1) accepted as a secp256k1 point; the
//! naive circuit accepting `R = ρ·G + Q` without the secret key (`u := ρ`, `v := 1`); the batch
//! circuit accepting `Rᵢ = ρᵢ·G` under arbitrary victims' keys (`kᵢ := 0`,
//! `−zᵢhᵢ/sᵢ := −zᵢρᵢ`, so the MSM is O whatever the challenges).

mod common;

use batch_ecdsa_circuits::plan::FitOptions;
use std::sync::Arc;

use batch_ecdsa_circuits::bigint::{big_to_fe, fe_to_big, modulus};
use batch_ecdsa_circuits::ecc::EccChip;
use batch_ecdsa_circuits::ecdsa::batch::{BatchEcdsaCircuit, DEFAULT_BATCH_WINDOW};
use batch_ecdsa_circuits::ecdsa::naive::NaiveEcdsaCircuit;
use batch_ecdsa_circuits::ecdsa::SignatureWitness;
use batch_ecdsa_circuits::field::adversary::{with_relation_adversary, RelationHook, Substitution};
use batch_ecdsa_circuits::field::{NewValue, Relation};
use batch_ecdsa_circuits::layout::adversary::{with_adversary, Adversary};
use batch_ecdsa_circuits::layout::Native;
use batch_ecdsa_circuits::test_utils::BuilderCircuit;
use batch_ecdsa_circuits::test_utils::Mutable;
use common::*;
use ff::Field;
use group::Curve;
use halo2_proofs::dev::{MockProver, VerifyFailure};
use halo2_proofs::plonk::Circuit;
use halo2curves::secp256k1::{Fp, Fq, Secp256k1, Secp256k1Affine};
use num_bigint::BigUint;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;

/// How MockProver judged a run.
#[derive(Debug, PartialEq, Eq)]
enum Verdict {
    Accepted,
    /// Rejected, and every failure is a copy constraint (gates and lookups hold).
    OnlyCopies(usize),
    /// Rejected with a gate or lookup failure among the failures.
    Other(String),
}

fn verdict<C: Circuit<Native>>(k: u32, c: &C, instance: Vec<Vec<Native>>) -> Verdict {
    let prover = MockProver::run(k, c, instance).expect("synthesis");
    match prover.verify() {
        Ok(()) => Verdict::Accepted,
        Err(f) => {
            if f.iter()
                .all(|x| matches!(x, VerifyFailure::Permutation { .. }))
            {
                Verdict::OnlyCopies(f.len())
            } else {
                Verdict::Other(format!("{} failures, first {:?}", f.len(), f.first()))
            }
        }
    }
}

/// Runs `f` with the relation hook and (optionally) the unpinned layout of before the fix.
fn attack<R>(hook: RelationHook, unpinned: bool, f: impl FnOnce() -> R) -> R {
    let adv = Adversary {
        unpinned,
        ..Adversary::default()
    };
    with_adversary(adv, || with_relation_adversary(hook, f))
}

fn value(x: Option<&batch_ecdsa_circuits::field::CrtInt>) -> Option<BigUint> {
    x.map(|c| c.value().clone())
}

/// Both layouts under `hook`: the unpinned one accepts, the pinned one is rejected by its
/// copy constraints only.
fn assert_attack_caught_by_pins<C: Circuit<Native>>(
    name: &str,
    k: u32,
    c: &C,
    instance: Vec<Vec<Native>>,
    hook: RelationHook,
) {
    assert!(
        verdict(k, c, instance.clone()) != Verdict::Accepted,
        "{name}: the honest witness must not satisfy the false statement"
    );
    let before = attack(hook.clone(), true, || verdict(k, c, instance.clone()));
    assert_eq!(
        before,
        Verdict::Accepted,
        "{name}: the attack must pass on the unpinned layout (else it is not the attack)"
    );
    let after = attack(hook, false, || verdict(k, c, instance));
    assert!(
        matches!(after, Verdict::OnlyCopies(n) if n > 0),
        "{name}: on the pinned layout only the pinning copies may fail, got {after:?}"
    );
}

/// The substitution `B₁′ = v` (the first product's `B`).
fn first_factor(v: u8) -> Substitution {
    Substitution {
        b1: Some(BigUint::from(v)),
        b2: None,
    }
}

#[test]
fn mul_cannot_prove_3_times_5_is_21() {
    let c: BuilderCircuit = circuit(|b| {
        let fp = fp_chip(b);
        let x = fp.load_reduced(b, Fp::from(3));
        let y = fp.load_reduced(b, Fp::from(5));
        let m = fp.mul(b, &x, &y);
        let m = fp.assert_canonical(b, &m);
        let want = fp.load_constant(b, Fp::from(21));
        fp.assert_equal(b, &m, &want);
    });
    // The product block computed for B′ = 7: 3·(5 − (5 − 7)) = 21.
    let hook: RelationHook = Arc::new(|modulus, rel: &Relation<'_>| {
        let three = Some(BigUint::from(3u8));
        let five = Some(BigUint::from(5u8));
        if modulus == 0
            && rel.new == NewValue::Remainder
            && value(rel.a1) == three
            && value(rel.b1) == five
        {
            first_factor(7)
        } else {
            Substitution::default()
        }
    });
    assert_attack_caught_by_pins("3·5 = 21", K, &c, vec![], hook);
}

#[test]
fn one_one_is_not_a_curve_point() {
    let c: BuilderCircuit = circuit(|b| {
        let ecc = EccChip::new(fp_chip(b), fq_chip(b));
        ecc.load_point_xy(b, &BigUint::from(1u8), &BigUint::from(1u8));
    });
    // The curve block y·y − x·x² − 7 computed for B₁′ = 8: 1·8 − 1·1 − 7 = 0.
    let hook: RelationHook = Arc::new(|modulus, rel: &Relation<'_>| {
        if modulus == 0 && rel.new == NewValue::None && rel.alpha == -1 {
            first_factor(8)
        } else {
            Substitution::default()
        }
    });
    assert_attack_caught_by_pins("(1, 1) on the curve", K, &c, vec![], hook);
}

fn random_point(rng: &mut ChaCha20Rng) -> (Fq, Secp256k1Affine) {
    let d = Fq::random(&mut *rng);
    (d, (Secp256k1::generator() * d).to_affine())
}

fn x_mod_n(p: &Secp256k1Affine) -> Fq {
    big_to_fe(&fe_to_big::<Fp>(&p.x))
}

/// A naive-circuit "signature" `R = ρ·G + Q` of a random hash under a victim's key, with no
/// secret key: invalid, and the attack forces `u := ρ`, `v := 1` so that `u·G + v·Q = R`.
#[test]
fn naive_circuit_rejects_r_equals_rho_g_plus_q() {
    let mut rng = ChaCha20Rng::seed_from_u64(71);
    let (_, q) = random_point(&mut rng);
    let rho = Fq::random(&mut rng);
    let r_point = (Secp256k1::generator() * rho + q).to_affine();
    let (h, s) = (Fq::random(&mut rng), Fq::random(&mut rng));
    let w = SignatureWitness::new(r_point, s, h, q).expect("in range");
    let r = x_mod_n(&r_point);
    let (c, k) = NaiveEcdsaCircuit::fitted(vec![w], &FitOptions::default().window(5));
    let (hb, rb, sb) = (fe_to_big(&h), fe_to_big(&r), fe_to_big(&s));
    let den_u = fe_to_big(&(h * rho.invert().expect("ρ ≠ 0")));
    // u = h/s and v = r/s are factor blocks v·s − num ≡ 0: computed for s′ = h/ρ and s′ = r.
    let hook: RelationHook = Arc::new(move |modulus, rel: &Relation<'_>| {
        let mut sub = Substitution::default();
        if modulus == 1 && rel.new == NewValue::Factor && value(rel.b1) == Some(sb.clone()) {
            match value(rel.lin[0].1) {
                Some(x) if x == hb => sub.b1 = Some(den_u.clone()),
                Some(x) if x == rb => sub.b1 = Some(rb.clone()),
                _ => {}
            }
        }
        sub
    });
    assert_attack_caught_by_pins("naive R = ρG + Q", k, &c, c.instances(), hook);
}

/// The batch forgery: `Rᵢ = ρᵢ·G` with arbitrary `hᵢ`, `sᵢ` under victims' keys `Qᵢ`.
fn batch_forgery(n: usize, seed: u64) -> (BatchEcdsaCircuit, u32, RelationHook) {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let mut sigs = Vec::new();
    let mut secrets = Vec::new();
    for _ in 0..n {
        let (_, q) = random_point(&mut rng);
        let (rho, r_point) = random_point(&mut rng);
        let (h, s) = (Fq::random(&mut rng), Fq::random(&mut rng));
        sigs.push(SignatureWitness::new(r_point, s, h, q).expect("in range"));
        secrets.push((
            fe_to_big(&s),
            fe_to_big(&x_mod_n(&r_point)),
            fe_to_big(&h),
            fe_to_big(&(rho * s)),
        ));
    }
    let (c, k) =
        BatchEcdsaCircuit::fitted(sigs, &FitOptions::default().window(DEFAULT_BATCH_WINDOW));
    // kᵢ·sᵢ + zᵢ·rᵢ ≡ 0 computed for rᵢ′ = 0 (kᵢ = 0), wᵢ·sᵢ + zᵢ·hᵢ ≡ 0 for hᵢ′ = ρᵢ·sᵢ
    // (wᵢ = −zᵢ·ρᵢ): Σ zᵢ·Rᵢ + Σ wᵢ·G = O for every choice of the zᵢ.
    let hook: RelationHook = Arc::new(move |modulus, rel: &Relation<'_>| {
        let mut sub = Substitution::default();
        if modulus != 1 || rel.new != NewValue::Factor || rel.alpha != 1 {
            return sub;
        }
        let (den, num) = (value(rel.b1), value(rel.b2));
        for (s, r, h, rho_s) in &secrets {
            if den.as_ref() == Some(s) {
                if num.as_ref() == Some(r) {
                    sub.b2 = Some(BigUint::from(0u8));
                } else if num.as_ref() == Some(h) {
                    sub.b2 = Some(rho_s.clone());
                }
            }
        }
        sub
    });
    (c, k, hook)
}

#[test]
fn batch_circuit_rejects_the_known_nonce_forgery_mock() {
    let (c, k, hook) = batch_forgery(2, 5);
    let _ = modulus::<Fq>();
    assert_attack_caught_by_pins("batch Rᵢ = ρᵢG", k, &c, c.instances(), hook);
}

/// The batch forgery as a real KZG proof: it verifies under the verifying key of the layout
/// before the fix, and not under today's.
#[test]
fn batch_forgery_real_proof_verifies_only_on_the_unpinned_layout() {
    let (c, k, hook) = batch_forgery(2, 6);
    let inst = c.instance();
    let before = attack(hook.clone(), true, || {
        prove_and_verify_with_instance(k, &c, c.clone(), &inst)
    });
    assert!(
        before,
        "the forged proof must verify on the unpinned layout (else the test cannot fail)"
    );
    let after = attack(hook, false, || {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            prove_and_verify_with_instance(k, &c, c.clone(), &inst)
        }))
        .unwrap_or(false)
    });
    assert!(!after, "a forged batch proof verified under the honest key");
}
