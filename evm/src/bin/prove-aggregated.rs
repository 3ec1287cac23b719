//! `prove-aggregated [--batch FILE | --txs FILE [--chain-id N ...] | --count B [--seed S]]
//! [--public digest|keys] [--k K] [--params-dir DIR] --out-dir DIR [--json]` (feature
//! `aggregate`): a user's batch proven for Ethereum. Proves the batch with the batch circuit
//! (snark-verifier's Poseidon transcript), verifies that proof inside the aggregation circuit
//! of 2^K rows (default 22, where the digest statement's verifier fits EIP-170), proves that
//! for the EVM, generates and compiles the outer verifier, then checks the result as a chain
//! would before writing anything: the verifier deployed in revm with EIP-170 enforced and
//! called, and (digest) the wrapper in front of it called with the batch, returning D.
//! Writes the aggregated proof folder (`batch_ecdsa_evm::aggregated_folder`) at once.
//!
//! `--pad-to B` (digest statement) proves the n ≤ B signatures of the batch on the key for B:
//! the batch is padded with the canonical filler (`batch_ecdsa::native::filler`), the folder
//! records the n real pairs and D of them padded to B, and the wrapper is called with the n
//! pairs (it appends the filler itself).
//!
//! `--txs FILE --strip-out FILE` also writes the stripped transactions (what a rollup posts,
//! and what `verify-aggregated --stripped` reads) after the folder.
//!
//! Exit codes: 0 proved, 1 invalid batch (every invalid signature or transaction named, nothing
//! proved), 2 bad input or an environment failure (nothing written).
//!
//! The setup (one τ for the inner and the outer circuit): `--params FILE`, a ceremony file
//! (.ptau or halo2 raw) of power ≥ K, cut down for the inner circuit: **the only setup whose
//! verifier is fit to deploy**; without it the local setup cached in `--params-dir` (τ from
//! this machine's randomness, never stored: anyone who checks the proof trusts this machine);
//! `--insecure-dev-setup` the fixed-seed one (anyone can forge proofs under it: test fixtures
//! only). The folder and the verifier's header record which.
//!
//! About 20 minutes and 17 GiB on 2 cores at K = 22 (docs/ethereum.md).

use std::path::PathBuf;
use std::process::ExitCode;

use batch_ecdsa::cli::{load_signed_txs, write_stripped, BatchArgs, SetupArgs};
use batch_ecdsa::prover::api::digest_pairs_of;
use batch_ecdsa::prover::circuit::{witnesses_from_batch, WitnessBuildError};
use batch_ecdsa::prover::proving_key;
use batch_ecdsa::prover::transcript::scalar_word;
use batch_ecdsa_circuits::ecdsa::Statement;
use batch_ecdsa_evm::aggregated_folder::{
    check_folder_free, verify_on_chain, wrapper_calldata, write_folder, AggregatedProofFile,
    ACCUMULATOR_WORDS,
};
use batch_ecdsa_evm::aggregation_prover::{
    aggregate, inner_k, inner_line, inner_snark_of, load_setup, source_word, OuterShape,
};
use batch_ecdsa_evm::solc::Solc;
use clap::Parser;

/// Proves a batch for Ethereum: a batch proof aggregated into one whose verifier fits EIP-170.
#[derive(Parser, Debug)]
#[command(name = "prove-aggregated", version)]
struct Args {
    #[command(flatten)]
    input: BatchArgs,
    /// The inner proof's statement: digest (2 public inputs whatever B; what the wrapper
    /// contract recomputes) or keys (3 per signature).
    #[arg(long = "public", default_value = "digest")]
    statement: Statement,
    /// log2 rows of the outer (aggregation) circuit.
    #[arg(long, default_value_t = 22, value_parser = clap::value_parser!(u32).range(16..=26))]
    k: u32,
    #[command(flatten)]
    setup: SetupArgs,
    /// Prove on the key for B signatures (n ≤ B): the batch is padded with the canonical filler
    /// (digest statement only). Default: the batch's size.
    #[arg(long, value_name = "B", value_parser = batch_ecdsa::cli::batch_size)]
    pad_to: Option<usize>,
    /// The folder to write (must not exist, or be empty).
    #[arg(long)]
    out_dir: PathBuf,
    /// Last stdout line: one JSON object with the figures.
    #[arg(long)]
    json: bool,
}

fn fail(code: u8, lines: impl IntoIterator<Item = String>) -> ExitCode {
    for l in lines {
        eprintln!("error: {l}");
    }
    ExitCode::from(code)
}

fn run(args: &Args) -> Result<(), ExitCode> {
    check_folder_free(&args.out_dir).map_err(|e| fail(2, [e]))?;
    let txs = match &args.input.txs.txs {
        Some(path) => {
            Some(load_signed_txs(path, &args.input.txs.policy()).map_err(ExitCode::from)?)
        }
        None => None,
    };
    let batch = args.input.load(txs.as_ref(), 2).map_err(ExitCode::from)?;
    // n real signatures, proven on the key for b ≥ n (the rest the canonical filler).
    let n = batch.len();
    let b = match args.pad_to {
        Some(pad) if pad < n => {
            return Err(fail(
                2,
                [format!(
                    "--pad-to {pad} is smaller than the batch ({n} signatures)"
                )],
            ))
        }
        Some(pad) if pad > n && args.statement != Statement::Digest => {
            return Err(fail(
                2,
                [
                    "--pad-to is for the digest statement (the folder records its real pairs)"
                        .into(),
                ],
            ))
        }
        Some(pad) => pad,
        None => n,
    };
    // The batch circuit's limit, from the planner's table, before any signature is checked.
    let ik = inner_k(b, args.statement).map_err(|e| fail(2, [e.to_string()]))?;
    let witnesses = match witnesses_from_batch(&batch.padded_to(b), args.setup.policy(), true) {
        Ok(w) => w,
        Err(WitnessBuildError::Invalid(invalid)) => {
            for e in &invalid {
                println!("{e}");
            }
            return Err(fail(
                1,
                [format!(
                    "{} of {n} signatures invalid; nothing is proved",
                    invalid.len()
                )],
            ));
        }
        Err(e) => return Err(fail(2, [e.to_string()])),
    };
    // The n real pairs (the folder's records; D is theirs padded to b).
    let pairs = digest_pairs_of(&witnesses)[..n].to_vec();
    let solc = Solc::locate_or_install().map_err(|e| fail(2, [e.to_string()]))?;

    let log = |line: &str| eprintln!("{line}");
    let statement = args.statement;
    let source = args.setup.source();
    if source.kind().is_insecure() {
        log("WARNING: INSECURE fixed-seed development setup: anyone can forge proofs under it; the folder is a test fixture, never deploy its verifier");
    }
    let (inner_srs, outer_srs) =
        load_setup(&source, &args.setup.params_dir, ik, args.k).map_err(|e| fail(2, [e]))?;
    log(&format!("setup: {}", outer_srs.identity.describe()));
    // Inner and outer keys are made once per statement, B, both k and setup, and cached here.
    let keys_dir = proving_key::keys_dir(&args.setup.params_dir);
    let inner = inner_snark_of(witnesses, statement, &inner_srs.params, &keys_dir)
        .map_err(|e| fail(2, [e]))?;
    log(&inner_line(&inner, statement));
    let shape = OuterShape {
        k: args.k,
        lookup_bits: args.k as usize - 1,
    };
    let agg = aggregate(&inner, statement, shape, &outer_srs, &keys_dir, &solc, &log)
        .map_err(|e| fail(2, [e]))?;
    let words: Vec<[u8; 32]> = agg.instance.iter().map(scalar_word).collect();
    let (accumulator, inner_words) = words.split_at(ACCUMULATOR_WORDS);
    let file = AggregatedProofFile::new(
        statement,
        b,
        inner.k,
        args.k,
        &outer_srs.identity,
        if statement == Statement::Digest {
            &pairs
        } else {
            &[]
        },
        inner_words,
        accumulator,
        &agg.proof,
    );
    let decoded = file.decode().map_err(|e| fail(2, [e.to_string()]))?;
    let payloads: Option<Vec<Vec<u8>>> = txs.as_ref().map(|t| {
        t.records
            .iter()
            .map(|r| r.tx.signing_payload.clone())
            .collect()
    });
    // The check a chain makes, before anything is written.
    let on_chain =
        verify_on_chain(&decoded, &agg.solidity, payloads.as_deref(), &solc).map_err(|e| {
            fail(
                2,
                [format!("the aggregated proof fails its own check: {e}")],
            )
        })?;
    let wrapper = match decoded.digest {
        Some(_) => Some(
            wrapper_calldata(&decoded, payloads.as_deref())
                .map_err(|e| fail(2, [e.to_string()]))?
                .0,
        ),
        None => None,
    };
    write_folder(&args.out_dir, &file, &agg.solidity, wrapper.as_deref())
        .map_err(|e| fail(2, [e]))?;

    let tag = if source.kind().is_insecure() {
        "INSECURE "
    } else {
        ""
    };
    println!(
        "{tag}B = {b}, {n} real ({statement}): inner k = {} proof {} bytes in {:.1} s; outer k = {} proof {} bytes in {:.1} s (keys {} in {:.1} s)",
        inner.k,
        inner.snark.proof.len(),
        inner.prove.as_secs_f64(),
        args.k,
        agg.proof.len(),
        agg.outer_prove.as_secs_f64(),
        source_word(&agg.outer_keys_source),
        agg.outer_keygen.as_secs_f64()
    );
    for line in on_chain.lines() {
        println!("{tag}{line}");
    }
    println!("{tag}setup: {}", outer_srs.identity.describe());
    println!("{tag}written to {}", args.out_dir.display());
    if let (Some(t), Some(path)) = (&txs, &args.input.txs.strip_out) {
        write_stripped(t, path).map_err(ExitCode::from)?;
    }
    if args.json {
        let row = serde_json::json!({
            "statement": statement.to_string(),
            "batch_size": b,
            "signatures": n,
            "inner_k": inner.k,
            "inner_proof_bytes": inner.snark.proof.len(),
            "inner_keys": source_word(&inner.keys_source),
            "inner_keygen_s": inner.keygen.as_secs_f64(),
            "inner_prove_s": inner.prove.as_secs_f64(),
            "outer": agg.layout,
            "outer_keys": source_word(&agg.outer_keys_source),
            "outer_keygen_s": agg.outer_keygen.as_secs_f64(),
            "outer_prove_s": agg.outer_prove.as_secs_f64(),
            "outer_proof_bytes": agg.proof.len(),
            "on_chain": on_chain,
            "setup": outer_srs.identity,
            "peak_rss_mib": batch_ecdsa_evm::aggregation_prover::peak_rss_mib(),
        });
        println!("{row}");
    }
    Ok(())
}

fn main() -> ExitCode {
    match run(&Args::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(code) => code,
    }
}
