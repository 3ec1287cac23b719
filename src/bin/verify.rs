//! `verify --native --batch FILE`: check a batch natively (and, with the prover, proofs).
//!
//! Exit codes (DESIGN §5): 0 all valid, 1 some signature invalid (one line each on stdout,
//! naming the index and the reason), 2 bad input (one line each on stderr).

use std::path::PathBuf;
use std::process::ExitCode;

use batch_ecdsa::batch::{BatchFile, Policy};
use clap::Parser;

/// Verifies a batch of secp256k1 ECDSA signatures.
#[derive(Parser, Debug)]
#[command(name = "verify", version)]
struct Args {
    /// Check the batch natively (random-linear-combination batch equation, then bisection).
    #[arg(long)]
    native: bool,
    /// The batch file (JSON, DESIGN §4).
    #[arg(long)]
    batch: Option<PathBuf>,
    /// Reject high s (s > n/2), as Ethereum does since EIP-2.
    #[arg(long)]
    low_s: bool,
}

fn main() -> ExitCode {
    let args = Args::parse();
    if !args.native {
        eprintln!("error: say what to verify: --native --batch FILE");
        return ExitCode::from(2);
    }
    let Some(path) = args.batch else {
        eprintln!("error: --native needs --batch FILE");
        return ExitCode::from(2);
    };
    let batch = match BatchFile::load(&path) {
        Ok(b) => b,
        Err(errors) => {
            for e in errors {
                eprintln!("error: {e}");
            }
            return ExitCode::from(2);
        }
    };
    let invalid = batch.verify_native(Policy { low_s: args.low_s });
    if invalid.is_empty() {
        println!(
            "ok: all {} signatures valid (native batch check)",
            batch.len()
        );
        ExitCode::SUCCESS
    } else {
        for e in &invalid {
            println!("{e}");
        }
        println!("invalid: {} of {} signatures", invalid.len(), batch.len());
        ExitCode::from(1)
    }
}
