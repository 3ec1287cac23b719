#![allow(dead_code)]
//! The committed B = 32 aggregation (`evm/tests/fixtures/aggregate-digest-b32`) the EVM tests share: its
//! verifier's source, and that verifier and the digest wrapper compiled once per test binary.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use batch_ecdsa_evm::solc::{Compiled, Solc};
use batch_ecdsa_evm::wrapper::WrapperCode;

/// `evm/tests/fixtures/aggregate-digest-b32`.
pub fn b32_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/aggregate-digest-b32")
}

/// The committed verifier's Solidity.
pub fn verifier_sol() -> String {
    std::fs::read_to_string(b32_dir().join("AggregationVerifier.sol")).expect("committed")
}

/// The committed verifier and the wrapper, compiled with solc-js (once).
pub fn compiled() -> &'static (Compiled, WrapperCode) {
    static C: OnceLock<(Compiled, WrapperCode)> = OnceLock::new();
    C.get_or_init(|| {
        let solc = Solc::locate_or_install().expect("solc-js (npm ci --prefix evm/solc)");
        let verifier = solc
            .compile(&verifier_sol())
            .expect("the verifier compiles");
        (
            verifier,
            WrapperCode::compile(&solc).expect("the wrapper compiles"),
        )
    })
}
