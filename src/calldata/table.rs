//! Plain-text rendering of a [`Report`]: inputs with their origin, the answer per segment, one
//! table per schedule and one for the `ecrecover` segment, and the notes.

use super::limits::{
    ECRECOVER_SIGNATURE_BYTES, MAX_BLOBS_PER_BLOCK, MAX_BLOBS_PER_TX, MAX_CODE_BYTES,
    POINT_EVALUATION_GAS, TX_GAS_LIMIT_CAP,
};
use super::measured::Origin;
use super::model::{BreakEven, Capacity, Comparison};
use super::params::{BlobRounding, Headroom, Schedule};
use super::schedule::OP_STACK_BLOB_PAYLOAD_BYTES;
use super::statement::Statement;
use super::units::thousands;
use super::units::{wei_to_eth, WEI_PER_GWEI};
use super::{Report, ScheduleReport};
use std::fmt::Write;

fn gwei(wei: u128) -> String {
    let g = wei as f64 / WEI_PER_GWEI as f64;
    let s = format!("{g:.9}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}

fn eth(wei: i128) -> String {
    format!("{:.6}", wei_to_eth(wei))
}

fn opt(n: Option<u64>) -> String {
    n.map_or("none".to_string(), thousands)
}

fn describe(s: Schedule) -> &'static str {
    match s {
        Schedule::Calldata => {
            "EIP-2028 calldata (before Pectra), 16 / 4 gas per non-zero / zero byte"
        }
        Schedule::Floor => {
            "EIP-7623 floor (mainnet), 21000 + max(16/4 per byte + exec, 40/10 per byte)"
        }
        Schedule::Eip7976 => {
            "EIP-7976 floor (proposed, Glamsterdam), 21000 + max(16/4 per byte + exec, 64 per byte)"
        }
        Schedule::Blob => {
            "EIP-4844 blobs for signatures / senders; proof in calldata (EIP-7623) + binding"
        }
    }
}

/// `"B = 192"`, `"never up to B = 1,000,000"`, or first and stable-from when they differ.
fn break_even_short(be: &BreakEven, var: &str) -> String {
    match (be.first, be.stable_from) {
        (None, _) => format!("no {var} (up to {})", thousands(be.bound)),
        (Some(f), Some(s)) if f == s => format!("{var} = {}", thousands(f)),
        (Some(f), Some(s)) => format!(
            "{var} = {} (for every {var} from {} on)",
            thousands(f),
            thousands(s)
        ),
        (Some(f), None) => format!(
            "{var} = {} (but not at {var} = {})",
            thousands(f),
            thousands(be.bound)
        ),
    }
}

fn break_even_line(be: &BreakEven, var: &str) -> String {
    match (be.first, be.stable_from) {
        (None, _) => format!(
            "break-even: never (proof path not cheaper for any {var} up to {})",
            thousands(be.bound)
        ),
        (Some(f), Some(s)) if f == s => format!(
            "break-even: {var} = {} (proof path cheaper for every {var} from there up to {})",
            thousands(f),
            thousands(be.bound)
        ),
        (Some(f), Some(s)) => format!(
            "break-even: first cheaper at {var} = {}, cheaper for every {var} from {} up to {}",
            thousands(f),
            thousands(s),
            thousands(be.bound)
        ),
        (Some(f), None) => format!(
            "break-even: first cheaper at {var} = {}, but not at {var} = {}",
            thousands(f),
            thousands(be.bound)
        ),
    }
}

fn capacity_text(c: &Capacity) -> String {
    format!(
        "at most B = {} without proof, {} with",
        opt(c.without_proof),
        opt(c.with_proof)
    )
}

fn inputs(out: &mut String, r: &Report) {
    let p = &r.params;
    let _ = writeln!(out, "scenario: {}", r.scenario.name());
    if let Some(statement) = p.statement {
        let _ = writeln!(out, "statement: {}", super::statement::describe(statement));
    }
    let _ = writeln!(
        out,
        "inputs: proof {} B ({})",
        thousands(p.proof_bytes),
        p.proof_origin
    );
    if p.statement == Some(Statement::Keys) || p.public_input_words > 0 {
        let _ = writeln!(
            out,
            "        public inputs: {} words of 32 B per signature beside the proof",
            p.public_input_words
        );
    }
    let _ = writeln!(
        out,
        "        verification {} gas ({})",
        thousands(p.verification_gas),
        p.verification_origin
    );
    if let Some(w) = &p.wrapper {
        let b = r.batch_size;
        let beyond = |extrapolated: bool| {
            if extrapolated {
                format!(
                    ", extrapolated beyond B = {}",
                    w.transactions.max_measured()
                )
            } else {
                String::new()
            }
        };
        let _ = writeln!(
            out,
            "        + digest wrapper at B = {}: {} gas (verifyTransactions, rollups{}), {} gas \
             (verifyHashes, bridges{}); runtime code {} B ({})",
            thousands(b),
            thousands(w.transactions.at(b)),
            beyond(w.transactions.extrapolated(b)),
            thousands(w.hashes.at(b)),
            beyond(w.hashes.extrapolated(b)),
            thousands(w.runtime_code_bytes),
            Origin::Measured(w.origin_note())
        );
        if let Some(k) = p.key_size {
            let _ = writeln!(
                out,
                "        + filler slots: proofs on a key for K = {}; a batch of B < K pays K − B \
                 filler slots in the wrapper, {} gas each ({} at B = {}; measured: \
                 verifyHashes with 1 of {} pairs posted)",
                thousands(k),
                w.filler_slot_gas
                    .map_or_else(|| "unmeasured, 0".to_string(), thousands),
                thousands(w.filler_gas(b, k)),
                thousands(b),
                w.hashes.max_measured()
            );
        }
    }
    if p.framing_bytes > 0 {
        let _ = writeln!(
            out,
            "        payload framing: {} B length prefix per payload on the rollup proof path \
             (the wrapper's verifyTransactions input; a signed transaction's RLP is \
             self-delimiting, so the signature path posts none)",
            p.framing_bytes
        );
    }
    if let Some(row) = &r.verifier_bench {
        if let Some(code) = row.runtime_code_bytes.filter(|&c| c > MAX_CODE_BYTES) {
            let _ = writeln!(
                out,
                "        WARNING: the verifier's runtime code is {} B, above EIP-170's {} B: it \
                 cannot be deployed as one contract",
                thousands(code),
                thousands(MAX_CODE_BYTES)
            );
        }
    }
    match &p.measured_txs {
        Some(m) => {
            let _ = writeln!(
                out,
                "        measured on {} real transactions ({}), compressed with {:?}: signed {} B, \
                 unsigned {} B, stripped (unsigned + senders) {} B",
                m.count,
                m.source,
                m.compressor,
                thousands(m.signed_bytes),
                thousands(m.unsigned_bytes),
                thousands(m.stripped_bytes)
            );
            let _ = writeln!(
                out,
                "        signatures {:.1} B per transaction (signed - unsigned), senders {:.1} B per \
                 transaction (stripped - unsigned), as non-zero bytes",
                m.signature_bytes() as f64 / m.count as f64,
                m.sender_bytes() as f64 / m.count as f64
            );
        }
        None => {
            let _ = writeln!(
                out,
                "        signature {}, {}% non-zero; sender {}",
                p.signature,
                p.signature_nonzero_fraction * 100.0,
                p.sender
            );
        }
    }
    let _ = writeln!(
        out,
        "        base fee {} gwei + priority fee {} gwei; blob base fee {} gwei ({})",
        gwei(p.base_fee_wei),
        gwei(p.priority_fee_wei),
        gwei(r.blob_base_fee_wei),
        if p.blob_base_fee_wei.is_some() {
            "given"
        } else {
            "EIP-7918 reserve = base fee / 16"
        }
    );
    let _ = writeln!(
        out,
        "        blobs: {} usable B{}, {} blobs; proof bound to a blob of senders at {} gas per blob",
        thousands(p.blob_usable_bytes),
        if p.blob_usable_bytes == OP_STACK_BLOB_PAYLOAD_BYTES {
            " (OP Stack encoding)"
        } else {
            ""
        },
        match p.blob_rounding {
            BlobRounding::Whole => "whole",
            BlobRounding::Prorata => "pro rata",
        },
        thousands(p.blob_binding_gas)
    );
    let _ = writeln!(
        out,
        "        floor headroom: {}; {} batches/day",
        p.headroom,
        thousands(p.batches_per_day)
    );
    let ecrecover = format!(
        "ecrecover path: 3,000 + {} gas per signature",
        thousands(p.ecrecover_loop_gas)
    );
    let base = format!("{} gas per call", thousands(p.ecrecover_base_gas));
    let _ = if p.ecrecover_loop_origin == p.ecrecover_base_origin {
        writeln!(
            out,
            "        {ecrecover} + {base} ({})",
            p.ecrecover_loop_origin
        )
    } else {
        writeln!(
            out,
            "        {ecrecover} ({}) + {base} ({})",
            p.ecrecover_loop_origin, p.ecrecover_base_origin
        )
    };
}

fn answers(out: &mut String, r: &Report) {
    let a = &r.answers;
    let full_note = if r.params.headroom == Headroom::Full {
        String::new()
    } else {
        format!(
            "; from {} when the batch's other calldata keeps its transaction on the floor \
             (--floor-headroom full)",
            break_even_short(&a.floor_full_headroom, "B")
        )
    };
    let _ = writeln!(
        out,
        "answers (computed below; a break-even is a ratio of gas, the same at any base fee while \
         the blob fee is the EIP-7918 reserve and no priority fee is set):"
    );
    let _ = writeln!(
        out,
        "  calldata posters, EIP-7623 floor (mainnet): the proof pays from {}{}",
        break_even_short(&a.floor, "B"),
        full_note
    );
    let _ = writeln!(
        out,
        "  calldata posters, EIP-7976 floor (proposed): from {}; from {} with full headroom",
        break_even_short(&a.eip7976, "B"),
        break_even_short(&a.eip7976_full_headroom, "B")
    );
    let fee = if r.params.blob_base_fee_wei.is_some() {
        format!("blob base fee {} gwei", gwei(r.blob_base_fee_wei))
    } else {
        "blob fee at the EIP-7918 reserve".to_string()
    };
    let _ = writeln!(
        out,
        "  blob posters ({fee}): {}",
        blob_answer(a.blob, a.blob_one_tx, a.blob_one_block)
    );
    let _ = writeln!(
        out,
        "  bridges and committees (ecrecover, {} gas + {} B calldata per signature, {} gas per \
         call): one proof pays from {}",
        thousands(3_000 + r.params.ecrecover_loop_gas),
        ECRECOVER_SIGNATURE_BYTES,
        thousands(r.params.ecrecover_base_gas),
        break_even_short(&a.bridge, "N")
    );
}

fn blob_answer(be: BreakEven, tx: Capacity, block: Capacity) -> String {
    let Some(first) = be.first else {
        return format!(
            "a proof verified in execution gas does not pay for any B up to {}",
            thousands(be.bound)
        );
    };
    let per_tx = tx.without_proof.unwrap_or(0);
    let per_block = block.without_proof.unwrap_or(0);
    let limits = format!(
        "one transaction's {MAX_BLOBS_PER_TX} blobs hold {} signatures, one block's \
         {MAX_BLOBS_PER_BLOCK} blobs {}",
        thousands(per_tx),
        thousands(per_block)
    );
    if first > per_block {
        format!(
            "a proof verified in execution gas does not pay: first cheaper at {}, but {limits}",
            break_even_short(&be, "B")
        )
    } else if first > per_tx {
        format!(
            "pays from {} only across several blob transactions: {limits}",
            break_even_short(&be, "B")
        )
    } else {
        format!("the proof pays from {}", break_even_short(&be, "B"))
    }
}

fn fits(c: &Comparison) -> &'static str {
    match (c.without_proof.fit.one_tx, c.with_proof.fit.one_tx) {
        (true, true) => "yes",
        (false, true) => "w/o: no",
        (true, false) => "with: no",
        (false, false) => "no",
    }
}

fn rows_table(out: &mut String, rows: &[Comparison], var: &str, blob: bool, marked: u64) {
    let mut header = vec![var, "bytes w/o", "bytes with", "gas w/o", "gas with"];
    if blob {
        header.extend(["blob gas w/o", "blob gas with"]);
    }
    header.extend([
        "fee w/o ETH",
        "fee with ETH",
        "saving/batch ETH",
        "saving/day ETH",
        "one tx",
    ]);
    let rows: Vec<Vec<String>> = rows
        .iter()
        .map(|c| {
            let mark = if c.batch_size == marked { "*" } else { "" };
            let mut r = vec![
                format!("{}{mark}", thousands(c.batch_size)),
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
            r.push(fits(c).to_string());
            r
        })
        .collect();
    let widths: Vec<usize> = header
        .iter()
        .enumerate()
        .map(|(i, h)| {
            rows.iter()
                .map(|r| r[i].chars().count())
                .chain(std::iter::once(h.chars().count()))
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

fn schedule_section(out: &mut String, sr: &ScheduleReport, marked: u64) {
    let _ = writeln!(out);
    let _ = writeln!(out, "[{}] {}", sr.schedule.name(), describe(sr.schedule));
    let _ = writeln!(out, "{}", break_even_line(&sr.break_even, "B"));
    if let Some(full) = &sr.break_even_full_headroom {
        let _ = writeln!(
            out,
            "  with full floor headroom (--floor-headroom full): {}",
            break_even_short(full, "B")
        );
    }
    let _ = writeln!(
        out,
        "one transaction ({} gas, EIP-7825{}): {}",
        thousands(TX_GAS_LIMIT_CAP),
        if sr.schedule == Schedule::Blob {
            format!("; {MAX_BLOBS_PER_TX} blobs, EIP-7594")
        } else {
            String::new()
        },
        capacity_text(&sr.one_tx)
    );
    if let Some(block) = &sr.one_block {
        let _ = writeln!(
            out,
            "one block ({MAX_BLOBS_PER_BLOCK} blobs, BPO2): {}",
            capacity_text(block)
        );
    }
    rows_table(out, &sr.rows, "B", sr.schedule == Schedule::Blob, marked);
}

/// Renders the whole report as text.
pub fn render(report: &Report) -> String {
    let mut out = String::new();
    inputs(&mut out, report);
    let _ = writeln!(out);
    answers(&mut out, report);
    for sr in &report.schedules {
        schedule_section(&mut out, sr, report.batch_size);
    }
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "[bridge] N signatures checked on chain: w/o = N x ecrecover ({} B, 3,000 + {} gas each, \
         + {} gas per call), with = one proof + N senders{}; EIP-7623 pricing",
        ECRECOVER_SIGNATURE_BYTES,
        thousands(report.params.ecrecover_loop_gas),
        thousands(report.params.ecrecover_base_gas),
        if report.params.wrapper.is_some() {
            " through the digest wrapper's verifyHashes"
        } else {
            ""
        }
    );
    let _ = writeln!(out, "{}", break_even_line(&report.bridge.break_even, "N"));
    rows_table(&mut out, &report.bridge.rows, "N", false, 0);
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "notes: gas = what the payload adds to its transaction (data + execution), without the \
         21,000 base both paths pay;"
    );
    let with = if report.params.wrapper.is_some() {
        "proof + B senders + their payloads' length prefixes, verified by the verifier and the \
         digest wrapper (its gas at each B)"
    } else {
        "proof + B senders"
    };
    let _ = writeln!(
        out,
        "  w/o = B signatures, with = {with}; * = --batch-size; one tx = each path fits one \
         transaction (<= {} gas, <= {MAX_BLOBS_PER_TX} blobs)",
        thousands(TX_GAS_LIMIT_CAP)
    );
    let _ = writeln!(
        out,
        "  blob path: binding the proof to the senders' blob costs one point evaluation ({} gas, \
         EIP-4844) per blob, counted; the circuit would also have to open the blob (prove the \
         blob polynomial's value at the challenge point), which this project's circuit does not \
         do: not counted",
        thousands(POINT_EVALUATION_GAS)
    );
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
        assert_eq!(gwei(62_500_000), "0.0625");
    }

    #[test]
    fn blob_answer_names_the_limit_it_passes() {
        let cap = |n| Capacity {
            without_proof: Some(n),
            with_proof: Some(n),
        };
        let be = |f| BreakEven {
            first: Some(f),
            stable_from: Some(f),
            bound: 1_000_000,
        };
        assert!(blob_answer(be(50_000), cap(12_000), cap(42_000)).contains("does not pay"));
        assert!(blob_answer(be(20_000), cap(12_000), cap(42_000)).contains("several"));
        assert!(blob_answer(be(100), cap(12_000), cap(42_000)).starts_with("the proof pays"));
        let never = BreakEven {
            first: None,
            stable_from: None,
            bound: 10,
        };
        assert!(blob_answer(never, cap(1), cap(1)).contains("does not pay for any B"));
    }
}
