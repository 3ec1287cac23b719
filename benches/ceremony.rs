//! What a ceremony file costs to use, at the aggregated route's size.
//!
//! `cargo bench --bench ceremony [-- K] [--fft]` (default 22). Makes a throwaway setup of power K (τ
//! from the OS, dropped; PSE's and Axiom's `kzg_bn254_<K>.srs` have this form, and a 4.8 GB
//! `.ptau` cannot be fetched here) as halo2 raw params in the temporary folder, then times,
//! once each (minutes; criterion's repetitions would take hours):
//!
//! 1. the raw file read at K: every point checked, the powers checked to be one τ's (RLC
//!    pairing check), the file's own Lagrange basis checked (RLC of two MSMs): the cost of
//!    PSE's `.srs` on every run;
//! 2. the same powers as a *prepared* `.ptau` of power K (the Hermez `…_final_<K>.ptau`
//!    form: section 12 holds the Lagrange bases), read at K: every point checked, the powers
//!    checked, the basis read from section 12, put in halo2's order and checked. Only the block
//!    read (the basis for `2^K` rows) is real; the section's other blocks (for the other domain
//!    sizes, which snarkjs computes by its own FFTs) are the generator repeated, never read;
//! 3. with `--fft` only: the Lagrange basis at K computed from the powers (the G₁ FFT halo2
//!    runs), the extra cost of an unprepared `.ptau` on its first run (later runs read the
//!    cached basis and check it as in 1). At K = 22 on the project's 2-core machine it had not
//!    finished after 42 minutes (stopped there, 2026-12-03);
//! 4. the same file cut down to K − 6 (the aggregated route's inner k = 16 at K = 22): read,
//!    checked and its basis computed.
//!
//! Prints one JSON line per row.

use std::time::Instant;

use std::path::Path;

use batch_ecdsa::prover::params::{from_parts, local_setup};
use batch_ecdsa::prover::srs::{file, read_ceremony};
use halo2_proofs::halo2curves::bn256::{Bn256, G1Affine};
use halo2_proofs::halo2curves::serde::SerdeObject;
use halo2_proofs::poly::commitment::{Params, ParamsProver};
use halo2_proofs::poly::kzg::commitment::ParamsKZG;
use halo2_proofs::SerdeFormat;

/// Writes `params` (of `2^k` rows) as a prepared `.ptau` of power k whose section 12 holds their
/// Lagrange basis for `2^k` rows in snarkjs's order (module doc, 2). tauG1 needs `2^(k+1) − 1`
/// powers; the throwaway setup has `2^k`, so the rest are the last power repeated (never read
/// at k: the reader takes the first `2^k`).
fn write_prepared_ptau(path: &Path, k: u32, params: &ParamsKZG<Bn256>) {
    let n = 1usize << k;
    let mut raw = Vec::new();
    params
        .write_custom(&mut raw, SerdeFormat::RawBytes)
        .unwrap();
    let lagrange: Vec<G1Affine> = raw[4 + n * 64..4 + 2 * n * 64]
        .chunks(64)
        .map(|c| G1Affine::from_raw_bytes(c).unwrap())
        .collect();
    let mut g = params.get_g().to_vec();
    g.resize(2 * n - 1, g[n - 1]);
    let g2s = vec![params.g2(), params.s_g2()];
    let mut g2s_all = g2s.clone();
    g2s_all.resize(n, params.s_g2());
    file::write_ptau(path, k, &g, &g2s_all).unwrap();
    // Section 12: blocks for 2^0 ..= 2^(k+1) points; block k in snarkjs's order.
    let j = file::snarkjs_root_exponent() as usize & (n - 1);
    let mut snark = vec![lagrange[0]; n];
    for (i, p) in lagrange.iter().enumerate() {
        snark[(i * j) & (n - 1)] = *p;
    }
    let filler = <G1Affine as group::prime::PrimeCurveAffine>::generator().to_raw_bytes();
    let mut body = Vec::with_capacity(((4 * n) - 1) * 64);
    for m in 0..=k + 1 {
        if m == k {
            snark
                .iter()
                .for_each(|p| body.extend_from_slice(&p.to_raw_bytes()));
        } else {
            (0..1usize << m).for_each(|_| body.extend_from_slice(&filler));
        }
    }
    let mut bytes = std::fs::read(path).unwrap();
    bytes[8..12].copy_from_slice(&4u32.to_le_bytes());
    bytes.extend_from_slice(&12u32.to_le_bytes());
    bytes.extend_from_slice(&(body.len() as u64).to_le_bytes());
    bytes.extend_from_slice(&body);
    std::fs::write(path, bytes).unwrap();
}

fn main() {
    let k: u32 = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(22);
    let dir =
        std::env::temp_dir().join(format!("batch-ecdsa-ceremony-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("kzg_bn254_{k}.srs"));
    let t = Instant::now();
    let params = local_setup(&[k]).unwrap().pop().unwrap();
    let setup_s = t.elapsed().as_secs_f64();
    let mut f = std::fs::File::create(&path).unwrap();
    params.write(&mut f).unwrap();
    drop(f);
    drop(params);
    let bytes = std::fs::metadata(&path).unwrap().len();
    let row = |what: &str, k: u32, s: f64| {
        println!(
            "{{\"bench\":\"ceremony\",\"what\":\"{what}\",\"k\":{k},\"seconds\":{s:.1},\"threads\":{},\"file_bytes\":{bytes}}}",
            rayon::current_num_threads()
        );
    };
    row("make the throwaway setup (not a ceremony cost)", k, setup_s);

    let t = Instant::now();
    let read = read_ceremony(&path, k).expect("the file reads");
    row(
        "raw params read at k: points, powers and Lagrange basis checked",
        k,
        t.elapsed().as_secs_f64(),
    );

    let ptau = dir.join(format!("prepared_{k}.ptau"));
    write_prepared_ptau(&ptau, k, &read);
    let t = Instant::now();
    let from_ptau = read_ceremony(&ptau, k).expect("the prepared .ptau reads");
    row(
        "prepared .ptau read at k: points, powers and section-12 Lagrange basis checked",
        k,
        t.elapsed().as_secs_f64(),
    );
    assert_eq!(from_ptau.s_g2(), read.s_g2());
    drop(from_ptau);
    std::fs::remove_file(&ptau).ok();

    if std::env::args().any(|a| a == "--fft") {
        let g = read.get_g().to_vec();
        let (g2, s_g2) = (read.g2(), read.s_g2());
        drop(read);
        let t = Instant::now();
        let computed = from_parts(k, g, None, g2, s_g2);
        row(
            ".ptau first run: Lagrange basis computed (G1 FFT)",
            k,
            t.elapsed().as_secs_f64(),
        );
        drop(computed);
    } else {
        drop(read);
    }

    let inner = k.saturating_sub(6).max(1);
    let t = Instant::now();
    read_ceremony(&path, inner).expect("the file reads cut down");
    row(
        "cut down: read, checked, Lagrange basis computed",
        inner,
        t.elapsed().as_secs_f64(),
    );
    std::fs::remove_dir_all(&dir).ok();
}
