//! `verify-aggregated --dir DIR [--batch FILE | --txs FILE [--chain-id N ...] | --stripped
//! FILE] [--verifier FILE] [--json]`: checks an aggregated proof folder (`prove-aggregated`,
//! `batch_ecdsa_evm::aggregated`) as Ethereum would. Compiles the folder's verifier (or
//! `--verifier`, e.g. the source of the contract you deployed) with solc-js, deploys it in
//! revm with EIP-170 enforced and calls it with the calldata of the file's statement; under
//! the digest statement also calls the wrapper contract in front of it, which recomputes D
//! from the batch: `verifyTransactions` with the signing payloads of `--txs` or `--stripped`
//! (what a rollup posts), `verifyHashes` otherwise. With a batch, its (signing hash, address)
//! pairs must be the proof's: each one that differs is named.
//!
//! Exit codes: 0 valid, 1 invalid (the proof, or a batch that is not the proven one), 2 bad
//! input or an environment failure.

use std::path::PathBuf;
use std::process::ExitCode;

use batch_ecdsa::batch_file::BatchFile;
use batch_ecdsa::cli::{load_signed_txs, TxArgs};
use batch_ecdsa::hexfmt::{decode_hex, decode_hex_fixed};
use batch_ecdsa::prover::api::digest_pairs_of;
use batch_ecdsa::prover::circuit::{witnesses_from_batch, WitnessBuildError};
use batch_ecdsa::prover::proof::DigestPair;
use batch_ecdsa::txs::strip::StrippedFile;
use batch_ecdsa_evm::aggregated::{
    check_pairs, verify_on_chain, AggregatedError, AggregatedProofFile, VERIFIER_FILE,
};
use batch_ecdsa_evm::solc::Solc;
use clap::Parser;

/// Checks an aggregated proof folder on an EVM (revm), as a contract would.
#[derive(Parser, Debug)]
#[command(name = "verify-aggregated", version)]
struct Args {
    /// The folder `prove-aggregated` wrote.
    #[arg(long)]
    dir: PathBuf,
    /// A batch file whose signatures must be the proven ones.
    #[arg(long, conflicts_with_all = ["txs", "stripped"])]
    batch: Option<PathBuf>,
    #[command(flatten)]
    txs: TxArgs,
    /// Stripped transactions (`prove --txs ... --strip-out`): what a rollup posts; their
    /// signing payloads go to the wrapper's `verifyTransactions`.
    #[arg(long, conflicts_with = "txs")]
    stripped: Option<PathBuf>,
    /// The verifier's Solidity (default: the folder's).
    #[arg(long)]
    verifier: Option<PathBuf>,
    /// Low s only (as Ethereum since EIP-2) when checking a --batch file.
    #[arg(long)]
    low_s: bool,
    /// Last stdout line: one JSON object with the figures.
    #[arg(long)]
    json: bool,
}

/// The batch's pairs and, for transactions, their signing payloads.
type Held = (Vec<DigestPair>, Option<Vec<Vec<u8>>>, &'static str);

fn held_batch(args: &Args) -> Result<Option<Held>, AggregatedError> {
    let bad = AggregatedError::BadInput;
    if args.txs.strip_out.is_some() {
        return Err(bad(
            "--strip-out: verify-aggregated writes nothing (verify --native --txs does)".into(),
        ));
    }
    if let Some(path) = &args.txs.txs {
        let t = load_signed_txs(path, &args.txs.policy()).map_err(|code| {
            let why = format!(
                "{}: the transactions do not decode or check",
                path.display()
            );
            if code == 1 {
                AggregatedError::Invalid(why)
            } else {
                bad(why)
            }
        })?;
        let pairs = t
            .records
            .iter()
            .map(|r| (r.tx.signing_hash, r.sender))
            .collect();
        let payloads = t
            .records
            .iter()
            .map(|r| r.tx.signing_payload.clone())
            .collect();
        return Ok(Some((pairs, Some(payloads), "transaction")));
    }
    if let Some(path) = &args.stripped {
        let text = std::fs::read_to_string(path)
            .map_err(|e| bad(format!("cannot read {}: {e}", path.display())))?;
        let f = StrippedFile::parse(&text).map_err(|e| bad(format!("{}: {e}", path.display())))?;
        let mut pairs = Vec::new();
        let mut payloads = Vec::new();
        for (i, t) in f.transactions.iter().enumerate() {
            let field = |e: String| bad(format!("{}: transaction {i}: {e}", path.display()));
            let payload = decode_hex(&t.unsigned).map_err(field)?;
            let sender = decode_hex_fixed::<20>(&t.sender).map_err(field)?;
            pairs.push((batch_ecdsa::native::hash::keccak256(&payload), sender));
            payloads.push(payload);
        }
        return Ok(Some((pairs, Some(payloads), "transaction")));
    }
    if let Some(path) = &args.batch {
        let batch = BatchFile::load(path).map_err(|errs| {
            bad(errs
                .iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join("; "))
        })?;
        let policy = batch_ecdsa::batch_file::Policy { low_s: args.low_s };
        let ws = witnesses_from_batch(&batch, policy, true).map_err(|e| match e {
            WitnessBuildError::Invalid(_) => {
                AggregatedError::Invalid(format!("the batch holds invalid signatures: {e}"))
            }
            other => bad(other.to_string()),
        })?;
        return Ok(Some((digest_pairs_of(&ws), None, "signature")));
    }
    Ok(None)
}

fn run(args: &Args) -> Result<(), AggregatedError> {
    let bad = AggregatedError::BadInput;
    let file = AggregatedProofFile::load(&args.dir)?;
    let decoded = file.decode()?;
    let held = held_batch(args)?;
    let payloads = match &held {
        Some((pairs, payloads, item)) => {
            if decoded.digest.is_none() {
                return Err(bad(
                    "a keys proof is checked on its own: its public inputs are the keys".into(),
                ));
            }
            check_pairs(&decoded.pairs, pairs, item)?;
            payloads.clone()
        }
        None => None,
    };
    let sol_path = args
        .verifier
        .clone()
        .unwrap_or_else(|| args.dir.join(VERIFIER_FILE));
    let sol = std::fs::read_to_string(&sol_path)
        .map_err(|e| bad(format!("cannot read {}: {e}", sol_path.display())))?;
    let solc = Solc::locate_or_install().map_err(|e| bad(e.to_string()))?;
    let on_chain = verify_on_chain(&decoded, &sol, payloads.as_deref(), &solc)?;
    println!(
        "valid: {} signatures ({})",
        file.batch_size, decoded.statement
    );
    for line in on_chain.lines() {
        println!("{line}");
    }
    if args.json {
        println!(
            "{}",
            serde_json::json!({
                "valid": true,
                "statement": decoded.statement.to_string(),
                "batch_size": file.batch_size,
                "on_chain": on_chain,
            })
        );
    }
    Ok(())
}

fn main() -> ExitCode {
    match run(&Args::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
