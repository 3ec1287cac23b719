//! Cell counts of `NaiveEcdsaCircuit` (layout only: no keys, no proof) for B = 1, 2, 4 at
//! lookup bits L (default 17), per signature; the fitted k (L = k − 1) of each B; and the
//! pieces of one verification. Run:
//! `cargo bench -p batch-ecdsa-circuits --bench naive_cells [-- L]`.
//! halo2-ecc's `ecdsa_verify_no_pubkey_check`: `benches/halo2-ecc-cells` (separate crate).

use batch_ecdsa_circuits::ecdsa::naive::{NaiveEcdsaCircuit, DEFAULT_WINDOW};
use batch_ecdsa_circuits::ecdsa::scalar;
use batch_ecdsa_circuits::layout::{Builder, LayoutParams, LayoutStats, MAIN_COLS};
use batch_ecdsa_circuits::plan::FitOptions;
use batch_ecdsa_circuits::test_utils::ecdsa_witness;
use halo2curves::secp256k1::Secp256k1Affine;

fn main() {
    let l = batch_ecdsa_circuits::test_utils::number_arg(17);
    let mut params = LayoutParams::new(l);
    if params.window_tag(DEFAULT_WINDOW).is_none() {
        params.window_bits.push(DEFAULT_WINDOW);
    }
    let cols = MAIN_COLS + params.lookup_cols;
    println!("NaiveEcdsaCircuit, window {DEFAULT_WINDOW}, L = {l} ({cols} advice columns)");
    println!(
        "{:>3} {:>12} {:>12} {:>10} {:>14} {:>14} {:>10}",
        "B", "advice", "lookup", "rows", "advice/sig", "lookup/sig", "rows/sig"
    );
    for b in [1usize, 2, 4] {
        let sigs: Vec<_> = (0..b as u64).map(ecdsa_witness).collect();
        let c = NaiveEcdsaCircuit::new(params.clone(), sigs, DEFAULT_WINDOW);
        let s = c.stats();
        println!(
            "{b:>3} {:>12} {:>12} {:>10} {:>14} {:>14} {:>10}",
            s.advice_cells,
            s.lookup_cells,
            s.rows,
            s.advice_cells / b,
            s.lookup_cells / b,
            s.rows / b
        );
    }
    println!("fitted k (L = k - 1):");
    for b in [1usize, 2, 4] {
        let sigs: Vec<_> = (0..b as u64).map(ecdsa_witness).collect();
        let (c, k) = NaiveEcdsaCircuit::fitted(sigs, &FitOptions::default().window(DEFAULT_WINDOW));
        let s = c.stats();
        println!(
            "  B = {b}: k = {k}, L = {}, advice {}, lookup {}, rows {}",
            c.params().lookup_bits,
            s.advice_cells,
            s.lookup_cells,
            s.rows
        );
    }

    // The pieces of one verification (second signature, so shared constants exist already).
    let c = NaiveEcdsaCircuit::new(params.clone(), vec![ecdsa_witness(0)], DEFAULT_WINDOW);
    let ecc = c.chip();
    let mut b = Builder::new(0, params.clone());
    let w0 = ecdsa_witness(0);
    batch_ecdsa_circuits::ecdsa::naive::lay_out_verification_for_counts(
        &ecc,
        &mut b,
        &w0,
        DEFAULT_WINDOW,
        batch_ecdsa_circuits::ecdsa::Statement::Keys,
    );
    let w = ecdsa_witness(1);
    let mut rows: Vec<(&str, LayoutStats)> = Vec::new();
    macro_rules! measure {
        ($name:expr, $e:expr) => {{
            let before = b.stats();
            let out = $e;
            rows.push(($name, b.stats() - before));
            out
        }};
    }
    let q = measure!(
        "load Q (canonical, on curve)",
        ecc.load_point_xy(&mut b, &w.q().0, &w.q().1)
    );
    let r_pt = measure!(
        "load R (canonical, on curve)",
        ecc.load_point_xy(&mut b, &w.r_point().0, &w.r_point().1)
    );
    let h = measure!(
        "load h (canonical)",
        scalar::load_canonical_scalar(&ecc.fq, &mut b, w.h()).expect("fits")
    );
    let s = measure!(
        "load s (1 <= s < n)",
        scalar::load_signature_scalar(&ecc.fq, &mut b, w.s()).expect("fits")
    );
    let r = measure!(
        "r = x(R) mod n, r != 0",
        scalar::x_mod_n(&ecc.fq, &mut b, r_pt.x())
    );
    let u = measure!("u = h / s", scalar::div(&ecc.fq, &mut b, &h, &s));
    let v = measure!("v = r / s", scalar::div(&ecc.fq, &mut b, r.value(), &s));
    let p = measure!(
        "msm: u*G + v*Q (one Straus chain, w = 5)",
        ecc.msm(
            &mut b,
            std::slice::from_ref(&q),
            std::slice::from_ref(&v),
            Some(&u),
            DEFAULT_WINDOW
        )
    );
    measure!("assert P = R", ecc.assert_equal(&mut b, &p, &r_pt));
    measure!(
        "(alternative) fixed_base_mul u*G",
        ecc.fixed_base_mul(&mut b, &u, Secp256k1Affine::generator())
    );
    measure!(
        "(alternative) scalar_mul v*Q",
        ecc.scalar_mul(&mut b, &q, &v)
    );
    println!("pieces of one verification (L = {l}):");
    println!(
        "{:<48} {:>10} {:>10} {:>8}",
        "piece", "advice", "lookup", "rows"
    );
    for (n, s) in rows {
        println!(
            "{n:<48} {:>10} {:>10} {:>8}",
            s.advice_cells, s.lookup_cells, s.rows
        );
    }
}
