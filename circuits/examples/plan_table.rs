//! Makes the planner's table (`src/limits.rs`, `TABLE`): for each circuit and statement at its
//! default window, the least k and the largest B that fits at each k up to
//! `limits::MAX_K`, from the planner's own predicate ([`plan::room`]).
//!
//! ```text
//! cargo run --release -p batch-ecdsa-circuits --example plan_table
//! ```
//!
//! 25 minutes on 2 cores (one layout of ~B_max placeholders costs ~55 ms a signature;
//! each boundary takes 3–5 of them, found from the slope of the rows). The test
//! `limits::tests::table_matches_planner_everywhere` (ignored; run with `--ignored`) checks
//! every boundary again.

use batch_ecdsa_circuits::ecdsa::Statement;
use batch_ecdsa_circuits::limits::MAX_K;
use batch_ecdsa_circuits::plan::FitOptions;
use batch_ecdsa_circuits::plan::{room, CircuitKind, Plan};

fn main() {
    for kind in CircuitKind::ALL {
        for statement in [Statement::Keys, Statement::Digest] {
            let window = kind.default_window();
            let first_k = Plan::fit(
                kind,
                1,
                &FitOptions::default().window(window).statement(statement),
            )
            .k;
            let mut max_b = Vec::new();
            let mut prev = 1usize;
            for k in first_k..=MAX_K {
                let b = largest_fitting(|b| room(kind, b, window, statement, k), prev);
                eprintln!("{kind} {statement:?} k = {k}: B ≤ {b}");
                max_b.push(b);
                prev = b;
            }
            let list: Vec<String> = max_b.iter().map(|b| b.to_string()).collect();
            println!(
                "    Row {{ kind: CircuitKind::{kind:?}, statement: Statement::{statement:?}, first_k: {first_k}, max_b: &[{}] }},",
                list.join(", ")
            );
        }
    }
}

/// The largest `b ≥ prev` with `room(b) ≥ 0` (`room(prev) ≥ 0` is known), `room` decreasing
/// in `b`: a step from the slope of the rows, then exact steps at the boundary.
fn largest_fitting(mut room: impl FnMut(usize) -> i64, prev: usize) -> usize {
    let r_prev = room(prev);
    assert!(r_prev >= 0, "B = {prev} must fit");
    let probe = 2 * prev + 1;
    let r_probe = room(probe);
    let slope = ((r_prev - r_probe) as f64 / (probe - prev) as f64).max(1.0);
    // Known: lo fits; hi does not (once found).
    let (mut lo, mut r_lo) = (prev, r_prev);
    let mut hi: Option<usize> = None;
    if r_probe >= 0 {
        lo = probe;
        r_lo = r_probe;
    } else {
        hi = Some(probe);
    }
    loop {
        if let Some(h) = hi {
            if h == lo + 1 {
                return lo;
            }
        }
        // Where the slope says the room runs out, kept strictly inside (lo, hi).
        let step = ((r_lo as f64 / slope).floor() as usize).max(1);
        let mut b = lo + step;
        if let Some(h) = hi {
            b = b.min(h - 1);
        }
        let r = room(b);
        if r >= 0 {
            lo = b;
            r_lo = r;
        } else {
            hi = Some(b);
            if b > lo + 1 {
                // Just below the boundary next: the room there says how far to go.
                let c = b - 1;
                let rc = room(c);
                if rc >= 0 {
                    return c;
                }
                hi = Some(c);
            }
        }
    }
}
