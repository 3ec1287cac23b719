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
use batch_ecdsa_fleet::job::{verify_result, JobInput};
use batch_ecdsa_fleet::queue::{JobState, Queue};
use batch_ecdsa_fleet::worker::{Stopper, Worker, WorkerOptions};
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
    /// Writes a done job's proof file to --out after checking it against the batch that was
    /// submitted (under the setup you name); a failed job's reason on stderr, exit 1.
    Fetch {
        job: i64,
        #[arg(long)]
        out: PathBuf,
        #[command(flatten)]
        setup: SetupArgs,
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
    } = &cli.command
    {
        let (path, chain) = match (batch, txs) {
            (Some(p), _) => (p, None),
            (None, Some(p)) => (p, Some(*chain_id)),
            (None, None) => return Err("give --batch or --txs".into()),
        };
        let input = match JobInput::from_file(path, chain, *public, *pad_to, *low_s) {
            Ok(i) => i,
            Err(e) => {
                eprintln!("error: {e}");
                return Ok(e.exit_code());
            }
        };
        let queue = Queue::connect(&url).await.map_err(|e| e.to_string())?;
        let id = queue
            .submit(&input.to_text(), *max_attempts)
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
        Command::Fetch { job, out, setup } => {
            let (status, input, result) = queue.result(job).await.map_err(|e| e.to_string())?;
            match (status.state, result) {
                (JobState::Done, Some(bytes)) => {
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
