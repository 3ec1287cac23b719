//! The cells of every circuit × statement at B = 1, 2 and 32, pinned (as gnark pins its
//! constraint counts): any change to a layout shows here as a diff to review, and the figures
//! the docs quote come from this file, not from memory.
//!
//! After an intended layout change, rewrite the snapshot and review its diff:
//! `UPDATE_SNAPSHOTS=1 cargo test --release --test cells_snapshot`.

use batch_ecdsa::prover::circuit::{AnyCircuit, CircuitKind};
use batch_ecdsa_circuits::ecdsa::Statement;

const SNAPSHOT: &str = "tests/snapshots/cells.txt";

fn table() -> String {
    let mut out = String::from(
        "# circuit statement B: k rows advice_columns fixed_columns advice_cells lookup_cells fixed_cells copies advice_cells_per_signature\n",
    );
    for kind in CircuitKind::ALL {
        for statement in [Statement::Keys, Statement::Digest] {
            for b in [1usize, 2, 32] {
                let c = AnyCircuit::fitted_for_size(kind, b, statement).unwrap();
                let s = c.stats();
                out.push_str(&format!(
                    "{kind} {} B={b}: k={} rows={} advice_columns={} fixed_columns={} advice_cells={} lookup_cells={} fixed_cells={} copies={} per_signature={}\n",
                    statement.as_str(),
                    c.k(),
                    s.rows,
                    s.advice_columns,
                    s.fixed_columns,
                    s.advice_cells,
                    s.lookup_cells,
                    s.fixed_cells,
                    s.copies,
                    s.advice_cells / b,
                ));
            }
        }
    }
    out
}

#[test]
fn cells_match_the_snapshot() {
    let now = table();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(SNAPSHOT);
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, &now).unwrap();
        return;
    }
    let pinned = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{SNAPSHOT}: {e} (make it with UPDATE_SNAPSHOTS=1)"));
    if pinned != now {
        let diff: Vec<String> = pinned
            .lines()
            .zip(now.lines())
            .filter(|(a, b)| a != b)
            .map(|(a, b)| format!("- {a}\n+ {b}"))
            .collect();
        panic!(
            "the layouts changed; review and, if intended, run with UPDATE_SNAPSHOTS=1:\n{}",
            diff.join("\n")
        );
    }
}
