//! The queue's rules against a real PostgreSQL server (`DATABASE_URL`; skipped with the reason
//! printed when it is not set): one lease at a time, an expired lease taken again, the first
//! result stored once, a job that keeps stopping workers failed after its tries, a worker's
//! own trouble not counted, an altered row refused.

mod common;

use std::collections::BTreeSet;
use std::time::Duration;

use batch_ecdsa_fleet::queue::{Completion, GiveBack, JobState, Queue, QueueError};
use common::*;

const SHORT: Duration = Duration::from_secs(3);

async fn queue(test: &str) -> Option<Queue> {
    let admin = admin_url(test)?;
    let url = fresh_database(&admin, test).await;
    Some(Queue::connect(&url).await.unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn each_job_is_leased_to_one_worker() {
    let Some(q) = queue("one_worker").await else {
        return;
    };
    let mut ids = BTreeSet::new();
    for i in 0..24 {
        ids.insert(q.submit(&format!("job {i}"), 3).await.unwrap());
    }
    // Eight workers lease concurrently until the queue is empty.
    let mut tasks = Vec::new();
    for w in 0..8 {
        let q = q.clone();
        tasks.push(tokio::spawn(async move {
            let mut got = Vec::new();
            while let Some(job) = q
                .lease(&format!("w{w}"), Duration::from_secs(60))
                .await
                .unwrap()
            {
                assert_eq!(job.attempt, 1);
                got.push(job.id);
            }
            got
        }));
    }
    let mut leased = Vec::new();
    for t in tasks {
        leased.extend(t.await.unwrap());
    }
    let unique: BTreeSet<i64> = leased.iter().copied().collect();
    assert_eq!(leased.len(), unique.len(), "a job leased twice: {leased:?}");
    assert_eq!(unique, ids);
    // Leased jobs are not leased again while their leases run.
    assert!(q.lease("late", SHORT).await.unwrap().is_none());
}

#[tokio::test]
async fn an_expired_lease_is_taken_again_and_the_first_result_is_stored_once() {
    let Some(q) = queue("expired_lease").await else {
        return;
    };
    let id = q.submit("a batch", 3).await.unwrap();
    let a = q.lease("A", SHORT).await.unwrap().unwrap();
    assert_eq!((a.id, a.attempt), (id, 1));
    assert!(q.heartbeat(id, "A", SHORT, "prove").await.unwrap());
    // A stops heartbeating (killed): once its lease runs out, B takes the job.
    assert!(
        q.lease("B", SHORT).await.unwrap().is_none(),
        "leased while A's lease runs"
    );
    tokio::time::sleep(SHORT + Duration::from_millis(300)).await;
    let b = q
        .lease("B", Duration::from_secs(60))
        .await
        .unwrap()
        .unwrap();
    assert_eq!((b.id, b.attempt), (id, 2));
    // A's heartbeat now fails: it no longer holds the job.
    assert!(!q.heartbeat(id, "A", SHORT, "prove").await.unwrap());
    // Both finish: the first result is stored, the second is not.
    assert_eq!(
        q.complete(id, "B", b"proof by B").await.unwrap(),
        Completion::Stored
    );
    assert_eq!(
        q.complete(id, "A", b"proof by A").await.unwrap(),
        Completion::AlreadyFinished
    );
    let (status, input, result) = q.result(id).await.unwrap();
    assert_eq!(status.state, JobState::Done);
    assert_eq!(status.result_worker.as_deref(), Some("B"));
    assert_eq!(input, "a batch");
    assert_eq!(result.as_deref(), Some(&b"proof by B"[..]));
    // A finished job is never leased, failed or given back.
    assert!(q.lease("C", SHORT).await.unwrap().is_none());
    assert!(!q.fail(id, "A", "late").await.unwrap());
    assert!(!q
        .give_back(id, "B", "late", GiveBack::Counted)
        .await
        .unwrap());
}

#[tokio::test]
async fn a_job_that_keeps_stopping_workers_fails_after_its_tries() {
    let Some(q) = queue("keeps_crashing").await else {
        return;
    };
    let id = q.submit("a poison batch", 2).await.unwrap();
    for attempt in 1..=2 {
        let job = q
            .lease(&format!("w{attempt}"), SHORT)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(job.attempt, attempt);
        tokio::time::sleep(SHORT + Duration::from_millis(300)).await;
    }
    assert!(q.lease("w3", SHORT).await.unwrap().is_none());
    let s = q.status(id).await.unwrap();
    assert_eq!(s.state, JobState::Failed);
    assert_eq!(s.attempts, 2);
    let error = s.error.unwrap();
    assert!(
        error.contains("stopped after 2 tries") && error.contains("w2"),
        "{error}"
    );
    // The last worker finishes after its lease ran out (it lost the database, not the job):
    // its proof is stored, once, and the failure kept for the operator.
    assert_eq!(
        q.complete(id, "w2", b"late proof").await.unwrap(),
        Completion::Stored
    );
    assert_eq!(
        q.complete(id, "w1", b"later").await.unwrap(),
        Completion::AlreadyFinished
    );
    let (s, _, result) = q.result(id).await.unwrap();
    assert_eq!((s.state, s.error.as_deref()), (JobState::Done, None));
    assert_eq!(s.result_worker.as_deref(), Some("w2"));
    assert!(s.last_error.unwrap().contains("stopped after 2 tries"));
    assert_eq!(result.as_deref(), Some(&b"late proof"[..]));
}

#[tokio::test]
async fn a_bad_batch_fails_once_and_a_workers_trouble_is_not_counted() {
    let Some(q) = queue("fail_once").await else {
        return;
    };
    let id = q.submit("a batch", 3).await.unwrap();
    // The worker cannot load its setup: the job goes back, its try not counted.
    q.lease("broken", SHORT).await.unwrap().unwrap();
    assert!(q
        .give_back(id, "broken", "no params", GiveBack::WorkerFault)
        .await
        .unwrap());
    let s = q.status(id).await.unwrap();
    assert_eq!((s.state, s.attempts), (JobState::Queued, 0));
    assert_eq!(s.last_error.as_deref(), Some("no params"));
    // A crash counts; with no try left the job fails instead of going back.
    let id2 = q.submit("another", 1).await.unwrap();
    // (id is older: lease it first and fail it as a bad batch.)
    let job = q.lease("w", SHORT).await.unwrap().unwrap();
    assert_eq!(job.id, id);
    assert!(q.fail(id, "w", "signature 0: invalid").await.unwrap());
    assert!(q
        .lease("w", SHORT)
        .await
        .unwrap()
        .is_some_and(|j| j.id == id2));
    assert!(q
        .give_back(id2, "w", "the prover crashed", GiveBack::Counted)
        .await
        .unwrap());
    let s2 = q.status(id2).await.unwrap();
    assert_eq!(s2.state, JobState::Failed);
    assert!(s2
        .error
        .unwrap()
        .contains("stopped after 1 tries: the prover crashed"));
    // The failed batch is not leased again.
    assert!(q.lease("w", SHORT).await.unwrap().is_none());
    let s = q.status(id).await.unwrap();
    assert_eq!((s.state, s.attempts), (JobState::Failed, 1));
    assert_eq!(s.error.as_deref(), Some("signature 0: invalid"));
    // A worker's verdict is final: no late result turns it into a done job.
    assert_eq!(
        q.complete(id, "w", b"a proof").await.unwrap(),
        Completion::AlreadyFinished
    );
    assert_eq!(q.status(id).await.unwrap().state, JobState::Failed);
}

#[tokio::test]
async fn altered_rows_are_refused() {
    let Some(admin) = admin_url("altered") else {
        return;
    };
    let url = fresh_database(&admin, "altered").await;
    let q = Queue::connect(&url).await.unwrap();
    let id = q.submit("the batch", 3).await.unwrap();
    let done = q.submit("done batch", 3).await.unwrap();
    let mut conn = connect(&url).await;
    // Someone with write access changes the input: the job is failed, not proved.
    sqlx::query("UPDATE batch_ecdsa_jobs SET input = 'another batch' WHERE id = $1")
        .bind(id)
        .execute(&mut conn)
        .await
        .unwrap();
    let next = q.lease("w", SHORT).await.unwrap().unwrap();
    assert_eq!(next.id, done, "the altered job was leased");
    let s = q.status(id).await.unwrap();
    assert_eq!(s.state, JobState::Failed);
    assert!(s.error.unwrap().contains("does not match its SHA-256"));
    // A stored result changed afterwards is refused when read.
    q.complete(done, "w", b"the proof").await.unwrap();
    sqlx::query("UPDATE batch_ecdsa_jobs SET result = 'another proof' WHERE id = $1")
        .bind(done)
        .execute(&mut conn)
        .await
        .unwrap();
    assert!(matches!(
        q.result(done).await,
        Err(QueueError::ResultAltered { id }) if id == done
    ));
    // The schema's own rules: no done job without a result, no job without tries.
    let err = sqlx::query("UPDATE batch_ecdsa_jobs SET result = NULL WHERE id = $1")
        .bind(done)
        .execute(&mut conn)
        .await;
    assert!(err.is_err(), "a done job without a result was accepted");
    assert!(matches!(
        q.submit("x", 0).await,
        Err(QueueError::NoAttempts)
    ));
}

/// A job no worker can prove (each gives it back for its own trouble) stops after
/// `max_attempts` such workers instead of stopping the fleet; a reason quoting a NUL byte is
/// stored.
#[tokio::test]
async fn a_job_no_worker_can_prove_stops_and_odd_reasons_are_stored() {
    let Some(q) = queue("no_worker_can").await else {
        return;
    };
    let id = q.submit("B beyond every setup", 2).await.unwrap();
    for (w, state) in [("w1", JobState::Queued), ("w2", JobState::Failed)] {
        q.lease(w, SHORT).await.unwrap().unwrap();
        assert!(q
            .give_back(id, w, "no params of k = 23\0", GiveBack::WorkerFault)
            .await
            .unwrap());
        assert_eq!(q.status(id).await.unwrap().state, state);
    }
    let s = q.status(id).await.unwrap();
    let error = s.error.unwrap();
    assert!(
        error.contains("2 workers could not prove it") && error.contains("\\0"),
        "{error}"
    );
    assert!(q.lease("w3", SHORT).await.unwrap().is_none());
    let bad = q.submit("x", 1).await.unwrap();
    q.lease("w", SHORT).await.unwrap().unwrap();
    assert!(q.fail(bad, "w", "unknown field `a\0`").await.unwrap());
}

/// A job released by stopping workers (SIGTERM, a rollout) costs neither a try nor a fault,
/// however often: with one try allowed it is still queued after three releases, and a release
/// by a worker that no longer holds the lease changes nothing.
#[tokio::test]
async fn a_released_job_costs_nothing() {
    let Some(q) = queue("released").await else {
        return;
    };
    let id = q.submit("a long batch", 1).await.unwrap();
    for w in ["r1", "r2", "r3"] {
        let job = q.lease(w, SHORT).await.unwrap().unwrap();
        assert_eq!((job.id, job.attempt), (id, 1));
        assert!(q
            .give_back(id, w, "stopped", GiveBack::Released)
            .await
            .unwrap());
        let s = q.status(id).await.unwrap();
        assert_eq!((s.state, s.attempts), (JobState::Queued, 0), "{s:?}");
        assert!(!q
            .give_back(id, w, "stopped", GiveBack::Released)
            .await
            .unwrap());
    }
    // The one try it has is still there: a crash now fails it.
    q.lease("w", SHORT).await.unwrap().unwrap();
    assert!(q
        .give_back(id, "w", "the prover crashed", GiveBack::Counted)
        .await
        .unwrap());
    assert_eq!(q.status(id).await.unwrap().state, JobState::Failed);
}

/// What is worth retrying: a server that is not there (connection refused) is; a statement
/// the server refuses (a syntax error, a trigger's exception) is not, or a worker would
/// retry it for ever.
#[tokio::test]
async fn refusals_that_would_repeat_are_not_transient() {
    let Some(admin) = admin_url("transient") else {
        return;
    };
    let url = fresh_database(&admin, "transient").await;
    let q = Queue::connect(&url).await.unwrap();
    let mut conn = connect(&url).await;
    let refused: QueueError = sqlx::query("SELEKT 1")
        .execute(&mut conn)
        .await
        .unwrap_err()
        .into();
    assert!(!refused.is_transient(), "{refused}");
    assert!(
        !refused.refuses_value(),
        "a syntax error is the deployment's, not a value's"
    );
    sqlx::raw_sql(REFUSE_RESULTS)
        .execute(&mut conn)
        .await
        .unwrap();
    let id = q.submit("x", 1).await.unwrap();
    q.lease("w", SHORT).await.unwrap().unwrap();
    let refused = q.complete(id, "w", b"proof").await.unwrap_err();
    assert!(!refused.is_transient(), "{refused}");
    assert!(refused.to_string().contains("results refused"), "{refused}");
    assert!(refused.refuses_value(), "{refused}");
    let gone = Queue::connect("postgres://nobody@127.0.0.1:1/none")
        .await
        .unwrap_err();
    assert!(gone.is_transient(), "{gone}");
    assert!(!gone.may_repeat(), "an outage is waited out, however long");
    // A statement timeout (57014) and a read-only server (25006) are retried, but may be a
    // setting that repeats for ever: a worker retries them a bounded number of times.
    sqlx::raw_sql("SET statement_timeout = '50ms'")
        .execute(&mut conn)
        .await
        .unwrap();
    let cancelled: QueueError = sqlx::query("SELECT pg_sleep(2)")
        .execute(&mut conn)
        .await
        .unwrap_err()
        .into();
    assert!(
        cancelled.is_transient() && cancelled.may_repeat(),
        "{cancelled}"
    );
    sqlx::raw_sql("SET statement_timeout = 0; SET default_transaction_read_only = on")
        .execute(&mut conn)
        .await
        .unwrap();
    let read_only: QueueError = sqlx::query("CREATE TABLE t (x int)")
        .execute(&mut conn)
        .await
        .unwrap_err()
        .into();
    assert!(
        read_only.is_transient() && read_only.may_repeat(),
        "{read_only}"
    );
    assert!(!refused.may_repeat(), "{refused}");
}

/// A worker leases only the routes it proves: an aggregated job is left to a worker that
/// asks for it, however old.
#[tokio::test]
async fn a_worker_leases_only_its_routes() {
    let Some(q) = queue("routes").await else {
        return;
    };
    let agg = q
        .submit_route("for Ethereum", "aggregated", 3)
        .await
        .unwrap();
    let proof = q.submit("a proof", 3).await.unwrap();
    let job = q
        .lease_routes("small", SHORT, Some(&["proof"]))
        .await
        .unwrap()
        .unwrap();
    assert_eq!((job.id, job.route.as_str()), (proof, "proof"));
    assert!(q
        .lease_routes("small", SHORT, Some(&["proof"]))
        .await
        .unwrap()
        .is_none());
    assert_eq!(q.status(agg).await.unwrap().attempts, 0);
    let job = q
        .lease_routes("large", SHORT, Some(&["proof", "aggregated"]))
        .await
        .unwrap()
        .unwrap();
    assert_eq!((job.id, job.route.as_str()), (agg, "aggregated"));
}

/// A version-1 jobs table (before routes) holding one job.
const VERSION_1_TABLE: &str = "CREATE TABLE batch_ecdsa_jobs (
            id BIGSERIAL PRIMARY KEY, input TEXT NOT NULL, input_sha256 TEXT NOT NULL,
            state TEXT NOT NULL DEFAULT 'queued'
                CHECK (state IN ('queued', 'running', 'done', 'failed')),
            attempts INTEGER NOT NULL DEFAULT 0, worker_faults INTEGER NOT NULL DEFAULT 0,
            max_attempts INTEGER NOT NULL CHECK (max_attempts >= 1), lease_owner TEXT,
            lease_until TIMESTAMPTZ, phase TEXT, last_error TEXT, error TEXT, result BYTEA,
            result_sha256 TEXT, result_worker TEXT,
            submitted_at TIMESTAMPTZ NOT NULL DEFAULT now(), started_at TIMESTAMPTZ,
            finished_at TIMESTAMPTZ,
            CHECK ((state = 'done') = (result IS NOT NULL)),
            CHECK ((state = 'failed') = (error IS NOT NULL)));
         INSERT INTO batch_ecdsa_jobs (input, input_sha256, max_attempts)
         VALUES ('old', encode(sha256('old'), 'hex'), 3);";

/// A connection to `url` whose database holds a version-1 table with one job.
async fn version_1_table(url: &str) -> sqlx::PgConnection {
    connect_and_run(url, VERSION_1_TABLE).await
}

/// A fleet's version-1 table (before routes) gains its `route` column on first use, its jobs
/// are `proof` jobs and still leasable; a second connect leaves the table alone.
#[tokio::test]
async fn a_version_1_table_is_upgraded_in_place() {
    let Some(admin) = admin_url("upgrade") else {
        return;
    };
    let url = fresh_database(&admin, "upgrade").await;
    let _conn = version_1_table(&url).await;
    let q = Queue::connect(&url).await.unwrap();
    Queue::connect(&url).await.unwrap();
    let job = q
        .lease_routes("w", SHORT, Some(&["proof"]))
        .await
        .unwrap()
        .unwrap();
    assert_eq!((job.input.as_str(), job.route.as_str()), ("old", "proof"));
}

/// Upgrading a version-1 table needs its exclusive lock: behind a long read of the table the
/// upgrade gives up after its lock timeout (an error, not a queue of every lease behind it),
/// and succeeds once the read ends.
#[tokio::test]
async fn an_upgrade_behind_a_long_read_gives_up_after_its_lock_timeout() {
    let Some(admin) = admin_url("upgrade_locked") else {
        return;
    };
    let url = fresh_database(&admin, "upgrade_locked").await;
    let mut conn = version_1_table(&url).await;
    sqlx::raw_sql("BEGIN; LOCK TABLE batch_ecdsa_jobs IN ACCESS SHARE MODE")
        .execute(&mut conn)
        .await
        .unwrap();
    let start = std::time::Instant::now();
    // Bounded here too: without the lock timeout the upgrade would wait for ever.
    let err = tokio::time::timeout(Duration::from_secs(60), Queue::connect(&url))
        .await
        .expect("the upgrade gave up within a minute")
        .unwrap_err();
    let waited = start.elapsed();
    assert!(err.to_string().contains("lock timeout"), "{err}");
    assert!(err.is_transient(), "{err}");
    assert!(
        waited >= batch_ecdsa_fleet::queue::MIGRATE_LOCK_TIMEOUT
            && waited < batch_ecdsa_fleet::queue::MIGRATE_LOCK_TIMEOUT * 4,
        "{waited:?}"
    );
    sqlx::raw_sql("COMMIT").execute(&mut conn).await.unwrap();
    let q = Queue::connect(&url).await.unwrap();
    assert_eq!(
        q.lease("w", SHORT).await.unwrap().unwrap().route.as_str(),
        "proof"
    );
}
