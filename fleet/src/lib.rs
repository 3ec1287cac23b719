//! **A prover fleet on PostgreSQL.** Batch proofs are independent jobs; this crate keeps them,
//! their leases and their results in one PostgreSQL database so that any number of workers on
//! any number of machines prove them, and none is lost or stored twice:
//!
//! - [`queue`]: the jobs table and every transition of a job, each one SQL statement whose
//!   `WHERE` clause is the rule (the standard `FOR UPDATE SKIP LOCKED` lease pattern);
//! - [`job`]: what a job holds (the batch or transactions as submitted, statement, B, route)
//!   and how it is proved;
//! - [`folder`]: the aggregated route's result (the folder `prove-aggregated` writes), stored
//!   and checked by `fetch` against the submitted batch, the pinned verifier and the setup;
//! - [`worker`]: the loop a worker runs: lease, heartbeat while proving, store or fail;
//! - [`log`]: the structured lines (one JSON object a line) workers and commands print.
//!
//! **The guarantees, and why they hold.**
//! - *One worker at a time*: a job is leased by an `UPDATE` of the row a `SELECT … FOR UPDATE
//!   SKIP LOCKED` picked, so two workers never pick the same row in one instant, and a row is
//!   leasable only while `queued`, or `running` with its lease expired.
//! - *A dead worker's job is leased again*: a lease lasts `lease` seconds of the database's
//!   clock (no clock of a worker is trusted) and the worker renews it every third of that
//!   while it proves; a worker killed mid-proof stops renewing, and the job becomes leasable
//!   when the lease runs out.
//! - *A result is stored once*: the first `complete` of a job moves it from `queued`/`running`
//!   to `done` in one statement; any later one (a worker whose lease had expired and whose job
//!   another worker also finished) matches no row and is reported as not stored. A `CHECK`
//!   constraint ties `done` to a stored result.
//! - *Nothing lost when the database restarts*: a job exists once its `INSERT` committed
//!   (PostgreSQL's write-ahead log); workers retry a failed statement with backoff instead of
//!   exiting, and keep a finished proof in memory, renewing its lease, until it is stored or
//!   refused; a job failed with no worker's verdict on it (out of tries, or workers that could
//!   not load their setup) still takes the first proof a worker finishes (its worker lost the
//!   database, not the job).
//! - *A bad batch fails once*: malformed input and invalid signatures are the job's fault and
//!   fail it with the reason (each bad signature or transaction named), with no retry.
//! - *A job that keeps killing workers stops*: every lease counts a try; a job whose lease
//!   expired after `max_attempts` tries is failed with that reason instead of being leased
//!   again.
//! - *A worker's own trouble is not the job's*: a worker that cannot load its setup or keys
//!   gives the job back without counting the try and exits.
//! - *A stopped worker costs no try*: on SIGTERM a worker leases nothing more, lets the proof
//!   under way finish within its drain time, else releases the job (queued at once, neither a
//!   try nor a worker fault counted).
//! - *No endless retry*: only transient database errors are retried
//!   ([`QueueError::is_transient`]), and those that may be a setting repeating for ever (a
//!   statement timeout, a read-only server: [`QueueError::may_repeat`]) a bounded number of
//!   times ([`worker::Backoff`]); a result the database refuses for its value fails the job
//!   with that reason, any other refusal stops the worker.
//!
//! Nothing here trusts a worker's output or the database: `fetch` takes the caller's own
//! description of the job ([`JobInput::as_submitted`], compared whole with the stored one by
//! [`JobInput::same_job_as`]) and checks a stored proof against it ([`job::verify_result`]),
//! under the setup the caller names, before writing it.

pub mod folder;
pub mod job;
pub mod log;
pub mod queue;
pub mod worker;

pub use job::{JobInput, JobOutcome, Route};
pub use queue::{Completion, JobState, JobStatus, Leased, Queue, QueueError};
pub use worker::{Worker, WorkerOptions};
