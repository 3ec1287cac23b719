//! The cost model: what a rollup posts per batch on each path, and what that costs.
//!
//! Two ways to let L1 (or anyone reading L1) trust that B transactions were signed:
//!
//! - **signature path** ("without proof"): post every signature, `B × signature_bytes`.
//!   Signatures are close to uniformly random bytes, so they are treated as incompressible;
//!   their share of non-zero bytes is an input (default 1.0, the worst case and, at 1/256 zero
//!   bytes, very nearly the typical one). L1 runs no verification.
//! - **proof path** ("with proof"): post one proof plus, per transaction, the sender it
//!   attests to (a 20-byte address, or an N-byte index into a registry), and verify the proof
//!   on L1 (`verification_gas` of execution, paid at the execution gas price). Proof, address
//!   and index bytes are counted as non-zero.
//!
//! Everything else a batch posts (transaction bodies, the 21,000 intrinsic gas, the rollup's own
//! bookkeeping) is the same on both paths and left out, so the gas figures are *data plus
//! verification* gas, not whole-transaction gas. Under EIP-7623 the payload is priced as the
//! only calldata of its transaction, which makes the floor bind as hard as it can; a batch that
//! also carries other calldata pays the floor on that too, which this model does not see.
//!
//! Schedules:
//! - `calldata`: EIP-2028 pricing, 16 / 4 gas per non-zero / zero byte, plus verification gas.
//! - `floor`: the EIP-7623 formula `21000 + max(4·tokens + exec, 10·tokens)` less the 21,000
//!   base; the verifier's execution gas can lift the proof path off the floor.
//! - `blob`: the payload goes to EIP-4844 blobs priced at the blob base fee. A proof cannot be
//!   read by the EVM from a blob, so on the proof path the proof stays in calldata (EIP-7623
//!   formula, with the verifier's execution gas) and only the senders go to blobs.
//!   Binding the proof's public inputs to the blob contents (e.g. a KZG point evaluation) is
//!   not counted.

use super::schedule::{
    blob_gas_prorata, blob_gas_whole, eip2028_data_gas, eip7623_tx_gas, ByteCounts, BLOB_BYTES,
    TX_BASE_GAS,
};
use serde::Serialize;
use std::fmt;
use std::str::FromStr;

/// Wei per gwei.
pub const WEI_PER_GWEI: u128 = 1_000_000_000;
/// Wei per ether.
pub const WEI_PER_ETH: u128 = 1_000_000_000_000_000_000;

/// Default proof size: the 1,376-byte SHPLONK proof measured for a k=17, 20-advice-column
/// halo2-axiom toy circuit early in the project, kept so the documented examples stay
/// reproducible; our batch circuit's proof is 4,896 bytes at B = 32 (`--proof-bytes 4896` or
/// `--proof FILE`).
pub const DEFAULT_PROOF_BYTES: u64 = 1_376;
/// Default on-chain verification gas for a Halo2-KZG SHPLONK verifier: an **estimate**
/// (two pairings ≈ 113k plus about one ecMul per commitment; published direct Halo2
/// verifiers cost "a few hundred k" to ~1M). Not measured for our circuit.
pub const DEFAULT_VERIFICATION_GAS: u64 = 350_000;
/// Default execution gas price, gwei (the 0xPARC seed example's figure).
pub const DEFAULT_GAS_PRICE_GWEI: f64 = 30.0;
/// Default batches per day: one every 5 minutes.
pub const DEFAULT_BATCHES_PER_DAY: u64 = 288;
/// Default signature size: (r, s) without the recovery bit.
pub const DEFAULT_SIGNATURE_BYTES: u64 = 64;
/// Default batch size B (the seed example's ~200 signatures per commit).
pub const DEFAULT_BATCH_SIZE: u64 = 200;
/// Default upper bound for the break-even search.
pub const DEFAULT_BREAK_EVEN_BOUND: u64 = 1_000_000;
/// EIP-7918 ties the blob base fee's floor to the execution base fee: blob gas stops getting
/// cheaper once it costs less than `base_fee / 16` (BLOB_BASE_COST 2^13 / GAS_PER_BLOB 2^17).
/// The default blob base fee is that reserve price at the given gas price.
pub const BLOB_RESERVE_DIVISOR: f64 = 16.0;

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

/// A pricing schedule (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Schedule {
    /// EIP-2028 calldata, 16 / 4 gas per non-zero / zero byte.
    Calldata,
    /// EIP-7623 calldata floor formula.
    Floor,
    /// EIP-4844 blobs for the payload; the proof in calldata.
    Blob,
}

impl Schedule {
    pub const ALL: [Schedule; 3] = [Schedule::Calldata, Schedule::Floor, Schedule::Blob];

    pub fn name(&self) -> &'static str {
        match self {
            Schedule::Calldata => "calldata",
            Schedule::Floor => "floor",
            Schedule::Blob => "blob",
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
    pub proof_bytes: u64,
    pub verification_gas: u64,
    pub gas_price_wei: u128,
    pub blob_base_fee_wei: u128,
    pub batches_per_day: u64,
    pub signature_bytes: u64,
    /// Share of signature bytes that are non-zero, in [0, 1].
    pub signature_nonzero_fraction: f64,
    pub sender: Sender,
    pub blob_usable_bytes: u64,
    pub blob_rounding: BlobRounding,
}

impl Default for Params {
    fn default() -> Self {
        let gas_price_wei = gwei_to_wei(DEFAULT_GAS_PRICE_GWEI).unwrap_or(30 * WEI_PER_GWEI);
        Params {
            proof_bytes: DEFAULT_PROOF_BYTES,
            verification_gas: DEFAULT_VERIFICATION_GAS,
            gas_price_wei,
            blob_base_fee_wei: default_blob_base_fee_wei(gas_price_wei),
            batches_per_day: DEFAULT_BATCHES_PER_DAY,
            signature_bytes: DEFAULT_SIGNATURE_BYTES,
            signature_nonzero_fraction: 1.0,
            sender: Sender::Address,
            blob_usable_bytes: BLOB_BYTES,
            blob_rounding: BlobRounding::Whole,
        }
    }
}

/// Why a set of inputs makes no sense.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ParamError {
    #[error("signature bytes must be 64 (r, s) or 65 (r, s, v), got {0}")]
    SignatureBytes(u64),
    #[error("batches per day must be at least 1, got 0")]
    ZeroBatchesPerDay,
    #[error("{name} must be a finite number ≥ 0 gwei, got {value}")]
    BadPrice { name: &'static str, value: f64 },
    #[error("signature non-zero fraction must be in [0, 1], got {0}")]
    NonzeroFraction(f64),
    #[error("usable bytes per blob must be 1 to 131072, got {0}")]
    BlobUsableBytes(u64),
    #[error("proof size must be at least 1 byte, got 0")]
    ZeroProofBytes,
    #[error("batch size must be at least 1, got 0")]
    ZeroBatchSize,
    #[error("batch size {value} is above the limit {limit}")]
    BatchSizeTooLarge { value: u64, limit: u64 },
    #[error("index width must be 1 to 32 bytes, got {0}")]
    SenderWidth(u64),
    #[error("break-even search bound must be 1 to {limit}, got {value}")]
    BadBound { value: u64, limit: u64 },
}

/// Largest batch size the model accepts (keeps every product far inside u64 / u128).
pub const MAX_BATCH_SIZE: u64 = 1_000_000_000;
/// Largest break-even search bound: the search is a linear scan (a few hundred ms at 10^7).
pub const MAX_BREAK_EVEN_BOUND: u64 = 10_000_000;

/// Converts a gwei amount to wei, rejecting negative, NaN and infinite values.
pub fn gwei_to_wei(gwei: f64) -> Option<u128> {
    if !gwei.is_finite() || !(0.0..=1e12).contains(&gwei) {
        return None;
    }
    Some((gwei * WEI_PER_GWEI as f64).round() as u128)
}

/// The EIP-7918 reserve blob base fee at a given execution gas price: `gas_price / 16`.
pub fn default_blob_base_fee_wei(gas_price_wei: u128) -> u128 {
    (gas_price_wei as f64 / BLOB_RESERVE_DIVISOR).round() as u128
}

/// Converts wei to ether for display (exact enough: f64 has 53 bits).
pub fn wei_to_eth(wei: i128) -> f64 {
    wei as f64 / WEI_PER_ETH as f64
}

impl Params {
    /// Checks every input; the model's arithmetic assumes these hold.
    pub fn validate(&self) -> Result<(), ParamError> {
        if self.signature_bytes != 64 && self.signature_bytes != 65 {
            return Err(ParamError::SignatureBytes(self.signature_bytes));
        }
        if self.batches_per_day == 0 {
            return Err(ParamError::ZeroBatchesPerDay);
        }
        let f = self.signature_nonzero_fraction;
        if !(f.is_finite() && (0.0..=1.0).contains(&f)) {
            return Err(ParamError::NonzeroFraction(f));
        }
        if !(1..=BLOB_BYTES).contains(&self.blob_usable_bytes) {
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
        Ok(())
    }

    /// The signature payload of a batch of `b` signatures.
    pub fn signature_payload(&self, b: u64) -> ByteCounts {
        let total = b * self.signature_bytes;
        let nonzero = ((total as f64) * self.signature_nonzero_fraction).round() as u64;
        let nonzero = nonzero.min(total);
        ByteCounts {
            zero: total - nonzero,
            nonzero,
        }
    }

    /// The sender payload of a batch of `b` transactions (all bytes non-zero).
    pub fn sender_payload(&self, b: u64) -> ByteCounts {
        ByteCounts::nonzero(b * self.sender.bytes())
    }

    /// The proof (all bytes non-zero).
    pub fn proof_payload(&self) -> ByteCounts {
        ByteCounts::nonzero(self.proof_bytes)
    }

    fn blob_gas(&self, bytes: u64) -> u64 {
        match self.blob_rounding {
            BlobRounding::Whole => blob_gas_whole(bytes, self.blob_usable_bytes),
            BlobRounding::Prorata => blob_gas_prorata(bytes, self.blob_usable_bytes),
        }
    }
}

/// What one path posts and pays per batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PathCost {
    /// Bytes posted as calldata.
    pub calldata_bytes: u64,
    /// Bytes posted in blobs.
    pub blob_bytes: u64,
    /// Execution-market gas: data gas under the schedule plus verification, without the
    /// 21,000 base both paths pay.
    pub gas: u64,
    /// Blob gas (0 outside the `blob` schedule).
    pub blob_gas: u64,
    /// `gas × gas_price + blob_gas × blob_base_fee`, in wei.
    pub fee_wei: u128,
}

impl PathCost {
    fn new(params: &Params, calldata: ByteCounts, blob_bytes: u64, gas: u64) -> Self {
        let blob_gas = if blob_bytes == 0 {
            0
        } else {
            params.blob_gas(blob_bytes)
        };
        let fee_wei = u128::from(gas) * params.gas_price_wei
            + u128::from(blob_gas) * params.blob_base_fee_wei;
        PathCost {
            calldata_bytes: calldata.total(),
            blob_bytes,
            gas,
            blob_gas,
            fee_wei,
        }
    }

    /// Total bytes posted, calldata and blobs.
    pub fn bytes(&self) -> u64 {
        self.calldata_bytes + self.blob_bytes
    }
}

/// EIP-7623 gas of a payload with some execution, less the 21,000 base.
fn floor_gas(bytes: ByteCounts, execution_gas: u64) -> u64 {
    eip7623_tx_gas(bytes, execution_gas) - TX_BASE_GAS
}

/// Cost of posting `b` signatures under `schedule`.
pub fn signature_path(params: &Params, schedule: Schedule, b: u64) -> PathCost {
    let sigs = params.signature_payload(b);
    match schedule {
        Schedule::Calldata => PathCost::new(params, sigs, 0, eip2028_data_gas(sigs)),
        Schedule::Floor => PathCost::new(params, sigs, 0, floor_gas(sigs, 0)),
        Schedule::Blob => PathCost::new(params, ByteCounts::default(), sigs.total(), 0),
    }
}

/// Cost of posting one proof and `b` senders, and verifying the proof, under `schedule`.
pub fn proof_path(params: &Params, schedule: Schedule, b: u64) -> PathCost {
    let proof = params.proof_payload();
    let senders = params.sender_payload(b);
    let exec = params.verification_gas;
    match schedule {
        Schedule::Calldata => {
            let data = proof.plus(senders);
            PathCost::new(params, data, 0, eip2028_data_gas(data) + exec)
        }
        Schedule::Floor => {
            let data = proof.plus(senders);
            PathCost::new(params, data, 0, floor_gas(data, exec))
        }
        Schedule::Blob => PathCost::new(params, proof, senders.total(), floor_gas(proof, exec)),
    }
}

/// Both paths at one batch size.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Comparison {
    pub batch_size: u64,
    pub without_proof: PathCost,
    pub with_proof: PathCost,
    /// `without_proof.fee − with_proof.fee`, wei (negative: the proof path costs more).
    pub saving_per_batch_wei: i128,
    pub saving_per_batch_eth: f64,
    pub saving_per_day_eth: f64,
}

/// Compares the two paths at batch size `b`.
pub fn compare(params: &Params, schedule: Schedule, b: u64) -> Comparison {
    let without_proof = signature_path(params, schedule, b);
    let with_proof = proof_path(params, schedule, b);
    let saving = saving_wei(&without_proof, &with_proof);
    Comparison {
        batch_size: b,
        without_proof,
        with_proof,
        saving_per_batch_wei: saving,
        saving_per_batch_eth: wei_to_eth(saving),
        saving_per_day_eth: wei_to_eth(saving.saturating_mul(i128::from(params.batches_per_day))),
    }
}

fn saving_wei(without: &PathCost, with: &PathCost) -> i128 {
    // Fees stay far below 2^126 for validated inputs (B ≤ 10^9, prices ≤ 10^12 gwei).
    let a = i128::try_from(without.fee_wei).unwrap_or(i128::MAX);
    let b = i128::try_from(with.fee_wei).unwrap_or(i128::MAX);
    a.saturating_sub(b)
}

/// Where the proof path starts to pay, searched over `1..=bound`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct BreakEven {
    /// Smallest B in `1..=bound` where the proof path is strictly cheaper, if any.
    pub first: Option<u64>,
    /// Smallest B such that the proof path is strictly cheaper for every batch size from B
    /// to `bound`. Equals `first` when the saving grows with B (calldata and floor schedules);
    /// under whole-blob rounding the saving jumps with blob boundaries, so it can be larger.
    pub stable_from: Option<u64>,
    pub bound: u64,
}

/// Scans `1..=bound` for the break-even batch size. Linear in `bound` (each step is a few
/// integer operations), because whole-blob rounding makes the saving non-monotonic in B.
pub fn break_even(params: &Params, schedule: Schedule, bound: u64) -> BreakEven {
    let cheaper = |b: u64| compare(params, schedule, b).saving_per_batch_wei > 0;
    let first = (1..=bound).find(|&b| cheaper(b));
    let stable_from = match first {
        None => None,
        Some(first) => {
            let mut from = None;
            let mut b = bound;
            while b >= first && cheaper(b) {
                from = Some(b);
                b -= 1;
            }
            from
        }
    };
    BreakEven {
        first,
        stable_from,
        bound,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 0xPARC seed example: 200 signatures × 64 B × 16 gas against a 131-byte Groth16
    /// proof plus 200 × 20-byte addresses, no verification gas, 30 gwei, one batch per 5 min.
    fn seed() -> Params {
        Params {
            proof_bytes: 131,
            verification_gas: 0,
            gas_price_wei: 30 * WEI_PER_GWEI,
            batches_per_day: 288,
            ..Params::default()
        }
    }

    #[test]
    fn seed_example_gas_and_daily_saving() {
        let p = seed();
        p.validate().unwrap();
        let c = compare(&p, Schedule::Calldata, 200);
        assert_eq!(c.without_proof.gas, 204_800);
        assert_eq!(c.with_proof.gas, 66_096);
        assert_eq!(c.without_proof.calldata_bytes, 12_800);
        assert_eq!(c.with_proof.calldata_bytes, 4_131);
        // (204,800 − 66,096) gas × 30 gwei = 0.00416112 ETH per batch.
        assert_eq!(c.saving_per_batch_wei, 138_704 * 30 * WEI_PER_GWEI as i128);
        // × 288 batches = 1.19840256 ETH per day (the source says ≈1.1 from rounded figures).
        assert!((c.saving_per_day_eth - 1.198_402_56).abs() < 1e-9);
        assert_eq!(format!("{:.1}", c.saving_per_day_eth), "1.2");
    }

    #[test]
    fn nonzero_fraction_splits_signature_bytes() {
        let p = Params {
            signature_nonzero_fraction: 0.75,
            ..seed()
        };
        let s = p.signature_payload(10);
        assert_eq!(
            s,
            ByteCounts {
                zero: 160,
                nonzero: 480
            }
        );
        assert_eq!(
            signature_path(&p, Schedule::Calldata, 10).gas,
            480 * 16 + 160 * 4
        );
    }

    #[test]
    fn floor_schedule_prices_signatures_at_40_per_byte_and_lets_the_verifier_lift_off() {
        let p = Params::default(); // 1,376-byte proof, 350k verification
        let c = compare(&p, Schedule::Floor, 200);
        assert_eq!(c.without_proof.gas, 200 * 64 * 40);
        // Proof path: 1,376 + 4,000 bytes = 21,504 tokens; 4·tokens + 350k > 10·tokens.
        assert_eq!(c.with_proof.gas, 4 * 21_504 + 350_000);
        // With no verification gas the proof path sits on the floor too.
        let p0 = Params {
            verification_gas: 0,
            ..p
        };
        assert_eq!(proof_path(&p0, Schedule::Floor, 200).gas, 10 * 21_504);
    }

    #[test]
    fn blob_schedule_keeps_the_proof_in_calldata() {
        let p = Params::default();
        let sig = signature_path(&p, Schedule::Blob, 200);
        assert_eq!(sig.blob_bytes, 12_800);
        assert_eq!(sig.blob_gas, 131_072);
        assert_eq!(sig.gas, 0);
        let pr = proof_path(&p, Schedule::Blob, 200);
        assert_eq!(pr.calldata_bytes, 1_376);
        assert_eq!(pr.blob_bytes, 4_000);
        assert_eq!(pr.blob_gas, 131_072);
        assert_eq!(pr.gas, 16 * 1_376 + 350_000);
        // Same number of blobs, so the proof path only adds cost.
        assert!(compare(&p, Schedule::Blob, 200).saving_per_batch_wei < 0);
    }

    #[test]
    fn break_even_calldata_matches_closed_form() {
        // Calldata: saving(B) = 16·B·(sig − sender) − 16·proof − verification, linear in B,
        // so the smallest B with saving > 0 is floor((16·proof + v) / (16·44)) + 1.
        for (proof, verif) in [
            (131u64, 0u64),
            (1_376, 0),
            (1_376, 350_000),
            (6_560, 1_000_000),
        ] {
            let p = Params {
                proof_bytes: proof,
                verification_gas: verif,
                ..Params::default()
            };
            let expect = (16 * proof + verif) / (16 * 44) + 1;
            let be = break_even(&p, Schedule::Calldata, 100_000);
            assert_eq!(be.first, Some(expect), "proof {proof} verif {verif}");
            assert_eq!(be.stable_from, Some(expect));
            assert!(compare(&p, Schedule::Calldata, expect).saving_per_batch_wei > 0);
            assert!(compare(&p, Schedule::Calldata, expect - 1).saving_per_batch_wei <= 0);
        }
    }

    #[test]
    fn break_even_moves_up_with_verification_gas_and_proof_size() {
        let mut last = 0;
        for verif in [0u64, 100_000, 350_000, 600_000, 1_000_000] {
            let p = Params {
                verification_gas: verif,
                ..Params::default()
            };
            let be = break_even(&p, Schedule::Floor, 1_000_000).first.unwrap();
            assert!(be >= last, "verification {verif}: {be} < {last}");
            last = be;
        }
        let mut last = 0;
        for proof in [131u64, 1_376, 3_552, 12_704] {
            let p = Params {
                proof_bytes: proof,
                ..Params::default()
            };
            let be = break_even(&p, Schedule::Calldata, 1_000_000).first.unwrap();
            assert!(be >= last);
            last = be;
        }
    }

    #[test]
    fn break_even_never_within_the_bound() {
        // Calldata break-even at the defaults is 529 (closed form above): a bound below it
        // finds nothing, a bound at it finds it.
        let p = Params::default();
        let be = break_even(&p, Schedule::Calldata, 528);
        assert_eq!((be.first, be.stable_from), (None, None));
        assert_eq!(break_even(&p, Schedule::Calldata, 529).first, Some(529));
        // Free blob space: posting signatures in blobs costs nothing, a proof never pays.
        let free_blobs = Params {
            blob_base_fee_wei: 0,
            ..Params::default()
        };
        let be = break_even(&free_blobs, Schedule::Blob, 1_000_000);
        assert_eq!((be.first, be.stable_from), (None, None));
    }

    #[test]
    fn whole_blob_break_even_is_stable_from_no_earlier_than_first() {
        let p = Params::default();
        let be = break_even(&p, Schedule::Blob, 1_000_000);
        let first = be
            .first
            .expect("blobs pay off within 10^6 at default prices");
        let stable = be.stable_from.unwrap();
        assert!(stable >= first);
        assert!(compare(&p, Schedule::Blob, stable).saving_per_batch_wei > 0);
        assert!(compare(&p, Schedule::Blob, stable - 1).saving_per_batch_wei <= 0);
        assert!(compare(&p, Schedule::Blob, first).saving_per_batch_wei > 0);
        assert!(compare(&p, Schedule::Blob, first - 1).saving_per_batch_wei <= 0 || first == 1);
    }

    #[test]
    fn validation_rejects_nonsense() {
        let ok = Params::default();
        ok.validate().unwrap();
        let bad = [
            Params {
                signature_bytes: 63,
                ..ok.clone()
            },
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
                blob_usable_bytes: 131_073,
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
        ];
        for p in bad {
            assert!(p.validate().is_err(), "{p:?}");
        }
        assert_eq!(gwei_to_wei(-1.0), None);
        assert_eq!(gwei_to_wei(f64::INFINITY), None);
        assert_eq!(gwei_to_wei(1.5), Some(1_500_000_000));
    }

    #[test]
    fn sender_parses() {
        assert_eq!("address".parse::<Sender>(), Ok(Sender::Address));
        assert_eq!("index:4".parse::<Sender>(), Ok(Sender::Index(4)));
        assert!("index:0".parse::<Sender>().is_err());
        assert!("index:x".parse::<Sender>().is_err());
        assert!("addr".parse::<Sender>().is_err());
    }
}
