//! Error types of the native reference. Every message names the reason for the rejection.

use thiserror::Error;

/// Why a public or secret key was rejected.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum KeyError {
    /// Zero-length input.
    #[error("public key is empty")]
    Empty,
    /// Prefix byte other than 0x02, 0x03, 0x04 (and 0x00, reported as [`KeyError::Identity`]).
    #[error("unknown SEC1 public key prefix 0x{0:02x} (expected 0x02, 0x03 or 0x04)")]
    UnknownPrefix(u8),
    /// Prefix 0x04 with a length other than 65.
    #[error("uncompressed public key must be 65 bytes, got {0}")]
    UncompressedLength(usize),
    /// Prefix 0x02/0x03 with a length other than 33.
    #[error("compressed public key must be 33 bytes, got {0}")]
    CompressedLength(usize),
    /// x coordinate is not a canonical field element.
    #[error("public key x >= p")]
    XNotInField,
    /// y coordinate is not a canonical field element.
    #[error("public key y >= p")]
    YNotInField,
    /// (x, y) does not satisfy y^2 = x^3 + 7.
    #[error("point not on curve")]
    NotOnCurve,
    /// Compressed key whose x has no curve point.
    #[error("public key x has no curve point (x^3 + 7 is not a square mod p)")]
    NoCurvePoint,
    /// The point at infinity (SEC1 0x00, or the identity as an affine point).
    #[error("public key is the point at infinity")]
    Identity,
    /// Secret key d = 0.
    #[error("secret key is zero")]
    ZeroSecret,
}

/// Which DER INTEGER a [`DerError`] refers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DerField {
    /// The SEQUENCE wrapper.
    Sequence,
    /// The first INTEGER.
    R,
    /// The second INTEGER.
    S,
}

impl core::fmt::Display for DerField {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            DerField::Sequence => "SEQUENCE",
            DerField::R => "r",
            DerField::S => "s",
        })
    }
}

/// Why a DER signature was rejected by the strict parser.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DerError {
    /// The input ends inside a tag, a length field or the content.
    #[error("{0}: input ends early")]
    Truncated(DerField),
    /// A tag other than the one expected (0x30 SEQUENCE, 0x02 INTEGER).
    #[error("{field}: expected tag 0x{expected:02x}, found 0x{found:02x}")]
    WrongTag {
        /// Element being read.
        field: DerField,
        /// Expected tag.
        expected: u8,
        /// Tag found.
        found: u8,
    },
    /// BER indefinite length (0x80).
    #[error("{0}: indefinite length is not DER")]
    IndefiniteLength(DerField),
    /// A long-form length that could be shorter (leading zero byte, or value < 128).
    #[error("{0}: length is not minimally encoded")]
    NonMinimalLength(DerField),
    /// A length field of more than 4 bytes.
    #[error("{0}: length field too large")]
    LengthTooLarge(DerField),
    /// Bytes after the SEQUENCE.
    #[error("trailing bytes after the signature SEQUENCE")]
    TrailingBytes,
    /// Bytes inside the SEQUENCE after s.
    #[error("extra data inside the signature SEQUENCE after s")]
    ExtraDataInSequence,
    /// INTEGER with no content bytes.
    #[error("{0}: INTEGER has no content bytes")]
    EmptyInteger(DerField),
    /// INTEGER whose top bit is set (a negative number in two's complement).
    #[error("{0} is a negative INTEGER")]
    NegativeInteger(DerField),
    /// INTEGER with a superfluous leading 0x00.
    #[error("{0}: INTEGER has a superfluous leading zero byte")]
    NonMinimalInteger(DerField),
    /// INTEGER of more than 256 bits.
    #[error("{0} is longer than 256 bits")]
    IntegerTooLarge(DerField),
}

/// Why a signature or recovery id was rejected, or signing failed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SigError {
    /// r = 0.
    #[error("r is zero")]
    RZero,
    /// s = 0.
    #[error("s is zero")]
    SZero,
    /// r >= n.
    #[error("r >= n")]
    RTooLarge,
    /// s >= n.
    #[error("s >= n")]
    STooLarge,
    /// Compact form of a length other than 64 or 65.
    #[error("compact signature must be 64 or 65 bytes, got {0}")]
    CompactLength(usize),
    /// Recovery id outside 0..=3.
    #[error("recovery id {0} out of range (must be 0..=3)")]
    RecoveryIdOutOfRange(u8),
    /// v that is not 0..=3, 27/28 or EIP-155 (>= 35).
    #[error("v = {0} is not 0..=3, 27/28 or EIP-155 (35 + 2*chain_id + {{0,1}})")]
    InvalidV(u64),
    /// DER parse failure.
    #[error("DER signature: {0}")]
    Der(#[from] DerError),
    /// Signing with a zero secret key.
    #[error("secret key is zero")]
    ZeroSecret,
    /// Signing with a zero nonce.
    #[error("nonce k is zero")]
    ZeroNonce,
}

/// Why an ECDSA verification (or the ECDSA* nonce point computation) failed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum VerifyError {
    /// u1*G + u2*Q is the point at infinity, so it has no x coordinate.
    #[error("u1*G + u2*Q is the point at infinity")]
    NonceIsIdentity,
    /// x(u1*G + u2*Q) mod n differs from r.
    #[error("signature mismatch: x(u1*G + u2*Q) mod n != r")]
    Mismatch,
    /// s > n/2 where the low-s policy (EIP-2) is in force.
    #[error("s > n/2 (high s rejected by the low-s policy)")]
    HighS,
}

/// Why public-key recovery (ECDSA*: R from (r, v), then Q) failed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RecoverError {
    /// r = 0 (only reachable through [`crate::recover::recover_nonce_point`]).
    #[error("r is zero")]
    RZero,
    /// Recovery id 2/3 asks for x = r + n, but r + n >= p.
    #[error("recovery id asks for x = r + n, but r + n >= p")]
    XNotInField,
    /// x^3 + 7 is not a square mod p: no curve point has x(R) = x.
    #[error("no curve point with x = r (x^3 + 7 is not a square mod p)")]
    NoCurvePoint,
    /// The recovered key r^-1 (s R - h G) is the point at infinity.
    #[error("recovered public key is the point at infinity")]
    RecoveredIdentity,
}
