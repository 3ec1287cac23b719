//! The machine and the date a comparison ran on, read from `/proc` (Linux) and the clock.

use std::time::{SystemTime, UNIX_EPOCH};

/// Description of the machine, for the results' header.
#[derive(Clone, Debug, PartialEq)]
pub struct Machine {
    /// CPU model (`model name` of `/proc/cpuinfo`).
    pub cpu: String,
    /// Logical processors listed in `/proc/cpuinfo`.
    pub cores: usize,
    /// Kernel (`/proc/sys/kernel/ostype` and `osrelease`), with the distribution's
    /// `PRETTY_NAME` from `/etc/os-release` when there is one.
    pub os: String,
    /// Total memory from `/proc/meminfo`, GiB.
    pub memory_gib: Option<f64>,
    /// The 1-minute load average when the run started (`/proc/loadavg`): other work on the
    /// machine slows the timings.
    pub load_at_start: Option<f64>,
}

impl Machine {
    /// Reads the running machine; fields that cannot be read say "unknown".
    pub fn detect() -> Machine {
        let read = |p: &str| std::fs::read_to_string(p).unwrap_or_default();
        let cpuinfo = read("/proc/cpuinfo");
        let kernel = format!(
            "{} {}",
            read("/proc/sys/kernel/ostype").trim(),
            read("/proc/sys/kernel/osrelease").trim()
        );
        Machine {
            cpu: cpu_model(&cpuinfo).unwrap_or_else(|| "unknown".into()),
            cores: processor_count(&cpuinfo)
                .or_else(|| std::thread::available_parallelism().ok().map(|n| n.get()))
                .unwrap_or(0),
            os: os_name(kernel.trim(), &read("/etc/os-release")),
            memory_gib: mem_total_gib(&read("/proc/meminfo")),
            load_at_start: load_average(&read("/proc/loadavg")),
        }
    }

    /// One line for the results' header.
    pub fn describe(&self) -> String {
        let mut s = format!("{}, {} logical cores", self.cpu, self.cores);
        if let Some(m) = self.memory_gib {
            s += &format!(", {m:.0} GiB RAM");
        }
        s += &format!(", {}", self.os);
        if let Some(l) = self.load_at_start {
            s += &format!(" (load average {l:.2} at start)");
        }
        s
    }
}

/// The first `model name` of a `/proc/cpuinfo` text.
pub fn cpu_model(cpuinfo: &str) -> Option<String> {
    field_values(cpuinfo, "model name").next()
}

/// The number of `processor` entries of a `/proc/cpuinfo` text.
pub fn processor_count(cpuinfo: &str) -> Option<usize> {
    let n = field_values(cpuinfo, "processor").count();
    (n > 0).then_some(n)
}

fn field_values<'a>(text: &'a str, key: &'a str) -> impl Iterator<Item = String> + 'a {
    text.lines().filter_map(move |l| {
        let (k, v) = l.split_once(':')?;
        (k.trim() == key).then(|| v.trim().to_string())
    })
}

/// `PRETTY_NAME (kernel)` when `/etc/os-release` names the distribution, else the kernel.
pub fn os_name(kernel: &str, os_release: &str) -> String {
    let pretty = os_release.lines().find_map(|l| {
        let v = l.strip_prefix("PRETTY_NAME=")?;
        Some(v.trim().trim_matches('"').to_string())
    });
    let kernel = if kernel.is_empty() { "unknown" } else { kernel };
    match pretty {
        Some(p) if !p.is_empty() => format!("{p} ({kernel})"),
        _ => kernel.to_string(),
    }
}

/// `MemTotal` of a `/proc/meminfo` text, in GiB.
pub fn mem_total_gib(meminfo: &str) -> Option<f64> {
    let v = field_values(meminfo, "MemTotal").next()?;
    let kib: f64 = v.split_whitespace().next()?.parse().ok()?;
    Some(kib / (1024.0 * 1024.0))
}

/// The 1-minute load average of a `/proc/loadavg` text.
pub fn load_average(loadavg: &str) -> Option<f64> {
    loadavg.split_whitespace().next()?.parse().ok()
}

/// The current time as `YYYY-MM-DD HH:MM UTC`.
pub fn utc_now() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    utc_string(secs)
}

/// `YYYY-MM-DD HH:MM UTC` for `secs` seconds after the Unix epoch.
pub fn utc_string(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        rem / 3600,
        rem % 3600 / 60
    )
}

/// Proleptic Gregorian date of a day count since 1970-01-01 (H. Hinnant's `civil_from_days`).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CPUINFO: &str = "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R) CPU @ 2.20GHz\n\nprocessor\t: 1\nmodel name\t: Intel(R) Xeon(R) CPU @ 2.20GHz\n";

    #[test]
    fn reads_cpuinfo() {
        assert_eq!(
            cpu_model(CPUINFO).as_deref(),
            Some("Intel(R) Xeon(R) CPU @ 2.20GHz")
        );
        assert_eq!(processor_count(CPUINFO), Some(2));
        assert_eq!(cpu_model(""), None);
        assert_eq!(processor_count(""), None);
    }

    #[test]
    fn reads_os_memory_and_load() {
        let rel = "NAME=\"Ubuntu\"\nPRETTY_NAME=\"Ubuntu 22.04.4 LTS\"\n";
        assert_eq!(
            os_name("Linux 6.1.0", rel),
            "Ubuntu 22.04.4 LTS (Linux 6.1.0)"
        );
        assert_eq!(os_name("Linux 6.1.0", ""), "Linux 6.1.0");
        assert_eq!(os_name("", ""), "unknown");
        let mem = "MemTotal:       24576000 kB\nMemFree: 1 kB\n";
        assert!((mem_total_gib(mem).expect("MemTotal") - 23.4375).abs() < 1e-9);
        assert_eq!(mem_total_gib("MemFree: 1 kB"), None);
        assert_eq!(load_average("1.25 0.90 0.50 2/300 4242\n"), Some(1.25));
        assert_eq!(load_average(""), None);
    }

    #[test]
    fn utc_dates() {
        assert_eq!(utc_string(0), "1970-01-01 00:00 UTC");
        // 2000-02-29 12:34:56 UTC (a leap day).
        assert_eq!(utc_string(951_827_696), "2000-02-29 12:34 UTC");
        // 2026-11-30 00:23 UTC.
        assert_eq!(utc_string(1_795_998_180), "2026-11-30 00:23 UTC");
    }

    #[test]
    fn describe_mentions_everything() {
        let m = Machine {
            cpu: "X CPU".into(),
            cores: 2,
            os: "Linux 6".into(),
            memory_gib: Some(23.4),
            load_at_start: Some(0.5),
        };
        assert_eq!(
            m.describe(),
            "X CPU, 2 logical cores, 23 GiB RAM, Linux 6 (load average 0.50 at start)"
        );
    }
}
