//! The phase meter (`batch_ecdsa::prover::phases`): each phase reports its own peak, the
//! process keeps its peak over the resets, and only one meter at a time resets the mark. A
//! test binary of its own with one test: the mark is the process's, and anything else running
//! in the process would allocate during the phases measured here.
#![cfg(target_os = "linux")]

use batch_ecdsa::prover::phases::{process_peak_mib, Phases};

const MIB: usize = 1 << 20;

/// Holds `mib` MiB resident (every page written) until it returns.
fn hold(mib: usize) {
    let v = vec![1u8; mib * MIB];
    std::hint::black_box(&v);
}

#[test]
fn each_phase_reports_its_own_peak_and_the_process_keeps_its_own() {
    let log = |_: &str| {};
    // Before any meter: a 384 MiB peak, given back.
    hold(384);
    let before = process_peak_mib().expect("VmHWM is readable on Linux");
    assert!(before >= 384, "{before} MiB after holding 384");

    // A times-only meter never resets the mark and reports no peak.
    let mut quiet = Phases::times_only(&log);
    assert_eq!(quiet.end("quiet").peak_rss_mib, None);
    drop(quiet);

    let mut phases = Phases::start(&log);
    hold(8);
    let small = phases.end("small").peak_rss_mib.expect("a peak");
    assert!(
        small + 300 < before,
        "the first phase reports {small} MiB after a {before} MiB peak before the meter: not its own"
    );
    // A second meter while this one is live measures times only (and, dropped, leaves the
    // first one measuring).
    let mut side = Phases::start(&log);
    assert_eq!(side.end("side").peak_rss_mib, None);
    drop(side);

    hold(256);
    let big = phases.end("big").peak_rss_mib.expect("a peak");
    hold(8);
    let after = phases.end("after").peak_rss_mib.expect("a peak");
    assert!(
        big >= 256 && big >= small + 200,
        "big phase: {big} MiB, small {small} MiB"
    );
    assert!(
        after + 200 < big,
        "the phase after reports {after} MiB after a {big} MiB phase: not its own"
    );
    // The resets erased the kernel's mark of the 384 MiB; the process's peak keeps it.
    assert!(process_peak_mib().expect("a peak") >= before);
    let rows = phases.into_rows();
    assert_eq!(
        rows.iter().map(|r| r.name.as_str()).collect::<Vec<_>>(),
        ["small", "big", "after"]
    );
}
