//! The footprint check (`batch_ecdsa_circuits::footprint`) on both circuits at several B and
//! every window, and on a deliberately broken gate: every cell a gate reads is assigned and
//! constrained.

use batch_ecdsa_circuits::ecdsa::batch::{batch_params, BatchEcdsaCircuit};
use batch_ecdsa_circuits::ecdsa::naive::NaiveEcdsaCircuit;
use batch_ecdsa_circuits::test_utils::{ecdsa_witness, Mutable};

#[test]
fn batch_circuit_footprint_every_window() {
    for w in [3u32, 4, 5] {
        for n in [1usize, 2, 3] {
            let sigs = (0..n as u64).map(|i| ecdsa_witness(100 + i)).collect();
            let c = BatchEcdsaCircuit::new(batch_params(16, w), sigs, w);
            let r = c.footprint();
            println!(
                "batch B={n} w={w}: {} reads, {} footprint cells",
                r.reads,
                r.footprint.len()
            );
            r.result()
                .unwrap_or_else(|e| panic!("batch B={n} w={w}: {e}"));
        }
    }
}

#[test]
fn naive_circuit_footprint_every_window() {
    for w in [3u32, 4, 5] {
        let sigs = vec![ecdsa_witness(7), ecdsa_witness(8)];
        let c =
            NaiveEcdsaCircuit::new(batch_ecdsa_circuits::layout::LayoutParams::new(16), sigs, w);
        let r = c.footprint();
        println!("naive B=2 w={w}: {} reads", r.reads);
        r.result().unwrap_or_else(|e| panic!("naive w={w}: {e}"));
    }
}

/// The layout before the fix (relation blocks leave absent operand slots unassigned) fails
/// the check, and the violation names the gate, row, column and rotation.
#[test]
fn unpinned_relation_blocks_fail_the_check() {
    use batch_ecdsa_circuits::layout::adversary::{with_adversary, Adversary};
    let c = BatchEcdsaCircuit::new(batch_params(16, 5), vec![ecdsa_witness(3)], 5);
    let adv = Adversary {
        unpinned: true,
        ..Adversary::default()
    };
    let r = with_adversary(adv, || c.footprint());
    let e = r.result().expect_err("the unpinned layout must fail");
    println!("{e}");
    assert!(e.contains("gate 'field relation'"), "{e}");
    assert!(e.contains("rotation"), "{e}");
}

mod common;
use batch_ecdsa_circuits::ecc::EccChip;
use batch_ecdsa_circuits::footprint::Violation;
use batch_ecdsa_circuits::layout::adversary::Adversary;
use batch_ecdsa_circuits::layout::{Builder, Native, ALPHA, LINEAR_ROW};
use batch_ecdsa_circuits::test_utils::{footprint_mutation_test, mock_verify};
use common::*;
use ff::Field;
use group::Curve;
use halo2curves::secp256k1::{Fp, Fq, Secp256k1};

/// Every relation shape the chips use: products with and without `minus`, factors with and
/// without a second product, linear relations, relations without a new value, the curve
/// equation, a chord addition and a doubling.
fn relation_shapes(b: &mut Builder) {
    let fp = fp_chip(b);
    let fq = fq_chip(b);
    let ecc = EccChip::new(fp.clone(), fq.clone());
    let x = fp.load_reduced(b, Fp::from(3));
    let y = fp.load_reduced(b, Fp::from(5));
    let m = fp.mul(b, &x, &y);
    let i = fp.inv(b, &y);
    fp.div_by_nonzero(b, &x, &y);
    fp.reduce(b, &m);
    let one = fp.load_constant(b, Fp::ONE);
    fp.assert_mul_eq(b, &y, &i, &one);
    let g = Secp256k1::generator().to_affine();
    let p = ecc.load_point(b, g);
    let q = ecc.load_point(b, (Secp256k1::generator() * Fq::from(3)).to_affine());
    ecc.add_strict(b, &p, &q);
    ecc.double(b, &p);
}

#[test]
fn every_footprint_cell_of_every_relation_shape_is_caught() {
    let c = circuit(relation_shapes);
    mock_verify(K, &c).expect("honest relation shapes");
    let rep = footprint_mutation_test(K, &c, usize::MAX, 3, &Adversary::default());
    println!("pinned: {rep}");
    assert!(rep.total > 500, "the footprint covers the blocks: {rep}");
    assert_eq!(
        rep.caught, rep.total,
        "escaped footprint cells {:?}",
        rep.escaped
    );
}

/// The same mutation on the layout before the fix finds the holes: single changes of an
/// unassigned slot multiplied by another unassigned (zero) slot go unnoticed.
#[test]
fn footprint_mutation_finds_the_unpinned_holes() {
    let c = circuit(relation_shapes);
    let unpinned = Adversary {
        unpinned: true,
        ..Adversary::default()
    };
    let rep = footprint_mutation_test(K, &c, usize::MAX, 3, &unpinned);
    println!("unpinned: {rep}");
    assert!(
        !rep.escaped.is_empty(),
        "the unpinned layout must have escapes: {rep}"
    );
}

/// A deliberately broken gate: a lin row whose `α = 1` reads a column-0 cell nobody assigns,
/// and a cell that no gate, lookup or copy constrains.
#[test]
fn a_broken_block_is_named_by_the_check() {
    let c = circuit(|b| {
        let row = b.new_rows(1);
        b.enable(LINEAR_ROW, row);
        b.set_fixed(ALPHA, row, Native::ONE);
        b.assign(row, 2, Native::ZERO);
        let dangling = b.new_rows(1);
        b.assign(dangling, 3, Native::from(7u64));
    });
    let r = c.footprint();
    let e = r
        .result()
        .expect_err("the broken block must fail the check");
    println!("{e}");
    assert!(
        r.violations.iter().any(|v| matches!(v,
            Violation::UnassignedRead { gate, rotation: 0, column, .. }
                if gate.starts_with("gate 'lin row'") && column.contains("column 0"))),
        "{e}"
    );
    assert!(
        r.violations
            .iter()
            .any(|v| matches!(v, Violation::Unconstrained { .. })),
        "{e}"
    );
    assert!(mock_verify(K, &c).is_err(), "mock_verify runs the check");
}

/// A lin row with a missing input whose coefficient is non-zero pins it to the constant 0
/// (`RangeChip::linear_row`): the check passes and the row computes with 0.
#[test]
fn lin_row_pins_a_missing_input_it_reads() {
    let c = circuit(|b| {
        let range = fp_chip(b).range;
        let x = range.load_witness(b, Native::from(5u64));
        let out = range.linear_row(
            b,
            None,
            Some(&x),
            Native::ONE,
            Native::from(2u64),
            Native::ONE,
            Native::ZERO,
        );
        let want = b.constant(Native::from(10u64));
        b.constrain_equal(&out, &want);
    });
    c.footprint().result().expect("pinned lin row");
    mock_verify(K, &c).expect("0 + 2·5 + 0·5 = 10");
}
