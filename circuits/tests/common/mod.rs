#![allow(dead_code)]
//! Shared helpers of the circuits tests: small-k parameters and chip construction.

use batch_ecdsa_circuits::config::BuilderCircuit;
use batch_ecdsa_circuits::field::FieldChip;
use batch_ecdsa_circuits::layout::{Builder, LayoutParams};
use batch_ecdsa_circuits::range::RangeChip;
use batch_ecdsa_circuits::test_utils::mock_verify;
use halo2curves::secp256k1::{Fp, Fq};

/// k of the MockProver runs: table of 2^11 + 2 + 16 rows fits in 2^12.
pub const K: u32 = 12;

pub fn params() -> LayoutParams {
    LayoutParams::new(K - 1)
}

pub fn fp_chip(b: &Builder) -> FieldChip<Fp> {
    FieldChip::new(RangeChip::new(b.params.clone()), 0)
}

pub fn fq_chip(b: &Builder) -> FieldChip<Fq> {
    FieldChip::new(RangeChip::new(b.params.clone()), 1)
}

pub fn circuit(build: impl Fn(&mut Builder) + Send + Sync + 'static) -> BuilderCircuit {
    BuilderCircuit::new(params(), build)
}

pub fn assert_ok(build: impl Fn(&mut Builder) + Send + Sync + 'static) {
    let c = circuit(build);
    if let Err(e) = mock_verify(K, &c) {
        panic!("expected a satisfied circuit: {e}");
    }
}

pub fn assert_fails(build: impl Fn(&mut Builder) + Send + Sync + 'static) {
    let c = circuit(build);
    assert!(
        mock_verify(K, &c).is_err(),
        "expected MockProver to reject the circuit"
    );
}
