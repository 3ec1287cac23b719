//! Cells per signature of `BatchEcdsaCircuit` against `NaiveEcdsaCircuit`, by laying the
//! circuits out (no keys, no proofs; counts from the builders). Run:
//! `cargo bench -p batch-ecdsa-circuits --bench batch_cells [-- B1,B2,... [w1,w2,...]]`
//! (defaults: B = 1,2,4,8,16,32,64,128,256 and w = 3,4,5). Lookup bits 17 (k = 18 tables);
//! the cell counts do not depend on k except through the number of range chunks per limb.

use batch_ecdsa_circuits::ecdsa::batch::{batch_params, BatchEcdsaCircuit};
use batch_ecdsa_circuits::ecdsa::naive::{NaiveEcdsaCircuit, DEFAULT_WINDOW};
use batch_ecdsa_circuits::ecdsa::SignatureWitness;
use batch_ecdsa_circuits::layout::LayoutParams;
use ff::Field;
use group::Curve;
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

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let bs = parse_list(args.first(), &[1, 2, 4, 8, 16, 32, 64, 128, 256]);
    let ws = parse_list(args.get(1), &[3, 4, 5]);
    let lookup_bits = 17;
    println!("lookup bits {lookup_bits}; cells per signature (advice total / of which looked up)");
    println!(
        "{:>4} {:>18} {}",
        "B",
        "naive (w=4)",
        ws.iter()
            .map(|w| format!("{:>24}", format!("batch w={w}")))
            .collect::<String>()
    );
    for &b in &bs {
        let sigs = witnesses(b);
        let naive = NaiveEcdsaCircuit::new(
            LayoutParams::new(lookup_bits),
            sigs.clone(),
            DEFAULT_WINDOW,
        )
        .stats();
        let mut line = format!(
            "{b:>4} {:>18}",
            format!(
                "{} / {}",
                naive.advice_cells / b,
                naive.lookup_cells / b
            )
        );
        for &w in &ws {
            let c = BatchEcdsaCircuit::new(batch_params(lookup_bits, w as u32), sigs.clone(), w as u32);
            let s = c.stats();
            let [s0, s1] = c.phase_stats();
            line += &format!(
                "{:>24}",
                format!(
                    "{} / {} ({:.2}x) [{}|{}r]",
                    s.advice_cells / b,
                    s.lookup_cells / b,
                    naive.advice_cells as f64 / s.advice_cells as f64,
                    s0.rows,
                    s1.rows
                )
            );
        }
        println!("{line}");
    }
}
