//! Whether this CPU runs the field arithmetic this build was compiled with.
//!
//! With the feature `asm` (default) halo2curves computes the BN254 fields in x86-64 assembly
//! that needs the BMI2 and ADX instructions (crate `batch-ecdsa-asm`); on a CPU without them
//! the first field multiplication would kill the program with an illegal instruction (the
//! secp256k1 fields too: parsing a signature, a public key or a proof file's public inputs
//! already multiplies). So a program calls [`check`] at startup, before it reads any input;
//! every binary calls [`refusal`] first. As a backstop, [`crate::Prover`] and
//! [`crate::Verifier`] construction, `batch_ecdsa_evm`'s `prove_folder` and `load_setup`
//! check too ([`crate::ProverError::Cpu`], [`crate::VerifyError::Cpu`], exit code 2), which
//! helps only a caller that did no field arithmetic before them.

use std::process::ExitCode;

/// This build's field arithmetic cannot run on this CPU; the message names the missing
/// instructions and the build that avoids them.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct UnsupportedCpu(pub String);

/// `Ok` when this build's field arithmetic runs on this CPU (always without `asm` or off
/// x86-64); else the reason.
pub fn check() -> Result<(), UnsupportedCpu> {
    #[cfg(test)]
    if tests::PRETEND_UNSUPPORTED.get() {
        return Err(UnsupportedCpu("pretended for a test: no BMI2".into()));
    }
    #[cfg(feature = "asm")]
    return batch_ecdsa_asm::check_cpu().map_err(UnsupportedCpu);
    #[cfg(not(feature = "asm"))]
    Ok(())
}

/// For a binary's `main`: `None` when [`check`] passes; else prints its reason on stderr and
/// gives exit code 2.
pub fn refusal() -> Option<ExitCode> {
    match check() {
        Ok(()) => None,
        Err(e) => {
            eprintln!("error: {e}");
            Some(ExitCode::from(2))
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use std::cell::Cell;

    thread_local! {
        /// Makes [`super::check`] fail on this thread, so that a test can show a constructor
        /// checks the CPU before anything else (unit tests only).
        pub(crate) static PRETEND_UNSUPPORTED: Cell<bool> = const { Cell::new(false) };
    }

    /// A CPU lacking either instruction set, or both, is refused naming exactly those and the
    /// build that avoids them (here: the asm crate is not a default member, so its own tests
    /// do not run under the README's `cargo test --release`).
    #[cfg(feature = "asm")]
    #[test]
    fn a_cpu_without_bmi2_or_adx_is_refused_by_name() {
        use batch_ecdsa_asm::check_with;
        assert_eq!(check_with(|_| true), Ok(()));
        let no_adx = check_with(|n| n != "ADX").unwrap_err();
        assert!(
            no_adx.contains("needs the ADX instruction this CPU lacks"),
            "{no_adx}"
        );
        let no_bmi2 = check_with(|n| n != "BMI2").unwrap_err();
        assert!(
            no_bmi2.contains("needs the BMI2 instruction this CPU lacks"),
            "{no_bmi2}"
        );
        let neither = check_with(|_| false).unwrap_err();
        assert!(neither.contains("BMI2 and ADX instructions"), "{neither}");
        assert!(neither.contains("--no-default-features"), "{neither}");
    }

    /// This machine runs the build it was compiled with.
    #[test]
    fn this_cpu_passes_the_check() {
        assert_eq!(super::check(), Ok(()));
    }
}
