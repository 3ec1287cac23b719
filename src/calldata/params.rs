//! The model's inputs: what is posted (signature format, sender, proof), what it costs (gas
//! prices, verifier gas), how blobs and the calldata floor are used, their defaults and where
//! each default comes from, the named scenarios, and validation.
//!
//! **Defaults are this project's measurements, labelled by origin** ([`Origin`]). The verifier,
//! wrapper and `ecrecover` figures are read at run time from the EVM benches' committed output,
//! embedded in the binary ([`EVM_BENCH_JSON`](super::measured::EVM_BENCH_JSON) = `results/evm.json`, [`ECRECOVER_BENCH_JSON`](super::measured::ECRECOVER_BENCH_JSON) =
//! `results/ecrecover.json`, written by `cargo bench -p batch-ecdsa-evm --bench evm_gas`;
//! [`WRAPPER_GAS_JSON`](super::wrapper_gas::WRAPPER_GAS_JSON) = `results/wrapper-gas.json`, written by `evm-wrapper-gas`); re-running
//! a bench and rebuilding moves the defaults ([`Measured`]):
//!
//! - statement: **digest** by default ([`Statement`], `--public`), `keys` on request;
//! - proof: the bench's batch-circuit row of that statement with the largest B. Keys: the
//!   verifying call's calldata, `proof_bytes + 32 · public_inputs` (every public input a
//!   32-byte word). Digest: `proof_bytes` alone, since the wrapper computes D on chain, plus
//!   the wrapper's 3-byte length prefix per payload. When the embedded bench has no row of the
//!   statement the tool says so and stops: no figure is made up for it;
//! - verifier gas: that row's measured `verify_gas_execution` (revm), at every B; under the
//!   digest statement plus the wrapper's measured gas at B ([`super::wrapper_gas`]:
//!   `verifyTransactions` for rollups, `verifyHashes` for bridges);
//! - the verifier's runtime code size comes with them: above EIP-170's 24,576 bytes the
//!   output warns that the verifier cannot be deployed as generated;
//! - gas price: base fee [`DEFAULT_BASE_FEE_GWEI`] = 1 gwei, no priority fee. L1 base fees in
//!   2025–26 mostly sit between 0.04 and 1 gwei; 1 gwei is the top of that band, so ETH
//!   figures are on the high side (divide by 10 for 0.1 gwei). Every break-even the tool
//!   prints is a ratio of gas amounts and does not depend on this price as long as the blob
//!   base fee is the EIP-7918 reserve (a fixed fraction of the base fee) and no priority fee
//!   is set: only the ETH columns scale with it.
//! - blob base fee: the EIP-7918 reserve `base_fee / 16` unless given;
//! - signatures: 64 bytes plus one y-parity bit, as OP Stack span batches post them (r, s and
//!   a bit list of parities, `ceil(B / 8)` bytes);
//! - blobs: the OP Stack's 130,044 payload bytes per blob, whole blobs;
//! - binding the proof to blob data: one 50,000-gas point evaluation per blob of senders;
//! - `ecrecover` path: the measured Solidity loop (`evm/src/ecrecover.rs`), its
//!   `loop_overhead` per signature besides the 3,000-gas precompile and its `base_execution`
//!   per call. That loop checks the signers' ordering, not membership of a committee, so it is
//!   a lower bound of what a bridge pays and the bridge break-even is conservative.

use super::bounds::{MAX_BATCH_SIZE, MAX_GAS_INPUT, MAX_PRICE_WEI, MAX_TX_BYTES};
use super::limits::POINT_EVALUATION_GAS;
use super::measured::{posted_words_per_signature, Measured, Origin};
use super::proof_file::ProofInputError;
use super::rows::BenchRow;
use super::schedule::{
    blob_gas_prorata, blob_gas_whole, blob_reserve_fee_wei, ByteCounts, CalldataFloor,
    EIP7623_FLOOR, EIP7976_FLOOR, MAX_BLOB_PAYLOAD_BYTES, OP_STACK_BLOB_PAYLOAD_BYTES,
};
pub use super::statement::Statement;
use super::units::{gwei_to_wei, WEI_PER_GWEI};
use super::wrapper_gas::WrapperGas;
use serde::Serialize;
use std::fmt;
use std::str::FromStr;

/// Default execution base fee, gwei (see the module doc for why 1).
pub const DEFAULT_BASE_FEE_GWEI: f64 = 1.0;
/// Default batches per day: one every 5 minutes.
pub const DEFAULT_BATCHES_PER_DAY: u64 = 288;
/// Default batch size B of the `current` scenario: the largest batch proved end to end on the
/// route that deploys (`prove-aggregated` on 256 signed transactions, digest statement, its
/// folder checked by `verify-aggregated`: `docs/results.md`, *The aggregated route at the sizes
/// that pay*), and where the calculator finds that a proof starts to pay calldata posters.
pub const DEFAULT_BATCH_SIZE: u64 = 256;
/// The 2022 seed example's batch: ~200 signatures per commit (`optimism-2022`).
pub const SEED_EXAMPLE_BATCH_SIZE: u64 = 200;
/// Default upper bound for the break-even searches.
pub const DEFAULT_BREAK_EVEN_BOUND: u64 = 1_000_000;
/// What replaces a signature on the proof path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", content = "bytes", rename_all = "lowercase")]
pub enum Sender {
    /// A 20-byte Ethereum address.
    Address,
    /// An index of this many bytes into an on-chain account registry.
    Index(u64),
}

impl Sender {
    pub fn bytes(&self) -> u64 {
        match self {
            Sender::Address => 20,
            Sender::Index(n) => *n,
        }
    }
}

impl fmt::Display for Sender {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sender::Address => write!(f, "address (20 B)"),
            Sender::Index(n) => write!(f, "index ({n} B)"),
        }
    }
}

impl FromStr for Sender {
    type Err = String;

    /// `address`, or `index:N` with N in 1..=32.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s == "address" {
            return Ok(Sender::Address);
        }
        if let Some(n) = s.strip_prefix("index:") {
            let n: u64 = n
                .parse()
                .map_err(|_| format!("index width {n:?} is not a whole number of bytes"))?;
            if !(1..=32).contains(&n) {
                return Err(format!("index width must be 1 to 32 bytes, got {n}"));
            }
            return Ok(Sender::Index(n));
        }
        Err(format!("expected `address` or `index:N`, got {s:?}"))
    }
}

/// How a rollup posts a signature on the signature path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum SignatureFormat {
    /// r and s, 64 bytes (no recovery information).
    Rs,
    /// r and s plus one y-parity bit, packed into a bit list: `64·B + ceil(B / 8)` bytes for B
    /// signatures (OP Stack span batches).
    RsParity,
    /// r, s and a one-byte v, 65 bytes (legacy transactions, `ecrecover`'s input).
    Rsv,
}

impl SignatureFormat {
    /// Bytes of `b` signatures.
    pub fn bytes(&self, b: u64) -> u64 {
        match self {
            SignatureFormat::Rs => 64 * b,
            SignatureFormat::RsParity => 64 * b + b.div_ceil(8),
            SignatureFormat::Rsv => 65 * b,
        }
    }
}

impl fmt::Display for SignatureFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SignatureFormat::Rs => "64 B (r, s)",
            SignatureFormat::RsParity => "64 B + 1 y-parity bit (r, s; OP Stack span batch)",
            SignatureFormat::Rsv => "65 B (r, s, v)",
        })
    }
}

/// The compressor whose output the measured transaction bytes count (`calldata --txs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Compressor {
    /// Raw bytes, no compression.
    None,
    /// zlib, level 9 (OP Stack channels before Fjord).
    Zlib,
    /// Brotli, quality 11, window 2^22 (OP Stack channels since Fjord, Arbitrum).
    Brotli,
}

/// Byte counts measured on real transactions (`calldata --txs`, from a `--strip-out` file or a
/// transactions file): what the signatures and the senders add to a compressed batch. With the
/// signed, unsigned and stripped (unsigned + senders) payloads compressed as wholes,
///
/// ```text
/// signature bytes = |C(signed)| − |C(unsigned)|,   sender bytes = |C(stripped)| − |C(unsigned)|
/// ```
///
/// for the `count` transactions: everything else a batch posts is the same on both paths. For
/// another B they are scaled (⌈B · bytes / count⌉), and counted as non-zero bytes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MeasuredTxs {
    /// Where the counts come from.
    pub source: String,
    pub compressor: Compressor,
    /// Number of transactions measured.
    pub count: u64,
    /// The payloads' sizes under the compressor.
    pub signed_bytes: u64,
    pub unsigned_bytes: u64,
    pub stripped_bytes: u64,
}

impl MeasuredTxs {
    /// |C(signed)| − |C(unsigned)| for `count` transactions.
    pub fn signature_bytes(&self) -> u64 {
        self.signed_bytes.saturating_sub(self.unsigned_bytes)
    }

    /// |C(stripped)| − |C(unsigned)| for `count` transactions.
    pub fn sender_bytes(&self) -> u64 {
        self.stripped_bytes.saturating_sub(self.unsigned_bytes)
    }

    /// `total` bytes per `count` transactions, scaled to `b`, rounded up.
    fn scale(&self, total: u64, b: u64) -> u64 {
        let n = u128::from(b) * u128::from(total);
        u64::try_from(n.div_ceil(u128::from(self.count.max(1)))).unwrap_or(u64::MAX)
    }
}

/// How much of the proof path's execution gas the calldata floor absorbs (floor schedules).
///
/// A transaction's gas is `21000 + max(standard + exec, floor)`. A batch transaction that
/// carries the rollup's other calldata (`O`, the transaction bodies, the same on both paths)
/// sits on the floor with headroom `floor(O) − standard(O)` (6 gas per EIP-7623 token): the
/// proof path's marginal gas is `max(standard(O + P) + exec, floor(O + P)) − floor(O)`, so up
/// to that headroom the verifier's execution costs nothing extra.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", content = "bytes", rename_all = "kebab-case")]
pub enum Headroom {
    /// The payload is its transaction's only calldata: no headroom.
    None,
    /// Each of the B transactions adds this many non-zero calldata bytes to the batch.
    TxBytes(u64),
    /// The other calldata is large enough to absorb all execution: the proof path pays the
    /// floor on its own bytes only.
    Full,
}

impl fmt::Display for Headroom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Headroom::None => write!(f, "none (the payload is its transaction's only calldata)"),
            Headroom::TxBytes(n) => write!(f, "{n} more calldata bytes per transaction"),
            Headroom::Full => write!(f, "full (other calldata absorbs all execution gas)"),
        }
    }
}

impl FromStr for Headroom {
    type Err = String;

    /// `none`, `full`, or `tx-bytes:N` with N in 1..=100,000.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "none" => return Ok(Headroom::None),
            "full" => return Ok(Headroom::Full),
            _ => {}
        }
        if let Some(n) = s.strip_prefix("tx-bytes:") {
            let n: u64 = n
                .parse()
                .map_err(|_| format!("tx-bytes {n:?} is not a whole number of bytes"))?;
            if !(1..=MAX_TX_BYTES).contains(&n) {
                return Err(format!("tx-bytes must be 1 to {MAX_TX_BYTES}, got {n}"));
            }
            return Ok(Headroom::TxBytes(n));
        }
        Err(format!(
            "expected `none`, `full` or `tx-bytes:N`, got {s:?}"
        ))
    }
}

/// A pricing schedule (see [`super::model`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Schedule {
    /// EIP-2028 calldata, 16 / 4 gas per non-zero / zero byte (before Pectra).
    Calldata,
    /// EIP-7623 calldata floor (mainnet since Pectra).
    Floor,
    /// EIP-7976 calldata floor, 64 gas per byte (proposed for Glamsterdam).
    Eip7976,
    /// EIP-4844 blobs for the payload; the proof in calldata.
    Blob,
}

impl Schedule {
    pub const ALL: [Schedule; 4] = [
        Schedule::Calldata,
        Schedule::Floor,
        Schedule::Eip7976,
        Schedule::Blob,
    ];

    pub fn name(&self) -> &'static str {
        match self {
            Schedule::Calldata => "calldata",
            Schedule::Floor => "floor",
            Schedule::Eip7976 => "eip7976",
            Schedule::Blob => "blob",
        }
    }

    /// The calldata floor this schedule prices the payload's calldata with (the blob
    /// schedule's proof calldata: EIP-7623, mainnet today).
    pub fn floor(&self) -> Option<CalldataFloor> {
        match self {
            Schedule::Calldata => None,
            Schedule::Floor | Schedule::Blob => Some(EIP7623_FLOOR),
            Schedule::Eip7976 => Some(EIP7976_FLOOR),
        }
    }
}

/// How blob space is charged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum BlobRounding {
    /// Whole blobs: the payload alone pays `ceil(bytes / usable) × 2^17` blob gas.
    Whole,
    /// Pro rata: `bytes × 2^17 / usable` blob gas, as for a rollup whose blobs are full anyway.
    Prorata,
}

/// The model's inputs, in integer units.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Params {
    /// Bytes the proof path posts for the proof (with the verifier's public-input words when
    /// taken from an EVM bench file).
    pub proof_bytes: u64,
    pub proof_origin: Origin,
    /// Public inputs per signature, each a 32-byte word of the verifier's calldata beside the
    /// proof: 3 for today's statement (h, x(Q), y(Q) packed into three field elements);
    /// 0 approximates a statement with one digest as the only public input (two words in all,
    /// not counted).
    pub public_input_words: u64,
    /// Execution gas of the on-chain verification (the verifier's; under the digest statement
    /// the wrapper's gas at B is added, [`Params::rollup_verification_gas`]).
    pub verification_gas: u64,
    pub verification_origin: Origin,
    /// The statement modelled; `None` for a scenario with its own proof figures
    /// (`optimism-2022`).
    #[serde(serialize_with = "super::statement::serialize_opt")]
    pub statement: Option<Statement>,
    /// Bytes per signature the rollup's proof path posts to frame each payload: the digest
    /// wrapper's 3-byte length prefix (0 under the keys statement). Counted non-zero, as the
    /// senders are (for a payload under 64 KiB its first byte is zero: an upper bound).
    pub framing_bytes: u64,
    /// Digest statement: the wrapper's measured gas, added to the verifier's at each B.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wrapper: Option<WrapperGas>,
    /// Digest statement: the proofs are made on a key for K signatures, so a batch of B < K
    /// pays K − B filler slots in the wrapper ([`WrapperGas::filler_gas`]); a batch of B ≥ K
    /// is taken on a key of its own size. `None`: every batch on a key of its size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key_size: Option<u64>,
    /// Execution base fee, wei.
    pub base_fee_wei: u128,
    /// Priority fee (tip) per execution gas, wei; blob gas pays none.
    pub priority_fee_wei: u128,
    /// Blob base fee, wei; `None`: the EIP-7918 reserve at the base fee.
    pub blob_base_fee_wei: Option<u128>,
    pub batches_per_day: u64,
    pub signature: SignatureFormat,
    /// Signature and sender bytes measured on real transactions: they replace `signature`,
    /// `signature_nonzero_fraction` and `sender` when set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub measured_txs: Option<MeasuredTxs>,
    /// Share of signature bytes that are non-zero, in [0, 1].
    pub signature_nonzero_fraction: f64,
    pub sender: Sender,
    pub blob_usable_bytes: u64,
    pub blob_rounding: BlobRounding,
    /// Execution gas per blob of senders to bind the proof to the blob (point evaluation).
    pub blob_binding_gas: u64,
    pub headroom: Headroom,
    /// Per-signature overhead of an on-chain `ecrecover` loop besides the precompile.
    pub ecrecover_loop_gas: u64,
    pub ecrecover_loop_origin: Origin,
    /// Execution gas of the `ecrecover` contract's call whatever N (dispatch, ABI decoding).
    pub ecrecover_base_gas: u64,
    pub ecrecover_base_origin: Origin,
}

/// Named input sets (`--scenario`); options given with it override its values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Scenario {
    /// This project's measured figures (the EVM bench's output) at 2025–26 L1 prices (the
    /// defaults).
    Current,
    /// 0xPARC's 2022 Optimism example: 200 signatures × 64 B against a 131-byte Groth16
    /// proof and 200 addresses, no verifier gas, 30 gwei, one batch per 5 minutes, EIP-2028
    /// calldata (the only schedule then).
    #[cfg_attr(feature = "cli", value(name = "optimism-2022"))]
    #[serde(rename = "optimism-2022")]
    Optimism2022,
}

impl Scenario {
    pub fn name(&self) -> &'static str {
        match self {
            Scenario::Current => "current",
            Scenario::Optimism2022 => "optimism-2022",
        }
    }

    pub fn params(&self) -> Params {
        match self {
            Scenario::Current => Params::default(),
            Scenario::Optimism2022 => {
                let origin = Origin::Scenario(self.name().to_string());
                Params {
                    proof_bytes: 131,
                    proof_origin: origin.clone(),
                    statement: None,
                    public_input_words: 0,
                    verification_gas: 0,
                    verification_origin: origin,
                    base_fee_wei: 30 * WEI_PER_GWEI,
                    signature: SignatureFormat::Rs,
                    ..Params::default()
                }
            }
        }
    }

    /// The scenario's batch size B of interest when none is given.
    pub fn batch_size(&self) -> u64 {
        match self {
            Scenario::Current => DEFAULT_BATCH_SIZE,
            Scenario::Optimism2022 => SEED_EXAMPLE_BATCH_SIZE,
        }
    }

    /// The EVM bench row the scenario's verifier figures come from (`current`: the embedded
    /// bench's keys row, the base [`Params::with_statement`] starts from).
    pub fn verifier_bench(&self) -> Option<BenchRow> {
        match self {
            Scenario::Current => Some(Measured::embedded().verifier.clone()),
            Scenario::Optimism2022 => None,
        }
    }

    /// The schedules printed unless `--schedule` says otherwise.
    pub fn schedules(&self) -> Vec<Schedule> {
        match self {
            Scenario::Current => Schedule::ALL.to_vec(),
            Scenario::Optimism2022 => vec![Schedule::Calldata],
        }
    }
}

impl Params {
    /// Explicit inputs for the model's arithmetic tests (not the measured defaults, which move
    /// when the EVM bench is re-run): a 4,896-byte proof with no public-input words, 350,000
    /// verification gas, a 400-gas ecrecover loop and no per-call base; the rest as default.
    #[cfg(test)]
    pub(crate) fn fixed_for_tests() -> Self {
        Params {
            proof_bytes: 4_896,
            public_input_words: 0,
            verification_gas: 350_000,
            ecrecover_loop_gas: 400,
            ecrecover_base_gas: 0,
            ..Params::default()
        }
    }
}

impl Default for Params {
    /// The measured figures under the **keys** statement ([`Measured::embedded`], whose keys
    /// row always exists) and the constants of the module doc: the base that scenarios and
    /// [`Params::measured`] build on. The tool's default statement is the digest one:
    /// `Params::measured(Statement::Digest)`.
    fn default() -> Self {
        let m = Measured::embedded();
        Params {
            proof_bytes: m.verifier.proof_bytes,
            proof_origin: Measured::proof_origin(&m.verifier),
            public_input_words: m.public_input_words(),
            verification_gas: m.verifier.verify_gas_execution,
            verification_origin: Measured::verification_origin(&m.verifier),
            statement: Some(Statement::Keys),
            framing_bytes: 0,
            wrapper: None,
            key_size: None,
            base_fee_wei: gwei_to_wei(DEFAULT_BASE_FEE_GWEI).unwrap_or(WEI_PER_GWEI),
            priority_fee_wei: 0,
            blob_base_fee_wei: None,
            batches_per_day: DEFAULT_BATCHES_PER_DAY,
            signature: SignatureFormat::RsParity,
            measured_txs: None,
            signature_nonzero_fraction: 1.0,
            sender: Sender::Address,
            blob_usable_bytes: OP_STACK_BLOB_PAYLOAD_BYTES,
            blob_rounding: BlobRounding::Whole,
            blob_binding_gas: POINT_EVALUATION_GAS,
            headroom: Headroom::None,
            ecrecover_loop_gas: m.ecrecover.loop_overhead,
            ecrecover_loop_origin: m.ecrecover_origin(),
            ecrecover_base_gas: m.ecrecover.base_execution,
            ecrecover_base_origin: m.ecrecover_origin(),
        }
    }
}

impl Params {
    /// The measured defaults under `statement`: [`Params::default`] with the statement's shape
    /// ([`Params::with_statement`]) and the embedded bench's verifier row of that statement
    /// ([`Params::use_bench_row`]); an error when the bench has no such row.
    pub fn measured(statement: Statement) -> Result<Params, ProofInputError> {
        let m = Measured::embedded();
        let row = m.verifier_for(statement)?;
        let mut p = Params::default().with_statement(statement);
        p.use_bench_row(
            &row,
            Measured::proof_origin(&row),
            Measured::verification_origin(&row),
        );
        Ok(p)
    }

    /// The same inputs under `statement`: the digest statement posts no public-input words,
    /// frames each payload with the wrapper's length prefix and runs the wrapper (its embedded
    /// measurement); the keys statement none of that. The verifier figures are left as they
    /// are (set them from the statement's row with [`Params::use_bench_row`]).
    pub fn with_statement(self, statement: Statement) -> Params {
        let (words, wrapper) = match statement {
            Statement::Keys => (self.public_input_words, None),
            Statement::Digest => (0, Some(Measured::embedded().wrapper.clone())),
        };
        Params {
            statement: Some(statement),
            public_input_words: words,
            framing_bytes: super::statement::framing_bytes(statement),
            wrapper,
            ..self
        }
    }

    /// Takes the proof size, the public-input words posted and the verification gas from an
    /// EVM bench row, labelled with the origins given.
    pub fn use_bench_row(&mut self, row: &BenchRow, proof: Origin, verification: Origin) {
        self.proof_bytes = row.proof_bytes;
        self.proof_origin = proof;
        self.public_input_words = posted_words_per_signature(row);
        self.verification_gas = row.verify_gas_execution;
        self.verification_origin = verification;
    }

    /// Execution gas of a rollup's verification at B: the verifier's, plus under the digest
    /// statement the wrapper's `verifyTransactions` at B.
    pub fn rollup_verification_gas(&self, b: u64) -> u64 {
        let wrapper = self
            .wrapper
            .as_ref()
            .map_or(0, |w| w.transactions.at(b) + self.filler_gas(w, b));
        self.verification_gas.saturating_add(wrapper)
    }

    /// Execution gas of a bridge's verification of N signatures: the verifier's, plus under the
    /// digest statement the wrapper's `verifyHashes` at N.
    pub fn bridge_verification_gas(&self, n: u64) -> u64 {
        let wrapper = self
            .wrapper
            .as_ref()
            .map_or(0, |w| w.hashes.at(n) + self.filler_gas(w, n));
        self.verification_gas.saturating_add(wrapper)
    }

    /// The filler slots a batch of `b` pays on the key of [`Params::key_size`].
    fn filler_gas(&self, w: &WrapperGas, b: u64) -> u64 {
        self.key_size.map_or(0, |k| w.filler_gas(b, k))
    }

    /// The rollup proof path's payload framing for `b` payloads (all bytes counted non-zero).
    pub fn framing_payload(&self, b: u64) -> ByteCounts {
        ByteCounts::nonzero(b * self.framing_bytes)
    }
}

/// Why a set of inputs makes no sense.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ParamError {
    #[error("batches per day must be at least 1, got 0")]
    ZeroBatchesPerDay,
    #[error("{name} must be a finite number from 0 to 10^12 gwei, got {value}")]
    BadPrice { name: &'static str, value: String },
    #[error("signature non-zero fraction must be in [0, 1], got {0}")]
    NonzeroFraction(f64),
    #[error(
        "usable bytes per blob must be 1 to {MAX_BLOB_PAYLOAD_BYTES} (4096 field elements × 254 \
         bits), got {0}"
    )]
    BlobUsableBytes(u64),
    #[error("proof size must be at least 1 byte, got 0")]
    ZeroProofBytes,
    #[error("batch size must be at least 1, got 0")]
    ZeroBatchSize,
    #[error("batch size {value} is above the limit {limit}")]
    BatchSizeTooLarge { value: u64, limit: u64 },
    #[error("index width must be 1 to 32 bytes, got {0}")]
    SenderWidth(u64),
    #[error("{name} must be at most {MAX_GAS_INPUT} gas, got {value}")]
    GasTooLarge { name: &'static str, value: u64 },
    #[error("floor headroom tx-bytes must be 1 to {MAX_TX_BYTES}, got {0}")]
    TxBytes(u64),
    #[error("break-even search bound must be 1 to {limit}, got {value}")]
    BadBound { value: u64, limit: u64 },
    #[error("key size must be 1 to {MAX_BATCH_SIZE} signatures, got {0}")]
    KeySize(u64),
    #[error(
        "a key size applies to the digest statement with a measured filler slot (the wrapper's \
         hashes_one_of_b_wrapper_gas): {0}"
    )]
    KeySizeNotApplicable(&'static str),
}

impl Params {
    /// Checks every input; the model's arithmetic assumes these hold.
    pub fn validate(&self) -> Result<(), ParamError> {
        if self.batches_per_day == 0 {
            return Err(ParamError::ZeroBatchesPerDay);
        }
        if let Some(k) = self.key_size {
            if !(1..=MAX_BATCH_SIZE).contains(&k) {
                return Err(ParamError::KeySize(k));
            }
            match &self.wrapper {
                None => {
                    return Err(ParamError::KeySizeNotApplicable(
                        "this statement runs no wrapper",
                    ))
                }
                Some(w) if w.filler_slot_gas.is_none() => {
                    return Err(ParamError::KeySizeNotApplicable(
                        "the wrapper's measurement has no one-of-B row",
                    ))
                }
                Some(_) => {}
            }
        }
        let f = self.signature_nonzero_fraction;
        if !(f.is_finite() && (0.0..=1.0).contains(&f)) {
            return Err(ParamError::NonzeroFraction(f));
        }
        if !(1..=MAX_BLOB_PAYLOAD_BYTES).contains(&self.blob_usable_bytes) {
            return Err(ParamError::BlobUsableBytes(self.blob_usable_bytes));
        }
        if self.proof_bytes == 0 {
            return Err(ParamError::ZeroProofBytes);
        }
        if let Sender::Index(n) = self.sender {
            if !(1..=32).contains(&n) {
                return Err(ParamError::SenderWidth(n));
            }
        }
        if let Headroom::TxBytes(n) = self.headroom {
            if !(1..=MAX_TX_BYTES).contains(&n) {
                return Err(ParamError::TxBytes(n));
            }
        }
        for (name, value) in [
            ("verification gas", self.verification_gas),
            ("blob binding gas", self.blob_binding_gas),
            ("ecrecover loop gas", self.ecrecover_loop_gas),
            ("ecrecover base gas", self.ecrecover_base_gas),
        ] {
            if value > MAX_GAS_INPUT {
                return Err(ParamError::GasTooLarge { name, value });
            }
        }
        for (name, value) in [
            ("base fee", Some(self.base_fee_wei)),
            ("priority fee", Some(self.priority_fee_wei)),
            ("blob base fee", self.blob_base_fee_wei),
        ] {
            if let Some(v) = value.filter(|&v| v > MAX_PRICE_WEI) {
                return Err(ParamError::BadPrice {
                    name,
                    value: format!("{v} wei"),
                });
            }
        }
        Ok(())
    }

    /// Execution gas price paid: base fee plus priority fee.
    pub fn gas_price_wei(&self) -> u128 {
        self.base_fee_wei + self.priority_fee_wei
    }

    /// Blob base fee: the given one, or the EIP-7918 reserve `ceil(base_fee / 16)`.
    pub fn blob_base_fee_wei(&self) -> u128 {
        self.blob_base_fee_wei
            .unwrap_or_else(|| blob_reserve_fee_wei(self.base_fee_wei))
    }

    /// The signature payload of a batch of `b` signatures.
    pub fn signature_payload(&self, b: u64) -> ByteCounts {
        if let Some(m) = &self.measured_txs {
            return ByteCounts::nonzero(m.scale(m.signature_bytes(), b));
        }
        split_nonzero(self.signature.bytes(b), self.signature_nonzero_fraction)
    }

    /// The sender payload of a batch of `b` transactions (all bytes non-zero).
    pub fn sender_payload(&self, b: u64) -> ByteCounts {
        if let Some(m) = &self.measured_txs {
            return ByteCounts::nonzero(m.scale(m.sender_bytes(), b));
        }
        ByteCounts::nonzero(b * self.sender.bytes())
    }

    /// The verifier's calldata for `b` signatures: the proof and `public_input_words` 32-byte
    /// words per signature (all bytes counted non-zero).
    pub fn proof_payload(&self, b: u64) -> ByteCounts {
        ByteCounts::nonzero(self.proof_bytes + 32 * self.public_input_words * b)
    }

    /// Blob gas of `bytes` under the blob rounding.
    pub fn blob_gas(&self, bytes: u64) -> u64 {
        match self.blob_rounding {
            BlobRounding::Whole => blob_gas_whole(bytes, self.blob_usable_bytes),
            BlobRounding::Prorata => blob_gas_prorata(bytes, self.blob_usable_bytes),
        }
    }
}

/// `total` bytes of which a share `nonzero_fraction` (rounded) is non-zero.
pub fn split_nonzero(total: u64, nonzero_fraction: f64) -> ByteCounts {
    let nonzero = ((total as f64) * nonzero_fraction).round() as u64;
    let nonzero = nonzero.min(total);
    ByteCounts {
        zero: total - nonzero,
        nonzero,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::calldata::measured::{
        aggregated_digest_row, AGGREGATED_DIGEST_JSON, AGGREGATED_DIGEST_PATH,
        ECRECOVER_BENCH_JSON, EVM_BENCH_JSON, EVM_BENCH_PATH,
    };
    use crate::calldata::wrapper_gas::WRAPPER_GAS_JSON;

    #[test]
    fn signature_formats_count_bytes() {
        assert_eq!(SignatureFormat::Rs.bytes(200), 12_800);
        assert_eq!(SignatureFormat::Rsv.bytes(200), 13_000);
        // 200 parity bits fill 25 bytes; 201 need 26.
        assert_eq!(SignatureFormat::RsParity.bytes(200), 12_825);
        assert_eq!(SignatureFormat::RsParity.bytes(201), 12_890);
        assert_eq!(SignatureFormat::RsParity.bytes(1), 65);
    }

    #[test]
    fn nonzero_fraction_splits_signature_bytes() {
        let p = Params {
            signature: SignatureFormat::Rs,
            signature_nonzero_fraction: 0.75,
            ..Params::default()
        };
        let s = p.signature_payload(10);
        assert_eq!(
            s,
            ByteCounts {
                zero: 160,
                nonzero: 480
            }
        );
    }

    #[test]
    fn default_blob_fee_is_the_eip7918_reserve_of_the_base_fee() {
        let p = Params::default();
        assert_eq!(p.base_fee_wei, WEI_PER_GWEI);
        assert_eq!(p.blob_base_fee_wei(), WEI_PER_GWEI / 16);
        // A tip raises the gas price, not the reserve (it follows the base fee).
        let tipped = Params {
            priority_fee_wei: WEI_PER_GWEI,
            ..p.clone()
        };
        assert_eq!(tipped.gas_price_wei(), 2 * WEI_PER_GWEI);
        assert_eq!(tipped.blob_base_fee_wei(), WEI_PER_GWEI / 16);
        let given = Params {
            blob_base_fee_wei: Some(7),
            ..p
        };
        assert_eq!(given.blob_base_fee_wei(), 7);
    }

    /// The embedded bench output parses and gives the defaults: a bad or changed bench file
    /// fails here, not in users' hands. Update the figures when the bench is re-run.
    #[test]
    fn embedded_bench_output_gives_the_measured_defaults() {
        let mut m =
            Measured::parse(EVM_BENCH_JSON, ECRECOVER_BENCH_JSON, WRAPPER_GAS_JSON).unwrap();
        m.aggregated_digest =
            Some(aggregated_digest_row(AGGREGATED_DIGEST_JSON, AGGREGATED_DIGEST_PATH).unwrap());
        assert_eq!(&m, Measured::embedded());
        let row = &m.verifier;
        assert_eq!((row.circuit.as_str(), row.batch_size), ("batch", 32));
        assert_eq!((row.k, row.transcript.as_deref()), (Some(17), Some("evm")));
        assert_eq!((row.proof_bytes, row.public_inputs), (6_208, 96));
        assert_eq!(row.runtime_code_bytes, Some(54_928));
        assert_eq!(m.ecrecover.base_execution, 834);

        let p = Params::default();
        p.validate().unwrap();
        assert_eq!(Params::measured(Statement::Keys).unwrap(), p);
        assert_eq!(
            (p.statement, p.framing_bytes, &p.wrapper),
            (Some(Statement::Keys), 0, &None)
        );
        assert_eq!((p.proof_bytes, p.public_input_words), (6_208, 3));
        assert_eq!(p.verification_gas, 689_936);
        assert_eq!(p.ecrecover_loop_gas, 776);
        assert_eq!(p.ecrecover_base_gas, 834);
        assert_eq!(
            p.proof_origin.to_string(),
            "measured: EVM bench, batch circuit B = 32: 6,208-byte EVM-transcript proof; 3 \
             public-input words per signature (96 at B = 32)"
        );
        assert_eq!(
            p.verification_origin,
            Origin::Measured("EVM bench (revm), batch circuit B = 32, results/evm.json".into())
        );
        assert!(matches!(p.ecrecover_loop_origin, Origin::Measured(_)));
        assert!(matches!(p.ecrecover_base_origin, Origin::Measured(_)));
        assert_eq!(p.blob_usable_bytes, 130_044);
        assert_eq!(p.signature, SignatureFormat::RsParity);
        assert_eq!(Scenario::Current.verifier_bench().as_ref(), Some(row));
        assert_eq!(Scenario::Optimism2022.verifier_bench(), None);

        // The digest default: the digest row with the largest B once the bench has one; until
        // then an error naming the file and the bench to run (never a made-up figure).
        match m
            .rows
            .iter()
            .filter(|r| r.circuit == "batch" && r.statement() == Statement::Digest)
            .max_by_key(|r| r.batch_size)
        {
            Some(digest) => {
                let d = Params::measured(Statement::Digest).unwrap();
                assert_eq!(d.proof_bytes, digest.proof_bytes);
                assert_eq!(d.verification_gas, digest.verify_gas_execution);
                assert_eq!((d.public_input_words, d.framing_bytes), (0, 3));
                assert_eq!(d.wrapper.as_ref(), Some(&m.wrapper));
            }
            // No digest row in the bench: the aggregated digest verifier, its outer proof
            // posted with the 12 accumulator words, D computed by the wrapper.
            None => {
                let agg = m.aggregated_digest.as_ref().unwrap();
                assert_eq!(agg.source.as_deref(), Some(AGGREGATED_DIGEST_PATH));
                assert_eq!((agg.batch_size, agg.k), (256, Some(22)));
                assert_eq!(agg.proof_bytes, 2_912 + 12 * 32);
                assert_eq!(agg.verify_gas_execution, 390_570);
                assert!(agg.runtime_code_bytes.unwrap() <= 24_576);
                let d = Params::measured(Statement::Digest).unwrap();
                assert_eq!(d.proof_bytes, agg.proof_bytes);
                assert_eq!(d.verification_gas, agg.verify_gas_execution);
                assert_eq!((d.public_input_words, d.framing_bytes), (0, 3));
                let without = Measured {
                    aggregated_digest: None,
                    ..m.clone()
                };
                let err = without
                    .verifier_for(Statement::Digest)
                    .unwrap_err()
                    .to_string();
                assert!(
                    err.contains(EVM_BENCH_PATH) && err.contains("run the EVM bench"),
                    "{err}"
                );
            }
        }
        // A malformed or foreign aggregation row is refused.
        assert!(aggregated_digest_row("{}", "x").is_err());
        let keys_agg = AGGREGATED_DIGEST_JSON.replace("\"digest\"", "\"keys\"");
        assert!(aggregated_digest_row(&keys_agg, "x").is_err());
        // A row whose verifier calldata is not the accumulator, D and the outer proof.
        let calldata = "\"verifier_calldata_bytes\": 3360";
        assert!(AGGREGATED_DIGEST_JSON.contains(calldata));
        let off = AGGREGATED_DIGEST_JSON.replace(calldata, "\"verifier_calldata_bytes\": 3392");
        assert!(aggregated_digest_row(&off, "x").is_err());
        // A padded batch (n < B) is not the row of B signatures.
        let padded = AGGREGATED_DIGEST_JSON.replace("\"signatures\": 256", "\"signatures\": 200");
        assert!(aggregated_digest_row(&padded, "x").is_err());

        // The bench's own calldata column agrees with `proof_bytes + 32 · public_inputs`.
        let raw: Vec<serde_json::Value> = serde_json::from_str(EVM_BENCH_JSON).unwrap();
        for r in &raw {
            let row: BenchRow = serde_json::from_value(r.clone()).unwrap();
            if let Some(c) = r.get("calldata_bytes") {
                assert_eq!(c.as_u64(), Some(row.calldata_bytes()), "{r}");
            }
        }
    }

    #[test]
    fn optimism_2022_scenario_is_the_seed_example() {
        let p = Scenario::Optimism2022.params();
        assert_eq!(p.proof_bytes, 131);
        assert_eq!(p.verification_gas, 0);
        assert_eq!(p.base_fee_wei, 30 * WEI_PER_GWEI);
        assert_eq!(p.gas_price_wei(), 30 * WEI_PER_GWEI);
        assert_eq!(p.blob_base_fee_wei(), 1_875_000_000);
        assert_eq!(p.signature, SignatureFormat::Rs);
        assert_eq!(p.batches_per_day, 288);
        assert_eq!(Scenario::Optimism2022.schedules(), vec![Schedule::Calldata]);
        assert_eq!(Scenario::Current.params(), Params::default());
    }

    #[test]
    fn validation_rejects_nonsense() {
        let ok = Params::default();
        ok.validate().unwrap();
        let bad = [
            Params {
                batches_per_day: 0,
                ..ok.clone()
            },
            Params {
                signature_nonzero_fraction: 1.5,
                ..ok.clone()
            },
            Params {
                signature_nonzero_fraction: f64::NAN,
                ..ok.clone()
            },
            Params {
                blob_usable_bytes: 0,
                ..ok.clone()
            },
            Params {
                blob_usable_bytes: 130_049,
                ..ok.clone()
            },
            Params {
                proof_bytes: 0,
                ..ok.clone()
            },
            Params {
                sender: Sender::Index(0),
                ..ok.clone()
            },
            Params {
                headroom: Headroom::TxBytes(0),
                ..ok.clone()
            },
            Params {
                verification_gas: MAX_GAS_INPUT + 1,
                ..ok.clone()
            },
            Params {
                blob_base_fee_wei: Some(MAX_PRICE_WEI + 1),
                ..ok.clone()
            },
        ];
        for p in bad {
            assert!(p.validate().is_err(), "{p:?}");
        }
        assert_eq!(gwei_to_wei(-1.0), None);
        assert_eq!(gwei_to_wei(f64::INFINITY), None);
        assert_eq!(gwei_to_wei(1.5), Some(1_500_000_000));
    }

    /// A batch of B < K on a key for K pays K − B filler slots in the wrapper (the measured
    /// slot gas); B ≥ K and the keys statement pay none; K = 0 is refused.
    #[test]
    fn a_key_for_more_signatures_pays_its_filler_slots() {
        let d = Params::measured(Statement::Digest).unwrap();
        let w = d.wrapper.clone().unwrap();
        let slot = w.filler_slot_gas.expect("measured");
        let keyed = Params {
            key_size: Some(256),
            ..d.clone()
        };
        // The slots, and the memory of the 256-slot preimage (WrapperGas::filler_gas).
        let fill = w.filler_gas(200, 256);
        assert!(fill > 56 * slot, "{fill}");
        assert_eq!(
            keyed.rollup_verification_gas(200),
            d.rollup_verification_gas(200) + fill
        );
        assert_eq!(
            keyed.bridge_verification_gas(1),
            d.bridge_verification_gas(1) + w.filler_gas(1, 256)
        );
        assert_eq!(
            keyed.rollup_verification_gas(256),
            d.rollup_verification_gas(256)
        );
        assert_eq!(
            keyed.rollup_verification_gas(300),
            d.rollup_verification_gas(300)
        );
        let keys = Params {
            key_size: Some(256),
            ..Params::default()
        };
        assert!(matches!(
            keys.validate(),
            Err(ParamError::KeySizeNotApplicable(_))
        ));
        let mut unmeasured = keyed.clone();
        unmeasured.wrapper.as_mut().unwrap().filler_slot_gas = None;
        assert!(matches!(
            unmeasured.validate(),
            Err(ParamError::KeySizeNotApplicable(_))
        ));
        assert_eq!(keyed.validate(), Ok(()));
        let zero = Params {
            key_size: Some(0),
            ..d
        };
        assert_eq!(zero.validate(), Err(ParamError::KeySize(0)));
    }

    #[test]
    fn sender_and_headroom_parse() {
        assert_eq!("address".parse::<Sender>(), Ok(Sender::Address));
        assert_eq!("index:4".parse::<Sender>(), Ok(Sender::Index(4)));
        assert!("index:0".parse::<Sender>().is_err());
        assert!("index:x".parse::<Sender>().is_err());
        assert!("addr".parse::<Sender>().is_err());
        assert_eq!("none".parse::<Headroom>(), Ok(Headroom::None));
        assert_eq!("full".parse::<Headroom>(), Ok(Headroom::Full));
        assert_eq!("tx-bytes:40".parse::<Headroom>(), Ok(Headroom::TxBytes(40)));
        assert!("tx-bytes:0".parse::<Headroom>().is_err());
        assert!("tx-bytes:-1".parse::<Headroom>().is_err());
        assert!("some".parse::<Headroom>().is_err());
    }
}
