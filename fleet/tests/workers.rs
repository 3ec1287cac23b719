//! `fleet submit`, `worker`, `status`, `fetch` as processes against a real PostgreSQL server
//! (`DATABASE_URL`; skipped with the reason printed when it is not set), B = 1 batches under
//! the development setup: proved and fetched (checked against the submitted batch), bad
//! batches refused at submit or failed once by the worker, a swapped result refused by fetch,
//! a worker killed mid-proof (SIGKILL) whose job another worker finishes, two workers sharing
//! a queue with every result stored once.

mod common;

use std::time::Duration;

use batch_ecdsa::prover::proof::ProofFile;
use batch_ecdsa::{BatchFile, Entries, Policy, SetupSource, Silent, Statement, Verifier};
use batch_ecdsa_fleet::job::{BatchText, JobInput, Route};
use batch_ecdsa_fleet::queue::{JobState, JobStatus, Queue};
use common::*;

fn job_id(out: &std::process::Output) -> i64 {
    assert_eq!(out.status.code(), Some(0), "{}", text(out));
    String::from_utf8_lossy(&out.stdout).trim().parse().unwrap()
}

fn raw_job(batch: String) -> String {
    JobInput {
        batch: BatchText::Batch { text: batch },
        statement: Statement::Keys.to_string(),
        route: Route::Proof,
        pad_to: None,
        low_s: false,
        outer_k: None,
    }
    .to_text()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn submit_worker_fetch_and_bad_batches_fail_once() {
    let Some(admin) = admin_url("workers_e2e") else {
        return;
    };
    let url = fresh_database(&admin, "workers_e2e").await;
    let dir = scratch("workers_e2e");
    let q = Queue::connect(&url).await.unwrap();

    // Submit checks the batch first: a malformed file (exit 2) and an invalid signature
    // (exit 1, named) are refused and nothing is queued.
    let bad = write(&dir, "bad.json", "{\"signatures\": [}");
    let out = run(fleet(&url).arg("submit").arg("--batch").arg(&bad));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let invalid = write(&dir, "invalid.json", &batch_text(2, 9, &[1]));
    let out = run(fleet(&url).arg("submit").arg("--batch").arg(&invalid));
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("signature 1"), "{}", text(&out));
    assert!(
        q.counts().await.unwrap().is_empty(),
        "a refused batch was queued"
    );

    // Two good batches, and (through the library, past submit's check) an invalid one and a
    // malformed job: the worker fails those once, with the reason.
    let good = write(&dir, "good.json", &batch_text(1, 1, &[]));
    let other = write(&dir, "other.json", &batch_text(1, 2, &[]));
    let good_id = job_id(&run(fleet(&url).arg("submit").arg("--batch").arg(&good)));
    let other_id = job_id(&run(fleet(&url).arg("submit").arg("--batch").arg(&other)));
    let invalid_id = q.submit(&raw_job(batch_text(1, 3, &[0])), 3).await.unwrap();
    let malformed_id = q.submit("{\"batch\": 1}", 3).await.unwrap();

    let worker = spawn_worker(&url, "w1", &["--exit-when-idle"]);
    let out = worker.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let log = String::from_utf8_lossy(&out.stderr);
    for line in log.lines() {
        let v: serde_json::Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        assert!(v["ts"].is_number() && v["event"].is_string(), "{line}");
    }
    assert!(log.contains("\"event\":\"stored\""), "{log}");

    for id in [good_id, other_id] {
        let s = q.status(id).await.unwrap();
        assert_eq!((s.state, s.attempts), (JobState::Done, 1), "{s:?}");
    }
    let s = q.status(invalid_id).await.unwrap();
    assert_eq!((s.state, s.attempts), (JobState::Failed, 1), "{s:?}");
    assert!(s.error.as_deref().unwrap().contains("signature 0"), "{s:?}");
    let s = q.status(malformed_id).await.unwrap();
    assert_eq!((s.state, s.attempts), (JobState::Failed, 1), "{s:?}");

    // Fetch checks the proof against the submitted batch before writing it.
    let proof = dir.join("proof.json");
    let fetch_flags = |id: i64, held: &std::path::Path, flags: &[&str]| {
        run(fleet(&url)
            .args(["fetch", &id.to_string(), "--insecure-dev-setup"])
            .arg("--params-dir")
            .arg(params_dir())
            .arg("--batch")
            .arg(held)
            .arg("--out")
            .arg(&proof)
            .args(flags))
    };
    let fetch_with = |id: i64, held: &std::path::Path| fetch_flags(id, held, &[]);
    let fetch = |id: i64| fetch_with(id, &good);
    // Another batch than the one the job holds: refused before any proof is read.
    let out = fetch_with(good_id, &other);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains("not the batch this job holds"),
        "{}",
        text(&out)
    );
    assert!(!proof.exists());
    // The same batch under other flags than it was submitted with (the job is not the one
    // the caller asked for): refused, each difference named, nothing written.
    for (flags, named) in [
        (&["--public", "digest"][..], "--public"),
        (&["--pad-to", "2"][..], "--pad-to"),
        (&["--low-s"][..], "--low-s"),
    ] {
        let out = fetch_flags(good_id, &good, flags);
        assert_eq!(out.status.code(), Some(1), "{flags:?}: {}", text(&out));
        assert!(text(&out).contains(named), "{flags:?}: {}", text(&out));
        assert!(!proof.exists());
    }
    let out = fetch_flags(
        good_id,
        &good,
        &[
            "--route",
            "aggregated",
            "--public",
            "digest",
            "--verifier-code-hash",
            &"0".repeat(64),
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("--route"), "{}", text(&out));
    assert!(!proof.exists());
    // A verifier pin is for the aggregated route: refused before the database is read.
    let out = fetch_flags(good_id, &good, &["--verifier-code-hash", &"0".repeat(64)]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("--route aggregated"), "{}", text(&out));
    let out = fetch(good_id);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let file = ProofFile::load(&proof).unwrap();
    let held = BatchFile::load(&good).unwrap();
    let verifier =
        Verifier::for_proof_file_with(&file, &params_dir(), &SetupSource::InsecureDev, &Silent)
            .unwrap();
    verifier
        .verify_batch(&file, &held, Policy::default(), Entries::Signatures)
        .unwrap();
    // A failed job: its reason, and the caller's batch checked again here, exit 1, nothing
    // written.
    std::fs::remove_file(&proof).unwrap();
    let invalid = write(&dir, "invalid-held.json", &batch_text(1, 3, &[0]));
    let out = fetch_with(invalid_id, &invalid);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains("checked here, your batch: signature 0"),
        "{}",
        text(&out)
    );
    assert!(!proof.exists());
    // Someone with write access swaps two results (hashes updated): fetch refuses a proof of
    // another batch.
    let mut conn = connect(&url).await;
    sqlx::query(
        "UPDATE batch_ecdsa_jobs SET (result, result_sha256) =
           (SELECT result, result_sha256 FROM batch_ecdsa_jobs WHERE id = $2) WHERE id = $1",
    )
    .bind(good_id)
    .bind(other_id)
    .execute(&mut conn)
    .await
    .unwrap();
    let out = fetch(good_id);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("signature 0"), "{}", text(&out));
    assert!(!proof.exists());
    // The whole row swapped (input and result, hashes updated: another batch and its honest
    // proof): fetch checks against the caller's batch, not the database's copy.
    sqlx::query(
        "UPDATE batch_ecdsa_jobs SET (input, input_sha256, result, result_sha256) =
           (SELECT input, input_sha256, result, result_sha256 FROM batch_ecdsa_jobs
            WHERE id = $2) WHERE id = $1",
    )
    .bind(good_id)
    .bind(other_id)
    .execute(&mut conn)
    .await
    .unwrap();
    let out = fetch(good_id);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains("not the batch this job holds"),
        "{}",
        text(&out)
    );
    assert!(!proof.exists());
    // A done job marked failed with a bad batch's reason (an altered row): the caller's
    // batch, checked here, is valid, and fetch says so.
    sqlx::query(
        "UPDATE batch_ecdsa_jobs SET state = 'failed', result = NULL, result_sha256 = NULL,
           error = 'signature 0: the signature does not verify' WHERE id = $1",
    )
    .bind(other_id)
    .execute(&mut conn)
    .await
    .unwrap();
    let out = fetch_with(other_id, &other);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("your batch is valid"), "{}", text(&out));
    assert!(!proof.exists());
    // No such job: exit 2.
    let out = fetch(999_999);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_killed_mid_proof_loses_no_job() {
    let Some(admin) = admin_url("killed_worker") else {
        return;
    };
    let url = fresh_database(&admin, "killed_worker").await;
    let q = Queue::connect(&url).await.unwrap();
    let id = q.submit(&raw_job(batch_text(1, 4, &[])), 3).await.unwrap();

    let mut first = spawn_worker(&url, "doomed", &["--lease-secs", "2"]);
    wait_for(&q, id, Duration::from_secs(300), |s| {
        s.state == JobState::Running && matches!(s.phase.as_deref(), Some("witness" | "prove"))
    })
    .await;
    first.kill().unwrap(); // SIGKILL: no clean-up, no give-back
    first.wait().unwrap();
    assert_eq!(q.status(id).await.unwrap().state, JobState::Running);

    let second = spawn_worker(&url, "rescuer", &["--max-jobs", "1", "--lease-secs", "2"]);
    let out = second.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let s = q.status(id).await.unwrap();
    assert_eq!(s.state, JobState::Done, "{s:?}");
    assert_eq!(s.attempts, 2);
    assert_eq!(s.result_worker.as_deref(), Some("rescuer"));
}

/// SIGTERM mid-proof with no time to drain: the worker releases its job (queued at once,
/// the try not counted) and exits 0 without waiting for the proof; with time to drain, the
/// next worker finishes its proof, stores it and leases nothing more.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_stopped_by_sigterm_releases_or_drains_its_job() {
    let Some(admin) = admin_url("sigterm") else {
        return;
    };
    let url = fresh_database(&admin, "sigterm").await;
    let q = Queue::connect(&url).await.unwrap();
    let id = q.submit(&raw_job(batch_text(1, 5, &[])), 1).await.unwrap();
    let next = q.submit(&raw_job(batch_text(4, 6, &[])), 1).await.unwrap();
    let proving = |s: &JobStatus| {
        s.state == JobState::Running && matches!(s.phase.as_deref(), Some("witness" | "prove"))
    };

    let stopped = spawn_worker(&url, "stopped", &["--lease-secs", "2", "--drain-secs", "0"]);
    wait_for(&q, id, Duration::from_secs(300), proving).await;
    signal(&stopped, "TERM");
    let out = stopped.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(
        text(&out).contains("\"event\":\"released\""),
        "{}",
        text(&out)
    );
    // Queued again at once (no lease to wait out), its one try still there.
    let s = q.status(id).await.unwrap();
    assert_eq!((s.state, s.attempts), (JobState::Queued, 0), "{s:?}");
    assert_eq!(q.status(next).await.unwrap().state, JobState::Queued);

    let drained = spawn_worker(
        &url,
        "drained",
        &["--lease-secs", "2", "--drain-secs", "600"],
    );
    wait_for(&q, id, Duration::from_secs(300), proving).await;
    signal(&drained, "TERM");
    let out = drained.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let s = q.status(id).await.unwrap();
    assert_eq!((s.state, s.attempts), (JobState::Done, 1), "{s:?}");
    assert_eq!(s.result_worker.as_deref(), Some("drained"));
    let s = q.status(next).await.unwrap();
    assert_eq!((s.state, s.attempts), (JobState::Queued, 0), "{s:?}");

    // A second signal while draining: the worker exits at once (130); its job keeps its
    // lease, to be leased again when the lease runs out. (`next` is a batch of 4, whose
    // proof outlasts the two signals; a short lease puts the phase in the row at once.)
    let mut impatient = spawn_worker(
        &url,
        "impatient",
        &["--lease-secs", "3", "--drain-secs", "600"],
    );
    let mut log = StderrLines::of(&mut impatient);
    wait_for(&q, next, Duration::from_secs(300), proving).await;
    signal(&impatient, "TERM");
    log.wait_for("\"event\":\"stopping\"", Duration::from_secs(60));
    signal(&impatient, "TERM");
    let status = impatient.wait().unwrap();
    let log = log.rest();
    assert_eq!(status.code(), Some(130), "{log}");
    assert!(log.contains("\"event\":\"stopped_at_once\""), "{log}");
    assert!(!log.contains("\"event\":\"stored\""), "{log}");
    let s = q.status(next).await.unwrap();
    assert_eq!((s.state, s.attempts), (JobState::Running, 1), "{s:?}");
    assert_eq!(s.worker.as_deref(), Some("impatient"));
}

/// A database that refuses to store a result for good (here a trigger) does not make the
/// worker retry for ever: the job fails naming the refusal, and the worker goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_result_the_database_refuses_fails_the_job_once() {
    let Some(admin) = admin_url("refused_result") else {
        return;
    };
    let url = fresh_database(&admin, "refused_result").await;
    let q = Queue::connect(&url).await.unwrap();
    let _conn = connect_and_run(&url, REFUSE_RESULTS).await;
    let id = q.submit(&raw_job(batch_text(1, 7, &[])), 3).await.unwrap();
    let worker = spawn_worker(&url, "w", &["--exit-when-idle"]);
    let out = worker.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let s = q.status(id).await.unwrap();
    assert_eq!((s.state, s.attempts), (JobState::Failed, 1), "{s:?}");
    assert!(
        s.error.as_deref().unwrap().contains("results refused"),
        "{s:?}"
    );
    assert_eq!(
        text(&out).matches("\"event\":\"database_refused\"").count(),
        1
    );
}

/// A database that refuses a worker for the deployment's reason (here a trigger raising
/// "insufficient privilege", 42501, as a revoked grant would) is not the job's fault: the
/// worker stops with the refusal (exit 2), and the job keeps its try, to be leased again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_the_database_refuses_stops_and_the_job_is_not_failed() {
    let Some(admin) = admin_url("refused_worker") else {
        return;
    };
    let url = fresh_database(&admin, "refused_worker").await;
    let q = Queue::connect(&url).await.unwrap();
    let _conn = connect_and_run(
        &url,
        "CREATE FUNCTION no_grant() RETURNS trigger AS $$
         BEGIN
             IF NEW.state = 'done' THEN
                 RAISE EXCEPTION 'permission denied for table batch_ecdsa_jobs'
                     USING ERRCODE = '42501';
             END IF;
             RETURN NEW;
         END $$ LANGUAGE plpgsql;
         CREATE TRIGGER no_grant BEFORE UPDATE ON batch_ecdsa_jobs
             FOR EACH ROW EXECUTE FUNCTION no_grant();",
    )
    .await;
    let id = q.submit(&raw_job(batch_text(1, 8, &[])), 3).await.unwrap();
    let out = spawn_worker(&url, "w", &["--exit-when-idle", "--lease-secs", "60"])
        .wait_with_output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("the database refused to complete"),
        "{}",
        text(&out)
    );
    let s = q.status(id).await.unwrap();
    assert_eq!((s.state, s.attempts), (JobState::Running, 1), "{s:?}");
    assert_eq!(s.error, None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_workers_share_a_queue_and_each_result_is_stored_once() {
    let Some(admin) = admin_url("two_workers") else {
        return;
    };
    let url = fresh_database(&admin, "two_workers").await;
    let q = Queue::connect(&url).await.unwrap();
    let mut ids = Vec::new();
    for seed in 10..14 {
        ids.push(
            q.submit(&raw_job(batch_text(1, seed, &[])), 3)
                .await
                .unwrap(),
        );
    }
    let a = spawn_worker(&url, "a", &["--exit-when-idle"]);
    let b = spawn_worker(&url, "b", &["--exit-when-idle"]);
    let (oa, ob) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
    assert_eq!(oa.status.code(), Some(0), "{}", text(&oa));
    assert_eq!(ob.status.code(), Some(0), "{}", text(&ob));
    let stored = |o: &std::process::Output| {
        String::from_utf8_lossy(&o.stderr)
            .matches("\"event\":\"stored\"")
            .count()
    };
    assert_eq!(stored(&oa) + stored(&ob), ids.len());
    for id in ids {
        let s = q.status(id).await.unwrap();
        assert_eq!((s.state, s.attempts), (JobState::Done, 1), "{s:?}");
        assert!(matches!(s.result_worker.as_deref(), Some("a" | "b")));
    }
}

#[test]
fn a_worker_refuses_the_local_setup_and_a_missing_database() {
    // A machine's local setup is its own τ: a fleet's proofs must share one setup.
    let out = run(
        std::process::Command::new(env!("CARGO_BIN_EXE_fleet")).args([
            "worker",
            "--database-url",
            "postgres://nobody@127.0.0.1:1/none",
        ]),
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("local setup"), "{}", text(&out));
    let out = run(std::process::Command::new(env!("CARGO_BIN_EXE_fleet"))
        .env_remove("DATABASE_URL")
        .args(["status"]));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("no database"), "{}", text(&out));
}
