//! The phases of a long proving job (batch check, setup, inner keys, inner proof, outer keys,
//! outer proof, …), each with its wall time and **its own** peak resident memory, for the
//! measured rows (`prove-aggregated --json`'s `phases`, `evm-aggregate`'s row), and the
//! process's peak over all of them.
//!
//! A phase's peak is the kernel's high-water mark of this process's resident set (`VmHWM`,
//! `/proc/self/status`) read at the phase's end, after the mark was reset to the resident set
//! of the moment at the phase's start (`/proc/self/clear_refs`, value 5: Linux ≥ 4.0; it
//! resets only that mark). So it is the most this process held during the phase, including
//! what it still held from earlier phases (the callers drop each proving key before its phase
//! ends) and heap the allocator kept. Where the reset cannot be made (another system, a
//! read-only `/proc`), a phase has no peak rather than a cumulative one under its name.
//!
//! **The reset erases the kernel's cumulative mark**, which is also what `/usr/bin/time -v`
//! reports as "Maximum resident set size" (the exit's `ru_maxrss`): under a measuring meter
//! that figure covers only the time since the last reset. Every reset first folds the mark
//! into a process-wide record, so [`process_peak_mib`] stays the process's peak since it
//! started; the commands print it and write it as `peak_rss_mib`.
//!
//! One measuring meter at a time per process: a meter started while another is live measures
//! times only (its phases have no peak), so two jobs at once never cut each other's phases
//! short.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use crate::calldata::rows::PhaseRow;
use crate::calldata::units::thousands;

/// The largest `VmHWM` seen before any reset of this process, MiB.
static PEAK_BEFORE_RESETS: AtomicU64 = AtomicU64::new(0);
/// Whether a measuring meter is live in this process.
static MEASURING: AtomicBool = AtomicBool::new(false);

/// `VmHWM` now (this process's peak since it started or since the last reset), MiB; `None`
/// where it cannot be read.
fn vm_hwm_mib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    parse_vm_hwm_mib(&status)
}

/// `VmHWM` from the text of `/proc/<pid>/status`, MiB.
fn parse_vm_hwm_mib(status: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

/// This process's peak resident memory since it started, MiB (resets included: the largest
/// mark any reset erased, or the mark now); `None` where it cannot be read.
pub fn process_peak_mib() -> Option<u64> {
    let now = vm_hwm_mib()?;
    Some(now.max(PEAK_BEFORE_RESETS.load(Ordering::Relaxed)))
}

/// Folds the mark into the process-wide record, then resets it to the resident set now;
/// whether the reset was made.
fn reset_peak() -> bool {
    if let Some(now) = vm_hwm_mib() {
        PEAK_BEFORE_RESETS.fetch_max(now, Ordering::Relaxed);
    }
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

/// A meter of consecutive phases: started, then [`Phases::end`] at the end of each phase,
/// which logs the phase's line and starts the next. [`Phases::note`] logs any other line.
pub struct Phases<'a> {
    log: &'a dyn Fn(&str),
    started: Instant,
    /// Whether this meter resets the mark (it is the process's measuring meter).
    measuring: bool,
    /// Whether the mark was reset at the current phase's start (so its peak is its own).
    peak_was_reset: bool,
    done: Vec<PhaseRow>,
}

impl<'a> Phases<'a> {
    /// Starts the first phase now, measuring each phase's peak (unless another measuring
    /// meter is live in this process: then times only).
    pub fn start(log: &'a dyn Fn(&str)) -> Self {
        let mut meter = Self::times_only(log);
        meter.measuring = MEASURING
            .compare_exchange(false, true, Ordering::AcqRel, Ordering::Acquire)
            .is_ok();
        meter.peak_was_reset = meter.measuring && reset_peak();
        meter
    }

    /// Starts the first phase now, measuring times only (the mark is never reset): for
    /// callers that do not report phases, and for jobs run side by side.
    pub fn times_only(log: &'a dyn Fn(&str)) -> Self {
        Self {
            log,
            started: Instant::now(),
            measuring: false,
            peak_was_reset: false,
            done: Vec::new(),
        }
    }

    /// [`Self::times_only`], logging nothing: for callers that report no phases.
    pub fn silent() -> Phases<'static> {
        Phases::times_only(&|_| {})
    }

    /// Ends the current phase as `name`, logs its line, starts the next; returns the phase.
    pub fn end(&mut self, name: &str) -> &PhaseRow {
        let peak = if self.peak_was_reset {
            vm_hwm_mib()
        } else {
            None
        };
        self.done.push(PhaseRow {
            name: name.to_string(),
            seconds: self.started.elapsed().as_secs_f64(),
            peak_rss_mib: peak,
        });
        self.peak_was_reset = self.measuring && reset_peak();
        self.started = Instant::now();
        let row = self.done.last().expect("a phase was just pushed");
        (self.log)(&line(row));
        row
    }

    /// Logs `text` (a line that is not a phase's end).
    pub fn note(&self, text: &str) {
        (self.log)(text)
    }

    /// The phases ended, in order.
    pub fn into_rows(mut self) -> Vec<PhaseRow> {
        std::mem::take(&mut self.done)
    }
}

impl Drop for Phases<'_> {
    fn drop(&mut self) {
        if self.measuring {
            MEASURING.store(false, Ordering::Release);
        }
    }
}

/// A phase's log line: `name: 12.3 s, peak 4,567 MiB` (or `peak not measured`).
pub fn line(row: &PhaseRow) -> String {
    let peak = match row.peak_rss_mib {
        Some(m) => format!("peak {} MiB", thousands(m)),
        None => "peak not measured".to_string(),
    };
    format!("{}: {:.1} s, {peak}", row.name, row.seconds)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_vm_hwm_in_mib() {
        let status = "Name:\tx\nVmPeak:\t 9999 kB\nVmHWM:\t  524288 kB\nVmRSS:\t 1 kB\n";
        assert_eq!(parse_vm_hwm_mib(status), Some(512));
        assert_eq!(parse_vm_hwm_mib("VmRSS:\t1 kB\n"), None);
        assert_eq!(parse_vm_hwm_mib("VmHWM:\tmany kB\n"), None);
    }

    #[test]
    fn a_phase_line_names_its_figures() {
        let row = PhaseRow {
            name: "inner proof".into(),
            seconds: 863.08,
            peak_rss_mib: Some(12345),
        };
        assert_eq!(line(&row), "inner proof: 863.1 s, peak 12,345 MiB");
        let none = PhaseRow {
            peak_rss_mib: None,
            ..row
        };
        assert_eq!(line(&none), "inner proof: 863.1 s, peak not measured");
    }
}
