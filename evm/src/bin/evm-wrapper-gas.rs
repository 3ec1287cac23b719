//! `evm-wrapper-gas [--proof-bytes N] [--results-dir DIR] [--sizes 1,2,4]`: measures the
//! digest wrapper (`batch_ecdsa_evm::wrapper`) in revm at B = 1, 2, 4, 8, 16, 32 on the demo
//! transactions' signing payloads (seed 1, chain 1), against the stand-in verifier (no
//! proof is made: the proof is N stand-in bytes, default 6,688, the batch circuit's EVM proof
//! at B ≥ 4 in `results/evm.json`). Writes `wrapper-gas.json` (one [`WrapperGasRow`] per B)
//! and `wrapper-gas.md` (the README table) under DIR (default `results`), only for the
//! default sizes; a `--sizes` list only prints.
//!
//! `evm-wrapper-gas --aggregated DIR [--count B] [--results-dir DIR]`: instead, the wrapper in
//! front of the real aggregated verifier, from the files `evm-aggregate --count B --public
//! digest --out-dir DIR` wrote: `AggregationVerifier.sol` (compiled here with solc-js and
//! deployed under EIP-170) and `calldata.hex` (its honest calldata: the 12 accumulator words,
//! D_hi, D_lo, the outer proof). The wrapper is deployed with 12 prefix words and called with
//! `verifyHashes(hashes, senders, accumulator ‖ outer proof)` for the pairs of the demo batch
//! of B signatures (`batch_ecdsa_evm::measure::demo_file`, the inner proof's batch; the
//! calldata's D must be theirs). Writes `wrapper-aggregated.json` (one
//! [`AggregatedWrapperRow`]). Needs no proof and not the `aggregate` feature.
//!
//! Exit codes: 0 measured (and written); 1 a measurement failed; 2 bad input.

use std::fmt::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use batch_ecdsa::calldata::units::thousands;
use batch_ecdsa::native::hash::keccak256;
use batch_ecdsa_evm::solc::Solc;
use batch_ecdsa_evm::wrapper::{
    demo_file_pairs, measure, measure_aggregated, AggregatedWrapperRow, PayloadBatch, WrapperCode,
    WrapperGasRow,
};
use clap::Parser;

const DEFAULT_SIZES: [usize; 6] = [1, 2, 4, 8, 16, 32];

/// Measures the digest wrapper's gas and code size.
#[derive(Parser, Debug)]
#[command(name = "evm-wrapper-gas", version)]
struct Args {
    /// Bytes of the stand-in proof passed through to the verifier.
    #[arg(long, default_value_t = 6688, value_parser = proof_bytes)]
    proof_bytes: usize,
    /// Folder for wrapper-gas.json and wrapper-gas.md.
    #[arg(long, default_value = "results")]
    results_dir: PathBuf,
    /// Batch sizes (comma-separated); given, nothing is written.
    #[arg(long, value_delimiter = ',', value_parser = batch_ecdsa::cli::batch_size)]
    sizes: Option<Vec<usize>>,
    /// Measure against the real aggregated verifier in this folder (AggregationVerifier.sol,
    /// calldata.hex) instead; writes wrapper-aggregated.json.
    #[arg(long, conflicts_with = "sizes")]
    aggregated: Option<PathBuf>,
    /// With --aggregated: B of the inner batch proof (the demo batch of B signatures).
    #[arg(long, default_value_t = 32, requires = "aggregated", value_parser = batch_ecdsa::cli::batch_size)]
    count: usize,
}

/// A stand-in proof length: 32 to 16 MiB bytes.
fn proof_bytes(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if (32..=16 << 20).contains(&n) => Ok(n),
        Ok(n) => Err(format!("{n} is outside 32..=16777216 bytes")),
        Err(e) => Err(e.to_string()),
    }
}

/// The stand-in proof: a keccak256 chain, so its bytes are as non-zero as a real proof's
/// (calldata gas depends on it).
fn stand_in_proof(len: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(len + 32);
    let mut h = keccak256(b"batch-ecdsa wrapper stand-in proof");
    while out.len() < len {
        out.extend_from_slice(&h);
        h = keccak256(&h);
    }
    out.truncate(len);
    out
}

fn table(rows: &[WrapperGasRow]) -> String {
    let mut out = String::from(
        "| B | payload bytes | batch bytes / tx | verifyTransactions: wrapper gas (per tx) \
         | calldata bytes | verifyHashes: wrapper gas (per tx) | calldata bytes |\n\
         | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n",
    );
    for r in rows {
        let b = r.batch_size;
        let _ = writeln!(
            out,
            "| {b} | {} | {:.1} | {} ({}) | {} | {} ({}) | {} |",
            thousands(r.payload_bytes),
            r.batch_bytes_per_tx,
            thousands(r.transactions_wrapper_gas),
            thousands(r.transactions_wrapper_gas / b),
            thousands(r.transactions_calldata_bytes),
            thousands(r.hashes_wrapper_gas),
            thousands(r.hashes_wrapper_gas / b),
            thousands(r.hashes_calldata_bytes),
        );
    }
    if let Some(r) = rows.first() {
        let _ = writeln!(
            out,
            "\nWrapper gas: the transaction's execution less the stand-in verifier's (measured \
             alone), i.e. parsing, keccak256 of each payload, D, the verifier's calldata and \
             the call to it (cold account); calldata gas is not included. Batch bytes per \
             transaction: signing payload + 3 (length prefix) + 20 (sender); the calldata \
             column adds the ABI words and a {}-byte stand-in proof. Runtime code {} bytes, \
             deployment {} gas. Demo transactions (seed 1) in revm, Prague rules.",
            thousands(r.proof_bytes),
            thousands(r.runtime_code_bytes),
            thousands(r.deploy_gas),
        );
    }
    out
}

/// Why `--aggregated` stopped: bad input (exit 2) or a failed measurement (exit 1).
enum Failure {
    Input(String),
    Measure(String),
}

fn aggregated(
    dir: &std::path::Path,
    b: usize,
    code: &WrapperCode,
    solc: &Solc,
) -> Result<AggregatedWrapperRow, Failure> {
    let read = |name: &str| {
        let path = dir.join(name);
        std::fs::read_to_string(&path)
            .map_err(|e| Failure::Input(format!("cannot read {}: {e}", path.display())))
    };
    let sol = read("AggregationVerifier.sol")?;
    let hex_text = read("calldata.hex")?;
    let calldata = hex::decode(hex_text.trim().trim_start_matches("0x"))
        .map_err(|e| Failure::Input(format!("calldata.hex is not hex: {e}")))?;
    let pairs = demo_file_pairs(b).map_err(Failure::Input)?;
    eprintln!(
        "compiling {} ({} bytes of Solidity)",
        dir.join("AggregationVerifier.sol").display(),
        sol.len()
    );
    let verifier = solc
        .compile(&sol)
        .map_err(|e| Failure::Input(format!("AggregationVerifier.sol does not compile: {e}")))?;
    measure_aggregated(&code.wrapper, &verifier, &calldata, &pairs).map_err(Failure::Measure)
}

fn main() -> ExitCode {
    if let Some(code) = batch_ecdsa::cpu::refusal() {
        return code;
    }
    let args = Args::parse();
    if let Some(dir) = &args.aggregated {
        if args.count == 0 {
            eprintln!("error: --count must be at least 1");
            return ExitCode::from(2);
        }
        let solc = match Solc::locate_or_install() {
            Ok(s) => s,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        };
        let row = WrapperCode::compile(&solc)
            .map_err(Failure::Input)
            .and_then(|code| aggregated(dir, args.count, &code, &solc));
        let row = match row {
            Ok(r) => r,
            Err(Failure::Input(e)) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
            Err(Failure::Measure(e)) => {
                eprintln!("error: {e}");
                return ExitCode::from(1);
            }
        };
        eprintln!(
            "[B={}] accepted through the wrapper: {} gas ({} execution), the verifier alone {} \
             ({} execution): the wrapper's share {} execution gas, {} in all; calldata {} bytes",
            row.batch_size,
            thousands(row.total_gas),
            thousands(row.execution_gas),
            thousands(row.direct_total_gas),
            thousands(row.direct_execution_gas),
            thousands(row.wrapper_gas),
            thousands(row.added_total_gas),
            thousands(row.calldata_bytes),
        );
        let json = serde_json::to_string_pretty(&row).expect("the row serializes") + "\n";
        print!("{json}");
        let path = args.results_dir.join("wrapper-aggregated.json");
        if let Err(e) = batch_ecdsa::fsutil::write_atomic(&path, json.as_bytes()) {
            eprintln!("error: cannot write {}: {e}", path.display());
            return ExitCode::from(2);
        }
        return ExitCode::SUCCESS;
    }
    let write = args.sizes.is_none();
    let sizes = args.sizes.unwrap_or_else(|| DEFAULT_SIZES.to_vec());
    if sizes.is_empty() || sizes.contains(&0) {
        eprintln!("error: --sizes must list batch sizes of at least 1");
        return ExitCode::from(2);
    }
    let code = match Solc::locate_or_install()
        .map_err(|e| e.to_string())
        .and_then(|solc| WrapperCode::compile(&solc))
    {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let proof = stand_in_proof(args.proof_bytes);
    let mut rows = Vec::new();
    for b in sizes {
        let row =
            PayloadBatch::demo(b, 1).and_then(|x| measure(&code, &x.payloads, &x.senders, &proof));
        match row {
            Ok(r) => {
                eprintln!(
                    "[B={b}] verifyTransactions {} gas, verifyHashes {} gas (wrapper only)",
                    r.transactions_wrapper_gas, r.hashes_wrapper_gas
                );
                rows.push(r);
            }
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(1);
            }
        }
    }
    let md = table(&rows);
    print!("{md}");
    if !write {
        eprintln!("(a --sizes list: nothing written)");
        return ExitCode::SUCCESS;
    }
    let json = serde_json::to_string_pretty(&rows).expect("rows serialize") + "\n";
    for (name, text) in [("wrapper-gas.json", json), ("wrapper-gas.md", md)] {
        let path = args.results_dir.join(name);
        if let Err(e) = batch_ecdsa::fsutil::write_atomic(&path, text.as_bytes()) {
            eprintln!("error: cannot write {}: {e}", path.display());
            return ExitCode::from(2);
        }
    }
    ExitCode::SUCCESS
}
