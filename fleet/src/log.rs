//! Structured log lines: one JSON object a line on stderr, as a service operator's log
//! collector reads them. Every line has `ts` (Unix seconds), `event`, and where they apply
//! `worker`, `job`, `phase`, `seconds`, `error`.

use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use batch_ecdsa::prover::api::Phase;
use batch_ecdsa::Progress;
use serde_json::{json, Map, Value};

/// Prints one line: `fields` (a JSON object) with `ts` and `event` added.
pub fn line(event: &str, fields: Value) {
    let mut map = match fields {
        Value::Object(m) => m,
        other => {
            let mut m = Map::new();
            m.insert("detail".into(), other);
            m
        }
    };
    let ts = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or(0.0);
    map.insert("ts".into(), json!((ts * 1000.0).round() / 1000.0));
    map.insert("event".into(), json!(event));
    eprintln!("{}", Value::Object(map));
}

/// The prover's progress for one job, as log lines, and its current phase (read by the
/// heartbeat, which records it in the database for `status`).
pub struct JobLog {
    pub worker: String,
    pub job: i64,
    pub phase: Arc<Mutex<String>>,
}

impl Progress for JobLog {
    fn started(&self, phase: Phase) {
        if let Ok(mut p) = self.phase.lock() {
            *p = phase.label().to_string();
        }
        line(
            "phase",
            json!({"worker": self.worker, "job": self.job, "phase": phase.label()}),
        );
    }
    fn finished(&self, phase: Phase, elapsed: Duration) {
        line(
            "phase_done",
            json!({"worker": self.worker, "job": self.job, "phase": phase.label(),
                   "seconds": elapsed.as_secs_f64()}),
        );
    }
    fn note(&self, text: &str) {
        line(
            "note",
            json!({"worker": self.worker, "job": self.job, "note": text}),
        );
    }
}
