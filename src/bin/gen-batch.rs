//! `gen-batch --count B [--seed S] [--corrupt I,J] --out FILE`: a deterministic demo batch.
//! `gen-batch --txs --count B [--seed S] [--chain-id N] --out FILE`: deterministic signed demo
//! transactions of every type, one hex a line (`batch_ecdsa::txs::demo`).

use std::path::PathBuf;
use std::process::ExitCode;

use batch_ecdsa::demo::demo_batch;
use batch_ecdsa::fsutil::write_atomic;
use batch_ecdsa::txs::demo::demo_txs;
use batch_ecdsa::txs::file::txs_file_text;
use clap::Parser;

/// Writes a deterministic batch of signed demo messages (ChaCha20 from --seed), or with --txs
/// signed demo Ethereum transactions.
#[derive(Parser, Debug)]
#[command(name = "gen-batch", version)]
struct Args {
    /// Number of signatures (transactions with --txs).
    #[arg(long, value_parser = count)]
    count: usize,
    /// Seed of the ChaCha20 generator: the same seed gives the same file.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Comma-separated 0-based indices of signatures to make invalid (another message hash).
    #[arg(long, value_delimiter = ',', conflicts_with = "txs")]
    corrupt: Vec<usize>,
    /// Write raw signed Ethereum transactions (types cycling legacy EIP-155, EIP-1559,
    /// EIP-4844, EIP-7702, EIP-2930, legacy without EIP-155), one hex a line.
    #[arg(long)]
    txs: bool,
    /// The chain id the transactions are signed for (with --txs).
    #[arg(long, default_value_t = 1, requires = "txs")]
    chain_id: u64,
    /// Output file (a batch file, JSON; with --txs a transactions file).
    #[arg(long)]
    out: PathBuf,
}

/// The count: 1 to 1,000,000.
fn count(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if (1..=1_000_000).contains(&n) => Ok(n),
        Ok(n) => Err(format!("{n} is outside 1..=1000000")),
        Err(e) => Err(e.to_string()),
    }
}

fn main() -> ExitCode {
    if let Some(code) = batch_ecdsa::cpu::refusal() {
        return code;
    }
    let args = Args::parse();
    let (text, what) = if args.txs {
        match demo_txs(args.count, args.seed, args.chain_id) {
            Ok(t) => (
                txs_file_text(&t),
                format!(
                    "{} signed transactions (seed {}, chain id {})",
                    args.count, args.seed, args.chain_id
                ),
            ),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        }
    } else {
        let batch = match demo_batch(args.count, args.seed, &args.corrupt) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        };
        match serde_json::to_string_pretty(&batch) {
            Ok(j) => (
                format!("{j}\n"),
                format!(
                    "{} signatures (seed {}, {} corrupted)",
                    args.count,
                    args.seed,
                    args.corrupt.len()
                ),
            ),
            Err(e) => {
                eprintln!("error: cannot encode the batch: {e}");
                return ExitCode::from(2);
            }
        }
    };
    if let Err(e) = write_atomic(&args.out, text.as_bytes()) {
        eprintln!("error: cannot write {}: {e}", args.out.display());
        return ExitCode::from(2);
    }
    eprintln!("wrote {what} to {}", args.out.display());
    ExitCode::SUCCESS
}
