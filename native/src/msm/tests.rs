use super::*;
use ff::Field;
use group::{prime::PrimeCurveAffine, Curve, Group};
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;

fn naive(points: &[Secp256k1Affine], scalars: &[Fq]) -> Secp256k1 {
    points
        .iter()
        .zip(scalars)
        .fold(Secp256k1::identity(), |acc, (p, k)| acc + *p * *k)
}

fn random_points(rng: &mut ChaCha20Rng, n: usize) -> Vec<Secp256k1Affine> {
    (0..n)
        .map(|_| (Secp256k1::generator() * Fq::random(&mut *rng)).to_affine())
        .collect()
}

fn check_all_methods(points: &[Secp256k1Affine], scalars: &[Fq]) {
    let expected = naive(points, scalars);
    assert_eq!(msm(points, scalars), expected, "msm, n = {}", points.len());
    let internal = to_internal(points);
    for w in [1, 2, 4, 5, 6] {
        assert_eq!(msm_straus(points, scalars, w), expected, "straus w = {w}");
        for endo in [false, true] {
            let got = straus::straus_with(&internal, scalars, w, endo).to_halo2();
            assert_eq!(got, expected, "straus w = {w}, endomorphism {endo}");
        }
    }
    for c in [1, 3, 7, 8, 11] {
        assert_eq!(
            msm_pippenger(points, scalars, c),
            expected,
            "pippenger c = {c}"
        );
    }
}

#[test]
fn msm_matches_naive_on_random_sizes() {
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    for n in [0usize, 1, 2, 3, 17, 100, 1000] {
        let points = random_points(&mut rng, n);
        let scalars: Vec<Fq> = (0..n).map(|_| Fq::random(&mut rng)).collect();
        check_all_methods(&points, &scalars);
    }
}

#[test]
fn msm_handles_zero_scalars_repeated_and_opposite_points() {
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    let p = random_points(&mut rng, 1)[0];
    let q = random_points(&mut rng, 1)[0];
    let k = Fq::random(&mut rng);
    let cases: Vec<(Vec<Secp256k1Affine>, Vec<Fq>)> = vec![
        // all scalars zero
        (vec![p, q, p], vec![Fq::ZERO; 3]),
        // repeated point, same scalar (exercises doubling inside buckets)
        (vec![p; 5], vec![k; 5]),
        // P and -P with the same scalar cancel
        (vec![p, -p], vec![k, k]),
        // P and -P with opposite scalars add up
        (vec![p, -p, q], vec![k, -k, Fq::ONE]),
        // scalar -1 and 1 on the same point
        (vec![q, q], vec![-Fq::ONE, Fq::ONE]),
        // the identity as an input point
        (vec![Secp256k1Affine::identity(), p], vec![k, k]),
    ];
    for (points, scalars) in &cases {
        check_all_methods(points, scalars);
    }
    // Many repeated points and +-P across the Pippenger crossover.
    let mut points = Vec::new();
    let mut scalars = Vec::new();
    for i in 0..150u64 {
        let base = if i % 3 == 0 { p } else { q };
        points.push(if i % 2 == 0 { base } else { -base });
        scalars.push(if i % 5 == 0 {
            Fq::ZERO
        } else {
            Fq::from(i % 7)
        });
    }
    check_all_methods(&points, &scalars);
}

#[test]
fn msm_uses_the_shorter_length() {
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    let points = random_points(&mut rng, 4);
    let scalars: Vec<Fq> = (0..3).map(|_| Fq::random(&mut rng)).collect();
    assert_eq!(msm(&points, &scalars), naive(&points[..3], &scalars));
    assert_eq!(
        msm(&points[..2], &scalars),
        naive(&points[..2], &scalars[..2])
    );
}

#[test]
fn mul_generator_matches_scalar_multiplication() {
    let mut rng = ChaCha20Rng::seed_from_u64(4);
    let mut ks = vec![
        Fq::ZERO,
        Fq::ONE,
        -Fq::ONE,
        Fq::from(128u64),
        Fq::from(255u64),
    ];
    ks.extend((0..200).map(|_| Fq::random(&mut rng)));
    for k in &ks {
        assert_eq!(mul_generator(k), Secp256k1::generator() * k);
    }
    assert!(bool::from(mul_generator(&Fq::ZERO).is_identity()));
}

#[test]
fn window_choices_are_in_range() {
    for n in [0usize, 1, 2, 63, 64, 1000, 2048, 1 << 20] {
        assert!((1..=10).contains(&straus_window(n)));
        assert!((1..=16).contains(&pippenger_window(n)));
    }
}

#[test]
fn pippenger_window_grows_with_the_number_of_points() {
    assert_eq!(pippenger_window(2048), 8);
    let mut last = 0;
    for n in [32usize, 256, 2048, 1 << 14, 1 << 18] {
        let c = pippenger_window(n);
        assert!(c >= last, "n = {n}");
        last = c;
    }
}
