//! The digest statement against the keys statement: for each B, the batch circuit laid out by
//! the planner (`BatchEcdsaCircuit::fitted`, the layout a proof uses) under both
//! statements, with its k, Keccak chunk width d, cells per signature, rows and proving work
//! (committed polynomials × 2^k). Layouts only (no keys, no proofs). Run:
//! `cargo bench -p batch-ecdsa-circuits --bench digest_cells [-- B1,B2,...]`
//! (default B = 1,2,4,8,16,32,64,128,256). Prints a Markdown table and writes nothing.

use batch_ecdsa_circuits::ecdsa::batch::{BatchEcdsaCircuit, DEFAULT_BATCH_WINDOW};
use batch_ecdsa_circuits::ecdsa::Statement;
use batch_ecdsa_circuits::plan::proving_columns;
use batch_ecdsa_circuits::plan::FitOptions;
use batch_ecdsa_circuits::test_utils::ecdsa_witness;

fn main() {
    let bs: Vec<usize> = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .map(|a| a.split(',').filter_map(|x| x.parse().ok()).collect())
        .unwrap_or_else(|| vec![1, 2, 4, 8, 16, 32, 64, 128, 256]);
    println!(
        "| B | statement | k | d | cells/sig | looked up/sig | rows | columns | columns × 2^k |"
    );
    println!("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for &b in &bs {
        let sigs: Vec<_> = (0..b as u64).map(|i| ecdsa_witness(1000 + i)).collect();
        for statement in Statement::ALL {
            let (c, k) = BatchEcdsaCircuit::fitted(
                sigs.clone(),
                &FitOptions::default()
                    .window(DEFAULT_BATCH_WINDOW)
                    .statement(statement),
            );
            let s = c.stats();
            let cols = proving_columns(c.params());
            println!(
                "| {b} | {statement} | {k} | {} | {} | {} | {} | {cols} | {} |",
                c.params().keccak_digits,
                s.advice_cells / b,
                s.lookup_cells / b,
                s.rows,
                (cols as u128) << k,
            );
        }
    }
}
