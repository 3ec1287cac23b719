//! The transactions file (`--txs FILE`): raw signed transactions as hex, `0x` optional, either
//!
//! - one a line (blank lines and lines starting with `#` are skipped), or
//! - a JSON array of strings (the file's first non-blank character is `[`).
//!
//! A transaction's index (0-based) is its position among the transactions, not its line.

use std::path::Path;

use crate::hexfmt::decode_hex;

/// The file cannot be read as a list of hex transactions (bad input, exit code 2).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TxFileError {
    #[error("cannot read transactions file {path}: {reason}")]
    Io { path: String, reason: String },
    #[error("transactions file is not a JSON array of hex strings: {0}")]
    NotJson(String),
    #[error("transactions file holds no transactions")]
    Empty,
    #[error("transaction {index}: {reason}")]
    Hex { index: usize, reason: String },
}

/// Largest transactions or stripped-transactions file read, in bytes: the largest batch any
/// circuit proves (about 1,300 transactions) of 24 KB each in hex, with room to spare.
pub const MAX_TXS_FILE_BYTES: u64 = 64 << 20;

/// Reads a transactions file (at most [`MAX_TXS_FILE_BYTES`]); every bad hex string is
/// reported, not only the first.
pub fn load_txs_file(path: &Path) -> Result<Vec<Vec<u8>>, Vec<TxFileError>> {
    let text = crate::fsutil::read_text_bounded(path, MAX_TXS_FILE_BYTES).map_err(|e| {
        vec![TxFileError::Io {
            path: path.display().to_string(),
            reason: e.to_string(),
        }]
    })?;
    parse_txs_text(&text)
}

/// Parses the text of a transactions file (module doc).
pub fn parse_txs_text(text: &str) -> Result<Vec<Vec<u8>>, Vec<TxFileError>> {
    if text.trim_start().starts_with('{') {
        return Err(vec![TxFileError::NotJson(
            "a JSON object; a transactions file is a JSON array of hex strings, or one hex \
             string a line"
                .into(),
        )]);
    }
    let items: Vec<String> = if text.trim_start().starts_with('[') {
        crate::json::parse::<Vec<String>>(text).map_err(|e| vec![TxFileError::NotJson(e)])?
    } else {
        text.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(String::from)
            .collect()
    };
    if items.is_empty() {
        return Err(vec![TxFileError::Empty]);
    }
    let mut out = Vec::with_capacity(items.len());
    let mut errors = Vec::new();
    for (index, item) in items.iter().enumerate() {
        match decode_hex(item.trim()) {
            Ok(b) => out.push(b),
            Err(reason) => errors.push(TxFileError::Hex { index, reason }),
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// The file text `gen-batch --txs` writes: one `0x`-hex transaction a line.
pub fn txs_file_text<B: AsRef<[u8]>>(txs: &[B]) -> String {
    let mut s = String::new();
    for t in txs {
        s.push_str(&crate::hexfmt::encode_hex(t.as_ref()));
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_json() {
        assert_eq!(
            parse_txs_text("# c\n0xc0\n\n  C1 \n").unwrap(),
            vec![vec![0xc0], vec![0xc1]]
        );
        assert_eq!(
            parse_txs_text(" [\"0xc0\", \"c1\"]").unwrap(),
            vec![vec![0xc0], vec![0xc1]]
        );
        assert_eq!(parse_txs_text("\n# only\n"), Err(vec![TxFileError::Empty]));
        assert_eq!(parse_txs_text("[]"), Err(vec![TxFileError::Empty]));
        let e = parse_txs_text("0xc0\nzz\n0x1\n").unwrap_err();
        assert_eq!(e.len(), 2);
        assert!(matches!(e[0], TxFileError::Hex { index: 1, .. }));
        assert!(matches!(e[1], TxFileError::Hex { index: 2, .. }));
        let e = parse_txs_text(r#" {"txs": ["0xc0"]}"#).unwrap_err();
        assert!(e[0].to_string().contains("a JSON object"), "{}", e[0]);
        let e = parse_txs_text(r#"["0xc0", 7]"#).unwrap_err();
        assert!(e[0].to_string().contains("[1]: invalid type"), "{}", e[0]);
        assert!(matches!(
            parse_txs_text("[1, 2]").unwrap_err()[0],
            TxFileError::NotJson(_)
        ));
    }
}
