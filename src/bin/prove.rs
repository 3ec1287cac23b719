//! `prove [--batch FILE | --txs FILE | --count B] [--circuit batch|naive] [--transcript
//! blake2b|evm] [--public keys|digest] [--out FILE] [--json]`: prove a batch of signatures
//! valid in one Halo2 proof (docs/commands.md). `prove --for ethereum ARGS…` runs
//! `prove-aggregated ARGS…` (the proof for Ethereum; [`for_ethereum`]).
//!
//! `--public` chooses what the proof's public input states: `keys` (per signature the hash mod
//! n and the public key, 3 field elements each) or `digest` (one Keccak-256 digest of every
//! (raw signing hash, signer address) pair, 2 field elements whatever B: what an Ethereum
//! contract recomputes from the transactions it holds). Default: `digest` with `--transcript
//! evm` (the proof is for Ethereum), `keys` otherwise.
//!
//! `--txs FILE` takes raw signed Ethereum transactions instead of a batch file: each becomes a
//! batch record (`batch_ecdsa::txs`), and one that is malformed (exit 2) or invalid (exit 1) is
//! named `error: transaction I: <reason>` before anything is proved; `--strip-out FILE` then
//! writes the stripped transactions (after the proof file).
//!
//! Steps: read the batch (or make the demo batch), check it natively (exit 1 naming every
//! invalid signature; skipped with `--unchecked`), lay the circuit out, read the ceremony file
//! (`--params FILE`: a snarkjs .ptau or halo2 raw params, every point checked) or load or make
//! the local setup (τ from this machine's randomness, never stored; `--insecure-dev-setup`:
//! the fixed-seed one, for test fixtures only), load or make the keys (cached under
//! `--params-dir`), prove,
//! self-verify, write the proof file atomically. Exit codes: 0 proved, 1 invalid batch (or,
//! with `--unchecked`, a proof that fails verification: it is still written, so that
//! `verify` can show it failing), 2 bad input or an environment failure (nothing written).
//!
//! `--cells-only` lays the circuit out and prints its cell counts: no params, no keys, no
//! proof. `--json` makes the last stdout line one JSON object (times null with
//! `--cells-only`). Progress goes to stderr.

use std::path::PathBuf;
use std::process::ExitCode;

use batch_ecdsa::cli::{load_signed_txs, write_stripped, BatchArgs, SetupArgs};
use batch_ecdsa::prover::api::{KeyCache, ProveOptions, Prover, ProverError, SetupOptions};
use batch_ecdsa::prover::bars::StderrBars;
use batch_ecdsa::prover::circuit::{
    witnesses_from_batch, AnyCircuit, CircuitKind, CircuitStats, WitnessBuildError,
};
use batch_ecdsa::prover::transcript::TranscriptKind;
use batch_ecdsa_circuits::ecdsa::Statement;
use clap::Parser;
use serde_json::{json, Value};

/// Default size of the demo batch: a fresh `cargo run --release --bin prove` (params, keygen,
/// proof, self-check) stays within 5 minutes on 2 cores (docs/results.md).
const DEMO_COUNT: usize = 2;

#[derive(Parser, Debug)]
#[command(name = "prove", version)]
struct Args {
    #[command(flatten)]
    input: BatchArgs,
    /// Which circuit: batch (one random linear combination) or naive (one check each).
    #[arg(long, default_value = "batch")]
    circuit: String,
    /// The Fiat–Shamir transcript: blake2b (the smaller proof, verified in Rust) or evm (the
    /// Keccak transcript the generated Solidity verifier reads; uncompressed points).
    #[arg(long, default_value = "blake2b")]
    transcript: String,
    /// What the proof's public input states: keys (per signature the hash mod n and the
    /// public key: 3 field elements each) or digest (one Keccak-256 digest of every (raw
    /// signing hash, signer address) pair: 2 field elements whatever B, what a contract
    /// recomputes from the transactions). Default: digest with --transcript evm, keys
    /// otherwise.
    #[arg(long, value_name = "keys|digest")]
    public: Option<String>,
    /// Where to write the proof file.
    #[arg(long, default_value = "proof.json")]
    out: PathBuf,
    /// Last stdout line: one JSON object with the figures.
    #[arg(long)]
    json: bool,
    /// Lay the circuit out and print its cell counts only.
    #[arg(long)]
    cells_only: bool,
    /// Skip the native pre-check (the circuit alone decides; an invalid batch gives a proof
    /// that fails verification).
    #[arg(long)]
    unchecked: bool,
    #[command(flatten)]
    setup: SetupArgs,
    /// Generate the keys even when cached ones exist (times a real keygen).
    #[arg(long)]
    no_key_cache: bool,
    /// What the proof is for: `batch` (this proof, checked by `verify`) or `ethereum` (runs
    /// `prove-aggregated` with the other arguments: the proof an EIP-170 verifier checks;
    /// docs/ethereum.md).
    #[arg(long = "for", value_name = "batch|ethereum", default_value = "batch")]
    for_target: String,
    /// Prove with the key for B signatures, padding a smaller batch with the canonical filler
    /// (docs/library.md): one key for every batch size up to B. Default: the batch's size.
    #[arg(long, value_name = "B", value_parser = batch_ecdsa::cli::batch_size)]
    pad_to: Option<usize>,
}

fn bad_input(lines: impl IntoIterator<Item = String>) -> ExitCode {
    for l in lines {
        eprintln!("error: {l}");
    }
    ExitCode::from(2)
}

/// The statement `--public` names, or the default for the transcript: a proof for Ethereum
/// (the EVM transcript) states the digest a contract recomputes, any other the keys.
fn statement_for(public: Option<&str>, transcript: TranscriptKind) -> Result<Statement, String> {
    match public {
        Some(p) => p.parse(),
        None if transcript == TranscriptKind::Evm => Ok(Statement::Digest),
        None => Ok(Statement::Keys),
    }
}

fn stats_json(
    kind: CircuitKind,
    statement: Statement,
    b: usize,
    k: u32,
    s: &CircuitStats,
) -> Value {
    json!({
        "circuit": kind.as_str(),
        "statement": statement.as_str(),
        "batch_size": b,
        "k": k,
        "advice_columns": s.advice_columns,
        "advice_cells": s.advice_cells,
        "lookup_cells": s.lookup_cells,
        "fixed_cells": s.fixed_cells,
        "rows": s.rows,
        "witness_s": null,
        "keygen_s": null,
        "prove_s": null,
        "verify_s": null,
        "proof_bytes": null,
    })
}

fn print_stats(kind: CircuitKind, statement: Statement, b: usize, k: u32, s: &CircuitStats) {
    println!("circuit: {kind}, public input: {statement}, B = {b}, k = {k}");
    println!(
        "cells: {} advice ({} looked up), {} fixed; {} advice columns, {} rows",
        s.advice_cells, s.lookup_cells, s.fixed_cells, s.advice_columns, s.rows
    );
}

/// `prove --for ethereum ARGS…`: the proof for Ethereum is `prove-aggregated`'s (the batch
/// proof verified inside the aggregation circuit, whose verifier fits EIP-170). Its heavy
/// dependencies (snark-verifier's in-circuit loader, halo2-ecc, revm, solc-js) live in the
/// `batch-ecdsa-evm` crate behind its `aggregate` feature, which depends on this crate and so
/// cannot be a feature of it; `prove` runs that binary, from its own folder, with the other
/// arguments as given. `--for batch` (the default) is this binary's own proof.
fn for_ethereum(rest: &[std::ffi::OsString]) -> ExitCode {
    let name = format!("prove-aggregated{}", std::env::consts::EXE_SUFFIX);
    let beside = std::env::current_exe()
        .ok()
        .and_then(|p| p.parent().map(|d| d.join(&name)));
    let Some(bin) = beside.filter(|p| p.is_file()) else {
        return bad_input([format!(
            "--for ethereum runs {name}, which is not built beside this binary: build it with \
             `cargo build --release -p batch-ecdsa-evm --features aggregate --bin \
             prove-aggregated` (docs/ethereum.md)"
        )]);
    };
    match std::process::Command::new(&bin).args(rest).status() {
        Ok(status) => ExitCode::from(
            status
                .code()
                .and_then(|c| u8::try_from(c).ok())
                .unwrap_or(2),
        ),
        Err(e) => bad_input([format!("cannot run {}: {e}", bin.display())]),
    }
}

fn main() -> ExitCode {
    if let Some(code) = batch_ecdsa::cpu::refusal() {
        return code;
    }
    // `--for ethereum` (or `--for=ethereum`) hands over to prove-aggregated before parsing.
    let raw: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    let mut rest = Vec::with_capacity(raw.len());
    let mut target = None;
    let mut i = 0;
    while i < raw.len() {
        let a = raw[i].to_string_lossy();
        if a == "--for" && i + 1 < raw.len() {
            target = Some(raw[i + 1].to_string_lossy().into_owned());
            i += 2;
            continue;
        }
        if let Some(v) = a.strip_prefix("--for=") {
            target = Some(v.to_string());
            i += 1;
            continue;
        }
        rest.push(raw[i].clone());
        i += 1;
    }
    match target.as_deref() {
        Some("ethereum") => return for_ethereum(&rest),
        Some("batch") | None => {}
        Some(other) => {
            return bad_input([format!(
                "--for {other}: expected `batch` (this binary's proof) or `ethereum` \
                 (prove-aggregated)"
            )])
        }
    }
    let args = Args::parse_from(std::iter::once(std::ffi::OsString::from("prove")).chain(rest));
    let kind: CircuitKind = match args.circuit.parse() {
        Ok(k) => k,
        Err(e) => return bad_input([format!("--circuit: {e}")]),
    };
    let transcript: TranscriptKind = match args.transcript.parse() {
        Ok(t) => t,
        Err(e) => return bad_input([format!("--transcript: {e}")]),
    };
    let statement = match statement_for(args.public.as_deref(), transcript) {
        Ok(s) => s,
        Err(e) => return bad_input([format!("--public: {e}")]),
    };
    let txs = match &args.input.txs.txs {
        Some(path) => match load_signed_txs(path, &args.input.txs.policy()) {
            Ok(t) => Some(t),
            Err(code) => return ExitCode::from(code),
        },
        None => None,
    };
    let batch = match args
        .input
        .load(txs.as_ref(), DEMO_COUNT)
        .map_err(ExitCode::from)
    {
        Ok(b) => b,
        Err(code) => return code,
    };
    let b = match args.pad_to {
        Some(pad) if pad < batch.len() => {
            return bad_input([format!(
                "--pad-to {pad} is smaller than the batch ({} signatures)",
                batch.len()
            )])
        }
        Some(pad) => pad,
        None => batch.len(),
    };
    // The circuit's limit from the planner's table, before any layout or signature check.
    if let Err(e) = batch_ecdsa_circuits::limits::planned_k(kind, statement, b) {
        return bad_input([e.to_string()]);
    }

    if args.cells_only {
        // The layout depends on B only, never on the values.
        let circuit = match AnyCircuit::fitted_for_size(kind, b, statement) {
            Ok(c) => c,
            Err(e) => return bad_input([e.to_string()]),
        };
        if let (Some(t), Some(path)) = (&txs, &args.input.txs.strip_out) {
            if let Err(code) = write_stripped(t, path) {
                return ExitCode::from(code);
            }
        }
        let s = circuit.stats();
        print_stats(kind, statement, b, circuit.k(), &s);
        if args.json {
            println!("{}", stats_json(kind, statement, b, circuit.k(), &s));
        }
        return ExitCode::SUCCESS;
    }

    let policy = args.setup.policy();
    if args.unchecked {
        eprintln!("--unchecked: the native pre-check is skipped; the circuit alone decides");
    }
    // The pre-check runs before any params or keys are touched, so an invalid batch fails
    // fast; `Prover::prove` below runs it again (milliseconds) as the library always does.
    match witnesses_from_batch(&batch, policy, !args.unchecked) {
        Ok(_) => {}
        Err(WitnessBuildError::Invalid(invalid)) => {
            for e in &invalid {
                println!("{e}");
            }
            eprintln!(
                "error: {} of {} signatures invalid; no proof is made",
                invalid.len(),
                batch.len()
            );
            return ExitCode::from(1);
        }
        Err(e) => return bad_input([e.to_string()]),
    }
    if !args.unchecked {
        eprintln!("native pre-check: all {} signatures valid", batch.len());
    }

    if args.setup.insecure_dev_setup {
        eprintln!(
            "WARNING: INSECURE development setup: the KZG parameters come from a fixed public \
             seed; anyone can forge proofs under them. Do not use these proofs for anything of \
             value."
        );
    }
    let bars = StderrBars::new();
    let setup = SetupOptions {
        params: args.setup.source(),
        key_cache: if args.no_key_cache {
            KeyCache::Regenerate
        } else {
            KeyCache::Use
        },
        statement,
    };
    let prover = match Prover::with_setup(kind, b, &args.setup.params_dir, &setup, &bars) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(e.exit_code());
        }
    };
    let options = ProveOptions {
        policy,
        checked: !args.unchecked,
        seed: None,
        transcript,
    };
    let proved = match prover.prove(&batch, options, &bars) {
        Ok(p) => p,
        // --unchecked: the failing proof is shown and written (module doc).
        Err(ProverError::Unverified(p)) if args.unchecked => *p,
        Err(e) => {
            eprintln!("error: {e}");
            if args.unchecked {
                eprintln!("(the circuit cannot be satisfied by this batch: no proof is made)");
            }
            return ExitCode::from(e.exit_code());
        }
    };

    let s = prover.stats();
    let setup = prover.setup_report();
    let write = proved.self_verified || args.unchecked;
    if write {
        if let Err(e) = proved.file.save(&args.out) {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    }

    if let (Some(t), Some(path), true) = (&txs, &args.input.txs.strip_out, proved.self_verified) {
        if let Err(code) = write_stripped(t, path) {
            return ExitCode::from(code);
        }
    }

    print_stats(kind, statement, b, prover.k(), &s);
    println!("setup: {}", prover.setup_identity().describe());
    println!(
        "times: witness {:.2} s, keygen {:.2} s ({}), prove {:.2} s, verify {:.1} ms",
        proved.witness_s,
        setup.keygen_s,
        if setup.keys_from_cache {
            "keys from cache"
        } else {
            "generated"
        },
        proved.prove_s,
        proved.verify_s * 1e3
    );
    println!(
        "proof: {} bytes; proving key {} bytes{}",
        proved.proof_bytes,
        setup.pk_bytes,
        if write {
            format!("; written to {}", args.out.display())
        } else {
            String::new()
        }
    );
    let code = if proved.self_verified {
        println!("self-verification: ok");
        ExitCode::SUCCESS
    } else if args.unchecked {
        println!("self-verification: FAILED: the circuit rejects this batch (expected for an invalid batch with --unchecked); `verify` will exit 1 on this proof");
        ExitCode::from(1)
    } else {
        eprintln!("error: the proof failed its own verification; nothing written");
        ExitCode::from(1)
    };
    if args.json {
        let mut v = stats_json(kind, statement, b, prover.k(), &s);
        v["public_inputs"] = json!(prover.num_instance());
        v["digest"] = json!(proved.file.digest);
        v["witness_s"] = json!(proved.witness_s);
        v["keygen_s"] = json!(setup.keygen_s);
        v["keys_from_cache"] = json!(setup.keys_from_cache);
        v["params_s"] = json!(setup.params_s);
        v["params_generated"] = json!(setup.params_generated);
        v["layout_s"] = json!(setup.layout_s);
        v["prove_s"] = json!(proved.prove_s);
        v["verify_s"] = json!(proved.verify_s);
        v["proof_bytes"] = json!(proved.proof_bytes);
        v["pk_bytes"] = json!(setup.pk_bytes);
        v["self_verified"] = json!(proved.self_verified);
        v["vk_hash"] = json!(proved.file.vk_hash);
        v["out"] = json!(if write {
            Value::String(args.out.display().to_string())
        } else {
            Value::Null
        });
        v["setup"] = json!(proved.file.setup);
        println!("{v}");
    }
    code
}
