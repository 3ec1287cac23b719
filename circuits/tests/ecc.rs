//! ecc chip: positive tests against halo2curves native results.

mod common;

use batch_ecdsa_circuits::config::BuilderCircuit;
use batch_ecdsa_circuits::ecc::EccChip;
use batch_ecdsa_circuits::field::FieldChip;
use batch_ecdsa_circuits::layout::{Builder, LayoutParams};
use batch_ecdsa_circuits::range::RangeChip;
use batch_ecdsa_circuits::test_utils::mock_verify;
use ff::Field;
use group::Curve;
use halo2curves::secp256k1::{Fq, Secp256k1, Secp256k1Affine};
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;

/// Lookup bits of the ecc tests (table 2^L plus window sections).
const L: u32 = 12;

fn params() -> LayoutParams {
    let mut p = LayoutParams::new(L);
    p.window_bits = vec![1, 3, 4, 5];
    p
}

fn chip(b: &Builder) -> EccChip {
    let r = RangeChip::new(b.params.clone());
    EccChip::new(FieldChip::new(r.clone(), 0), FieldChip::new(r, 1))
}

/// Builds, picks the smallest k that fits, and runs MockProver.
fn check(build: impl Fn(&mut Builder) + Send + Sync + 'static) -> Result<(), String> {
    let c = BuilderCircuit::new(params(), build);
    let b = c.builder();
    let k = c.params.min_k(b.rows() as usize);
    println!("rows {} cells {} k {k}", b.rows(), b.stats().advice_cells);
    mock_verify(k, &c)
}

fn ok(build: impl Fn(&mut Builder) + Send + Sync + 'static) {
    if let Err(e) = check(build) {
        panic!("expected a satisfied circuit: {e}");
    }
}

fn rnd_point(seed: u64) -> Secp256k1Affine {
    (Secp256k1::generator() * Fq::random(ChaCha20Rng::seed_from_u64(seed))).to_affine()
}

#[test]
fn point_ops_match_native() {
    let (p, q) = (rnd_point(1), rnd_point(2));
    ok(move |b| {
        let e = chip(b);
        let pa = e.load_point(b, p);
        let qa = e.load_point(b, q);
        let s = e.add_strict(b, &pa, &qa);
        let want = e.constant_point(b, (p + q).to_affine());
        e.assert_equal(b, &s, &want);
        let d = e.double(b, &pa);
        let want = e.constant_point(b, (p + p).to_affine());
        e.assert_equal(b, &d, &want);
        let n = e.neg(b, &qa);
        let want = e.constant_point(b, -q);
        e.assert_equal(b, &n, &want);
        let bit = e.fp.range.load_bit(b, false);
        let sel = e.select(b, &bit, &pa, &qa);
        e.assert_equal(b, &sel, &qa);
        assert_eq!(s.value(), (p + q).to_affine());
    });
}

#[test]
fn scalar_mul_rows() {
    let p = rnd_point(3);
    let k = Fq::random(ChaCha20Rng::seed_from_u64(4));
    ok(move |b| {
        let e = chip(b);
        let pa = e.load_point(b, p);
        let ka = e.fq.load_reduced(b, k);
        let r = e.scalar_mul(b, &pa, &ka);
        let want = e.constant_point(b, (p * k).to_affine());
        e.assert_equal(b, &r, &want);
    });
}

#[test]
fn fixed_base_mul_matches_native() {
    let k = Fq::random(ChaCha20Rng::seed_from_u64(5));
    let g = Secp256k1Affine::generator();
    ok(move |b| {
        let e = chip(b);
        let ka = e.fq.load_reduced(b, k);
        let r = e.fixed_base_mul(b, &ka, g);
        let want = e.constant_point(b, (g * k).to_affine());
        e.assert_equal(b, &r, &want);
    });
}

#[test]
fn msm_with_g_matches_native() {
    let (p, q) = (rnd_point(6), rnd_point(7));
    let mut rng = ChaCha20Rng::seed_from_u64(8);
    let (k1, k2, k0) = (
        Fq::random(&mut rng),
        Fq::random(&mut rng),
        Fq::random(&mut rng),
    );
    for w in [3u32, 4] {
        ok(move |b| {
            let e = chip(b);
            let pts = vec![e.load_point(b, p), e.load_point(b, q)];
            let ks = vec![e.fq.load_reduced(b, k1), e.fq.load_reduced(b, k2)];
            let g = e.fq.load_reduced(b, k0);
            let r = e.msm(b, &pts, &ks, Some(&g), w);
            let want = (p * k1 + q * k2 + Secp256k1::generator() * k0).to_affine();
            let want = e.constant_point(b, want);
            e.assert_equal(b, &r, &want);
        });
    }
}
