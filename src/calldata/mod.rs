//! Cost calculator for checking B ECDSA signatures on Ethereum L1: post the B signatures, or
//! one batch-ECDSA proof plus a short sender per signature, for three kinds of poster:
//!
//! - rollups posting calldata (EIP-2028, the EIP-7623 floor, the proposed EIP-7976 floor);
//! - rollups posting blobs (EIP-4844, the blob fee at the EIP-7918 reserve);
//! - bridges and committees that check N signatures with `ecrecover` on chain.
//!
//! The proof's public statement ([`statement`]) decides what the proof path posts beside the
//! proof: by default the **digest** statement (one digest D, recomputed on chain by the digest
//! wrapper, whose measured gas is added to the verifier's: [`wrapper_gas`]), or with
//! `--public keys` the keys statement (three public-input words per signature).
//!
//! Layers, one each: [`schedule`] (L1 pricing formulas), [`limits`] (L1 caps and precompile
//! prices), [`statement`] (keys or digest), [`wrapper_gas`] (the digest wrapper's gas at any
//! B), [`params`] (inputs, defaults with their origin, scenarios), [`model`] (what each rollup
//! path posts and pays, break-even and capacity searches), [`bridge`] (the `ecrecover`
//! segment), [`proof_file`] (proof and EVM bench files), [`rows`] (the schema of each measured row, for
//! its writer and its reader), [`table`] (text output). [`report`]
//! ties them together for the `calldata` binary.

pub mod bounds;
pub mod bridge;
pub mod limits;
pub mod measured;
pub mod model;
pub mod params;
pub mod proof_file;
pub mod rows;
pub mod schedule;
pub mod statement;
pub mod table;
pub mod units;
pub mod wrapper_gas;

pub use measured::Origin;
pub use model::{break_even, compare, proof_path, signature_path, BreakEven, Capacity, Comparison};
pub use params::{
    BlobRounding, Headroom, ParamError, Params, Scenario, Schedule, Sender, SignatureFormat,
    Statement,
};

use bounds::{MAX_BATCH_SIZE, MAX_BREAK_EVEN_BOUND};
use model::capacity;
use proof_file::BenchRow;
use serde::Serialize;

/// The default rows of the tables: small batches to well past one transaction's limits.
pub fn default_batch_sizes() -> Vec<u64> {
    vec![1, 16, 64, 128, 256, 1_024, 4_096, 16_384, 65_536]
}

/// One schedule's rows, break-even and limits.
#[derive(Debug, Clone, Serialize)]
pub struct ScheduleReport {
    pub schedule: Schedule,
    pub break_even: BreakEven,
    /// Floor schedules, unless the headroom is already full: the break-even when the batch's
    /// other calldata absorbs all of the verifier's execution.
    pub break_even_full_headroom: Option<BreakEven>,
    /// Largest B each path posts in one transaction.
    pub one_tx: Capacity,
    /// Blob schedule: largest B whose blobs fit one block.
    pub one_block: Option<Capacity>,
    pub rows: Vec<Comparison>,
}

/// The `ecrecover` segment.
#[derive(Debug, Clone, Serialize)]
pub struct BridgeReport {
    pub break_even: BreakEven,
    /// Rows over the same sizes as the rollup tables (N signatures).
    pub rows: Vec<Comparison>,
}

/// The answer for each segment, computed whatever schedules are printed.
#[derive(Debug, Clone, Serialize)]
pub struct Answers {
    /// Calldata posters under EIP-7623 at the given headroom, and with full headroom.
    pub floor: BreakEven,
    pub floor_full_headroom: BreakEven,
    /// The same under EIP-7976.
    pub eip7976: BreakEven,
    pub eip7976_full_headroom: BreakEven,
    /// Blob posters, and how many signatures one transaction and one block carry in blobs.
    pub blob: BreakEven,
    pub blob_one_tx: Capacity,
    pub blob_one_block: Capacity,
    /// Bridges and committees: N `ecrecover`s against one proof.
    pub bridge: BreakEven,
}

/// Everything the binary prints.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub scenario: Scenario,
    pub params: Params,
    /// Effective prices, wei.
    pub gas_price_wei: u128,
    pub blob_base_fee_wei: u128,
    /// The batch size the user asked about (also among the rows).
    pub batch_size: u64,
    /// The EVM bench row the verifier figures come from, if any: the `--proof` file's, or
    /// under the `current` scenario the embedded bench's default row.
    pub verifier_bench: Option<BenchRow>,
    pub answers: Answers,
    pub schedules: Vec<ScheduleReport>,
    pub bridge: BridgeReport,
}

/// What to report on.
#[derive(Debug, Clone)]
pub struct Request {
    pub scenario: Scenario,
    pub params: Params,
    pub batch_size: u64,
    pub batch_sizes: Vec<u64>,
    pub schedules: Vec<Schedule>,
    pub bound: u64,
    pub verifier_bench: Option<BenchRow>,
}

/// Builds the report for the request's sizes (sorted, deduplicated, `batch_size` added) under
/// each schedule (deduplicated, in order). Validates the parameters and sizes first.
pub fn report(req: &Request) -> Result<Report, ParamError> {
    let params = &req.params;
    params.validate()?;
    let mut sizes = req.batch_sizes.clone();
    sizes.push(req.batch_size);
    for &b in &sizes {
        if b == 0 {
            return Err(ParamError::ZeroBatchSize);
        }
        if b > MAX_BATCH_SIZE {
            return Err(ParamError::BatchSizeTooLarge {
                value: b,
                limit: MAX_BATCH_SIZE,
            });
        }
    }
    let bound = req.bound;
    if bound == 0 || bound > MAX_BREAK_EVEN_BOUND {
        return Err(ParamError::BadBound {
            value: bound,
            limit: MAX_BREAK_EVEN_BOUND,
        });
    }
    sizes.sort_unstable();
    sizes.dedup();

    let full = Params {
        headroom: Headroom::Full,
        ..params.clone()
    };
    let answers = Answers {
        floor: break_even(params, Schedule::Floor, bound),
        floor_full_headroom: break_even(&full, Schedule::Floor, bound),
        eip7976: break_even(params, Schedule::Eip7976, bound),
        eip7976_full_headroom: break_even(&full, Schedule::Eip7976, bound),
        blob: break_even(params, Schedule::Blob, bound),
        blob_one_tx: capacity(params, Schedule::Blob, bound, false),
        blob_one_block: capacity(params, Schedule::Blob, bound, true),
        bridge: bridge::break_even(params, bound),
    };
    let mut seen = Vec::new();
    let schedules = req
        .schedules
        .iter()
        .filter(|s| {
            let new = !seen.contains(*s);
            seen.push(**s);
            new
        })
        .map(|&schedule| ScheduleReport {
            schedule,
            break_even: match schedule {
                Schedule::Calldata => break_even(params, schedule, bound),
                Schedule::Floor => answers.floor,
                Schedule::Eip7976 => answers.eip7976,
                Schedule::Blob => answers.blob,
            },
            break_even_full_headroom: match schedule {
                _ if params.headroom == Headroom::Full => None,
                Schedule::Floor => Some(answers.floor_full_headroom),
                Schedule::Eip7976 => Some(answers.eip7976_full_headroom),
                Schedule::Calldata | Schedule::Blob => None,
            },
            one_tx: capacity(params, schedule, bound, false),
            one_block: (schedule == Schedule::Blob).then_some(answers.blob_one_block),
            rows: sizes
                .iter()
                .map(|&b| compare(params, schedule, b))
                .collect(),
        })
        .collect();
    let bridge = BridgeReport {
        break_even: answers.bridge,
        rows: sizes.iter().map(|&n| bridge::compare(params, n)).collect(),
    };
    Ok(Report {
        scenario: req.scenario,
        params: params.clone(),
        gas_price_wei: params.gas_price_wei(),
        blob_base_fee_wei: params.blob_base_fee_wei(),
        batch_size: req.batch_size,
        verifier_bench: req.verifier_bench.clone(),
        answers,
        schedules,
        bridge,
    })
}
