//! Whether this CPU runs the field arithmetic this build was compiled with.
//!
//! With the feature `asm` (default) halo2curves computes the BN254 fields in x86-64 assembly
//! that needs the BMI2 and ADX instructions (crate `batch-ecdsa-asm`); on a CPU without them
//! the first field multiplication would kill the program with an illegal instruction. Every
//! binary calls [`refusal`] first; a program embedding the library calls [`check`] before it
//! builds a prover or a verifier.

use std::process::ExitCode;

/// `Ok` when this build's field arithmetic runs on this CPU (always without `asm` or off
/// x86-64); else the reason, naming the missing instructions and the build that avoids them.
pub fn check() -> Result<(), String> {
    #[cfg(feature = "asm")]
    return batch_ecdsa_asm::check_cpu();
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
