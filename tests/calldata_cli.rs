//! Command-line tests of the `calldata` binary: JSON output parses and carries the seed
//! example's numbers; bad arguments exit with status 2 and a message, never a panic.

use std::process::{Command, Output};

fn calldata(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_calldata"))
        .args(args)
        .output()
        .expect("the calldata binary runs")
}

#[test]
fn json_output_parses_and_reproduces_the_seed_example() {
    let out = calldata(&[
        "--json",
        "--proof-bytes",
        "131",
        "--verification-gas",
        "0",
        "--gas-price-gwei",
        "30",
        "--batches-per-day",
        "288",
        "--batch-size",
        "200",
        "--schedule",
        "calldata",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let v: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(v["batch_size"], 200);
    let sched = &v["schedules"][0];
    assert_eq!(sched["schedule"], "calldata");
    let row = sched["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["batch_size"] == 200)
        .expect("a row for B = 200");
    assert_eq!(row["without_proof"]["gas"], 204_800);
    assert_eq!(row["with_proof"]["gas"], 66_096);
    let per_day = row["saving_per_day_eth"].as_f64().unwrap();
    assert!((per_day - 1.198_402_56).abs() < 1e-9, "{per_day}");
    // 16·131 / (16·44) → break-even at B = 3 with no verification gas.
    assert_eq!(sched["break_even"]["first"], 3);
    // Default rows 1..1024 plus 200.
    assert_eq!(sched["rows"].as_array().unwrap().len(), 12);
}

#[test]
fn default_table_runs_and_names_every_schedule() {
    let out = calldata(&[]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    for s in ["[calldata]", "[floor]", "[blob]", "break-even"] {
        assert!(text.contains(s), "missing {s}:\n{text}");
    }
}

#[test]
fn proof_file_sets_the_proof_size() {
    let dir = std::env::temp_dir().join(format!("calldata-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("proof.json");
    std::fs::write(&path, format!("{{\"proof\":\"0x{}\"}}", "ab".repeat(500))).unwrap();
    let out = calldata(&["--json", "--proof", path.to_str().unwrap()]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["params"]["proof_bytes"], 500);
}

#[test]
fn bad_arguments_exit_2() {
    let cases: &[&[&str]] = &[
        &["--no-such-flag"],
        &["--signature-bytes", "63"],
        &["--batches-per-day", "0"],
        &["--batches-per-day", "-3"],
        &["--gas-price-gwei", "-1"],
        &["--gas-price-gwei", "NaN"],
        &["--sender", "index:0"],
        &["--sig-nonzero-fraction", "1.5"],
        &["--batch-size", "0"],
        &["--sizes", "1,0,4"],
        &["--blob-usable-bytes", "200000"],
        &["--proof", "/nonexistent/proof.json"],
        &["--bound", "0"],
        &["--bound", "20000000"],
        &["--signature-bytes", "65", "--sender", "index:40"],
        &["--proof-bytes", "100", "--proof", "x.json"],
    ];
    for args in cases {
        let out = calldata(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("error"), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

/// The rows of the table headed `[name]` in the text output, each as (header, cell) pairs.
fn table_rows(text: &str, name: &str) -> Vec<Vec<(String, String)>> {
    let mut lines = text
        .lines()
        .skip_while(|l| !l.starts_with(&format!("[{name}]")));
    let header_line = lines
        .find(|l| l.trim_start().starts_with("B "))
        .unwrap_or_else(|| panic!("no table [{name}] in:\n{text}"));
    // Header cells are separated by two or more spaces; cells never contain two spaces.
    let split = |l: &str| -> Vec<String> {
        l.split("  ")
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .map(str::to_string)
            .collect()
    };
    let header = split(header_line);
    lines
        .take_while(|l| !l.trim().is_empty())
        .map(|l| header.iter().cloned().zip(split(l)).collect())
        .collect()
}

fn cell<'a>(row: &'a [(String, String)], column: &str) -> &'a str {
    row.iter()
        .find(|(h, _)| h == column)
        .map(|(_, c)| c.as_str())
        .unwrap_or_else(|| panic!("no column {column:?} in {row:?}"))
}

/// The 2022 Optimism seed example as the tool printed it before the defaults moved to current
/// prices (30 gwei, 131-byte proof, no verifier, 64-byte signatures, 288 batches a day): the
/// key numbers of its EIP-2028 and EIP-7623 tables, pinned so that the example keeps
/// reproducing exactly.
const SEED_ARGS: &[&str] = &[
    "--proof-bytes",
    "131",
    "--verification-gas",
    "0",
    "--gas-price-gwei",
    "30",
    "--batches-per-day",
    "288",
    "--schedule",
    "calldata,floor",
    "--sizes",
    "1,200,1024",
    "--batch-size",
    "200",
];

#[test]
fn seed_example_text_output_is_pinned() {
    let out = calldata(SEED_ARGS);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    // (schedule, B, bytes w/o, bytes with, gas w/o, gas with, saving/batch, saving/day)
    let expect = [
        (
            "calldata",
            "1",
            "64",
            "151",
            "1,024",
            "2,416",
            "-0.000042",
            "-0.012027",
        ),
        (
            "calldata", "200*", "12,800", "4,131", "204,800", "66,096", "0.004161", "1.198403",
        ),
        (
            "calldata",
            "1,024",
            "65,536",
            "20,611",
            "1,048,576",
            "329,776",
            "0.021564",
            "6.210432",
        ),
        (
            "floor",
            "1",
            "64",
            "151",
            "2,560",
            "6,040",
            "-0.000104",
            "-0.030067",
        ),
        (
            "floor", "200*", "12,800", "4,131", "512,000", "165,240", "0.010403", "2.996006",
        ),
        (
            "floor",
            "1,024",
            "65,536",
            "20,611",
            "2,621,440",
            "824,440",
            "0.053910",
            "15.526080",
        ),
    ];
    for (schedule, b, bw, bp, gw, gp, sb, sd) in expect {
        let rows = table_rows(&text, schedule);
        let row = rows
            .iter()
            .find(|r| cell(r, "B") == b)
            .unwrap_or_else(|| panic!("[{schedule}] no row B = {b}:\n{text}"));
        for (column, value) in [
            ("bytes w/o", bw),
            ("bytes with", bp),
            ("gas w/o", gw),
            ("gas with", gp),
            ("saving/batch ETH", sb),
            ("saving/day ETH", sd),
        ] {
            assert_eq!(cell(row, column), value, "[{schedule}] B = {b}, {column}");
        }
    }
    assert_eq!(
        text.matches("break-even: B = 3 (proof path cheaper")
            .count(),
        2,
        "{text}"
    );
}
