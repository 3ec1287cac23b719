//! `results/compare.csv`: one line per circuit and B, every figure, machine-readable.

use super::record::{speedup, Row};
use super::stats::Summary;

/// The CSV header (column names match `prove --json` keys where both exist).
pub const HEADER: &str = "circuit,batch_size,k,lookup_bits,advice_columns,advice_cells,\
lookup_cells,fixed_cells,rows,cells_extrapolated,runs,witness_s,witness_s_std,keygen_s,\
keygen_s_std,prove_s,prove_s_std,verify_s,verify_s_std,pk_bytes,proof_bytes,\
advice_cells_per_sig,prove_s_per_sig,speedup_cells,speedup_prove,advice_area,advice_fill";

fn opt<T: ToString>(v: Option<T>) -> String {
    v.map(|x| x.to_string()).unwrap_or_default()
}

fn mean_std(s: Option<Summary>) -> [String; 2] {
    [opt(s.map(|s| s.mean)), opt(s.map(|s| s.stddev))]
}

/// The whole CSV; empty fields where a figure was not measured (B above the proved range,
/// speedups where one circuit is missing).
pub fn document(rows: &[Row]) -> String {
    let mut out = String::from(HEADER);
    out.push('\n');
    for r in rows {
        let t = r.timings;
        let sp = speedup(rows, r.batch_size);
        let mut fields = vec![
            r.kind.as_str().to_string(),
            r.batch_size.to_string(),
            r.cells.k.to_string(),
            r.cells.lookup_bits.to_string(),
            r.cells.advice_columns.to_string(),
            r.cells.advice_cells.to_string(),
            r.cells.lookup_cells.to_string(),
            r.cells.fixed_cells.to_string(),
            r.cells.rows.to_string(),
            r.cells.extrapolated.to_string(),
            opt(t.map(|t| t.prove_s.n)),
        ];
        fields.extend(mean_std(t.map(|t| t.witness_s)));
        fields.extend(mean_std(t.map(|t| t.keygen_s)));
        fields.extend(mean_std(t.map(|t| t.prove_s)));
        fields.extend(mean_std(t.map(|t| t.verify_s)));
        fields.push(opt(t.map(|t| t.pk_bytes)));
        fields.push(opt(t.map(|t| t.proof_bytes)));
        fields.push(format!("{:.1}", r.cells_per_sig()));
        fields.push(opt(r.prove_per_sig()));
        fields.push(opt(sp.map(|s| format!("{:.4}", s.cells))));
        fields.push(opt(sp.and_then(|s| s.prove).map(|x| format!("{x:.4}"))));
        fields.push(r.cells.advice_area().to_string());
        fields.push(format!("{:.4}", r.cells.fill()));
        out += &fields.join(",");
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::record::fixtures::pair;
    use super::*;

    #[test]
    fn one_line_per_row_with_every_column() {
        let mut rows = pair(2, true).to_vec();
        rows.extend(pair(64, false));
        let csv = document(&rows);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 5);
        let width = HEADER.split(',').count();
        for l in &lines {
            assert_eq!(l.split(',').count(), width, "{l}");
        }
        assert_eq!(
            lines[2],
            "batch,2,17,16,11,240000,120000,1000,50000,false,1,0.5,0,11,1.4142135623730951,\
             30,0,0.012,0,150000000,11904,120000.0,15,1.0000,1.3333,1441792,0.1665"
        );
        // Layout-only: times empty, cells speedup present.
        assert_eq!(
            lines[3],
            "naive,64,17,16,11,7680000,3840000,1000,1600000,false,,,,,,,,,,,,120000.0,,1.9394,,\
             1441792,5.3267"
        );
    }
}
