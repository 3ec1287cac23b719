//! `results/compare.md`: the comparison table for the README, with the machine and the date.

use super::record::{batch_sizes, speedup, CircuitKind, Row};
use super::stats::{time_decimals, Summary};

/// Marks around the README table in `compare.md` (`results/repro.sh` prints what is between).
pub const TABLE_START: &str = "<!-- readme-table:start -->";
pub const TABLE_END: &str = "<!-- readme-table:end -->";

/// Everything `compare.md` states besides the rows.
#[derive(Clone, Debug)]
pub struct Header {
    /// `Machine::describe()`.
    pub machine: String,
    /// `utc_now()` at the start of the run.
    pub date: String,
    /// The command that produced the file.
    pub command: String,
    /// Repetitions of each proved point.
    pub runs: usize,
}

/// `1234567` → `1,234,567` (the calldata table's formatter, shared).
pub use crate::calldata::units::thousands;

/// A time in seconds, `mean ± stddev` with decimals chosen by its size.
pub fn seconds(s: &Summary) -> String {
    s.display(time_decimals(s.mean))
}

/// A time in milliseconds (from seconds).
pub fn millis(s: &Summary) -> String {
    let ms = Summary {
        mean: s.mean * 1e3,
        stddev: s.stddev * 1e3,
        n: s.n,
    };
    ms.display(time_decimals(ms.mean).min(2))
}

/// Bytes as MB (10⁶ bytes), one decimal.
pub fn megabytes(bytes: u64) -> String {
    format!("{:.1}", bytes as f64 / 1e6)
}

/// The README table: one line per circuit and B, proved points first, then the layout-only
/// ones (no times), and the per-signature comparison.
pub fn readme_table(rows: &[Row]) -> String {
    let mut out = String::new();
    let proved: Vec<&Row> = rows.iter().filter(|r| r.timings.is_some()).collect();
    if !proved.is_empty() {
        out += "| circuit | B | k | advice cols | advice cells | lookup cells | fixed cells \
                | witness (s) | keygen (s) | prove (s) | verify (ms) | proving key (MB) \
                | proof (bytes) | speedup (prove) |\n";
        out += "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: \
                | ---: | ---: | ---: |\n";
        for r in &proved {
            let Some(t) = r.timings else { continue };
            let sp = match r.kind {
                CircuitKind::Batch => speedup(rows, r.batch_size)
                    .and_then(|s| s.prove)
                    .map(|x| format!("**{x:.2}×**"))
                    .unwrap_or_else(|| "—".into()),
                CircuitKind::Naive => String::new(),
            };
            let mut line = point(r).to_vec();
            line.extend([
                r.cells.advice_columns.to_string(),
                cells(r),
                thousands(r.cells.lookup_cells as u64),
                thousands(r.cells.fixed_cells as u64),
                seconds(&t.witness_s),
                seconds(&t.keygen_s),
                seconds(&t.prove_s),
                millis(&t.verify_s),
                megabytes(t.pk_bytes),
                thousands(t.proof_bytes),
                sp,
            ]);
            out += &table_row(&line);
        }
        out += "\n";
    }
    out += "Per signature (advice cells / B; proving time / B):\n\n";
    out += "| B | naive cells/sig | batch cells/sig | naive / batch cells | naive prove/sig (s) \
            | batch prove/sig (s) | naive / batch prove |\n";
    out += "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n";
    for b in batch_sizes(rows) {
        let find = |kind| rows.iter().find(|r| r.kind == kind && r.batch_size == b);
        let (n, bt) = (find(CircuitKind::Naive), find(CircuitKind::Batch));
        let per_sig = |r: Option<&Row>| {
            r.map(|r| {
                let mark = if r.cells.extrapolated { "*" } else { "" };
                format!("{}{mark}", thousands(r.cells_per_sig().round() as u64))
            })
            .unwrap_or_else(|| "—".into())
        };
        let prove = |r: Option<&Row>| {
            r.and_then(Row::prove_per_sig)
                .map(|s| format!("{:.*}", time_decimals(s), s))
                .unwrap_or_else(|| "—".into())
        };
        let sp = speedup(rows, b);
        out += &format!(
            "| {b} | {} | {} | {} | {} | {} | {} |\n",
            per_sig(n),
            per_sig(bt),
            sp.map(|s| format!("{:.2}×", s.cells))
                .unwrap_or_else(|| "—".into()),
            prove(n),
            prove(bt),
            sp.and_then(|s| s.prove)
                .map(|x| format!("{x:.2}×"))
                .unwrap_or_else(|| "—".into()),
        );
    }
    out
}

/// A Markdown table row of `cells`.
fn table_row(cells: &[String]) -> String {
    format!("| {} |\n", cells.join(" | "))
}

/// The first cells of a row of either table: circuit, B, k.
fn point(r: &Row) -> [String; 3] {
    [
        r.kind.as_str().to_string(),
        r.batch_size.to_string(),
        r.cells.k.to_string(),
    ]
}

fn cells(r: &Row) -> String {
    let mark = if r.cells.extrapolated { "*" } else { "" };
    format!("{}{mark}", thousands(r.cells.advice_cells as u64))
}

/// The layout-only table: every row's cells, k and columns (no keys, no proofs).
pub fn layout_table(rows: &[Row]) -> String {
    let mut out = String::from(
        "| circuit | B | k | lookup bits | advice cols | advice cells | lookup cells \
         | fixed cells | rows | advice cells / sig | advice area (cols × 2^k) | fill |\n\
         | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n",
    );
    for r in rows {
        let mut line = point(r).to_vec();
        line.extend([
            r.cells.lookup_bits.to_string(),
            r.cells.advice_columns.to_string(),
            cells(r),
            thousands(r.cells.lookup_cells as u64),
            thousands(r.cells.fixed_cells as u64),
            thousands(r.cells.rows as u64),
            thousands(r.cells_per_sig().round() as u64),
            thousands(r.cells.advice_area()),
            format!("{:.0}%", 100.0 * r.cells.fill()),
        ]);
        out += &table_row(&line);
    }
    out
}

/// The whole `compare.md`.
pub fn document(h: &Header, rows: &[Row]) -> String {
    let runs = if h.runs > 1 {
        format!(
            "{} runs per proved point; times are mean ± sample standard deviation",
            h.runs
        )
    } else {
        "1 run per proved point (no standard deviation)".to_string()
    };
    let any_extrapolated = rows.iter().any(|r| r.cells.extrapolated);
    let mut out = format!(
        "# Naive vs batch ECDSA circuit\n\n\
         - Machine: {}\n- Date: {}\n- Command: `{}`\n- {runs}.\n\n",
        h.machine, h.date, h.command
    );
    out += "Both circuits prove the same statement for B secp256k1 ECDSA* signatures (public: \
            each message hash and public key); KZG over BN254 (halo2-axiom), SHPLONK, the \
            insecure development setup (its generation is not timed). The naive circuit \
            verifies each signature on its own; the batch circuit checks one random linear \
            combination with a challenge drawn after the signatures are committed. Each \
            circuit is fitted to its smallest k (lookup bits k − 1).\n\n";
    out += TABLE_START;
    out += "\n\n";
    out += &readme_table(rows);
    out += "\n";
    out += TABLE_END;
    out += "\n\n";
    out += &format!(
        "Columns: *advice cells* counts every assigned advice cell, the looked-up range \
         chunks included; *lookup cells* is the looked-up subset (not extra cells); *fixed \
         cells*: one per range-table row plus the assigned fixed cells (constants, \
         coefficients), as `prove --json` counts them. *witness*: the native check of the \
         batch and the circuit's witness (layout with values), as the prover API times it; \
         *keygen*: verifying key + proving key; *verify*: per run the median of {} \
         verifications of its proof; *proving key*: its serialized size; *speedup*: naive \
         proving time / batch proving time at the same B. In the layout table, *advice \
         area* is columns × 2^k, what keygen and the prover interpolate and commit to \
         whether used or not (their first-order cost), and *fill* the used fraction of it.",
        super::timing::VERIFY_REPEATS
    );
    if any_extrapolated {
        out += " Cell counts marked * are extrapolated: the naive circuit is B independent \
                verifications, so its layout is `shared + B·per` exactly; the two terms are \
                fitted to layouts of B = 1 and 2 at the same lookup bits.";
    }
    out += "\n\n## Layout of every B (no keys, no proofs)\n\n";
    out += &layout_table(rows);
    out += "\n## Peers (published figures, not measured here)\n\n\
            - halo2-ecc 0.5.5 `ecdsa_verify_no_pubkey_check` (measured on this project's \
            machine, `benches/halo2-ecc-cells`): 520,159 advice + 79,492 lookup cells per \
            signature (its lookup cells are extra copies: 599,651 in all).\n\
            - circom-ecdsa (0xPARC, Groth16): 1,508,136 constraints per signature; 175 s \
            witness + 45 s proving.\n\
            - circom batch-ecdsa (puma314): B = 32 in 15.3M constraints, proof 522 s.\n\n\
            Plot: `compare.svg` (cost per signature against B). Raw figures: `compare.csv`. \
            Regenerate: `results/repro.sh`.\n";
    out
}

#[cfg(test)]
mod tests {
    use super::super::record::fixtures::pair;
    use super::*;

    #[test]
    fn unit_formats() {
        assert_eq!(seconds(&Summary::single(27.43)), "27.4");
        assert_eq!(millis(&Summary::single(0.0131)), "13.1");
        assert_eq!(
            millis(&Summary::of(&[0.010, 0.012]).expect("v")),
            "11.0 ± 1.4"
        );
        assert_eq!(megabytes(153_456_789), "153.5");
    }

    #[test]
    fn readme_table_has_both_kinds_and_the_speedup() {
        let mut rows = pair(1, true).to_vec();
        rows.extend(pair(2, true));
        rows.extend(pair(64, false));
        let t = readme_table(&rows);
        // Header + separator + 4 proved lines, blank, title, blank, header, separator, 3 B.
        let proved: Vec<&str> = t
            .lines()
            .filter(|l| l.starts_with("| naive |") || l.starts_with("| batch |"))
            .collect();
        assert_eq!(proved.len(), 4, "{t}");
        // B = 2: naive 40 s, batch 30 s.
        assert!(
            t.contains("| batch | 2 | 17 | 11 | 240,000 | 120,000 | 1,000 | 0.500 | 11.0 ± 1.4 | 30.0 | 12.0 | 150.0 | 11,904 | **1.33×** |"),
            "{t}"
        );
        // Per-signature lines: B = 64 laid out only.
        assert!(
            t.contains("| 64 | 120,000 | 61,875 | 1.94× | — | — | — |"),
            "{t}"
        );
        assert!(
            t.contains("| 1 | 120,000 | 180,000 | 0.67× | 20.0 | 20.0 | 1.00× |"),
            "{t}"
        );
    }

    #[test]
    fn document_states_machine_date_and_markers() {
        let rows = pair(1, true);
        let h = Header {
            machine: "Test CPU, 2 logical cores".into(),
            date: "2026-11-30 00:23 UTC".into(),
            command: "cargo bench --bench compare".into(),
            runs: 3,
        };
        let d = document(&h, &rows);
        assert!(d.contains("- Machine: Test CPU, 2 logical cores"));
        assert!(d.contains("- Date: 2026-11-30 00:23 UTC"));
        assert!(d.contains("3 runs per proved point"));
        let (s, e) = (
            d.find(TABLE_START).expect("start"),
            d.find(TABLE_END).expect("end"),
        );
        assert!(s < e);
        assert!(!d.contains("extrapolated"));
        // Layout table: area 11 · 2^17 = 1,441,792; fill 120,000 / area = 8%.
        assert!(d.contains("| 120,000 | 1,441,792 | 8% |"), "{d}");
        let mut ext = rows;
        ext[0].cells.extrapolated = true;
        assert!(document(&h, &ext).contains("extrapolated"));
    }
}
