//! `evm-verifier --circuit batch|naive --count B [--public digest|keys] [--out-dir DIR]
//! [--proof FILE]`: writes the Solidity verifier of the circuit laid out for B signatures
//! (`Verifier.sol`), its creation and runtime bytecode (`verifier.creation.hex`,
//! `verifier.runtime.hex`), and says whether it fits EIP-170. `--public` is the statement, as
//! for `prove` (default digest, as `prove --transcript evm` makes: public inputs `D_hi`,
//! `D_lo`; keys: 3 a signature). With `--proof FILE` (a proof file made with `prove
//! --transcript evm`; its statement, circuit and B are then taken from it) the verifier is also
//! deployed in revm and called with the proof: the verdict and the gas are printed and
//! `calldata.hex` written.
//!
//! Exit codes: 0 written (and the proof accepted); 1 the proof is rejected; 2 bad input.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use batch_ecdsa::cli::SetupArgs;
use batch_ecdsa::prover::circuit::CircuitKind;
use batch_ecdsa::prover::proof::ProofFile;
use batch_ecdsa::prover::transcript::{evm_calldata, TranscriptKind};
use batch_ecdsa_circuits::ecdsa::Statement;
use batch_ecdsa_evm::chain::{deploy, CallOutcome};
use batch_ecdsa_evm::measure::{prover_for, verifier_of};
use batch_ecdsa_evm::solc::Solc;
use batch_ecdsa_evm::EIP170_CODE_LIMIT;
use clap::Parser;

/// Generates the Ethereum verifier of a batch-ecdsa circuit (and runs a proof through it).
#[derive(Parser, Debug)]
#[command(name = "evm-verifier", version)]
struct Args {
    /// Which circuit: batch or naive.
    #[arg(long, default_value = "batch")]
    circuit: String,
    /// The batch size B the circuit is laid out for.
    #[arg(long, required_unless_present = "proof", value_parser = batch_ecdsa::cli::batch_size)]
    count: Option<usize>,
    /// What the proofs' public input states: digest (one Keccak digest of every (signing
    /// hash, address) pair: 2 public inputs, the default, as `prove --transcript evm`) or
    /// keys (hash and key: 3 public inputs a signature). Taken from --proof when given.
    #[arg(long, value_name = "digest|keys", conflicts_with = "proof")]
    public: Option<String>,
    /// A proof file (EVM transcript) to verify in revm; gives the circuit and B.
    #[arg(long)]
    proof: Option<PathBuf>,
    /// Folder for Verifier.sol and the bytecode files.
    #[arg(long, default_value = "verifier")]
    out_dir: PathBuf,
    #[command(flatten)]
    setup: SetupArgs,
}

fn bad(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {msg}");
    ExitCode::from(2)
}

fn write(dir: &Path, name: &str, text: &str) -> Result<(), String> {
    batch_ecdsa::fsutil::write_atomic(&dir.join(name), text.as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", dir.join(name).display()))
}

fn main() -> ExitCode {
    if let Some(code) = batch_ecdsa::cpu::refusal() {
        return code;
    }
    let args = Args::parse();
    let file = match &args.proof {
        Some(p) => match ProofFile::load(p) {
            Ok(f) => Some(f),
            Err(e) => return bad(e),
        },
        None => None,
    };
    let (statement, kind, b) = match &file {
        Some(f) => {
            if f.transcript_kind().ok() != Some(TranscriptKind::Evm) {
                return bad(format!(
                    "the proof uses the {} transcript; the EVM verifier reads proofs made with \
                     `prove --transcript evm`",
                    f.transcript
                ));
            }
            (f.statement, f.circuit, f.batch_size)
        }
        None => {
            let statement = match args.public.as_deref().map(str::parse::<Statement>) {
                None => Statement::Digest,
                Some(Ok(s)) => s,
                Some(Err(e)) => return bad(format!("--public: {e}")),
            };
            match args.circuit.parse::<CircuitKind>() {
                Ok(k) => (statement, k, args.count.unwrap_or(0)),
                Err(e) => return bad(format!("--circuit: {e}")),
            }
        }
    };
    if b == 0 {
        return bad("--count: a batch has at least one signature");
    }
    let solc = match Solc::locate() {
        Ok(s) => s,
        Err(e) => return bad(e),
    };
    let prover = match prover_for(
        kind,
        b,
        statement,
        &args.setup.params_dir,
        &args.setup.source(),
    ) {
        Ok(p) => p,
        Err(e) => return bad(e),
    };
    if let Some(f) = &file {
        if !f.setup.same_setup(prover.setup_identity()) {
            return bad(format!(
                "the proof names the {}, but the parameters given are the {}",
                f.setup.describe(),
                prover.setup_identity().describe()
            ));
        }
    }
    let (sol, compiled) = match verifier_of(&prover, &solc) {
        Ok(v) => v,
        Err(e) => return bad(e),
    };
    if let Err(e) = std::fs::create_dir_all(&args.out_dir) {
        return bad(format!("cannot create {}: {e}", args.out_dir.display()));
    }
    for (name, text) in [
        ("Verifier.sol", sol),
        (
            "verifier.creation.hex",
            hex::encode(&compiled.creation) + "\n",
        ),
        (
            "verifier.runtime.hex",
            hex::encode(&compiled.runtime) + "\n",
        ),
    ] {
        if let Err(e) = write(&args.out_dir, name, &text) {
            return bad(e);
        }
    }
    let fits = compiled.runtime.len() <= EIP170_CODE_LIMIT;
    println!(
        "{kind} circuit, public input: {statement} ({} words), B = {b}, k = {}: runtime code {} bytes ({} EIP-170's {EIP170_CODE_LIMIT}), creation code {} bytes, written to {}",
        prover.num_instance(),
        prover.k(),
        compiled.runtime.len(),
        if fits { "within" } else { "OVER" },
        compiled.creation.len(),
        args.out_dir.display()
    );
    let Some(file) = file else {
        return ExitCode::SUCCESS;
    };
    // The instance the file states (under the digest, D recomputed from its records).
    let calldata = match (file.instance(), file.proof_bytes()) {
        (Ok(instance), Ok(proof)) => evm_calldata(&instance, &proof),
        (Err(e), _) | (_, Err(e)) => return bad(e),
    };
    if let Err(e) = write(
        &args.out_dir,
        "calldata.hex",
        &(hex::encode(&calldata) + "\n"),
    ) {
        return bad(e);
    }
    let mut contract = match deploy(&compiled.creation, true) {
        Ok(c) => c,
        Err(e) => return bad(e),
    };
    match contract.call(&calldata) {
        Ok(CallOutcome::Accepted(gas)) => {
            println!(
                "accepted: {} gas for the transaction ({} execution, 21,000 + calldata {}), deployment {} gas{}",
                gas.total,
                gas.execution(),
                gas.intrinsic,
                contract.deploy_gas,
                if fits { "" } else { " (EIP-170 lifted)" }
            );
            ExitCode::SUCCESS
        }
        Ok(CallOutcome::Rejected { gas_used, reason }) => {
            println!("rejected: {reason} after {gas_used} gas");
            ExitCode::from(1)
        }
        Err(e) => bad(e),
    }
}
