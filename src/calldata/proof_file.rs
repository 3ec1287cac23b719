//! Reads the proof path's inputs from a file: a proof file (its size), or an EVM bench file
//! (the size of the verifier's calldata and its measured gas).
//!
//! Accepted JSON documents:
//!
//! 1. **Proof file**: an object with a string field `proof`, the proof bytes in hex (`0x`
//!    optional); other fields are ignored, so the file `prove` writes is read as it is. Gives
//!    the proof size only (the decoded length); the verification gas stays as set otherwise.
//! 2. **EVM bench row**: an object measured by deploying the generated verifier and calling it
//!    in an EVM (the bench of issue 15; the fields it must write; values illustrative):
//!
//!    ```json
//!    {"circuit": "batch", "batch_size": 32, "k": 17, "transcript": "evm",
//!     "proof_bytes": 5280, "public_inputs": 96,
//!     "verify_gas": 620000, "verify_gas_execution": 500000,
//!     "deploy_gas": 5100000, "runtime_code_bytes": 23900}
//!    ```
//!
//!    | field | required | meaning |
//!    | --- | --- | --- |
//!    | `circuit` | yes | `batch` or `naive` (only `batch` rows are used) |
//!    | `statement` | no (`keys`) | `keys` or `digest` ([`super::statement`]): only rows of the statement asked for (`--public`) are used |
//!    | `batch_size` | yes | the circuit's B |
//!    | `proof_bytes` | yes | the proof alone, EVM transcript |
//!    | `verify_gas_execution` | yes | execution gas of the verifying call (without the 21,000 base and the calldata) |
//!    | `public_inputs` | no (0) | public inputs, each a 32-byte calldata word before the proof |
//!    | `verify_gas` | no | gas of the whole verifying transaction (21,000 and calldata included) |
//!    | `k`, `transcript`, `deploy_gas`, `runtime_code_bytes` | no | shown; a runtime code above EIP-170's 24,576 bytes is flagged |
//!
//!    Under the keys statement the proof path then posts `proof_bytes + 32 · public_inputs`
//!    bytes (the verifier's calldata: instances as 32-byte words, then the proof) and executes
//!    `verify_gas_execution`. Under the digest statement it posts `proof_bytes` (the wrapper
//!    computes the two public-input words on chain) and executes `verify_gas_execution` plus
//!    the wrapper's gas.
//! 3. **EVM bench file**: an array of such rows; of the `batch` rows of the statement asked
//!    for, the one with the B asked for (`--verifier-batch-size`) is used, by default the one
//!    with the largest B. No such row is an error ([`ProofInputError::NoRow`]): a figure is never
//!    made up for a statement the bench has not measured.
//!
//! The bench's committed output, `results/evm.json` (an array of rows with more fields, which
//! are ignored), is also embedded in the binary and read the same way for the defaults
//! ([`super::measured::Measured`]).

pub use super::rows::{BenchRow, PUBLIC_INPUT_WORD_BYTES};
use super::statement::Statement;
use std::path::Path;

/// Largest proof or bench file `calldata --proof` reads, in bytes.
pub const MAX_CALLDATA_INPUT_BYTES: u64 = 64 << 20;
/// Largest public-input count accepted from a bench row.
pub const MAX_PUBLIC_INPUTS: u64 = 1_000_000;

/// What a file says about the proof path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProofInput {
    /// Bytes the proof path posts for the proof.
    pub proof_bytes: u64,
    /// Measured verification execution gas (bench files only).
    pub verification_gas: Option<u64>,
    /// The bench row used, if any.
    pub bench: Option<BenchRow>,
}

/// Why a proof or bench file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum ProofInputError {
    #[error("cannot read proof file {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("proof file {path} is not JSON: {source}")]
    Json {
        path: String,
        source: serde_json::Error,
    },
    #[error(
        "{path} is neither a proof file (string field `proof`) nor an EVM bench row \
         (`circuit`, `batch_size`, `proof_bytes`, `verify_gas_execution`)"
    )]
    Unrecognised { path: String },
    #[error("{path}: bench row {index}: {source}")]
    BadRow {
        path: String,
        index: usize,
        source: serde_json::Error,
    },
    #[error("{path}: bench row {index}: {reason}")]
    RowValue {
        path: String,
        index: usize,
        reason: String,
    },
    #[error(
        "{path}: no bench row for the batch circuit with the {statement} statement{which}{hint}"
    )]
    NoRow {
        path: String,
        statement: &'static str,
        which: String,
        /// What to do about it, when the statement has no row at all.
        hint: String,
    },
    #[error("{path}: --verifier-batch-size applies to EVM bench files, not to a proof file")]
    BatchSizeForProofFile { path: String },
    #[error("proof file {path}: field `proof` is not hex: {source}")]
    Hex {
        path: String,
        source: hex::FromHexError,
    },
    #[error("proof file {path}: field `proof` is empty")]
    Empty { path: String },
}

/// Reads a proof or bench document (`path` names it in errors); a bench row is picked among
/// the batch-circuit rows of `statement`, by the circuit's B (`batch_size`) or the largest.
pub fn proof_input_from_json(
    text: &str,
    path: &str,
    batch_size: Option<u64>,
    statement: Statement,
) -> Result<ProofInput, ProofInputError> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|source| ProofInputError::Json {
            path: path.to_string(),
            source,
        })?;
    let rows: Vec<serde_json::Value> = match value {
        serde_json::Value::Array(rows) => rows,
        serde_json::Value::Object(ref o) if o.contains_key("proof_bytes") => vec![value],
        serde_json::Value::Object(ref o) if o.get("proof").is_some_and(|p| p.is_string()) => {
            if batch_size.is_some() {
                return Err(ProofInputError::BatchSizeForProofFile {
                    path: path.to_string(),
                });
            }
            let hex_str = o.get("proof").and_then(|p| p.as_str()).unwrap_or_default();
            return Ok(ProofInput {
                proof_bytes: proof_length(hex_str, path)?,
                verification_gas: None,
                bench: None,
            });
        }
        _ => {
            return Err(ProofInputError::Unrecognised {
                path: path.to_string(),
            })
        }
    };
    let row = pick_row(&parse_rows(rows, path)?, path, batch_size, statement)?;
    Ok(ProofInput {
        proof_bytes: row.posted_proof_bytes(),
        verification_gas: Some(row.verify_gas_execution),
        bench: Some(row),
    })
}

fn proof_length(hex_str: &str, path: &str) -> Result<u64, ProofInputError> {
    let hex_str = hex_str.strip_prefix("0x").unwrap_or(hex_str);
    let bytes = hex::decode(hex_str).map_err(|source| ProofInputError::Hex {
        path: path.to_string(),
        source,
    })?;
    if bytes.is_empty() {
        return Err(ProofInputError::Empty {
            path: path.to_string(),
        });
    }
    Ok(bytes.len() as u64)
}

fn parse_rows(rows: Vec<serde_json::Value>, path: &str) -> Result<Vec<BenchRow>, ProofInputError> {
    rows.into_iter()
        .enumerate()
        .map(|(index, v)| {
            let row: BenchRow =
                serde_json::from_value(v).map_err(|source| ProofInputError::BadRow {
                    path: path.to_string(),
                    index,
                    source,
                })?;
            let bad = |reason: String| ProofInputError::RowValue {
                path: path.to_string(),
                index,
                reason,
            };
            if row.proof_bytes == 0 {
                return Err(bad("proof_bytes is 0".to_string()));
            }
            super::statement::of_field(row.statement.as_deref()).map_err(bad)?;
            if row.public_inputs > MAX_PUBLIC_INPUTS {
                return Err(bad(format!(
                    "public_inputs {} is above {MAX_PUBLIC_INPUTS}",
                    row.public_inputs
                )));
            }
            Ok(row)
        })
        .collect()
}

/// The batch-circuit row of `statement` at `batch_size`, or with the largest B.
pub fn pick_row(
    rows: &[BenchRow],
    path: &str,
    batch_size: Option<u64>,
    statement: Statement,
) -> Result<BenchRow, ProofInputError> {
    let usable = |r: &&BenchRow| r.circuit == "batch" && r.statement() == statement;
    let row = match batch_size {
        Some(b) => rows.iter().filter(usable).find(|r| r.batch_size == b),
        None => rows.iter().filter(usable).max_by_key(|r| r.batch_size),
    };
    let none_at_all = !rows.iter().any(|r| usable(&r));
    row.cloned().ok_or_else(|| ProofInputError::NoRow {
        path: path.to_string(),
        statement: statement.as_str(),
        which: batch_size.map_or(String::new(), |b| format!(" at B = {b}")),
        hint: match statement {
            Statement::Digest if none_at_all => " (no row with \"statement\": \"digest\"): run \
                the EVM bench on the digest verifier (cargo bench -p batch-ecdsa-evm --bench \
                evm_gas) to measure one, or model the keys statement with --public keys"
                .to_string(),
            _ => String::new(),
        },
    })
}

/// Parses every row of an EVM bench array (checked as [`proof_input_from_json`] does).
pub fn bench_rows_from_json(text: &str, path: &str) -> Result<Vec<BenchRow>, ProofInputError> {
    let rows: Vec<serde_json::Value> =
        serde_json::from_str(text).map_err(|source| ProofInputError::Json {
            path: path.to_string(),
            source,
        })?;
    parse_rows(rows, path)
}

/// Reads a proof or bench file.
pub fn proof_input_from_file(
    path: &Path,
    batch_size: Option<u64>,
    statement: Statement,
) -> Result<ProofInput, ProofInputError> {
    let name = path.display().to_string();
    let text =
        crate::fsutil::read_text_bounded(path, MAX_CALLDATA_INPUT_BYTES).map_err(|source| {
            ProofInputError::Io {
                path: name.clone(),
                source,
            }
        })?;
    proof_input_from_json(&text, &name, batch_size, statement)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<ProofInput, ProofInputError> {
        proof_input_from_json(text, "t", None, Statement::Keys)
    }

    const ROW32: &str = r#"{"circuit":"batch","batch_size":32,"k":17,"proof_bytes":5000,
        "public_inputs":96,"verify_gas":600000,"verify_gas_execution":480000,
        "deploy_gas":5000000,"runtime_code_bytes":26000}"#;

    #[test]
    fn reads_hex_proof_length() {
        let p = read(r#"{"proof":"00ff10"}"#).unwrap();
        assert_eq!((p.proof_bytes, p.verification_gas), (3, None));
        assert_eq!(read(r#"{"k":17,"proof":"0xabcd"}"#).unwrap().proof_bytes, 2);
    }

    #[test]
    fn reads_a_bench_row_with_its_public_inputs_and_gas() {
        let p = read(ROW32).unwrap();
        assert_eq!(p.proof_bytes, 5_000 + 32 * 96);
        assert_eq!(p.verification_gas, Some(480_000));
        let row = p.bench.unwrap();
        assert_eq!(row.runtime_code_bytes, Some(26_000));
        // Optional fields may be left out.
        let minimal = read(
            r#"{"circuit":"batch","batch_size":1,"proof_bytes":4000,"verify_gas_execution":1}"#,
        )
        .unwrap();
        assert_eq!(minimal.proof_bytes, 4_000);
    }

    #[test]
    fn picks_a_batch_row_from_an_array() {
        let text = format!(
            r#"[{{"circuit":"naive","batch_size":64,"proof_bytes":1,"verify_gas_execution":1}},
               {ROW32},
               {{"circuit":"batch","batch_size":8,"proof_bytes":4000,"verify_gas_execution":9}}]"#
        );
        // Default: the batch row with the largest B (the naive row is ignored).
        assert_eq!(read(&text).unwrap().verification_gas, Some(480_000));
        let b8 = proof_input_from_json(&text, "t", Some(8), Statement::Keys).unwrap();
        assert_eq!(b8.verification_gas, Some(9));
        assert!(matches!(
            proof_input_from_json(&text, "t", Some(64), Statement::Keys),
            Err(ProofInputError::NoRow { .. })
        ));
        assert!(matches!(read("[]"), Err(ProofInputError::NoRow { .. })));
    }

    #[test]
    fn picks_rows_of_the_statement_asked_for() {
        let text = format!(
            r#"[{ROW32},
               {{"circuit":"batch","statement":"digest","batch_size":16,"proof_bytes":4000,
                 "public_inputs":2,"verify_gas_execution":700}},
               {{"circuit":"batch","statement":"digest","batch_size":8,"proof_bytes":3000,
                 "public_inputs":2,"verify_gas_execution":600}}]"#
        );
        let digest = |b| proof_input_from_json(&text, "t", b, Statement::Digest);
        // The digest row with the largest B; its public inputs are not posted.
        let p = digest(None).unwrap();
        assert_eq!((p.proof_bytes, p.verification_gas), (4_000, Some(700)));
        assert_eq!(p.bench.unwrap().statement(), Statement::Digest);
        assert_eq!(digest(Some(8)).unwrap().verification_gas, Some(600));
        // Keys: the row without a statement field.
        assert_eq!(read(&text).unwrap().verification_gas, Some(480_000));
        // A keys-only file has no digest row: the error says what to do.
        let err = proof_input_from_json(ROW32, "evm.json", None, Statement::Digest).unwrap_err();
        let msg = err.to_string();
        assert!(msg.contains("evm.json") && msg.contains("digest"), "{msg}");
        assert!(
            msg.contains("run the EVM bench") && msg.contains("--public keys"),
            "{msg}"
        );
        // A digest file without the B asked for names the B, not the bench.
        let msg = digest(Some(32)).unwrap_err().to_string();
        assert!(
            msg.contains("at B = 32") && !msg.contains("run the EVM bench"),
            "{msg}"
        );
        // An unknown statement is a bad row.
        let bad = ROW32.replace(
            "\"circuit\":\"batch\"",
            "\"circuit\":\"batch\",\"statement\":\"x\"",
        );
        assert!(matches!(read(&bad), Err(ProofInputError::RowValue { .. })));
    }

    #[test]
    fn rejects_bad_files() {
        type Is = fn(&ProofInputError) -> bool;
        let cases: &[(&str, Is)] = &[
            ("not json", |e| matches!(e, ProofInputError::Json { .. })),
            (r#"{"proof":5}"#, |e| {
                matches!(e, ProofInputError::Unrecognised { .. })
            }),
            (r#"{"proof":"abc"}"#, |e| {
                matches!(e, ProofInputError::Hex { .. })
            }),
            (r#"{"proof":"0x"}"#, |e| {
                matches!(e, ProofInputError::Empty { .. })
            }),
            (
                r#"{"circuit":"batch","batch_size":1,"proof_bytes":4000}"#,
                |e| matches!(e, ProofInputError::BadRow { .. }),
            ),
            (
                r#"{"circuit":"batch","batch_size":1,"proof_bytes":0,"verify_gas_execution":1}"#,
                |e| matches!(e, ProofInputError::RowValue { .. }),
            ),
            (
                r#"{"circuit":"batch","batch_size":1,"proof_bytes":-5,"verify_gas_execution":1}"#,
                |e| matches!(e, ProofInputError::BadRow { .. }),
            ),
            ("[1, 2]", |e| matches!(e, ProofInputError::BadRow { .. })),
        ];
        for (text, is) in cases {
            let err = read(text).unwrap_err();
            assert!(is(&err), "{text}: {err}");
        }
        assert!(matches!(
            proof_input_from_json(r#"{"proof":"00"}"#, "t", Some(32), Statement::Keys),
            Err(ProofInputError::BatchSizeForProofFile { .. })
        ));
        assert!(matches!(
            proof_input_from_file(Path::new("/nonexistent/proof.json"), None, Statement::Keys),
            Err(ProofInputError::Io { .. })
        ));
    }
}
