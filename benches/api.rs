//! What the library's API costs beyond the raw halo2 calls, and the proof time of n < B
//! against n = B on one key (docs/library.md).
//!
//! `cargo bench --bench api` (about two minutes on 2 cores): the batch circuit at B = 4, keys
//! statement, the local setup in a temporary folder. Prints one JSON line per row, each the
//! median of `RUNS` runs:
//!
//! - `Prover::new` with the keys cached (the layout, the params read and checked, the cached
//!   keys read and checked), after one cold run that made them;
//! - `Prover::prove`: its wall time, of which `create_proof` (`Proved::prove_s`) and the
//!   prover's own `verify_proof` (`Proved::verify_s`); the rest is the API's own work (native
//!   pre-check, witness, proof file);
//! - `Verifier::verify_batch`: its wall time, of which `verify_proof`; the rest is the
//!   comparison with the batch held and the proof file's decoding;
//! - `Prover::prove` for n = 1, 2, 3, 4 signatures on the same B = 4 key (padded with the
//!   filler): the same circuit, so the same time.

use std::time::Instant;

use batch_ecdsa::demo::demo_batch;
use batch_ecdsa::{
    BatchFile, CircuitKind, Entries, Policy, ProveOptions, Prover, Silent, Verifier,
};

const B: usize = 4;
const RUNS: usize = 5;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn row(what: &str, fields: &[(&str, f64)]) {
    let rest: Vec<String> = fields
        .iter()
        .map(|(k, v)| format!("\"{k}\":{v:.4}"))
        .collect();
    println!(
        "{{\"bench\":\"api\",\"what\":\"{what}\",\"batch_size\":{B},\"runs\":{RUNS},\"threads\":{},{}}}",
        rayon::current_num_threads(),
        rest.join(",")
    );
}

fn main() {
    let dir = std::env::temp_dir().join(format!("batch-ecdsa-api-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let all = BatchFile::from_records(&demo_batch(B, 1, &[]).unwrap()).unwrap();

    let t = Instant::now();
    let prover = Prover::new(CircuitKind::Batch, B, &dir, &Silent).unwrap();
    row(
        "Prover::new, cold (setup and keys made)",
        &[("seconds", t.elapsed().as_secs_f64())],
    );
    drop(prover);
    let mut new_s = Vec::new();
    for _ in 0..RUNS {
        let t = Instant::now();
        let p = Prover::new(CircuitKind::Batch, B, &dir, &Silent).unwrap();
        new_s.push(t.elapsed().as_secs_f64());
        drop(p);
    }
    row("Prover::new, keys cached", &[("seconds", median(new_s))]);

    let prover = Prover::new(CircuitKind::Batch, B, &dir, &Silent).unwrap();
    let (mut wall, mut create, mut own_verify) = (Vec::new(), Vec::new(), Vec::new());
    let mut file = None;
    for _ in 0..RUNS {
        let t = Instant::now();
        let proved = prover
            .prove(&all, ProveOptions::default(), &Silent)
            .unwrap();
        wall.push(t.elapsed().as_secs_f64());
        create.push(proved.prove_s);
        own_verify.push(proved.verify_s);
        file = Some(proved.file);
    }
    let (w, c, v) = (median(wall), median(create), median(own_verify));
    row(
        "Prover::prove",
        &[
            ("seconds", w),
            ("create_proof_seconds", c),
            ("self_verify_seconds", v),
            ("api_overhead_seconds", w - c - v),
        ],
    );

    let file = file.unwrap();
    let verifier = Verifier::for_proof_file(&file, &dir, &Silent).unwrap();
    let (mut wall, mut raw) = (Vec::new(), Vec::new());
    for _ in 0..RUNS {
        let t = Instant::now();
        let d = verifier
            .verify_batch(&file, &all, Policy::default(), Entries::Signatures)
            .unwrap();
        wall.push(t.elapsed().as_secs_f64());
        raw.push(d.as_secs_f64());
    }
    let (w, r) = (median(wall), median(raw));
    row(
        "Verifier::verify_batch",
        &[
            ("seconds", w),
            ("verify_proof_seconds", r),
            ("api_overhead_seconds", w - r),
        ],
    );

    for n in 1..=B {
        let mut held = all.clone();
        held.signatures.truncate(n);
        let mut wall = Vec::new();
        for _ in 0..RUNS {
            let t = Instant::now();
            prover
                .prove(&held, ProveOptions::default(), &Silent)
                .unwrap();
            wall.push(t.elapsed().as_secs_f64());
        }
        row(
            &format!("Prover::prove, n = {n} of B = {B}"),
            &[("n", n as f64), ("seconds", median(wall))],
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}
