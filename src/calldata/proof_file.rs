//! Reads the size of a proof from a proof file.
//!
//! Minimal format accepted here: a JSON object with a string field `proof` holding the proof
//! bytes as hex (an optional `0x` prefix is allowed). Other fields are ignored, so the full
//! proof file `prove` writes (`crate::prover::proof::ProofFile`, whose hex field is `proof`)
//! is read as it is. The proof size is the decoded byte length.

use std::path::Path;

/// Why a proof file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ProofFileError {
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
    #[error("proof file {path} has no string field `proof`")]
    NoProofField { path: String },
    #[error("proof file {path}: field `proof` is not hex: {source}")]
    Hex {
        path: String,
        source: hex::FromHexError,
    },
    #[error("proof file {path}: field `proof` is empty")]
    Empty { path: String },
}

/// Decodes the `proof` field of a JSON document and returns its length in bytes.
pub fn proof_bytes_from_json(text: &str, path: &str) -> Result<u64, ProofFileError> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|source| ProofFileError::Json {
            path: path.to_string(),
            source,
        })?;
    let hex_str = value.get("proof").and_then(|v| v.as_str()).ok_or_else(|| {
        ProofFileError::NoProofField {
            path: path.to_string(),
        }
    })?;
    let hex_str = hex_str.strip_prefix("0x").unwrap_or(hex_str);
    let bytes = hex::decode(hex_str).map_err(|source| ProofFileError::Hex {
        path: path.to_string(),
        source,
    })?;
    if bytes.is_empty() {
        return Err(ProofFileError::Empty {
            path: path.to_string(),
        });
    }
    Ok(bytes.len() as u64)
}

/// Reads a proof file and returns the proof's length in bytes.
pub fn proof_bytes_from_file(path: &Path) -> Result<u64, ProofFileError> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|source| ProofFileError::Io {
        path: name.clone(),
        source,
    })?;
    proof_bytes_from_json(&text, &name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_hex_proof_length() {
        assert_eq!(
            proof_bytes_from_json(r#"{"proof":"00ff10"}"#, "t").unwrap(),
            3
        );
        assert_eq!(
            proof_bytes_from_json(r#"{"k":17,"proof":"0xabcd"}"#, "t").unwrap(),
            2
        );
    }

    #[test]
    fn rejects_bad_files() {
        assert!(matches!(
            proof_bytes_from_json("not json", "t"),
            Err(ProofFileError::Json { .. })
        ));
        assert!(matches!(
            proof_bytes_from_json(r#"{"proof":5}"#, "t"),
            Err(ProofFileError::NoProofField { .. })
        ));
        assert!(matches!(
            proof_bytes_from_json(r#"{"proof":"abc"}"#, "t"),
            Err(ProofFileError::Hex { .. })
        ));
        assert!(matches!(
            proof_bytes_from_json(r#"{"proof":"0x"}"#, "t"),
            Err(ProofFileError::Empty { .. })
        ));
        assert!(matches!(
            proof_bytes_from_file(Path::new("/nonexistent/proof.json")),
            Err(ProofFileError::Io { .. })
        ));
    }
}
