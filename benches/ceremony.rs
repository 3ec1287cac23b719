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
//! 2. with `--fft` only: the Lagrange basis at K computed from the powers (the G₁ FFT halo2
//!    runs), the extra cost of a `.ptau` on its first run (later runs read the cached basis and
//!    check it as in 1). At K = 22 on the project's 2-core machine it had not finished after
//!    42 minutes (stopped there, 2026-12-03);
//! 3. the same file cut down to K − 6 (the aggregated route's inner k = 16 at K = 22): read,
//!    checked and its basis computed.
//!
//! Prints one JSON line per row.

use std::time::Instant;

use batch_ecdsa::prover::params::{from_parts, local_setup};
use batch_ecdsa::prover::srs::read_ceremony;
use halo2_proofs::poly::commitment::{Params, ParamsProver};

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
