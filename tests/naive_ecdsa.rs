//! `NaiveEcdsaCircuit` end to end with the native reference: random `gen-batch` batches are
//! accepted; forged witnesses (pushed past the native pre-check) are rejected; a sample of
//! single-cell mutations of a B = 2 circuit is caught; one real KZG proof verifies.

mod circuit_support;

use batch_ecdsa_circuits::bigint::{fe_to_big, modulus};
use batch_ecdsa_circuits::ecdsa::{RawWitness, SignatureWitness};
use batch_ecdsa_circuits::layout::Native;
use batch_ecdsa_circuits::test_utils::{mutation_test, Mutable};
use circuit_support::*;
use ff::Field;
use halo2curves::secp256k1::{Fp, Fq};
use num_bigint::BigUint;

#[test]
fn gen_batch_batches_accepted() {
    let (params, k) = fitted_params(4);
    let batches = [demo_witnesses(4, 1), demo_witnesses(3, 2026)];
    let verdicts = par_map(&batches, |ws| mock(k, &circuit(&params, ws.clone())));
    for v in verdicts {
        v.expect("a valid demo batch");
    }
}

/// Forged B = 2 witnesses, each built from a valid pair; every one must be rejected. The
/// instance is the forged witness's own (h, Q), so a rejection comes from the signature
/// check, not from a mismatch with the public inputs.
#[test]
fn forged_witnesses_rejected() {
    let (params, k) = fitted_params(2);
    let good = demo_witnesses(2, 7);
    mock(k, &circuit(&params, good.clone())).expect("the unforged pair is valid");
    let n = modulus::<Fq>();
    let p = modulus::<Fp>();
    let mut forged: Vec<(&str, Vec<SignatureWitness>)> = Vec::new();
    let with = |i: usize, f: &dyn Fn(&mut RawWitness)| {
        let mut v = good.clone();
        v[i] = v[i].edited(f).expect("below 2^256");
        v
    };
    forged.push(("R -> -R", with(0, &|w| w.r_point.1 = &p - &w.r_point.1)));
    forged.push(("s + 1", with(1, &|w| w.s = (&w.s + 1u32) % &n)));
    forged.push(("s = 0", with(0, &|w| w.s = BigUint::from(0u8))));
    forged.push(("s = n", with(0, &|w| w.s = n.clone())));
    forged.push((
        "s -> s + n (same residue)",
        with(1, &|w| {
            if (&w.s + &n).bits() <= 256 {
                w.s = &w.s + &n
            } else {
                w.s = n.clone()
            }
        }),
    ));
    forged.push((
        "key off the curve",
        with(0, &|w| w.q.1 = (&w.q.1 + 1u32) % &p),
    ));
    forged.push((
        "key y + p, or p where y + p needs 257 bits (non-canonical)",
        with(1, &|w| {
            w.q.1 = if (&w.q.1 + &p).bits() <= 256 {
                &w.q.1 + &p
            } else {
                p.clone()
            }
        }),
    ));
    forged.push((
        "h ≥ n (h + n, or n where h + n needs 257 bits)",
        with(0, &|w| {
            w.h = if (&w.h + &n).bits() <= 256 {
                &w.h + &n
            } else {
                n.clone()
            }
        }),
    ));
    {
        let mut v = good.clone();
        let (h0, h1) = (v[0].h().clone(), v[1].h().clone());
        v[0] = v[0].edited(|w| w.h = h1).expect("below 2^256");
        v[1] = v[1].edited(|w| w.h = h0).expect("below 2^256");
        forged.push(("two h swapped", v));
    }
    {
        let mut v = good.clone();
        let (q0, q1) = (v[0].q().clone(), v[1].q().clone());
        v[0] = v[0].edited(|w| w.q = q1).expect("below 2^256");
        v[1] = v[1].edited(|w| w.q = q0).expect("below 2^256");
        forged.push(("two Q swapped", v));
    }
    // r = 0: a nonce point with x(R) = n (x mod n = 0) if n is an x-coordinate, else x = 0
    // is tried as well; both are rejected (by r ≠ 0, or already by the curve equation).
    for x in [n.clone(), BigUint::from(0u8)] {
        let xf: Fp = batch_ecdsa_circuits::bigint::big_to_fe(&x);
        let y = Option::<Fp>::from((xf.square() * xf + Fp::from(7)).sqrt()).unwrap_or(Fp::ONE);
        let label = if x == n {
            "r = 0 (x(R) = n)"
        } else {
            "r = 0 (x(R) = 0)"
        };
        forged.push((label, with(1, &|w| w.r_point = (x.clone(), fe_to_big(&y)))));
    }
    let verdicts = par_map(&forged, |(name, ws)| {
        (*name, mock(k, &circuit(&params, ws.clone())))
    });
    for (name, v) in verdicts {
        assert!(v.is_err(), "forged witness accepted: {name}");
    }
}

/// A valid pair whose instance claims another hash or key is rejected.
#[test]
fn instance_must_match() {
    let (params, k) = fitted_params(2);
    let c = circuit(&params, demo_witnesses(2, 8));
    let good = c.instance();
    // Rows: the first hash value, the second key's x, the second signature's top limbs with the
    // parity of y (3 instance values per signature).
    for row in [0usize, 4, 3 + 2] {
        let mut inst = good.clone();
        inst[row] += Native::ONE;
        assert!(
            mock_with_instance(k, &c, inst).is_err(),
            "instance row {row} changed and accepted"
        );
    }
}

/// Witness mutation on B = 2: sampled advice cells changed one at a time (two threads, two
/// seeds); every change is caught (free cells, documented in `ecdsa::naive`, are skipped).
#[test]
fn mutation_sample_b2_all_caught() {
    let (params, k) = fitted_params(2);
    let c = circuit(&params, demo_witnesses(2, 11));
    let (cells, free) = c.mutable_cells();
    println!("B = 2: {} mutable cells, {free} free", cells.len());
    let reports = par_map(&[1u64, 2], |seed| mutation_test(k, &c, 30, *seed));
    for rep in reports {
        println!("{rep}");
        assert_eq!(rep.total, 30);
        assert_eq!(rep.caught, rep.total, "escaped cells {:?}", rep.escaped);
    }
}
