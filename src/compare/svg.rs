//! `results/compare.svg`: cost per signature against B (log₂ x-axis), naive against batch, in
//! three panels: advice cells per signature (every row), proving time per signature (proved
//! rows) and advice area (columns × 2^k) per signature (every row). Hand-written SVG, no
//! plotting crate.

use std::fmt::Write;

use super::record::{CircuitKind, Row};

const PANEL_W: f64 = 460.0;
const PANEL_H: f64 = 340.0;
const MARGIN_L: f64 = 70.0;
const MARGIN_R: f64 = 20.0;
const MARGIN_T: f64 = 40.0;
const MARGIN_B: f64 = 50.0;

fn color(kind: CircuitKind) -> &'static str {
    match kind {
        CircuitKind::Naive => "#d62728",
        CircuitKind::Batch => "#1f77b4",
    }
}

/// Escapes the five XML special characters.
pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&apos;")
}

/// A "nice" axis maximum and step for data up to `max` (steps of 1, 2 or 5 × 10ⁿ, three to
/// seven ticks). `max ≤ 0` gives the axis [0, 1].
pub fn nice_axis(max: f64) -> (f64, f64) {
    if max.is_nan() || max <= 0.0 || !max.is_finite() {
        return (1.0, 0.2);
    }
    let raw = max / 6.0;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw * (1.0 - 1e-9))
        .unwrap_or(10.0 * mag);
    ((max / step).ceil() * step, step)
}

/// A tick label: thousands as "k", millions as "M", small values with enough decimals.
pub fn tick_label(v: f64) -> String {
    let a = v.abs();
    if a >= 1e6 {
        format!("{}M", trim(v / 1e6))
    } else if a >= 1e3 {
        format!("{}k", trim(v / 1e3))
    } else {
        trim(v)
    }
}

fn trim(v: f64) -> String {
    let s = format!("{v:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s.is_empty() || s == "-0" {
        "0".into()
    } else {
        s.to_string()
    }
}

/// One series point: B, value, extrapolated.
type Point = (usize, f64, bool);

struct Panel<'a> {
    title: &'a str,
    y_label: &'a str,
    series: Vec<(CircuitKind, Vec<Point>)>,
}

fn draw_panel(out: &mut String, x0: f64, p: &Panel, bs: &[usize]) {
    let (pl, pr) = (x0 + MARGIN_L, x0 + PANEL_W - MARGIN_R);
    let (pt, pb) = (MARGIN_T, PANEL_H - MARGIN_B);
    let _ = writeln!(
        out,
        r#"<text x="{:.1}" y="22" text-anchor="middle" font-size="15" font-weight="bold">{}</text>"#,
        (pl + pr) / 2.0,
        escape(p.title)
    );
    let all: Vec<f64> = p
        .series
        .iter()
        .flat_map(|s| s.1.iter().map(|q| q.1))
        .collect();
    if all.is_empty() {
        let _ = writeln!(
            out,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="middle" font-size="13" fill="#666">not measured in this run</text>"##,
            (pl + pr) / 2.0,
            (pt + pb) / 2.0
        );
        return;
    }
    let (ymax, ystep) = nice_axis(all.iter().cloned().fold(0.0, f64::max));
    let lg = |b: usize| (b.max(1) as f64).log2();
    let (xmin, xmax) = (
        bs.first().map_or(0.0, |b| lg(*b)),
        bs.last().map_or(1.0, |b| lg(*b)),
    );
    let span = if xmax > xmin { xmax - xmin } else { 1.0 };
    let sx = |b: usize| pl + 10.0 + (lg(b) - xmin) / span * (pr - pl - 20.0);
    let sy = |v: f64| pb - v / ymax * (pb - pt);
    // Grid and y ticks.
    let mut v = 0.0;
    while v <= ymax * (1.0 + 1e-9) {
        let y = sy(v);
        let _ = writeln!(
            out,
            "<line x1=\"{pl:.1}\" y1=\"{y:.1}\" x2=\"{pr:.1}\" y2=\"{y:.1}\" stroke=\"#ddd\"/>\n\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\" font-size=\"11\">{}</text>",
            pl - 6.0,
            y + 4.0,
            tick_label(v)
        );
        v += ystep;
    }
    // x ticks at each B.
    for &b in bs {
        let x = sx(b);
        let _ = writeln!(
            out,
            "<line x1=\"{x:.1}\" y1=\"{pb:.1}\" x2=\"{x:.1}\" y2=\"{:.1}\" stroke=\"#000\"/>\n\
             <text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-size=\"11\">{b}</text>",
            pb + 5.0,
            pb + 18.0
        );
    }
    let _ = writeln!(
        out,
        "<rect x=\"{pl:.1}\" y=\"{pt:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"none\" stroke=\"#000\"/>\n\
         <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-size=\"12\">batch size B (log scale)</text>\n\
         <text transform=\"translate({:.1},{:.1}) rotate(-90)\" text-anchor=\"middle\" font-size=\"12\">{}</text>",
        pr - pl,
        pb - pt,
        (pl + pr) / 2.0,
        pb + 38.0,
        x0 + 16.0,
        (pt + pb) / 2.0,
        escape(p.y_label)
    );
    for (kind, pts) in &p.series {
        if pts.is_empty() {
            continue;
        }
        let path: Vec<String> = pts
            .iter()
            .map(|(b, v, _)| format!("{:.1},{:.1}", sx(*b), sy(*v)))
            .collect();
        let _ = writeln!(
            out,
            r#"<polyline points="{}" fill="none" stroke="{}" stroke-width="2"/>"#,
            path.join(" "),
            color(*kind)
        );
        for (b, v, extrapolated) in pts {
            let fill = if *extrapolated { "#fff" } else { color(*kind) };
            let _ = writeln!(
                out,
                r#"<circle cx="{:.1}" cy="{:.1}" r="3.5" fill="{fill}" stroke="{}" stroke-width="1.5"/>"#,
                sx(*b),
                sy(*v),
                color(*kind)
            );
        }
    }
}

/// The whole SVG for `rows`.
pub fn document(rows: &[Row]) -> String {
    let bs = super::record::batch_sizes(rows);
    let series = |f: &dyn Fn(&Row) -> Option<f64>| -> Vec<(CircuitKind, Vec<Point>)> {
        CircuitKind::ALL
            .iter()
            .map(|k| {
                let mut pts: Vec<Point> = rows
                    .iter()
                    .filter(|r| r.kind == *k)
                    .filter_map(|r| f(r).map(|v| (r.batch_size, v, r.cells.extrapolated)))
                    .collect();
                pts.sort_by_key(|p| p.0);
                (*k, pts)
            })
            .collect()
    };
    let cells = Panel {
        title: "Advice cells per signature",
        y_label: "advice cells / B",
        series: series(&|r| Some(r.cells_per_sig())),
    };
    let mut prove = Panel {
        title: "Proving time per signature",
        y_label: "seconds / B",
        series: series(&|r| r.prove_per_sig()),
    };
    for s in &mut prove.series {
        for p in &mut s.1 {
            p.2 = false; // times are always measured
        }
    }
    // The advice area (columns × 2^k) is what keygen and proving pay for, used or not: it
    // explains proving times the cell counts alone do not (e.g. a half-empty column group).
    let area = Panel {
        title: "Advice area per signature",
        y_label: "advice columns × 2^k / B",
        series: series(&|r| Some(r.cells.advice_area() as f64 / r.batch_size.max(1) as f64)),
    };
    let width = 3.0 * PANEL_W;
    let height = PANEL_H + 30.0;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" \
         viewBox=\"0 0 {width:.0} {height:.0}\" font-family=\"sans-serif\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n"
    );
    draw_panel(&mut out, 0.0, &cells, &bs);
    draw_panel(&mut out, PANEL_W, &prove, &bs);
    draw_panel(&mut out, 2.0 * PANEL_W, &area, &bs);
    // Legend.
    let ly = PANEL_H + 12.0;
    let mut lx = 1.5 * PANEL_W - 180.0;
    for k in CircuitKind::ALL {
        let _ = writeln!(
            out,
            "<line x1=\"{lx:.1}\" y1=\"{ly:.1}\" x2=\"{:.1}\" y2=\"{ly:.1}\" stroke=\"{}\" stroke-width=\"2\"/>\n\
             <circle cx=\"{:.1}\" cy=\"{ly:.1}\" r=\"3.5\" fill=\"{}\"/>\n\
             <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"12\">{} circuit</text>",
            lx + 24.0,
            color(k),
            lx + 12.0,
            color(k),
            lx + 30.0,
            ly + 4.0,
            k.as_str()
        );
        lx += 130.0;
    }
    if rows.iter().any(|r| r.cells.extrapolated) {
        let _ = writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" fill=\"#444\">hollow: cells extrapolated (shared + B·per)</text>",
            lx + 10.0,
            ly + 4.0
        );
    }
    out += "</svg>\n";
    out
}

#[cfg(test)]
mod tests {
    use super::super::record::fixtures::pair;
    use super::*;

    #[test]
    fn nice_axes() {
        assert_eq!(nice_axis(186_358.0), (200_000.0, 50_000.0));
        assert_eq!(nice_axis(9.3), (10.0, 2.0));
        assert_eq!(nice_axis(0.0), (1.0, 0.2));
        let (m, s) = nice_axis(27.4);
        assert!((m - 30.0).abs() < 1e-9 && (s - 5.0).abs() < 1e-9, "{m} {s}");
    }

    #[test]
    fn tick_labels() {
        let cases = [
            (0.0, "0"),
            (50_000.0, "50k"),
            (2_500_000.0, "2.5M"),
            (0.2, "0.2"),
            (12.0, "12"),
        ];
        for (value, label) in cases {
            assert_eq!(tick_label(value), label);
        }
    }

    #[test]
    fn escapes_xml() {
        assert_eq!(escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
    }

    #[test]
    fn svg_has_both_series_in_both_panels() {
        let mut rows = pair(1, true).to_vec();
        rows.extend(pair(2, true));
        rows.extend(pair(256, false));
        rows[4].cells.extrapolated = true;
        let svg = document(&rows);
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(svg.trim_end().ends_with("</svg>"));
        // Cells and area: 3 points per kind; proving: 2 points per kind → 6 polylines, 16
        // markers (+2 legend markers).
        assert_eq!(svg.matches("<polyline").count(), 6);
        assert_eq!(svg.matches("<circle").count(), 18);
        assert_eq!(svg.matches("fill=\"#fff\" stroke=").count(), 2);
        assert!(svg.contains(">256</text>"));
        assert!(svg.contains("hollow: cells extrapolated"));
        // Balanced tags: every opened text closes.
        assert_eq!(svg.matches("<text").count(), svg.matches("</text>").count());
    }

    #[test]
    fn svg_without_proofs_says_so() {
        let rows = pair(4, false);
        let svg = document(&rows);
        assert!(svg.contains("not measured in this run"));
        assert_eq!(svg.matches("<polyline").count(), 4);
    }
}
