//! What the fleet tests share: a database of their own on the server `DATABASE_URL` names
//! (`tools/pg-test-cluster` starts one; `.ci/run` does), demo batches, the `fleet` command.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output};
use std::time::{Duration, Instant};

use batch_ecdsa_fleet::queue::{JobStatus, Queue};
use sqlx::Connection;

/// The admin database's URL, or None with the reason printed (the test then returns: a
/// fleet test needs a real PostgreSQL server, never a stand-in).
pub fn admin_url(test: &str) -> Option<String> {
    match std::env::var("DATABASE_URL") {
        Ok(url) if !url.is_empty() => Some(url),
        _ => {
            eprintln!(
                "SKIPPED {test}: DATABASE_URL is not set (start a server with `eval \"$(tools/pg-test-cluster)\"`; .ci/run does)"
            );
            None
        }
    }
}

/// `url` with its database name replaced by `db`.
fn with_database(url: &str, db: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (url, None),
    };
    let (server, _) = base.rsplit_once('/').expect("a URL with a database");
    match query {
        Some(q) => format!("{server}/{db}?{q}"),
        None => format!("{server}/{db}"),
    }
}

/// A fresh database for `test` (dropped and made again), its URL.
pub async fn fresh_database(admin: &str, test: &str) -> String {
    let db = format!("fleet_{test}");
    let mut conn = sqlx::PgConnection::connect(admin)
        .await
        .expect("the admin database");
    sqlx::query(&format!("DROP DATABASE IF EXISTS {db} WITH (FORCE)"))
        .execute(&mut conn)
        .await
        .unwrap();
    sqlx::query(&format!("CREATE DATABASE {db}"))
        .execute(&mut conn)
        .await
        .unwrap();
    with_database(admin, &db)
}

/// A connection to the test database at `url`, as someone with write access to it (an operator,
/// or an attacker who reached the database).
pub async fn connect(url: &str) -> sqlx::PgConnection {
    sqlx::PgConnection::connect(url)
        .await
        .expect("the test database")
}

/// [`connect`], then `sql` (statements separated by `;`) run on that connection.
pub async fn connect_and_run(url: &str, sql: &str) -> sqlx::PgConnection {
    let mut conn = connect(url).await;
    sqlx::raw_sql(sql).execute(&mut conn).await.unwrap();
    conn
}

/// A demo batch file's text: `count` signatures from `seed`, those at `corrupt` invalid.
pub fn batch_text(count: usize, seed: u64, corrupt: &[usize]) -> String {
    serde_json::to_string(&batch_ecdsa::demo::demo_batch(count, seed, corrupt).unwrap()).unwrap()
}

/// Writes `text` to a file in `dir`.
pub fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// A scratch folder for `test` (emptied).
pub fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("batch-ecdsa-fleet-{test}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The shared params folder of the fleet tests (the insecure development setup: one τ for
/// every worker process, as a fleet needs; keys made once for all tests).
pub fn params_dir() -> PathBuf {
    let dir = std::env::temp_dir().join("batch-ecdsa-fleet-params");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub fn fleet(url: &str) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_fleet"));
    c.env("DATABASE_URL", url);
    c
}

pub fn run(cmd: &mut Command) -> Output {
    cmd.output().expect("fleet runs")
}

pub fn text(o: &Output) -> String {
    format!(
        "exit {:?}\nstdout: {}\nstderr: {}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// `fleet worker` with the tests' setup and `args`, started.
pub fn spawn_worker(url: &str, name: &str, args: &[&str]) -> Child {
    fleet(url)
        .args([
            "worker",
            "--insecure-dev-setup",
            "--name",
            name,
            "--poll-ms",
            "100",
        ])
        .arg("--params-dir")
        .arg(params_dir())
        .args(args)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("a worker starts")
}

/// Polls job `id` until `done(status)` or `timeout`.
pub async fn wait_for(
    queue: &Queue,
    id: i64,
    timeout: Duration,
    done: impl Fn(&JobStatus) -> bool,
) -> JobStatus {
    let start = Instant::now();
    loop {
        let s = queue.status(id).await.unwrap();
        if done(&s) {
            return s;
        }
        assert!(
            start.elapsed() < timeout,
            "job {id} still {s:?} after {timeout:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A trigger that refuses to store any result (a database policy, a size limit): the
/// refusal repeats whoever asks.
pub const REFUSE_RESULTS: &str = "
CREATE FUNCTION refuse_results() RETURNS trigger AS $$
BEGIN
    IF NEW.state = 'done' THEN
        RAISE EXCEPTION 'results refused by this database''s policy';
    END IF;
    RETURN NEW;
END $$ LANGUAGE plpgsql;
CREATE TRIGGER refuse_results BEFORE UPDATE ON batch_ecdsa_jobs
    FOR EACH ROW EXECUTE FUNCTION refuse_results();
";

/// Sends `signal` (e.g. "TERM") to `child`.
pub fn signal(child: &Child, signal: &str) {
    let status = Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(child.id().to_string())
        .status()
        .expect("kill runs");
    assert!(status.success());
}

/// A child's stderr, read line by line on a thread as it is written (the worker's JSON log).
pub struct StderrLines {
    lines: std::sync::mpsc::Receiver<String>,
    /// Every line read so far.
    pub seen: String,
}

impl StderrLines {
    /// Takes `child`'s piped stderr.
    pub fn of(child: &mut Child) -> Self {
        use std::io::BufRead;
        let stderr = child.stderr.take().expect("stderr piped");
        let (send, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        StderrLines {
            lines,
            seen: String::new(),
        }
    }

    /// Reads lines until one contains `needle`; panics after `timeout` or at end of stream.
    pub fn wait_for(&mut self, needle: &str, timeout: Duration) {
        let start = Instant::now();
        loop {
            let left = timeout.saturating_sub(start.elapsed());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push_str(&line);
                    self.seen.push('\n');
                    if line.contains(needle) {
                        return;
                    }
                }
                Err(e) => panic!("no line with {needle} ({e:?}); read:\n{}", self.seen),
            }
        }
    }

    /// Every line, once the child has closed its stderr.
    pub fn rest(mut self) -> String {
        for line in self.lines.iter() {
            self.seen.push_str(&line);
            self.seen.push('\n');
        }
        self.seen
    }
}
