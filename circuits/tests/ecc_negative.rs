//! ecc chip: negative tests (off-curve and non-canonical points, forged slopes and results,
//! degenerate additions — equal x, also through a non-canonical representative — forged
//! chained runs, wrong table entries and indices) and witness mutation.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use batch_ecdsa_circuits::bigint::{fe_to_big, modulus};
use batch_ecdsa_circuits::ecc::{odd_windows, odd_windows_short, AccPoint, AddWitness, WINDOW};
use batch_ecdsa_circuits::field::Proper;
use batch_ecdsa_circuits::layout::{Builder, LayoutParams, Native};
use batch_ecdsa_circuits::test_utils::BuilderCircuit;
use batch_ecdsa_circuits::test_utils::{mock_verify, mutation_test, Mutable};
use ff::Field;
use group::{Curve, Group};
use halo2curves::secp256k1::{Fp, Fq, Secp256k1, Secp256k1Affine};
use num_bigint::BigUint;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;

use common::{ecc_chip as chip, ecc_params as params};

fn k_of(c: &BuilderCircuit) -> u32 {
    c.min_k()
}

fn verify(build: impl Fn(&mut Builder) + Send + Sync + 'static) -> Result<(), String> {
    let c = BuilderCircuit::new(params(), build);
    mock_verify(k_of(&c), &c)
}

fn ok(build: impl Fn(&mut Builder) + Send + Sync + 'static) {
    if let Err(e) = verify(build) {
        panic!("expected a satisfied circuit: {e}");
    }
}

fn fails(what: &str, build: impl Fn(&mut Builder) + Send + Sync + 'static) {
    assert!(
        verify(build).is_err(),
        "{what}: expected MockProver to reject"
    );
}

fn rnd_point(seed: u64) -> Secp256k1Affine {
    (Secp256k1::generator() * Fq::random(ChaCha20Rng::seed_from_u64(seed))).to_affine()
}

/// A curve point with a small x (so `x + p < 2^256` is a non-canonical encoding of it).
fn small_x_point() -> Secp256k1Affine {
    for x in 1u64.. {
        let xf = Fp::from(x);
        if let Some(y) = Option::<Fp>::from((xf.square() * xf + Fp::from(7)).sqrt()) {
            return Secp256k1Affine { x: xf, y };
        }
    }
    unreachable!()
}

#[test]
fn load_rejects_off_curve_and_non_canonical() {
    let p = rnd_point(1);
    let (x, y) = (fe_to_big(&p.x), fe_to_big(&p.y));
    let (x2, y2) = (x.clone(), y.clone());
    ok(move |b| {
        chip(b).load_point_xy(b, &x2, &y2);
    });
    let (x2, y2) = (x.clone(), &y + 1u32);
    fails("off-curve y + 1", move |b| {
        chip(b).load_point_xy(b, &x2, &y2);
    });
    fails("identity (0, 0)", move |b| {
        chip(b).load_point(b, Secp256k1Affine::from(Secp256k1::identity()));
    });
    let s = small_x_point();
    let (sx, sy) = (fe_to_big(&s.x), fe_to_big(&s.y));
    let (sx2, sy2) = (sx.clone(), sy.clone());
    ok(move |b| {
        chip(b).load_point_xy(b, &sx2, &sy2);
    });
    // x + p satisfies the curve equation mod p but is not canonical.
    let xp = &sx + modulus::<Fp>();
    assert!(xp.bits() <= 256);
    fails("non-canonical x + p", move |b| {
        chip(b).load_point_xy(b, &xp, &sy);
    });
    let big = BigUint::from(1u8) << 300;
    fails("coordinate >= 2^256", move |b| {
        chip(b).load_point_xy(b, &big, &y);
    });
}

#[test]
fn add_rejects_forged_slope_and_result() {
    let (p, q) = (rnd_point(2), rnd_point(3));
    let lam = (q.y - p.y) * (q.x - p.x).invert().unwrap();
    let x3 = lam.square() - p.x - q.x;
    let y3 = lam * (p.x - x3) - p.y;
    let run = move |w: AddWitness| {
        move |b: &mut Builder| {
            let e = chip(b);
            let pa: AccPoint = e.load_point(b, p).into();
            let qa: AccPoint = e.load_point(b, q).into();
            let s = e.add_acc_with_witness(b, &pa, &qa, w).finish(&e, b);
            let want = e.constant_point(b, (p + q).to_affine());
            e.assert_equal(b, &s, &want);
        }
    };
    let w = |l: Fp, x: Fp, y: Fp| AddWitness {
        lambda: Some(l),
        x3: Some(x),
        y3: Some(y),
    };
    ok(run(AddWitness::default()));
    ok(run(w(lam, x3, y3)));
    fails("slope + 1", run(w(lam + Fp::ONE, x3, y3)));
    fails("x3 + 1", run(w(lam, x3 + Fp::ONE, y3)));
    fails("y3 + 1", run(w(lam, x3, y3 + Fp::ONE)));
    fails("result -(P + Q)", run(w(lam, x3, -y3)));
    // A forged slope with outputs consistent with it still breaks the slope relation.
    let l2 = lam + Fp::from(5);
    let x4 = l2.square() - p.x - q.x;
    let y4 = l2 * (p.x - x4) - p.y;
    fails("consistent forged slope", move |b: &mut Builder| {
        let e = chip(b);
        let pa: AccPoint = e.load_point(b, p).into();
        let qa: AccPoint = e.load_point(b, q).into();
        e.add_acc_with_witness(b, &pa, &qa, w(l2, x4, y4));
    });
}

/// The `Distinct` gate: `P + P` and `P + (−P)` are unsatisfiable, also when the second operand
/// carries the non-canonical representative `x + p` of the same x, and whatever inverse the
/// prover writes.
#[test]
fn add_of_equal_or_opposite_points_is_unsatisfiable() {
    let p = rnd_point(4);
    fails("P + P", move |b| {
        let e = chip(b);
        let pa = e.load_point(b, p);
        let pb = e.load_point(b, p);
        e.add_strict(b, &pa, &pb);
    });
    fails("P + (-P)", move |b| {
        let e = chip(b);
        let pa = e.load_point(b, p);
        let na = e.neg(b, &pa);
        e.add_strict(b, &pa, &na);
    });
    // (x + p, y) is the same point mod p with a proper (not canonical) x: D = ±p.
    let s = small_x_point();
    let xp = fe_to_big(&s.x) + modulus::<Fp>();
    for (first, name) in [(true, "P + P' (x' = x + p)"), (false, "P' + P")] {
        let xp = xp.clone();
        fails(name, move |b| {
            let e = chip(b);
            let pa: AccPoint = e.load_point(b, s).into();
            let x2 = e.fp.load_uint(b, &xp).expect("x + p < 2^256");
            let pp = AccPoint::unchecked_for_tests(x2, pa.y().clone());
            if first {
                e.add_acc(b, &pa, &pp);
            } else {
                e.add_acc(b, &pp, &pa);
            }
        });
    }
    // The prover writes any inverse for P + P: the product with D = 0 is never 1.
    for w in [Native::ONE, Native::from(12345u64), -Native::ONE] {
        let w_index = Arc::new(AtomicUsize::new(0));
        let wi = w_index.clone();
        let c = BuilderCircuit::new(params(), move |b| {
            let e = chip(b);
            let pa: AccPoint = e.load_point(b, p).into();
            let pb: AccPoint = e.load_point(b, p).into();
            let before = b.advice_cells().len();
            e.add_acc(b, &pa, &pb);
            // The inverse cell W is column 1 of the slope block's first row.
            let first = b.advice_cells()[before..]
                .iter()
                .map(|(c, _)| c.row)
                .min()
                .expect("cells");
            let idx = b
                .advice_cells()
                .iter()
                .position(|(c, _)| c.row == first && c.col == 1)
                .expect("W cell");
            wi.store(idx, Ordering::SeqCst);
        });
        let k = k_of(&c);
        let idx = w_index.load(Ordering::SeqCst);
        let t = c.tampered(idx, w);
        assert!(mock_verify(k, &t).is_err(), "P + P with W = {w:?}");
    }
    // A forged doubling is rejected too.
    fails("double with forged result", move |b| {
        let e = chip(b);
        let pa = e.load_point(b, p);
        let d = e.double(b, &pa);
        let want = e.constant_point(b, (p + p + p).to_affine());
        e.assert_equal(b, &d, &want);
    });
}

/// A chained run whose second term makes a chord degenerate (`T₂ = ±(P₀ + T₁)`) is
/// unsatisfiable, and a run compared with a wrong sum fails.
#[test]
fn chained_run_rejects_degenerate_and_wrong_sums() {
    let (p0, t1) = (rnd_point(30), rnd_point(31));
    let s = (p0 + t1).to_affine();
    for t2 in [s, -s] {
        fails("degenerate second chord", move |b| {
            let e = chip(b);
            let a: AccPoint = e.load_point(b, p0).into();
            let t: AccPoint = e.load_point(b, t1).into();
            let u: AccPoint = e.load_point(b, t2).into();
            e.add_run(b, a, &[t, u]);
        });
    }
    let t2 = rnd_point(32);
    fails("run vs wrong sum", move |b| {
        let e = chip(b);
        let a: AccPoint = e.load_point(b, p0).into();
        let t: AccPoint = e.load_point(b, t1).into();
        let u: AccPoint = e.load_point(b, t2).into();
        let r = e.add_run(b, a, &[t, u]).finish(&e, b);
        let want = e.constant_point(b, (p0 + t1 + t2 + t2).to_affine());
        e.assert_equal(b, &r, &want);
    });
}

#[test]
fn wrong_scalar_results_are_rejected() {
    let p = rnd_point(7);
    let k = Fq::random(ChaCha20Rng::seed_from_u64(8));
    fails("scalar_mul vs (k + 1)·P", move |b| {
        let e = chip(b);
        let pa = e.load_point(b, p);
        let ka: Proper<Fq> = e.fq.load_reduced(b, k).into();
        let r = e.scalar_mul(b, &pa, &ka);
        let want = e.constant_point(b, (p * (k + Fq::ONE)).to_affine());
        e.assert_equal(b, &r, &want);
    });
    fails("fixed_base_mul vs (k + 1)·G", move |b| {
        let e = chip(b);
        let ka: Proper<Fq> = e.fq.load_reduced(b, k).into();
        let g = Secp256k1Affine::from(Secp256k1::generator());
        let r = e.fixed_base_mul(b, &ka, g);
        let want = e.constant_point(b, (g * (k + Fq::ONE)).to_affine());
        e.assert_equal(b, &r, &want);
    });
    fails("fixed_base_mul of 0 (identity)", move |b| {
        let e = chip(b);
        let ka: Proper<Fq> = e.fq.load_reduced(b, Fq::ZERO).into();
        let g = Secp256k1Affine::from(Secp256k1::generator());
        e.fixed_base_mul(b, &ka, g);
    });
}

/// Every sampled advice cell of a small ecc circuit (load, additions, a chained run, double,
/// neg, select, a window table and a constant one with lookup selections, a full recoding and a
/// short one) is caught when changed.
#[test]
fn mutation_small_ecc_circuit() {
    let (p, q) = (rnd_point(9), rnd_point(10));
    let k = Fq::random(ChaCha20Rng::seed_from_u64(33));
    // Smaller table (L = 10) so each of the MockProver runs is quick.
    let mut small = LayoutParams::new(10);
    small.extra_gates = true;
    let circuit = BuilderCircuit::new(small, move |b| {
        let e = chip(b);
        let pa = e.load_point(b, p);
        let qa = e.load_point(b, q);
        let s = e.add_strict(b, &pa, &qa);
        let d = e.double(b, &s);
        let n = e.neg(b, &d);
        let bit = e.fp.range.load_bit(b, true);
        let sel = e.select(b, &bit, &n, &pa);
        let table = e.odd_table(b, &sel.clone().into(), WINDOW);
        let lt = e.load_lookup_table(b, table);
        let gt = e.constant_odd_table(b, Secp256k1Affine::generator(), WINDOW);
        let ka: Proper<Fq> = e.fq.load_reduced(b, k).into();
        let wins = odd_windows(&e.fq, b, &ka, WINDOW);
        let lo = e.fq.range.load_witness(b, Native::from(0x35u64));
        let short = odd_windows_short(&e.fq, b, &lo, 7);
        let t1 = e.select_lookup(b, &lt, &wins[3].digit, 0);
        let t2 = e.select_lookup(b, &gt, &short[1].digit, short[1].plus);
        let acc: AccPoint = qa.into();
        let r = e.add_run(b, acc.clone(), &[t1, acc.clone(), t2]);
        r.finish(&e, b);
    });
    let k = k_of(&circuit);
    mutation_test(k, &circuit, 200, 7).assert_all_caught("ecc mutation", 199);
}

/// The point-table lookup: the right entry passes; another entry of the same table, the same
/// index of another table, nothing (all-zero outputs), or an index past the table (digit +
/// shift ≥ 16) fails.
#[test]
fn lookup_selection_rejects_wrong_entry_and_wrong_table() {
    let (p, q) = (rnd_point(12), rnd_point(13));
    // lo = 0b0101_0010: windows 2 and 5 (top, 3 bits, index + 8).
    let run = move |from_other: bool, pick: Option<usize>, plus: u64| {
        move |b: &mut Builder| {
            let e = chip(b);
            let [la, lq] = common::two_lookup_tables(&e, b, p, q);
            let lo = e.fq.range.load_witness(b, Native::from(0b0101_0010u64));
            let d = odd_windows_short(&e.fq, b, &lo, 7)[0].digit;
            if from_other {
                // Query table `la` with outputs copied from entry `pick` of `lq`.
                let mut forged = la.clone();
                forged.entries = lq.entries.clone();
                e.select_lookup_pick(b, &forged, &d, plus, pick);
            } else {
                let s = e.select_lookup_pick(b, &la, &d, plus, pick);
                if pick == Some(2 + plus as usize) {
                    let s = s.finish(&e, b);
                    let m = 2 * (2 + plus as i64) - 15;
                    let pt = Secp256k1::from(p) * Fq::from(m.unsigned_abs());
                    let want = if m < 0 { -pt } else { pt }.to_affine();
                    let want = e.constant_point(b, want);
                    e.assert_equal(b, &s, &want);
                }
            }
        }
    };
    ok(run(false, Some(2), 0));
    ok(run(false, Some(10), 8));
    fails("entry 3 for index 2", run(false, Some(3), 0));
    fails("entry 2 for index 10", run(false, Some(2), 8));
    fails("all-zero outputs", run(false, None, 0));
    fails("entry 2 of another table", run(true, Some(2), 0));
    // Index 2 + 14 = 16: no such entry in a 16-entry table, whatever the outputs.
    fails("index past the table", run(false, Some(15), 14));
}

/// Every cell of the signed-odd recodings (a full scalar, even so that it is recoded as
/// `k + n`, and a short odd scalar) is caught when changed: the parity bit, the low-limb
/// carry `t`, the digit groups and their running sums, the lin rows of both identities.
#[test]
fn mutation_of_the_recodings_all_caught() {
    let k = Fq::from(0x1234_5678u64) * Fq::from(2u64); // even
    let mut small = LayoutParams::new(10);
    small.extra_gates = true;
    let circuit = BuilderCircuit::new(small, move |b| {
        let e = chip(b);
        let ka: Proper<Fq> = e.fq.load_reduced(b, k).into();
        odd_windows(&e.fq, b, &ka, WINDOW);
        let lo = e.fq.range.load_witness(b, Native::from(0x6d_u64));
        odd_windows_short(&e.fq, b, &lo, 7);
    });
    let k = k_of(&circuit);
    mutation_test(k, &circuit, 400, 11).assert_all_caught("recoding mutation", 100);
}

/// The recodings at windows 3 and 5 (digit groups of 90/87/81 and 90/90/80 bits, a 4-bit
/// low-limb carry `t`): every cell is caught when changed, for an even scalar (recoded as
/// `k + n`) and an odd one.
#[test]
fn mutation_of_the_w3_w5_recodings_all_caught() {
    use batch_ecdsa_circuits::ecc::odd_windows;
    for (w, k) in [
        (3u32, Fq::from(0x1234_5678u64) * Fq::from(2u64)),
        (5, -Fq::from(3u64)),
        (5, Fq::from(0x9abc_def0u64)),
    ] {
        let mut small = LayoutParams::new(10);
        small.extra_gates = true;
        small.window_bits.push(w);
        let circuit = BuilderCircuit::new(small, move |b| {
            let e = chip(b);
            let ka: Proper<Fq> = e.fq.load_reduced(b, k).into();
            odd_windows(&e.fq, b, &ka, w);
        });
        let kk = k_of(&circuit);
        let rep = mutation_test(kk, &circuit, 300, 13 + w as u64);
        rep.assert_all_caught(&format!("w = {w} recoding mutation"), 100);
    }
}

/// A 32-entry (w = 5) table: the right entry passes, a neighbouring entry and an index past
/// the table (digit + shift ≥ 32) fail.
#[test]
fn w5_lookup_selection_rejects_wrong_entry_and_index_past_the_table() {
    let p = rnd_point(14);
    let run = move |pick: Option<usize>, digit: u64, plus: u64| {
        move |b: &mut Builder| {
            let e = chip(b);
            let pa: AccPoint = e.load_point(b, p).into();
            let t = e.odd_table(b, &pa, 5);
            let lt = e.load_lookup_table(b, t);
            let d = e.fq.range.load_range_checked(b, Native::from(digit), 5);
            let s = e.select_lookup_pick(b, &lt, &d, plus, pick);
            if pick == Some((digit + plus) as usize) {
                let s = s.finish(&e, b);
                let m = 2 * (digit + plus) as i64 - 31;
                let pt = Secp256k1::from(p) * Fq::from(m.unsigned_abs());
                let want = if m < 0 { -pt } else { pt }.to_affine();
                let want = e.constant_point(b, want);
                e.assert_equal(b, &s, &want);
            }
        }
    };
    let verify5 = |f: Box<dyn Fn(&mut Builder) + Send + Sync>| {
        let mut pr = params();
        pr.window_bits.push(5);
        let c = BuilderCircuit::new(pr, f);
        mock_verify(k_of(&c), &c)
    };
    assert!(verify5(Box::new(run(Some(27), 27, 0))).is_ok(), "entry 27");
    assert!(verify5(Box::new(run(Some(31), 23, 8))).is_ok(), "entry 31");
    assert!(
        verify5(Box::new(run(Some(26), 27, 0))).is_err(),
        "entry 26 for 27"
    );
    assert!(
        verify5(Box::new(run(Some(31), 24, 8))).is_err(),
        "index 32: past the table"
    );
}
