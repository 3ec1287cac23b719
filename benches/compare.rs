//! The comparison table: the naive against the batch ECDSA circuit for a list of batch sizes.
//!
//! ```text
//! cargo bench --bench compare -- [--sizes 1,2,4,...] [--max-prove-b 32] [--runs N]
//!     [--kinds naive,batch] [--naive-layout-max-b 32] [--cells-only] [--out results]
//! ```
//!
//! Every B is laid out (cells, k, columns); the B up to `--max-prove-b` also get keys and
//! proofs, `--runs` times (mean ± sample standard deviation). Writes `compare.md` (with the
//! machine and the date), `compare.csv` and `compare.svg` under `--out` after every row, so an
//! interrupted run leaves what it measured; prints the README table at the end.
//! `results/repro.sh` runs it with the settings of the published table.

use std::time::Instant;

use batch_ecdsa::compare::cells::{demo_witnesses, extrapolated_naive_cells, fitted_cells};
use batch_ecdsa::compare::machine::{utc_now, Machine};
use batch_ecdsa::compare::markdown::{self, Header};
use batch_ecdsa::compare::options::Options;
use batch_ecdsa::compare::record::{CircuitKind, Row};
use batch_ecdsa::compare::timing::measure;
use batch_ecdsa::compare::{csv, svg};
use clap::Parser;

fn write_results(opts: &Options, header: &Header, rows: &[Row]) -> Result<(), String> {
    std::fs::create_dir_all(&opts.out)
        .map_err(|e| format!("cannot create {}: {e}", opts.out.display()))?;
    for (name, text) in [
        ("compare.md", markdown::document(header, rows)),
        ("compare.csv", csv::document(rows)),
        ("compare.svg", svg::document(rows)),
    ] {
        let path = opts.out.join(name);
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

fn row(opts: &Options, kind: CircuitKind, b: usize) -> Result<Row, String> {
    let log = |s: &str| eprintln!("{s}");
    if opts.proves(b) {
        let (cells, timings) = measure(kind, b, opts.runs, &opts.params_dir, &log)?;
        return Ok(Row {
            kind,
            batch_size: b,
            cells,
            timings: Some(timings),
        });
    }
    let t = Instant::now();
    let cells = if kind == CircuitKind::Naive && b > opts.naive_layout_max_b {
        extrapolated_naive_cells(b)
    } else {
        fitted_cells(kind, &demo_witnesses(b)?)?
    };
    eprintln!(
        "[{} B={b}] layout only: k = {}, {} advice cells{} ({:.1} s)",
        kind.as_str(),
        cells.k,
        cells.advice_cells,
        if cells.extrapolated {
            " (extrapolated)"
        } else {
            ""
        },
        t.elapsed().as_secs_f64()
    );
    Ok(Row {
        kind,
        batch_size: b,
        cells,
        timings: None,
    })
}

fn run(opts: &Options) -> Result<Vec<Row>, String> {
    let machine = Machine::detect();
    let header = Header {
        machine: machine.describe(),
        date: utc_now(),
        command: opts.command(),
        runs: opts.runs as usize,
    };
    eprintln!("compare: {}", header.command);
    eprintln!("machine: {}", header.machine);
    let start = Instant::now();
    let mut rows = Vec::new();
    for &b in &opts.sizes.0 {
        for &kind in &opts.kinds.0 {
            rows.push(row(opts, kind, b)?);
            write_results(opts, &header, &rows)?;
        }
    }
    eprintln!(
        "done in {:.0} s; wrote {}/compare.{{md,csv,svg}}",
        start.elapsed().as_secs_f64(),
        opts.out.display()
    );
    Ok(rows)
}

fn main() {
    let opts = Options::parse();
    match run(&opts) {
        Ok(rows) => print!("{}", markdown::readme_table(&rows)),
        Err(e) => {
            eprintln!("compare: {e}");
            std::process::exit(1);
        }
    }
}
