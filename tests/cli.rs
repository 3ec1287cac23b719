//! End-to-end tests of the command line: `gen-batch` and `verify --native`.

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::{json, Value};

mod cli_support;
use cli_support::{assert_exit, run};

fn tmp_dir(name: &str) -> PathBuf {
    cli_support::tmp_dir("cli", name)
}

fn gen_batch(dir: &Path, count: usize, seed: u64, corrupt: &str) -> PathBuf {
    let out = dir.join(format!("b-{count}-{seed}-{corrupt}.json"));
    let mut args = vec![
        "--count".to_string(),
        count.to_string(),
        "--seed".to_string(),
        seed.to_string(),
        "--out".to_string(),
        out.display().to_string(),
    ];
    if !corrupt.is_empty() {
        args.push("--corrupt".into());
        args.push(corrupt.into());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = run(env!("CARGO_BIN_EXE_gen-batch"), &args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    out
}

fn verify_native(path: &Path) -> Output {
    run(
        env!("CARGO_BIN_EXE_verify"),
        &["--native", "--batch", path.to_str().unwrap()],
    )
}

#[test]
fn valid_batch_exits_zero_and_is_deterministic() {
    let dir = tmp_dir("valid");
    let a = gen_batch(&dir, 64, 1, "");
    let o = verify_native(&a);
    assert_exit(&o, 0, "");
    assert!(String::from_utf8_lossy(&o.stdout).contains("all 64 signatures valid"));
    // Same seed, same file.
    let b = dir.join("again.json");
    let o = run(
        env!("CARGO_BIN_EXE_gen-batch"),
        &["--count", "64", "--seed", "1", "--out", b.to_str().unwrap()],
    );
    assert!(o.status.success());
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
}

#[test]
fn corrupted_signatures_are_named() {
    let dir = tmp_dir("corrupt");
    let path = gen_batch(&dir, 64, 1, "5,17");
    let o = verify_native(&path);
    assert_eq!(o.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&o.stdout);
    let named: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("signature "))
        .collect();
    assert_eq!(named.len(), 2, "{stdout}");
    assert!(named[0].starts_with("signature 5: invalid"), "{stdout}");
    assert!(named[1].starts_with("signature 17: invalid"), "{stdout}");
}

#[test]
fn corrupt_index_out_of_range_is_bad_input() {
    let dir = tmp_dir("corrupt-range");
    let out = dir.join("x.json");
    let o = run(
        env!("CARGO_BIN_EXE_gen-batch"),
        &[
            "--count",
            "4",
            "--corrupt",
            "4",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(!out.exists(), "nothing may be written on an error");
}

/// Takes a valid 4-signature batch, applies `edit` to signature 2, and returns verify's output.
fn verify_edited(name: &str, edit: impl FnOnce(&mut Value)) -> Output {
    let dir = tmp_dir(name);
    let path = gen_batch(&dir, 4, 7, "");
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    edit(&mut v["signatures"][2]);
    let edited = dir.join("edited.json");
    std::fs::write(&edited, serde_json::to_string(&v).unwrap()).unwrap();
    verify_native(&edited)
}

/// Exit code 2 and exactly one stderr line, naming signature 2 and containing `reason`.
fn assert_bad_input(o: &Output, reason: &str) {
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "stderr: {stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{stderr}");
    assert!(lines[0].contains("signature 2"), "{stderr}");
    assert!(
        lines[0].to_lowercase().contains(&reason.to_lowercase()),
        "expected {reason:?} in {stderr}"
    );
}

/// An edit of one signature record in a batch file.
type Edit = Box<dyn FnOnce(&mut Value)>;

/// The edit that sets the signature's `field` to `value`.
fn set(field: &'static str, value: Value) -> Edit {
    Box::new(move |s| s[field] = value)
}

/// `0x` and `byte` (two hex digits) `n` times.
fn repeated(byte: &str, n: usize) -> Value {
    json!(format!("0x{}", byte.repeat(n)))
}

const N_HEX: &str = "0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141";
const P_HEX: &str = "fffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2f";

#[test]
fn malformed_fields_exit_two_with_index_and_reason() {
    let cases: Vec<(&str, Edit, &str)> = vec![
        ("badhex", set("r", json!("0xzz")), "r: bad hex"),
        (
            "shorthash",
            set("msg_hash", json!("0x1234")),
            "msg_hash: expected 32 bytes",
        ),
        ("rzero", set("r", repeated("00", 32)), "r is zero"),
        ("szero", set("s", repeated("00", 32)), "s is zero"),
        ("sn", set("s", json!(N_HEX)), "s >= n"),
        ("rbig", set("r", repeated("ff", 32)), "r >= n"),
        ("v", set("v", json!(29)), "v = 29"),
        (
            "offcurve",
            set(
                "pubkey",
                json!(format!("0x04{}{}", "11".repeat(32), "22".repeat(32))),
            ),
            "pubkey: point not on curve",
        ),
        (
            "xgep",
            set("pubkey", json!(format!("0x02{P_HEX}"))),
            "pubkey: public key x >= p",
        ),
        (
            "keylen",
            set("pubkey", json!("0x04abcd")),
            "pubkey: uncompressed public key must be 65 bytes",
        ),
        (
            "addr",
            set("address", repeated("ab", 20)),
            "does not match the public key",
        ),
        (
            "nokey",
            Box::new(|s| {
                let o = s.as_object_mut().unwrap();
                o.remove("v");
                o.remove("pubkey");
            }),
            "neither pubkey nor v",
        ),
    ];
    for (name, edit, reason) in cases {
        let o = verify_edited(name, edit);
        assert_bad_input(&o, reason);
    }
}

#[test]
fn whole_file_errors_exit_two() {
    let dir = tmp_dir("file");
    let empty = dir.join("empty.json");
    std::fs::write(&empty, r#"{"signatures": []}"#).unwrap();
    let o = verify_native(&empty);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("empty"));

    let garbage = dir.join("garbage.json");
    std::fs::write(&garbage, "this is not json").unwrap();
    let o = verify_native(&garbage);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not valid JSON"));

    let o = verify_native(&dir.join("missing.json"));
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot read"));
}

#[test]
fn recovered_key_with_wrong_address_is_invalid() {
    // No pubkey: Q is recovered from (h, r, s, v); a different address means the signature
    // was not made by that account: a well-formed but invalid signature, exit 1.
    let o = verify_edited("recaddr", |s| {
        s.as_object_mut().unwrap().remove("pubkey");
        s["address"] = json!(format!("0x{}", "ab".repeat(20)));
    });
    assert_eq!(o.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.contains("signature 2: invalid"), "{stdout}");
}

#[test]
fn recovery_without_pubkey_verifies() {
    let o = verify_edited("recover", |s| {
        s.as_object_mut().unwrap().remove("pubkey");
    });
    assert_exit(&o, 0, "");
}

#[test]
fn flipped_v_is_invalid_not_malformed() {
    let o = verify_edited("flip-v", |s| {
        // The other parity: R is then −R, which fails the equation.
        let v = s["v"].as_u64().unwrap();
        s["v"] = json!(v ^ 1);
    });
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stdout).contains("signature 2: invalid"));
}

#[test]
fn recovery_id_with_no_point_is_invalid() {
    // v = 2 asks for x = r + n, which is ≥ p for any r of a real signature: no nonce point.
    let o = verify_edited("v2", |s| s["v"] = json!(2));
    assert_eq!(o.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        stdout.contains("signature 2: invalid: nonce point from (r, v)"),
        "{stdout}"
    );
}

/// `prove --for`: `ethereum` hands over to `prove-aggregated` (built beside `prove`, or a named
/// error saying how to build it); anything else is refused. A flag prove-aggregated does not
/// know makes the hand-over fail fast whichever binary answers, so no 15-minute proof runs.
#[test]
fn prove_for_names_its_targets() {
    let prove = env!("CARGO_BIN_EXE_prove");
    let o = run(prove, &["--for", "nonsense", "--count", "1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("expected `batch`"));
    let o = run(prove, &["--for=ethereum", "--no-such-flag"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("not built beside this binary") || err.contains("--no-such-flag"),
        "{err}"
    );
}
