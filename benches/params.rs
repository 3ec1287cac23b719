//! KZG development setup: our fixed-base generator against halo2's `ParamsKZG::setup`.
//!
//! `cargo bench --bench params [-- K ...]` (default: 16 18 20). Each k is generated once
//! (seconds to minutes; criterion's repetitions would take too long at k = 20); halo2's setup
//! is timed for k ≤ 17 only (it takes 36 s at k = 17 and 293 s at k = 20 on the project's
//! 2-core machine, measured once by hand). Both produce byte-identical parameters (unit test
//! `fast_setup_equals_halo2_setup`).

use std::time::Instant;

use batch_ecdsa::prover::params::{setup_from_rng, DEV_SEED};
use halo2_proofs::halo2curves::bn256::Bn256;
use halo2_proofs::poly::kzg::commitment::ParamsKZG;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;

fn main() {
    let ks: Vec<u32> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let ks = if ks.is_empty() { vec![16, 18, 20] } else { ks };
    println!(
        "k  | ours (fixed-base, rayon {} threads) | halo2 ParamsKZG::setup",
        rayon::current_num_threads()
    );
    for k in ks {
        let t = Instant::now();
        let params = setup_from_rng(k, ChaCha20Rng::seed_from_u64(DEV_SEED)).expect("k in range");
        let ours = t.elapsed().as_secs_f64();
        drop(params);
        let theirs = if k <= 17 {
            let t = Instant::now();
            let p = ParamsKZG::<Bn256>::setup(k, ChaCha20Rng::seed_from_u64(DEV_SEED));
            let s = t.elapsed().as_secs_f64();
            drop(p);
            format!("{s:.2} s")
        } else {
            "not run (k > 17)".to_string()
        };
        println!("{k:<2} | {ours:.2} s | {theirs}");
    }
}
