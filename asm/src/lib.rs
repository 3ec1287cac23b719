//! The switch for halo2curves' x86-64 assembly field arithmetic (`batch-ecdsa`'s feature `asm`,
//! on by default) and the check a program built with it makes before any field operation.
//!
//! Depending on this crate turns on halo2curves' `asm` feature on x86-64 (its manifest says
//! why); on other targets it does nothing. The assembly uses the BMI2 and ADX instructions
//! unconditionally, so on an x86-64 CPU without them a program would die on an illegal
//! instruction at its first field multiplication. [`check_cpu`] says so in words instead.

/// The instructions halo2curves' assembly needs, by the names the CPU manuals give them
/// (`is_x86_feature_detected!` spells them in lower case).
pub const NEEDED: [&str; 2] = ["BMI2", "ADX"];

/// `Ok` when this CPU runs halo2curves' assembly arithmetic (always, off x86-64); else the
/// reason, naming the missing instructions and how to build without them.
pub fn check_cpu() -> Result<(), String> {
    #[cfg(target_arch = "x86_64")]
    return check_with(|name| match name {
        "BMI2" => std::arch::is_x86_feature_detected!("bmi2"),
        "ADX" => std::arch::is_x86_feature_detected!("adx"),
        _ => false,
    });
    #[cfg(not(target_arch = "x86_64"))]
    Ok(())
}

/// [`check_cpu`] with the CPU's answer to "has it instruction set `name`?" given by `has`
/// (one of [`NEEDED`]), so that a CPU without them can be tested on one that has them.
pub fn check_with(has: impl Fn(&str) -> bool) -> Result<(), String> {
    let missing: Vec<&str> = NEEDED.into_iter().filter(|name| !has(name)).collect();
    if missing.is_empty() {
        return Ok(());
    }
    Err(format!(
        "this build uses halo2curves' x86-64 assembly (feature `asm`), which needs the {} \
         instruction{} this CPU lacks: build without it (`cargo build --release \
         --no-default-features --features cli`; the evm and fleet crates: `-p CRATE \
         --no-default-features`)",
        missing.join(" and "),
        if missing.len() > 1 { "s" } else { "" }
    ))
}

#[cfg(test)]
mod tests {
    /// The machines this project builds and tests on have BMI2 and ADX.
    #[test]
    fn this_cpu_runs_the_assembly() {
        assert_eq!(super::check_cpu(), Ok(()));
    }
}
