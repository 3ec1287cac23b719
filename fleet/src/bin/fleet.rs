//! `fleet submit | worker | status | fetch`: batch proofs through a PostgreSQL queue
//! (`docs/fleet.md`). The database comes from `--database-url` or `DATABASE_URL`.
//!
//! Exit codes: 0 done; 1 the job failed (its batch is invalid: the reason names each bad
//! signature or transaction), the stored proof does not verify against it, or (`fetch`) the
//! job is not the one you describe; 2 bad input or
//! environment (no database, no such job); 3 (`fetch`) the job is not finished yet.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use batch_ecdsa::cli::SetupArgs;
use batch_ecdsa::Statement;
use batch_ecdsa_evm::folder_check::PinnedVerifier;
use batch_ecdsa_fleet::folder::verify_folder_result;
use batch_ecdsa_fleet::job::{verify_result, InputRefused, JobInput, Route};
use batch_ecdsa_fleet::queue::{JobState, Queue};
use batch_ecdsa_fleet::worker::{buildable_routes, Stopper, Worker, WorkerOptions};
use clap::{Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(
    name = "fleet",
    version,
    about = "Batch proofs through a PostgreSQL queue"
)]
struct Cli {
    /// The fleet's database, e.g. postgres://user@host/db (or the DATABASE_URL variable).
    #[arg(long, env = "DATABASE_URL", global = true, hide_env_values = true)]
    database_url: Option<String>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Adds a batch to the queue and prints its job id. The batch is checked first (form,
    /// every signature or transaction, its size): a bad one is refused here, exit 2 or 1.
    Submit {
        #[command(flatten)]
        job: JobArgs,
        /// Reject high s (EIP-2) in a batch file (`fetch` takes it too: give it there as here).
        #[arg(long)]
        low_s: bool,
        /// Tries before a job that keeps stopping workers is failed.
        #[arg(long, default_value_t = 3)]
        max_attempts: i32,
        /// Print the job as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Takes jobs and proves them (many workers on many machines share one database).
    Worker {
        #[command(flatten)]
        setup: SetupArgs,
        /// The worker's name (default: host and process id).
        #[arg(long)]
        name: Option<String>,
        /// Seconds a lease lasts without a heartbeat (renewed every third of it).
        #[arg(long, default_value_t = 60.0)]
        lease_secs: f64,
        /// Milliseconds between polls of an empty queue.
        #[arg(long, default_value_t = 1000)]
        poll_ms: u64,
        /// Stop after this many jobs.
        #[arg(long)]
        max_jobs: Option<usize>,
        /// Stop when the queue has nothing to lease.
        #[arg(long)]
        exit_when_idle: bool,
        /// The routes to take jobs of (default: every route this build proves; the
        /// aggregated route needs about 16 GiB).
        #[arg(long, value_delimiter = ',')]
        routes: Vec<Route>,
        /// On SIGTERM or SIGINT, seconds a proof under way may still take to finish and be
        /// stored; after them the job is released to the queue (not counted as a try). Keep it
        /// under the orchestrator's grace period (Kubernetes: 30 s unless set).
        #[arg(long, default_value_t = 20.0)]
        drain_secs: f64,
    },
    /// A job's state (or, without a job, how many jobs are in each state).
    Status {
        job: Option<i64>,
        #[arg(long)]
        json: bool,
    },
    /// Writes a done job's result to --out after checking it against the job you submitted
    /// (give the file and flags you gave `submit`: the job must be exactly that one), under
    /// the setup you name: a proof file (route proof), or an aggregated proof folder (route
    /// aggregated: checked with the verifier you pin, on an EVM). A failed job's reason on
    /// stderr, with your batch checked again here, exit 1.
    Fetch {
        job: i64,
        #[command(flatten)]
        submitted: JobArgs,
        /// The proof file, or (aggregated) the folder to write (must not exist, or be empty).
        #[arg(long)]
        out: PathBuf,
        /// Transactions: also write what a rollup posts with the proof (unsigned transactions
        /// and senders, docs/formats.md, *Stripped transactions*), once the result is checked.
        #[arg(long)]
        strip_out: Option<PathBuf>,
        #[command(flatten)]
        setup: SetupArgs,
        /// Aggregated: the source of the verifier contract you deployed (or trust).
        #[arg(long, conflicts_with = "verifier_code_hash")]
        verifier: Option<PathBuf>,
        /// Aggregated: the deployed verifier's runtime code hash (`cast codehash ADDRESS`); the
        /// stored verifier source must compile to exactly that code.
        #[arg(long)]
        verifier_code_hash: Option<String>,
    },
}

/// A job as `submit` takes it and `fetch` checks it: the batch and what to prove of it.
#[derive(clap::Args, Debug)]
struct JobArgs {
    /// A batch file (JSON; for `fetch`, the one you submitted).
    #[arg(long, conflicts_with = "txs", required_unless_present = "txs")]
    batch: Option<PathBuf>,
    /// A transactions file (raw signed transactions, one hex a line; for `fetch`, the one you
    /// submitted).
    #[arg(long)]
    txs: Option<PathBuf>,
    /// The chain the transactions are for.
    #[arg(long, default_value_t = 1, requires = "txs")]
    chain_id: u64,
    /// What the proof states: keys (each hash and key) or digest (one Keccak digest).
    #[arg(long, default_value = "keys")]
    public: Statement,
    /// Prove on the key for B (the batch padded with the canonical filler).
    #[arg(long)]
    pad_to: Option<usize>,
    /// proof (a batch proof file) or aggregated (an aggregated proof folder for Ethereum,
    /// digest statement; proved by workers built with the feature `aggregate`).
    #[arg(long, default_value = "proof")]
    route: Route,
    /// The aggregated route's outer k (default 22).
    #[arg(long)]
    outer_k: Option<u32>,
}

impl JobArgs {
    /// The file and, for transactions, the chain id.
    fn source(&self) -> (&std::path::Path, Option<u64>) {
        match (&self.batch, &self.txs) {
            (Some(p), _) => (p, None),
            (None, Some(p)) => (p, Some(self.chain_id)),
            (None, None) => unreachable!("clap requires --batch or --txs"),
        }
    }

    /// The job these arguments describe (`low_s`: EIP-2's high-s rule), read and checked
    /// ([`JobInput::from_file_for`]).
    fn checked(&self, low_s: bool) -> Result<JobInput, InputRefused> {
        let (path, chain) = self.source();
        let a = self;
        JobInput::from_file_for(path, chain, a.public, a.pad_to, low_s, a.route, a.outer_k)
    }

    /// The job these arguments describe, read but not checked ([`JobInput::as_submitted`]).
    fn as_submitted(&self, low_s: bool) -> Result<JobInput, InputRefused> {
        let (path, chain) = self.source();
        let a = self;
        JobInput::as_submitted(path, chain, a.public, a.pad_to, low_s, a.route, a.outer_k)
    }
}

fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|_| "host".into())
}

async fn run(cli: Cli) -> Result<u8, String> {
    let url = cli
        .database_url
        .ok_or("no database: give --database-url or set DATABASE_URL")?;
    // A machine's local setup is its own τ: the fleet's proofs must share one setup.
    if let Command::Worker { setup, .. } = &cli.command {
        if setup.source() == batch_ecdsa::SetupSource::Local {
            return Err(batch_ecdsa_fleet::worker::WorkerError::LocalSetup.to_string());
        }
    }
    // Input is checked before the database is touched.
    if let Command::Submit {
        job,
        low_s,
        max_attempts,
        json,
    } = &cli.command
    {
        let input = match job.checked(*low_s) {
            Ok(i) => i,
            Err(e) => {
                eprintln!("error: {e}");
                return Ok(e.exit_code());
            }
        };
        let queue = Queue::connect(&url).await.map_err(|e| e.to_string())?;
        let id = queue
            .submit_route(&input.to_text(), job.route.as_str(), *max_attempts)
            .await
            .map_err(|e| e.to_string())?;
        if *json {
            println!("{}", serde_json::json!({"job": id, "state": "queued"}));
        } else {
            println!("{id}");
        }
        return Ok(0);
    }
    let queue = Queue::connect(&url).await.map_err(|e| e.to_string())?;
    match cli.command {
        Command::Submit { .. } => unreachable!("handled above"),
        Command::Worker {
            setup,
            name,
            lease_secs,
            poll_ms,
            max_jobs,
            exit_when_idle,
            drain_secs,
            routes,
        } => {
            if !(1.0..=3600.0).contains(&lease_secs) {
                return Err("--lease-secs must be between 1 and 3600".into());
            }
            if !(0.0..=86_400.0).contains(&drain_secs) {
                return Err("--drain-secs must be between 0 and 86400".into());
            }
            let options = WorkerOptions {
                id: name.unwrap_or_else(|| format!("{}-{}", hostname(), std::process::id())),
                drain: Duration::from_secs_f64(drain_secs),
                lease: Duration::from_secs_f64(lease_secs),
                poll: Duration::from_millis(poll_ms),
                max_jobs,
                exit_when_idle,
                params_dir: setup.params_dir.clone(),
                setup: setup.source(),
                routes: if routes.is_empty() {
                    buildable_routes()
                } else {
                    routes
                },
            };
            let mut worker = Worker::new(queue, options).map_err(|e| e.to_string())?;
            stop_on_signals(worker.stopper()).map_err(|e| format!("signal handlers: {e}"))?;
            worker.run().await.map_err(|e| e.to_string())?;
            Ok(0)
        }
        Command::Status { job, json } => {
            match job {
                Some(id) => {
                    let s = queue.status(id).await.map_err(|e| e.to_string())?;
                    if json {
                        println!("{}", serde_json::to_string(&s).map_err(|e| e.to_string())?);
                    } else {
                        println!(
                            "job {}: {:?}, try {} of {}{}{}",
                            s.id,
                            s.state,
                            s.attempts,
                            s.max_attempts,
                            s.phase.map(|p| format!(", phase {p}")).unwrap_or_default(),
                            s.error.map(|e| format!(": {e}")).unwrap_or_default()
                        );
                    }
                }
                None => {
                    let counts = queue.counts().await.map_err(|e| e.to_string())?;
                    if json {
                        let m: serde_json::Map<_, _> = counts
                            .iter()
                            .map(|(s, n)| {
                                (
                                    serde_json::to_value(s)
                                        .unwrap_or_default()
                                        .as_str()
                                        .unwrap_or("?")
                                        .to_string(),
                                    serde_json::json!(n),
                                )
                            })
                            .collect();
                        println!("{}", serde_json::Value::Object(m));
                    } else {
                        for (s, n) in counts {
                            println!("{s:?}: {n}");
                        }
                    }
                }
            }
            Ok(0)
        }
        Command::Fetch {
            job,
            submitted,
            out,
            strip_out,
            setup,
            verifier,
            verifier_code_hash,
        } => {
            if strip_out.is_some() && submitted.txs.is_none() {
                return Err(STRIP_OUT_NEEDS_TXS.into());
            }
            // `--low-s` is the setup's flag (it names the policy the proof was made under).
            let caller = match submitted.as_submitted(setup.low_s) {
                Ok(i) => i,
                Err(e) => {
                    eprintln!("error: {e}");
                    return Ok(e.exit_code());
                }
            };
            let pinned = match caller.route {
                Route::Aggregated => Some(pinned_verifier(
                    verifier.as_deref(),
                    verifier_code_hash.as_deref(),
                )?),
                Route::Proof if verifier.is_some() || verifier_code_hash.is_some() => {
                    return Err(
                        "--verifier and --verifier-code-hash pin an aggregated folder's verifier \
                         (--route aggregated)"
                            .into(),
                    )
                }
                Route::Proof => None,
            };
            let (status, stored, result) = queue.result(job).await.map_err(|e| e.to_string())?;
            // The job must be exactly the one the caller submitted: the result is checked
            // against the caller's description, never the database's alone.
            if let Err(e) = caller.same_job_as(&stored) {
                eprintln!("error: job {job}: {}: {e}", submitted.source().0.display());
                return Ok(1);
            }
            let input = caller.to_text();
            match (status.state, result, pinned) {
                (JobState::Done, Some(bytes), Some(pinned)) => {
                    match verify_folder_result(
                        &input,
                        &bytes,
                        &pinned,
                        &setup.source(),
                        &setup.params_dir,
                    ) {
                        Ok(folder) => {
                            if let Err(code) = write_strip_out(&caller, strip_out.as_deref()) {
                                return Ok(code);
                            }
                            folder.write(&out)?;
                            for line in folder.on_chain.lines() {
                                println!("{line}");
                            }
                            println!(
                                "job {job}: aggregated proof of {} signatures ({} statement, B = {}) checked against the submitted batch and your verifier, written to {}",
                                folder.file.records.len(),
                                folder.file.statement,
                                folder.file.batch_size,
                                out.display()
                            );
                            Ok(0)
                        }
                        Err(e) => {
                            eprintln!("error: job {job}: {e}");
                            Ok(1)
                        }
                    }
                }
                (JobState::Done, Some(bytes), None) => {
                    match verify_result(&input, &bytes, &setup.source(), &setup.params_dir) {
                        Ok(file) => {
                            if let Err(code) = write_strip_out(&caller, strip_out.as_deref()) {
                                return Ok(code);
                            }
                            file.save(&out)
                                .map_err(|e| format!("{}: {e}", out.display()))?;
                            println!(
                                "job {job}: proof of {} signatures ({} statement) checked against the submitted batch, written to {}",
                                file.batch_size,
                                file.statement,
                                out.display()
                            );
                            Ok(0)
                        }
                        Err(e) => {
                            eprintln!("error: job {job}: {e}");
                            Ok(1)
                        }
                    }
                }
                (JobState::Failed, _, _) => {
                    // The stored reason is the database's word: the caller's batch is checked
                    // again here, so a job failed for another reason (or by an altered row)
                    // is not taken for a bad batch.
                    let reason = status.error.unwrap_or_default();
                    match caller.check() {
                        Err(here) => eprintln!(
                            "error: job {job} failed: {reason}\n  checked here, your batch: {}",
                            here.reason
                        ),
                        Ok(_) => eprintln!(
                            "error: job {job} failed: {reason}\n  checked here, your batch is \
                             valid (its form, every signature or transaction, its size): the \
                             failure is not the batch's; {}",
                            // No worker's verdict (out of tries): a late proof is still kept.
                            if status.result_worker.is_none() {
                                "fetch again later (a worker may still store its proof), or \
                                 submit it again"
                            } else {
                                "submit it again"
                            }
                        ),
                    }
                    Ok(1)
                }
                (state, _, _) => {
                    eprintln!(
                        "job {job} is {state:?} (try {} of {}): not finished yet",
                        status.attempts, status.max_attempts
                    );
                    Ok(3)
                }
            }
        }
    }
}

/// Why `--strip-out` is refused with a batch file (checked before the database is read).
const STRIP_OUT_NEEDS_TXS: &str =
    "--strip-out is for a job submitted as transactions (--txs): a batch file has none to strip";

/// Writes the stripped file of the caller's transactions to `path` (atomically), if asked:
/// only after the result was checked against them. The exit code on failure.
fn write_strip_out(caller: &JobInput, path: Option<&std::path::Path>) -> Result<(), u8> {
    let Some(path) = path else { return Ok(()) };
    match caller.signed_txs() {
        Ok(Some(txs)) => batch_ecdsa::cli::write_stripped(&txs, path),
        Ok(None) => {
            eprintln!("error: {STRIP_OUT_NEEDS_TXS}");
            Err(2)
        }
        Err(e) => {
            eprintln!("error: {e}");
            Err(e.exit_code())
        }
    }
}

/// The verifier the caller pins for an aggregated folder: never the stored one on its own word.
fn pinned_verifier(
    source: Option<&std::path::Path>,
    code_hash: Option<&str>,
) -> Result<PinnedVerifier, String> {
    match (source, code_hash) {
        (Some(path), _) => Ok(PinnedVerifier::Source {
            text: batch_ecdsa::fsutil::read_text_bounded(
                path,
                batch_ecdsa_evm::aggregated_folder::MAX_VERIFIER_SOURCE_BYTES,
            )
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?,
            label: path.display().to_string(),
        }),
        (None, Some(hash)) => Ok(PinnedVerifier::CodeHash(
            batch_ecdsa::hexfmt::decode_hex_fixed::<32>(hash)
                .map_err(|e| format!("--verifier-code-hash: {e}"))?,
        )),
        (None, None) => Err(
            "an aggregated folder is checked against the verifier you trust: give --verifier FILE \
             (the source of the contract you deployed) or --verifier-code-hash HASH (`cast \
             codehash ADDRESS`); the folder's own verifier proves nothing"
                .into(),
        ),
    }
}

/// SIGTERM (an orchestrator stopping the pod or container) and SIGINT (Ctrl-C) ask the worker
/// to stop: it leases nothing more and drains or releases its job.
fn stop_on_signals(stopper: Stopper) -> std::io::Result<()> {
    use tokio::signal::unix::{signal, SignalKind};
    let mut term = signal(SignalKind::terminate())?;
    let mut int = signal(SignalKind::interrupt())?;
    tokio::spawn(async move {
        tokio::select! {
            _ = term.recv() => {}
            _ = int.recv() => {}
        }
        stopper.stop();
        // A second signal: stop now (a job held is leased again when its lease runs out).
        tokio::select! {
            _ = term.recv() => {}
            _ = int.recv() => {}
        }
        batch_ecdsa_fleet::log::line("stopped_at_once", serde_json::json!({"signal": "second"}));
        std::process::exit(130);
    });
    Ok(())
}

fn main() -> ExitCode {
    if let Some(code) = batch_ecdsa::cpu::refusal() {
        return code;
    }
    let cli = Cli::parse();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let code = match runtime.block_on(run(cli)) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    };
    // A released job's proof thread cannot be interrupted: do not wait for it.
    runtime.shutdown_background();
    code
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `--low-s` is named once in each command: two flattened groups naming one flag (as
    /// `fetch` once did) share one id, and clap checks that only in a debug build, so the
    /// definition is counted here.
    #[test]
    fn fetch_takes_low_s_once_for_both_the_job_and_the_setup() {
        use clap::CommandFactory;
        let cli = Cli::command();
        for name in ["fetch", "submit"] {
            let sub = cli.find_subcommand(name).expect("the subcommand");
            let n = sub
                .get_arguments()
                .filter(|a| a.get_long() == Some("low-s"))
                .count();
            assert_eq!(n, 1, "{name} names --low-s {n} times");
        }
        let cli = Cli::try_parse_from([
            "fleet", "fetch", "7", "--batch", "b.json", "--out", "p", "--low-s",
        ])
        .expect("parses");
        match cli.command {
            Command::Fetch { setup, .. } => assert!(setup.low_s),
            other => panic!("not fetch: {other:?}"),
        }
        let cli = Cli::try_parse_from(["fleet", "submit", "--batch", "b.json", "--low-s"])
            .expect("parses");
        match cli.command {
            Command::Submit { low_s, .. } => assert!(low_s),
            other => panic!("not submit: {other:?}"),
        }
    }
}
