//! The jobs table and every transition of a job. Each transition is one SQL statement whose
//! `WHERE` clause states when it may happen, so concurrent workers and commands need no other
//! coordination (crate doc: the guarantees).
//!
//! ```text
//! queued ──lease──▶ running ──complete──▶ done
//!   ▲                │  │ └────fail─────▶ failed      (the job's fault: no retry)
//!   └──give back─────┘  └─lease expired, tries = max──▶ failed ──complete──▶ done
//!   (lease expired: leased again)                     (out of tries: a late proof counts)
//! ```
//!
//! A job failed with no worker's verdict on it (out of tries: its workers stopped, crashed
//! or ran short of memory; or stopped because its workers could not load their setup or
//! keys) still takes the first proof a worker finishes: that worker may have lost the
//! database, not the job, and a proof of the batch is as good late as early (`fetch` checks
//! it like any other). A job failed by a worker's verdict on it (`fail`: malformed or invalid
//! input, an altered row, a result the database refused) names that worker in
//! `result_worker` and is final.

use std::time::Duration;

use serde::Serialize;
use sha2::{Digest, Sha256};
use sqlx::postgres::{PgPool, PgPoolOptions};
use sqlx::Row;

/// The table the fleet keeps its jobs in (created if absent, [`Queue::migrate`]).
pub const TABLE: &str = "batch_ecdsa_jobs";

/// The schema, version 2 (a version-1 table gains its `route` column). `state` moves only as
/// the module doc draws; a `done` job has a result and a failed one an error (the `CHECK`s).
const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS batch_ecdsa_jobs (
    id            BIGSERIAL PRIMARY KEY,
    input         TEXT        NOT NULL,
    input_sha256  TEXT        NOT NULL,
    state         TEXT        NOT NULL DEFAULT 'queued'
                  CHECK (state IN ('queued', 'running', 'done', 'failed')),
    attempts      INTEGER     NOT NULL DEFAULT 0,
    worker_faults INTEGER     NOT NULL DEFAULT 0,
    max_attempts  INTEGER     NOT NULL CHECK (max_attempts >= 1),
    lease_owner   TEXT,
    lease_until   TIMESTAMPTZ,
    phase         TEXT,
    last_error    TEXT,
    error         TEXT,
    result        BYTEA,
    result_sha256 TEXT,
    result_worker TEXT,
    submitted_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    started_at    TIMESTAMPTZ,
    finished_at   TIMESTAMPTZ,
    CHECK ((state = 'done') = (result IS NOT NULL)),
    CHECK ((state = 'failed') = (error IS NOT NULL))
);
CREATE INDEX IF NOT EXISTS batch_ecdsa_jobs_open ON batch_ecdsa_jobs (id)
    WHERE state IN ('queued', 'running');
-- Version 2: the route a job is proved for; a worker leases only the routes it can prove.
ALTER TABLE batch_ecdsa_jobs ADD COLUMN IF NOT EXISTS route TEXT NOT NULL DEFAULT 'proof';
";

/// The longest [`Queue::migrate`] waits for the table's lock when it must change the table.
pub const MIGRATE_LOCK_TIMEOUT: Duration = Duration::from_secs(5);

/// Largest job input stored (a batch file of the batch circuit's largest B is under 1 MiB).
pub const MAX_INPUT_BYTES: usize = 16 << 20;

#[derive(Debug, thiserror::Error)]
pub enum QueueError {
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    #[error("job {0} does not exist")]
    NoSuchJob(i64),
    #[error("a job's input is {got} bytes, more than {MAX_INPUT_BYTES}")]
    InputTooLarge { got: usize },
    #[error("max_attempts must be at least 1")]
    NoAttempts,
    #[error("job {id}: the stored result does not match its SHA-256 (the database was altered)")]
    ResultAltered { id: i64 },
}

impl QueueError {
    /// Whether trying the same statement again may succeed: the connection or the server
    /// (restarting, out of connections or disk, a serialisation conflict), as opposed to a
    /// refusal that would repeat for ever (a constraint, a permission, a trigger, a value
    /// PostgreSQL cannot store).
    pub fn is_transient(&self) -> bool {
        let QueueError::Database(e) = self else {
            return false;
        };
        match e {
            sqlx::Error::Io(_)
            | sqlx::Error::Tls(_)
            | sqlx::Error::Protocol(_)
            | sqlx::Error::PoolTimedOut
            | sqlx::Error::PoolClosed
            | sqlx::Error::WorkerCrashed => true,
            sqlx::Error::Database(db) => db.code().is_some_and(|c| transient_sqlstate(&c)),
            _ => false,
        }
    }

    /// Whether the database refused the value itself (a data exception, a constraint on it, a
    /// program limit, an exception raised by a trigger or rule): storing the same value again
    /// would be refused again, by any worker. Other refusals (a permission, the schema) are the deployment's,
    /// not the job's.
    pub fn refuses_value(&self) -> bool {
        let QueueError::Database(sqlx::Error::Database(db)) = self else {
            return false;
        };
        db.code().is_some_and(|c| {
            c.starts_with("22") || c.starts_with("23") || c.starts_with("54") || c == "P0001"
        })
    }

    /// Whether a transient error may also be a setting that would repeat for ever: 57014 (a
    /// statement cancelled: a `statement_timeout` too short for the statement, or an
    /// operator) and 25006 (a read-only server: a standby during a failover, or a server
    /// left read-only). A worker retries these a bounded number of times in a row
    /// ([`crate::worker::BOUNDED_RETRIES`]), the others (a server restarting or out of reach)
    /// for as long as it takes.
    pub fn may_repeat(&self) -> bool {
        let QueueError::Database(sqlx::Error::Database(db)) = self else {
            return false;
        };
        db.code().is_some_and(|c| c == "57014" || c == "25006")
    }
}

/// SQLSTATEs worth retrying: class 08 (connection exception), 53 (insufficient resources:
/// disk, memory, connections), 57P01–57P03 (the server shutting down or starting), 57014 (a
/// statement cancelled: a timeout, an operator), 25006 (a read-only server: a standby during
/// a failover), 40001 and 40P01 (serialisation failure, deadlock), 55P03 (lock not
/// available).
fn transient_sqlstate(code: &str) -> bool {
    code.starts_with("08")
        || code.starts_with("53")
        || matches!(
            code,
            "57P01" | "57P02" | "57P03" | "57014" | "25006" | "40001" | "40P01" | "55P03"
        )
}

/// A job's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum JobState {
    Queued,
    Running,
    Done,
    Failed,
}

impl JobState {
    fn parse(s: &str) -> Result<Self, sqlx::Error> {
        Ok(match s {
            "queued" => JobState::Queued,
            "running" => JobState::Running,
            "done" => JobState::Done,
            "failed" => JobState::Failed,
            other => {
                return Err(sqlx::Error::Decode(
                    format!("unknown job state {other:?}").into(),
                ))
            }
        })
    }
}

/// What `status` shows of a job.
#[derive(Clone, Debug, Serialize)]
pub struct JobStatus {
    pub id: i64,
    pub state: JobState,
    pub attempts: i32,
    pub max_attempts: i32,
    /// The worker holding the lease (running jobs).
    pub worker: Option<String>,
    /// The phase the worker last reported (layout, setup, keygen, witness, prove, verify).
    pub phase: Option<String>,
    /// Why a failed job failed (each bad signature or transaction named).
    pub error: Option<String>,
    /// The last transient error (a try given back), kept for the operator.
    pub last_error: Option<String>,
    /// Which worker's result was stored.
    pub result_worker: Option<String>,
    /// Seconds from submission to the end (done or failed).
    pub seconds: Option<f64>,
}

/// A leased job.
#[derive(Clone, Debug)]
pub struct Leased {
    pub id: i64,
    pub input: String,
    /// The route the job was submitted for (the worker checks it against the input's).
    pub route: String,
    /// This try's number (1 for the first lease).
    pub attempt: i32,
    pub max_attempts: i32,
}

/// What `complete` did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Completion {
    /// This result is the job's result.
    Stored,
    /// The job was already finished (another worker's result, or failed): nothing stored.
    AlreadyFinished,
}

/// What giving a job back costs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GiveBack {
    /// The try counts towards `max_attempts` (this machine ran short of memory, the prover
    /// crashed): a job no worker can finish stops after its tries.
    Counted,
    /// The worker's own trouble (its setup or keys): the try does not count, but after
    /// `max_attempts` such give-backs the job fails (no worker of this fleet can prove it).
    WorkerFault,
    /// The worker is stopping (SIGTERM, a rollout): the job is queued again at once, at no
    /// cost (a worker killed without warning costs a try instead, when its lease runs out).
    Released,
}

/// The queue: a pool of connections to the fleet's database.
#[derive(Clone, Debug)]
pub struct Queue {
    pool: PgPool,
}

/// A reason PostgreSQL's `TEXT` takes: no NUL (an error message may quote input holding one,
/// and a statement PostgreSQL refuses would be retried for ever), at most 64 KiB.
fn storable(reason: &str) -> String {
    let mut s = reason.replace('\0', "\\0");
    if s.len() > 64 << 10 {
        let mut cut = 64 << 10;
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        s.truncate(cut);
        s.push_str(" …");
    }
    s
}

fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

impl Queue {
    /// Connects (a small pool: a worker needs two connections, one for its heartbeat) and
    /// creates the table if absent.
    pub async fn connect(url: &str) -> Result<Self, QueueError> {
        let pool = PgPoolOptions::new()
            .max_connections(4)
            .acquire_timeout(Duration::from_secs(10))
            .connect(url)
            .await?;
        let queue = Queue { pool };
        queue.migrate().await?;
        Ok(queue)
    }

    /// Creates the table and index if absent (and adds version 2's column to a version-1
    /// table), under an advisory lock so that workers starting together do not race on the
    /// catalogue. A table already at version 2 is left alone: `ALTER TABLE` takes an
    /// exclusive lock even when it changes nothing, which would queue every lease behind a
    /// long read of the table.
    pub async fn migrate(&self) -> Result<(), QueueError> {
        const CURRENT: &str = "SELECT count(*) FROM information_schema.columns
             WHERE table_schema = current_schema() AND table_name = 'batch_ecdsa_jobs'
               AND column_name = 'route'";
        let current: i64 = sqlx::query_scalar(CURRENT).fetch_one(&self.pool).await?;
        if current == 1 {
            return Ok(());
        }
        let mut tx = self.pool.begin().await?;
        sqlx::query("SELECT pg_advisory_xact_lock(7402735101)")
            .execute(&mut *tx)
            .await?;
        // Another command may have upgraded the table while this one waited for the advisory
        // lock: its DDL (even `IF NOT EXISTS`) would take the table's exclusive lock again.
        let current: i64 = sqlx::query_scalar(CURRENT).fetch_one(&mut *tx).await?;
        if current == 1 {
            tx.commit().await?;
            return Ok(());
        }
        // Upgrading a version-1 table takes an exclusive lock: wait for it at most
        // MIGRATE_LOCK_TIMEOUT (a long read holding the table fails the upgrade, 55P03, instead
        // of queueing every lease behind it), and try again later.
        sqlx::raw_sql(&format!(
            "SET LOCAL lock_timeout = '{}ms'",
            MIGRATE_LOCK_TIMEOUT.as_millis()
        ))
        .execute(&mut *tx)
        .await?;
        sqlx::raw_sql(SCHEMA).execute(&mut *tx).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Adds a job for the route `proof` ([`Queue::submit_route`]).
    pub async fn submit(&self, input: &str, max_attempts: i32) -> Result<i64, QueueError> {
        self.submit_route(input, "proof", max_attempts).await
    }

    /// Adds a job (its input as [`crate::job::JobInput::to_text`] gives it) for `route` and
    /// returns its id. The job exists once this returns: the `INSERT` has committed.
    pub async fn submit_route(
        &self,
        input: &str,
        route: &str,
        max_attempts: i32,
    ) -> Result<i64, QueueError> {
        if input.len() > MAX_INPUT_BYTES {
            return Err(QueueError::InputTooLarge { got: input.len() });
        }
        if max_attempts < 1 {
            return Err(QueueError::NoAttempts);
        }
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO batch_ecdsa_jobs (input, input_sha256, max_attempts, route)
             VALUES ($1, $2, $3, $4) RETURNING id",
        )
        .bind(input)
        .bind(sha256_hex(input.as_bytes()))
        .bind(max_attempts)
        .bind(route)
        .fetch_one(&self.pool)
        .await?;
        Ok(id)
    }

    /// Leases the oldest leasable job of any route ([`Queue::lease_routes`]).
    pub async fn lease(&self, worker: &str, lease: Duration) -> Result<Option<Leased>, QueueError> {
        self.lease_routes(worker, lease, None).await
    }

    /// Leases the oldest leasable job of `routes` (None: any) to `worker` for `lease` (of the
    /// database's clock): a queued job, or a running one whose lease expired with tries left.
    /// First fails every running job whose lease expired with no try left (a job that keeps
    /// killing workers).
    pub async fn lease_routes(
        &self,
        worker: &str,
        lease: Duration,
        routes: Option<&[&str]>,
    ) -> Result<Option<Leased>, QueueError> {
        let routes: Option<Vec<String>> = routes.map(|r| r.iter().map(|s| s.to_string()).collect());
        sqlx::query(
            "UPDATE batch_ecdsa_jobs
             SET state = 'failed', finished_at = now(), phase = NULL, lease_until = NULL,
                 error = 'stopped after ' || attempts || ' tries: each worker that took it stopped \
                          before finishing (its lease expired; the last was ' ||
                          coalesce(lease_owner, '?') || ')'
             WHERE state = 'running' AND lease_until < now() AND attempts >= max_attempts",
        )
        .execute(&self.pool)
        .await?;
        loop {
            let row = sqlx::query(
                "UPDATE batch_ecdsa_jobs
                 SET state = 'running', attempts = attempts + 1, lease_owner = $1,
                     lease_until = now() + make_interval(secs => $2), phase = 'leased',
                     started_at = coalesce(started_at, now())
                 WHERE id = (
                     SELECT id FROM batch_ecdsa_jobs
                     WHERE (state = 'queued'
                        OR (state = 'running' AND lease_until < now() AND attempts < max_attempts))
                       AND ($3::text[] IS NULL OR route = ANY($3))
                     ORDER BY id
                     LIMIT 1
                     FOR UPDATE SKIP LOCKED)
                 RETURNING id, input, input_sha256, attempts, max_attempts, route",
            )
            .bind(worker)
            .bind(lease.as_secs_f64())
            .bind(&routes)
            .fetch_optional(&self.pool)
            .await?;
            let Some(row) = row else { return Ok(None) };
            let input: String = row.try_get("input")?;
            let recorded: String = row.try_get("input_sha256")?;
            let id: i64 = row.try_get("id")?;
            if sha256_hex(input.as_bytes()) != recorded {
                // An altered row is the job's end, not a reason to prove something else.
                self.fail(
                    id,
                    worker,
                    "the job's input does not match its SHA-256 (the database was altered)",
                )
                .await?;
                continue;
            }
            return Ok(Some(Leased {
                id,
                input,
                route: row.try_get("route")?,
                attempt: row.try_get("attempts")?,
                max_attempts: row.try_get("max_attempts")?,
            }));
        }
    }

    /// Renews `worker`'s lease of job `id` and records its phase; false when the worker no
    /// longer holds it (the lease expired and another worker took the job, or it finished).
    pub async fn heartbeat(
        &self,
        id: i64,
        worker: &str,
        lease: Duration,
        phase: &str,
    ) -> Result<bool, QueueError> {
        let n = sqlx::query(
            "UPDATE batch_ecdsa_jobs
             SET lease_until = now() + make_interval(secs => $3), phase = $4
             WHERE id = $1 AND lease_owner = $2 AND state = 'running'",
        )
        .bind(id)
        .bind(worker)
        .bind(lease.as_secs_f64())
        .bind(phase)
        .execute(&self.pool)
        .await?
        .rows_affected();
        Ok(n == 1)
    }

    /// Stores `result` as job `id`'s if the job is not finished yet, whoever leased it last
    /// (the first finished proof wins: proofs of one batch are equally good), or if it failed
    /// with no worker's verdict on it (`result_worker` is empty: out of tries, or workers that
    /// could not prove it; module doc); else nothing.
    pub async fn complete(
        &self,
        id: i64,
        worker: &str,
        result: &[u8],
    ) -> Result<Completion, QueueError> {
        let n = sqlx::query(
            "UPDATE batch_ecdsa_jobs
             SET state = 'done', result = $3, result_sha256 = $4, result_worker = $2,
                 lease_owner = NULL, lease_until = NULL, phase = 'done', finished_at = now(),
                 last_error = coalesce(error, last_error), error = NULL
             WHERE id = $1 AND (state IN ('queued', 'running')
                                OR (state = 'failed' AND result_worker IS NULL))",
        )
        .bind(id)
        .bind(worker)
        .bind(result)
        .bind(sha256_hex(result))
        .execute(&self.pool)
        .await?
        .rows_affected();
        Ok(if n == 1 {
            Completion::Stored
        } else {
            Completion::AlreadyFinished
        })
    }

    /// Fails job `id` for good with `reason` (the job's fault: malformed or invalid input), if
    /// it is not finished yet. Returns whether it was.
    pub async fn fail(&self, id: i64, worker: &str, reason: &str) -> Result<bool, QueueError> {
        let reason = storable(reason);
        let n = sqlx::query(
            "UPDATE batch_ecdsa_jobs
             SET state = 'failed', error = $3, result_worker = $2, lease_owner = NULL,
                 lease_until = NULL, phase = NULL, finished_at = now()
             WHERE id = $1 AND state IN ('queued', 'running')",
        )
        .bind(id)
        .bind(worker)
        .bind(&reason)
        .execute(&self.pool)
        .await?
        .rows_affected();
        Ok(n == 1)
    }

    /// Gives job `id` back to the queue (`worker`'s lease ends now), `why` deciding what the
    /// try costs ([`GiveBack`]). A job given back counted with no try left is failed with
    /// `reason`; so is one that `max_attempts` workers gave back for their own trouble (a job no
    /// worker of this fleet can prove, e.g. a B beyond every worker's setup, must not stop the
    /// fleet for ever). A job released by a stopping worker costs nothing.
    pub async fn give_back(
        &self,
        id: i64,
        worker: &str,
        reason: &str,
        why: GiveBack,
    ) -> Result<bool, QueueError> {
        let reason = storable(reason);
        let (count_try, count_fault) = match why {
            GiveBack::Counted => (true, false),
            GiveBack::WorkerFault => (false, true),
            GiveBack::Released => (false, false),
        };
        let n = sqlx::query(
            "UPDATE batch_ecdsa_jobs
             SET attempts = CASE WHEN $4 THEN attempts ELSE greatest(attempts - 1, 0) END,
                 worker_faults = CASE WHEN $5 THEN worker_faults + 1 ELSE worker_faults END,
                 state = CASE WHEN ($4 AND attempts >= max_attempts)
                                OR ($5 AND worker_faults + 1 >= max_attempts)
                              THEN 'failed' ELSE 'queued' END,
                 error = CASE WHEN $4 AND attempts >= max_attempts
                              THEN 'stopped after ' || attempts || ' tries: ' || $3
                              WHEN $5 AND worker_faults + 1 >= max_attempts
                              THEN 'stopped: ' || (worker_faults + 1) ||
                                   ' workers could not prove it (their setup or keys): ' || $3
                         END,
                 finished_at = CASE WHEN ($4 AND attempts >= max_attempts)
                                      OR ($5 AND worker_faults + 1 >= max_attempts)
                                    THEN now() END,
                 last_error = $3, lease_owner = NULL, lease_until = NULL, phase = NULL
             WHERE id = $1 AND lease_owner = $2 AND state = 'running'",
        )
        .bind(id)
        .bind(worker)
        .bind(&reason)
        .bind(count_try)
        .bind(count_fault)
        .execute(&self.pool)
        .await?
        .rows_affected();
        Ok(n == 1)
    }

    /// Job `id`'s status.
    pub async fn status(&self, id: i64) -> Result<JobStatus, QueueError> {
        let row = sqlx::query(
            "SELECT id, state, attempts, max_attempts, lease_owner, phase, error, last_error,
                    result_worker,
                    EXTRACT(EPOCH FROM (finished_at - submitted_at))::float8 AS seconds
             FROM batch_ecdsa_jobs WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?
        .ok_or(QueueError::NoSuchJob(id))?;
        Ok(JobStatus {
            id: row.try_get("id")?,
            state: JobState::parse(row.try_get("state")?)?,
            attempts: row.try_get("attempts")?,
            max_attempts: row.try_get("max_attempts")?,
            worker: row.try_get("lease_owner")?,
            phase: row.try_get("phase")?,
            error: row.try_get("error")?,
            last_error: row.try_get("last_error")?,
            result_worker: row.try_get("result_worker")?,
            seconds: row.try_get("seconds")?,
        })
    }

    /// Job `id`'s input and, when done, its result (checked against the SHA-256 stored with
    /// it).
    pub async fn result(
        &self,
        id: i64,
    ) -> Result<(JobStatus, String, Option<Vec<u8>>), QueueError> {
        let status = self.status(id).await?;
        let row =
            sqlx::query("SELECT input, result, result_sha256 FROM batch_ecdsa_jobs WHERE id = $1")
                .bind(id)
                .fetch_one(&self.pool)
                .await?;
        let input: String = row.try_get("input")?;
        let result: Option<Vec<u8>> = row.try_get("result")?;
        if let Some(bytes) = &result {
            let recorded: Option<String> = row.try_get("result_sha256")?;
            if recorded.as_deref() != Some(sha256_hex(bytes).as_str()) {
                return Err(QueueError::ResultAltered { id });
            }
        }
        Ok((status, input, result))
    }

    /// How many jobs are in each state.
    pub async fn counts(&self) -> Result<Vec<(JobState, i64)>, QueueError> {
        let rows = sqlx::query(
            "SELECT state, count(*) AS n FROM batch_ecdsa_jobs GROUP BY state ORDER BY state",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((JobState::parse(r.try_get("state")?)?, r.try_get("n")?)))
            .collect()
    }
}
