//! The bad-input suite: every file format a stranger can hand a command, mutated field by
//! field and byte by byte, through the library's own parsers in-process, and a sample through
//! the binaries. Each refusal must be an error (a panic fails the test), short (long values
//! are clipped), and an oversized claim must be refused before any circuit is laid out (the
//! work is counted through the verifier's progress phases, not timed).
//!
//! The fuzz targets at the end (proptest) run a bounded number of cases here
//! (`BAD_INPUT_CASES`, default 256 each); the long run is
//! `BAD_INPUT_CASES=200000 cargo test --release --test bad_input fuzz_`.

mod cli_support;

use std::cell::RefCell;
use std::path::Path;

use batch_ecdsa::batch_file::BatchFile;
use batch_ecdsa::prover::api::{Phase, Progress, Verifier};
use batch_ecdsa::prover::proof::ProofFile;
use batch_ecdsa::prover::srs::{file as srs_file, SetupSource};
use batch_ecdsa::txs::decode::decode_signed_tx;
use batch_ecdsa::txs::file::parse_txs_text;
use batch_ecdsa::txs::strip::StrippedFile;
use batch_ecdsa::txs::{SignedTxs, TxPolicy};
use batch_ecdsa_circuits::limits;
use proptest::prelude::*;
use serde_json::Value;

const PROOF_KEYS: &str = include_str!("fixtures/bad-input/proof-b2.json");
const PROOF_DIGEST: &str = include_str!("fixtures/bad-input/proof-digest-b2.json");

/// The longest refusal message any mutant may produce (values are clipped to 120 characters).
const MAX_MESSAGE: usize = 600;

// ---------------------------------------------------------------------------------------
// Mutants of a JSON document
// ---------------------------------------------------------------------------------------

/// Values every field is replaced with in turn: wrong types, huge and negative numbers,
/// empty and very long strings.
fn hostile_values() -> Vec<Value> {
    vec![
        Value::Null,
        Value::Bool(true),
        serde_json::json!(-1),
        serde_json::json!(0),
        serde_json::json!(1.5),
        serde_json::json!(u64::MAX),
        serde_json::from_str("18446744073709551616").unwrap(),
        serde_json::from_str("1e308").unwrap(),
        Value::String(String::new()),
        Value::String("0x".into()),
        Value::String("0x".to_string() + &"ff".repeat(40_000)),
        Value::String("z".repeat(100_000)),
        serde_json::json!([]),
        serde_json::json!({}),
        serde_json::from_str("[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]").unwrap(),
    ]
}

/// Every mutant of `doc`: each field (at every depth, array items included) removed and
/// replaced by each [`hostile_values`]; an unknown key added to each object; each object's
/// first key given twice; then the text truncated at 40 places and 200 single bit flips
/// (positions from a fixed-seed generator).
fn mutants(doc: &str) -> Vec<String> {
    let root: Value = serde_json::from_str(doc).unwrap();
    let mut out = Vec::new();
    let mut paths = Vec::new();
    collect_paths(&root, &mut Vec::new(), &mut paths);
    for path in &paths {
        let mut removed = root.clone();
        remove_at(&mut removed, path);
        out.push(removed.to_string());
        for v in hostile_values() {
            let mut replaced = root.clone();
            *pointer_mut(&mut replaced, path) = v;
            out.push(replaced.to_string());
        }
    }
    for path in std::iter::once(&Vec::new()).chain(paths.iter()) {
        if let Value::Object(map) = pointer_mut(&mut root.clone(), path) {
            let mut added = root.clone();
            if let Value::Object(m) = pointer_mut(&mut added, path) {
                m.insert("unexpected_field".into(), Value::Bool(true));
            }
            out.push(added.to_string());
            if let Some((k, v)) = map.iter().next() {
                // A key twice: only the text can say that.
                let compact = root.to_string();
                let needle = format!("\"{k}\":{v}");
                if let Some(at) = compact.find(&needle) {
                    let mut twice = compact.clone();
                    twice.insert_str(at, &format!("{needle},"));
                    out.push(twice);
                }
            }
        }
    }
    let bytes = doc.as_bytes();
    for i in 0..40 {
        let cut = bytes.len() * i / 40;
        out.push(String::from_utf8_lossy(&bytes[..cut]).into_owned());
    }
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..200 {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let at = (state >> 33) as usize % bytes.len();
        let mut flipped = bytes.to_vec();
        flipped[at] ^= 1 << ((state >> 20) % 8);
        out.push(String::from_utf8_lossy(&flipped).into_owned());
    }
    out
}

type JsonPath = Vec<Step>;

#[derive(Clone)]
enum Step {
    Key(String),
    Index(usize),
}

fn collect_paths(v: &Value, at: &mut JsonPath, out: &mut Vec<JsonPath>) {
    match v {
        Value::Object(m) => {
            for (k, child) in m {
                at.push(Step::Key(k.clone()));
                out.push(at.clone());
                collect_paths(child, at, out);
                at.pop();
            }
        }
        Value::Array(a) => {
            for (i, child) in a.iter().enumerate() {
                at.push(Step::Index(i));
                out.push(at.clone());
                collect_paths(child, at, out);
                at.pop();
            }
        }
        _ => {}
    }
}

fn pointer_mut<'a>(v: &'a mut Value, path: &[Step]) -> &'a mut Value {
    path.iter().fold(v, |v, s| match s {
        Step::Key(k) => &mut v[k.as_str()],
        Step::Index(i) => &mut v[*i],
    })
}

fn remove_at(v: &mut Value, path: &[Step]) {
    let (last, parent) = path.split_last().unwrap();
    match (pointer_mut(v, parent), last) {
        (Value::Object(m), Step::Key(k)) => {
            m.remove(k);
        }
        (Value::Array(a), Step::Index(i)) => {
            a.remove(*i);
        }
        _ => unreachable!(),
    }
}

/// A refusal (or an acceptance) of one mutant: never a panic, and a short message.
fn assert_short(format: &str, mutant: &str, message: String) {
    // In the project's words: no internal type name (serde's "expected struct X").
    assert!(
        !message.contains("struct "),
        "{format}: an internal type name in {message}"
    );
    assert!(
        message.len() <= MAX_MESSAGE && !message.is_empty(),
        "{format}: a {}-byte message for a mutant of {} bytes: {}…",
        message.len(),
        mutant.len(),
        &message[..message.len().min(300)]
    );
}

// ---------------------------------------------------------------------------------------
// Each format's mutants through its parser
// ---------------------------------------------------------------------------------------

#[test]
fn proof_file_mutants_are_refused_with_short_messages() {
    for fixture in [PROOF_KEYS, PROOF_DIGEST] {
        ProofFile::parse(fixture).expect("the fixture parses");
        let all = mutants(fixture);
        let mut refused = 0;
        for m in &all {
            match ProofFile::parse(m) {
                Ok(_) => {}
                Err(e) => {
                    refused += 1;
                    assert_short("proof file", m, e.to_string());
                }
            }
        }
        // Nearly every mutant is refused: only a flip inside the proof's or a value's hex
        // digits that keeps it hex (checked when the proof is verified) parses.
        assert!(refused * 10 > all.len() * 8, "{refused} of {}", all.len());
    }
}

#[test]
fn batch_file_mutants_are_refused_with_short_messages() {
    let records = batch_ecdsa::demo::demo_batch(2, 3, &[]).unwrap();
    let doc = serde_json::to_string_pretty(&records).unwrap();
    BatchFile::parse(&doc).unwrap();
    for m in mutants(&doc) {
        if let Err(errors) = BatchFile::parse(&m) {
            assert!(!errors.is_empty());
            for e in errors {
                assert_short("batch file", &m, e.to_string());
            }
        }
    }
}

fn demo_signed(n: usize) -> (Vec<Vec<u8>>, TxPolicy) {
    (
        batch_ecdsa::txs::demo::demo_txs(n, 7, 1).unwrap(),
        TxPolicy::for_chain(1),
    )
}

#[test]
fn stripped_file_mutants_are_refused_with_short_messages() {
    let (raw, policy) = demo_signed(3);
    let txs = SignedTxs::decode(&raw, &policy).unwrap();
    let doc = serde_json::to_string_pretty(&txs.stripped()).unwrap();
    StrippedFile::parse(&doc).unwrap();
    for m in mutants(&doc) {
        if let Err(e) = StrippedFile::parse(&m) {
            assert_short("stripped file", &m, e);
        }
    }
}

#[test]
fn transactions_file_mutants_are_refused_with_short_messages() {
    let (raw, _) = demo_signed(3);
    let doc = serde_json::to_string(
        &raw.iter()
            .map(|t| format!("0x{}", hex::encode(t)))
            .collect::<Vec<_>>(),
    )
    .unwrap();
    parse_txs_text(&doc).unwrap();
    for m in mutants(&doc) {
        if let Err(errors) = parse_txs_text(&m) {
            for e in errors {
                assert_short("transactions file", &m, e.to_string());
            }
        }
    }
}

/// Every demo transaction of every type, truncated at each length and with each single byte
/// changed: the decoder refuses or decodes, and every refusal says which field where RLP is
/// at fault.
#[test]
fn transaction_mutants_are_refused_naming_the_field() {
    let (raw, _) = demo_signed(10);
    let mut located = 0;
    let mut rlp = 0;
    for tx in &raw {
        decode_signed_tx(tx).unwrap();
        let mut cases: Vec<Vec<u8>> = (0..tx.len()).map(|n| tx[..n].to_vec()).collect();
        for i in 0..tx.len() {
            for x in [0x00, 0x7f, 0x80, 0xb8, 0xbf, 0xc0, 0xf7, 0xff] {
                let mut m = tx.clone();
                m[i] = x;
                cases.push(m);
            }
        }
        for m in cases {
            if let Err(e) = decode_signed_tx(&m) {
                let text = e.to_string();
                assert!(text.len() <= MAX_MESSAGE, "{text}");
                if text.starts_with("malformed RLP in field") {
                    located += 1;
                } else if text.starts_with("malformed RLP") {
                    rlp += 1;
                }
            }
        }
    }
    // Most RLP faults are located in a field; the rest are in the outer framing.
    assert!(located > 4 * rlp, "{located} located, {rlp} not");
}

/// A small `.ptau` (power 4) and a raw params file, truncated and bit-flipped: each read is a
/// refusal naming the file, or a file that still reads (a flip in a point is then refused by
/// the point checks).
#[test]
fn ceremony_file_mutants_are_refused() {
    use halo2_proofs::halo2curves::bn256::{Fr, G1Affine, G2Affine};
    let dir = cli_support::tmp_dir("bad-input", "ceremony");
    let tau = Fr::from(123_456_789u64);
    let (mut g, mut p) = (Vec::new(), Fr::one());
    for _ in 0..31 {
        g.push((G1Affine::generator() * p).into());
        p *= tau;
    }
    let (mut g2, mut p) = (Vec::new(), Fr::one());
    for _ in 0..16 {
        g2.push((G2Affine::generator() * p).into());
        p *= tau;
    }
    let good = dir.join("good.ptau");
    srs_file::write_ptau(&good, 4, &g, &g2).unwrap();
    srs_file::read_powers(&good, 4).expect("the fixture reads");
    let bytes = std::fs::read(&good).unwrap();
    let path = dir.join("mutant.ptau");
    let check = |m: &[u8]| {
        std::fs::write(&path, m).unwrap();
        for r in [
            srs_file::probe(&path).map(|_| ()),
            srs_file::read_powers(&path, 4).map(|_| ()),
            srs_file::read_g2_pair(&path).map(|_| ()),
        ] {
            if let Err(e) = r {
                let text = e.to_string();
                assert!(text.len() <= MAX_MESSAGE, "{text}");
            }
        }
    };
    for n in (0..bytes.len()).step_by(7) {
        check(&bytes[..n]);
    }
    for i in (0..bytes.len()).step_by(3) {
        let mut m = bytes.clone();
        m[i] ^= 0x80;
        check(&m);
    }
    // Section lengths and the power claiming far more than the file holds.
    for at in [4, 8, 12, 16, 20, 24] {
        let mut m = bytes.clone();
        m[at..at + 4].copy_from_slice(&[0xff; 4]);
        check(&m);
    }
    std::fs::remove_dir_all(&dir).ok();
}

// ---------------------------------------------------------------------------------------
// Oversized claims: refused before any layout
// ---------------------------------------------------------------------------------------

/// Records which phases began.
#[derive(Default)]
struct Phases(RefCell<Vec<Phase>>);

impl Progress for Phases {
    fn started(&self, phase: Phase) {
        self.0.borrow_mut().push(phase);
    }
}

/// A proof file built in memory (past `ProofFile::parse`) that claims more signatures than
/// the circuit proves, or another k than the planner's: the verifier refuses before it lays
/// anything out or reads any params.
#[test]
fn oversized_claims_are_refused_before_any_layout() {
    let file = ProofFile::parse(PROOF_KEYS).unwrap();
    let dir = cli_support::tmp_dir("bad-input", "oversized");
    let max = limits::max_batch(file.circuit, file.statement);
    let mut big = file.clone();
    big.batch_size = max + 1;
    big.public_inputs = vec![file.public_inputs[0].clone(); max + 1];
    let mut wrong_k = file.clone();
    wrong_k.k = 22;
    wrong_k.setup.k = 22;
    for (claim, want) in [
        (&big, format!("at most {max} signatures")),
        (
            &wrong_k,
            "k = 22 but the batch circuit for B = 2 has k = 14".to_string(),
        ),
    ] {
        let phases = Phases::default();
        let err = Verifier::for_proof_file_with(claim, &dir, &SetupSource::Local, &phases)
            .err()
            .expect("refused");
        assert!(err.to_string().contains(&want), "{err}");
        assert_eq!(*phases.0.borrow(), Vec::<Phase>::new(), "work was done");
    }
    // And the text of such a file is refused by the parser itself.
    let mut v: Value = serde_json::from_str(PROOF_KEYS).unwrap();
    let one = v["public_inputs"][0].clone();
    v["batch_size"] = serde_json::json!(4096);
    v["public_inputs"] = Value::Array(vec![one; 4096]);
    let err = ProofFile::parse(&v.to_string()).unwrap_err().to_string();
    assert!(
        err.contains("B = 4096 is more than the batch circuit proves"),
        "{err}"
    );
    assert!(
        std::fs::read_dir(&dir).unwrap().next().is_none(),
        "nothing written"
    );
    std::fs::remove_dir_all(&dir).ok();
}

// ---------------------------------------------------------------------------------------
// A sample through the binaries
// ---------------------------------------------------------------------------------------

const PROVE: &str = env!("CARGO_BIN_EXE_prove");
const VERIFY: &str = env!("CARGO_BIN_EXE_verify");

#[test]
fn binaries_refuse_oversized_and_endless_input() {
    let dir = cli_support::tmp_dir("bad-input", "binaries");
    let params = dir.join("params");
    let d = |p: &Path| p.to_str().unwrap().to_string();
    // A 4096-signature proof file: refused at parse, nothing laid out, nothing written.
    let mut v: Value = serde_json::from_str(PROOF_KEYS).unwrap();
    let one = v["public_inputs"][0].clone();
    v["batch_size"] = serde_json::json!(4096);
    v["public_inputs"] = Value::Array(vec![one; 4096]);
    let big = dir.join("big.json");
    std::fs::write(&big, v.to_string()).unwrap();
    let out = cli_support::run(VERIFY, &["--proof", &d(&big), "--params-dir", &d(&params)]);
    cli_support::assert_exit(&out, 2, "verify of a 4096-signature claim");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("at most 1343 signatures"), "{err}");
    assert!(!params.exists(), "verify wrote into --params-dir");
    // Endless files.
    for flag in [["--proof", "/dev/zero"], ["--proof", "/dev/urandom"]] {
        let out = cli_support::run(VERIFY, &[flag[0], flag[1], "--params-dir", &d(&params)]);
        cli_support::assert_exit(&out, 2, flag[1]);
        assert!(String::from_utf8_lossy(&out.stderr).contains("file too large"));
    }
    let out = cli_support::run(PROVE, &["--batch", "/dev/zero", "--cells-only"]);
    cli_support::assert_exit(&out, 2, "prove --batch /dev/zero");
    assert!(String::from_utf8_lossy(&out.stderr).contains("file too large"));
    // Counts beyond every circuit (the flag), and beyond the naive circuit's limit (the
    // planner's table, before any layout: --cells-only would otherwise lay 1,000 out).
    let out = cli_support::run(PROVE, &["--count", "5000", "--cells-only"]);
    cli_support::assert_exit(&out, 2, "prove --count 5000");
    assert!(String::from_utf8_lossy(&out.stderr).contains("at most 1343"));
    let out = cli_support::run(
        PROVE,
        &["--count", "1000", "--circuit", "naive", "--cells-only"],
    );
    cli_support::assert_exit(&out, 2, "prove --count 1000 --circuit naive");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("B = 1000 is more than the naive circuit proves for the keys statement (at most 385 signatures, k ≤ 22)"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

// ---------------------------------------------------------------------------------------
// Fuzz targets (proptest; a bounded number of cases in CI)
// ---------------------------------------------------------------------------------------

fn cases() -> u32 {
    std::env::var("BAD_INPUT_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(256)
}

/// `doc` with up to 8 bytes replaced by arbitrary ones at arbitrary places.
fn splice(doc: &[u8], edits: &[(usize, u8)]) -> Vec<u8> {
    let mut m = doc.to_vec();
    for &(at, b) in edits {
        if !m.is_empty() {
            let i = at % m.len();
            m[i] = b;
        }
    }
    m
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn fuzz_proof_file(edits in prop::collection::vec((any::<usize>(), any::<u8>()), 1..8),
                       noise in prop::collection::vec(any::<u8>(), 0..256)) {
        for doc in [PROOF_KEYS, PROOF_DIGEST] {
            let m = splice(doc.as_bytes(), &edits);
            if let Ok(text) = std::str::from_utf8(&m) {
                if let Err(e) = ProofFile::parse(text) {
                    prop_assert!(e.to_string().len() <= MAX_MESSAGE);
                }
            }
        }
        let _ = ProofFile::parse(&String::from_utf8_lossy(&noise));
    }

    #[test]
    fn fuzz_batch_file(edits in prop::collection::vec((any::<usize>(), any::<u8>()), 1..8)) {
        let records = batch_ecdsa::demo::demo_batch(2, 3, &[]).unwrap();
        let doc = serde_json::to_string(&records).unwrap();
        let m = splice(doc.as_bytes(), &edits);
        if let Ok(text) = std::str::from_utf8(&m) {
            if let Err(errors) = BatchFile::parse(text) {
                for e in errors {
                    prop_assert!(e.to_string().len() <= MAX_MESSAGE);
                }
            }
        }
    }

    #[test]
    fn fuzz_transaction_decoder(which in 0usize..10,
                                edits in prop::collection::vec((any::<usize>(), any::<u8>()), 0..6),
                                cut in any::<prop::sample::Index>(),
                                noise in prop::collection::vec(any::<u8>(), 0..300)) {
        let (raw, policy) = demo_signed(10);
        let m = splice(&raw[which], &edits);
        let m = &m[..cut.index(m.len() + 1)];
        let _ = decode_signed_tx(m);
        let _ = batch_ecdsa::txs::decode_and_check(m, &policy, 0);
        let _ = decode_signed_tx(&noise);
    }

    #[test]
    fn fuzz_stripped_file(edits in prop::collection::vec((any::<usize>(), any::<u8>()), 1..8)) {
        let (raw, policy) = demo_signed(3);
        let doc = serde_json::to_string(&SignedTxs::decode(&raw, &policy).unwrap().stripped()).unwrap();
        let m = splice(doc.as_bytes(), &edits);
        if let Ok(text) = std::str::from_utf8(&m) {
            if let Err(e) = StrippedFile::parse(text) {
                prop_assert!(e.len() <= MAX_MESSAGE);
            }
        }
    }

    #[test]
    fn fuzz_ceremony_reader(head in prop::collection::vec(any::<u8>(), 0..200),
                            k in 1u32..30) {
        let dir = std::env::temp_dir().join(format!("batch-ecdsa-fuzz-srs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // Arbitrary bytes, and arbitrary bytes behind each form's magic.
        for prefix in [&b""[..], b"ptau\x01\x00\x00\x00", &[14, 0, 0, 0][..]] {
            let path = dir.join("f");
            let mut bytes = prefix.to_vec();
            bytes.extend_from_slice(&head);
            std::fs::write(&path, &bytes).unwrap();
            let _ = srs_file::probe(&path);
            let _ = srs_file::read_powers(&path, k);
            let _ = srs_file::read_g2_pair(&path);
        }
    }
}

/// `verify --max-batch`: a service's own cap, before any work.
#[test]
fn verify_max_batch_caps_the_claim() {
    let dir = cli_support::tmp_dir("bad-input", "max-batch");
    let proof = dir.join("p.json");
    std::fs::write(&proof, PROOF_KEYS).unwrap();
    let params = dir.join("params");
    let (p, d) = (proof.to_str().unwrap(), params.to_str().unwrap());
    let out = cli_support::run(
        VERIFY,
        &["--proof", p, "--params-dir", d, "--max-batch", "1"],
    );
    cli_support::assert_exit(&out, 2, "verify --max-batch 1 of a B = 2 proof");
    assert!(String::from_utf8_lossy(&out.stderr).contains("more than --max-batch 1"));
    assert!(!params.exists());
    std::fs::remove_dir_all(&dir).ok();
}
