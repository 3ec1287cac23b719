//! Hex text as the batch and proof files write it: big-endian, `0x` optional, either case.

/// Decodes hex text of any even length. The error says what is wrong in words.
pub fn decode_hex(text: &str) -> Result<Vec<u8>, String> {
    let digits = text
        .strip_prefix("0x")
        .or_else(|| text.strip_prefix("0X"))
        .unwrap_or(text);
    if digits.is_empty() {
        return Err("empty hex string".into());
    }
    if !digits.len().is_multiple_of(2) {
        return Err(format!("odd number of hex digits ({})", digits.len()));
    }
    hex::decode(digits).map_err(|e| format!("bad hex: {e}"))
}

/// Decodes hex text of exactly `N` bytes.
pub fn decode_hex_fixed<const N: usize>(text: &str) -> Result<[u8; N], String> {
    let bytes = decode_hex(text)?;
    <[u8; N]>::try_from(bytes.as_slice())
        .map_err(|_| format!("expected {N} bytes, got {}", bytes.len()))
}

/// Encodes bytes as lower-case hex with a `0x` prefix.
pub fn encode_hex(bytes: &[u8]) -> String {
    format!("0x{}", hex::encode(bytes))
}

/// `text` for an error message: itself when short, else its first 48 characters, "…" and
/// its length (a file's field may be megabytes long).
pub fn truncated(text: &str) -> String {
    const KEEP: usize = 48;
    match text.char_indices().nth(KEEP) {
        None => text.to_string(),
        Some((cut, _)) => format!("{}… ({} bytes)", &text[..cut], text.len()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_prefix_and_either_case() {
        assert_eq!(decode_hex("0xAbCd").unwrap(), vec![0xab, 0xcd]);
        assert_eq!(decode_hex("abcd").unwrap(), vec![0xab, 0xcd]);
        assert_eq!(decode_hex("0XABCD").unwrap(), vec![0xab, 0xcd]);
    }

    #[test]
    fn rejects_malformed() {
        assert!(decode_hex("").unwrap_err().contains("empty"));
        assert!(decode_hex("0x").unwrap_err().contains("empty"));
        assert!(decode_hex("abc").unwrap_err().contains("odd"));
        assert!(decode_hex("zz").unwrap_err().contains("bad hex"));
        assert!(decode_hex_fixed::<2>("0xaabbcc")
            .unwrap_err()
            .contains("expected 2 bytes, got 3"));
    }

    #[test]
    fn round_trip() {
        let b = [0u8, 1, 254, 255];
        assert_eq!(decode_hex(&encode_hex(&b)).unwrap(), b.to_vec());
    }
}
