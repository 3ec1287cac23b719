//! `verify --native --batch FILE`: check a batch natively.
//! `verify --native --txs FILE [--chain-id N] [--strip-out FILE]`: decode raw signed Ethereum
//! transactions, recover their senders and check the batch natively.
//! `verify --proof FILE [--batch FILE | --txs FILE]`: check a proof file (docs/commands.md),
//! of either statement (keys or digest: the file says which). With a batch, its public inputs
//! must be the proof's: under keys each (hash mod n, key); under the digest each (raw signing
//! hash, address of the key), for transactions (signing hash, recovered sender).
//!
//! Exit codes: 0 valid; 1 invalid (a signature fails natively; the proof does not verify, was
//! made for another circuit build, or its public inputs differ from the batch file's: each
//! differing signature is named); 2 bad input (unreadable or malformed file, unknown circuit,
//! missing params).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use batch_ecdsa::batch_file::BatchFile;
use batch_ecdsa::cli::{load_signed_txs, write_stripped, SetupArgs, TxArgs};
use batch_ecdsa::prover::api::Verifier;
use batch_ecdsa::prover::bars::StderrBars;
use batch_ecdsa::prover::expected::{self, Entries};
use batch_ecdsa::prover::proof::ProofFile;
use batch_ecdsa::txs::SignedTxs;
use clap::Parser;
use serde_json::json;

/// Verifies a batch of secp256k1 ECDSA signatures, natively or through a proof.
#[derive(Parser, Debug)]
#[command(name = "verify", version)]
struct Args {
    /// Check the batch natively (random-linear-combination batch equation, then bisection).
    #[arg(long, conflicts_with = "proof")]
    native: bool,
    /// A proof file written by `prove`.
    #[arg(long)]
    proof: Option<PathBuf>,
    /// The batch file (JSON, format in docs/formats.md, *Batch file*): checked natively with
    /// --native; with --proof, its public inputs (hash, key) must be the proof's.
    #[arg(long)]
    batch: Option<PathBuf>,
    #[command(flatten)]
    txs: TxArgs,
    #[command(flatten)]
    setup: SetupArgs,
    /// With --proof: last stdout line one JSON object.
    #[arg(long)]
    json: bool,
    /// With --proof: refuse a proof of more than N signatures before any work (a verifier
    /// service caps what a stranger's file can cost: docs/service.md). Without it, the
    /// circuit's own limit.
    #[arg(long, value_name = "N", value_parser = batch_ecdsa::cli::batch_size)]
    max_batch: Option<usize>,
}

fn load_batch(path: &Path) -> Result<BatchFile, ExitCode> {
    BatchFile::load(path).map_err(|errors| {
        for e in errors {
            eprintln!("error: {e}");
        }
        ExitCode::from(2)
    })
}

/// The batch of `--batch` or `--txs` (with its transactions); `None` when neither is given.
fn load_either(args: &Args) -> Result<Option<(BatchFile, Option<SignedTxs>)>, ExitCode> {
    if let Some(path) = &args.txs.txs {
        let txs = load_signed_txs(path, &args.txs.policy()).map_err(ExitCode::from)?;
        return Ok(Some((txs.batch_file(), Some(txs))));
    }
    match &args.batch {
        Some(p) => Ok(Some((load_batch(p)?, None))),
        None => Ok(None),
    }
}

fn native(batch: BatchFile, txs: Option<SignedTxs>, args: &Args) -> ExitCode {
    let policy = args.setup.policy();
    let invalid = batch.verify_native(policy);
    if invalid.is_empty() {
        if let (Some(t), Some(path)) = (&txs, &args.txs.strip_out) {
            if let Err(code) = write_stripped(t, path) {
                return ExitCode::from(code);
            }
        }
        if txs.is_some() {
            println!(
                "ok: all {} transactions valid (senders recovered natively; native batch check)",
                batch.len()
            );
        } else {
            println!(
                "ok: all {} signatures valid (native batch check)",
                batch.len()
            );
        }
        ExitCode::SUCCESS
    } else {
        for e in &invalid {
            println!("{e}");
        }
        println!("invalid: {} of {} signatures", invalid.len(), batch.len());
        ExitCode::from(1)
    }
}

fn with_proof(args: &Args, path: &Path) -> ExitCode {
    let file = match ProofFile::load(path) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(max) = args.max_batch {
        if file.batch_size > max {
            eprintln!(
                "error: {}: the proof is of {} signatures, more than --max-batch {max}",
                path.display(),
                file.batch_size
            );
            return ExitCode::from(2);
        }
    }
    let policy = args.setup.policy();
    let batch = match load_either(args) {
        Ok(b) => b.map(|(batch, _)| batch),
        Err(code) => return code,
    };
    let bars = StderrBars::new();
    let source = args.setup.source();
    let verifier =
        match Verifier::for_proof_file_with(&file, &args.setup.params_dir, &source, &bars) {
            Ok(v) => v,
            Err(e) => {
                if e.exit_code() == 1 {
                    println!("{e}");
                } else {
                    eprintln!("error: {e}");
                }
                return ExitCode::from(e.exit_code());
            }
        };
    let setup = verifier.setup_identity().clone();
    let insecure = setup.kind.is_insecure();
    if insecure {
        eprintln!(
            "WARNING: INSECURE: checked under the fixed-seed development setup (--insecure-dev-setup): anyone can forge proofs under it"
        );
    }
    let result = verifier.verify(&file);
    let from_txs = args.txs.txs.is_some();
    let entries = if from_txs {
        Entries::Transactions
    } else {
        Entries::Signatures
    };
    let mismatches = batch
        .as_ref()
        .map(|b| expected::mismatches(&file, b, policy, entries))
        .unwrap_or_default();
    for m in &mismatches {
        println!("{m}");
    }
    let (valid, verify_s) = match &result {
        Ok(t) => (mismatches.is_empty(), Some(t.as_secs_f64())),
        Err(e) => {
            if e.exit_code() == 2 {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
            println!("{e}");
            (false, None)
        }
    };
    if let (Ok(t), true) = (&result, valid) {
        println!(
            "{}ok: proof valid for {} signatures ({} circuit, public input: {}{}, k = {}, {} bytes, verified in {:.1} ms){}",
            if insecure { "INSECURE " } else { "" },
            match batch.as_ref().map(|b| b.len()) {
                Some(n) if n < file.batch_size => format!(
                    "{n} (of B = {}, the rest the canonical filler)",
                    file.batch_size
                ),
                _ => file.batch_size.to_string(),
            },
            file.circuit,
            file.statement,
            file.digest
                .as_deref()
                .map(|d| format!(" {d}"))
                .unwrap_or_default(),
            file.k,
            file.proof_bytes().map(|p| p.len()).unwrap_or(0),
            t.as_secs_f64() * 1e3,
            if batch.is_some() {
                if args.txs.txs.is_some() {
                    "; public inputs match the transactions"
                } else {
                    "; public inputs match the batch file"
                }
            } else {
                ""
            }
        );
        println!(
            "{}setup: {}",
            if insecure { "INSECURE " } else { "" },
            setup.describe()
        );
    } else if result.is_ok() {
        println!(
            "invalid: the proof verifies, but not for {}",
            if from_txs {
                "these transactions"
            } else {
                "this batch file"
            }
        );
    }
    if args.json {
        println!(
            "{}",
            json!({
                "valid": valid,
                "proof_verifies": result.is_ok(),
                "batch_matches": batch.as_ref().map(|_| mismatches.is_empty()),
                "circuit": file.circuit.as_str(),
                "statement": file.statement.as_str(),
                "digest": file.digest,
                "batch_size": file.batch_size,
                "k": file.k,
                "verify_s": verify_s,
                "proof_bytes": file.proof_bytes().map(|p| p.len()).ok(),
                "setup": setup,
                "insecure": insecure,
            })
        );
    }
    if valid {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

fn main() -> ExitCode {
    if let Some(code) = batch_ecdsa::cpu::refusal() {
        return code;
    }
    let args = Args::parse();
    if let Some(path) = args.proof.clone() {
        return with_proof(&args, &path);
    }
    if !args.native {
        eprintln!(
            "error: say what to verify: --proof FILE [--batch FILE | --txs FILE], or --native \
             --batch FILE, or --native --txs FILE"
        );
        return ExitCode::from(2);
    }
    match load_either(&args) {
        Ok(Some((batch, txs))) => native(batch, txs, &args),
        Ok(None) => {
            eprintln!("error: --native needs --batch FILE or --txs FILE");
            ExitCode::from(2)
        }
        Err(code) => code,
    }
}
