//! `prove [--batch FILE | --count B]`: prove a batch of signatures valid.
//!
//! Today this runs the native pre-check of the batch (the step that comes before proving:
//! exit 1 naming every invalid signature, exit 2 on bad input). The Halo2 proof arrives with
//! the prover (DESIGN §5); until then the command says so and makes no proof file.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use batch_ecdsa::batch::{BatchFile, Policy};
use batch_ecdsa::demo::demo_batch;
use clap::Parser;

/// Default size of the demo batch.
const DEMO_COUNT: usize = 16;

#[derive(Parser, Debug)]
#[command(name = "prove", version)]
struct Args {
    /// The batch file (JSON, DESIGN §4); without it a demo batch is generated.
    #[arg(long, conflicts_with = "count")]
    batch: Option<PathBuf>,
    /// Size of the demo batch.
    #[arg(long)]
    count: Option<usize>,
    /// Seed of the demo batch.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Reject high s (EIP-2).
    #[arg(long)]
    low_s: bool,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let batch = match &args.batch {
        Some(path) => match BatchFile::load(path) {
            Ok(b) => b,
            Err(errors) => {
                for e in errors {
                    eprintln!("error: {e}");
                }
                return ExitCode::from(2);
            }
        },
        None => {
            let count = args.count.unwrap_or(DEMO_COUNT);
            let records = match demo_batch(count, args.seed, &[]) {
                Ok(r) => r,
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::from(2);
                }
            };
            eprintln!("demo batch: {count} signatures from seed {}", args.seed);
            match BatchFile::from_records(&records) {
                Ok(b) => b,
                Err(errors) => {
                    for e in errors {
                        eprintln!("error: {e}");
                    }
                    return ExitCode::from(2);
                }
            }
        }
    };
    let start = Instant::now();
    let invalid = batch.verify_native(Policy { low_s: args.low_s });
    let elapsed = start.elapsed();
    if !invalid.is_empty() {
        for e in &invalid {
            println!("{e}");
        }
        eprintln!("error: the batch has invalid signatures; no proof is made");
        return ExitCode::from(1);
    }
    println!(
        "native pre-check: all {} signatures valid ({:.1} ms)",
        batch.len(),
        elapsed.as_secs_f64() * 1e3
    );
    println!("proving: not available yet — the circuits and the prover are still being built");
    ExitCode::SUCCESS
}
