//! A real proof (KZG/SHPLONK over BN254) of a small ecc circuit that uses every ecc gate: the
//! point-table lookup (a witness window table with a shifted index and a constant table), the
//! relation blocks of a chained run (factor blocks with the `Distinct` gate, two-product
//! blocks), a doubling and the final canonical coordinates: keygen, prove, verify; a false
//! claim does not verify. (A first version of the lookup, whose table side had degree 2,
//! passed MockProver but its real proofs did not verify; see CELLS.md, hence a real proof.)

mod common;

use batch_ecdsa_circuits::ecc::{odd_windows_short, AccPoint, EccChip, WINDOW};
use batch_ecdsa_circuits::field::FieldChip;
use batch_ecdsa_circuits::layout::{Builder, LayoutParams, Native};
use batch_ecdsa_circuits::range::RangeChip;
use batch_ecdsa_circuits::test_utils::mock_verify;
use batch_ecdsa_circuits::test_utils::BuilderCircuit;
use ff::Field;
use group::Curve;
use halo2curves::secp256k1::{Fq, Secp256k1, Secp256k1Affine};
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;

fn params() -> LayoutParams {
    LayoutParams::new(10)
}

/// `2·(table_P[d₀] + table_P[d₁ + 8]) + table_G[d₀]` for the windows of `z = 2·lo + 1`
/// (`lo = 0b101_0110`: digits 6 and 5, the top one shifted by 8), compared with `want`.
fn circuit(p: Secp256k1Affine, want: Secp256k1Affine) -> BuilderCircuit {
    BuilderCircuit::new(params(), move |b: &mut Builder| {
        let r = RangeChip::new(b.params.clone());
        let e = EccChip::new(FieldChip::new(r.clone(), 0), FieldChip::new(r, 1));
        let pa: AccPoint = e.load_point(b, p).into();
        let table = e.odd_table(b, &pa, WINDOW);
        let lt = e.load_lookup_table(b, table);
        let gt = e.constant_odd_table(b, Secp256k1Affine::generator(), WINDOW);
        let lo = e.fq.range.load_witness(b, Native::from(0b101_0110u64));
        let wins = odd_windows_short(&e.fq, b, &lo, 7);
        let s1 = e.select_lookup(b, &lt, &wins[0].digit, wins[0].plus);
        let s2 = e.select_lookup(b, &lt, &wins[1].digit, wins[1].plus);
        let s3 = e.select_lookup(b, &gt, &wins[0].digit, 0);
        let a = e.add_run(b, s1, &[s2]);
        let a = e.double_acc(b, &a);
        let a = e.add_run(b, a, &[s3]).finish(&e, b);
        let w = e.constant_point(b, want);
        e.assert_equal(b, &a, &w);
    })
}

#[test]
fn ecc_real_proof_with_lookups_runs_and_doubling() {
    let mut rng = ChaCha20Rng::seed_from_u64(21);
    let g = Secp256k1::generator();
    let p = (g * Fq::random(&mut rng)).to_affine();
    // Index 6 → digit 2·6 − 15 = −3; index 5 + 8 = 13 → 11.
    let want = (Secp256k1::from(p) * (-Fq::from(3) + Fq::from(11))) * Fq::from(2) - g * Fq::from(3);
    let good = circuit(p, want.to_affine());
    let kk = good.min_k();
    mock_verify(kk, &good).expect("mock");
    assert!(common::prove_and_verify(kk, &good, good.clone()));
    let bad = circuit(p, (want + g).to_affine());
    let ok = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        common::prove_and_verify(kk, &good, bad)
    }))
    .unwrap_or(false);
    assert!(!ok, "a false sum verified");
}
