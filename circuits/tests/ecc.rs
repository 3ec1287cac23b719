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
    for (w, lookup) in [(3u32, true), (4, true), (4, false)] {
        ok(move |b| {
            let mut e = chip(b);
            e.lookup_select = lookup;
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

fn fq_big(x: &num_bigint::BigUint) -> Fq {
    batch_ecdsa_circuits::bigint::big_to_fe(x)
}

/// Edge scalars: 1, small, n − 1, n − 2, windows all zero but the top one (2^255), the low
/// limbs' windows all at their maximum (2^176 − 1), a single window in limb 1 (2^88).
fn edge_scalars() -> Vec<Fq> {
    use num_bigint::BigUint;
    let one = BigUint::from(1u8);
    vec![
        Fq::ONE,
        Fq::from(2),
        Fq::from(15),
        -Fq::ONE,
        -Fq::from(2),
        fq_big(&((&one << 176) - 1u32)),
        fq_big(&(&one << 255)),
        fq_big(&(&one << 88)),
    ]
}

#[test]
fn scalar_mul_edge_scalars() {
    let p = rnd_point(9);
    let ks = edge_scalars();
    for (chunk, w) in ks.chunks(4).zip([3u32, 5]) {
        let chunk = chunk.to_vec();
        ok(move |b| {
            let e = chip(b);
            let pa = e.load_point(b, p);
            for k in &chunk {
                let ka = e.fq.load_reduced(b, *k);
                let r = e.msm(
                    b,
                    std::slice::from_ref(&pa),
                    std::slice::from_ref(&ka),
                    None,
                    w,
                );
                let want = e.constant_point(b, (p * k).to_affine());
                e.assert_equal(b, &r, &want);
            }
        });
    }
}

#[test]
fn fixed_base_mul_edge_scalars() {
    let g = Secp256k1Affine::generator();
    let ks = edge_scalars();
    ok(move |b| {
        let e = chip(b);
        for (i, k) in ks.iter().enumerate() {
            let ka = e.fq.load_reduced(b, *k);
            let w = [3u32, 4, 5][i % 3];
            let r = e.fixed_base_mul_w(b, &ka, g, w);
            let want = e.constant_point(b, (g * k).to_affine());
            e.assert_equal(b, &r, &want);
        }
    });
}

/// MSM with a zero scalar (every window digit 0: only offset entries are added), a G-only MSM,
/// and the same point twice.
#[test]
fn msm_zero_scalar_g_only_and_repeated_point() {
    let (p, q) = (rnd_point(10), rnd_point(11));
    let mut rng = ChaCha20Rng::seed_from_u64(12);
    let (k1, k0) = (Fq::random(&mut rng), Fq::random(&mut rng));
    let g = Secp256k1::generator();
    ok(move |b| {
        let e = chip(b);
        let pts = vec![e.load_point(b, p), e.load_point(b, q), e.load_point(b, p)];
        let ks = vec![
            e.fq.load_reduced(b, Fq::ZERO),
            e.fq.load_reduced(b, k1),
            e.fq.load_reduced(b, k1),
        ];
        let r = e.msm(b, &pts, &ks, None, 4);
        let want = e.constant_point(b, (q * k1 + p * k1).to_affine());
        e.assert_equal(b, &r, &want);
        let g0 = e.fq.load_reduced(b, k0);
        let r = e.msm(b, &[], &[], Some(&g0), 4);
        let want = e.constant_point(b, (g * k0).to_affine());
        e.assert_equal(b, &r, &want);
    });
}

/// `2A + T` by the merged double-and-add equals the native value; `T = −2A` (result the
/// identity) and `T = A` are unsatisfiable.
#[test]
fn double_and_add_matches_native_and_rejects_degenerate() {
    let (a, t) = (rnd_point(13), rnd_point(14));
    let run = move |t: Secp256k1Affine| {
        move |b: &mut Builder| {
            let e = chip(b);
            let aa: batch_ecdsa_circuits::ecc::AccPoint = e.load_point(b, a).into();
            let ta = e.load_point(b, t);
            let r = e.double_and_add_acc(b, &aa, &ta.x, &ta.y).finish(&e, b);
            let want = (a + a + t).to_affine();
            assert_eq!(r.value(), want);
            let want = e.constant_point(b, want);
            e.assert_equal(b, &r, &want);
        }
    };
    ok(run(t));
    let minus_2a = (-(a + a)).to_affine();
    assert!(check(move |b: &mut Builder| {
        let e = chip(b);
        let aa: batch_ecdsa_circuits::ecc::AccPoint = e.load_point(b, a).into();
        let ta = e.load_point(b, minus_2a);
        e.double_and_add_acc(b, &aa, &ta.x, &ta.y);
    })
    .is_err());
    assert!(check(move |b: &mut Builder| {
        let e = chip(b);
        let aa: batch_ecdsa_circuits::ecc::AccPoint = e.load_point(b, a).into();
        let ta = e.load_point(b, a);
        e.double_and_add_acc(b, &aa, &ta.x, &ta.y);
    })
    .is_err());
}

/// A 256-bit scalar (limb windows) and a 128-bit native scalar (windows at multiples of w)
/// in one MSM: Horner over the union of their offsets; the raw accumulator minus the constant
/// offset is the native sum (and `msm_windows_raw` with a G term).
#[test]
fn msm_mixed_window_offsets_and_short_scalar() {
    use batch_ecdsa_circuits::ecc::{native_windows, scalar_windows};
    use batch_ecdsa_circuits::layout::Native;
    use ff::PrimeField;
    let (p, q) = (rnd_point(15), rnd_point(16));
    let mut rng = ChaCha20Rng::seed_from_u64(17);
    let (k1, k0) = (Fq::random(&mut rng), Fq::random(&mut rng));
    let z: u128 = 0xfedc_ba98_7654_3210_0f1e_2d3c_4b5a_6978;
    for w in [3u32, 5] {
        ok(move |b| {
            let e = chip(b);
            let pts = vec![e.load_point(b, p), e.load_point(b, q)];
            let ka = e.fq.load_reduced(b, k1);
            let za = e.fq.range.load_checked(b, Native::from_u128(z), 128);
            let ga = e.fq.load_reduced(b, k0);
            let wins = vec![
                scalar_windows(&e.fq, b, &ka, w),
                native_windows(&e.fq, b, &za, 128, w),
            ];
            let gw = scalar_windows(&e.fq, b, &ga, w);
            let (acc, off) = e.msm_windows_raw(b, &pts, &wins, Some(&gw), w);
            let zf = Fq::from_u128(z);
            let want = p * k1 + q * zf + Secp256k1::generator() * k0 + off;
            assert_eq!(acc.value(), want.to_affine());
            let want = e.constant_point(b, want.to_affine());
            e.assert_equal(b, &acc, &want);
        });
    }
}
