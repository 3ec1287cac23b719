//! Range layer: range checks of any bit length, decomposition, less-than.

mod common;
use batch_ecdsa_circuits::layout::Native;
use batch_ecdsa_circuits::range::RangeChip;
use batch_ecdsa_circuits::test_utils::mutation_test;
use common::*;
use ff::Field;

fn pow2(e: u32) -> Native {
    Native::from(2u64).pow_vartime([e as u64])
}

#[test]
fn range_check_accepts_top_values_of_every_width() {
    for bits in [1u32, 5, 11, 12, 22, 40, 88, 97, 200, 252] {
        assert_ok(move |b| {
            let r = RangeChip::new(b.params.clone());
            let top = pow2(bits) - Native::ONE;
            r.load_checked(b, top, bits);
            r.load_checked(b, Native::ZERO, bits);
            let x = r.load_witness(b, top);
            r.range_check(b, &x, bits);
        });
    }
}

#[test]
fn range_check_rejects_two_to_the_bits() {
    // 2^bits, and 2^bits + (2^bits − 1): the partial chunk (bits not a multiple of 11) and the
    // full-chunk case (bits = 22, 88) both reject.
    for bits in [1u32, 5, 12, 22, 40, 88, 97] {
        for v in [pow2(bits), pow2(bits + 1) - Native::ONE, -Native::ONE] {
            assert_fails(move |b| {
                let r = RangeChip::new(b.params.clone());
                let x = r.load_witness(b, v);
                r.range_check(b, &x, bits);
            });
        }
    }
}

#[test]
fn decompose_into_windows_and_limbs() {
    let v = Native::from(0xfedc_ba98_7654_3210u64);
    assert_ok(move |b| {
        let r = RangeChip::new(b.params.clone());
        let x = r.load_witness(b, v);
        let w = r.decompose(b, &x, 64, 4);
        assert_eq!(w.len(), 16);
        for (i, d) in w.iter().enumerate() {
            assert_eq!(
                d.value,
                Native::from((0xfedc_ba98_7654_3210u64 >> (4 * i)) & 15)
            );
        }
        // Chunks of the lookup bits (11 here): 66 bits is six full chunks (a 64-bit value).
        let l = r.decompose(b, &x, 66, 11);
        assert_eq!(l.len(), 6);
        let bits = r.decompose(b, &x, 64, 1);
        assert_eq!(bits.len(), 64);
    });
}

#[test]
fn less_than_all_orders_and_bounds() {
    let bits = 40u32;
    let top = (1u64 << bits) - 1;
    for (a, c) in [
        (0u64, 0u64),
        (0, 1),
        (1, 0),
        (5, 5),
        (top, top),
        (top - 1, top),
        (top, 0),
        (0, top),
    ] {
        assert_ok(move |b| {
            let r = RangeChip::new(b.params.clone());
            let x = r.load_checked(b, Native::from(a), bits);
            let y = r.load_checked(b, Native::from(c), bits);
            let lt = r.is_less_than(b, &x, &y, bits);
            assert_eq!(lt.value(), a < c);
            if a < c {
                r.assert_less_than(b, &x, &y, bits);
            }
        });
        if a >= c {
            assert_fails(move |b| {
                let r = RangeChip::new(b.params.clone());
                let x = r.load_checked(b, Native::from(a), bits);
                let y = r.load_checked(b, Native::from(c), bits);
                r.assert_less_than(b, &x, &y, bits);
            });
        }
    }
}

#[test]
fn range_mutations_are_all_caught() {
    let c = circuit(|b| {
        let r = RangeChip::new(b.params.clone());
        let x = r.load_witness(b, Native::from(123_456_789u64));
        r.range_check(b, &x, 30);
        r.decompose(b, &x, 32, 4);
        let y = r.load_checked(b, Native::from(99u64), 30);
        r.is_less_than(b, &x, &y, 30);
        r.assert_less_than(b, &y, &x, 30);
    });
    mutation_test(K, &c, 400, 1).assert_all_caught("range", 0);
}
