//! ECDSA signatures (r, s), recovery ids / Ethereum v, and their byte encodings.

use ff::Field;
use halo2curves::secp256k1::Fq;

use super::encoding::{be_lt, fq_from_be_bytes, fq_to_be_bytes, HALF_N_BE};
use super::error::{DerError, DerField, SigError};

/// An ECDSA signature (r, s) with the range invariant `1 <= r, s < n` (SEC1 4.1.4 step 1).
///
/// Both scalars are stored reduced mod n, so the range upper bound holds by type; the only
/// constructors reject zero, and the byte parsers reject encodings `>= n` rather than
/// reducing them (reducing would let `r + n` stand for `r`, a malleable encoding).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Signature {
    r: Fq,
    s: Fq,
}

impl Signature {
    /// Builds a signature from scalars, rejecting r = 0 or s = 0.
    pub fn new(r: Fq, s: Fq) -> Result<Self, SigError> {
        if bool::from(r.is_zero()) {
            return Err(SigError::RZero);
        }
        if bool::from(s.is_zero()) {
            return Err(SigError::SZero);
        }
        Ok(Self { r, s })
    }

    /// Builds a signature from 32-byte big-endian r and s; each must be in `[1, n)`.
    pub fn from_be_bytes(r: &[u8; 32], s: &[u8; 32]) -> Result<Self, SigError> {
        let r = fq_from_be_bytes(r).ok_or(SigError::RTooLarge)?;
        let s = fq_from_be_bytes(s).ok_or(SigError::STooLarge)?;
        Self::new(r, s)
    }

    /// Parses the compact form `r ‖ s` (64 bytes, IEEE P1363) or `r ‖ s ‖ v` (65 bytes).
    ///
    /// The 65th byte is read by [`RecoveryId::from_v`] (0..=3, 27/28, or an EIP-155 value;
    /// any chain id it carries is dropped).
    pub fn from_compact(bytes: &[u8]) -> Result<(Self, Option<RecoveryId>), SigError> {
        if bytes.len() != 64 && bytes.len() != 65 {
            return Err(SigError::CompactLength(bytes.len()));
        }
        let mut r = [0u8; 32];
        let mut s = [0u8; 32];
        r.copy_from_slice(&bytes[..32]);
        s.copy_from_slice(&bytes[32..64]);
        let sig = Self::from_be_bytes(&r, &s)?;
        let id = match bytes.get(64) {
            Some(&v) => Some(RecoveryId::from_v(u64::from(v))?.0),
            None => None,
        };
        Ok((sig, id))
    }

    /// Parses a strict DER signature: `30 len (02 len r) (02 len s)` (SEC1 C.5, X.690 DER).
    ///
    /// Rejected: BER forms (indefinite length, long-form length that fits a shorter form or
    /// has a leading zero), wrong tags, lengths that overrun or leave bytes unused, bytes
    /// after the SEQUENCE or inside it after s, empty or negative INTEGERs, INTEGERs with a
    /// superfluous leading 00 (or a missing one, which makes them negative), INTEGERs over
    /// 256 bits, and then r or s outside `[1, n)`. Every accepted signature has exactly one
    /// DER encoding, so `to_der(from_der_strict(b)) == b`.
    pub fn from_der_strict(bytes: &[u8]) -> Result<Self, SigError> {
        let (seq, rest) = read_tlv(bytes, 0x30, DerField::Sequence)?;
        if !rest.is_empty() {
            return Err(DerError::TrailingBytes.into());
        }
        let (r_bytes, rest) = read_tlv(seq, 0x02, DerField::R)?;
        let (s_bytes, rest) = read_tlv(rest, 0x02, DerField::S)?;
        if !rest.is_empty() {
            return Err(DerError::ExtraDataInSequence.into());
        }
        let r = der_uint(r_bytes, DerField::R)?;
        let s = der_uint(s_bytes, DerField::S)?;
        Self::from_be_bytes(&r, &s)
    }

    /// The scalar r.
    pub fn r(&self) -> Fq {
        self.r
    }

    /// The scalar s.
    pub fn s(&self) -> Fq {
        self.s
    }

    /// Whether `s <= floor(n/2)` (EIP-2 / BIP-62 low-s rule).
    ///
    /// (r, s) and (r, n - s) are both valid for the same key and message (R ↦ -R), so a
    /// low-s policy picks one of the two to remove that malleability.
    pub fn is_low_s(&self) -> bool {
        !be_lt(&HALF_N_BE, &fq_to_be_bytes(&self.s))
    }

    /// The low-s form: `(r, n - s)` when s is high, unchanged otherwise. The boolean says
    /// whether s was negated; a recovery id must then flip its y parity (the signature now
    /// corresponds to -R).
    pub fn normalize_s(&self) -> (Self, bool) {
        if self.is_low_s() {
            (*self, false)
        } else {
            (
                Self {
                    r: self.r,
                    s: -self.s,
                },
                true,
            )
        }
    }

    /// `r ‖ s`, each 32-byte big-endian.
    pub fn to_compact(&self) -> [u8; 64] {
        let mut out = [0u8; 64];
        out[..32].copy_from_slice(&fq_to_be_bytes(&self.r));
        out[32..].copy_from_slice(&fq_to_be_bytes(&self.s));
        out
    }

    /// The (unique) DER encoding.
    pub fn to_der(&self) -> Vec<u8> {
        let r = der_integer(&fq_to_be_bytes(&self.r));
        let s = der_integer(&fq_to_be_bytes(&self.s));
        // At most 2 * (2 + 33) = 70 content bytes: always the short length form.
        let mut out = vec![0x30, (r.len() + s.len()) as u8];
        out.extend_from_slice(&r);
        out.extend_from_slice(&s);
        out
    }
}

/// Reads one DER TLV with the expected tag; returns (content, rest).
fn read_tlv(input: &[u8], tag: u8, field: DerField) -> Result<(&[u8], &[u8]), DerError> {
    let (&found, rest) = input.split_first().ok_or(DerError::Truncated(field))?;
    if found != tag {
        return Err(DerError::WrongTag {
            field,
            expected: tag,
            found,
        });
    }
    let (&first, rest) = rest.split_first().ok_or(DerError::Truncated(field))?;
    let (len, rest) = if first < 0x80 {
        (first as usize, rest)
    } else if first == 0x80 {
        return Err(DerError::IndefiniteLength(field));
    } else {
        let count = (first & 0x7f) as usize;
        if count > 4 {
            return Err(DerError::LengthTooLarge(field));
        }
        if rest.len() < count {
            return Err(DerError::Truncated(field));
        }
        let (len_bytes, rest) = rest.split_at(count);
        if len_bytes[0] == 0 {
            return Err(DerError::NonMinimalLength(field));
        }
        let len = len_bytes
            .iter()
            .fold(0usize, |acc, &b| (acc << 8) | b as usize);
        if len < 0x80 {
            return Err(DerError::NonMinimalLength(field));
        }
        (len, rest)
    };
    if rest.len() < len {
        return Err(DerError::Truncated(field));
    }
    Ok(rest.split_at(len))
}

/// Decodes the content of a DER INTEGER that must be non-negative and at most 256 bits,
/// into 32 big-endian bytes.
fn der_uint(content: &[u8], field: DerField) -> Result<[u8; 32], DerError> {
    let (&first, tail) = content.split_first().ok_or(DerError::EmptyInteger(field))?;
    if first & 0x80 != 0 {
        return Err(DerError::NegativeInteger(field));
    }
    let magnitude = if first == 0 {
        match tail.first() {
            // 00 followed by a byte < 0x80: the zero is superfluous.
            Some(&b) if b & 0x80 == 0 => return Err(DerError::NonMinimalInteger(field)),
            Some(_) => tail,
            // The single byte 00 is the integer zero (rejected later as "r is zero").
            None => content,
        }
    } else {
        content
    };
    if magnitude.len() > 32 {
        return Err(DerError::IntegerTooLarge(field));
    }
    let mut out = [0u8; 32];
    out[32 - magnitude.len()..].copy_from_slice(magnitude);
    Ok(out)
}

/// The DER INTEGER TLV of a non-negative 32-byte big-endian value.
fn der_integer(be: &[u8; 32]) -> Vec<u8> {
    let start = be.iter().position(|&b| b != 0).unwrap_or(31);
    let digits = &be[start..];
    let pad = digits[0] & 0x80 != 0;
    let mut out = Vec::with_capacity(digits.len() + 3);
    out.push(0x02);
    out.push((digits.len() + pad as usize) as u8);
    if pad {
        out.push(0);
    }
    out.extend_from_slice(digits);
    out
}

/// Recovery id: which of the up to four points R with `x(R) mod n = r` was the nonce point.
///
/// bit 0: y(R) is odd; bit 1: x(R) = r + n (possible only when r + n < p, i.e. for about
/// 2^-127 of nonces), otherwise x(R) = r.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct RecoveryId(u8);

impl RecoveryId {
    /// A recovery id from its number 0..=3.
    pub fn new(id: u8) -> Result<Self, SigError> {
        if id > 3 {
            return Err(SigError::RecoveryIdOutOfRange(id));
        }
        Ok(Self(id))
    }

    /// A recovery id from its two bits.
    pub fn from_parts(y_is_odd: bool, x_is_reduced: bool) -> Self {
        Self(y_is_odd as u8 | ((x_is_reduced as u8) << 1))
    }

    /// Reads an Ethereum-style v:
    /// - `0..=3`: the recovery id itself (typed transactions use 0/1; 2/3 are the rare
    ///   x = r + n ids, accepted where they occur);
    /// - `27`/`28`: legacy (pre-EIP-155) v, id = v - 27;
    /// - `v >= 35`: EIP-155, `v = 35 + 2·chain_id + y_parity`; returns the chain id too.
    ///
    /// Everything else (4..=26, 29..=34) is rejected. Callers wanting Ethereum
    /// transaction rules (only 0/1 for typed transactions, only 27/28 in the ecrecover
    /// precompile) check v themselves before calling this.
    pub fn from_v(v: u64) -> Result<(Self, Option<u64>), SigError> {
        match v {
            0..=3 => Ok((Self(v as u8), None)),
            27 | 28 => Ok((Self((v - 27) as u8), None)),
            35.. => Ok((Self(((v - 35) & 1) as u8), Some((v - 35) / 2))),
            _ => Err(SigError::InvalidV(v)),
        }
    }

    /// Whether y(R) is odd (bit 0).
    pub fn is_y_odd(self) -> bool {
        self.0 & 1 == 1
    }

    /// Whether x(R) = r + n rather than r (bit 1).
    pub fn is_x_reduced(self) -> bool {
        self.0 & 2 == 2
    }

    /// The id as 0..=3.
    pub fn to_u8(self) -> u8 {
        self.0
    }

    /// The id for -R (same x, other y parity): what goes with `(r, n - s)`.
    pub fn flip_parity(self) -> Self {
        Self(self.0 ^ 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::N_BE;

    fn be(x: u64) -> [u8; 32] {
        let mut b = [0u8; 32];
        b[24..].copy_from_slice(&x.to_be_bytes());
        b
    }

    fn der_err(bytes: &[u8]) -> SigError {
        Signature::from_der_strict(bytes).unwrap_err()
    }

    #[test]
    fn range_checks() {
        assert_eq!(Signature::new(Fq::ZERO, Fq::ONE), Err(SigError::RZero));
        assert_eq!(Signature::new(Fq::ONE, Fq::ZERO), Err(SigError::SZero));
        assert_eq!(
            Signature::from_be_bytes(&be(0), &be(1)),
            Err(SigError::RZero)
        );
        assert_eq!(
            Signature::from_be_bytes(&be(1), &be(0)),
            Err(SigError::SZero)
        );
        assert_eq!(
            Signature::from_be_bytes(&N_BE, &be(1)),
            Err(SigError::RTooLarge)
        );
        assert_eq!(
            Signature::from_be_bytes(&be(1), &N_BE),
            Err(SigError::STooLarge)
        );
        assert_eq!(
            Signature::from_be_bytes(&[0xff; 32], &be(1)),
            Err(SigError::RTooLarge)
        );
        let sig = Signature::from_be_bytes(&be(5), &be(6)).unwrap();
        assert_eq!((sig.r(), sig.s()), (Fq::from(5), Fq::from(6)));
    }

    #[test]
    fn low_s_boundary() {
        let half = fq_from_be_bytes(&HALF_N_BE).unwrap();
        let at = Signature::new(Fq::ONE, half).unwrap();
        assert!(at.is_low_s());
        let above = Signature::new(Fq::ONE, half + Fq::ONE).unwrap();
        assert!(!above.is_low_s());
        let (norm, flipped) = above.normalize_s();
        assert!(flipped && norm.is_low_s());
        assert_eq!(norm.s(), -(half + Fq::ONE));
        assert_eq!(at.normalize_s(), (at, false));
        assert!(!Signature::new(Fq::ONE, -Fq::ONE).unwrap().is_low_s());
    }

    #[test]
    fn compact_forms() {
        let sig = Signature::new(Fq::from(11), Fq::from(12)).unwrap();
        let c = sig.to_compact();
        assert_eq!(Signature::from_compact(&c), Ok((sig, None)));
        let mut c65 = [0u8; 65];
        c65[..64].copy_from_slice(&c);
        c65[64] = 28;
        assert_eq!(
            Signature::from_compact(&c65),
            Ok((sig, Some(RecoveryId::new(1).unwrap())))
        );
        c65[64] = 29;
        assert_eq!(Signature::from_compact(&c65), Err(SigError::InvalidV(29)));
        assert_eq!(
            Signature::from_compact(&c[..63]),
            Err(SigError::CompactLength(63))
        );
        assert_eq!(
            Signature::from_compact(&[]),
            Err(SigError::CompactLength(0))
        );
        let mut zero_r = c;
        zero_r[..32].fill(0);
        assert_eq!(Signature::from_compact(&zero_r), Err(SigError::RZero));
    }

    #[test]
    fn recovery_ids_and_v() {
        assert_eq!(RecoveryId::new(4), Err(SigError::RecoveryIdOutOfRange(4)));
        for id in 0..4u8 {
            let r = RecoveryId::new(id).unwrap();
            assert_eq!(r.to_u8(), id);
            assert_eq!(RecoveryId::from_parts(r.is_y_odd(), r.is_x_reduced()), r);
            assert_eq!(r.flip_parity().is_y_odd(), !r.is_y_odd());
            assert_eq!(RecoveryId::from_v(id as u64), Ok((r, None)));
        }
        let id0 = RecoveryId::new(0).unwrap();
        let id1 = RecoveryId::new(1).unwrap();
        assert_eq!(RecoveryId::from_v(27), Ok((id0, None)));
        assert_eq!(RecoveryId::from_v(28), Ok((id1, None)));
        assert_eq!(RecoveryId::from_v(37), Ok((id0, Some(1))));
        assert_eq!(RecoveryId::from_v(38), Ok((id1, Some(1))));
        assert_eq!(RecoveryId::from_v(35), Ok((id0, Some(0))));
        assert_eq!(
            RecoveryId::from_v(u64::MAX),
            Ok((id0, Some((u64::MAX - 35) / 2)))
        );
        for bad in [4u64, 26, 29, 30, 31, 34] {
            assert_eq!(RecoveryId::from_v(bad), Err(SigError::InvalidV(bad)));
        }
    }

    #[test]
    fn der_round_trip_and_minimal_integers() {
        for (r, s) in [(1u64, 1u64), (0x7f, 0x80), (0xff, 0x100), (0x8000, 0x7fff)] {
            let sig = Signature::from_be_bytes(&be(r), &be(s)).unwrap();
            let der = sig.to_der();
            assert_eq!(Signature::from_der_strict(&der), Ok(sig));
        }
        // Full-size values with the top bit set get a 00 pad.
        let big = Signature::new(-Fq::ONE, -Fq::from(2)).unwrap();
        let der = big.to_der();
        assert_eq!(der.len(), 2 + 2 * 35);
        assert_eq!(Signature::from_der_strict(&der), Ok(big));
        // r = 1, s = 0x80: 30 07 02 01 01 02 02 00 80.
        let sig = Signature::from_be_bytes(&be(1), &be(0x80)).unwrap();
        assert_eq!(sig.to_der(), vec![0x30, 7, 2, 1, 1, 2, 2, 0, 0x80]);
    }

    #[test]
    fn der_error_paths() {
        use DerError::*;
        use DerField::*;
        let ok = [0x30u8, 6, 2, 1, 1, 2, 1, 1];
        assert!(Signature::from_der_strict(&ok).is_ok());
        assert_eq!(der_err(&[]), Truncated(Sequence).into());
        assert_eq!(der_err(&[0x30]), Truncated(Sequence).into());
        assert_eq!(der_err(&ok[..7]), Truncated(Sequence).into());
        assert_eq!(
            der_err(&[0x31, 6, 2, 1, 1, 2, 1, 1]),
            WrongTag {
                field: Sequence,
                expected: 0x30,
                found: 0x31
            }
            .into()
        );
        assert_eq!(
            der_err(&[0x30, 6, 3, 1, 1, 2, 1, 1]),
            WrongTag {
                field: R,
                expected: 2,
                found: 3
            }
            .into()
        );
        assert_eq!(
            der_err(&[0x30, 6, 2, 1, 1, 4, 1, 1]),
            WrongTag {
                field: S,
                expected: 2,
                found: 4
            }
            .into()
        );
        assert_eq!(
            der_err(&[0x30, 0x80, 2, 1, 1, 2, 1, 1, 0, 0]),
            IndefiniteLength(Sequence).into()
        );
        assert_eq!(
            der_err(&[0x30, 0x81, 6, 2, 1, 1, 2, 1, 1]),
            NonMinimalLength(Sequence).into()
        );
        assert_eq!(
            der_err(&[0x30, 0x82, 0, 6, 2, 1, 1, 2, 1, 1]),
            NonMinimalLength(Sequence).into()
        );
        assert_eq!(
            der_err(&[0x30, 0x85, 0, 0, 0, 0, 6]),
            LengthTooLarge(Sequence).into()
        );
        assert_eq!(der_err(&[0x30, 0x82, 1]), Truncated(Sequence).into());
        assert_eq!(
            der_err(&[0x30, 7, 2, 1, 1, 2, 1, 1]),
            Truncated(Sequence).into()
        );
        assert_eq!(
            der_err(&[0x30, 6, 2, 1, 1, 2, 1, 1, 0]),
            TrailingBytes.into()
        );
        assert_eq!(
            der_err(&[0x30, 7, 2, 1, 1, 2, 1, 1, 0]),
            ExtraDataInSequence.into()
        );
        assert_eq!(der_err(&[0x30, 3, 2, 1, 1]), Truncated(S).into());
        assert_eq!(der_err(&[0x30, 6, 2, 1, 1, 2, 2, 1]), Truncated(S).into());
        assert_eq!(der_err(&[0x30, 5, 2, 0, 2, 1, 1]), EmptyInteger(R).into());
        assert_eq!(der_err(&[0x30, 5, 2, 1, 1, 2, 0]), EmptyInteger(S).into());
        assert_eq!(
            der_err(&[0x30, 6, 2, 1, 0x81, 2, 1, 1]),
            NegativeInteger(R).into()
        );
        assert_eq!(
            der_err(&[0x30, 6, 2, 1, 1, 2, 1, 0xff]),
            NegativeInteger(S).into()
        );
        assert_eq!(
            der_err(&[0x30, 7, 2, 2, 0, 1, 2, 1, 1]),
            NonMinimalInteger(R).into()
        );
        assert_eq!(
            der_err(&[0x30, 7, 2, 1, 1, 2, 2, 0, 0x7f]),
            NonMinimalInteger(S).into()
        );
        // Zero values pass DER but fail the range check.
        assert_eq!(der_err(&[0x30, 6, 2, 1, 0, 2, 1, 1]), SigError::RZero);
        assert_eq!(der_err(&[0x30, 6, 2, 1, 1, 2, 1, 0]), SigError::SZero);
        // 33 magnitude bytes (after a valid 00 pad) is over 256 bits.
        let mut long = vec![0x30, 2 + 35 + 3, 2, 35, 0, 0x80];
        long.extend_from_slice(&[0u8; 33]);
        long.extend_from_slice(&[2, 1, 1]);
        assert_eq!(der_err(&long), IntegerTooLarge(R).into());
        // r = n (33 bytes with pad) is in DER but out of range.
        let n_sig = {
            let mut v = vec![0x30, 38, 2, 33, 0];
            v.extend_from_slice(&N_BE);
            v.extend_from_slice(&[2, 1, 1]);
            v
        };
        assert_eq!(der_err(&n_sig), SigError::RTooLarge);
        // Messages name the reason.
        assert_eq!(
            der_err(&[0x30, 6, 2, 1, 0x81, 2, 1, 1]).to_string(),
            "DER signature: r is a negative INTEGER"
        );
    }
}
