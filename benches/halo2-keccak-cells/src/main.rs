//! Cell counts of halo2-lib's keccak (`zkevm-hashes` 0.3.0, `keccak::vanilla`), for comparison
//! with `batch-ecdsa-circuits`' own Keccak chip (`circuits/tests/keccak.rs`, test
//! `keccak_cells_per_permutation`). Comparison only: this crate is outside the workspace and
//! nothing in the product depends on it.
//!
//! How the numbers are obtained: the peer lays every keccak_f out as `NUM_ROUNDS + 1 = 25`
//! rounds of `rows_per_round` rows over all of its advice columns (its own capacity formula,
//! `get_keccak_capacity`: `rows / rows_per_round / 25` permutations), so
//!
//! ```text
//! advice cells per permutation = advice columns × rows_per_round × 25
//! lookup evaluations per permutation = lookup arguments × rows_per_round × 25
//! ```
//!
//! Both counts are read from the configured constraint system (`num_advice_columns`,
//! `lookups().len()`) after `KeccakCircuitConfig::new`, for several k (the lookup chunk widths
//! depend on k) and rows per round.
use halo2_base::halo2_proofs::halo2curves::bn256::Fr;
use halo2_base::halo2_proofs::plonk::ConstraintSystem;
use zkevm_hashes::keccak::vanilla::{KeccakCircuitConfig, KeccakConfigParams};

const ROUNDS_PER_PERMUTATION: usize = 25;

fn main() {
    println!("| k | rows/round | advice cols | lookup args | fixed cols | advice queries | degree | advice cells/perm | lookup evals/perm | rows/perm |");
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for k in [14u32, 16, 18, 20] {
        for rows_per_round in [9usize, 12, 16, 20, 25, 28] {
            let mut meta = ConstraintSystem::<Fr>::default();
            let _ = KeccakCircuitConfig::new(&mut meta, KeccakConfigParams { k, rows_per_round });
            let adv = meta.num_advice_columns();
            let lk = meta.lookups().len();
            let rows = rows_per_round * ROUNDS_PER_PERMUTATION;
            println!(
                "| {k} | {rows_per_round} | {adv} | {lk} | {} | {} | {} | {} | {} | {rows} |",
                meta.num_fixed_columns(),
                meta.advice_queries().len(),
                meta.degree(),
                adv * rows,
                lk * rows
            );
        }
    }
}
