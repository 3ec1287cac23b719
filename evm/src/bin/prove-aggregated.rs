//! `prove-aggregated [--batch FILE | --txs FILE [--chain-id N ...] | --count B [--seed S]]
//! [--public digest|keys] [--k K] [--params-dir DIR] --out-dir DIR [--json]` (feature
//! `aggregate`): a user's batch proven for Ethereum. Proves the batch with the batch circuit
//! (snark-verifier's Poseidon transcript), verifies that proof inside the aggregation circuit
//! of 2^K rows (default 22, where the digest statement's verifier fits EIP-170), proves that
//! for the EVM, generates and compiles the outer verifier, then checks the result as a chain
//! would before writing anything: the verifier deployed in revm with EIP-170 enforced and
//! called, and (digest) the wrapper in front of it called with the batch, returning D.
//! Writes the aggregated proof folder (`batch_ecdsa_evm::aggregated_folder`) at once.
//!
//! `--pad-to B` (digest statement) proves the n ≤ B signatures of the batch on the key for B:
//! the batch is padded with the canonical filler (`batch_ecdsa::native::filler`), the folder
//! records the n real pairs and D of them padded to B, and the wrapper is called with the n
//! pairs (it appends the filler itself).
//!
//! `--txs FILE --strip-out FILE` also writes the stripped transactions (what a rollup posts,
//! and what `verify-aggregated --stripped` reads) after the folder.
//!
//! Exit codes: 0 proved, 1 invalid batch (every invalid signature or transaction named, nothing
//! proved), 2 bad input or an environment failure (nothing written).
//!
//! The setup (one τ for the inner and the outer circuit): `--params FILE`, a ceremony file
//! (.ptau or halo2 raw) of power ≥ K, cut down for the inner circuit: **the only setup whose
//! verifier is fit to deploy**; without it the local setup cached in `--params-dir` (τ from
//! this machine's randomness, never stored: anyone who checks the proof trusts this machine);
//! `--insecure-dev-setup` the fixed-seed one (anyone can forge proofs under it: test fixtures
//! only). The folder and the verifier's header record which.
//!
//! 11–19 minutes with the keys cached (B = 64, 128, 256), 14–26 making them, 14.8–16.6 GiB, on 2
//! cores at K = 22 (docs/results.md). Each phase's time and peak memory go to stderr as it
//! ends and into `--json`'s `phases`; the run's peak is `peak_rss_mib` (`/usr/bin/time` sees
//! only the last phase's: `batch_ecdsa::prover::phases`).

use std::path::PathBuf;
use std::process::ExitCode;

use batch_ecdsa::cli::{load_signed_txs, write_stripped, BatchArgs, SetupArgs};
use batch_ecdsa_circuits::ecdsa::Statement;
use batch_ecdsa_evm::aggregated_folder::{check_folder_free, write_folder};
use batch_ecdsa_evm::folder_prover::{prove_folder, FolderError, FolderRequest};
use clap::Parser;

/// Proves a batch for Ethereum: a batch proof aggregated into one whose verifier fits EIP-170.
#[derive(Parser, Debug)]
#[command(name = "prove-aggregated", version)]
struct Args {
    #[command(flatten)]
    input: BatchArgs,
    /// The inner proof's statement: digest (2 public inputs whatever B; what the wrapper
    /// contract recomputes) or keys (3 per signature).
    #[arg(long = "public", default_value = "digest")]
    statement: Statement,
    /// log2 rows of the outer (aggregation) circuit.
    #[arg(long, default_value_t = 22, value_parser = clap::value_parser!(u32).range(16..=26))]
    k: u32,
    #[command(flatten)]
    setup: SetupArgs,
    /// Prove on the key for B signatures (n ≤ B): the batch is padded with the canonical filler
    /// (digest statement only). Default: the batch's size.
    #[arg(long, value_name = "B", value_parser = batch_ecdsa::cli::batch_size)]
    pad_to: Option<usize>,
    /// The folder to write (must not exist, or be empty).
    #[arg(long)]
    out_dir: PathBuf,
    /// Last stdout line: one JSON object with the figures.
    #[arg(long)]
    json: bool,
}

fn fail(code: u8, lines: impl IntoIterator<Item = String>) -> ExitCode {
    for l in lines {
        eprintln!("error: {l}");
    }
    ExitCode::from(code)
}

fn run(args: &Args) -> Result<(), ExitCode> {
    check_folder_free(&args.out_dir).map_err(|e| fail(2, [e]))?;
    let txs = match &args.input.txs.txs {
        Some(path) => {
            Some(load_signed_txs(path, &args.input.txs.policy()).map_err(ExitCode::from)?)
        }
        None => None,
    };
    let batch = args.input.load(txs.as_ref(), 2).map_err(ExitCode::from)?;
    let n = batch.len();
    if args.pad_to.is_some_and(|pad| pad < n) {
        return Err(fail(
            2,
            [format!(
                "--pad-to {} is smaller than the batch ({n} signatures)",
                args.pad_to.unwrap_or_default()
            )],
        ));
    }
    if args.pad_to.is_some_and(|pad| pad > n) && args.statement != Statement::Digest {
        return Err(fail(
            2,
            ["--pad-to is for the digest statement (the folder records its real pairs)".into()],
        ));
    }
    let log = |line: &str| eprintln!("{line}");
    let source = args.setup.source();
    if source.kind().is_insecure() {
        log("WARNING: INSECURE fixed-seed development setup: anyone can forge proofs under it; the folder is a test fixture, never deploy its verifier");
    }
    let payloads: Option<Vec<Vec<u8>>> = txs.as_ref().map(|t| {
        t.records
            .iter()
            .map(|r| r.tx.signing_payload.clone())
            .collect()
    });
    let request = FolderRequest {
        batch: &batch,
        payloads: payloads.as_deref(),
        statement: args.statement,
        batch_size: args.pad_to.unwrap_or(n),
        outer_k: args.k,
        policy: args.setup.policy(),
        setup: &source,
        params_dir: &args.setup.params_dir,
    };
    let folder = match prove_folder(&request, &log) {
        Ok(f) => f,
        Err(FolderError::Invalid { invalid, n }) => {
            for e in &invalid {
                println!("{e}");
            }
            return Err(fail(
                1,
                [format!(
                    "{} of {n} signatures invalid; nothing is proved",
                    invalid.len()
                )],
            ));
        }
        Err(e) => return Err(fail(2, [e.to_string()])),
    };
    write_folder(
        &args.out_dir,
        &folder.file,
        &folder.solidity,
        folder.wrapper_calldata.as_deref(),
    )
    .map_err(|e| fail(2, [e]))?;

    let tag = if source.kind().is_insecure() {
        "INSECURE "
    } else {
        ""
    };
    let (b, statement) = (request.batch_size, args.statement);
    println!(
        "{tag}B = {b}, {n} real ({statement}): inner k = {} proof {} bytes in {:.1} s; outer k = {} proof {} bytes in {:.1} s (keys {} in {:.1} s)",
        folder.inner_k,
        folder.inner_proof_bytes,
        folder.inner_prove.as_secs_f64(),
        args.k,
        folder.outer_proof_bytes,
        folder.outer_prove.as_secs_f64(),
        folder.outer_keys,
        folder.outer_keygen.as_secs_f64()
    );
    for line in folder.on_chain.lines() {
        println!("{tag}{line}");
    }
    println!("{tag}setup: {}", folder.setup.describe());
    if let Some(peak) = folder.peak_rss_mib {
        // The phase meter resets the kernel's mark, so `/usr/bin/time`'s figure is only the
        // last phase's: this is the run's.
        println!(
            "{tag}peak memory {} MiB (each phase's above; /usr/bin/time reports only the last phase's)",
            batch_ecdsa::calldata::units::thousands(peak)
        );
    }
    println!("{tag}written to {}", args.out_dir.display());
    if let (Some(t), Some(path)) = (&txs, &args.input.txs.strip_out) {
        write_stripped(t, path).map_err(ExitCode::from)?;
    }
    if args.json {
        let row = serde_json::json!({
            "statement": statement.to_string(),
            "batch_size": b,
            "signatures": n,
            "inner_k": folder.inner_k,
            "inner_proof_bytes": folder.inner_proof_bytes,
            "inner_keys": folder.inner_keys,
            "inner_keygen_s": folder.inner_keygen.as_secs_f64(),
            "inner_prove_s": folder.inner_prove.as_secs_f64(),
            "outer": folder.outer,
            "outer_keys": folder.outer_keys,
            "outer_keygen_s": folder.outer_keygen.as_secs_f64(),
            "outer_prove_s": folder.outer_prove.as_secs_f64(),
            "outer_proof_bytes": folder.outer_proof_bytes,
            "on_chain": folder.on_chain,
            "setup": folder.setup,
            "peak_rss_mib": folder.peak_rss_mib,
            "phases": folder.phases,
        });
        println!("{row}");
    }
    Ok(())
}

fn main() -> ExitCode {
    if let Some(code) = batch_ecdsa::cpu::refusal() {
        return code;
    }
    match run(&Args::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(code) => code,
    }
}
