//! The point-table lookup's key is `512·id + 2·(d + plus) + 2 (+1)`, computed in the
//! native field from the digit cell `d`. A query on table `P` whose digit is
//! `d' = d + 256·(id_Q − id_P)` has exactly the key of entry `d` of table `Q`, so the
//! point-table lookup alone would accept Q's entry as the selection from P's table. What
//! stops it is the range check of the digit (the `range chunk` lookup of the range row that
//! made it), so every digit passed to `select_lookup` must come from a range row.
//!
//! * `cross_table_selection_needs_only_an_unchecked_digit`: with a digit that is a bare
//!   witness cell (a hypothetical gadget misuse), the adversarial prover's cross-table
//!   selection is accepted by MockProver: the attack is real, so the next test can fail.
//! * `cross_table_selection_is_stopped_by_the_digit_range_check`: with the digit made as the
//!   circuits make theirs (a chunk of a copyable range row), the same attack is rejected, and
//!   the only failing constraint is the `range chunk` lookup (the point-table lookup and
//!   every gate hold), i.e. the range check is the barrier.

mod common;

use std::sync::{Arc, Mutex};

use batch_ecdsa_circuits::ecc::{AccPoint, EccChip};
use batch_ecdsa_circuits::layout::adversary::{with_adversary, Adversary};
use batch_ecdsa_circuits::layout::{AssignedValue, CellRef, Native};
use batch_ecdsa_circuits::range::{Chunking, RangeChecked};
use batch_ecdsa_circuits::test_utils::BuilderCircuit;
use common::*;
use ff::Field;
use group::Curve;
use halo2_proofs::dev::{MockProver, VerifyFailure};
use halo2curves::secp256k1::{Fq, Secp256k1, Secp256k1Affine};
use num_bigint::BigUint;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;

fn rnd_point(seed: u64) -> Secp256k1Affine {
    let d = Fq::random(ChaCha20Rng::seed_from_u64(seed));
    (Secp256k1::generator() * d).to_affine()
}

/// What the honest layout put where (recorded from a builder run).
#[derive(Clone, Debug, Default)]
struct Rec {
    /// Cells of the digit's copy class outside the query rows (range-row chunk and value
    /// cell, or the bare witness cell).
    digit_cells: Vec<CellRef>,
    /// Row of the query's x row (its y row is the next).
    query_row: u32,
    /// The query's output cells, x limbs then y limbs.
    outputs: Vec<CellRef>,
    id_p: u64,
    id_q: u64,
    /// Limb values (x then y) of entry `DIGIT` of Q's table.
    q_entry: Vec<Native>,
}

const DIGIT: u64 = 2;

/// The limb cells of a point, x then y.
fn xy_limbs(p: &AccPoint) -> Vec<AssignedValue> {
    p.x()
        .limbs()
        .iter()
        .chain(p.y().limbs().iter())
        .copied()
        .collect()
}

fn build(checked: bool, rec: Arc<Mutex<Rec>>) -> BuilderCircuit {
    let (p, q) = (rnd_point(21), rnd_point(22));
    circuit(move |b| {
        let e = EccChip::new(fp_chip(b), fq_chip(b));
        let [lp, lq] = two_lookup_tables(&e, b, p, q);
        let (digit, digit_cells) = if checked {
            let tag = b.params.window_tag(4).expect("4-bit section");
            let rr =
                e.fq.range
                    .copyable_rows(b, &BigUint::from(DIGIT), Chunking::new(4, 4, tag));
            let d = RangeChecked::unchecked_for_tests(rr.chunks[0], 4);
            (d, vec![rr.chunks[0].cell, rr.x.cell])
        } else {
            // The type system stops this in circuit code: only the range chip makes a
            // `RangeChecked`; the test-only constructor shows what the bound protects.
            let w = e.fq.range.load_witness(b, Native::from(DIGIT));
            (RangeChecked::unchecked_for_tests(w, 4), vec![w.cell])
        };
        let s = e.select_lookup(b, &lp, &digit, 0);
        let outputs: Vec<CellRef> = xy_limbs(&s).iter().map(|c| c.cell).collect();
        let q_entry = xy_limbs(&lq.entries[DIGIT as usize])
            .iter()
            .map(|c| c.value)
            .collect();
        *rec.lock().unwrap() = Rec {
            digit_cells,
            query_row: outputs[0].row,
            outputs,
            id_p: lp.id,
            id_q: lq.id,
            q_entry,
        };
    })
}

/// The adversary: the digit's whole copy class set to `d + 256·(id_Q − id_P)`, the query's
/// outputs set to entry `d` of Q's table.
fn adversary(rec: &Rec) -> Adversary {
    assert!(rec.id_q > rec.id_p);
    let shift = Native::from(256 * (rec.id_q - rec.id_p));
    let d_forged = Native::from(DIGIT) + shift;
    let mut adv = Adversary::default();
    for c in &rec.digit_cells {
        adv.cells.insert(*c, d_forged);
    }
    for part in 0..2u32 {
        let c = CellRef {
            phase: 0,
            row: rec.query_row + part,
            col: 0,
        };
        adv.cells.insert(c, d_forged);
    }
    for (c, v) in rec.outputs.iter().zip(rec.q_entry.iter()) {
        adv.cells.insert(*c, *v);
    }
    adv
}

fn run(
    checked: bool,
) -> (
    Result<(), Vec<VerifyFailure>>,
    Result<(), Vec<VerifyFailure>>,
) {
    let rec = Arc::new(Mutex::new(Rec::default()));
    let c = build(checked, rec.clone());
    let k = c.min_k().max(K);
    let honest = MockProver::run(k, &c, vec![]).expect("synthesis").verify();
    let r = rec.lock().unwrap().clone();
    // Sanity: the forged outputs differ from the honest ones (another point).
    let b = c.builder();
    let honest_vals: Vec<Native> = r
        .outputs
        .iter()
        .map(|o| {
            b.advice_cells()
                .iter()
                .find(|(cell, _)| cell == o)
                .expect("assigned")
                .1
        })
        .collect();
    assert_ne!(honest_vals, r.q_entry, "the attack selects another point");
    let forged = with_adversary(adversary(&r), || {
        MockProver::run(k, &c, vec![]).expect("synthesis").verify()
    });
    (honest, forged)
}

/// The honest run passes (else: how many failures it had).
fn assert_honest_ok(honest: &Result<(), Vec<VerifyFailure>>) {
    assert!(
        honest.is_ok(),
        "honest: {:?}",
        honest.as_ref().err().map(|f| f.len())
    );
}

#[test]
fn cross_table_selection_needs_only_an_unchecked_digit() {
    let (honest, forged) = run(false);
    assert_honest_ok(&honest);
    assert!(
        forged.is_ok(),
        "with an unchecked digit the cross-table selection passes: {:?}",
        forged
            .err()
            .map(|f| f.into_iter().take(3).collect::<Vec<_>>())
    );
}

#[test]
fn cross_table_selection_is_stopped_by_the_digit_range_check() {
    let (honest, forged) = run(true);
    assert_honest_ok(&honest);
    let f = forged.expect_err("the range-checked digit must stop the cross-table selection");
    let all_range = f
        .iter()
        .all(|x| matches!(x, VerifyFailure::Lookup { name, .. } if name == "range chunk"));
    assert!(
        all_range,
        "only the digit's range lookup may fail: {:?}",
        f.iter().take(4).collect::<Vec<_>>()
    );
    println!("{} failure(s), all `range chunk` lookups", f.len());
}
