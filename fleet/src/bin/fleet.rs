//! `fleet submit | worker | status | fetch`: batch proofs through a PostgreSQL queue
//! (`docs/fleet.md`). The database comes from `--database-url` or `DATABASE_URL`.
//!
//! Exit codes: 0 done; 1 the job failed (its batch is invalid: the reason names each bad
//! signature or transaction) or the stored proof does not verify against it; 2 bad input or
//! environment (no database, no such job); 3 (`fetch`) the job is not finished yet.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use batch_ecdsa::cli::SetupArgs;
use batch_ecdsa::Statement;
use batch_ecdsa_evm::folder_check::PinnedVerifier;
use batch_ecdsa_fleet::folder::verify_folder_result;
use batch_ecdsa_fleet::job::{verify_result, JobInput, Route};
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
        /// A batch file (JSON).
        #[arg(long, conflicts_with = "txs", required_unless_present = "txs")]
        batch: Option<PathBuf>,
        /// A transactions file (raw signed transactions, one hex a line).
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
        /// Reject high s (EIP-2) in a batch file.
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
    /// Writes a done job's result to --out after checking it against the batch that was
    /// submitted, under the setup you name: a proof file (route proof), or an aggregated proof
    /// folder (route aggregated: checked with the verifier you pin, on an EVM). A failed job's
    /// reason on stderr, exit 1.
    Fetch {
        job: i64,
        /// The batch file you submitted: the result is checked against your copy, never the
        /// database's alone.
        #[arg(long, conflicts_with = "txs", required_unless_present = "txs")]
        batch: Option<PathBuf>,
        /// The transactions file you submitted.
        #[arg(long)]
        txs: Option<PathBuf>,
        /// The chain the transactions are for.
        #[arg(long, default_value_t = 1, requires = "txs")]
        chain_id: u64,
        /// The proof file, or (aggregated) the folder to write (must not exist, or be empty).
        #[arg(long)]
        out: PathBuf,
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
        batch,
        txs,
        chain_id,
        public,
        pad_to,
        low_s,
        max_attempts,
        json,
        route,
        outer_k,
    } = &cli.command
    {
        let (path, chain) = match (batch, txs) {
            (Some(p), _) => (p, None),
            (None, Some(p)) => (p, Some(*chain_id)),
            (None, None) => return Err("give --batch or --txs".into()),
        };
        let input = match JobInput::from_file_for(
            path, chain, *public, *pad_to, *low_s, *route, *outer_k,
        ) {
            Ok(i) => i,
            Err(e) => {
                eprintln!("error: {e}");
                return Ok(e.exit_code());
            }
        };
        let queue = Queue::connect(&url).await.map_err(|e| e.to_string())?;
        let id = queue
            .submit_route(&input.to_text(), route.as_str(), *max_attempts)
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
            batch,
            txs,
            chain_id,
            out,
            setup,
            verifier,
            verifier_code_hash,
        } => {
            let (status, stored, result) = queue.result(job).await.map_err(|e| e.to_string())?;
            let (path, chain) = match (&batch, &txs) {
                (Some(p), _) => (p, None),
                (None, Some(p)) => (p, Some(chain_id)),
                (None, None) => return Err("give --batch or --txs: the batch you submitted".into()),
            };
            // A done job's result is checked against the caller's copy of the batch.
            let input = match (status.state, JobInput::held_by_caller(&stored, path, chain)) {
                (JobState::Done, Ok(i)) => i.to_text(),
                (JobState::Done, Err(e)) => {
                    eprintln!("error: job {job}: {e}");
                    return Ok(1);
                }
                _ => stored,
            };
            let route = match status.state {
                JobState::Done => JobInput::parse(&input)?.route,
                _ => Route::Proof,
            };
            match (status.state, result) {
                (JobState::Done, Some(bytes)) if route == Route::Aggregated => {
                    let pinned =
                        pinned_verifier(verifier.as_deref(), verifier_code_hash.as_deref())?;
                    match verify_folder_result(
                        &input,
                        &bytes,
                        &pinned,
                        &setup.source(),
                        &setup.params_dir,
                    ) {
                        Ok(folder) => {
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
                (JobState::Done, Some(bytes)) => {
                    if verifier.is_some() || verifier_code_hash.is_some() {
                        return Err(format!(
                            "job {job} is a proof file (route proof): --verifier and --verifier-code-hash are for aggregated folders"
                        ));
                    }
                    match verify_result(&input, &bytes, &setup.source(), &setup.params_dir) {
                        Ok(file) => {
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
                (JobState::Failed, _) => {
                    eprintln!(
                        "error: job {job} failed: {}",
                        status.error.unwrap_or_default()
                    );
                    Ok(1)
                }
                (state, _) => {
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
