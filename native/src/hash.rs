//! Hashes used by the native reference.

use sha3::{Digest, Keccak256};

/// Keccak-256 (the original Keccak padding used by Ethereum, not FIPS-202 SHA3-256).
pub fn keccak256(data: &[u8]) -> [u8; 32] {
    Keccak256::digest(data).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keccak_empty_string() {
        assert_eq!(
            hex::encode(keccak256(b"")),
            "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"
        );
    }
}
