use super::challenge::fp_to_fq_reduced;
use super::equation::item_is_valid;
use super::*;
use ff::Field;
use group::{prime::PrimeCurveAffine, Curve};
use halo2curves::secp256k1::{Fp, Secp256k1};
use halo2curves::CurveAffine;
use proptest::prelude::*;
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;

/// Test-only ECDSA* signer: R = kG, r = x(R) mod n, s = k^-1 (h + r d), Q = dG.
fn sign(d: Fq, h: Fq, k: Fq) -> Option<BatchItem> {
    let r_point = (Secp256k1::generator() * k).to_affine();
    let r = fp_to_fq_reduced(&r_point.x);
    let s = Option::<Fq>::from(k.invert())? * (h + r * d);
    if r.is_zero_vartime() || s.is_zero_vartime() {
        return None;
    }
    let q = (Secp256k1::generator() * d).to_affine();
    Some(BatchItem { r_point, s, h, q })
}

fn random_item(rng: &mut ChaCha20Rng) -> BatchItem {
    loop {
        let d = Fq::random(&mut *rng);
        if let Some(item) = sign(d, Fq::random(&mut *rng), Fq::random(&mut *rng)) {
            return item;
        }
    }
}

fn random_batch(rng: &mut ChaCha20Rng, b: usize) -> Vec<BatchItem> {
    (0..b).map(|_| random_item(rng)).collect()
}

#[derive(Clone, Copy, Debug)]
enum Corruption {
    SPlusOne,
    NegateR,
    ChangeH,
    OtherKey,
}

const ALL_CORRUPTIONS: [Corruption; 4] = [
    Corruption::SPlusOne,
    Corruption::NegateR,
    Corruption::ChangeH,
    Corruption::OtherKey,
];

fn corrupt(item: &mut BatchItem, how: Corruption, rng: &mut ChaCha20Rng) {
    match how {
        Corruption::SPlusOne => {
            item.s += Fq::ONE;
            if item.s.is_zero_vartime() {
                item.s = Fq::ONE;
            }
        }
        Corruption::NegateR => item.r_point = -item.r_point,
        Corruption::ChangeH => item.h += Fq::ONE,
        Corruption::OtherKey => item.q = random_item(rng).q,
    }
}

#[test]
fn signer_produces_individually_valid_items() {
    let mut rng = ChaCha20Rng::seed_from_u64(10);
    for item in random_batch(&mut rng, 8) {
        assert!(item_is_valid(&item));
        let mut bad = item;
        bad.h += Fq::ONE;
        assert!(!item_is_valid(&bad));
    }
}

#[test]
fn random_valid_batches_pass() {
    let mut rng = ChaCha20Rng::seed_from_u64(11);
    assert_eq!(batch_verify(&[]), Ok(()));
    assert!(find_invalid(&[]).is_empty());
    for b in [1usize, 2, 16, 100] {
        let items = random_batch(&mut rng, b);
        assert_eq!(batch_verify(&items), Ok(()), "B = {b}");
        assert!(find_invalid(&items).is_empty(), "B = {b}");
    }
}

#[test]
fn one_corrupted_item_is_found_and_named() {
    let mut rng = ChaCha20Rng::seed_from_u64(12);
    let b = 16;
    let items = random_batch(&mut rng, b);
    for how in ALL_CORRUPTIONS {
        for pos in [0, b / 2, b - 1] {
            let mut bad = items.clone();
            corrupt(&mut bad[pos], how, &mut rng);
            assert!(!item_is_valid(&bad[pos]), "{how:?} at {pos}");
            assert_eq!(
                batch_verify(&bad),
                Err(BatchError::EquationFailed),
                "{how:?} at {pos}"
            );
            assert_eq!(find_invalid(&bad), vec![pos], "{how:?} at {pos}");
        }
    }
}

#[test]
fn several_corrupted_items_are_all_named() {
    let mut rng = ChaCha20Rng::seed_from_u64(13);
    let mut items = random_batch(&mut rng, 100);
    let bad_positions = [0usize, 1, 37, 38, 63, 64, 99];
    for (n, &pos) in bad_positions.iter().enumerate() {
        corrupt(&mut items[pos], ALL_CORRUPTIONS[n % 4], &mut rng);
    }
    assert_eq!(batch_verify(&items), Err(BatchError::EquationFailed));
    assert_eq!(find_invalid(&items), bad_positions.to_vec());
}

#[test]
fn swapping_keys_between_two_items_names_both() {
    let mut rng = ChaCha20Rng::seed_from_u64(14);
    let mut items = random_batch(&mut rng, 9);
    let q3 = items[3].q;
    items[3].q = items[7].q;
    items[7].q = q3;
    assert_eq!(batch_verify(&items), Err(BatchError::EquationFailed));
    assert_eq!(find_invalid(&items), vec![3, 7]);
}

/// A curve point whose x coordinate is n, so r = x mod n = 0.
fn point_with_x_equal_to_n() -> Secp256k1Affine {
    let n_be = fq_be_minus_one_plus_one();
    let x = Option::<Fp>::from(<Fp as ff::PrimeField>::from_repr(n_be)).expect("n < p");
    let y2 = x.square() * x + Fp::from(7u64);
    let y = Option::<Fp>::from(y2.sqrt()).expect("n^3 + 7 is a square mod p");
    Option::from(Secp256k1Affine::from_xy(x, y)).expect("on curve")
}

/// n as little-endian bytes (the repr of -1 in Fq, plus one, done on integers).
fn fq_be_minus_one_plus_one() -> [u8; 32] {
    let mut le = <Fq as ff::PrimeField>::to_repr(&-Fq::ONE);
    // n - 1 is even, so adding one to the lowest byte does not carry.
    le[0] += 1;
    le
}

#[test]
fn structural_errors_name_the_index() {
    let mut rng = ChaCha20Rng::seed_from_u64(15);
    let items = random_batch(&mut rng, 6);
    let off_curve = Secp256k1Affine {
        x: items[0].q.x,
        y: items[0].q.y + Fp::ONE,
    };
    assert!(!bool::from(off_curve.is_on_curve()));
    let zero_r = point_with_x_equal_to_n();
    assert!(fp_to_fq_reduced(&zero_r.x).is_zero_vartime());

    type Case = (
        fn(&mut BatchItem, Secp256k1Affine, Secp256k1Affine),
        fn(usize) -> BatchError,
    );
    let cases: [Case; 6] = [
        (
            |it, _, _| it.r_point = Secp256k1Affine::identity(),
            |index| BatchError::NonceIsIdentity { index },
        ),
        (
            |it, off, _| it.r_point = off,
            |index| BatchError::NonceNotOnCurve { index },
        ),
        (
            |it, _, _| it.q = Secp256k1Affine::identity(),
            |index| BatchError::KeyIsIdentity { index },
        ),
        (
            |it, off, _| it.q = off,
            |index| BatchError::KeyNotOnCurve { index },
        ),
        (
            |it, _, _| it.s = Fq::ZERO,
            |index| BatchError::ZeroS { index },
        ),
        (
            |it, _, zr| it.r_point = zr,
            |index| BatchError::ZeroR { index },
        ),
    ];
    for (apply, expected) in cases {
        for pos in [0usize, 2, 5] {
            let mut bad = items.clone();
            apply(&mut bad[pos], off_curve, zero_r);
            assert_eq!(batch_verify(&bad), Err(expected(pos)));
            assert_eq!(find_invalid(&bad), vec![pos]);
        }
    }
    // Structural failures and equation failures together.
    let mut bad = items.clone();
    bad[1].s = Fq::ZERO;
    bad[4].h += Fq::ONE;
    assert_eq!(batch_verify(&bad), Err(BatchError::ZeroS { index: 1 }));
    assert_eq!(find_invalid(&bad), vec![1, 4]);
}

#[test]
fn challenge_changes_with_every_field_of_every_item() {
    let mut rng = ChaCha20Rng::seed_from_u64(16);
    let items = random_batch(&mut rng, 5);
    let t = batch_challenge(&items);
    assert!(!t.is_zero_vartime());
    assert_eq!(t, batch_challenge(&items.clone()));
    let other = random_item(&mut rng);
    for i in 0..items.len() {
        let mut changed: Vec<Vec<BatchItem>> = vec![items.clone(); 4];
        changed[0][i].r_point = other.r_point;
        changed[1][i].s = other.s;
        changed[2][i].h = other.h;
        changed[3][i].q = other.q;
        for (field, batch) in changed.iter().enumerate() {
            assert_ne!(batch_challenge(batch), t, "item {i}, field {field}");
        }
    }
    // Length and order matter too.
    assert_ne!(batch_challenge(&items[..4]), t);
    let mut swapped = items.clone();
    swapped.swap(0, 1);
    assert_ne!(batch_challenge(&swapped), t);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Batch verification, bisection and per-signature verification agree.
    #[test]
    fn batch_agrees_with_per_signature_verification(
        seed in any::<u64>(),
        b in 1usize..12,
        corruptions in proptest::collection::vec((0usize..12, 0usize..4), 0..4),
    ) {
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let mut items = random_batch(&mut rng, b);
        for (pos, how) in corruptions {
            corrupt(&mut items[pos % b], ALL_CORRUPTIONS[how], &mut rng);
        }
        let expected: Vec<usize> = (0..b).filter(|&i| !item_is_valid(&items[i])).collect();
        prop_assert_eq!(batch_verify(&items).is_ok(), expected.is_empty());
        prop_assert_eq!(find_invalid(&items), expected);
    }
}

#[test]
fn large_batch_passes_and_one_bad_item_is_named() {
    let mut rng = ChaCha20Rng::seed_from_u64(17);
    let mut items = random_batch(&mut rng, 600);
    assert_eq!(batch_verify(&items), Ok(()));
    corrupt(&mut items[421], Corruption::NegateR, &mut rng);
    assert_eq!(batch_verify(&items), Err(BatchError::EquationFailed));
    assert_eq!(find_invalid(&items), vec![421]);
}

#[test]
fn duplicated_items_are_handled() {
    let mut rng = ChaCha20Rng::seed_from_u64(18);
    let item = random_item(&mut rng);
    let mut items = vec![item; 70];
    assert_eq!(batch_verify(&items), Ok(()));
    let mut bad = item;
    bad.h += Fq::ONE;
    items[5] = bad;
    items[66] = bad;
    assert_eq!(batch_verify(&items), Err(BatchError::EquationFailed));
    assert_eq!(find_invalid(&items), vec![5, 66]);
}
