//! `calldata`: what it costs on Ethereum L1 to check B ECDSA signatures, posting the
//! signatures or one batch-ECDSA proof, for calldata rollups, blob rollups and `ecrecover`
//! bridges (see `batch_ecdsa::calldata`).
//!
//! Exit status: 0 on success, 2 on bad arguments (clap's own errors and values that make no
//! sense, e.g. zero batches per day, an unreadable proof file).

use batch_ecdsa::calldata::measured::{
    posted_words_per_signature, Measured, ECRECOVER_BENCH_PATH, EVM_BENCH_PATH,
};
use batch_ecdsa::calldata::params::{Compressor, MeasuredTxs, DEFAULT_BREAK_EVEN_BOUND};
use batch_ecdsa::calldata::proof_file::proof_input_from_file;
use batch_ecdsa::calldata::units::gwei_to_wei;
use batch_ecdsa::calldata::wrapper_gas::WRAPPER_GAS_PATH;
use batch_ecdsa::calldata::{
    default_batch_sizes, report, table, BlobRounding, Headroom, Origin, Request, Scenario,
    Schedule, Sender, SignatureFormat, Statement,
};
use batch_ecdsa::txs::strip::{ByteCounts, Sizes, StrippedFile};
use batch_ecdsa::txs::{SignedTxs, TxPolicy};
use clap::Parser;
use std::path::PathBuf;
use std::process::ExitCode;

/// Cost on Ethereum L1 of checking B ECDSA signatures: post them (w/o), or post one
/// batch-ECDSA proof plus a sender per signature and verify it (with). Prints the break-even
/// for calldata rollups (EIP-2028, EIP-7623, EIP-7976), blob rollups (EIP-4844 at the EIP-7918
/// reserve) and bridges checking signatures with ecrecover. Unset options take the scenario's
/// value.
/// The largest batch size any flag takes (far past where a proof pays; keeps every sum and
/// product of the model within u64 and f64's exact range).
const MAX_BATCH: u64 = 1_000_000;
/// The largest proof, in bytes (16 MiB: a thousand times the largest measured).
const MAX_PROOF_BYTES: u64 = 16 << 20;
/// The largest gas figure a flag takes (a thousand blocks).
const MAX_GAS: u64 = 36_000_000_000;
/// The most batches a day (one a millisecond).
const MAX_BATCHES_PER_DAY: u64 = 86_400_000;

/// A price in gwei: finite, 0 to 10^9.
fn gwei(s: &str) -> Result<f64, String> {
    let v: f64 = s.parse().map_err(|e| format!("{e}"))?;
    if v.is_finite() && (0.0..=1e9).contains(&v) {
        Ok(v)
    } else {
        Err(format!("{s} is not a price between 0 and 1e9 gwei"))
    }
}

/// A price in wei: 0 to 10^18·10^9.
fn wei(s: &str) -> Result<u128, String> {
    let v: u128 = s.parse().map_err(|e| format!("{e}"))?;
    if v <= 1_000_000_000_000_000_000_000_000_000 {
        Ok(v)
    } else {
        Err(format!("{s} is above 1e27 wei"))
    }
}

/// A fraction: finite, 0 to 1.
fn fraction(s: &str) -> Result<f64, String> {
    let v: f64 = s.parse().map_err(|e| format!("{e}"))?;
    if v.is_finite() && (0.0..=1.0).contains(&v) {
        Ok(v)
    } else {
        Err(format!("{s} is not a fraction between 0 and 1"))
    }
}

#[derive(Parser, Debug)]
#[command(name = "calldata", version)]
struct Cli {
    /// Named input set: `current` (this project's measured figures, 2025-26 prices) or `optimism-2022`
    /// (the 2022 seed example: 131-byte proof, no verifier gas, 30 gwei, 64-byte signatures,
    /// EIP-2028 table).
    #[arg(long, value_enum, default_value = "current")]
    scenario: Scenario,

    /// Batch size B of interest; added to the table's rows [default: 256, the largest batch
    /// proved end to end for Ethereum; 200 with --scenario optimism-2022; with --txs the
    /// number of transactions measured].
    #[arg(short = 'b', long, value_parser = clap::value_parser!(u64).range(1..=MAX_BATCH))]
    batch_size: Option<u64>,

    /// Batch sizes for the table rows, comma-separated [default: 1,16,64,128,256,1024,4096,
    /// 16384,65536].
    #[arg(long, value_delimiter = ',', value_parser = clap::value_parser!(u64).range(1..=MAX_BATCH))]
    sizes: Option<Vec<u64>>,

    /// Signature as posted: `rs-parity` (64 B + 1 y-parity bit, OP Stack span batches), `rs`
    /// (64 B) or `rsv` (65 B) [default: rs-parity; optimism-2022: rs].
    #[arg(long, value_enum)]
    signature: Option<SignatureFormat>,

    /// Share of signature bytes that are non-zero (random bytes: 255/256 ≈ 1) [default: 1].
    #[arg(long, value_parser = fraction)]
    sig_nonzero_fraction: Option<f64>,

    /// The proof's public statement: `digest` (one digest of the hashes and senders, computed
    /// on chain by the digest wrapper, whose measured gas is added; the proof path posts the
    /// proof, the senders and a 3-byte length prefix per payload) or `keys` (each signature's
    /// hash and key as 3 public-input words beside the proof) [default: digest: the digest row
    /// of results/evm.json, else the aggregated digest verifier of prove-aggregated on 256
    /// transactions (results/prove-aggregated-b256.json); keys, with a note, when neither exists]. Not with
    /// --scenario optimism-2022.
    #[arg(long, value_name = "digest|keys", value_parser = |s: &str| s.parse::<Statement>())]
    public: Option<Statement>,

    /// What the proof path posts per signature: `address` (20 bytes) or `index:N` (N bytes)
    /// [default: address].
    #[arg(long)]
    sender: Option<Sender>,

    /// Bytes the proof path posts for the proof [default: measured, the calldata of the EVM
    /// bench's verifying call at its largest B (results/evm.json): proof_bytes + 32 x
    /// public_inputs].
    #[arg(long, conflicts_with = "proof", help = proof_bytes_help(), value_parser = clap::value_parser!(u64).range(0..=MAX_PROOF_BYTES))]
    proof_bytes: Option<u64>,
    /// Public inputs per signature, each a 32-byte calldata word of the verifying call beside
    /// the proof [default: digest statement 0 (D is computed on chain); keys statement 3 (the
    /// bench row's public inputs over its B)].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(0..=64))]
    public_inputs_per_signature: Option<u64>,

    /// Proof or EVM bench file (JSON): a proof file gives the proof size; an EVM bench row or
    /// array (`proof_bytes`, `public_inputs`, `verify_gas_execution`, `statement`, ...) gives
    /// the verifier's calldata and measured gas, from a row of the --public statement.
    #[arg(long, value_name = "FILE")]
    proof: Option<PathBuf>,

    /// Which batch-circuit row of an EVM bench array to use, by its B [default: the largest of
    /// the statement's rows].
    #[arg(long, requires = "proof", value_parser = clap::value_parser!(u64).range(1..=MAX_BATCH))]
    verifier_batch_size: Option<u64>,

    /// On-chain verification execution gas of the verifier [default: measured, the EVM bench's
    /// verify_gas_execution at its largest B (results/evm.json); a bench file's when --proof
    /// gives one]. Under the digest statement the wrapper's measured gas at B is added.
    #[arg(long, help = verification_gas_help(), value_parser = clap::value_parser!(u64).range(0..=MAX_GAS))]
    verification_gas: Option<u64>,

    /// Execution base fee in gwei [default: 1; optimism-2022: 30].
    #[arg(long, visible_alias = "gas-price-gwei", value_parser = gwei)]
    base_fee_gwei: Option<f64>,

    /// Priority fee (tip) per execution gas in gwei [default: 0].
    #[arg(long, value_parser = gwei)]
    priority_fee_gwei: Option<f64>,

    /// Blob base fee in gwei [default: base fee / 16, the EIP-7918 reserve].
    #[arg(long, conflicts_with = "blob_base_fee_wei", value_parser = gwei)]
    blob_base_fee_gwei: Option<f64>,

    /// Blob base fee in wei (alternative to --blob-base-fee-gwei).
    #[arg(long, value_parser = wei)]
    blob_base_fee_wei: Option<u128>,

    /// Usable payload bytes per blob, at most 130048 [default: 130044, the OP Stack's
    /// encoding].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=131_072))]
    blob_usable_bytes: Option<u64>,

    /// Charge whole blobs to the payload, or blob gas pro rata to its bytes [default: whole].
    #[arg(long, value_enum)]
    blob_rounding: Option<BlobRounding>,

    /// Execution gas per blob of senders to bind the proof to it [default: 50000, one
    /// point-evaluation precompile call].
    #[arg(long, value_parser = clap::value_parser!(u64).range(0..=MAX_GAS))]
    blob_binding_gas: Option<u64>,

    /// Digest statement: the proofs are made on a key for K signatures, so a batch of B < K
    /// pays K − B filler slots in the wrapper (measured gas each); a batch of B ≥ K is taken
    /// on a key of its own size [default: every batch on a key of its size].
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..=MAX_BATCH))]
    key_size: Option<u64>,

    /// Calldata floor headroom: `none` (the payload is its transaction's only calldata),
    /// `full` (other calldata absorbs all execution) or `tx-bytes:N` (N more calldata bytes per
    /// transaction) [default: none].
    #[arg(long)]
    floor_headroom: Option<Headroom>,

    /// Gas per signature of an ecrecover loop besides the 3,000-gas precompile [default:
    /// measured, loop_overhead of results/ecrecover.json].
    #[arg(long, help = ecrecover_loop_help(), value_parser = clap::value_parser!(u64).range(0..=MAX_GAS))]
    ecrecover_loop_gas: Option<u64>,

    /// Execution gas of the ecrecover contract's call whatever N (dispatch, ABI decoding)
    /// [default: measured, base_execution of results/ecrecover.json].
    #[arg(long, help = ecrecover_base_help(), value_parser = clap::value_parser!(u64).range(0..=MAX_GAS))]
    ecrecover_base_gas: Option<u64>,

    /// Batches posted per day [default: 288, one every 5 minutes].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=MAX_BATCHES_PER_DAY))]
    batches_per_day: Option<u64>,

    /// Schedules to show, comma-separated [default: calldata,floor,eip7976,blob;
    /// optimism-2022: calldata].
    #[arg(long, value_enum, value_delimiter = ',')]
    schedule: Option<Vec<Schedule>>,

    /// Largest B the break-even searches try.
    #[arg(long, default_value_t = DEFAULT_BREAK_EVEN_BOUND, value_parser = clap::value_parser!(u64).range(1..=MAX_BATCH))]
    bound: u64,

    /// Real transactions: a `--strip-out` file (its byte counts) or a transactions file
    /// (decoded and measured here). The signature and sender bytes are then what the
    /// signatures and senders add to the compressed batch (see --compressor), replacing
    /// --signature, --sig-nonzero-fraction and --sender.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["signature", "sig_nonzero_fraction", "sender"])]
    txs: Option<PathBuf>,

    /// The compressor of the measured bytes (with --txs) [default: brotli].
    #[arg(long, value_enum, requires = "txs")]
    compressor: Option<Compressor>,

    /// Print one JSON object instead of the tables.
    #[arg(long)]
    json: bool,
}

// Help texts with the measured defaults, read from the embedded bench output.

/// The default verifier row the help names: the digest statement's, or while the embedded bench
/// has none, the keys statement's (the help says which).
fn help_row() -> (batch_ecdsa::calldata::proof_file::BenchRow, &'static str) {
    let m = Measured::embedded();
    match m.verifier_for(Statement::Digest) {
        Ok(row) => (row, "digest"),
        Err(_) => (
            m.verifier.clone(),
            "keys (no digest row measured yet: the default models keys)",
        ),
    }
}

/// The statement modelled when `--public` is not given: digest when its verifier figures are
/// given (`--proof FILE`, or both `--proof-bytes` and `--verification-gas`) or the embedded
/// bench has a measured digest verifier row; else keys, with a note on standard error (the
/// digest verifier is not measured yet: its generated Solidity does not compile with solc-js,
/// see docs/ethereum.md). `--public digest` insists on digest figures.
fn default_statement(cli: &Cli) -> Statement {
    if let Some(st) = cli.proof.as_deref().and_then(proof_file_statement) {
        return st;
    }
    let given =
        cli.proof.is_some() || (cli.proof_bytes.is_some() && cli.verification_gas.is_some());
    if given || Measured::embedded().verifier_for(Statement::Digest).is_ok() {
        return Statement::Digest;
    }
    eprintln!(
        "note: modelling the keys statement: {EVM_BENCH_PATH} has no measured verifier row for \
         the digest statement yet (pass --public digest to require one)"
    );
    Statement::Keys
}

/// The statement of a `prove` proof file (its `statement` field; absent: keys), or `None` when
/// `path` is not a readable proof file (e.g. a bench file: its rows name their statements).
/// Modelling a keys proof's bytes with the digest verifier's gas would mix two proofs.
fn proof_file_statement(path: &std::path::Path) -> Option<Statement> {
    let text = batch_ecdsa::fsutil::read_text_bounded(
        path,
        batch_ecdsa::prover::proof::MAX_PROOF_FILE_BYTES,
    )
    .ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    let o = v.as_object()?;
    o.get("proof")?.as_str()?;
    match o.get("statement").and_then(|s| s.as_str()) {
        Some("digest") => Some(Statement::Digest),
        _ => Some(Statement::Keys),
    }
}

/// Who measured a default row: the EVM bench, or (a row with a `source`) `evm-aggregate`.
fn measured_by(row: &batch_ecdsa::calldata::proof_file::BenchRow) -> &'static str {
    if row.source.is_some() {
        "aggregated verifier's (evm-aggregate)"
    } else {
        "EVM bench's"
    }
}

/// The file a default row comes from.
fn source_of(row: &batch_ecdsa::calldata::proof_file::BenchRow) -> String {
    row.source
        .clone()
        .unwrap_or_else(|| EVM_BENCH_PATH.to_string())
}

fn proof_bytes_help() -> String {
    let (row, statement) = help_row();
    format!(
        "Bytes of the proof alone, without its public inputs [default: {}, measured: the {} \
         proof, {} circuit B = {}, {statement} statement ({}); its {} public inputs are \
         counted by --public-inputs-per-signature]",
        row.proof_bytes,
        measured_by(&row),
        row.circuit,
        row.batch_size,
        source_of(&row),
        row.public_inputs
    )
}

fn verification_gas_help() -> String {
    let (row, statement) = help_row();
    format!(
        "On-chain verification execution gas of the verifier [default: {}, measured: the {} \
         verify_gas_execution, {} circuit B = {}, {statement} statement ({}); a bench file's \
         when --proof gives one]. Under the digest statement the digest wrapper's measured gas \
         at B ({WRAPPER_GAS_PATH}) is added",
        row.verify_gas_execution,
        measured_by(&row),
        row.circuit,
        row.batch_size,
        source_of(&row)
    )
}

fn ecrecover_loop_help() -> String {
    format!(
        "Gas per signature of an ecrecover loop besides the 3,000-gas precompile [default: {}, \
         measured: a Solidity loop in revm ({ECRECOVER_BENCH_PATH}); it checks signer ordering, \
         not a committee: a lower bound]",
        Measured::embedded().ecrecover.loop_overhead
    )
}

fn ecrecover_base_help() -> String {
    format!(
        "Execution gas of the ecrecover contract's call whatever N (dispatch, ABI decoding) \
         [default: {}, measured ({ECRECOVER_BENCH_PATH})]",
        Measured::embedded().ecrecover.base_execution
    )
}

/// The byte counts of `--txs FILE`: a stripped file's, or a transactions file's, measured here
/// (only decoding and signatures are checked: no chain rules).
fn txs_counts(path: &std::path::Path) -> Result<ByteCounts, String> {
    let name = path.display();
    let text =
        batch_ecdsa::fsutil::read_text_bounded(path, batch_ecdsa::txs::file::MAX_TXS_FILE_BYTES)
            .map_err(|e| format!("cannot read {name}: {e}"))?;
    if text.trim_start().starts_with('{') {
        return StrippedFile::parse(&text)
            .map(|f| f.bytes)
            .map_err(|e| format!("{name}: not a stripped-transactions file: {e}"));
    }
    // One line per error, each naming the file (the first `error: ` is the caller's).
    let joined = |errors: Vec<String>| {
        errors
            .iter()
            .map(|e| format!("{name}: {e}"))
            .collect::<Vec<_>>()
            .join("\nerror: ")
    };
    let raw = batch_ecdsa::txs::file::parse_txs_text(&text)
        .map_err(|errors| joined(errors.iter().map(|e| e.to_string()).collect()))?;
    let policy = TxPolicy {
        static_rules: false,
        ..TxPolicy::default()
    };
    let txs = SignedTxs::decode(&raw, &policy)
        .map_err(|errors| joined(errors.iter().map(|e| e.to_string()).collect()))?;
    Ok(txs.stripped().bytes)
}

fn measured(path: &std::path::Path, compressor: Compressor) -> Result<MeasuredTxs, String> {
    let b = txs_counts(path)?;
    let pick = |s: Sizes| match compressor {
        Compressor::None => s.raw,
        Compressor::Zlib => s.zlib,
        Compressor::Brotli => s.brotli,
    };
    Ok(MeasuredTxs {
        source: path.display().to_string(),
        compressor,
        count: b.count,
        signed_bytes: pick(b.signed),
        unsigned_bytes: pick(b.unsigned),
        stripped_bytes: pick(b.stripped),
    })
}

fn price(name: &str, gwei: f64) -> Result<u128, String> {
    gwei_to_wei(gwei)
        .ok_or_else(|| format!("{name} must be a finite number from 0 to 10^12 gwei, got {gwei}"))
}

fn request(cli: Cli) -> Result<Request, String> {
    let scenario = cli.scenario;
    // The statement: the current scenario's (digest unless --public says keys); the 2022
    // example has its own proof figures and no statement.
    let statement = match (scenario, cli.public) {
        (Scenario::Optimism2022, Some(_)) => {
            return Err(
                "--public applies to the current scenario's measured verifier, not to \
                 optimism-2022 (whose 131-byte proof has no public inputs counted)"
                    .to_string(),
            )
        }
        (Scenario::Optimism2022, None) => None,
        (Scenario::Current, Some(s)) => Some(s),
        (Scenario::Current, None) => Some(default_statement(&cli)),
    };
    let mut p = scenario.params();
    let mut bench = scenario.verifier_bench();
    if let Some(st) = statement {
        p = p.with_statement(st);
    }
    let input = match &cli.proof {
        Some(path) => Some(
            proof_input_from_file(
                path,
                cli.verifier_batch_size,
                statement.unwrap_or(Statement::Keys),
            )
            .map_err(|e| e.to_string())?,
        ),
        None => None,
    };
    // The digest figures the file and the options leave open come from the embedded bench's
    // digest row, which must exist (its keys row is already in `p`).
    if statement == Some(Statement::Digest) {
        let need_proof = input.is_none() && cli.proof_bytes.is_none();
        let need_gas = input.as_ref().is_none_or(|i| i.verification_gas.is_none())
            && cli.verification_gas.is_none();
        bench = None;
        if need_proof || need_gas {
            let row = Measured::embedded()
                .verifier_for(Statement::Digest)
                .map_err(|e| e.to_string())?;
            p.use_bench_row(
                &row,
                Measured::proof_origin(&row),
                Measured::verification_origin(&row),
            );
            bench = Some(row);
        }
    }
    if let (Some(path), Some(input)) = (&cli.proof, input) {
        let name = path.display();
        p.proof_bytes = input.proof_bytes;
        if let Some(row) = &input.bench {
            p.proof_bytes = row.proof_bytes;
            p.public_input_words = posted_words_per_signature(row);
        }
        p.proof_origin = Origin::Measured(match &input.bench {
            Some(row) => format!(
                "EVM bench {name}: {} circuit, B = {}{}, {}{} B proof, {} public-input words per signature",
                row.circuit,
                row.batch_size,
                row.k.map_or(String::new(), |k| format!(", k = {k}")),
                match row.statement() {
                    Statement::Keys => "",
                    Statement::Digest => "digest statement, ",
                },
                row.proof_bytes,
                posted_words_per_signature(row)
            ),
            None => format!("proof file {name}"),
        });
        if let Some(gas) = input.verification_gas {
            p.verification_gas = gas;
            p.verification_origin =
                Origin::Measured(format!("EVM bench {name}: verify_gas_execution"));
        }
        bench = input.bench;
    }
    if let Some(n) = cli.proof_bytes {
        p.proof_bytes = n;
        p.proof_origin = Origin::Given;
    }
    if let Some(w) = cli.public_inputs_per_signature {
        p.public_input_words = w;
    }
    if let Some(g) = cli.verification_gas {
        p.verification_gas = g;
        p.verification_origin = Origin::Given;
    }
    if cli.proof.is_none() && cli.proof_bytes.is_some() && cli.verification_gas.is_some() {
        // Neither figure comes from the scenario's bench row any more.
        bench = None;
    }
    if let Some(g) = cli.base_fee_gwei {
        p.base_fee_wei = price("base fee", g)?;
    }
    if let Some(g) = cli.priority_fee_gwei {
        p.priority_fee_wei = price("priority fee", g)?;
    }
    if let Some(g) = cli.blob_base_fee_gwei {
        p.blob_base_fee_wei = Some(price("blob base fee", g)?);
    }
    if let Some(w) = cli.blob_base_fee_wei {
        p.blob_base_fee_wei = Some(w);
    }
    if let Some(path) = &cli.txs {
        p.measured_txs = Some(measured(
            path,
            cli.compressor.unwrap_or(Compressor::Brotli),
        )?);
    }
    p.signature = cli.signature.unwrap_or(p.signature);
    p.signature_nonzero_fraction = cli
        .sig_nonzero_fraction
        .unwrap_or(p.signature_nonzero_fraction);
    p.sender = cli.sender.unwrap_or(p.sender);
    p.blob_usable_bytes = cli.blob_usable_bytes.unwrap_or(p.blob_usable_bytes);
    p.blob_rounding = cli.blob_rounding.unwrap_or(p.blob_rounding);
    p.blob_binding_gas = cli.blob_binding_gas.unwrap_or(p.blob_binding_gas);
    p.headroom = cli.floor_headroom.unwrap_or(p.headroom);
    p.key_size = cli.key_size.or(p.key_size);
    if let Some(g) = cli.ecrecover_loop_gas {
        p.ecrecover_loop_gas = g;
        p.ecrecover_loop_origin = Origin::Given;
    }
    if let Some(g) = cli.ecrecover_base_gas {
        p.ecrecover_base_gas = g;
        p.ecrecover_base_origin = Origin::Given;
    }
    p.batches_per_day = cli.batches_per_day.unwrap_or(p.batches_per_day);
    // With --txs the batch of interest is the one measured.
    let batch_size = cli
        .batch_size
        .or(p.measured_txs.as_ref().map(|m| m.count))
        .unwrap_or(scenario.batch_size());
    Ok(Request {
        scenario,
        params: p,
        batch_size,
        batch_sizes: cli.sizes.unwrap_or_else(default_batch_sizes),
        schedules: cli.schedule.unwrap_or_else(|| scenario.schedules()),
        bound: cli.bound,
        verifier_bench: bench,
    })
}

fn run(cli: Cli) -> Result<String, String> {
    let json = cli.json;
    let rep = report(&request(cli)?).map_err(|e| e.to_string())?;
    if json {
        serde_json::to_string(&rep).map_err(|e| format!("cannot encode JSON: {e}"))
    } else {
        Ok(table::render(&rep))
    }
}

fn main() -> ExitCode {
    if let Some(code) = batch_ecdsa::cpu::refusal() {
        return code;
    }
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
