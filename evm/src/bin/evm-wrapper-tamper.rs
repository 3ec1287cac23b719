//! `evm-wrapper-tamper [--dir DIR] [--count B] [--out FILE]`: the hardened digest wrapper
//! (`batch_ecdsa_evm::wrapper::measure_tampering`) in front of the real aggregated verifier,
//! on the honest call and each tampering of it (a point off the curve, a coordinate + q, a
//! changed accumulator limb, an accumulator limb + r, a changed scalar, a scalar + r, the
//! proof a word longer or shorter, trailing calldata, too small a gas limit), each sent
//! directly to the verifier and through the wrapper in revm with a 30M-gas transaction.
//!
//! DIR (default `evm/tests/fixtures/aggregate-digest-b32`) holds what `evm-aggregate --count B --public
//! digest --out-dir DIR` wrote: `AggregationVerifier.sol` (compiled here with solc-js,
//! deployed under EIP-170) and `calldata.hex` (its honest calldata for the demo batch of B
//! signatures, default 32). Writes the [`TamperReport`] to FILE (default
//! `results/wrapper-tamper.json`) and prints a table. Needs no proof and not the `aggregate`
//! feature.
//!
//! Exit codes: 0 measured and written; 1 the measurement failed (the honest call is not
//! accepted); 2 bad input.

use std::path::PathBuf;
use std::process::ExitCode;

use batch_ecdsa::calldata::units::thousands;
use batch_ecdsa_evm::solc::Solc;
use batch_ecdsa_evm::wrapper::{demo_file_pairs, measure_tampering, TamperReport, WrapperCode};
use clap::Parser;

/// Measures tampered proofs against the aggregated verifier, directly and through the wrapper.
#[derive(Parser, Debug)]
#[command(name = "evm-wrapper-tamper", version)]
struct Args {
    /// The folder with AggregationVerifier.sol and calldata.hex.
    #[arg(long, default_value = "evm/tests/fixtures/aggregate-digest-b32")]
    dir: PathBuf,
    /// B of the inner batch proof (the demo batch of B signatures).
    #[arg(long, default_value_t = 32)]
    count: usize,
    /// Where to write the report.
    #[arg(long, default_value = "results/wrapper-tamper.json")]
    out: PathBuf,
}

fn run(args: &Args) -> Result<TamperReport, (u8, String)> {
    let input = |e: String| (2u8, e);
    if args.count < 1 {
        return Err(input("--count must be at least 1".into()));
    }
    let read = |name: &str| {
        let path = args.dir.join(name);
        std::fs::read_to_string(&path)
            .map_err(|e| input(format!("cannot read {}: {e}", path.display())))
    };
    let sol = read("AggregationVerifier.sol")?;
    let calldata = hex::decode(read("calldata.hex")?.trim().trim_start_matches("0x"))
        .map_err(|e| input(format!("calldata.hex is not hex: {e}")))?;
    let pairs = demo_file_pairs(args.count).map_err(input)?;
    let solc = Solc::locate_or_install().map_err(|e| input(e.to_string()))?;
    let code = WrapperCode::compile(&solc).map_err(input)?;
    let verifier = solc
        .compile(&sol)
        .map_err(|e| input(format!("AggregationVerifier.sol does not compile: {e}")))?;
    measure_tampering(&code.wrapper, &verifier, &calldata, &pairs).map_err(|e| (1, e))
}

fn main() -> ExitCode {
    if let Some(code) = batch_ecdsa::cpu::refusal() {
        return code;
    }
    let args = Args::parse();
    let report = match run(&args) {
        Ok(r) => r,
        Err((code, e)) => {
            eprintln!("error: {e}");
            return ExitCode::from(code);
        }
    };
    eprintln!(
        "B = {}: verifierGas {} (the verifier's honest execution {}); honest through the \
         wrapper {} gas, accepted from a gas limit of {}; worst tampered call {}× the honest",
        report.batch_size,
        thousands(report.config.verifier_gas),
        thousands(report.verifier_honest_execution_gas),
        thousands(report.honest_wrapper_gas),
        thousands(report.honest_min_gas_limit),
        report.worst_tampered_vs_honest,
    );
    println!("| case | directly: gas | outcome | through the wrapper: gas | outcome | × honest |");
    println!("| --- | ---: | --- | ---: | --- | ---: |");
    for r in &report.rows {
        println!(
            "| {} | {} | {} | {} | {} | {:.2} |",
            r.case,
            thousands(r.direct_gas),
            r.direct_outcome,
            thousands(r.wrapper_gas),
            r.wrapper_outcome,
            r.wrapper_vs_honest
        );
    }
    let json = serde_json::to_string_pretty(&report).expect("the report serializes") + "\n";
    if let Err(e) = batch_ecdsa::fsutil::write_atomic(&args.out, json.as_bytes()) {
        eprintln!("error: cannot write {}: {e}", args.out.display());
        return ExitCode::from(2);
    }
    ExitCode::SUCCESS
}
