//! Rollup calldata savings calculator: what a rollup pays per batch to post B signatures,
//! against one batch-ECDSA proof plus a short sender per transaction, under EIP-2028 calldata,
//! the EIP-7623 floor and EIP-4844 blobs.
//!
//! Layers: [`schedule`] (the L1 pricing formulas), [`model`] (what each path posts and pays,
//! break-even search), [`proof_file`] (reading a proof's size from a file), [`table`] (text
//! output). [`report`] ties them together for the `calldata` binary.

pub mod model;
pub mod proof_file;
pub mod schedule;
pub mod table;

pub use model::{
    break_even, compare, proof_path, signature_path, BlobRounding, BreakEven, Comparison,
    ParamError, Params, PathCost, Schedule, Sender,
};

use serde::Serialize;

/// The default batch sizes of the table: powers of two from 1 to 1,024.
pub fn default_batch_sizes() -> Vec<u64> {
    (0..=10).map(|i| 1u64 << i).collect()
}

/// One schedule's rows and break-even.
#[derive(Debug, Clone, Serialize)]
pub struct ScheduleReport {
    pub schedule: Schedule,
    pub break_even: BreakEven,
    pub rows: Vec<Comparison>,
}

/// Everything the binary prints.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub params: Params,
    /// The batch size the user asked about (also among the rows).
    pub batch_size: u64,
    pub schedules: Vec<ScheduleReport>,
}

/// Builds the report for `batch_sizes` (sorted, deduplicated, `batch_size` added) under each
/// schedule. Validates `params` and the sizes first.
pub fn report(
    params: &Params,
    batch_size: u64,
    batch_sizes: &[u64],
    schedules: &[Schedule],
    bound: u64,
) -> Result<Report, ParamError> {
    params.validate()?;
    let mut sizes: Vec<u64> = batch_sizes.to_vec();
    sizes.push(batch_size);
    for &b in &sizes {
        if b == 0 {
            return Err(ParamError::ZeroBatchSize);
        }
        if b > model::MAX_BATCH_SIZE {
            return Err(ParamError::BatchSizeTooLarge {
                value: b,
                limit: model::MAX_BATCH_SIZE,
            });
        }
    }
    if bound == 0 || bound > model::MAX_BREAK_EVEN_BOUND {
        return Err(ParamError::BadBound {
            value: bound,
            limit: model::MAX_BREAK_EVEN_BOUND,
        });
    }
    sizes.sort_unstable();
    sizes.dedup();
    let mut seen = Vec::new();
    let schedules = schedules
        .iter()
        .filter(|s| {
            let new = !seen.contains(*s);
            seen.push(**s);
            new
        })
        .map(|&schedule| ScheduleReport {
            schedule,
            break_even: break_even(params, schedule, bound),
            rows: sizes
                .iter()
                .map(|&b| compare(params, schedule, b))
                .collect(),
        })
        .collect();
    Ok(Report {
        params: params.clone(),
        batch_size,
        schedules,
    })
}
