//! Negative tests: tampered witnesses, out-of-range values, non-canonical values claimed
//! canonical, zero divisors, and exhaustive witness mutation of every operation.

mod common;
use std::sync::atomic::{AtomicU32, Ordering};

use batch_ecdsa_circuits::bigint::{fe_to_big, modulus};
use batch_ecdsa_circuits::field::{FieldChip, FieldValue};
use batch_ecdsa_circuits::layout::{Builder, Native};
use batch_ecdsa_circuits::test_utils::BuilderCircuit;
use batch_ecdsa_circuits::test_utils::{mock_verify, mutation_test, Mutable};
use common::*;
use ff::{Field, PrimeField};
use halo2curves::secp256k1::{Fp, Fq};
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::One;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;

fn rand_fp(seed: u64) -> Fp {
    Fp::random(&mut ChaCha20Rng::seed_from_u64(seed))
}

/// Runs an exhaustive (up to 600 cells) mutation test and requires every change to be caught.
fn all_caught(name: &str, c: BuilderCircuit) {
    mutation_test(K, &c, 600, 42).assert_all_caught(name, 0);
}

#[test]
fn mutation_mul_square_mul_const() {
    let (x, y) = (rand_fp(1), rand_fp(2));
    all_caught(
        "mul",
        circuit(move |b| {
            let (chip, a, c) = fp_chip_with(b, x, y);
            chip.mul(b, &a, &c);
        }),
    );
    all_caught(
        "square + mul_const",
        circuit(move |b| {
            let chip = fp_chip(b);
            let a = chip.load_proper(b, x);
            chip.square(b, &a);
            chip.mul_const(b, &a, y);
        }),
    );
}

#[test]
fn mutation_assert_mul_eq() {
    let (x, y) = (rand_fp(14), rand_fp(15));
    all_caught(
        "assert_mul_eq",
        circuit(move |b| {
            let (chip, a, c) = fp_chip_with(b, x, y);
            let z = chip.load_proper(b, x * y);
            let one = chip.load_proper(b, Fp::ONE);
            let lazy = chip.add(b, &z, &one);
            let lazy = chip.sub(b, &lazy, &one);
            chip.assert_mul_eq(b, &a, &c, &lazy);
        }),
    );
}

#[test]
fn assert_mul_eq_rejects_a_wrong_product() {
    let (x, y) = (rand_fp(16), rand_fp(17));
    for wrong in [x * y + Fp::ONE, Fp::ZERO, x] {
        assert_fails(move |b| {
            let (chip, a, c) = fp_chip_with(b, x, y);
            let z = chip.load_proper(b, wrong);
            chip.assert_mul_eq(b, &a, &c, &z);
        });
    }
}

#[test]
fn mutation_linear_ops_and_reduce() {
    let (x, y) = (rand_fp(3), rand_fp(4));
    all_caught(
        "add/sub/neg/scale + reduce",
        circuit(move |b| {
            let (chip, a, c) = fp_chip_with(b, x, y);
            let s = chip.add(b, &a, &c);
            chip.reduce(b, &s);
            let d = chip.sub(b, &s, &c);
            chip.reduce(b, &d);
            let n = chip.neg(b, &a);
            chip.reduce(b, &n);
            let k = chip.scale(b, &a, 3);
            chip.reduce(b, &k);
        }),
    );
}

#[test]
fn mutation_inverse_division_canonical() {
    let (x, y) = (rand_fp(5), rand_fp(6));
    all_caught(
        "inv/div/assert_canonical",
        circuit(move |b| {
            let chip = fp_chip(b);
            let a = chip.load_reduced(b, x);
            let c = chip.load_proper(b, y);
            chip.inv(b, &c);
            chip.div(b, &a, &c);
        }),
    );
}

#[test]
fn mutation_zero_equal_select_windows() {
    let (x, y) = (rand_fp(7), rand_fp(8));
    all_caught(
        "is_zero/is_equal/select/assert_equal/windows",
        circuit(move |b| {
            let chip = fp_chip(b);
            let a = chip.load_reduced(b, x);
            let c = chip.load_reduced(b, y);
            let z = chip.load_reduced(b, Fp::ZERO);
            chip.is_zero(b, &a);
            chip.is_zero(b, &z);
            chip.is_equal(b, &a, &c);
            chip.is_equal(b, &a, &a.clone());
            let bit = chip.range.load_bit(b, true);
            let s = chip.select(b, &bit, &a, &c);
            chip.assert_equal(b, &s, &a);
            chip.to_windows(b, &c, 4);
        }),
    );
}

/// Every cell of relation blocks of both shapes (a remainder with two products, two linear
/// terms and a constant; a factor with its distinctness inverse) is caught when changed.
#[test]
fn mutation_relation_blocks() {
    use batch_ecdsa_circuits::field::Relation;
    let (x, y) = (rand_fp(18), rand_fp(19));
    all_caught(
        "relation blocks",
        circuit(move |b| {
            let (chip, a, c) = fp_chip_with(b, x, y);
            chip.new_value(
                b,
                &Relation::product(&a, &c)
                    .minus(&a)
                    .plus_product(-3, &c, &a, Some(c.crt()))
                    .plus_term(2, &a)
                    .plus_term(-1, &c)
                    .constant(-7)
                    .remainder(),
            );
            chip.new_value(
                b,
                &Relation::factor_times(&a, Some(c.crt()))
                    .plus_product(1, &c, &c, None)
                    .plus_term(-1, &a)
                    .distinct(),
            );
        }),
    );
}

/// A factor block whose difference is 0 mod p (`b₁ = c₁`, or `b₁ = c₁ + p` as another
/// representative) is unsatisfiable: the distinctness constraint has no inverse to offer.
#[test]
fn factor_block_rejects_a_zero_difference_also_through_another_representative() {
    use batch_ecdsa_circuits::field::Relation;
    let x = Fp::from(5u64);
    for shift_by_p in [false, true] {
        assert_fails(move |b| {
            let chip = fp_chip(b);
            let a = chip.load_proper(b, x);
            let v = fe_to_big(&x)
                + if shift_by_p {
                    modulus::<Fp>()
                } else {
                    BigUint::from(0u8)
                };
            let a2 = chip.load_uint(b, &v).expect("< 2^256");
            chip.new_value(
                b,
                &Relation::factor_times(&a, Some(a2.crt()))
                    .plus_term(-1, &a)
                    .distinct(),
            );
        });
    }
}

static MUL_ROW: AtomicU32 = AtomicU32::new(0);

/// Tampers each kind of cell of a mul block by name: quotient limbs, remainder (result) limbs,
/// carries, the copies of the inputs, and the chunks of each; every one must be caught.
#[test]
fn tamper_each_kind_of_mul_cell() {
    let (x, y) = (rand_fp(12), rand_fp(13));
    let c = circuit(move |b| {
        let (chip, a, cc) = fp_chip_with(b, x, y);
        // The constant 0 that pins absent operand slots comes first, so the block starts here.
        b.constant(Native::ZERO);
        MUL_ROW.store(b.rows(), Ordering::SeqCst);
        chip.mul(b, &a, &cc);
    });
    let b = c.builder();
    let first = MUL_ROW.load(Ordering::SeqCst);
    let kinds = [
        ("quotient limb", 0u32, 0u16),
        ("remainder limb", 3, 0),
        ("carry", 6, 0),
        ("copy of input a", 0, 1),
        ("copy of input b", 3, 1),
        ("chunk of a quotient limb", 0, 4),
        ("chunk of a remainder limb", 4, 5),
        ("chunk of a carry", 7, 4),
    ];
    for (name, dr, col) in kinds {
        for limb in 0..3u32 {
            let row = first + dr + if col == 0 || col == 1 { limb } else { 0 };
            let idx = b
                .advice_cells()
                .iter()
                .position(|(cr, _)| cr.row == row && cr.col == col)
                .unwrap_or_else(|| panic!("{name}: no cell at ({row}, {col})"));
            for delta in [Native::ONE, -Native::ONE, Native::from(1u64 << 40)] {
                let t = c.tampered(idx, delta);
                assert!(
                    mock_verify(K, &t).is_err(),
                    "{name} (limb {limb}) tampered by {delta:?} was accepted"
                );
            }
        }
    }
}

/// A witness that satisfies the carry equations (so `E ≡ 0 mod 2^264`) but not the native
/// one: `q' = q + 256`, `r' = r + 2^264 − 256·p` gives `E = −2^264`. Only the native check can
/// reject it, and it does.
#[test]
fn forged_mod_two_to_the_t_witness_fails_the_native_check() {
    let (x, y) = (Fp::from(3u64), Fp::from(5u64));
    let c = circuit(move |b| {
        let (chip, a, cc) = fp_chip_with(b, x, y);
        let p = modulus::<Fp>();
        let (q, r) = (fe_to_big(&x) * fe_to_big(&y)).div_rem(&p);
        let q2 = q + 256u32;
        let r2 = r + (BigUint::one() << 264usize) - &p * 256u32;
        assert!(r2.bits() <= 256);
        chip.mul_with_witness(b, &a, &cc, &q2, &r2);
    });
    let err = mock_verify(K, &c).expect_err("forged witness accepted");
    assert!(err.contains("field relation"), "{err}");
    // The honest witness through the same path is accepted.
    assert_ok(move |b| {
        let (chip, a, cc) = fp_chip_with(b, x, y);
        chip.mul_with_witness(b, &a, &cc, &BigUint::from(0u8), &BigUint::from(15u8));
    });
}

#[test]
fn wrong_product_is_rejected() {
    // r off by p (still < 2^256, ≡ the right value) must fail: q would have to be q − 1.
    assert_fails(|b| {
        let chip = fp_chip(b);
        let a = chip.load_proper(b, Fp::from(7u64));
        let c = chip.load_proper(b, Fp::from(9u64));
        let p = modulus::<Fp>();
        chip.mul_with_witness(b, &a, &c, &BigUint::from(0u8), &(p + 63u32));
    });
}

#[test]
fn out_of_range_limb_fails() {
    // A limb of 2^88 (one past the range) in a hand-made proper value.
    assert_fails(|b| {
        let chip = fp_chip(b);
        let v = BigUint::one() << 88usize;
        let rr = chip.range.range_rows(b, &v, chip.range.main_chunks(88));
        let _ = rr;
    });
    // Top limb of 2^80: 2^256 itself is refused by load_uint, and forced through the rows it fails.
    assert_fails(|b| {
        let chip = fp_chip(b);
        let rr = chip
            .range
            .range_rows(b, &(BigUint::one() << 80usize), chip.range.main_chunks(80));
        let _ = rr;
    });
}

fn non_canonical_claims<P: PrimeField>(chip_of: fn(&Builder) -> FieldChip<P>) {
    let p = modulus::<P>();
    for v in [
        p.clone(),
        &p + 1u32,
        &p + 977u32,
        (BigUint::one() << 256usize) - 1u32,
    ] {
        assert_fails(move |b| {
            let chip = chip_of(b);
            let x = chip.load_uint(b, &v).expect("< 2^256");
            chip.assert_canonical(b, &x);
        });
    }
    // p − 1 is canonical.
    let pm1 = &p - 1u32;
    assert_ok(move |b| {
        let chip = chip_of(b);
        let x = chip.load_uint(b, &pm1).expect("< 2^256");
        chip.assert_canonical(b, &x);
    });
}

#[test]
fn value_at_or_above_p_claimed_canonical_fails() {
    non_canonical_claims::<Fp>(fp_chip);
    non_canonical_claims::<Fq>(fq_chip);
}

#[test]
fn inverse_and_division_by_zero_fail() {
    // 0, and p (≡ 0 but not canonical).
    assert_fails(|b| {
        let chip = fp_chip(b);
        let z = chip.load_proper(b, Fp::ZERO);
        chip.inv(b, &z);
    });
    assert_fails(|b| {
        let chip = fp_chip(b);
        let z = chip.load_uint(b, &modulus::<Fp>()).expect("< 2^256");
        chip.inv(b, &z);
    });
    // assert_nonzero of a lazy zero (x − x) fails; of a lazy non-zero passes.
    assert_fails(|b| {
        let chip = fp_chip(b);
        let x = chip.load_proper(b, Fp::from(9u64));
        let z = chip.sub(b, &x, &x);
        chip.assert_nonzero(b, &z);
    });
    assert_ok(|b| {
        let chip = fp_chip(b);
        let x = chip.load_proper(b, Fp::from(9u64));
        let y = chip.load_proper(b, Fp::from(8u64));
        let z = chip.sub(b, &x, &y);
        chip.assert_nonzero(b, &z);
    });
    // 0 / 0 and x / 0.
    assert_fails(|b| {
        let chip = fp_chip(b);
        let z = chip.load_proper(b, Fp::ZERO);
        let z2 = chip.load_proper(b, Fp::ZERO);
        chip.div(b, &z, &z2);
    });
    assert_fails(|b| {
        let chip = fq_chip(b);
        let x = chip.load_proper(b, Fq::from(5u64));
        let z = chip.load_proper(b, Fq::ZERO);
        chip.div(b, &x, &z);
    });
}

#[test]
fn assert_equal_of_different_values_fails() {
    assert_fails(|b| {
        let chip = fp_chip(b);
        let x = chip.load_reduced(b, Fp::from(5u64));
        let y = chip.load_reduced(b, Fp::from(6u64));
        chip.assert_equal(b, &x, &y);
    });
    // Same element, different cells: accepted.
    assert_ok(|b| {
        let chip = fp_chip(b);
        let x = chip.load_reduced(b, Fp::from(5u64));
        let y = chip.load_reduced(b, Fp::from(5u64));
        chip.assert_equal(b, &x, &y);
        assert_eq!(x.fe(), y.fe());
    });
}

#[test]
fn tampered_inverse_witness_fails() {
    // The inverse witness y is the first cell of the value loaded by inv: tamper each of its
    // limbs; also a wrong is_zero output.
    let x = rand_fp(20);
    let c = circuit(move |b| {
        let chip = fp_chip(b);
        let a = chip.load_proper(b, x);
        // The constant 0 that pins absent operand slots comes first, so the block starts here.
        b.constant(Native::ZERO);
        MUL_ROW.store(b.rows(), Ordering::SeqCst);
        chip.inv(b, &a);
    });
    let b = c.builder();
    let first = MUL_ROW.load(Ordering::SeqCst);
    for limb_row in 0..3 {
        let idx = b
            .advice_cells()
            .iter()
            .position(|(cr, _)| cr.row == first + limb_row && cr.col == 0)
            .expect("inverse limb cell");
        let t = c.tampered(idx, Native::ONE);
        assert!(mock_verify(K, &t).is_err());
    }
}
