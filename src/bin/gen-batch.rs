//! `gen-batch --count B [--seed S] [--corrupt I,J] --out FILE`: a deterministic demo batch.

use std::path::PathBuf;
use std::process::ExitCode;

use batch_ecdsa::demo::demo_batch;
use batch_ecdsa::fsutil::write_atomic;
use clap::Parser;

/// Writes a deterministic batch of signed demo messages (ChaCha20 from --seed).
#[derive(Parser, Debug)]
#[command(name = "gen-batch", version)]
struct Args {
    /// Number of signatures.
    #[arg(long)]
    count: usize,
    /// Seed of the ChaCha20 generator: the same seed gives the same file.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Comma-separated 0-based indices of signatures to make invalid (another message hash).
    #[arg(long, value_delimiter = ',')]
    corrupt: Vec<usize>,
    /// Output batch file (JSON).
    #[arg(long)]
    out: PathBuf,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let batch = match demo_batch(args.count, args.seed, &args.corrupt) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let json = match serde_json::to_string_pretty(&batch) {
        Ok(j) => j,
        Err(e) => {
            eprintln!("error: cannot encode the batch: {e}");
            return ExitCode::from(2);
        }
    };
    if let Err(e) = write_atomic(&args.out, format!("{json}\n").as_bytes()) {
        eprintln!("error: cannot write {}: {e}", args.out.display());
        return ExitCode::from(2);
    }
    eprintln!(
        "wrote {} signatures (seed {}, {} corrupted) to {}",
        args.count,
        args.seed,
        args.corrupt.len(),
        args.out.display()
    );
    ExitCode::SUCCESS
}
