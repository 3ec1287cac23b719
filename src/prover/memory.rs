//! The memory a proving key and a proof need at least, checked against what the machine has
//! before any key is made, so that a batch too large for the machine is a clear refusal
//! with the figure, not an allocation abort minutes in.
//!
//! The figure is a **lower bound** from the constraint system (it never refuses a batch the
//! machine could prove): with `n = 2^k` rows of 32-byte field elements,
//!
//! ```text
//!   polys  = fixed + advice + instance + 3·lookups + permutation sigmas + ⌈perm cols / (d − 2)⌉
//!   bytes ≥ 2 · polys · n · 32  +  4 · 2^⌈log₂(d − 1)⌉ · n · 32
//! ```
//!
//! (every committed or fixed polynomial is held as values and as coefficients, and the
//! quotient is evaluated over the extended domain of `2^⌈log₂(d − 1)⌉ · n` points, `d` the
//! constraint degree, in a few vectors at once). Measured peaks are 2–4× the bound (the
//! prover also keeps cosets, the MSM bases and the witness builders).

use halo2_proofs::plonk::ConstraintSystem;

use batch_ecdsa_circuits::layout::Native;

/// The bytes proving a circuit of `2^k` rows with constraint system `cs` needs at least.
pub fn proving_bytes_lower_bound(cs: &ConstraintSystem<Native>, k: u32) -> u64 {
    let n = 1u64 << k;
    let degree = cs.degree().max(3) as u64;
    let perm = cs.permutation().get_columns().len() as u64;
    // Selectors are left out: keygen compresses them into fewer fixed columns, so counting
    // each would overstate the bound.
    let polys = cs.num_fixed_columns() as u64
        + cs.num_advice_columns() as u64
        + cs.num_instance_columns() as u64
        + 3 * cs.lookups().len() as u64
        + perm
        + perm.div_ceil(degree - 2);
    let extended = (degree - 1).next_power_of_two();
    2 * polys * n * 32 + 4 * extended * n * 32
}

/// The memory this process can give a new allocation now: the machine's (`MemAvailable` plus
/// `SwapFree` from `/proc/meminfo`), or less where its control group is limited (a container's
/// memory limit: [`cgroup_headroom`]), or `None` where neither can be read (then nothing is
/// refused). A container sees the machine's `/proc/meminfo`: without the limit a pod of 8 GiB
/// on a 64 GiB node would start a proof it cannot finish and be killed instead of refusing.
pub fn available_bytes() -> Option<u64> {
    let machine = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|t| meminfo_available(&t));
    let read = |p: &str| std::fs::read_to_string(p).ok();
    // cgroup v2 (the unified hierarchy), then v1's memory controller, as a container sees
    // them (its own group at the root of its namespace).
    let group = match (
        read("/sys/fs/cgroup/memory.max"),
        read("/sys/fs/cgroup/memory.current"),
    ) {
        (Some(limit), Some(usage)) => cgroup_headroom(
            &limit,
            &usage,
            &read("/sys/fs/cgroup/memory.stat").unwrap_or_default(),
            "inactive_file",
        ),
        _ => match (
            read("/sys/fs/cgroup/memory/memory.limit_in_bytes"),
            read("/sys/fs/cgroup/memory/memory.usage_in_bytes"),
        ) {
            (Some(limit), Some(usage)) => cgroup_headroom(
                &limit,
                &usage,
                &read("/sys/fs/cgroup/memory/memory.stat").unwrap_or_default(),
                "total_inactive_file",
            ),
            _ => None,
        },
    };
    match (machine, group) {
        (Some(m), Some(g)) => Some(m.min(g)),
        (m, g) => m.or(g),
    }
}

/// `MemAvailable` plus `SwapFree` of a `/proc/meminfo` text, in bytes.
pub fn meminfo_available(text: &str) -> Option<u64> {
    let field = |name: &str| -> Option<u64> {
        let line = text.lines().find(|l| l.starts_with(name))?;
        let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        kb.checked_mul(1024)
    };
    Some(field("MemAvailable:")?.saturating_add(field("SwapFree:").unwrap_or(0)))
}

/// A control group's headroom in bytes: its limit less what it uses, not counting the
/// inactive file cache (`stat`'s `inactive_field`, which the kernel reclaims before it kills);
/// `None` when the group has no limit (`max`, or v1's "unlimited", a number of 2⁶⁰ or more).
pub fn cgroup_headroom(limit: &str, usage: &str, stat: &str, inactive_field: &str) -> Option<u64> {
    let limit: u64 = limit.trim().parse().ok()?;
    if limit >= 1 << 60 {
        return None;
    }
    let usage: u64 = usage.trim().parse().ok()?;
    let inactive: u64 = stat
        .lines()
        .find_map(|l| {
            let (name, value) = l.split_once(' ')?;
            (name == inactive_field).then(|| value.trim().parse().ok())?
        })
        .unwrap_or(0);
    Some(limit.saturating_sub(usage.saturating_sub(inactive)))
}

/// Too little memory for the proving key and the proof.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "not enough memory: proving at k = {k} needs at least {} GiB, this machine has {} GiB \
     available (refused before making keys; prove a smaller batch or on a larger machine)",
    gib(*needed),
    gib(*available)
)]
pub struct MemoryError {
    pub k: u32,
    pub needed: u64,
    pub available: u64,
}

fn gib(bytes: u64) -> String {
    format!("{:.1}", bytes as f64 / f64::from(1u32 << 30))
}

/// Refuses when `needed` bytes exceed `available` (where that is known).
pub fn check(k: u32, needed: u64, available: Option<u64>) -> Result<(), MemoryError> {
    match available {
        Some(available) if needed > available => Err(MemoryError {
            k,
            needed,
            available,
        }),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_only_above_what_is_available() {
        assert!(check(20, 10, Some(10)).is_ok());
        assert!(check(20, 10, None).is_ok());
        let e = check(26, 3 << 30, Some(1 << 30)).unwrap_err();
        assert_eq!(e.needed, 3 << 30);
        assert!(e.to_string().contains("at least 3.0 GiB"), "{e}");
        assert!(e.to_string().contains("1.0 GiB available"), "{e}");
    }

    #[test]
    fn a_control_groups_limit_bounds_what_is_available() {
        let gib = 1u64 << 30;
        // An 8 GiB pod using 5 GiB, 1 GiB of it inactive file cache: 4 GiB left.
        let stat = "anon 4294967296\ninactive_file 1073741824\nactive_file 0\n";
        assert_eq!(
            cgroup_headroom(
                &format!("{}\n", 8 * gib),
                &format!("{}\n", 5 * gib),
                stat,
                "inactive_file"
            ),
            Some(4 * gib)
        );
        // Over its limit (cache counted): nothing left, never an underflow.
        assert_eq!(cgroup_headroom("100", "200", "", "inactive_file"), Some(0));
        // No limit: v2's "max", v1's page-rounded 2^63.
        assert_eq!(cgroup_headroom("max\n", "1", "", "inactive_file"), None);
        assert_eq!(
            cgroup_headroom(
                "9223372036854771712",
                "5507870720",
                "",
                "total_inactive_file"
            ),
            None
        );
        assert_eq!(cgroup_headroom("junk", "1", "", "inactive_file"), None);
        let meminfo = "MemTotal: 100 kB\nMemAvailable: 10 kB\nSwapFree: 2 kB\n";
        assert_eq!(meminfo_available(meminfo), Some(12 * 1024));
        // The process's own figure is never above the machine's.
        let machine = std::fs::read_to_string("/proc/meminfo").unwrap();
        assert!(available_bytes().unwrap() <= meminfo_available(&machine).unwrap() + gib);
    }

    #[test]
    fn machine_memory_is_read() {
        let a = available_bytes().expect("/proc/meminfo on Linux");
        assert!(a > 1 << 20);
    }

    #[test]
    fn bound_doubles_with_k() {
        let mut cs = ConstraintSystem::<Native>::default();
        let a = cs.advice_column();
        let f = cs.fixed_column();
        cs.create_gate("g", |m| {
            let a = m.query_advice(a, halo2_proofs::poly::Rotation::cur());
            let f = m.query_fixed(f, halo2_proofs::poly::Rotation::cur());
            vec![a.clone() * a * f]
        });
        let b = proving_bytes_lower_bound(&cs, 10);
        assert!(b > 0);
        assert_eq!(proving_bytes_lower_bound(&cs, 11), 2 * b);
    }
}
