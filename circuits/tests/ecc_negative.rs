//! ecc chip: negative tests (off-curve and non-canonical points, forged slopes and results,
//! degenerate additions, wrong table indices, all-zero indicators) and witness mutation.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use batch_ecdsa_circuits::bigint::{fe_to_big, modulus};
use batch_ecdsa_circuits::config::BuilderCircuit;
use batch_ecdsa_circuits::ecc::{scalar_windows, AccPoint, EccChip};
use batch_ecdsa_circuits::field::FieldChip;
use batch_ecdsa_circuits::layout::{Builder, LayoutParams, Native};
use batch_ecdsa_circuits::range::RangeChip;
use batch_ecdsa_circuits::test_utils::{mock_verify, mutation_test};
use ff::Field;
use group::{Curve, Group};
use halo2curves::secp256k1::{Fp, Fq, Secp256k1, Secp256k1Affine};
use num_bigint::BigUint;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;

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

fn k_of(c: &BuilderCircuit) -> u32 {
    c.params.min_k(c.builder().rows() as usize)
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
    let run = move |lam: Fp, res: Option<(Fp, Fp)>| {
        move |b: &mut Builder| {
            let e = chip(b);
            let (pa, qa) = (e.load_point(b, p), e.load_point(b, q));
            e.add_with_witness(b, &pa, &qa, lam, res);
        }
    };
    ok(run(lam, None));
    ok(run(lam, Some((x3, y3))));
    fails("slope + 1", run(lam + Fp::ONE, None));
    fails("x3 + 1", run(lam, Some((x3 + Fp::ONE, y3))));
    fails("y3 + 1", run(lam, Some((x3, y3 + Fp::ONE))));
    fails("result -(P + Q)", run(lam, Some((x3, -y3))));
    // A forged slope with outputs consistent with it still breaks the slope relation.
    let l2 = lam + Fp::from(5);
    let x4 = l2.square() - p.x - q.x;
    let y4 = l2 * (p.x - x4) - p.y;
    fails("consistent forged slope", run(l2, Some((x4, y4))));
}

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
    // The prover sets the is-equal bit of P + P to 0 (and any inverse): still rejected.
    let z_index = Arc::new(AtomicUsize::new(0));
    let zi = z_index.clone();
    let mut c = BuilderCircuit::new(params(), move |b| {
        let e = chip(b);
        let pa = e.load_point(b, p);
        let pb = e.load_point(b, p);
        // is_equal assigns 6 limb copies, the inverse, then the bit z.
        zi.store(b.advice_cells().len() + 7, Ordering::SeqCst);
        e.add_strict(b, &pa, &pb);
    });
    let k = k_of(&c);
    let idx = z_index.load(Ordering::SeqCst);
    assert_eq!(
        c.builder().advice_cells()[idx].1,
        Native::ONE,
        "z of P + P is 1"
    );
    c.tamper = Some((idx, -Native::ONE));
    assert!(mock_verify(k, &c).is_err(), "forced z = 0 for P + P");
    // A forged doubling slope is rejected too.
    fails("double with forged result", move |b| {
        let e = chip(b);
        let pa = e.load_point(b, p);
        let d = e.double(b, &pa);
        let want = e.constant_point(b, (p + p + p).to_affine());
        e.assert_equal(b, &d, &want);
    });
}

#[test]
fn table_selection_rejects_wrong_index_and_bad_indicators() {
    let (p, c) = (rnd_point(5), rnd_point(6));
    let k = Fq::from(0x5a5a_u64); // lowest 3-bit window: 2
    let consts: Vec<Secp256k1Affine> = (1..=8u64)
        .map(|i| (Secp256k1::generator() * Fq::from(i)).to_affine())
        .collect();
    let run = move |e_var: Option<Vec<u64>>, e_const: Option<Vec<u64>>| {
        let consts = consts.clone();
        move |b: &mut Builder| {
            let e = chip(b);
            let pa = e.load_point(b, p);
            let table = e.offset_table(b, &pa, c, 8);
            let ka = e.fq.load_reduced(b, k);
            let d = scalar_windows(&e.fq, b, &ka, 3)[0].digit;
            let ind = |v: &Vec<u64>| v.iter().map(|x| Native::from(*x)).collect::<Vec<_>>();
            // Forged indicators: the outputs are the (consistent) combination of the entries
            // they pick and are compared with nothing, so only the one-hot gate can reject them.
            match &e_var {
                None => {
                    let s = e.select_from_table(b, &table, &d);
                    let want = (Secp256k1::from(c) + p * Fq::from(2)).to_affine();
                    let want = e.constant_point(b, want);
                    e.assert_equal(b, &s, &want);
                }
                Some(v) => {
                    e.select_from_table_with_indicator(b, &table, &d, &ind(v));
                }
            }
            match &e_const {
                None => {
                    let s = e.select_constant(b, &consts, &d);
                    let want = e.constant_point(b, consts[2]);
                    e.assert_equal(b, &s, &want);
                }
                Some(v) => {
                    e.select_constant_with_indicator(b, &consts, &d, &ind(v));
                }
            }
        }
    };
    let one_hot = |i: usize| (0..8).map(|j| (i == j) as u64).collect::<Vec<_>>();
    ok(run(None, None));
    ok(run(Some(one_hot(2)), Some(one_hot(2))));
    fails(
        "witness table, index 3 for digit 2",
        run(Some(one_hot(3)), None),
    );
    fails(
        "const table, index 3 for digit 2",
        run(None, Some(one_hot(3))),
    );
    fails(
        "witness table, all-zero indicator",
        run(Some(vec![0; 8]), None),
    );
    fails(
        "const table, all-zero indicator",
        run(None, Some(vec![0; 8])),
    );
    let mut two = one_hot(2);
    two[0] = 1;
    fails("witness table, two ones", run(Some(two.clone()), None));
    fails("const table, two ones", run(None, Some(two)));
    // Non-boolean indicator with the right sums: e_1 = 2, e_0 = −1 (Σ = 1, Σ i·e = 2).
    let mut nb = [0u64; 8];
    nb[1] = 2;
    let nbv: Vec<Native> = nb
        .iter()
        .enumerate()
        .map(|(i, x)| {
            if i == 0 {
                -Native::ONE
            } else {
                Native::from(*x)
            }
        })
        .collect();
    let nbv2 = nbv.clone();
    fails("witness table, non-boolean indicator", move |b| {
        let e = chip(b);
        let pa = e.load_point(b, p);
        let table = e.offset_table(b, &pa, c, 8);
        let ka = e.fq.load_reduced(b, k);
        let d = scalar_windows(&e.fq, b, &ka, 3)[0].digit;
        e.select_from_table_with_indicator(b, &table, &d, &nbv);
    });
    let consts2: Vec<Secp256k1Affine> = (1..=8u64)
        .map(|i| (Secp256k1::generator() * Fq::from(i)).to_affine())
        .collect();
    fails("const table, non-boolean indicator", move |b| {
        let e = chip(b);
        let ka = e.fq.load_reduced(b, k);
        let d = scalar_windows(&e.fq, b, &ka, 3)[0].digit;
        e.select_constant_with_indicator(b, &consts2, &d, &nbv2);
    });
}

#[test]
fn wrong_scalar_results_are_rejected() {
    let p = rnd_point(7);
    let k = Fq::random(ChaCha20Rng::seed_from_u64(8));
    fails("scalar_mul vs (k + 1)·P", move |b| {
        let e = chip(b);
        let pa = e.load_point(b, p);
        let ka = e.fq.load_reduced(b, k);
        let r = e.msm(
            b,
            std::slice::from_ref(&pa),
            std::slice::from_ref(&ka),
            None,
            4,
        );
        let want = e.constant_point(b, (p * (k + Fq::ONE)).to_affine());
        e.assert_equal(b, &r, &want);
    });
    fails("fixed_base_mul vs (k + 1)·G", move |b| {
        let e = chip(b);
        let ka = e.fq.load_reduced(b, k);
        let g = Secp256k1Affine::from(Secp256k1::generator());
        let r = e.fixed_base_mul(b, &ka, g);
        let want = e.constant_point(b, (g * (k + Fq::ONE)).to_affine());
        e.assert_equal(b, &r, &want);
    });
    fails("fixed_base_mul of 0 (identity)", move |b| {
        let e = chip(b);
        let ka = e.fq.load_reduced(b, Fq::ZERO);
        let g = Secp256k1Affine::from(Secp256k1::generator());
        e.fixed_base_mul(b, &ka, g);
    });
}

/// Every sampled advice cell of a small ecc circuit (load, add, double, neg, select, a
/// 4-entry-window table and both selections, and a short scalar's windows) is caught when changed.
#[test]
fn mutation_small_ecc_circuit() {
    let (p, q, c) = (rnd_point(9), rnd_point(10), rnd_point(11));
    let k = Fq::from(0x3c5u64);
    // Smaller table (L = 10) so each of the MockProver runs is quick.
    let mut small = LayoutParams::new(10);
    small.window_bits = vec![1, 3];
    let circuit = BuilderCircuit::new(small, move |b| {
        let e = chip(b);
        let pa = e.load_point(b, p);
        let qa = e.load_point(b, q);
        let s = e.add_strict(b, &pa, &qa);
        let d = e.double(b, &s);
        let n = e.neg(b, &d);
        let bit = e.fp.range.load_bit(b, true);
        let sel = e.select(b, &bit, &n, &pa);
        // The accumulator table and selection the MSM uses (y proper), then y made canonical.
        let table = e.offset_table_acc(b, &sel, c, 8);
        let ka = e.fq.load_reduced(b, k);
        let wins = scalar_windows(&e.fq, b, &ka, 3);
        let t = e
            .select_from_acc_table(b, &table, &wins[1].digit)
            .finish(&e, b);
        let consts: Vec<Secp256k1Affine> = (1..=8u64)
            .map(|i| (Secp256k1::generator() * Fq::from(i)).to_affine())
            .collect();
        let u = e.select_constant(b, &consts, &wins[2].digit);
        let v = e.add_strict(b, &t, &u);
        let acc: AccPoint = v.into();
        let w2 = e.double_and_add_acc(b, &acc, &qa.x, &qa.y);
        w2.finish(&e, b);
    });
    let k = k_of(&circuit);
    let rep = mutation_test(k, &circuit, 200, 7);
    println!("ecc mutation (k = {k}): {rep}");
    assert!(rep.total >= 200);
    assert_eq!(rep.caught, rep.total, "escaped cells {:?}", rep.escaped);
}

/// The point-table lookup: the right entry passes; another entry of the same table, the same
/// index of another table, or nothing (all-zero outputs) for the digit fails.
#[test]
fn lookup_selection_rejects_wrong_entry_and_wrong_table() {
    let (p, q, c) = (rnd_point(12), rnd_point(13), rnd_point(14));
    let k = Fq::from(0x5a5a_u64); // lowest 3-bit window: 2
                                  // (which table the outputs come from, which entry)
    let run = move |from_other: bool, pick: Option<usize>| {
        move |b: &mut Builder| {
            let e = chip(b);
            let pa = e.load_point(b, p);
            let qa = e.load_point(b, q);
            let ta = e.offset_table_acc(b, &pa, c, 8);
            let tq = e.offset_table_acc(b, &qa, c, 8);
            let la = e.load_lookup_table(b, ta);
            let lq = e.load_lookup_table(b, tq);
            let ka = e.fq.load_reduced(b, k);
            let d = scalar_windows(&e.fq, b, &ka, 3)[0].digit;
            if from_other {
                // Query table `la` with outputs copied from entry `pick` of `lq`.
                let mut forged = la.clone();
                forged.entries = lq.entries.clone();
                e.select_lookup_pick(b, &forged, &d, pick);
            } else {
                let s = e.select_lookup_pick(b, &la, &d, pick);
                if pick == Some(2) {
                    let s = s.finish(&e, b);
                    let want = (Secp256k1::from(c) + p * Fq::from(2)).to_affine();
                    let want = e.constant_point(b, want);
                    e.assert_equal(b, &s, &want);
                }
            }
        }
    };
    ok(run(false, Some(2)));
    fails("entry 3 for digit 2", run(false, Some(3)));
    fails("all-zero outputs", run(false, None));
    fails("entry 2 of another table", run(true, Some(2)));
}
