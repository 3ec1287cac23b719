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

/// Asserts that `out` exited with `code`; on failure shows `what` and both output streams.
pub fn assert_exit(out: &Output, code: i32, what: &str) {
    assert_eq!(
        out.status.code(),
        Some(code),
        "{what}\nstderr: {}\nstdout: {}",
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
}
