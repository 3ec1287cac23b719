//! Native benches: batch verification per signature vs k256's single verify, our single
//! verify, MSM, and the two square roots (fixed addition chain vs ff's generic Tonelli–Shanks).
//!
//! `cargo bench --bench native` (add `-- --quick` for a fast pass).

use batch_ecdsa::native::batch_verify::{batch_verify, BatchItem};
use batch_ecdsa::native::msm::{msm, msm_pippenger, msm_straus, mul_generator};
use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use ff::{Field, FromUniformBytes, PrimeField};
use group::Curve;
use halo2curves::secp256k1::{Fp, Fq, Secp256k1, Secp256k1Affine};
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use std::time::Duration;

/// A benchmark group with `samples` samples, `warm_ms` of warm-up and `measure_s` of
/// measurement: short runs, the figures are per-signature orders of magnitude.
fn quick_group<'a>(
    c: &'a mut Criterion,
    name: &str,
    samples: usize,
    warm_ms: u64,
    measure_s: u64,
) -> criterion::BenchmarkGroup<'a, criterion::measurement::WallTime> {
    let mut group = c.benchmark_group(name);
    group
        .sample_size(samples)
        .warm_up_time(Duration::from_millis(warm_ms))
        .measurement_time(Duration::from_secs(measure_s));
    group
}

fn x_mod_n(x: &Fp) -> Fq {
    let mut wide = [0u8; 64];
    wide[..32].copy_from_slice(&x.to_repr());
    Fq::from_uniform_bytes(&wide)
}

/// Bench-only ECDSA* signer: R = kG, r = x(R) mod n, s = k^-1 (h + r d), Q = dG.
fn signed_items(rng: &mut ChaCha20Rng, b: usize) -> Vec<BatchItem> {
    let mut items = Vec::with_capacity(b);
    while items.len() < b {
        let (d, h, k) = (
            Fq::random(&mut *rng),
            Fq::random(&mut *rng),
            Fq::random(&mut *rng),
        );
        let r_point = (Secp256k1::generator() * k).to_affine();
        let r = x_mod_n(&r_point.x);
        let s = k.invert().unwrap() * (h + r * d);
        if bool::from(r.is_zero() | s.is_zero()) {
            continue;
        }
        let q = (Secp256k1::generator() * d).to_affine();
        items.push(BatchItem { r_point, s, h, q });
    }
    items
}

fn bench_batch_verify(c: &mut Criterion) {
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let one_thread = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("thread pool");
    let mut group = quick_group(c, "batch_verify", 10, 500, 2);
    for b in [1usize, 16, 256, 1024] {
        let items = signed_items(&mut rng, b);
        assert!(batch_verify(&items).is_ok());
        group.throughput(Throughput::Elements(b as u64));
        group.bench_with_input(
            BenchmarkId::new("all_threads", b),
            &items,
            |bench, items| bench.iter(|| batch_verify(black_box(items))),
        );
        group.bench_with_input(BenchmarkId::new("one_thread", b), &items, |bench, items| {
            bench.iter(|| one_thread.install(|| batch_verify(black_box(items))))
        });
    }
    group.finish();
}

fn bench_k256_verify(c: &mut Criterion) {
    use k256::ecdsa::signature::hazmat::PrehashVerifier;
    use k256::ecdsa::{Signature, SigningKey, VerifyingKey};
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    let mut secret = [0u8; 32];
    rng.fill_bytes(&mut secret);
    let signing_key = SigningKey::from_bytes(&secret.into()).expect("secret key");
    let verifying_key = VerifyingKey::from(&signing_key);
    let mut prehash = [0u8; 32];
    rng.fill_bytes(&mut prehash);
    let (signature, _): (Signature, _) = signing_key
        .sign_prehash_recoverable(&prehash)
        .expect("sign");
    assert!(verifying_key.verify_prehash(&prehash, &signature).is_ok());

    let mut group = quick_group(c, "k256_verify", 10, 500, 2);
    group.throughput(Throughput::Elements(1));
    group.bench_function("verify_prehash", |bench| {
        bench.iter(|| verifying_key.verify_prehash(black_box(&prehash), black_box(&signature)))
    });
    group.finish();
}

fn bench_msm(c: &mut Criterion) {
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    let mut group = quick_group(c, "msm", 10, 300, 1);
    let k = Fq::random(&mut rng);
    group.bench_function("mul_generator", |bench| {
        bench.iter(|| mul_generator(black_box(&k)))
    });
    for n in [2usize, 16, 32, 64, 256, 2048] {
        let points: Vec<Secp256k1Affine> = (0..n)
            .map(|_| (Secp256k1::generator() * Fq::random(&mut rng)).to_affine())
            .collect();
        let scalars: Vec<Fq> = (0..n).map(|_| Fq::random(&mut rng)).collect();
        group.throughput(Throughput::Elements(n as u64));
        group.bench_with_input(BenchmarkId::new("auto", n), &n, |bench, _| {
            bench.iter(|| msm(black_box(&points), black_box(&scalars)))
        });
        for w in [4usize, 5] {
            if n <= 64 {
                group.bench_with_input(
                    BenchmarkId::new(format!("straus_w{w}"), n),
                    &n,
                    |bench, _| {
                        bench.iter(|| msm_straus(black_box(&points), black_box(&scalars), w))
                    },
                );
            }
        }
        for cw in [4usize, 6, 7, 8, 9, 10] {
            if n >= 16 && (cw <= 6 || n >= 256) {
                group.bench_with_input(
                    BenchmarkId::new(format!("pippenger_c{cw}"), n),
                    &n,
                    |bench, _| {
                        bench.iter(|| msm_pippenger(black_box(&points), black_box(&scalars), cw))
                    },
                );
            }
        }
    }
    group.finish();
}

fn bench_single_verify(c: &mut Criterion) {
    use batch_ecdsa::native::ecdsa::{sign, verify};
    use batch_ecdsa::native::public_key::PublicKey;
    let mut rng = ChaCha20Rng::seed_from_u64(4);
    let (d, h, k) = (
        Fq::random(&mut rng),
        Fq::random(&mut rng),
        Fq::random(&mut rng),
    );
    let key = PublicKey::from_secret(&d).expect("d != 0");
    let (sig, _, _) = sign(&d, &h, &k).expect("sign");
    assert!(verify(&key, &h, &sig).is_ok());
    let mut group = quick_group(c, "single_verify", 10, 500, 2);
    group.throughput(Throughput::Elements(1));
    group.bench_function("ours", |bench| {
        bench.iter(|| verify(black_box(&key), black_box(&h), black_box(&sig)))
    });
    group.finish();
}

fn bench_sqrt(c: &mut Criterion) {
    use batch_ecdsa::native::sqrt::{sqrt_fixed, sqrt_generic};
    let mut rng = ChaCha20Rng::seed_from_u64(5);
    // A square (x³ + 7 of a curve point's x), so both roots succeed.
    let p = (Secp256k1::generator() * Fq::random(&mut rng)).to_affine();
    let a = p.x * p.x * p.x + Fp::from(7u64);
    assert_eq!(sqrt_fixed(&a).map(|y| y * y), Some(a));
    let mut group = quick_group(c, "sqrt", 20, 300, 1);
    group.bench_function("fixed_chain", |bench| {
        bench.iter(|| sqrt_fixed(black_box(&a)))
    });
    group.bench_function("generic", |bench| {
        bench.iter(|| sqrt_generic(black_box(&a)))
    });
    group.finish();
}

criterion_group!(
    benches,
    bench_batch_verify,
    bench_k256_verify,
    bench_single_verify,
    bench_msm,
    bench_sqrt
);
criterion_main!(benches);
