//! ecc chip: positive tests against halo2curves native results.

mod common;

use batch_ecdsa_circuits::ecc::{odd_digit, AccPoint, WINDOW};
use batch_ecdsa_circuits::field::Proper;
use batch_ecdsa_circuits::layout::{Builder, LayoutParams};
use batch_ecdsa_circuits::test_utils::mock_verify;
use batch_ecdsa_circuits::test_utils::BuilderCircuit;
use ff::Field;
use group::{Curve, Group};
use halo2curves::secp256k1::{Fq, Secp256k1, Secp256k1Affine};
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;

use common::{ecc_chip as chip, ecc_params as params};

/// Builds, picks the smallest k that fits, and runs MockProver.
fn check(build: impl Fn(&mut Builder) + Send + Sync + 'static) -> Result<(), String> {
    let c = BuilderCircuit::new(params(), build);
    let b = c.builder();
    let k = c.min_k();
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

/// Chained runs of 1 to 5 terms (pairs with the middle y implicit, an odd last term) equal
/// the native sums; a run with the start point as a term is `2·start + …`.
#[test]
fn add_runs_match_native() {
    let pts: Vec<Secp256k1Affine> = (20..26).map(rnd_point).collect();
    ok(move |b| {
        let e = chip(b);
        let acc: Vec<AccPoint> = pts.iter().map(|p| e.load_point(b, *p).into()).collect();
        for m in 1..=5 {
            let r = e.add_run(b, acc[0].clone(), &acc[1..=m]);
            let want = pts[..=m]
                .iter()
                .fold(Secp256k1::identity(), |s, p| s + p)
                .to_affine();
            assert_eq!(r.value(), want, "run of {m}");
            let r = r.finish(&e, b);
            let want = e.constant_point(b, want);
            e.assert_equal(b, &r, &want);
        }
        let r = e.add_run(
            b,
            acc[0].clone(),
            &[acc[1].clone(), acc[0].clone(), acc[2].clone()],
        );
        let want = (pts[0] + pts[0] + pts[1] + pts[2]).to_affine();
        assert_eq!(r.value(), want);
        let r = r.finish(&e, b);
        let want = e.constant_point(b, want);
        e.assert_equal(b, &r, &want);
    });
}

/// The window table of P holds `(2e − 15)·P` for e < 16.
#[test]
fn odd_table_entries() {
    let p = rnd_point(27);
    ok(move |b| {
        let e = chip(b);
        let pa: AccPoint = e.load_point(b, p).into();
        let t = e.odd_table(b, &pa, WINDOW);
        for (i, entry) in t.into_iter().enumerate() {
            let d = odd_digit(i, WINDOW);
            let m = Fq::from(d.unsigned_abs());
            let want = if d < 0 { -(p * m) } else { p * m }.to_affine();
            assert_eq!(entry.value(), want, "entry {i}");
            let got = entry.finish(&e, b);
            let want = e.constant_point(b, want);
            e.assert_equal(b, &got, &want);
        }
    });
}

#[test]
fn scalar_mul_matches_native() {
    let p = rnd_point(3);
    let k = Fq::random(ChaCha20Rng::seed_from_u64(4));
    ok(move |b| {
        let e = chip(b);
        let pa = e.load_point(b, p);
        let ka = e.fq.load_reduced(b, k).into();
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
        let ka = e.fq.load_reduced(b, k).into();
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
    ok(move |b| {
        let e = chip(b);
        let pts = vec![e.load_point(b, p), e.load_point(b, q)];
        let ks = vec![
            e.fq.load_reduced(b, k1).into(),
            e.fq.load_reduced(b, k2).into(),
        ];
        let g = e.fq.load_reduced(b, k0).into();
        let r = e.msm(b, &pts, &ks, Some(&g), WINDOW);
        let want = (p * k1 + q * k2 + Secp256k1::generator() * k0).to_affine();
        let want = e.constant_point(b, want);
        e.assert_equal(b, &r, &want);
    });
}

fn fq_big(x: &num_bigint::BigUint) -> Fq {
    batch_ecdsa_circuits::bigint::big_to_fe(x)
}

/// Edge scalars: 0, 1, small, n − 1, n − 2 (odd and even, so both recodings `k` and `k + n`),
/// windows all zero but the top one (2^255), the low limbs' windows all at their maximum
/// (2^176 − 1), a single window in limb 1 (2^88).
fn edge_scalars() -> Vec<Fq> {
    use num_bigint::BigUint;
    let one = BigUint::from(1u8);
    vec![
        Fq::ZERO,
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

/// Scalar multiplication at edge scalars (the result is never the identity here, except for
/// k = 0, which is checked through an MSM with a second point).
#[test]
fn scalar_mul_edge_scalars() {
    let (p, q) = (rnd_point(9), rnd_point(19));
    let ks = edge_scalars();
    let k1 = Fq::random(ChaCha20Rng::seed_from_u64(18));
    for chunk in ks.chunks(3) {
        let chunk = chunk.to_vec();
        ok(move |b| {
            let e = chip(b);
            let pa = e.load_point(b, p);
            let qa = e.load_point(b, q);
            let k1a: Proper<Fq> = e.fq.load_reduced(b, k1).into();
            for k in &chunk {
                let ka: Proper<Fq> = e.fq.load_reduced(b, *k).into();
                let r = e.msm(
                    b,
                    &[pa.clone(), qa.clone()],
                    &[ka, k1a.clone()],
                    None,
                    WINDOW,
                );
                let want = e.constant_point(b, (p * k + q * k1).to_affine());
                e.assert_equal(b, &r, &want);
            }
        });
    }
}

#[test]
fn fixed_base_mul_edge_scalars() {
    let g = Secp256k1Affine::generator();
    let ks: Vec<Fq> = edge_scalars().into_iter().skip(1).collect();
    ok(move |b| {
        let e = chip(b);
        for k in ks.iter() {
            let ka = e.fq.load_reduced(b, *k).into();
            let r = e.fixed_base_mul(b, &ka, g);
            let want = e.constant_point(b, (g * k).to_affine());
            e.assert_equal(b, &r, &want);
        }
    });
}

/// The signed-odd recoding at every window (86, 65, 52 windows at w = 3, 4, 5) represents
/// exactly `k` or `k + n` (odd), for the edge scalars, proper scalars above n and `2^256 − 1`.
#[test]
fn odd_recoding_represents_the_scalar() {
    use batch_ecdsa_circuits::bigint::modulus;
    use batch_ecdsa_circuits::ecc::{full_windows, odd_windows, windows_value, WINDOWS};
    use num_bigint::{BigInt, BigUint};
    let n = modulus::<Fq>();
    let mut ks: Vec<BigUint> = edge_scalars()
        .iter()
        .map(batch_ecdsa_circuits::bigint::fe_to_big)
        .collect();
    ks.push(&n + 5u32); // proper but ≥ n (odd)
    ks.push(&n + 6u32); // even, ≥ n: recoded as k + n
    ks.push((BigUint::from(1u8) << 256) - 1u32);
    assert_eq!(WINDOWS.map(full_windows), [86, 65, 52]);
    ok_w35(move |b| {
        let e = chip(b);
        for w in WINDOWS {
            for k in &ks {
                let ka = e.fq.load_uint(b, k).expect("fits");
                let ws = odd_windows(&e.fq, b, &ka, w);
                assert_eq!(ws.len(), full_windows(w));
                let v = windows_value(&ws);
                let kb = BigInt::from(k.clone());
                assert!(
                    v == kb || v == kb.clone() + BigInt::from(n.clone()),
                    "w {w}: {k}"
                );
                assert!(v.bit(0), "odd");
            }
        }
    });
}

/// MSM with a zero scalar (recoded as n: the term adds nothing), a G-only MSM, and the same
/// point twice.
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
            e.fq.load_reduced(b, Fq::ZERO).into(),
            e.fq.load_reduced(b, k1).into(),
            e.fq.load_reduced(b, k1).into(),
        ];
        let r = e.msm(b, &pts, &ks, None, WINDOW);
        let want = e.constant_point(b, (q * k1 + p * k1).to_affine());
        e.assert_equal(b, &r, &want);
        let g0 = e.fq.load_reduced(b, k0).into();
        let r = e.msm(b, &[], &[], Some(&g0), WINDOW);
        let want = e.constant_point(b, (g * k0).to_affine());
        e.assert_equal(b, &r, &want);
    });
}

/// `2A + T` by the merged double-and-add equals the native value; `T = −2A` (the middle sum
/// has the x of A) and `T = A` (x equal) are unsatisfiable.
#[test]
fn double_and_add_matches_native_and_rejects_degenerate() {
    let (a, t) = (rnd_point(13), rnd_point(14));
    let run = move |t: Secp256k1Affine| {
        move |b: &mut Builder| {
            let e = chip(b);
            let aa: AccPoint = e.load_point(b, a).into();
            let ta: AccPoint = e.load_point(b, t).into();
            let r = e.double_and_add_acc(b, &aa, &ta).finish(&e, b);
            let want = (a + a + t).to_affine();
            assert_eq!(r.value(), want);
            let want = e.constant_point(b, want);
            e.assert_equal(b, &r, &want);
        }
    };
    ok(run(t));
    for bad in [(-(a + a)).to_affine(), a] {
        assert!(check(move |b: &mut Builder| {
            let e = chip(b);
            let aa: AccPoint = e.load_point(b, a).into();
            let ta: AccPoint = e.load_point(b, bad).into();
            e.double_and_add_acc(b, &aa, &ta);
        })
        .is_err());
    }
}

/// A 256-bit scalar, a short odd scalar `2·lo + 1` (fewer windows) and G in one MSM over
/// tables: the raw accumulator minus the constant offset is the native sum.
#[test]
fn msm_tables_mixed_windows_and_short_scalar() {
    use batch_ecdsa_circuits::ecc::{odd_windows, odd_windows_short};
    use batch_ecdsa_circuits::layout::Native;
    use ff::PrimeField;
    let (p, q) = (rnd_point(15), rnd_point(16));
    let mut rng = ChaCha20Rng::seed_from_u64(17);
    let (k1, k0) = (Fq::random(&mut rng), Fq::random(&mut rng));
    let lo: u128 = 0x7edc_ba98_7654_3210_0f1e_2d3c_4b5a_6978;
    ok(move |b| {
        let e = chip(b);
        let pt: AccPoint = e.load_point(b, p).into();
        let qt: AccPoint = e.load_point(b, q).into();
        let tp = e.odd_table(b, &pt, WINDOW);
        let tp = e.load_lookup_table(b, tp);
        let tq = e.odd_table(b, &qt, WINDOW);
        let tq = e.load_lookup_table(b, tq);
        let tg = e.constant_odd_table(b, Secp256k1Affine::generator(), WINDOW);
        let ka = e.fq.load_reduced(b, k1).into();
        let la = e.fq.range.load_witness(b, Native::from_u128(lo));
        let ga = e.fq.load_reduced(b, k0).into();
        let wp = odd_windows(&e.fq, b, &ka, WINDOW);
        let wq = odd_windows_short(&e.fq, b, &la, 127);
        assert_eq!(wq.len(), 32);
        let wg = odd_windows(&e.fq, b, &ga, WINDOW);
        let (acc, off) = e.msm_tables(b, &[(&tp, &wp), (&tq, &wq), (&tg, &wg)]);
        let z = Fq::from_u128(lo) * Fq::from(2) + Fq::ONE;
        let want = p * k1 + q * z + Secp256k1::generator() * k0 + off;
        assert_eq!(acc.value(), want.to_affine());
        let acc = acc.finish(&e, b);
        let want = e.constant_point(b, want.to_affine());
        e.assert_equal(b, &acc, &want);
    });
}

/// Parameters with the 3- and 5-bit table sections as well (every window's section).
fn params_w35() -> LayoutParams {
    let mut p = params();
    p.window_bits.extend([3, 5]);
    p
}

fn ok_w35(build: impl Fn(&mut Builder) + Send + Sync + 'static) {
    let c = BuilderCircuit::new(params_w35(), build);
    let k = c.min_k();
    if let Err(e) = mock_verify(k, &c) {
        panic!("expected a satisfied circuit: {e}");
    }
}

/// The window tables at w = 3 and 5 hold `(2e − (2^w − 1))·P` for `e < 2^w`.
#[test]
fn odd_tables_w3_w5_entries() {
    use batch_ecdsa_circuits::ecc::odd_digit;
    let p = rnd_point(28);
    ok_w35(move |b| {
        let e = chip(b);
        let pa: AccPoint = e.load_point(b, p).into();
        for w in [3u32, 5] {
            let t = e.odd_table(b, &pa, w);
            assert_eq!(t.len(), 1 << w);
            for (i, entry) in t.into_iter().enumerate() {
                let d = odd_digit(i, w);
                let m = Fq::from(d.unsigned_abs());
                let want = if d < 0 { -(p * m) } else { p * m }.to_affine();
                assert_eq!(entry.value(), want, "w = {w}, entry {i}");
                let got = entry.finish(&e, b);
                let want = e.constant_point(b, want);
                e.assert_equal(b, &got, &want);
            }
        }
    });
}

/// `k₁·P + k₂·Q + k₀·G` at w = 3 and 5 (tables of 8 and 32 entries, the constant G table at
/// the same window) matches native, as does the default-window MSM.
#[test]
fn msm_w3_w5_with_g_matches_native() {
    let (p, q) = (rnd_point(36), rnd_point(37));
    let mut rng = ChaCha20Rng::seed_from_u64(38);
    let (k1, k2, k0) = (
        Fq::random(&mut rng),
        Fq::random(&mut rng),
        Fq::random(&mut rng),
    );
    ok_w35(move |b| {
        let e = chip(b);
        let pts = vec![e.load_point(b, p), e.load_point(b, q)];
        let ks: Vec<Proper<Fq>> = vec![
            e.fq.load_reduced(b, k1).into(),
            e.fq.load_reduced(b, k2).into(),
        ];
        let g: Proper<Fq> = e.fq.load_reduced(b, k0).into();
        let want = (p * k1 + q * k2 + Secp256k1::generator() * k0).to_affine();
        for w in [3u32, 5] {
            let r = e.msm(b, &pts, &ks, Some(&g), w);
            let want = e.constant_point(b, want);
            e.assert_equal(b, &r, &want);
        }
    });
}
