//! Cells per signature of `BatchEcdsaCircuit` against `NaiveEcdsaCircuit`, by laying the
//! circuits out (no keys, no proofs; counts from the builders). Run:
//! `cargo bench -p batch-ecdsa-circuits --bench batch_cells [-- B1,B2,... [4 [fit]]]`
//! (default B = 1,2,4,8,16,32,64,128,256; windows 3, 4, 5 of the `Qᵢ` and G terms: the `Rᵢ`
//! terms' short coefficients always use 4-bit windows). The naive column is the naive
//! circuit at its cheapest window (measured at every window with min(B, 16) signatures).
//! Lookup bits 17 (k = 18 tables); the cell counts do not depend on k except through the
//! number of range chunks per limb. `fit` prints the layouts `fitted` picks instead.

use batch_ecdsa_circuits::ecc::WINDOWS;
use batch_ecdsa_circuits::ecdsa::batch::{batch_params, BatchEcdsaCircuit};
use batch_ecdsa_circuits::ecdsa::naive::NaiveEcdsaCircuit;
use batch_ecdsa_circuits::ecdsa::SignatureWitness;
use batch_ecdsa_circuits::layout::{LayoutParams, Native};
use batch_ecdsa_circuits::plan::FitOptions;
use batch_ecdsa_circuits::plan::{proving_columns, LayoutGoal};
use ff::Field;
use group::Curve;
use halo2_proofs::plonk::{Circuit, ConstraintSystem};
use halo2curves::secp256k1::{Fq, Secp256k1};
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;

/// Valid ECDSA* witnesses (R = k·G, s = (h + r·d)/k), generated here so the bench needs only
/// the circuits crate. The cell counts do not depend on the values.
fn witnesses(count: usize) -> Vec<SignatureWitness> {
    let mut rng = ChaCha20Rng::seed_from_u64(7);
    (0..count)
        .map(|_| {
            let d = Fq::random(&mut rng);
            let k = Fq::random(&mut rng);
            let h = Fq::random(&mut rng);
            let q = (Secp256k1::generator() * d).to_affine();
            let r_point = (Secp256k1::generator() * k).to_affine();
            let r = batch_ecdsa_circuits::bigint::big_to_fe::<Fq>(
                &batch_ecdsa_circuits::bigint::fe_to_big(&r_point.x),
            );
            let s = (h + r * d) * k.invert().unwrap_or(Fq::ZERO);
            SignatureWitness::new(r_point, s, h, q).expect("valid witness")
        })
        .collect()
}

fn parse_list(arg: Option<&String>, default: &[usize]) -> Vec<usize> {
    arg.map(|a| a.split(',').filter_map(|x| x.parse().ok()).collect())
        .unwrap_or_else(|| default.to_vec())
}

/// halo2-ecc 0.5.5 `ecdsa_verify_no_pubkey_check` (window 4/4, k = 18), per signature:
/// advice + lookup-advice cells, measured by `benches/halo2-ecc-cells` (its lookup cells are
/// extra copies, so its total is the sum).
const HALO2_ECC_TOTAL: usize = 520_158 + 79_492;

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let bs = parse_list(args.first(), &[1, 2, 4, 8, 16, 32, 64, 128, 256]);
    let ws = parse_list(args.get(1), &[3, 4, 5]);
    if args.get(2).map(String::as_str) == Some("fit") {
        fit_table(&bs, &ws);
        return;
    }
    let lookup_bits = 17;
    println!(
        "lookup bits {lookup_bits}; cells per signature: all advice cells (of which looked up)"
    );
    // The naive circuit is B independent copies of one verification: its per-signature count
    // is constant (measured for B <= 16 at every window, reused above). The ratio is taken to
    // the naive circuit at its cheapest window.
    println!("| B | w | naive (its best w) | batch | naive / batch | halo2-ecc / batch | rows phase 0 / 1 |");
    println!("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    let mut naive_per_sig = (0usize, 0usize, 0u32);
    let mut naive_lines = Vec::new();
    for &b in &bs {
        let sigs = witnesses(b);
        // Measured at min(B, 16) signatures: for every B up to 16, and once for a list that
        // starts above 16.
        if b <= 16 || naive_per_sig.2 == 0 {
            let nb = b.min(16);
            let naive_sigs = if nb == b { sigs.clone() } else { witnesses(nb) };
            naive_per_sig = (usize::MAX, 0, 0);
            let mut by_window = Vec::new();
            for w in WINDOWS {
                let s =
                    NaiveEcdsaCircuit::new(LayoutParams::new(lookup_bits), naive_sigs.clone(), w)
                        .stats();
                by_window.push(format!(
                    "w = {w}: {} ({})",
                    s.advice_cells / nb,
                    s.lookup_cells / nb
                ));
                if s.advice_cells / nb < naive_per_sig.0 {
                    naive_per_sig = (s.advice_cells / nb, s.lookup_cells / nb, w);
                }
            }
            naive_lines.push(format!("B = {nb}: {}", by_window.join(", ")));
        }
        for &w in &ws {
            let c =
                BatchEcdsaCircuit::new(batch_params(lookup_bits, w as u32), sigs.clone(), w as u32);
            let [s0, s1] = c.phase_stats();
            let (adv, lk) = (
                (s0.advice_cells + s1.advice_cells) / b,
                (s0.lookup_cells + s1.lookup_cells) / b,
            );
            println!(
                "| {b} | {w} | {} ({}), w = {} | {adv} ({lk}) | {:.2}x | {:.2}x | {} / {} |",
                naive_per_sig.0,
                naive_per_sig.1,
                naive_per_sig.2,
                naive_per_sig.0 as f64 / adv as f64,
                HALO2_ECC_TOTAL as f64 / adv as f64,
                s0.rows,
                s1.rows
            );
        }
    }
    println!("naive circuit per signature by window:");
    for l in naive_lines {
        println!("  {l}");
    }
}

/// `-- B1,.. w1,.. fit`: the layouts `BatchEcdsaCircuit::fitted` picks for each goal per B and w for
/// both goals (`SmallProof`, the default of `fitted`, and `FastProver`): k, phase-1 lanes,
/// rows per phase, advice columns, committed polynomials and the proving work
/// `columns × 2^k`.
fn fit_table(bs: &[usize], ws: &[usize]) {
    println!("| B | w | goal | k | lanes phase 1 | rows phase 0 / 1 | advice columns | columns | columns × 2^k |");
    println!("| ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    for &b in bs {
        for &w in ws {
            let sigs = witnesses(b);
            for goal in [LayoutGoal::SmallProof, LayoutGoal::FastProver] {
                let (c, k) = BatchEcdsaCircuit::fitted(
                    sigs.clone(),
                    &FitOptions::default().window(w as u32).goal(goal),
                );
                let [s0, s1] = c.phase_stats();
                let cols = proving_columns(c.params());
                let mut cs = ConstraintSystem::<Native>::default();
                let _ = BatchEcdsaCircuit::configure_with_params(&mut cs, c.params().clone());
                println!(
                    "| {b} | {w} | {goal:?} | {k} | {} | {} / {} | {} | {cols} | {} |",
                    c.params().lanes_of(1),
                    s0.rows,
                    s1.rows,
                    cs.num_advice_columns(),
                    (cols as u128) << k,
                );
            }
        }
    }
}
