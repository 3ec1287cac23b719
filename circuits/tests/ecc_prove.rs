//! A real proof (KZG/SHPLONK over BN254) of a small ecc circuit that uses the point-table
//! lookup and both one-hot selection gates, accumulator additions and the final canonical y:
//! keygen, prove, verify; a false claim does not verify. (A first version of the lookup, whose
//! table side had degree 2, passed MockProver but its real proofs did not verify; see CELLS.md.)

mod common;

use batch_ecdsa_circuits::config::BuilderCircuit;
use batch_ecdsa_circuits::ecc::{scalar_windows, EccChip};
use batch_ecdsa_circuits::field::FieldChip;
use batch_ecdsa_circuits::layout::{Builder, LayoutParams};
use batch_ecdsa_circuits::range::RangeChip;
use batch_ecdsa_circuits::test_utils::mock_verify;
use ff::Field;
use group::Curve;
use halo2curves::secp256k1::{Fq, Secp256k1, Secp256k1Affine};
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;

fn params() -> LayoutParams {
    let mut p = LayoutParams::new(10);
    p.window_bits = vec![1, 3];
    p
}

/// table[d] (point-table lookup) + table[d'] (one-hot witness table) + const[d''] (constant
/// table), compared with `want`.
fn circuit(p: Secp256k1Affine, c: Secp256k1Affine, k: Fq, want: Secp256k1Affine) -> BuilderCircuit {
    BuilderCircuit::new(params(), move |b: &mut Builder| {
        let r = RangeChip::new(b.params.clone());
        let e = EccChip::new(FieldChip::new(r.clone(), 0), FieldChip::new(r, 1));
        let pa = e.load_point(b, p);
        let table = e.offset_table_acc(b, &pa, c, 8);
        let ka = e.fq.load_reduced(b, k);
        let wins = scalar_windows(&e.fq, b, &ka, 3);
        let lt = e.load_lookup_table(b, table.clone());
        let s1 = e.select_lookup(b, &lt, &wins[0].digit);
        let s2 = e.select_from_acc_table(b, &table, &wins[1].digit);
        let consts: Vec<Secp256k1Affine> = (1..=8u64)
            .map(|i| (Secp256k1::generator() * Fq::from(i)).to_affine())
            .collect();
        let s3 = e.select_constant(b, &consts, &wins[2].digit);
        let a = e.add_acc(b, &s1.x, &s1.y, &s2.x, &s2.y);
        let a = e.add_acc(b, &a.x, &a.y, &s3.x, &s3.y).finish(&e, b);
        let w = e.constant_point(b, want);
        e.assert_equal(b, &a, &w);
    })
}

#[test]
fn ecc_real_proof_with_lookup_and_selection_gates() {
    let mut rng = ChaCha20Rng::seed_from_u64(21);
    let g = Secp256k1::generator();
    let (p, c) = (
        (g * Fq::random(&mut rng)).to_affine(),
        (g * Fq::random(&mut rng)).to_affine(),
    );
    let k = Fq::from(0b011_110_101u64); // windows 5, 6, 3
    let want = Secp256k1::from(c) * Fq::from(2)
        + Secp256k1::from(p) * Fq::from(5 + 6)
        + g * Fq::from(3 + 1);
    let good = circuit(p, c, k, want.to_affine());
    let kk = good.params.min_k(good.builder().rows() as usize);
    mock_verify(kk, &good).expect("mock");
    assert!(common::prove_and_verify(kk, &good, good.clone()));
    let bad = circuit(p, c, k, (want + g).to_affine());
    let ok = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        common::prove_and_verify(kk, &good, bad)
    }))
    .unwrap_or(false);
    assert!(!ok, "a false sum verified");
}
