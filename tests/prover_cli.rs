//! End-to-end tests of `prove` and `verify --proof` (docs/commands.md), with real proofs.
//!
//! Proofs are slow (tens of seconds each), so the proving tests use B = 1 (the smallest k of
//! the batch circuit), share one params-and-keys folder under Cargo's target tmp dir (keys
//! generated once) and run one at a time.

use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::{Mutex, MutexGuard};

use serde_json::Value;

/// Serialises the tests that prove: two proofs at once would only compete for the 2 cores.
static PROVING: Mutex<()> = Mutex::new(());

fn shared_params() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("prover-cli-params")
}

mod cli_support;
use cli_support::{run, text};

fn tmp_dir(name: &str) -> PathBuf {
    cli_support::tmp_dir("prover", name)
}

fn gen_batch(dir: &Path, count: usize, seed: u64, corrupt: &str) -> PathBuf {
    let out = dir.join(format!("b-{count}-{seed}-{corrupt}.json"));
    let (c, s, o) = (
        count.to_string(),
        seed.to_string(),
        out.display().to_string(),
    );
    let mut args = vec!["--count", &c, "--seed", &s, "--out", &o];
    if !corrupt.is_empty() {
        args.extend(["--corrupt", corrupt]);
    }
    let r = run(env!("CARGO_BIN_EXE_gen-batch"), &args);
    assert!(r.status.success(), "{}", text(&r));
    out
}

/// The start of a proving test: the proving lock, its scratch folder, the shared params
/// folder and a valid batch of one signature from `seed`.
fn proving_setup(name: &str, seed: u64) -> (MutexGuard<'static, ()>, PathBuf, PathBuf, PathBuf) {
    let guard = PROVING.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tmp_dir(name);
    let batch = gen_batch(&dir, 1, seed, "");
    (guard, dir, shared_params(), batch)
}

fn prove(args: &[&str]) -> Output {
    run(env!("CARGO_BIN_EXE_prove"), args)
}

/// `prove --batch BATCH --params-dir PARAMS --out OUT` and `extra`.
fn prove_batch(batch: &Path, params: &Path, out: &Path, extra: &[&str]) -> Output {
    let (batch, params, out) = (batch.to_str(), params.to_str(), out.to_str());
    let mut args = vec!["--batch", batch.unwrap(), "--params-dir", params.unwrap()];
    args.extend(["--out", out.unwrap()]);
    args.extend_from_slice(extra);
    prove(&args)
}

fn verify(proof: &Path, batch: Option<&Path>, params: &Path) -> Output {
    let mut args = vec![
        "--proof".to_string(),
        proof.display().to_string(),
        "--params-dir".to_string(),
        params.display().to_string(),
    ];
    if let Some(b) = batch {
        args.push("--batch".into());
        args.push(b.display().to_string());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run(env!("CARGO_BIN_EXE_verify"), &args)
}

fn last_json(o: &Output) -> Value {
    let stdout = String::from_utf8_lossy(&o.stdout);
    let line = stdout.lines().last().unwrap_or_default();
    serde_json::from_str(line).unwrap_or_else(|e| panic!("last line is not JSON ({e}): {stdout}"))
}

/// Writes `edit(proof file JSON)` next to `proof` and returns its path.
fn edited(proof: &Path, name: &str, edit: impl FnOnce(&mut Value)) -> PathBuf {
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(proof).unwrap()).unwrap();
    edit(&mut v);
    let path = proof.with_file_name(name);
    std::fs::write(&path, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    path
}

const DESIGN_KEYS: [&str; 12] = [
    "circuit",
    "batch_size",
    "k",
    "advice_columns",
    "advice_cells",
    "lookup_cells",
    "fixed_cells",
    "witness_s",
    "keygen_s",
    "prove_s",
    "verify_s",
    "proof_bytes",
];

/// `prove --transcript evm`: the proof file records the transcript, `verify` checks it with
/// that transcript, the proof is larger by 32 bytes a commitment (uncompressed points) and a
/// changed proof byte is caught; an unknown transcript is bad input.
#[test]
fn evm_transcript_proves_and_verifies() {
    let (_guard, dir, params, batch) = proving_setup("evm", 12);
    let proof = dir.join("proof.json");
    let args = |transcript: &str| {
        vec![
            "--batch".to_string(),
            batch.display().to_string(),
            "--params-dir".into(),
            params.display().to_string(),
            "--out".into(),
            proof.display().to_string(),
            "--json".into(),
            "--transcript".into(),
            transcript.into(),
            // The same statement for both transcripts (the EVM one defaults to the digest).
            "--public".into(),
            "keys".into(),
        ]
    };
    let run_prove = |transcript: &str| {
        let a = args(transcript);
        let refs: Vec<&str> = a.iter().map(String::as_str).collect();
        prove(&refs)
    };
    let o = run_prove("blake2b");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let blake_bytes = last_json(&o)["proof_bytes"].as_u64().unwrap();
    let o = run_prove("evm");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let evm_bytes = last_json(&o)["proof_bytes"].as_u64().unwrap();
    assert!(evm_bytes > blake_bytes, "{evm_bytes} vs {blake_bytes}");
    assert_eq!((evm_bytes - blake_bytes) % 32, 0, "32 bytes per commitment");
    let file: Value = serde_json::from_str(&std::fs::read_to_string(&proof).unwrap()).unwrap();
    assert_eq!(file["transcript"], "evm");
    let o = verify(&proof, Some(&batch), &params);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    // One proof byte changed.
    let tampered = dir.join("tampered.json");
    let hex = file["proof"].as_str().unwrap();
    let flipped = if &hex[100..101] == "0" { "1" } else { "0" };
    let bad = format!("{}{flipped}{}", &hex[..100], &hex[101..]);
    let text_bad = std::fs::read_to_string(&proof).unwrap().replace(hex, &bad);
    std::fs::write(&tampered, text_bad).unwrap();
    let o = verify(&tampered, None, &params);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    // One byte appended: refused, though the contract would ignore it.
    let longer = std::fs::read_to_string(&proof)
        .unwrap()
        .replace(hex, &format!("{hex}00"));
    std::fs::write(&tampered, longer).unwrap();
    let o = verify(&tampered, None, &params);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let o = run_prove("sha256");
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown transcript"));
}

/// `h` with its last hex digit changed.
fn flip_last_hex(h: &str) -> String {
    let last = if h.ends_with('0') { '1' } else { '0' };
    format!("{}{last}", &h[..h.len() - 1])
}

/// A proof-file edit.
type Edit = Box<dyn Fn(&mut Value)>;
/// The digest statement's (signing hash, address) pairs.
type Pairs = Vec<([u8; 32], [u8; 20])>;

/// The digest statement end to end at B = 2: `prove --transcript evm` states the digest by
/// default (2 public inputs; raw hashes and addresses in the file, with D); `verify --proof`
/// checks it, alone and against its batch; another batch is named signature by signature; a
/// changed address, hash or digest field is refused (exit 2: the file's D is not its records'),
/// and records changed with D recomputed to match give a proof that does not verify (exit 1).
#[test]
fn digest_statement_proves_and_verifies_and_tampering_is_caught() {
    use batch_ecdsa::hexfmt::{decode_hex_fixed, encode_hex};
    use batch_ecdsa::native::digest::batch_digest;

    let _guard = PROVING.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tmp_dir("digest");
    let params = shared_params();
    let batch = gen_batch(&dir, 2, 21, "");
    let proof = dir.join("proof.json");
    let o = prove_batch(&batch, &params, &proof, &["--transcript", "evm", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let j = last_json(&o);
    assert_eq!(j["statement"], "digest", "{j}");
    assert_eq!(j["public_inputs"], 2, "{j}");
    assert_eq!(j["self_verified"], true);

    // The file: raw hashes and addresses of the batch, in order, and their digest.
    let file: Value = serde_json::from_str(&std::fs::read_to_string(&proof).unwrap()).unwrap();
    let b: Value = serde_json::from_str(&std::fs::read_to_string(&batch).unwrap()).unwrap();
    assert_eq!(file["statement"], "digest");
    let records = file["public_inputs"].as_array().unwrap();
    assert_eq!(records.len(), 2);
    let mut pairs = Vec::new();
    for (rec, sig) in records.iter().zip(b["signatures"].as_array().unwrap()) {
        assert!(rec.get("pubkey").is_none(), "{rec}");
        assert_eq!(rec["msg_hash"], sig["msg_hash"]);
        let h: [u8; 32] = decode_hex_fixed(rec["msg_hash"].as_str().unwrap()).unwrap();
        let a: [u8; 20] = decode_hex_fixed(rec["address"].as_str().unwrap()).unwrap();
        pairs.push((h, a));
    }
    assert_eq!(file["digest"], encode_hex(&batch_digest(&pairs)).as_str());
    assert_eq!(j["digest"], file["digest"]);

    let o = verify(&proof, None, &params);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("public input: digest"));
    let o = verify(&proof, Some(&batch), &params);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("public inputs match the batch file"));
    // Another batch: each signature named, with both values.
    let other = gen_batch(&dir, 2, 22, "");
    let o = verify(&proof, Some(&other), &params);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    for i in 0..2 {
        assert!(
            out.contains(&format!("signature {i} differs: message hash")),
            "{}",
            text(&o)
        );
    }
    assert!(out.contains("address 0x"), "{}", text(&o));

    // Records or digest changed alone: the file's D is not its records'.
    let edits: [(&str, Edit); 3] = [
        (
            "address",
            Box::new(|v: &mut Value| {
                let a = v["public_inputs"][1]["address"]
                    .as_str()
                    .unwrap()
                    .to_string();
                v["public_inputs"][1]["address"] = Value::from(flip_last_hex(&a));
            }),
        ),
        (
            "msg_hash",
            Box::new(|v: &mut Value| {
                let h = v["public_inputs"][0]["msg_hash"]
                    .as_str()
                    .unwrap()
                    .to_string();
                v["public_inputs"][0]["msg_hash"] = Value::from(flip_last_hex(&h));
            }),
        ),
        (
            "digest",
            Box::new(|v: &mut Value| {
                let d = v["digest"].as_str().unwrap().to_string();
                v["digest"] = Value::from(flip_last_hex(&d));
            }),
        ),
    ];
    for (what, edit) in edits {
        let bad = edited(&proof, &format!("bad-{what}.json"), edit);
        let o = verify(&bad, None, &params);
        assert_eq!(o.status.code(), Some(2), "{what}: {}", text(&o));
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("is not the digest of the public inputs"),
            "{what}: {}",
            text(&o)
        );
    }
    // Records changed and D recomputed to match: a consistent file the proof is not for.
    let rewritten = |name: &str, change: &dyn Fn(&mut Pairs)| {
        let mut p = pairs.clone();
        change(&mut p);
        edited(&proof, name, |v| {
            for (rec, (h, a)) in v["public_inputs"]
                .as_array_mut()
                .unwrap()
                .iter_mut()
                .zip(&p)
            {
                rec["msg_hash"] = Value::from(encode_hex(h));
                rec["address"] = Value::from(encode_hex(a));
            }
            v["digest"] = Value::from(encode_hex(&batch_digest(&p)));
        })
    };
    for (name, change) in [
        (
            "other-address.json",
            &(|p: &mut Pairs| p[0].1[19] ^= 1) as &dyn Fn(&mut Pairs),
        ),
        ("swapped.json", &|p: &mut Pairs| p.swap(0, 1)),
    ] {
        let bad = rewritten(name, change);
        let o = verify(&bad, None, &params);
        assert_eq!(o.status.code(), Some(1), "{name}: {}", text(&o));
        assert!(
            String::from_utf8_lossy(&o.stdout).contains("does not verify"),
            "{name}: {}",
            text(&o)
        );
    }
    // A keys-form record in a digest file is bad input, named.
    let bad = edited(&proof, "pubkey.json", |v| {
        v["public_inputs"][0]["pubkey"] = Value::from("0x04");
    });
    let o = verify(&bad, None, &params);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("public input 0: pubkey"),
        "{}",
        text(&o)
    );
    // An unknown statement is bad input, and nothing is written.
    let none = dir.join("none.json");
    let o = prove_batch(&batch, &params, &none, &["--public", "hashes"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--public: unknown statement"));
    assert!(!none.exists());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn valid_batch_proves_and_verifies_and_tampering_is_caught() {
    let (_guard, dir, params, batch) = proving_setup("valid", 11);
    let proof = dir.join("proof.json");
    let o = prove_batch(&batch, &params, &proof, &["--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    // The default setup is the local one (τ from this machine's randomness), never the
    // fixed-seed one.
    assert!(!text(&o).contains("INSECURE"), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("setup: local setup"),
        "{}",
        text(&o)
    );
    let j = last_json(&o);
    assert_eq!(j["setup"]["kind"], "local", "{j}");
    for key in DESIGN_KEYS {
        assert!(!j[key].is_null(), "JSON key {key} missing: {j}");
    }
    assert_eq!(j["circuit"], "batch");
    assert_eq!(j["batch_size"], 1);
    assert_eq!(j["self_verified"], true);
    let proof_bytes = j["proof_bytes"].as_u64().unwrap();
    let k = j["k"].as_u64().unwrap();
    assert!(proof_bytes > 0);

    // The proof file's size is what calldata reads.
    let c = run(
        env!("CARGO_BIN_EXE_calldata"),
        &["--proof", proof.to_str().unwrap(), "--json"],
    );
    assert_eq!(c.status.code(), Some(0), "{}", text(&c));
    assert!(
        String::from_utf8_lossy(&c.stdout).contains(&proof_bytes.to_string()),
        "{}",
        text(&c)
    );
    // A keys proof file is modelled under the keys statement (its bytes are a keys proof's).
    let cj: serde_json::Value = serde_json::from_slice(&c.stdout).unwrap();
    assert_eq!(cj["params"]["statement"], "keys", "{cj}");

    // Valid, alone and against its batch file.
    let o = verify(&proof, None, &params);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let o = verify(&proof, Some(&batch), &params);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));

    // The same SRS given as a params file (as a ceremony file would be); junk there is bad
    // input.
    let tau = &j["setup"]["tau_g2"].as_str().unwrap()[2..18];
    let params_file = params.join(format!("kzg-bn254-local-{tau}-k{k}.params"));
    let with_file = |file: &Path| {
        run(
            env!("CARGO_BIN_EXE_verify"),
            &[
                "--proof",
                proof.to_str().unwrap(),
                "--params-dir",
                dir.to_str().unwrap(),
                "--params",
                file.to_str().unwrap(),
            ],
        )
    };
    let o = with_file(&params_file);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let junk = dir.join("junk.params");
    std::fs::write(&junk, b"junk params").unwrap();
    let o = with_file(&junk);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));

    // Another batch's public inputs: exit 1 naming the signature.
    let other = gen_batch(&dir, 1, 12, "");
    let o = verify(&proof, Some(&other), &params);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stdout)
            .contains("signature 0: message hash and public key differ"),
        "{}",
        text(&o)
    );

    // A changed proof byte.
    let tampered = edited(&proof, "tampered.json", |v| {
        let hex = v["proof"].as_str().unwrap().to_string();
        let mid = hex.len() / 2;
        let c = if &hex[mid..mid + 1] == "0" { "1" } else { "0" };
        v["proof"] = Value::String(format!("{}{c}{}", &hex[..mid], &hex[mid + 1..]));
    });
    let o = verify(&tampered, None, &params);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));

    // A changed public input (another valid hash): the proof no longer fits.
    let other_proof_inputs: Value =
        serde_json::from_str(&std::fs::read_to_string(&other).unwrap()).unwrap();
    let other_hash = other_proof_inputs["signatures"][0]["msg_hash"].clone();
    let swapped = edited(&proof, "swapped.json", |v| {
        v["public_inputs"][0]["msg_hash"] = other_hash;
    });
    let o = verify(&swapped, None, &params);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));

    // Another verifying-key hash: made for another circuit build.
    let vk = edited(&proof, "vk.json", |v| {
        v["vk_hash"] = Value::String(format!("0x{}", "ab".repeat(32)));
    });
    let o = verify(&vk, None, &params);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("verifying-key hash"));

    // Bad input: exit 2 with a reason.
    let cases: Vec<(PathBuf, &str)> = vec![
        (
            edited(&proof, "circuit.json", |v| v["circuit"] = "fast".into()),
            "unknown circuit",
        ),
        (
            edited(&proof, "version.json", |v| v["version"] = 7.into()),
            "version 7",
        ),
        (
            edited(&proof, "size.json", |v| v["batch_size"] = 2.into()),
            "batch_size is 2",
        ),
        (dir.join("missing.json"), "cannot read proof file"),
    ];
    for (path, reason) in cases {
        let o = verify(&path, None, &params);
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        assert!(
            String::from_utf8_lossy(&o.stderr).contains(reason),
            "{reason}: {}",
            text(&o)
        );
    }
    let o = verify(&proof, None, &dir.join("no-params"));
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stderr).contains("params for k ="));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn unchecked_invalid_batch_gives_a_proof_that_fails_verification() {
    let _guard = PROVING.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tmp_dir("unchecked");
    let params = shared_params();
    let batch = gen_batch(&dir, 1, 13, "0");
    let proof = dir.join("bad-proof.json");
    let o = prove_batch(&batch, &params, &proof, &["--unchecked", "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let j = last_json(&o);
    assert_eq!(j["self_verified"], false, "{j}");
    assert!(
        proof.exists(),
        "--unchecked writes the proof so verify can reject it"
    );
    let o = verify(&proof, None, &params);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("does not verify"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn invalid_signature_exits_one_naming_it_and_writes_nothing() {
    let dir = tmp_dir("invalid");
    let batch = gen_batch(&dir, 3, 1, "1");
    let proof = dir.join("proof.json");
    let o = prove_batch(&batch, &dir.join("params"), &proof, &[]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.starts_with("signature 1: invalid"), "{}", text(&o));
    assert_eq!(stdout.lines().count(), 1, "{}", text(&o));
    assert!(!proof.exists());
    assert!(
        !dir.join("params").exists(),
        "no params made for an invalid batch"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_input_exits_two_with_the_reason() {
    let dir = tmp_dir("bad");
    let malformed = dir.join("malformed.json");
    std::fs::write(&malformed, r#"{"signatures": [{"msg_hash": "0x12"}]}"#).unwrap();
    let proof = dir.join("proof.json");
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec!["--batch".into(), malformed.display().to_string()],
            "not valid JSON",
        ),
        (
            vec![
                "--batch".into(),
                dir.join("nope.json").display().to_string(),
            ],
            "cannot read batch file",
        ),
        (vec!["--count".into(), "0".into()], "at least 1"),
        (
            vec![
                "--count".into(),
                "1".into(),
                "--circuit".into(),
                "fast".into(),
            ],
            "unknown circuit",
        ),
    ];
    for (mut args, reason) in cases {
        args.extend(["--out".into(), proof.display().to_string()]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = prove(&args);
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        assert!(
            String::from_utf8_lossy(&o.stderr).contains(reason),
            "{reason}: {}",
            text(&o)
        );
        assert!(!proof.exists());
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn cells_only_prints_the_layout_without_proving() {
    let o = prove(&["--count", "2", "--cells-only", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let j = last_json(&o);
    for key in DESIGN_KEYS {
        assert!(j.get(key).is_some(), "JSON key {key} missing: {j}");
    }
    assert_eq!(j["batch_size"], 2);
    assert!(j["advice_cells"].as_u64().unwrap() > 100_000);
    assert!(j["advice_cells"].as_u64() > j["lookup_cells"].as_u64());
    assert!(j["prove_s"].is_null() && j["keygen_s"].is_null());
    assert_eq!(j["statement"], "keys");
    // The digest statement lays out more (the Keccak columns): its own figures.
    let o = prove(&[
        "--count",
        "2",
        "--cells-only",
        "--json",
        "--public",
        "digest",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let d = last_json(&o);
    assert_eq!(d["statement"], "digest");
    assert!(
        d["advice_cells"].as_u64() > j["advice_cells"].as_u64(),
        "{d} vs {j}"
    );
    assert!(
        d["advice_columns"].as_u64() > j["advice_columns"].as_u64(),
        "{d} vs {j}"
    );
}
