//! Field chip against halo2curves `Fp`/`Fq`: random values and edges. Every result is pinned
//! in-circuit to the expected constant (reduce / assert_canonical, then assert_equal), so a
//! satisfied MockProver means the circuit computed the right element.

mod common;
use batch_ecdsa_circuits::bigint::{fe_to_big, modulus};
use batch_ecdsa_circuits::field::{FieldChip, FieldValue, Overflowing, Proper, Relation};
use batch_ecdsa_circuits::layout::Builder;
use common::*;
use ff::{Field, PrimeField};
use halo2curves::secp256k1::{Fp, Fq};
use num_bigint::BigUint;
use num_traits::One;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;

fn edges<P: PrimeField>() -> Vec<P> {
    let mut rng = ChaCha20Rng::seed_from_u64(7);
    vec![
        P::ZERO,
        P::ONE,
        -P::ONE,
        -P::from(2u64),
        P::from(2u64).pow_vartime([88u64]),
        P::from(2u64).pow_vartime([176u64]) - P::ONE,
        P::random(&mut rng),
        P::random(&mut rng),
    ]
}

/// Pins a proper value to the expected element: canonical proof, then equality with a constant.
fn pin<P: PrimeField>(chip: &FieldChip<P>, b: &mut Builder, x: &Proper<P>, want: P) {
    assert_eq!(x.fe(), want, "witness value");
    let r = chip.assert_canonical(b, x);
    let e = chip.load_constant(b, want);
    chip.assert_equal(b, &r, &e);
}

/// Pins a lazy value through `reduce`.
fn pin_lazy<P: PrimeField>(chip: &FieldChip<P>, b: &mut Builder, x: &Overflowing<P>, want: P) {
    assert_eq!(x.fe(), want, "witness value");
    let r = chip.reduce(b, x);
    let e = chip.load_constant(b, want);
    chip.assert_equal(b, &r, &e);
}

fn ops_case<P: PrimeField>(chip_of: fn(&Builder) -> FieldChip<P>, x: P, y: P) {
    assert_ok(move |b| {
        let chip = chip_of(b);
        let a = chip.load_reduced(b, x);
        let c = chip.load_reduced(b, y);
        let s = chip.add(b, &a, &c);
        pin_lazy(&chip, b, &s, x + y);
        let d = chip.sub(b, &a, &c);
        pin_lazy(&chip, b, &d, x - y);
        let n = chip.neg(b, &a);
        pin_lazy(&chip, b, &n, -x);
        let k = chip.scale(b, &a, 7);
        pin_lazy(&chip, b, &k, x * P::from(7u64));
        let m = chip.mul(b, &a, &c);
        pin(&chip, b, &m, x * y);
        let sq = chip.square(b, &a);
        pin(&chip, b, &sq, x.square());
        let mc = chip.mul_const(b, &a, y);
        pin(&chip, b, &mc, x * y);
        // The relation block in both shapes: a remainder of two products, two linear terms
        // and a constant, and a factor (the new value multiplies the first difference).
        let rv = chip.new_value(
            b,
            &Relation::product(&a, &c)
                .minus(&a)
                .plus_product(-3, &c, &a, Some(c.crt()))
                .plus_term(2, &a)
                .plus_term(-1, &c)
                .constant(5)
                .remainder(),
        );
        pin(
            &chip,
            b,
            &rv,
            x * (y - x) - P::from(3u64) * y * (x - y) + x.double() - y + P::from(5u64),
        );
        if x != y {
            // v·(a − c) + c·c − 7 ≡ 0  ⇒  v = (7 − y²)/(x − y).
            let fv = chip.new_value(
                b,
                &Relation::factor_times(&a, Some(c.crt()))
                    .plus_product(1, &c, &c, None)
                    .constant(-7),
            );
            let want = (P::from(7u64) - y.square()) * (x - y).invert().unwrap();
            pin(&chip, b, &fv, want);
        }
        // x·y ≡ z for a canonical z, a lazy z (z' = xy + x − x), and a non-canonical one.
        let xy = chip.load_reduced(b, x * y);
        chip.assert_mul_eq(b, &a, &c, &xy);
        let t = chip.add(b, &xy, &a);
        let lazy = chip.sub(b, &t, &a);
        chip.assert_mul_eq(b, &a, &c, &lazy);
        let p_plus = fe_to_big(&(x * y)) + modulus::<P>();
        if p_plus.bits() <= 256 {
            let nc = chip.load_uint(b, &p_plus).expect("< 2^256");
            chip.assert_mul_eq(b, &a, &c, &nc);
        }
        let z = chip.is_zero(b, &a);
        assert_eq!(z.value(), x == P::ZERO);
        let e = chip.is_equal(b, &a, &c);
        assert_eq!(e.value(), x == y);
        let e2 = chip.is_equal(b, &a, &a.clone());
        assert!(e2.value());
        let bit = chip.range.load_bit(b, true);
        let sel = chip.select(b, &bit, &a, &c);
        chip.assert_equal(b, &sel, &a);
        let bit0 = chip.range.load_bit(b, false);
        let sel0 = chip.select(b, &bit0, &a, &c);
        chip.assert_equal(b, &sel0, &c);
        if y != P::ZERO {
            let i = chip.inv(b, &c);
            pin(&chip, b, &i, y.invert().unwrap());
            let q = chip.div(b, &a, &c);
            pin(&chip, b, &q, x * y.invert().unwrap());
        }
    });
}

/// [`ops_case`] on every edge value `x = e[i]` against `y = e[(stride·i + offset) mod len]`.
fn ops_on_edges<F: PrimeField>(chip: fn(&Builder) -> FieldChip<F>, stride: usize, offset: usize) {
    let e = edges::<F>();
    for (i, x) in e.iter().enumerate() {
        ops_case::<F>(chip, *x, e[(i * stride + offset) % e.len()]);
    }
}

#[test]
fn fp_ops_match_halo2curves_on_edges_and_random() {
    ops_on_edges::<Fp>(fp_chip, 3, 1);
}

#[test]
fn fq_ops_match_halo2curves_on_edges_and_random() {
    ops_on_edges::<Fq>(fq_chip, 5, 2);
}

#[test]
fn windows_and_bits_of_a_scalar() {
    let mut rng = ChaCha20Rng::seed_from_u64(11);
    for s in [Fq::ZERO, Fq::ONE, -Fq::ONE, Fq::random(&mut rng)] {
        assert_ok(move |b| {
            let chip = fq_chip(b);
            let x = chip.load_reduced(b, s);
            let w = chip.to_windows(b, &x, 4);
            assert_eq!(w.len(), 64);
            let v = fe_to_big(&s);
            for (i, d) in w.iter().enumerate() {
                let want = (&v >> (4 * i)) & BigUint::from(15u8);
                assert_eq!(fe_to_big(&d.value), want);
            }
            let bits = chip.to_bits(b, &x);
            assert_eq!(bits.len(), 256);
        });
    }
}

/// Non-canonical inputs: p + small, limbs at or above p's limbs, the all-ones 2^256 − 1.
fn odd_inputs<P: PrimeField>() -> Vec<BigUint> {
    let p = modulus::<P>();
    let top: BigUint = (BigUint::one() << 256usize) - 1u32;
    let limb: BigUint = (BigUint::one() << 88usize) - 1u32;
    let p_top: BigUint = (&p >> 176usize) << 176usize;
    vec![
        p.clone(),
        &p + 1u32,
        &p + 5u32,
        top.clone(),
        // limbs: low limbs all-ones (≥ p's low limbs), top limb = p's top limb.
        &p_top + (&limb << 88usize) + &limb,
        &top - &p,
    ]
    .into_iter()
    .filter(|v| v.bits() <= 256)
    .collect()
}

fn odd_case<P: PrimeField>(chip_of: fn(&Builder) -> FieldChip<P>) {
    let ins = odd_inputs::<P>();
    for v in ins {
        let want = batch_ecdsa_circuits::bigint::big_to_fe::<P>(&v);
        assert_ok(move |b| {
            let chip = chip_of(b);
            let x = chip.load_uint(b, &v).expect("< 2^256");
            let y = chip.load_uint(b, &v).expect("< 2^256");
            let m = chip.mul(b, &x, &y);
            pin(&chip, b, &m, want * want);
            let r = chip.reduce(b, &x);
            let e = chip.load_constant(b, want);
            chip.assert_equal(b, &r, &e);
            // The largest lazy inputs the mul accepts: value bounds with product < 2^517, e.g.
            // a sum of four proper maxima squared, or a sum of eight times a proper value.
            let mut acc: Overflowing<P> = x.clone().into();
            for _ in 0..3 {
                acc = chip.add(b, &acc, &y);
            }
            let m4 = chip.mul(b, &acc, &acc);
            let w4 = want * P::from(4u64);
            pin(&chip, b, &m4, w4 * w4);
            let mut acc8 = acc.clone();
            for _ in 0..4 {
                acc8 = chip.add(b, &acc8, &y);
            }
            let m8 = chip.mul(b, &acc8, &y);
            let w8 = want * P::from(8u64);
            pin(&chip, b, &m8, w8 * want);
            let rr = chip.reduce(b, &acc8);
            let e8 = chip.load_constant(b, w8);
            chip.assert_equal(b, &rr, &e8);
            if want != P::ZERO {
                let i = chip.inv(b, &x);
                pin(&chip, b, &i, want.invert().unwrap());
            }
        });
    }
}

#[test]
fn fp_non_canonical_and_largest_inputs() {
    odd_case::<Fp>(fp_chip);
}

#[test]
fn fq_non_canonical_and_largest_inputs() {
    odd_case::<Fq>(fq_chip);
}

#[test]
fn load_uint_rejects_more_than_256_bits() {
    let mut b = Builder::new(0, params());
    let chip = fp_chip(&b);
    let v = BigUint::one() << 256;
    assert!(chip.load_uint(&mut b, &v).is_err());
}

#[test]
fn lazy_bounds_of_sub_and_neg_stay_small() {
    let mut b = Builder::new(0, params());
    let chip = fp_chip(&b);
    let x = chip.load_proper(&mut b, Fp::from(3u64));
    let y = chip.load_proper(&mut b, Fp::from(5u64));
    let d = chip.sub(&mut b, &x, &y);
    let n = chip.neg(&mut b, &y);
    for v in [d.crt(), n.crt()] {
        for m in v.max_limbs() {
            assert!(m.bits() <= 91, "limb bound {} bits", m.bits());
        }
    }
    assert_eq!(d.fe(), Fp::from(3u64) - Fp::from(5u64));
}
