//! The scalar side of the ECDSA circuit: `1 ≤ s < n`, `u = h/s`, `r = x(R) mod n` with
//! `x ∈ [n, p)`, `r ≠ 0`; honest values accepted, forced bad values rejected, and every
//! witness cell of the gadgets caught by the mutation test.

mod common;

use batch_ecdsa_circuits::bigint::{fe_to_big, modulus};
use batch_ecdsa_circuits::ecdsa::scalar::{
    div, load_canonical_scalar, load_signature_scalar, x_mod_n,
};
use batch_ecdsa_circuits::field::FieldValue;
use batch_ecdsa_circuits::test_utils::mutation_test;
use common::*;
use ff::Field;
use halo2curves::secp256k1::{Fp, Fq};
use num_bigint::BigUint;
use num_traits::One;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;

fn n() -> BigUint {
    modulus::<Fq>()
}
fn p() -> BigUint {
    modulus::<Fp>()
}

fn s_range(s: BigUint) -> impl Fn(&mut batch_ecdsa_circuits::layout::Builder) + Send + Sync {
    move |b| {
        let fq = fq_chip(b);
        load_signature_scalar(&fq, b, &s).expect("fits in 256 bits");
    }
}

#[test]
fn s_in_one_to_n_minus_one_accepted() {
    for s in [BigUint::one(), n() - 1u32, BigUint::from(2u8) << 128u32] {
        assert_ok(s_range(s));
    }
}

#[test]
fn s_zero_n_and_above_rejected() {
    let two256m1 = (BigUint::one() << 256u32) - 1u32;
    for s in [BigUint::from(0u8), n(), n() + 1u32, p(), two256m1] {
        assert_fails(s_range(s.clone()));
    }
    let fq = fq_chip(&batch_ecdsa_circuits::layout::Builder::new(0, params()));
    let mut b = batch_ecdsa_circuits::layout::Builder::new(0, params());
    assert!(load_signature_scalar(&fq, &mut b, &(BigUint::one() << 256u32)).is_err());
}

#[test]
fn quotient_is_h_over_s() {
    let mut rng = ChaCha20Rng::seed_from_u64(7);
    for _ in 0..3 {
        let (h, s) = (Fq::random(&mut rng), Fq::random(&mut rng));
        assert_ok(move |b| {
            let fq = fq_chip(b);
            let hh = fq.load_reduced(b, h);
            let ss = load_signature_scalar(&fq, b, &fe_to_big(&s)).expect("fits");
            let u = div(&fq, b, &hh, &ss);
            assert_eq!(u.fe() * s, h);
            let u = fq.canonical(b, &u);
            let want = fq.load_constant(b, h * s.invert().unwrap());
            fq.assert_equal(b, &u, &want);
        });
    }
    // A quotient pinned to another value cannot be proven.
    assert_fails(|b| {
        let fq = fq_chip(b);
        let hh = fq.load_reduced(b, Fq::from(6));
        let ss = load_signature_scalar(&fq, b, &BigUint::from(3u8)).expect("fits");
        let u = div(&fq, b, &hh, &ss);
        let u = fq.canonical(b, &u);
        let wrong = fq.load_constant(b, Fq::from(3));
        fq.assert_equal(b, &u, &wrong);
    });
}

#[test]
fn canonical_hash_required() {
    assert_ok(|b| {
        let fq = fq_chip(b);
        load_canonical_scalar(&fq, b, &(n() - 1u32)).expect("fits");
    });
    assert_fails(|b| {
        let fq = fq_chip(b);
        load_canonical_scalar(&fq, b, &n()).expect("fits");
    });
}

/// `x(R)` as a canonical Fp value, `r = x mod n` pinned to `want` (None: only computed).
fn r_of_x(
    x: BigUint,
    want: Option<BigUint>,
) -> impl Fn(&mut batch_ecdsa_circuits::layout::Builder) + Send + Sync {
    move |b| {
        let fp = fp_chip(b);
        let fq = fq_chip(b);
        let xv = fp.load_uint(b, &x).expect("fits");
        let xr = fp.assert_canonical(b, &xv);
        let r = x_mod_n(&fq, b, &xr);
        if let Some(w) = &want {
            let c = fq.load_constant(b, batch_ecdsa_circuits::bigint::big_to_fe(w));
            fq.assert_equal(b, r.value(), &c);
        }
    }
}

#[test]
fn r_is_x_mod_n_including_x_at_least_n() {
    let cases = [
        (BigUint::one(), BigUint::one()),
        (n() - 1u32, n() - 1u32),
        (n() + 2u32, BigUint::from(2u8)),
        (p() - 1u32, p() - 1u32 - n()),
        (
            BigUint::from(0xdead_beefu64) << 170u32,
            BigUint::from(0xdead_beefu64) << 170u32,
        ),
    ];
    for (x, r) in cases {
        assert_ok(r_of_x(x, Some(r)));
    }
}

#[test]
fn r_zero_and_wrong_r_rejected() {
    // x = n gives r = 0; x = 0 gives r = 0.
    assert_fails(r_of_x(n(), None));
    assert_fails(r_of_x(BigUint::from(0u8), None));
    // x = n + 2: r = 2, not n + 2 (not canonical anyway) and not 2 + 1.
    assert_fails(r_of_x(n() + 2u32, Some(BigUint::from(3u8))));
    // x ≥ p is not a canonical coordinate.
    assert_fails(r_of_x(p(), None));
    assert_fails(r_of_x(p() + 5u32, None));
}

#[test]
fn scalar_gadgets_every_cell_caught() {
    for x in [n() + 7u32, BigUint::from(12345u32) << 200u32] {
        let c = circuit(move |b| {
            let fp = fp_chip(b);
            let fq = fq_chip(b);
            let xv = fp.load_uint(b, &x).expect("fits");
            let xr = fp.assert_canonical(b, &xv);
            let r = x_mod_n(&fq, b, &xr);
            let s = load_signature_scalar(&fq, b, &(n() - 3u32)).expect("fits");
            let h = fq.load_reduced(b, Fq::from(99));
            let _u = div(&fq, b, &h, &s);
            let _v = div(&fq, b, r.value(), &s);
        });
        mutation_test(K, &c, 250, 5).assert_all_caught("scalar checks", 100);
    }
}

/// The canonical cut of a challenge into two short odd batch coefficients `2·lo + 1`,
/// `2·hi + 1`: the honest cut of c is accepted (and equals the native coefficients, with
/// windows representing them), the cut of `c + r` (same value mod r, a second representation)
/// is rejected, as is a cut with lo and hi swapped.
#[test]
fn challenge_cut_is_canonical() {
    use batch_ecdsa_circuits::ecc::windows_value;
    use batch_ecdsa_circuits::ecdsa::challenge::{cut_challenge, cut_challenge_as, COEF_BITS};
    use batch_ecdsa_circuits::layout::Native;
    use num_bigint::BigInt;
    // c small enough that c + r < 2^254 (so hi(c + r) < 2^127 passes the window checks).
    let c_small = Native::from(123_456_789u64) * Native::from(1u64 << 40);
    let r = modulus::<Native>();
    // Honest cuts, including c = r − 5 (hi = r_hi, the top of the range).
    for c in [c_small, -Native::from(5u64)] {
        assert_ok(move |b| {
            let fq = fq_chip(b);
            let x = fq.range.load_witness(b, c);
            let [lo, hi] = cut_challenge(&fq, b, &x);
            let v = fe_to_big(&c);
            let two = BigUint::from(2u8);
            let want_lo = &two * (&v % (BigUint::from(1u8) << COEF_BITS)) + 1u32;
            let want_hi = &two * (&v >> COEF_BITS) + 1u32;
            assert_eq!(*lo.scalar().crt().value(), want_lo);
            assert_eq!(*hi.scalar().crt().value(), want_hi);
            assert_eq!(windows_value(lo.windows()), BigInt::from(want_lo));
            assert_eq!(windows_value(hi.windows()), BigInt::from(want_hi));
        });
    }
    let one = BigUint::from(1u8);
    let v = fe_to_big(&c_small) + &r;
    assert!(v < (&one << 254));
    let (lo, hi) = (&v % (&one << COEF_BITS), &v >> COEF_BITS);
    assert_fails(move |b| {
        let fq = fq_chip(b);
        let x = fq.range.load_witness(b, c_small);
        cut_challenge_as(&fq, b, &x, &lo, &hi);
    });
    let v = fe_to_big(&c_small);
    let (lo, hi) = (&v % (&one << COEF_BITS), &v >> COEF_BITS);
    assert_fails(move |b| {
        let fq = fq_chip(b);
        let x = fq.range.load_witness(b, c_small);
        cut_challenge_as(&fq, b, &x, &hi, &lo);
    });
}
