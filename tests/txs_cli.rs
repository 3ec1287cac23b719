//! End-to-end tests of the signed-transaction commands: `gen-batch --txs`, `verify --native
//! --txs`, `--strip-out`, `calldata --txs`, and `gen-batch --txs` → `prove --txs` → `verify
//! --proof` at B = 4 with four transaction types (k = 15, params and keys under Cargo's target
//! tmp dir).

use std::path::{Path, PathBuf};
use std::process::Output;

use batch_ecdsa::txs::strip::StrippedFile;
use serde_json::Value;

mod cli_support;
use cli_support::{run, text};

fn tmp_dir(name: &str) -> PathBuf {
    cli_support::tmp_dir("txs", name)
}

/// `verify --native --txs TXS --strip-out STRIP` and `extra`.
fn verify_txs(txs: &Path, strip: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["--txs", s(txs), "--strip-out", s(strip)];
    args.extend_from_slice(extra);
    verify_native(&args)
}

/// `prove --txs TXS --out OUT --params-dir PARAMS --strip-out STRIP` and `extra`.
fn prove_txs(txs: &Path, out: &Path, params: &Path, strip: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["--txs", s(txs), "--out", s(out), "--params-dir", s(params)];
    args.extend(["--strip-out", s(strip)]);
    args.extend_from_slice(extra);
    run(env!("CARGO_BIN_EXE_prove"), &args)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn gen_txs(dir: &Path, count: usize, seed: u64) -> PathBuf {
    let out = dir.join(format!("txs-{count}-{seed}.txt"));
    let o = run(
        env!("CARGO_BIN_EXE_gen-batch"),
        &[
            "--txs",
            "--count",
            &count.to_string(),
            "--seed",
            &seed.to_string(),
            "--out",
            s(&out),
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    out
}

fn verify_native(args: &[&str]) -> Output {
    let mut all = vec!["--native"];
    all.extend_from_slice(args);
    run(env!("CARGO_BIN_EXE_verify"), &all)
}

#[test]
fn gen_verify_strip_and_calldata() {
    let dir = tmp_dir("native");
    let txs = gen_txs(&dir, 6, 1);
    // Deterministic.
    let again = dir.join("again.txt");
    let o = run(
        env!("CARGO_BIN_EXE_gen-batch"),
        &["--txs", "--count", "6", "--seed", "1", "--out", s(&again)],
    );
    assert!(o.status.success());
    assert_eq!(std::fs::read(&txs).unwrap(), std::fs::read(&again).unwrap());
    let lines = std::fs::read_to_string(&txs).unwrap();
    let firsts: Vec<&str> = lines.lines().map(|l| &l[..4]).collect();
    // legacy (0xf8…), 1559, 4844, 7702, 2930, legacy
    assert_eq!(firsts[1..5], ["0x02", "0x03", "0x04", "0x01"]);
    assert!(firsts[0].starts_with("0xf") && firsts[5].starts_with("0xf"));

    let strip = dir.join("stripped.json");
    let o = verify_txs(&txs, &strip, &["--chain-id", "1"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("ok: all 6 transactions valid"), "{out}");
    assert!(out.contains("saved by stripping"), "{out}");
    let f = StrippedFile::parse(&std::fs::read_to_string(&strip).unwrap()).unwrap();
    assert_eq!(f.transactions.len(), 6);
    let b = f.bytes;
    assert_eq!(b.count, 6);
    assert_eq!(b.stripped.raw, b.unsigned.raw + 6 * 20);
    // Each signature is ~65-67 raw bytes on the wire (v, r, s with RLP headers); the
    // unsigned legacy EIP-155 payload adds chain_id, 0, 0 back.
    assert!(b.signed.raw - b.unsigned.raw > 6 * 60, "{b:?}");
    assert!(
        b.signed.zlib > b.stripped.zlib && b.signed.brotli > b.stripped.brotli,
        "{b:?}"
    );
    // JSON array input gives the same.
    let arr = dir.join("txs.json");
    let hexes: Vec<&str> = lines.lines().collect();
    std::fs::write(&arr, serde_json::to_string(&hexes).unwrap()).unwrap();
    let o = verify_native(&["--txs", s(&arr)]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));

    // calldata takes the stripped file, or the transactions file, as real byte counts.
    for (input, comp, field) in [
        (&strip, "brotli", "brotli"),
        (&txs, "zlib", "zlib"),
        (&txs, "none", "raw"),
    ] {
        let o = run(
            env!("CARGO_BIN_EXE_calldata"),
            &["--txs", s(input), "--compressor", comp, "--json"],
        );
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
        let v: Value = serde_json::from_slice(&o.stdout).unwrap();
        let m = &v["params"]["measured_txs"];
        assert_eq!(m["count"], 6);
        let sizes = serde_json::to_value(b).unwrap();
        assert_eq!(m["signed_bytes"], sizes["signed"][field]);
        assert_eq!(m["stripped_bytes"], sizes["stripped"][field]);
        assert_eq!(v["batch_size"], 6);
        // The signature path posts the measured signature bytes, not 64 a signature.
        let sig =
            sizes["signed"][field].as_u64().unwrap() - sizes["unsigned"][field].as_u64().unwrap();
        let row = v["schedules"][0]["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["batch_size"] == 6)
            .unwrap();
        assert_eq!(
            row["without_proof"]["calldata_bytes"].as_u64().unwrap()
                + row["without_proof"]["blob_bytes"].as_u64().unwrap(),
            sig
        );
    }
    let o = run(
        env!("CARGO_BIN_EXE_calldata"),
        &["--txs", s(&txs), "--signature", "rs"],
    );
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn bad_transactions_are_named_and_nothing_is_written() {
    let dir = tmp_dir("bad");
    let txs = gen_txs(&dir, 6, 2);
    let strip = dir.join("stripped.json");
    std::fs::write(&strip, "old").unwrap();

    // Another chain: invalid (exit 1), each named.
    let o = verify_txs(&txs, &strip, &["--chain-id", "5"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    for i in 0..5 {
        assert!(
            err.contains(&format!(
                "error: transaction {i}: invalid: chain id 1 is not the batch's chain id 5"
            )),
            "{err}"
        );
    }
    assert!(!err.contains("transaction 5:"), "{err}"); // legacy without EIP-155 names no chain
                                                       // Pre-EIP-155 legacy when EIP-155 is required.
    let o = verify_txs(&txs, &strip, &["--require-eip155"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stderr)
        .contains("error: transaction 5: invalid: legacy transaction without EIP-155"));

    // Malformed: a trailing byte on transaction 2, an unknown type on 4 (exit 2).
    let mut lines: Vec<String> = std::fs::read_to_string(&txs)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    lines[2].push_str("00");
    lines[4].replace_range(2..4, "07");
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, lines.join("\n")).unwrap();
    let o = verify_native(&["--txs", s(&bad), "--strip-out", s(&strip)]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("error: transaction 2: 1 trailing byte(s) after the transaction"),
        "{err}"
    );
    assert!(
        err.contains("error: transaction 4: unknown transaction type 0x07"),
        "{err}"
    );
    // Nothing proved either, before any params are touched.
    let params = dir.join("params");
    let o = prove_txs(&bad, &dir.join("p.json"), &params, &strip, &[]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(!dir.join("p.json").exists() && !params.exists());
    assert_eq!(std::fs::read_to_string(&strip).unwrap(), "old");
    // Bad hex, empty files, an unreadable file.
    for (content, needle) in [
        ("0x02zz\n", "error: transaction 0: bad hex"),
        ("# nothing\n", "holds no transactions"),
        ("[1]", "not a JSON array"),
    ] {
        std::fs::write(&bad, content).unwrap();
        let o = verify_native(&["--txs", s(&bad)]);
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        assert!(
            String::from_utf8_lossy(&o.stderr).contains(needle),
            "{}",
            text(&o)
        );
    }
    let o = verify_native(&["--txs", s(&dir.join("missing.txt"))]);
    assert_eq!(o.status.code(), Some(2));
    // --txs and --batch together are refused by the argument parser.
    let o = verify_native(&["--txs", s(&txs), "--batch", s(&txs)]);
    assert_eq!(o.status.code(), Some(2));
}

/// gen-batch --txs → prove --txs (B = 4: legacy EIP-155, EIP-1559, EIP-4844, EIP-7702) →
/// verify --proof, with and without the transactions; other transactions do not match.
#[test]
fn prove_txs_end_to_end_at_b4() {
    let dir = tmp_dir("prove");
    let params = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("txs-cli-params");
    let txs = gen_txs(&dir, 4, 1);
    let proof = dir.join("proof.json");
    let strip = dir.join("stripped.json");
    let o = prove_txs(
        &txs,
        &proof,
        &params,
        &strip,
        &["--chain-id", "1", "--json"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let stdout = String::from_utf8_lossy(&o.stdout);
    let v: Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert_eq!(v["batch_size"], 4);
    assert_eq!(v["self_verified"], true);
    assert!(v["k"].as_u64().unwrap() <= 15, "{v}");
    let f = StrippedFile::parse(&std::fs::read_to_string(&strip).unwrap()).unwrap();
    let types: Vec<&str> = f.transactions.iter().map(|t| t.tx_type.as_str()).collect();
    assert_eq!(types, ["legacy", "EIP-1559", "EIP-4844", "EIP-7702"]);

    let verify = |extra: &[&str]| {
        let mut args = vec!["--proof", s(&proof), "--params-dir", s(&params)];
        args.extend_from_slice(extra);
        run(env!("CARGO_BIN_EXE_verify"), &args)
    };
    let o = verify(&[]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let o = verify(&["--txs", s(&txs)]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("public inputs match the transactions"));
    let other = gen_txs(&dir, 4, 2);
    let o = verify(&["--txs", s(&other)]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    // The proof's public inputs are the transactions' signing hashes and recovered keys.
    let pf: Value = serde_json::from_str(&std::fs::read_to_string(&proof).unwrap()).unwrap();
    for (pi, t) in pf["public_inputs"]
        .as_array()
        .unwrap()
        .iter()
        .zip(&f.transactions)
    {
        assert_eq!(pi["msg_hash"].as_str().unwrap(), t.signing_hash);
    }
}

/// The digest statement of transactions (B = 2, k = 14): the proof's records are each
/// transaction's signing hash and recovered sender; `verify --proof --txs` accepts the same
/// transactions and names each differing one in others.
#[test]
fn digest_proof_of_transactions_matches_them() {
    let dir = tmp_dir("digest");
    let params = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("txs-cli-params");
    let txs = gen_txs(&dir, 2, 3);
    let proof = dir.join("proof.json");
    let strip = dir.join("stripped.json");
    let o = prove_txs(
        &txs,
        &proof,
        &params,
        &strip,
        &["--chain-id", "1", "--public", "digest", "--json"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let stdout = String::from_utf8_lossy(&o.stdout);
    let v: Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert_eq!(
        (v["statement"].as_str(), v["public_inputs"].as_u64()),
        (Some("digest"), Some(2))
    );
    let f = StrippedFile::parse(&std::fs::read_to_string(&strip).unwrap()).unwrap();
    let pf: Value = serde_json::from_str(&std::fs::read_to_string(&proof).unwrap()).unwrap();
    assert_eq!(pf["statement"], "digest");
    let records = pf["public_inputs"].as_array().unwrap();
    assert_eq!(records.len(), f.transactions.len());
    for (rec, t) in records.iter().zip(&f.transactions) {
        assert_eq!(rec["msg_hash"].as_str().unwrap(), t.signing_hash);
        assert_eq!(rec["address"].as_str().unwrap(), t.sender);
    }

    let verify = |extra: &[&str]| {
        let mut args = vec!["--proof", s(&proof), "--params-dir", s(&params)];
        args.extend_from_slice(extra);
        run(env!("CARGO_BIN_EXE_verify"), &args)
    };
    let o = verify(&["--txs", s(&txs)]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("public inputs match the transactions"));
    let other = gen_txs(&dir, 2, 4);
    let o = verify(&["--txs", s(&other)]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("transaction 0 differs: signing hash 0x") && out.contains("sender 0x"),
        "{}",
        text(&o)
    );
    assert!(out.contains("not for these transactions"), "{}", text(&o));
    std::fs::remove_dir_all(&dir).ok();
}
