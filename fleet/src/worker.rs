//! A worker: lease a job, prove it while renewing the lease, store the proof or fail the job;
//! again. The last prover (setup and keys, per statement and B) is kept, so a worker proving
//! one kind of batch reads its keys once. The database may go away at any moment: every statement is retried with backoff,
//! and a finished proof is held until it is stored or refused.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use batch_ecdsa::prover::api::KeyCache;
use batch_ecdsa::{
    CircuitKind, ProveOptions, Prover, ProverError, SetupOptions, SetupSource, Statement,
};
use serde_json::json;

use crate::job::{JobInput, JobOutcome};
use crate::log::{line, JobLog};
use crate::queue::{Completion, Leased, Queue, QueueError};

/// How a worker runs.
#[derive(Clone, Debug)]
pub struct WorkerOptions {
    /// The worker's name in leases and logs (unique in the fleet: host and process id).
    pub id: String,
    /// How long a lease lasts without a heartbeat (renewed every third of it).
    pub lease: Duration,
    /// How long to wait when the queue is empty.
    pub poll: Duration,
    /// Stop after this many jobs (None: never).
    pub max_jobs: Option<usize>,
    /// Stop when the queue has nothing to lease.
    pub exit_when_idle: bool,
    /// The params and keys folder.
    pub params_dir: PathBuf,
    /// The setup every proof is made under (one for the whole fleet: a ceremony file, or the
    /// development setup in tests; a machine's local setup is its own, so it is refused).
    pub setup: SetupSource,
}

/// Why a worker stopped before its work was done.
#[derive(Debug, thiserror::Error)]
pub enum WorkerError {
    /// The worker cannot prove (setup, keys, memory): the job was given back uncounted.
    #[error("job {job}: this worker cannot prove it: {reason}")]
    CannotProve { job: i64, reason: String },
    #[error("the local setup is this machine's own: a fleet proves under one setup (--params FILE, or --insecure-dev-setup for tests)")]
    LocalSetup,
}

type Provers = HashMap<(Statement, usize), Prover>;

/// A worker bound to a queue.
pub struct Worker {
    queue: Queue,
    options: WorkerOptions,
    provers: Provers,
}

/// Retries `f` until it succeeds, logging each failure (the database restarting, a network
/// cut), waiting 0.5 s, 1 s, 2 s … up to 10 s between tries.
async fn retried<T, F, Fut>(what: &str, worker: &str, mut f: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<T, QueueError>>,
{
    let mut wait = Duration::from_millis(500);
    loop {
        match f().await {
            Ok(v) => return v,
            Err(e) => {
                line(
                    "database_retry",
                    json!({"worker": worker, "what": what, "error": e.to_string(),
                           "retry_in_s": wait.as_secs_f64()}),
                );
                tokio::time::sleep(wait).await;
                wait = (wait * 2).min(Duration::from_secs(10));
            }
        }
    }
}

/// Proves one job's input with the cached provers. Runs on a blocking thread.
fn prove(
    provers: &mut Provers,
    input: &str,
    options: &WorkerOptions,
    log: &JobLog,
) -> Result<Vec<u8>, JobOutcome> {
    let input = JobInput::parse(input).map_err(JobOutcome::Bad)?;
    let checked = input.check().map_err(|e| JobOutcome::Bad(e.reason))?;
    let key = (checked.statement, checked.batch_size);
    if !provers.contains_key(&key) {
        // One prover's keys at a time: a worker that changes B drops the others' memory.
        provers.clear();
        let setup = SetupOptions {
            params: options.setup.clone(),
            key_cache: KeyCache::Use,
            statement: checked.statement,
        };
        let prover = Prover::with_setup(
            CircuitKind::Batch,
            checked.batch_size,
            &options.params_dir,
            &setup,
            log,
        )
        .map_err(|e| match e {
            ProverError::Memory(_) => JobOutcome::Retry(e.to_string()),
            other => JobOutcome::Worker(other.to_string()),
        })?;
        provers.insert(key, prover);
    }
    let prover = &provers[&key];
    let proved = prover
        .prove(
            &checked.batch,
            ProveOptions {
                policy: checked.policy,
                ..ProveOptions::default()
            },
            log,
        )
        .map_err(|e| match e {
            ProverError::Params(_) | ProverError::Keys(_) => JobOutcome::Worker(e.to_string()),
            ProverError::Memory(_) => JobOutcome::Retry(e.to_string()),
            other => JobOutcome::Bad(other.to_string()),
        })?;
    Ok(proved.file.to_json().into_bytes())
}

impl Worker {
    pub fn new(queue: Queue, options: WorkerOptions) -> Result<Self, WorkerError> {
        if options.setup == SetupSource::Local {
            return Err(WorkerError::LocalSetup);
        }
        Ok(Worker {
            queue,
            options,
            provers: HashMap::new(),
        })
    }

    /// Takes and proves jobs until `max_jobs` are done or (with `exit_when_idle`) the queue
    /// is empty; returns how many jobs it finished (stored or failed).
    pub async fn run(&mut self) -> Result<usize, WorkerError> {
        let id = self.options.id.clone();
        line("worker_started", json!({"worker": id}));
        let mut done = 0;
        while self.options.max_jobs.is_none_or(|m| done < m) {
            let lease = self.options.lease;
            let queue = self.queue.clone();
            let leased = retried("lease", &id, || queue.lease(&id, lease)).await;
            let Some(job) = leased else {
                if self.options.exit_when_idle {
                    break;
                }
                tokio::time::sleep(self.options.poll).await;
                continue;
            };
            self.work(job).await?;
            done += 1;
        }
        line("worker_stopped", json!({"worker": id, "jobs": done}));
        Ok(done)
    }

    /// One leased job: prove with heartbeats, then store, fail or give back.
    async fn work(&mut self, job: Leased) -> Result<(), WorkerError> {
        let id = self.options.id.clone();
        line(
            "leased",
            json!({"worker": id, "job": job.id, "attempt": job.attempt,
                   "max_attempts": job.max_attempts}),
        );
        let phase = Arc::new(Mutex::new("leased".to_string()));
        let heartbeat = {
            let (queue, worker, phase) = (self.queue.clone(), id.clone(), phase.clone());
            let (job_id, lease) = (job.id, self.options.lease);
            tokio::spawn(async move {
                let mut tick = tokio::time::interval(lease / 3);
                tick.tick().await;
                loop {
                    tick.tick().await;
                    let now = phase.lock().map(|p| p.clone()).unwrap_or_default();
                    match queue.heartbeat(job_id, &worker, lease, &now).await {
                        Ok(true) => {}
                        Ok(false) => line(
                            "lease_lost",
                            json!({"worker": worker, "job": job_id,
                                   "note": "another worker holds the job or it finished; proving on (the first result is stored)"}),
                        ),
                        Err(e) => line(
                            "heartbeat_failed",
                            json!({"worker": worker, "job": job_id, "error": e.to_string()}),
                        ),
                    }
                }
            })
        };
        let start = Instant::now();
        let mut provers = std::mem::take(&mut self.provers);
        let options = self.options.clone();
        let log = JobLog {
            worker: id.clone(),
            job: job.id,
            phase,
        };
        let input = job.input.clone();
        let outcome = tokio::task::spawn_blocking(move || {
            let r = prove(&mut provers, &input, &options, &log);
            (r, provers)
        })
        .await;
        heartbeat.abort();
        let seconds = start.elapsed().as_secs_f64();
        let queue = self.queue.clone();
        match outcome {
            Ok((Ok(proof), provers)) => {
                self.provers = provers;
                let stored = retried("complete", &id, || queue.complete(job.id, &id, &proof)).await;
                line(
                    match stored {
                        Completion::Stored => "stored",
                        Completion::AlreadyFinished => "not_stored",
                    },
                    json!({"worker": id, "job": job.id, "seconds": seconds,
                           "proof_bytes": proof.len()}),
                );
            }
            Ok((Err(JobOutcome::Bad(reason)), provers)) => {
                self.provers = provers;
                retried("fail", &id, || queue.fail(job.id, &id, &reason)).await;
                line(
                    "failed",
                    json!({"worker": id, "job": job.id, "seconds": seconds, "error": reason}),
                );
            }
            Ok((Err(JobOutcome::Worker(reason)), _)) => {
                retried("give_back", &id, || {
                    queue.give_back(job.id, &id, &reason, false)
                })
                .await;
                line(
                    "given_back",
                    json!({"worker": id, "job": job.id, "error": reason, "counted": false}),
                );
                return Err(WorkerError::CannotProve {
                    job: job.id,
                    reason,
                });
            }
            Ok((Err(JobOutcome::Retry(reason)), provers)) => {
                self.provers = provers;
                retried("give_back", &id, || {
                    queue.give_back(job.id, &id, &reason, true)
                })
                .await;
                line(
                    "given_back",
                    json!({"worker": id, "job": job.id, "error": reason, "counted": true}),
                );
                // Let another worker take it first.
                tokio::time::sleep(self.options.poll).await;
            }
            Err(join) => {
                // The prover panicked: the try counts (a job that keeps crashing stops).
                let reason = format!("the prover crashed: {join}");
                retried("give_back", &id, || {
                    queue.give_back(job.id, &id, &reason, true)
                })
                .await;
                line(
                    "given_back",
                    json!({"worker": id, "job": job.id, "error": reason, "counted": true}),
                );
            }
        }
        Ok(())
    }
}
