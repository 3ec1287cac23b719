//! A database restart during work loses no job: the server `DATABASE_URL` names is restarted
//! by the command in `BATCH_ECDSA_FLEET_RESTART` (`tools/pg-test-cluster` prints both; `.ci/run`
//! sets them) while a worker proves; the worker retries its statements until the server is
//! back and every submitted job ends done. Its own test binary: cargo runs test binaries one
//! after another, so no other fleet test sees the restart.

mod common;

use std::time::Duration;

use batch_ecdsa_fleet::job::{BatchText, JobInput, Route};
use batch_ecdsa_fleet::queue::{JobState, Queue};
use common::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_restart_during_work_loses_no_job() {
    let Some(admin) = admin_url("db_restart") else {
        return;
    };
    let Ok(restart) = std::env::var("BATCH_ECDSA_FLEET_RESTART") else {
        eprintln!("SKIPPED a_database_restart_during_work_loses_no_job: BATCH_ECDSA_FLEET_RESTART is not set (tools/pg-test-cluster prints it)");
        return;
    };
    let url = fresh_database(&admin, "db_restart").await;
    let q = Queue::connect(&url).await.unwrap();
    let mut ids = Vec::new();
    for seed in 20..23 {
        let input = JobInput {
            batch: BatchText::Batch {
                text: batch_text(1, seed, &[]),
            },
            statement: "keys".into(),
            route: Route::Proof,
            pad_to: None,
            low_s: false,
            outer_k: None,
        };
        ids.push(q.submit(&input.to_text(), 3).await.unwrap());
    }
    let worker = spawn_worker(&url, "survivor", &["--max-jobs", "3", "--lease-secs", "3"]);
    wait_for(&q, ids[0], Duration::from_secs(300), |s| {
        s.state == JobState::Running && matches!(s.phase.as_deref(), Some("witness" | "prove"))
    })
    .await;
    drop(q); // the pool's connections die with the server
             // No pipes: the restarted server would inherit them and hold them open.
    let status = std::process::Command::new("sh")
        .args(["-c", &restart])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "{restart}: {status}");

    let out = worker.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let q = Queue::connect(&url).await.unwrap();
    for id in ids {
        let s = q.status(id).await.unwrap();
        assert_eq!(s.state, JobState::Done, "{s:?}");
    }
}
