//! Progress on stderr for the command-line tools: one indicatif spinner per phase (drawn only
//! when stderr is a terminal) and one plain line per finished phase and per note, so logs and
//! tests see what happened. stdout is never touched.

use std::sync::Mutex;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

use super::api::{Phase, Progress};

/// The command line's [`Progress`].
#[derive(Default)]
pub struct StderrBars {
    current: Mutex<Option<ProgressBar>>,
}

impl StderrBars {
    pub fn new() -> Self {
        Self::default()
    }
}

impl Progress for StderrBars {
    fn started(&self, phase: Phase) {
        let bar = ProgressBar::new_spinner();
        if let Ok(style) = ProgressStyle::with_template("{spinner} {msg} {elapsed_precise}") {
            bar.set_style(style);
        }
        bar.set_message(phase.label());
        bar.enable_steady_tick(Duration::from_millis(120));
        if let Ok(mut cur) = self.current.lock() {
            if let Some(old) = cur.replace(bar) {
                old.finish_and_clear();
            }
        }
    }

    fn finished(&self, phase: Phase, elapsed: Duration) {
        if let Ok(mut cur) = self.current.lock() {
            if let Some(bar) = cur.take() {
                bar.finish_and_clear();
            }
        }
        eprintln!("{:>8}: {:.2} s", phase.label(), elapsed.as_secs_f64());
    }

    fn note(&self, text: &str) {
        match self.current.lock().ok().and_then(|c| c.clone()) {
            Some(bar) => bar.println(text),
            None => eprintln!("{text}"),
        }
    }
}
