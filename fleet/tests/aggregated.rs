//! The aggregated (Ethereum) route through the fleet, against a real PostgreSQL server
//! (`DATABASE_URL`; skipped with the reason printed when it is not set). Proving an
//! aggregated folder takes 15+ minutes and 16 GiB (`a_worker_proves_an_aggregated_job`,
//! ignored; feature `aggregate`), so the rest of the route runs on the committed folder
//! `evm/tests/fixtures/aggregated-txs-n3-b4` (3 signed transactions proven for Ethereum on the
//! key for B = 4, under the INSECURE development setup): stored as a worker stores it, then
//! `fetch` checks it against the submitted transactions, the verifier the caller pins and the
//! setup, on an EVM, before writing the folder. Another batch's folder, the folder without a
//! pinned verifier, and a verifier the caller does not trust are refused. A worker that does
//! not prove the route leaves its jobs alone.

mod common;

use std::path::{Path, PathBuf};

use batch_ecdsa::txs::file::parse_txs_text;
use batch_ecdsa::txs::strip::StrippedFile;
use batch_ecdsa::{SignedTxs, TxPolicy};
use batch_ecdsa_evm::aggregated_folder::{
    AggregatedProofFile, VERIFIER_FILE, WRAPPER_CALLDATA_FILE,
};
use batch_ecdsa_fleet::folder::StoredFolder;
use batch_ecdsa_fleet::queue::{JobState, Queue};
use common::*;

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../evm/tests/fixtures/aggregated-txs-n3-b4")
}

/// The fixture's folder as a worker stores it.
fn stored_fixture() -> Vec<u8> {
    let dir = fixture();
    StoredFolder::new(
        AggregatedProofFile::load(&dir).unwrap(),
        std::fs::read_to_string(dir.join(VERIFIER_FILE)).unwrap(),
    )
    .to_bytes()
}

/// The flags the fixture's job is submitted with, and fetched with.
const JOB_FLAGS: [&str; 6] = [
    "--route",
    "aggregated",
    "--public",
    "digest",
    "--pad-to",
    "4",
];

fn submit_aggregated(url: &str, txs: &Path) -> i64 {
    let out = run(fleet(url)
        .arg("submit")
        .args(JOB_FLAGS)
        .arg("--txs")
        .arg(txs));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    String::from_utf8_lossy(&out.stdout).trim().parse().unwrap()
}

/// A worker's storing of `result` for job `id` (leased by the test itself).
async fn store(q: &Queue, id: i64, result: &[u8]) {
    let job = q
        .lease("fixture", std::time::Duration::from_secs(60))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(job.id, id);
    assert_eq!(job.route, "aggregated");
    q.complete(id, "fixture", result).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fetch_checks_an_aggregated_folder_against_the_batch_and_the_pinned_verifier() {
    let Some(admin) = admin_url("aggregated_fetch") else {
        return;
    };
    let url = fresh_database(&admin, "aggregated_fetch").await;
    let q = Queue::connect(&url).await.unwrap();
    let dir = scratch("aggregated_fetch");
    let t3 = fixture().join("t3.txt");
    // The keys statement, an outer k where the verifier does not fit EIP-170, and an outer k
    // on the proof route are refused at submit.
    let out = run(fleet(&url)
        .args(["submit", "--route", "aggregated", "--public", "keys"])
        .arg("--txs")
        .arg(&t3));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("digest statement"), "{}", text(&out));
    let out = run(fleet(&url)
        .args(["submit", "--route", "aggregated", "--outer-k", "21"])
        .arg("--txs")
        .arg(&t3));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let out = run(fleet(&url)
        .args(["submit", "--outer-k", "22"])
        .arg("--txs")
        .arg(&t3));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));

    let id = submit_aggregated(&url, &t3);
    // A worker built without the route leaves the job alone (not leased, no try counted)...
    let out = spawn_worker(&url, "proof-only", &["--exit-when-idle"])
        .wait_with_output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let s = q.status(id).await.unwrap();
    assert_eq!((s.state, s.attempts), (JobState::Queued, 0), "{s:?}");
    if !cfg!(feature = "aggregate") {
        // ...and refuses to be asked for it.
        let out = spawn_worker(
            &url,
            "asked",
            &["--routes", "aggregated", "--exit-when-idle"],
        )
        .wait_with_output()
        .unwrap();
        assert_eq!(out.status.code(), Some(2), "{}", text(&out));
        assert!(text(&out).contains("feature `aggregate`"), "{}", text(&out));
    }
    store(&q, id, &stored_fixture()).await;

    let params = params_dir();
    let fetch_with = |id: i64, held: &Path, out: &Path, pin: &[&str]| {
        run(fleet(&url)
            .args(["fetch", &id.to_string(), "--insecure-dev-setup"])
            .arg("--params-dir")
            .arg(&params)
            .args(JOB_FLAGS)
            .arg("--txs")
            .arg(held)
            .arg("--out")
            .arg(out)
            .args(pin))
    };
    let fetch = |id: i64, out: &Path, pin: &[&str]| fetch_with(id, &t3, out, pin);
    let pinned = fixture().join(VERIFIER_FILE);
    let pinned = pinned.to_str().unwrap();
    // No pinned verifier: refused, nothing written.
    let folder = dir.join("folder");
    let out = fetch(id, &folder, &[]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("--verifier"), "{}", text(&out));
    assert!(!folder.exists());
    // Fetched with other flags than it was submitted with (here the defaults: route proof,
    // the keys statement, the batch's own size): not the job asked for, each flag named.
    let out = run(fleet(&url)
        .args(["fetch", &id.to_string(), "--insecure-dev-setup"])
        .arg("--params-dir")
        .arg(&params)
        .arg("--txs")
        .arg(&t3)
        .arg("--out")
        .arg(&folder));
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    for flag in ["--route", "--public", "--pad-to"] {
        assert!(text(&out).contains(flag), "{flag}: {}", text(&out));
    }
    assert!(!folder.exists());
    // A verifier that is not the one the folder was proven for (another B's): refused, and
    // no stripped file either.
    let other = fixture().join("../aggregated-txs-b8").join(VERIFIER_FILE);
    let stripped = dir.join("stripped.json");
    let strip_out = stripped.to_str().unwrap();
    let out = fetch(
        id,
        &folder,
        &[
            "--verifier",
            other.to_str().unwrap(),
            "--strip-out",
            strip_out,
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(!folder.exists());
    assert!(!stripped.exists());
    // A code hash the stored verifier does not compile to: refused.
    let out = fetch(
        id,
        &folder,
        &["--verifier-code-hash", &format!("0x{}", "ab".repeat(32))],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(!folder.exists());
    // The verifier the caller deployed: checked on the EVM, the folder written, equal to what
    // prove-aggregated wrote (the wrapper's calldata made again from the submitted payloads),
    // and what a rollup posts with it (the stripped transactions, as `prove --strip-out`).
    let out = fetch(
        id,
        &folder,
        &["--verifier", pinned, "--strip-out", strip_out],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let raw = parse_txs_text(&std::fs::read_to_string(&t3).unwrap()).unwrap();
    let policy = TxPolicy {
        chain_id: Some(1),
        ..TxPolicy::default()
    };
    assert_eq!(
        StrippedFile::parse(&std::fs::read_to_string(&stripped).unwrap()).unwrap(),
        SignedTxs::decode(&raw, &policy).unwrap().stripped()
    );
    assert!(text(&out).contains("verifyTransactions"), "{}", text(&out));
    assert_eq!(
        AggregatedProofFile::load(&folder).unwrap(),
        AggregatedProofFile::load(&fixture()).unwrap()
    );
    assert_eq!(
        std::fs::read_to_string(folder.join(WRAPPER_CALLDATA_FILE)).unwrap(),
        std::fs::read_to_string(fixture().join(WRAPPER_CALLDATA_FILE)).unwrap()
    );
    // Written once: a second fetch to the same folder writes nothing over it.
    let out = fetch(id, &folder, &["--verifier", pinned]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));

    // The same folder stored for another batch of 3 transactions: its pairs are not the
    // batch's (each differing transaction named), refused, nothing written.
    let t8 = std::fs::read_to_string(fixture().join("../aggregated-txs-b8/t8.txt")).unwrap();
    let other_three: Vec<&str> = t8.lines().skip(3).take(3).collect();
    let other_txs = write(&dir, "other3.txt", &(other_three.join("\n") + "\n"));
    let other_id = submit_aggregated(&url, &other_txs);
    store(&q, other_id, &stored_fixture()).await;
    let elsewhere = dir.join("elsewhere");
    let out = fetch_with(other_id, &other_txs, &elsewhere, &["--verifier", pinned]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("transaction 0"), "{}", text(&out));
    assert!(!elsewhere.exists());
    // Fetching it with the fixture's transactions (the folder's own batch): refused, the job
    // holds another batch (a row swapped in the database is caught the same way).
    let out = fetch(other_id, &elsewhere, &["--verifier", pinned]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains("not the batch this job holds"),
        "{}",
        text(&out)
    );
    assert!(!elsewhere.exists());
    // A worker that stores another verifier source beside an honest proof: the folder written
    // carries the verifier the caller pinned and checked, never the stored one.
    let evil_id = submit_aggregated(&url, &t3);
    let mut evil: serde_json::Value = serde_json::from_slice(&stored_fixture()).unwrap();
    evil["verifier"] = "contract AcceptsAnything { fallback() external {} }".into();
    store(&q, evil_id, &serde_json::to_vec(&evil).unwrap()).await;
    let evil_out = dir.join("evil");
    let out = fetch(evil_id, &evil_out, &["--verifier", pinned]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_eq!(
        std::fs::read_to_string(evil_out.join(VERIFIER_FILE)).unwrap(),
        std::fs::read_to_string(fixture().join(VERIFIER_FILE)).unwrap()
    );
    // A stored result that is not a folder: refused.
    let junk_id = submit_aggregated(&url, &t3);
    store(
        &q,
        junk_id,
        b"{\"format\": \"batch-ecdsa fleet aggregated folder v1\"}",
    )
    .await;
    let out = fetch(junk_id, &elsewhere, &["--verifier", pinned]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(!elsewhere.exists());
}

/// The whole route: submit 3 transactions for Ethereum, a worker built with the feature
/// `aggregate` proves them (inner and outer keys made or read from its params folder; 15+
/// minutes and 16 GiB at outer k = 22), fetch checks the folder against the batch and the
/// verifier the worker generated (what a user deploying it would pin) and writes it:
/// `eval "$(tools/pg-test-cluster)"; cargo test --release -p batch-ecdsa-fleet --features
/// aggregate --test aggregated -- --ignored`.
#[cfg(feature = "aggregate")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "15+ minutes and 16 GiB: the aggregated route end to end"]
async fn a_worker_proves_an_aggregated_job() {
    let Some(admin) = admin_url("aggregated_prove") else {
        return;
    };
    let url = fresh_database(&admin, "aggregated_prove").await;
    let q = Queue::connect(&url).await.unwrap();
    let dir = scratch("aggregated_prove");
    let id = submit_aggregated(&url, &fixture().join("t3.txt"));
    let out = spawn_worker(
        &url,
        "aggregator",
        &["--routes", "aggregated", "--exit-when-idle"],
    )
    .wait_with_output()
    .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let s = q.status(id).await.unwrap();
    assert_eq!((s.state, s.attempts), (JobState::Done, 1), "{s:?}");
    let (_, _, result) = q.result(id).await.unwrap();
    let stored = StoredFolder::parse(&result.unwrap()).unwrap();
    let verifier = write(&dir, "Deployed.sol", &stored.verifier);
    let folder = dir.join("folder");
    let out = run(fleet(&url)
        .args(["fetch", &id.to_string(), "--insecure-dev-setup"])
        .arg("--params-dir")
        .arg(params_dir())
        .args(JOB_FLAGS)
        .arg("--txs")
        .arg(fixture().join("t3.txt"))
        .arg("--out")
        .arg(&folder)
        .arg("--verifier")
        .arg(&verifier));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_eq!(AggregatedProofFile::load(&folder).unwrap().records.len(), 3);
}
