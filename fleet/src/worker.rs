//! A worker: lease a job, prove it while renewing the lease, store the proof or fail the job;
//! again. The last prover (setup and keys, per statement and B) is kept, so a worker proving
//! one kind of batch reads its keys once. The database may go away at any moment: a statement
//! that failed for a transient reason ([`QueueError::is_transient`]) is retried with backoff,
//! and a finished proof is held until it is stored or refused; one the database refuses for
//! good stops the worker (or, for a result it will not store, fails the job), never a loop.
//!
//! A worker asked to stop ([`Stopper`]: `fleet worker` on SIGTERM or SIGINT) leases nothing
//! more; a proof under way is given [`WorkerOptions::drain`] to finish and be stored, else the
//! job is released ([`GiveBack::Released`]: queued again at once, the try not counted) and the
//! worker returns.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use batch_ecdsa::prover::api::KeyCache;
use batch_ecdsa::{
    CircuitKind, ProveOptions, Prover, ProverError, SetupOptions, SetupSource, Statement,
};
use serde_json::json;

use crate::job::{Checked, JobInput, JobOutcome, Route};
use crate::log::{line, JobLog};
use crate::queue::{Completion, GiveBack, Leased, Queue, QueueError};

/// How a worker runs.
#[derive(Clone, Debug)]
pub struct WorkerOptions {
    /// The worker's name in leases and logs (unique in the fleet: host and process id).
    pub id: String,
    /// How long a proof under way may still run once the worker is asked to stop, to be
    /// stored; after it the job is released to the queue (zero: at once).
    pub drain: Duration,
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
    /// The routes this worker takes jobs of (a subset of [`buildable_routes`]).
    pub routes: Vec<Route>,
}

/// The routes this build proves: `proof`, and `aggregated` with the feature `aggregate`.
pub fn buildable_routes() -> Vec<Route> {
    let mut r = vec![Route::Proof];
    if cfg!(feature = "aggregate") {
        r.push(Route::Aggregated);
    }
    r
}

/// Why a worker stopped before its work was done.
#[derive(Debug, thiserror::Error)]
pub enum WorkerError {
    /// The worker cannot prove (setup, keys, memory): the job was given back uncounted.
    #[error("job {job}: this worker cannot prove it: {reason}")]
    CannotProve { job: i64, reason: String },
    #[error("the local setup is this machine's own: a fleet proves under one setup (--params FILE, or --insecure-dev-setup for tests)")]
    LocalSetup,
    #[error("this worker was built without the route {0} (the aggregated route needs the feature `aggregate`)")]
    RouteNotBuilt(&'static str),
    /// The database refused a statement for a reason that would repeat (a permission, a
    /// constraint, a trigger): retrying would loop for ever, so the worker stops.
    #[error("the database refused to {what} (not retried: the refusal would repeat): {error}")]
    Refused { what: String, error: QueueError },
}

/// Asks a worker to stop (cloneable; [`Stopper::stop`] from a signal handler or another
/// task). The worker leases nothing more and drains or releases the job it holds.
#[derive(Clone, Debug, Default)]
pub struct Stopper {
    asked: Arc<AtomicBool>,
    notify: Arc<tokio::sync::Notify>,
}

impl Stopper {
    pub fn stop(&self) {
        self.asked.store(true, Ordering::SeqCst);
        self.notify.notify_waiters();
    }
    pub fn asked(&self) -> bool {
        self.asked.load(Ordering::SeqCst)
    }
    /// Returns once [`Stopper::stop`] has been called (at once if it was).
    pub async fn wait(&self) {
        loop {
            let notified = self.notify.notified();
            if self.asked() {
                return;
            }
            notified.await;
        }
    }
}

type Provers = HashMap<(Statement, usize), Prover>;

/// A worker bound to a queue.
pub struct Worker {
    queue: Queue,
    options: WorkerOptions,
    provers: Provers,
    stopper: Stopper,
}

/// How many times in a row a worker retries a transient error that may also be a setting
/// repeating for ever ([`QueueError::may_repeat`]: a statement timeout, a read-only server)
/// before it takes it for a refusal: about two minutes of backoff ([`Backoff`]).
pub const BOUNDED_RETRIES: u32 = 15;

/// The same bound when storing a finished proof (about fifteen minutes): a read-only server
/// during a long failover must not cost a proof already made, so the worker waits longer
/// before it takes the error for a refusal of the result.
pub const STORE_RETRIES: u32 = 90;

/// When to try a failed database statement again: 0.5 s, 1 s, 2 s … up to 10 s between tries
/// while it fails for a transient reason (the database restarting, a network cut); never for
/// a refusal that would repeat; and an error that may repeat ([`QueueError::may_repeat`]) at
/// most `limit` times in a row ([`BOUNDED_RETRIES`] unless made [`Backoff::up_to`]).
#[derive(Debug)]
pub struct Backoff {
    wait: Duration,
    repeated: u32,
    limit: u32,
}

impl Default for Backoff {
    fn default() -> Self {
        Backoff::up_to(BOUNDED_RETRIES)
    }
}

impl Backoff {
    /// A backoff that gives up on an error that may repeat after `limit` tries in a row.
    pub fn up_to(limit: u32) -> Self {
        Backoff {
            wait: Duration::from_millis(500),
            repeated: 0,
            limit,
        }
    }

    /// The wait before trying again after a failure that is `transient` and that `may_repeat`,
    /// or None to give up.
    pub fn after(&mut self, transient: bool, may_repeat: bool) -> Option<Duration> {
        if !transient || (may_repeat && self.repeated >= self.limit) {
            return None;
        }
        self.repeated = if may_repeat { self.repeated + 1 } else { 0 };
        let wait = self.wait;
        self.wait = (self.wait * 2).min(Duration::from_secs(10));
        Some(wait)
    }
}

/// Runs `f` until it succeeds or [`Backoff`] gives up, logging each failure; the error given
/// up on is returned as a refusal.
async fn retried<T, F, Fut>(what: &str, worker: &str, f: F) -> Result<T, WorkerError>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<T, QueueError>>,
{
    retried_up_to(BOUNDED_RETRIES, what, worker, f).await
}

/// [`retried`], giving up on an error that may repeat after `limit` tries in a row.
async fn retried_up_to<T, F, Fut>(
    limit: u32,
    what: &str,
    worker: &str,
    mut f: F,
) -> Result<T, WorkerError>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<T, QueueError>>,
{
    let mut backoff = Backoff::up_to(limit);
    loop {
        let e = match f().await {
            Ok(v) => return Ok(v),
            Err(e) => e,
        };
        let Some(wait) = backoff.after(e.is_transient(), e.may_repeat()) else {
            line(
                "database_refused",
                json!({"worker": worker, "what": what, "error": e.to_string()}),
            );
            return Err(WorkerError::Refused {
                what: what.to_string(),
                error: e,
            });
        };
        line(
            "database_retry",
            json!({"worker": worker, "what": what, "error": e.to_string(),
                   "retry_in_s": wait.as_secs_f64()}),
        );
        tokio::time::sleep(wait).await;
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
    if checked.route == Route::Aggregated {
        // The proof route's keys would count against the outer proof's memory floor.
        provers.clear();
        return prove_aggregated(&checked, options, log);
    }
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
            // This machine's trouble (the CPU, the setup, the keys), never the batch's.
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
            ProverError::Cpu(_) | ProverError::Params(_) | ProverError::Keys(_) => {
                JobOutcome::Worker(e.to_string())
            }
            ProverError::Memory(_) => JobOutcome::Retry(e.to_string()),
            other => JobOutcome::Bad(other.to_string()),
        })?;
    Ok(proved.file.to_json().into_bytes())
}

/// The aggregated route: the folder made in memory (`batch_ecdsa_evm::folder_prover`: inner
/// and outer keys cached in the params folder, the chain's check passed) and stored as a
/// [`crate::folder::StoredFolder`]. Runs on a blocking thread.
#[cfg(feature = "aggregate")]
fn prove_aggregated(
    checked: &Checked,
    options: &WorkerOptions,
    log: &JobLog,
) -> Result<Vec<u8>, JobOutcome> {
    use batch_ecdsa_evm::folder_prover::{prove_folder, FolderError, FolderRequest};
    if let Ok(mut p) = log.phase.lock() {
        *p = "aggregate".into();
    }
    let request = FolderRequest {
        batch: &checked.batch,
        payloads: checked.payloads.as_deref(),
        statement: checked.statement,
        batch_size: checked.batch_size,
        outer_k: checked.outer_k,
        policy: checked.policy,
        setup: &options.setup,
        params_dir: &options.params_dir,
    };
    let note = |text: &str| batch_ecdsa::Progress::note(log, text);
    let folder = prove_folder(&request, &note).map_err(|e| match e {
        FolderError::Invalid { .. } | FolderError::Input(_) => JobOutcome::Bad(e.to_string()),
        FolderError::Memory(_) => JobOutcome::Retry(e.to_string()),
        FolderError::Environment(_) => JobOutcome::Worker(e.to_string()),
    })?;
    Ok(crate::folder::StoredFolder::new(folder.file, folder.solidity).to_bytes())
}

/// Without the feature `aggregate` a worker does not lease aggregated jobs; one whose row says
/// `proof` but whose input says aggregated (an altered row) is given back, uncounted.
#[cfg(not(feature = "aggregate"))]
fn prove_aggregated(
    _checked: &Checked,
    _options: &WorkerOptions,
    _log: &JobLog,
) -> Result<Vec<u8>, JobOutcome> {
    Err(JobOutcome::Worker(
        WorkerError::RouteNotBuilt(Route::Aggregated.as_str()).to_string(),
    ))
}

impl Worker {
    pub fn new(queue: Queue, options: WorkerOptions) -> Result<Self, WorkerError> {
        if options.setup == SetupSource::Local {
            return Err(WorkerError::LocalSetup);
        }
        if let Some(r) = options
            .routes
            .iter()
            .find(|r| !buildable_routes().contains(r))
        {
            return Err(WorkerError::RouteNotBuilt(r.as_str()));
        }
        Ok(Worker {
            queue,
            options,
            provers: HashMap::new(),
            stopper: Stopper::default(),
        })
    }

    /// The handle that asks this worker to stop.
    pub fn stopper(&self) -> Stopper {
        self.stopper.clone()
    }

    /// Takes and proves jobs until `max_jobs` are done, (with `exit_when_idle`) the queue is
    /// empty, or it is asked to stop; returns how many jobs it finished (stored or failed).
    pub async fn run(&mut self) -> Result<usize, WorkerError> {
        let id = self.options.id.clone();
        line("worker_started", json!({"worker": id}));
        let mut done = 0;
        while self.options.max_jobs.is_none_or(|m| done < m) && !self.stopper.asked() {
            let lease = self.options.lease;
            let queue = self.queue.clone();
            let routes: Vec<&str> = self.options.routes.iter().map(|r| r.as_str()).collect();
            let leased = retried("lease", &id, || {
                queue.lease_routes(&id, lease, Some(&routes))
            })
            .await?;
            let Some(job) = leased else {
                if self.options.exit_when_idle {
                    break;
                }
                tokio::select! {
                    _ = tokio::time::sleep(self.options.poll) => {}
                    _ = self.stopper.wait() => {}
                }
                continue;
            };
            if self.work(job).await? {
                done += 1;
            }
        }
        line(
            "worker_stopped",
            json!({"worker": id, "jobs": done, "asked_to_stop": self.stopper.asked()}),
        );
        Ok(done)
    }

    /// One leased job: prove with heartbeats, then store, fail or give back; false when it
    /// was released because the worker was asked to stop.
    async fn work(&mut self, job: Leased) -> Result<bool, WorkerError> {
        let id = self.options.id.clone();
        // The row's route chose this worker; the input's must agree (the database is not
        // trusted to hold what submit checked).
        let input_route = JobInput::parse(&job.input).map(|i| i.route.as_str());
        if input_route.as_ref().is_ok_and(|r| *r != job.route) {
            let reason = format!(
                "the job's row says route {} but its input says {}: the database was altered",
                job.route,
                input_route.unwrap_or_default()
            );
            let queue = self.queue.clone();
            retried("fail", &id, || queue.fail(job.id, &id, &reason)).await?;
            line(
                "failed",
                json!({"worker": id, "job": job.id, "error": reason}),
            );
            return Ok(true);
        }
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
        let mut proving = tokio::task::spawn_blocking(move || {
            let r = prove(&mut provers, &input, &options, &log);
            (r, provers)
        });
        let outcome = tokio::select! {
            outcome = &mut proving => outcome,
            _ = self.stopper.wait() => {
                line(
                    "stopping",
                    json!({"worker": id, "job": job.id,
                           "drain_s": self.options.drain.as_secs_f64()}),
                );
                match tokio::time::timeout(self.options.drain, &mut proving).await {
                    Ok(outcome) => outcome,
                    Err(_) => {
                        // The proof thread cannot be interrupted; it ends with the process.
                        heartbeat.abort();
                        let reason = "the worker was stopped before it finished (released, the try not counted)";
                        let queue = self.queue.clone();
                        retried("release", &id, || {
                            queue.give_back(job.id, &id, reason, GiveBack::Released)
                        })
                        .await?;
                        line("released", json!({"worker": id, "job": job.id,
                                                "seconds": start.elapsed().as_secs_f64()}));
                        return Ok(false);
                    }
                }
            }
        };
        let seconds = start.elapsed().as_secs_f64();
        let queue = self.queue.clone();
        if !matches!(outcome, Ok((Ok(_), _))) {
            heartbeat.abort();
        }
        match outcome {
            Ok((Ok(proof), provers)) => {
                self.provers = provers;
                // The lease is renewed until the proof is stored: a slow or retried store
                // (the database restarting) does not let the job be taken, or failed for its
                // tries, while the proof waits.
                let stored = retried_up_to(STORE_RETRIES, "complete", &id, || {
                    queue.complete(job.id, &id, &proof)
                })
                .await;
                heartbeat.abort();
                let stored = match stored {
                    Ok(stored) => stored,
                    Err(WorkerError::Refused { what, error }) if !error.refuses_value() => {
                        // The deployment's refusal (a permission, the schema), not the
                        // result's: the worker stops; the job is leased again when its
                        // lease runs out.
                        return Err(WorkerError::Refused { what, error });
                    }
                    Err(refused) => {
                        // A result the database will not store (a trigger, a size limit)
                        // would be refused again to any worker: the job fails, saying why.
                        let reason = format!("the result could not be stored: {refused}");
                        retried("fail", &id, || queue.fail(job.id, &id, &reason)).await?;
                        line(
                            "failed",
                            json!({"worker": id, "job": job.id, "seconds": seconds,
                                   "error": reason}),
                        );
                        return Ok(true);
                    }
                };
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
                retried("fail", &id, || queue.fail(job.id, &id, &reason)).await?;
                line(
                    "failed",
                    json!({"worker": id, "job": job.id, "seconds": seconds, "error": reason}),
                );
            }
            Ok((Err(JobOutcome::Worker(reason)), _)) => {
                retried("give_back", &id, || {
                    queue.give_back(job.id, &id, &reason, GiveBack::WorkerFault)
                })
                .await?;
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
                    queue.give_back(job.id, &id, &reason, GiveBack::Counted)
                })
                .await?;
                line(
                    "given_back",
                    json!({"worker": id, "job": job.id, "error": reason, "counted": true}),
                );
                // Let another worker take it first.
                tokio::select! {
                    _ = tokio::time::sleep(self.options.poll) => {}
                    _ = self.stopper.wait() => {}
                }
            }
            Err(join) => {
                // The prover panicked: the try counts (a job that keeps crashing stops).
                let reason = format!("the prover crashed: {join}");
                retried("give_back", &id, || {
                    queue.give_back(job.id, &id, &reason, GiveBack::Counted)
                })
                .await?;
                line(
                    "given_back",
                    json!({"worker": id, "job": job.id, "error": reason, "counted": true}),
                );
            }
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A server out of reach is waited for as long as it takes; a refusal never retried; a
    /// statement timeout or a read-only server retried BOUNDED_RETRIES times in a row, the
    /// count starting again after any other failure.
    #[test]
    fn backoff_waits_for_an_outage_but_not_for_ever_on_a_repeating_error() {
        let mut b = Backoff::default();
        let waits: Vec<_> = (0..6).map(|_| b.after(true, false).unwrap()).collect();
        assert_eq!(waits[0], Duration::from_millis(500));
        assert_eq!(waits[5], Duration::from_secs(10));
        for _ in 0..1000 {
            assert!(b.after(true, false).is_some(), "an outage is waited out");
        }
        assert_eq!(Backoff::default().after(false, false), None);
        assert_eq!(Backoff::default().after(false, true), None);

        let mut b = Backoff::default();
        for _ in 0..BOUNDED_RETRIES {
            assert!(b.after(true, true).is_some());
        }
        assert_eq!(
            b.after(true, true),
            None,
            "a repeating error is given up on"
        );
        let mut b = Backoff::default();
        for _ in 0..BOUNDED_RETRIES {
            assert!(b.after(true, true).is_some());
        }
        assert!(b.after(true, false).is_some(), "an outage in between");
        for _ in 0..BOUNDED_RETRIES {
            assert!(b.after(true, true).is_some(), "counted in a row");
        }
        assert_eq!(b.after(true, true), None);

        // Storing a finished proof waits longer: a failover's read-only minutes do not
        // discard it.
        let mut b = Backoff::up_to(STORE_RETRIES);
        for _ in 0..STORE_RETRIES {
            assert!(b.after(true, true).is_some());
        }
        assert_eq!(b.after(true, true), None);
        const { assert!(STORE_RETRIES > 4 * BOUNDED_RETRIES) };
    }
}
