//! Property test: random chains of field operations match halo2curves, for Fp and Fq.

mod common;
use batch_ecdsa_circuits::field::{FieldChip, FieldValue};
use batch_ecdsa_circuits::layout::Builder;
use common::*;
use ff::PrimeField;
use proptest::prelude::*;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;

fn chain<P: PrimeField>(chip_of: fn(&Builder) -> FieldChip<P>, seed: u64) {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let (x, y) = (P::random(&mut rng), P::random(&mut rng));
    assert_ok(move |b| {
        let chip = chip_of(b);
        let a = chip.load_reduced(b, x);
        let c = chip.load_reduced(b, y);
        let s = chip.add(b, &a, &c);
        let d = chip.sub(b, &a, &c);
        let m = chip.mul(b, &s, &d); // (x + y)(x − y), lazy inputs
        let want = (x + y) * (x - y);
        assert_eq!(m.fe(), want);
        let q = chip.div(b, &m, &c);
        let want = want * y.invert().unwrap_or(P::ZERO);
        let r = chip.assert_canonical(b, &q);
        if y != P::ZERO {
            let e = chip.load_constant(b, want);
            chip.assert_equal(b, &r, &e);
        }
        let z = chip.is_equal(b, &r, &a);
        assert_eq!(z.value(), want == x);
    });
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]
    #[test]
    fn fp_random_chains(seed in any::<u64>()) {
        chain::<halo2curves::secp256k1::Fp>(fp_chip, seed);
    }
    #[test]
    fn fq_random_chains(seed in any::<u64>()) {
        chain::<halo2curves::secp256k1::Fq>(fq_chip, seed);
    }
}
