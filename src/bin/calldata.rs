//! `calldata`: rollup cost table, posting B signatures vs one proof plus B senders.
//!
//! Exit status: 0 on success, 2 on bad arguments (clap's own errors and values that make no
//! sense, e.g. zero batches per day or a 63-byte signature).

use batch_ecdsa::calldata::model::{
    default_blob_base_fee_wei, gwei_to_wei, DEFAULT_BATCHES_PER_DAY, DEFAULT_BATCH_SIZE,
    DEFAULT_BREAK_EVEN_BOUND, DEFAULT_PROOF_BYTES, DEFAULT_SIGNATURE_BYTES,
    DEFAULT_VERIFICATION_GAS,
};
use batch_ecdsa::calldata::proof_file::proof_bytes_from_file;
use batch_ecdsa::calldata::schedule::BLOB_BYTES;
use batch_ecdsa::calldata::{
    default_batch_sizes, report, table, BlobRounding, Params, Schedule, Sender,
};
use clap::Parser;
use std::path::PathBuf;
use std::process::ExitCode;

/// Rollup calldata savings: cost per batch of posting B ECDSA signatures versus one
/// batch-ECDSA proof plus a sender (address or index) per transaction, under EIP-2028
/// calldata, the EIP-7623 floor and EIP-4844 blobs.
#[derive(Parser, Debug)]
#[command(name = "calldata", version)]
struct Cli {
    /// Batch size B of interest; added to the table's rows.
    #[arg(short = 'b', long, default_value_t = DEFAULT_BATCH_SIZE)]
    batch_size: u64,

    /// Batch sizes for the table rows, comma-separated [default: 1,2,4,...,1024].
    #[arg(long, value_delimiter = ',')]
    sizes: Option<Vec<u64>>,

    /// Bytes per signature: 64 (r, s) or 65 (r, s, v).
    #[arg(long, default_value_t = DEFAULT_SIGNATURE_BYTES)]
    signature_bytes: u64,

    /// Share of signature bytes that are non-zero (random bytes: 255/256 ≈ 1).
    #[arg(long, default_value_t = 1.0)]
    sig_nonzero_fraction: f64,

    /// What the proof path posts per transaction: `address` (20 bytes) or `index:N` (N bytes).
    #[arg(long, default_value = "address")]
    sender: Sender,

    /// Proof size in bytes [default: 1376, a measured halo2-axiom SHPLONK proof of a small
    /// circuit; our batch circuit's proof is 4896 bytes at B = 32: pass that, or --proof FILE].
    #[arg(long, conflicts_with = "proof")]
    proof_bytes: Option<u64>,

    /// Take the proof size from a JSON file with a hex string field `proof` (0x optional).
    #[arg(long, value_name = "FILE")]
    proof: Option<PathBuf>,

    /// On-chain verification gas of the proof (default is an estimate for a Halo2-KZG SHPLONK
    /// verifier; 0 reproduces the pre-verifier seed example).
    #[arg(long, default_value_t = DEFAULT_VERIFICATION_GAS)]
    verification_gas: u64,

    /// Execution gas price in gwei.
    #[arg(long, default_value_t = 30.0)]
    gas_price_gwei: f64,

    /// Blob base fee in gwei [default: gas price / 16, the EIP-7918 reserve price].
    #[arg(long, conflicts_with = "blob_base_fee_wei")]
    blob_base_fee_gwei: Option<f64>,

    /// Blob base fee in wei (alternative to --blob-base-fee-gwei).
    #[arg(long)]
    blob_base_fee_wei: Option<u128>,

    /// Usable payload bytes per blob (131072 = every byte; OP Stack packs 130044).
    #[arg(long, default_value_t = BLOB_BYTES)]
    blob_usable_bytes: u64,

    /// Charge whole blobs to the payload, or blob gas pro rata to its bytes.
    #[arg(long, value_enum, default_value = "whole")]
    blob_rounding: BlobRounding,

    /// Batches posted per day (288 = one every 5 minutes).
    #[arg(long, default_value_t = DEFAULT_BATCHES_PER_DAY)]
    batches_per_day: u64,

    /// Schedules to show, comma-separated [default: calldata,floor,blob].
    #[arg(long, value_enum, value_delimiter = ',')]
    schedule: Option<Vec<Schedule>>,

    /// Largest B the break-even search tries.
    #[arg(long, default_value_t = DEFAULT_BREAK_EVEN_BOUND)]
    bound: u64,

    /// Print one JSON object instead of the table.
    #[arg(long)]
    json: bool,
}

fn run(cli: Cli) -> Result<String, String> {
    let gas_price_wei = gwei_to_wei(cli.gas_price_gwei).ok_or_else(|| {
        format!(
            "gas price must be a finite number ≥ 0 gwei, got {}",
            cli.gas_price_gwei
        )
    })?;
    let blob_base_fee_wei = match (cli.blob_base_fee_gwei, cli.blob_base_fee_wei) {
        (Some(g), _) => gwei_to_wei(g)
            .ok_or_else(|| format!("blob base fee must be a finite number ≥ 0 gwei, got {g}"))?,
        (None, Some(w)) => w,
        (None, None) => default_blob_base_fee_wei(gas_price_wei),
    };
    let proof_bytes = match (&cli.proof, cli.proof_bytes) {
        (Some(path), _) => proof_bytes_from_file(path).map_err(|e| e.to_string())?,
        (None, Some(n)) => n,
        (None, None) => DEFAULT_PROOF_BYTES,
    };
    let params = Params {
        proof_bytes,
        verification_gas: cli.verification_gas,
        gas_price_wei,
        blob_base_fee_wei,
        batches_per_day: cli.batches_per_day,
        signature_bytes: cli.signature_bytes,
        signature_nonzero_fraction: cli.sig_nonzero_fraction,
        sender: cli.sender,
        blob_usable_bytes: cli.blob_usable_bytes,
        blob_rounding: cli.blob_rounding,
    };
    let sizes = cli.sizes.unwrap_or_else(default_batch_sizes);
    let schedules = cli.schedule.unwrap_or_else(|| Schedule::ALL.to_vec());
    let rep = report(&params, cli.batch_size, &sizes, &schedules, cli.bound)
        .map_err(|e| e.to_string())?;
    if cli.json {
        serde_json::to_string(&rep).map_err(|e| format!("cannot encode JSON: {e}"))
    } else {
        Ok(table::render(&rep))
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(text) => {
            println!("{}", text.trim_end());
            ExitCode::SUCCESS
        }
        Err(msg) => {
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
    }
}
