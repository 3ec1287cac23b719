//! The model's inputs: what is posted (signature format, sender, proof), what it costs (gas
//! prices, verifier gas), how blobs and the calldata floor are used, their defaults and where
//! each default comes from, the named scenarios, and validation.
//!
//! **Defaults are this project's figures, labelled by origin** ([`Origin`]):
//!
//! - proof: [`MEASURED_PROOF_BYTES`], the batch circuit's measured proof at B = 32;
//! - verifier gas: [`ESTIMATED_VERIFICATION_GAS`], *not measured*; the EVM bench (issue 15)
//!   will measure it, and `--proof BENCH.json` takes its figure already
//!   ([`super::proof_file`]);
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
//! - `ecrecover` loop overhead: [`DEFAULT_ECRECOVER_LOOP_GAS`], an estimate (see there).

use super::limits::POINT_EVALUATION_GAS;
use super::schedule::{
    blob_gas_prorata, blob_gas_whole, blob_reserve_fee_wei, ByteCounts, CalldataFloor,
    EIP7623_FLOOR, EIP7976_FLOOR, MAX_BLOB_PAYLOAD_BYTES, OP_STACK_BLOB_PAYLOAD_BYTES,
};
use serde::Serialize;
use std::fmt;
use std::str::FromStr;

/// Wei per gwei.
pub const WEI_PER_GWEI: u128 = 1_000_000_000;
/// Wei per ether.
pub const WEI_PER_ETH: u128 = 1_000_000_000_000_000_000;

/// **Measured**: the proof of this project's batch circuit at B = 32 (k = 17, SHPLONK,
/// Blake2b transcript), 4,896 bytes (README, "Proving: naive against batch"). The EVM
/// (Keccak) transcript an on-chain verifier needs writes points uncompressed and will make it
/// somewhat larger; replace this figure with the EVM bench's `proof_bytes` once measured.
/// Public inputs are not included (the digest issue makes them one 32-byte word).
pub const MEASURED_PROOF_BYTES: u64 = 4_896;
/// **Estimate, not measured**: on-chain execution gas of a Halo2-KZG SHPLONK verifier for the
/// batch circuit (two pairings ≈ 113k plus about one ecMul per commitment; published direct
/// Halo2 verifiers cost a few hundred thousand to ~1M gas). To be replaced by the EVM bench's
/// measured `verify_gas_execution` (issue 15); until then the output labels it an estimate.
pub const ESTIMATED_VERIFICATION_GAS: u64 = 350_000;
/// Whether [`ESTIMATED_VERIFICATION_GAS`] is a measurement (flip when it is replaced).
pub const VERIFICATION_GAS_MEASURED: bool = false;
/// Default execution base fee, gwei (see the module doc for why 1).
pub const DEFAULT_BASE_FEE_GWEI: f64 = 1.0;
/// Default batches per day: one every 5 minutes.
pub const DEFAULT_BATCHES_PER_DAY: u64 = 288;
/// Default batch size B (the seed example's ~200 signatures per commit).
pub const DEFAULT_BATCH_SIZE: u64 = 200;
/// Default upper bound for the break-even searches.
pub const DEFAULT_BREAK_EVEN_BOUND: u64 = 1_000_000;
/// **Estimate**: gas per signature that a Solidity `ecrecover` loop spends besides the
/// 3,000-gas precompile: the `STATICCALL` to the warm precompile (100, EIP-2929), writing its
/// four arguments to memory and reading the result (~150 with the ABI decoding of the
/// signature from calldata), and the loop with an ordering or equality check on the
/// recovered signer (~150). Looking the signer up in a stored committee is left out: the
/// proof path checks the same keys.
pub const DEFAULT_ECRECOVER_LOOP_GAS: u64 = 400;
/// Largest batch size the model accepts (keeps every product far inside u64 / u128).
pub const MAX_BATCH_SIZE: u64 = 1_000_000_000;
/// Largest break-even search bound: the search is a linear scan (a few hundred ms at 10^7).
pub const MAX_BREAK_EVEN_BOUND: u64 = 10_000_000;
/// Largest gas figure accepted for an input (verification, binding, loop overhead).
pub const MAX_GAS_INPUT: u64 = 10_000_000_000;
/// Largest price accepted, wei (10^12 gwei).
pub const MAX_PRICE_WEI: u128 = 1_000_000_000_000 * WEI_PER_GWEI;
/// Largest extra calldata per transaction accepted by `--floor-headroom tx-bytes:N`.
pub const MAX_TX_BYTES: u64 = 100_000;

/// Where an input's value comes from; the output says it next to the value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", content = "note", rename_all = "lowercase")]
pub enum Origin {
    /// Measured by this project (the note says what and where).
    Measured(String),
    /// Not measured: an estimate (the note says what will replace it).
    Estimate(String),
    /// Given on the command line.
    Given,
    /// Part of a named scenario.
    Scenario(String),
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Measured(n) => write!(f, "measured: {n}"),
            Origin::Estimate(n) => write!(f, "ESTIMATE, not measured: {n}"),
            Origin::Given => write!(f, "given"),
            Origin::Scenario(n) => write!(f, "scenario {n}"),
        }
    }
}

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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, clap::ValueEnum)]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, clap::ValueEnum)]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, clap::ValueEnum)]
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
    /// Execution gas of the on-chain verification.
    pub verification_gas: u64,
    pub verification_origin: Origin,
    /// Execution base fee, wei.
    pub base_fee_wei: u128,
    /// Priority fee (tip) per execution gas, wei; blob gas pays none.
    pub priority_fee_wei: u128,
    /// Blob base fee, wei; `None`: the EIP-7918 reserve at the base fee.
    pub blob_base_fee_wei: Option<u128>,
    pub batches_per_day: u64,
    pub signature: SignatureFormat,
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
}

/// Named input sets (`--scenario`); options given with it override its values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Scenario {
    /// This project's figures at 2025–26 L1 prices (the defaults).
    Current,
    /// 0xPARC's 2022 Optimism example: 200 signatures × 64 B against a 131-byte Groth16
    /// proof and 200 addresses, no verifier gas, 30 gwei, one batch per 5 minutes, EIP-2028
    /// calldata (the only schedule then).
    #[value(name = "optimism-2022")]
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
                    verification_gas: 0,
                    verification_origin: origin,
                    base_fee_wei: 30 * WEI_PER_GWEI,
                    signature: SignatureFormat::Rs,
                    ..Params::default()
                }
            }
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

impl Default for Params {
    fn default() -> Self {
        Params {
            proof_bytes: MEASURED_PROOF_BYTES,
            proof_origin: Origin::Measured(
                "batch circuit, B = 32, k = 17, Blake2b transcript; the EVM transcript's is \
                 not measured yet"
                    .to_string(),
            ),
            verification_gas: ESTIMATED_VERIFICATION_GAS,
            verification_origin: if VERIFICATION_GAS_MEASURED {
                Origin::Measured("EVM bench".to_string())
            } else {
                Origin::Estimate(
                    "the EVM bench's measured verify_gas_execution will replace it".to_string(),
                )
            },
            base_fee_wei: gwei_to_wei(DEFAULT_BASE_FEE_GWEI).unwrap_or(WEI_PER_GWEI),
            priority_fee_wei: 0,
            blob_base_fee_wei: None,
            batches_per_day: DEFAULT_BATCHES_PER_DAY,
            signature: SignatureFormat::RsParity,
            signature_nonzero_fraction: 1.0,
            sender: Sender::Address,
            blob_usable_bytes: OP_STACK_BLOB_PAYLOAD_BYTES,
            blob_rounding: BlobRounding::Whole,
            blob_binding_gas: POINT_EVALUATION_GAS,
            headroom: Headroom::None,
            ecrecover_loop_gas: DEFAULT_ECRECOVER_LOOP_GAS,
        }
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
}

/// Converts a gwei amount to wei, rejecting negative, NaN, infinite and absurd values.
pub fn gwei_to_wei(gwei: f64) -> Option<u128> {
    if !gwei.is_finite() || !(0.0..=1e12).contains(&gwei) {
        return None;
    }
    Some((gwei * WEI_PER_GWEI as f64).round() as u128)
}

/// Converts wei to ether for display (exact enough: f64 has 53 bits).
pub fn wei_to_eth(wei: i128) -> f64 {
    wei as f64 / WEI_PER_ETH as f64
}

impl Params {
    /// Checks every input; the model's arithmetic assumes these hold.
    pub fn validate(&self) -> Result<(), ParamError> {
        if self.batches_per_day == 0 {
            return Err(ParamError::ZeroBatchesPerDay);
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
        split_nonzero(self.signature.bytes(b), self.signature_nonzero_fraction)
    }

    /// The sender payload of a batch of `b` transactions (all bytes non-zero).
    pub fn sender_payload(&self, b: u64) -> ByteCounts {
        ByteCounts::nonzero(b * self.sender.bytes())
    }

    /// The proof (all bytes non-zero).
    pub fn proof_payload(&self) -> ByteCounts {
        ByteCounts::nonzero(self.proof_bytes)
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

    #[test]
    fn defaults_are_labelled_by_origin() {
        let p = Params::default();
        assert_eq!(p.proof_bytes, MEASURED_PROOF_BYTES);
        assert!(matches!(p.proof_origin, Origin::Measured(_)));
        assert!(matches!(p.verification_origin, Origin::Estimate(_)));
        assert!(p.verification_origin.to_string().contains("ESTIMATE"));
        assert_eq!(p.blob_usable_bytes, 130_044);
        assert_eq!(p.signature, SignatureFormat::RsParity);
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
