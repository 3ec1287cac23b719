//! Compiles Solidity with solc-js 0.8.19 through `evm/solc/compile.js` (Node.js).
//!
//! There is no native solc in Debian or on PyPI; npm's `solc@0.8.19` (solc-js, the compiler
//! built to WebAssembly) compiles the verifiers offline. The generated verifiers pin
//! `pragma solidity 0.8.19`. Install it once with `npm ci --prefix evm/solc` (the lockfile pins
//! it); [`Solc::locate`] finds it there, or where `BATCH_ECDSA_SOLC` points (a `compile.js`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Why a source could not be compiled.
#[derive(Debug, thiserror::Error)]
pub enum SolcError {
    #[error(
        "solc-js is not installed at {0}: run `npm ci --prefix evm/solc` (needs Node.js and npm)"
    )]
    NotInstalled(String),
    #[error("cannot run node: {0}")]
    Node(String),
    #[error("solc failed: {0}")]
    Compile(String),
    #[error("solc output is not what compile.js prints: {0}")]
    Output(String),
}

/// The compiled contract.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Compiled {
    /// Creation (deployment) bytecode.
    pub creation: Vec<u8>,
    /// Runtime bytecode (what EIP-170 limits).
    pub runtime: Vec<u8>,
    /// The compiler's version string.
    pub version: String,
}

/// The solc-js wrapper script.
#[derive(Clone, Debug)]
pub struct Solc {
    script: PathBuf,
}

impl Solc {
    /// `BATCH_ECDSA_SOLC` if set, else `evm/solc/compile.js` of this source tree; checks that
    /// solc-js is installed beside it.
    pub fn locate() -> Result<Self, SolcError> {
        let script = std::env::var_os("BATCH_ECDSA_SOLC")
            .map(PathBuf::from)
            .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("solc/compile.js"));
        Self::at(&script)
    }

    /// [`Self::locate`], first installing solc-js with `npm ci` (the lockfile's exact
    /// version) into this source tree's `evm/solc` when it is missing there. For the tests
    /// and benches of a fresh clone; needs Node.js and npm, and the npm registry once.
    pub fn locate_or_install() -> Result<Self, SolcError> {
        if std::env::var_os("BATCH_ECDSA_SOLC").is_none() {
            let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("solc");
            if !dir.join("node_modules/solc/package.json").is_file() {
                let out = Command::new("npm")
                    .args(["ci", "--no-audit", "--no-fund", "--prefix"])
                    .arg(&dir)
                    .output()
                    .map_err(|e| SolcError::Node(format!("cannot run npm: {e}")))?;
                if !out.status.success() {
                    return Err(SolcError::Node(format!(
                        "npm ci --prefix {} failed: {}",
                        dir.display(),
                        String::from_utf8_lossy(&out.stderr).trim()
                    )));
                }
            }
        }
        Self::locate()
    }

    /// The wrapper at `script` (a `compile.js` with `node_modules/solc` beside it).
    pub fn at(script: &Path) -> Result<Self, SolcError> {
        let dir = script.parent().unwrap_or(Path::new("."));
        if !script.is_file() || !dir.join("node_modules/solc/package.json").is_file() {
            return Err(SolcError::NotInstalled(dir.display().to_string()));
        }
        Ok(Self {
            script: script.to_path_buf(),
        })
    }

    /// Compiles one Solidity source holding one contract.
    pub fn compile(&self, source: &str) -> Result<Compiled, SolcError> {
        if source.trim().is_empty() {
            return Err(SolcError::Compile(
                "the Solidity source is empty: nothing to compile".into(),
            ));
        }
        let mut child = Command::new("node")
            .arg(&self.script)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| SolcError::Node(e.to_string()))?;
        let mut stdin = child.stdin.take().expect("stdin is piped");
        let src = source.to_owned();
        // Write from another thread: the compiler may fill its stdout pipe before it has read
        // the whole source.
        let writer = std::thread::spawn(move || stdin.write_all(src.as_bytes()));
        let out = child
            .wait_with_output()
            .map_err(|e| SolcError::Node(e.to_string()))?;
        let _ = writer.join();
        if !out.status.success() {
            return Err(SolcError::Compile(
                String::from_utf8_lossy(&out.stderr).trim().to_string(),
            ));
        }
        #[derive(serde::Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Out {
            bytecode: String,
            deployed_bytecode: String,
            version: String,
        }
        let o: Out =
            serde_json::from_slice(&out.stdout).map_err(|e| SolcError::Output(e.to_string()))?;
        let hex = |s: &str| hex::decode(s).map_err(|e| SolcError::Output(e.to_string()));
        Ok(Compiled {
            creation: hex(&o.bytecode)?,
            runtime: hex(&o.deployed_bytecode)?,
            version: o.version,
        })
    }
}
