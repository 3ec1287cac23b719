#![allow(dead_code)]
//! Shared helpers of the command-line tests: a scratch folder per test and a run of a binary
//! that must never panic.

use std::path::PathBuf;
use std::process::{Command, Output};

/// A scratch folder `batch-ecdsa-{suite}-{pid}-{name}` under the system's temporary folder.
pub fn tmp_dir(suite: &str, name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("batch-ecdsa-{suite}-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `bin` with `args`; fails the test if it panicked (bad input must be an error).
pub fn run(bin: &str, args: &[&str]) -> Output {
    let out = Command::new(bin).args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{bin} panicked: {stderr}");
    out
}

/// The exit status and both output streams of a run, for failure messages.
pub fn text(o: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Asserts that `out` exited with `code`; on failure shows `what` and the run's [`text`].
pub fn assert_exit(out: &Output, code: i32, what: &str) {
    assert_eq!(out.status.code(), Some(code), "{what}\n{}", text(out));
}
