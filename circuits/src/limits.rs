//! The batch sizes each circuit proves: the planner's answer as a table, so that a claim
//! (a proof file's B and k, a batch's length) is checked before anything is laid out.
//!
//! [`Plan::fit`](crate::plan::Plan::fit) finds k by laying the circuit out (about
//! 55 ms a signature: a minute at B = 1024), too slow to run on a number a stranger sent.
//! For each circuit and statement at its default window the table holds the least k and,
//! for every k from there up to [`MAX_K`], the largest B that fits at that k
//! (`room(B, k) ≥ 0`, [`crate::plan::room`], the planner's own predicate). Since the
//! predicate is monotone in B and in k,
//!
//! ```text
//!   planned_k(B) = min { k : B ≤ max_b(k) },   B ≤ max_batch = max_b(MAX_K),
//! ```
//!
//! equals the planner's k for every B up to the limit. The table is made by
//! `cargo run --release -p batch-ecdsa-circuits --example plan_table` (25 minutes on 2 cores);
//! the tests check its small boundaries against the planner on every run and all of them
//! with `--ignored`.

use std::fmt;

use crate::ecdsa::Statement;
use crate::plan::CircuitKind;

/// The largest circuit size the project proves: 2^22 rows (the aggregated route's outer
/// circuit; a `.ptau` of power 22 serves every circuit). The largest B of each circuit is the
/// one that fits there.
pub const MAX_K: u32 = 22;

/// One circuit and statement at its default window: the least k (B = 1) and the largest B at
/// `first_k`, `first_k + 1`, …, [`MAX_K`].
struct Row {
    kind: CircuitKind,
    statement: Statement,
    first_k: u32,
    max_b: &'static [usize],
}

/// Made by `examples/plan_table.rs` (see the module doc).
const TABLE: [Row; 4] = [
    Row {
        kind: CircuitKind::Naive,
        statement: Statement::Keys,
        first_k: 14,
        max_b: &[1, 2, 6, 12, 24, 48, 96, 192, 385],
    },
    Row {
        kind: CircuitKind::Naive,
        statement: Statement::Digest,
        first_k: 14,
        max_b: &[1, 2, 5, 11, 23, 47, 95, 191, 383],
    },
    Row {
        kind: CircuitKind::Batch,
        statement: Statement::Keys,
        first_k: 14,
        max_b: &[2, 7, 18, 39, 81, 165, 334, 670, 1343],
    },
    Row {
        kind: CircuitKind::Batch,
        statement: Statement::Digest,
        first_k: 14,
        max_b: &[2, 7, 18, 38, 79, 161, 326, 655, 1313],
    },
];

fn row(kind: CircuitKind, statement: Statement) -> &'static Row {
    TABLE
        .iter()
        .find(|r| r.kind == kind && r.statement == statement)
        .expect("the table has a row for every circuit and statement")
}

/// The largest batch `kind` proves for `statement` (at k = [`MAX_K`]).
pub fn max_batch(kind: CircuitKind, statement: Statement) -> usize {
    *row(kind, statement)
        .max_b
        .last()
        .expect("every row has at least one k")
}

/// The largest batch any circuit proves (the bound a batch-size flag or a proof file's
/// `batch_size` meets before its circuit is known).
pub fn largest_batch() -> usize {
    TABLE
        .iter()
        .filter_map(|r| r.max_b.last().copied())
        .max()
        .unwrap_or(1)
}

/// A batch size outside what a circuit proves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SizeError {
    /// B = 0.
    Empty,
    /// B above the circuit's largest batch.
    TooLarge {
        kind: CircuitKind,
        statement: Statement,
        batch_size: usize,
        max: usize,
    },
}

impl fmt::Display for SizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SizeError::Empty => f.write_str("a batch holds at least 1 signature"),
            SizeError::TooLarge {
                kind,
                statement,
                batch_size,
                max,
            } => write!(
                f,
                "B = {batch_size} is more than the {kind} circuit proves for the {} statement \
                 (at most {max} signatures, k ≤ {MAX_K})",
                statement.as_str()
            ),
        }
    }
}

impl std::error::Error for SizeError {}

/// The planner's k for `b` signatures of `kind` stating `statement` at the default window,
/// from the table (no layout), or why there is none.
pub fn planned_k(kind: CircuitKind, statement: Statement, b: usize) -> Result<u32, SizeError> {
    if b == 0 {
        return Err(SizeError::Empty);
    }
    let r = row(kind, statement);
    r.max_b
        .iter()
        .position(|&max| b <= max)
        .map(|i| r.first_k + i as u32)
        .ok_or(SizeError::TooLarge {
            kind,
            statement,
            batch_size: b,
            max: max_batch(kind, statement),
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::{room, FitOptions, Plan};

    const KINDS: [(CircuitKind, Statement); 4] = [
        (CircuitKind::Naive, Statement::Keys),
        (CircuitKind::Naive, Statement::Digest),
        (CircuitKind::Batch, Statement::Keys),
        (CircuitKind::Batch, Statement::Digest),
    ];

    #[test]
    fn table_is_monotone_and_ends_at_max_k() {
        for r in &TABLE {
            assert_eq!(r.first_k as usize + r.max_b.len() - 1, MAX_K as usize);
            assert!(r.max_b[0] >= 1);
            assert!(r.max_b.windows(2).all(|w| w[0] < w[1]));
        }
        for (kind, st) in KINDS {
            row(kind, st);
        }
    }

    #[test]
    fn sizes_outside_the_table_are_refused() {
        for (kind, st) in KINDS {
            let max = max_batch(kind, st);
            assert_eq!(planned_k(kind, st, max), Ok(MAX_K));
            assert_eq!(planned_k(kind, st, 0), Err(SizeError::Empty));
            let err = planned_k(kind, st, max + 1).unwrap_err();
            assert!(err.to_string().contains(&format!("at most {max}")), "{err}");
            assert!(planned_k(kind, st, usize::MAX).is_err());
        }
    }

    /// The planner itself (layouts) agrees with the table at B = 1 and at every boundary
    /// whose layouts are cheap (B ≤ 8): the last B of each k plans to that k, the next to
    /// the k after.
    #[test]
    fn table_matches_planner_at_small_sizes() {
        for (kind, st) in KINDS {
            let w = kind.default_window();
            assert_eq!(
                Plan::fit(kind, 1, &FitOptions::default().window(w).statement(st)).k,
                planned_k(kind, st, 1).unwrap()
            );
            let r = row(kind, st);
            for (i, &b) in r.max_b.iter().enumerate().filter(|(_, &b)| b <= 8) {
                let k = r.first_k + i as u32;
                assert_eq!(
                    Plan::fit(kind, b, &FitOptions::default().window(w).statement(st)).k,
                    k,
                    "{kind} {st:?} B = {b}"
                );
                assert_eq!(
                    Plan::fit(kind, b + 1, &FitOptions::default().window(w).statement(st)).k,
                    k + 1,
                    "{kind} {st:?} B = {}",
                    b + 1
                );
            }
        }
    }

    /// Every boundary of the table against the planner's predicate: `max_b(k)` fits at k,
    /// one more does not. 25 minutes; run after a change to any layout with
    /// `cargo test --release -p batch-ecdsa-circuits limits -- --ignored`.
    #[test]
    #[ignore = "lays out every boundary up to k = 22 (25 minutes)"]
    fn table_matches_planner_everywhere() {
        for (kind, st) in KINDS {
            let w = kind.default_window();
            let r = row(kind, st);
            for (i, &b) in r.max_b.iter().enumerate() {
                let k = r.first_k + i as u32;
                assert!(
                    room(kind, b, w, st, k) >= 0,
                    "{kind} {st:?} B = {b} k = {k}"
                );
                assert!(
                    room(kind, b + 1, w, st, k) < 0,
                    "{kind} {st:?} B = {} k = {k}",
                    b + 1
                );
            }
        }
    }
}
