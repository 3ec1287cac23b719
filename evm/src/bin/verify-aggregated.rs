//! `verify-aggregated --dir DIR (--verifier-code-hash HASH | --verifier FILE) [--params FILE |
//! --insecure-dev-setup] [--batch FILE | --txs FILE [--chain-id N ...] | --stripped FILE]
//! [--json]`: checks an aggregated proof folder (`prove-aggregated`,
//! `batch_ecdsa_evm::aggregated_folder`) against what **you** trust, then as Ethereum would.
//!
//! What you trust, never the folder's word:
//! - the verifier: `--verifier-code-hash HASH` (what `cast codehash ADDRESS` prints for the
//!   deployed contract: the folder's source must compile to that code) or `--verifier FILE`
//!   (the source of the contract you deployed). Without either it refuses: a folder's own
//!   verifier proves nothing (a contract that returns success would "verify" anything);
//! - the setup: `--params FILE` (the ceremony file, .ptau or halo2 raw; only its `[τ]₂` is
//!   read), the local setup of `--params-dir` (default), or `--insecure-dev-setup` (the
//!   fixed-seed setup, refused unless given: anyone can forge proofs under it).
//!
//! The verifier must use that setup's `[τ]₂` in its pairing check and its header must state
//! the folder's statement, B, both k and setup. Then it compiles the verifier with solc-js,
//! deploys it in revm with EIP-170 enforced and calls it with the calldata of the file's
//! statement; under the digest statement also calls the wrapper contract in front of it,
//! which recomputes D from the batch: `verifyTransactions` with the signing payloads of
//! `--txs` or `--stripped` (what a rollup posts), `verifyHashes` otherwise. With a batch, its
//! (signing hash, address) pairs must be the proof's: each one that differs is named.
//!
//! Exit codes: 0 valid, 1 invalid or refused (the proof, a batch that is not the proven one,
//! a verifier or setup that is not the one you trust), 2 bad input or an environment failure.

use std::path::PathBuf;
use std::process::ExitCode;

use batch_ecdsa::batch_file::BatchFile;
use batch_ecdsa::cli::{load_signed_txs, TxArgs};
use batch_ecdsa::hexfmt::{decode_hex, decode_hex_fixed, encode_hex};
use batch_ecdsa::prover::srs::SetupSource;
use batch_ecdsa::txs::strip::StrippedFile;
use batch_ecdsa_evm::aggregated_folder::{
    check_folder_setup_kind, AggregatedError, AggregatedProofFile, MAX_VERIFIER_SOURCE_BYTES,
    VERIFIER_FILE,
};
use batch_ecdsa_evm::folder_check::{check_folder, FolderCheck, HeldBatch, PinnedVerifier};
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
    /// The source of the verifier contract you deployed (or trust); it is used instead of the
    /// folder's.
    #[arg(long, conflicts_with = "verifier_code_hash")]
    verifier: Option<PathBuf>,
    /// The deployed verifier's runtime code hash, as `cast codehash ADDRESS` prints it: the
    /// folder's verifier source must compile to exactly that code.
    #[arg(long)]
    verifier_code_hash: Option<String>,
    /// The ceremony file you trust (.ptau or halo2 raw): the folder's setup must be it.
    #[arg(long, conflicts_with = "insecure_dev_setup")]
    params: Option<PathBuf>,
    /// Accept a folder under the fixed-seed development setup (ANYONE CAN FORGE such proofs:
    /// test fixtures only).
    #[arg(long)]
    insecure_dev_setup: bool,
    /// Where the local setup is cached (a folder proven under the local setup verifies only
    /// where that setup is).
    #[arg(long, default_value = "params")]
    params_dir: PathBuf,
    /// Low s only (as Ethereum since EIP-2) when checking a --batch file.
    #[arg(long)]
    low_s: bool,
    /// Last stdout line: one JSON object with the figures.
    #[arg(long)]
    json: bool,
}

fn held_batch(args: &Args) -> Result<Option<HeldBatch>, AggregatedError> {
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
        return Ok(Some(HeldBatch::of_txs(&t)));
    }
    if let Some(path) = &args.stripped {
        let text = batch_ecdsa::fsutil::read_text_bounded(
            path,
            batch_ecdsa::txs::file::MAX_TXS_FILE_BYTES,
        )
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
        return Ok(Some(HeldBatch {
            pairs,
            payloads: Some(payloads),
            item: "transaction",
        }));
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
        return HeldBatch::of_batch(&batch, policy).map(Some);
    }
    Ok(None)
}

/// The verifier the user pins, and where its source is read from.
fn pinned_verifier(args: &Args) -> Result<(PinnedVerifier, PathBuf), AggregatedError> {
    let bad = AggregatedError::BadInput;
    match (&args.verifier, &args.verifier_code_hash) {
        (Some(path), _) => {
            let text = read_source(path)?;
            Ok((
                PinnedVerifier::Source {
                    text,
                    label: path.display().to_string(),
                },
                path.clone(),
            ))
        }
        (None, Some(hash)) => {
            let h = decode_hex_fixed::<32>(hash)
                .map_err(|e| bad(format!("--verifier-code-hash: {e}")))?;
            Ok((PinnedVerifier::CodeHash(h), args.dir.join(VERIFIER_FILE)))
        }
        (None, None) => Err(bad(
            "refusing to trust the folder's own verifier: say which verifier you trust with \
             --verifier-code-hash HASH (`cast codehash ADDRESS` of the deployed contract) or \
             --verifier FILE (the source of the contract you deployed)"
                .into(),
        )),
    }
}

fn read_source(path: &std::path::Path) -> Result<String, AggregatedError> {
    batch_ecdsa::fsutil::read_text_bounded(path, MAX_VERIFIER_SOURCE_BYTES)
        .map_err(|e| AggregatedError::BadInput(format!("cannot read {}: {e}", path.display())))
}

fn run(args: &Args) -> Result<(), AggregatedError> {
    let (pinned, sol_path) = pinned_verifier(args)?;
    let source = SetupSource::from_flags(args.params.as_deref(), args.insecure_dev_setup);
    let file = AggregatedProofFile::load(&args.dir)?;
    // The folder's claims and its setup kind first (check_folder makes both checks again),
    // then the batch held.
    file.decode()?;
    check_folder_setup_kind(&file, source.kind())?;
    let held = held_batch(args)?;
    let folder_verifier = match pinned {
        PinnedVerifier::CodeHash(_) => read_source(&sol_path)?,
        PinnedVerifier::Source { .. } => String::new(),
    };
    let code_hash = match pinned {
        PinnedVerifier::CodeHash(h) => Some(h),
        PinnedVerifier::Source { .. } => None,
    };
    let (decoded, on_chain) = check_folder(&FolderCheck {
        file: &file,
        folder_verifier: &folder_verifier,
        pinned: &pinned,
        held: held.as_ref(),
        setup: &source,
        params_dir: &args.params_dir,
    })?;
    let insecure = source.kind().is_insecure();
    let tag = if insecure { "INSECURE " } else { "" };
    let real = decoded.pairs.len();
    // The filler's key is public: an entry from its address proves nothing about its author.
    let filler_address = batch_ecdsa::native::filler::filler().address;
    for (i, _) in decoded
        .pairs
        .iter()
        .enumerate()
        .filter(|(_, p)| p.1 == filler_address)
    {
        eprintln!(
            "warning: signature {i} is from the canonical filler's address, whose key is public: \
             anyone could have signed it"
        );
    }
    if decoded.digest.is_some() && real < file.batch_size {
        println!(
            "{tag}valid: {real} signatures ({}), on a key for B = {} (then {} canonical filler \
             slot{})",
            decoded.statement,
            file.batch_size,
            file.batch_size - real,
            if file.batch_size - real == 1 { "" } else { "s" }
        );
    } else {
        println!(
            "{tag}valid: {} signatures ({})",
            file.batch_size, decoded.statement
        );
    }
    for line in on_chain.lines() {
        println!("{tag}{line}");
    }
    println!(
        "{tag}setup: {} setup{} (keccak256([τ]₂) = {}); verifier {}",
        source.kind(),
        args.params
            .as_deref()
            .map(|f| format!(" {}", f.display()))
            .unwrap_or_default(),
        file.setup.tau_g2,
        match code_hash {
            Some(h) => format!("pinned by code hash {}", encode_hex(&h)),
            None => format!("pinned by its source {}", sol_path.display()),
        }
    );
    if args.json {
        println!(
            "{}",
            serde_json::json!({
                "valid": true,
                "statement": decoded.statement.to_string(),
                "batch_size": file.batch_size,
                "signatures": if decoded.digest.is_some() { decoded.pairs.len() } else { file.batch_size },
                "on_chain": on_chain,
                "setup": source.kind().as_str(),
                "insecure": insecure,
                "tau_g2": file.setup.tau_g2,
            })
        );
    }
    Ok(())
}

fn main() -> ExitCode {
    if let Some(code) = batch_ecdsa::cpu::refusal() {
        return code;
    }
    match run(&Args::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
