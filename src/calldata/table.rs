//! Plain-text rendering of a [`Report`]: one table per schedule, rows over B.

use super::model::{wei_to_eth, BlobRounding, Schedule, WEI_PER_GWEI};
use super::{Report, ScheduleReport};
use std::fmt::Write;

/// `1234567` → `"1,234,567"`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    // Groups of three digits from the right; all ASCII, so byte chunks are whole characters.
    let mut groups: Vec<&str> = digits
        .as_bytes()
        .rchunks(3)
        .map(|g| std::str::from_utf8(g).unwrap_or(""))
        .collect();
    groups.reverse();
    groups.join(",")
}

fn gwei(wei: u128) -> String {
    let g = wei as f64 / WEI_PER_GWEI as f64;
    let s = format!("{g:.9}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}

fn eth(wei: i128) -> String {
    format!("{:.6}", wei_to_eth(wei))
}

fn describe(s: Schedule) -> &'static str {
    match s {
        Schedule::Calldata => "EIP-2028 calldata, 16 / 4 gas per non-zero / zero byte",
        Schedule::Floor => {
            "EIP-7623 floor, 21000 + max(4*tokens + exec, 10*tokens) (shown without the 21000)"
        }
        Schedule::Blob => "EIP-4844 blobs for signatures / senders; proof in calldata (EIP-7623)",
    }
}

fn break_even_line(sr: &ScheduleReport) -> String {
    let be = &sr.break_even;
    match (be.first, be.stable_from) {
        (None, _) => format!(
            "break-even: never (proof path not cheaper for any B up to {})",
            thousands(be.bound)
        ),
        (Some(f), Some(s)) if f == s => format!(
            "break-even: B = {} (proof path cheaper for every B from there up to {})",
            thousands(f),
            thousands(be.bound)
        ),
        (Some(f), Some(s)) => format!(
            "break-even: first cheaper at B = {}, cheaper for every B from {} up to {}",
            thousands(f),
            thousands(s),
            thousands(be.bound)
        ),
        (Some(f), None) => format!(
            "break-even: first cheaper at B = {}, but not at B = {}",
            thousands(f),
            thousands(be.bound)
        ),
    }
}

/// Renders the whole report as text.
pub fn render(report: &Report) -> String {
    let p = &report.params;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "inputs: signature {} B ({}% non-zero), sender {}, proof {} B, verification {} gas",
        p.signature_bytes,
        p.signature_nonzero_fraction * 100.0,
        p.sender,
        thousands(p.proof_bytes),
        thousands(p.verification_gas),
    );
    let _ = writeln!(
        out,
        "        gas price {} gwei, blob base fee {} gwei, {} batches/day, blob {} usable B ({} blobs)",
        gwei(p.gas_price_wei),
        gwei(p.blob_base_fee_wei),
        thousands(p.batches_per_day),
        thousands(p.blob_usable_bytes),
        match p.blob_rounding {
            BlobRounding::Whole => "whole",
            BlobRounding::Prorata => "pro rata",
        },
    );
    let _ = writeln!(
        out,
        "gas = data + verification gas, without the 21,000 base both paths pay; \
         w/o = B signatures, with = proof + B senders"
    );
    for sr in &report.schedules {
        let blob = sr.schedule == Schedule::Blob;
        let _ = writeln!(out);
        let _ = writeln!(out, "[{}] {}", sr.schedule.name(), describe(sr.schedule));
        let _ = writeln!(out, "{}", break_even_line(sr));
        let mut header = vec!["B", "bytes w/o", "bytes with", "gas w/o", "gas with"];
        if blob {
            header.extend(["blob gas w/o", "blob gas with"]);
        }
        header.extend([
            "fee w/o ETH",
            "fee with ETH",
            "saving/batch ETH",
            "saving/day ETH",
        ]);
        let rows: Vec<Vec<String>> = sr
            .rows
            .iter()
            .map(|c| {
                let mut r = vec![
                    format!(
                        "{}{}",
                        thousands(c.batch_size),
                        if c.batch_size == report.batch_size {
                            "*"
                        } else {
                            ""
                        }
                    ),
                    thousands(c.without_proof.bytes()),
                    thousands(c.with_proof.bytes()),
                    thousands(c.without_proof.gas),
                    thousands(c.with_proof.gas),
                ];
                if blob {
                    r.push(thousands(c.without_proof.blob_gas));
                    r.push(thousands(c.with_proof.blob_gas));
                }
                let fee = |w: u128| eth(i128::try_from(w).unwrap_or(i128::MAX));
                r.push(fee(c.without_proof.fee_wei));
                r.push(fee(c.with_proof.fee_wei));
                r.push(eth(c.saving_per_batch_wei));
                r.push(format!("{:.6}", c.saving_per_day_eth));
                r
            })
            .collect();
        let widths: Vec<usize> = header
            .iter()
            .enumerate()
            .map(|(i, h)| {
                rows.iter()
                    .map(|r| r[i].len())
                    .chain(std::iter::once(h.len()))
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let line = |cells: &[String]| -> String {
            cells
                .iter()
                .zip(&widths)
                .map(|(c, w)| format!("{c:>w$}"))
                .collect::<Vec<_>>()
                .join("  ")
        };
        let header: Vec<String> = header.iter().map(|s| s.to_string()).collect();
        let _ = writeln!(out, "{}", line(&header));
        for r in &rows {
            let _ = writeln!(out, "{}", line(r));
        }
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "* = --batch-size");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }

    #[test]
    fn gwei_trims_zeros() {
        assert_eq!(gwei(30 * WEI_PER_GWEI), "30");
        assert_eq!(gwei(1_875_000_000), "1.875");
    }
}
