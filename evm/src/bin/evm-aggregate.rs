//! `evm-aggregate [--count B] [--public digest|keys] [--k K] [--lookup-bits L] [--json FILE]`
//! (feature `aggregate`): the aggregation prototype end to end. Proves the demo batch of B
//! signatures with the batch circuit in snark-verifier's Poseidon transcript, verifies that
//! proof inside snark-verifier-sdk's aggregation circuit of 2^K rows (lookup bits L, default
//! K − 1), proves the aggregation circuit for the EVM, generates its verifier, compiles it
//! with solc-js, deploys it in revm (under EIP-170 when it fits) and calls it with the proof;
//! then checks that a tampered proof and a tampered public input are rejected. Prints the
//! measured row as JSON (and writes it to `--json`).
//!
//! With `--sweep K,K,...`, only sizes the verifier at each outer k listed (layout and
//! verifying key, no proving key, no proof), and with `--public-inputs N,N,...` also the
//! verifier of the same key for N public inputs (code size only: that verifier is not run).
//!
//! The setup: `--params FILE` (a ceremony file, .ptau or halo2 raw, of power ≥ K), the local
//! setup cached in `--params-dir` (default), or `--insecure-dev-setup`.

use std::path::PathBuf;
use std::process::ExitCode;

use batch_ecdsa::cli::SetupArgs;
use batch_ecdsa::prover::phases::{process_peak_mib, Phases};
use batch_ecdsa_circuits::ecdsa::Statement;
use batch_ecdsa_evm::aggregation_prover::{
    inner_k, inner_snark, load_setup, measure_aggregation, outer_verifier, outer_vk, OuterShape,
};
use batch_ecdsa_evm::solc::Solc;
use batch_ecdsa_evm::EIP170_CODE_LIMIT;
use clap::Parser;

/// Aggregates a batch-ecdsa proof and measures the aggregation circuit's EVM verifier.
#[derive(Parser, Debug)]
#[command(name = "evm-aggregate", version)]
struct Args {
    /// The batch size B of the inner (batch circuit) proof.
    #[arg(long, default_value_t = 1)]
    count: usize,
    /// The inner proof's statement: `digest` (one Keccak digest of the (hash, address)
    /// pairs: 2 public inputs) or `keys` (3 per signature).
    #[arg(long = "public", default_value = "digest")]
    statement: Statement,
    /// log2 rows of the outer (aggregation) circuit (22: the smallest whose verifier fits
    /// EIP-170 for the digest statement; 21 suffices for keys at B = 1).
    #[arg(long, default_value_t = 22)]
    k: u32,
    /// Lookup bits of the outer circuit's range checks (default k − 1).
    #[arg(long)]
    lookup_bits: Option<usize>,
    /// Only size the verifier at each of these outer k (lookup bits k − 1).
    #[arg(long, value_delimiter = ',')]
    sweep: Vec<u32>,
    /// With --sweep: also size the verifier of the same outer key for these numbers of public
    /// inputs (the accumulator's 12 included), e.g. 14 for a 2-word digest.
    #[arg(long, value_delimiter = ',')]
    public_inputs: Vec<usize>,
    #[command(flatten)]
    setup: SetupArgs,
    /// Folder for the outer verifier's Solidity and calldata.
    #[arg(long, default_value = "aggregate-verifier")]
    out_dir: PathBuf,
    /// Also write the measured row (JSON) here.
    #[arg(long)]
    json: Option<PathBuf>,
}

fn run(args: &Args) -> Result<(), String> {
    let solc = Solc::locate_or_install().map_err(|e| e.to_string())?;
    if !args.sweep.is_empty() {
        let source = args.setup.source();
        let ik = inner_k(args.count, args.statement).map_err(|e| e.to_string())?;
        let first = args.sweep.first().copied().unwrap_or(ik);
        let (inner_srs, _) = load_setup(&source, &args.setup.params_dir, ik, first.max(ik))?;
        let keys_dir = batch_ecdsa::prover::proving_key::keys_dir(&args.setup.params_dir);
        let mut phases = Phases::silent();
        let inner = inner_snark(
            args.count,
            args.statement,
            &inner_srs.params,
            &keys_dir,
            &mut phases,
        )?;
        for &k in &args.sweep {
            let (_, outer) = load_setup(&source, &args.setup.params_dir, ik, k)?;
            let p = outer.params;
            let shape = OuterShape {
                k,
                lookup_bits: k as usize - 1,
            };
            let t = std::time::Instant::now();
            let (layout, vk) = outer_vk(&p, &inner.snark, shape)?;
            let vk_s = t.elapsed().as_secs_f64();
            let mut sizes = Vec::new();
            for n in std::iter::once(layout.num_instance).chain(args.public_inputs.iter().copied())
            {
                let (_, compiled) = outer_verifier(&p, &vk, n, None, &solc)?;
                sizes.push(serde_json::json!({
                    "public_inputs": n,
                    "runtime_code_bytes": compiled.runtime.len(),
                    "creation_code_bytes": compiled.creation.len(),
                    "fits_eip170": compiled.runtime.len() <= EIP170_CODE_LIMIT,
                }));
            }
            println!(
                "{}",
                serde_json::json!({
                    "batch_size": args.count,
                    "statement": args.statement.to_string(),
                    "inner_k": inner.k,
                    "inner_columns": inner.snark.protocol.num_witness.iter().sum::<usize>(),
                    "outer": layout,
                    "verifiers": sizes,
                    "layout_and_vk_s": vk_s,
                    "peak_rss_mib": process_peak_mib(),
                })
            );
        }
        return Ok(());
    }

    let shape = OuterShape {
        k: args.k,
        lookup_bits: args.lookup_bits.unwrap_or(args.k as usize - 1),
    };
    let m = measure_aggregation(
        args.count,
        args.statement,
        shape,
        &args.setup.source(),
        &args.setup.params_dir,
        &solc,
        &|line| eprintln!("{line}"),
    )?;
    std::fs::create_dir_all(&args.out_dir).map_err(|e| e.to_string())?;
    std::fs::write(args.out_dir.join("AggregationVerifier.sol"), &m.solidity)
        .map_err(|e| e.to_string())?;
    std::fs::write(args.out_dir.join("calldata.hex"), hex::encode(&m.calldata))
        .map_err(|e| e.to_string())?;
    let row = m.row;
    let json = serde_json::to_string_pretty(&row).map_err(|e| e.to_string())?;
    println!("{json}");
    if let Some(path) = &args.json {
        std::fs::write(path, json + "\n").map_err(|e| e.to_string())?;
    }
    Ok(())
}

fn main() -> ExitCode {
    if let Some(code) = batch_ecdsa::cpu::refusal() {
        return code;
    }
    let args = Args::parse();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
