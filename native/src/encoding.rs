//! Big-endian byte encodings of secp256k1 field elements and scalars.
//!
//! External formats (SEC1 keys, signatures, hashes, Ethereum) write integers as 32-byte
//! big-endian strings; halo2curves' `to_repr` / `from_repr` are little-endian, so every
//! conversion goes through this module. Canonical parsers reject values outside `[0, m)`
//! instead of silently reducing them: a value `>= m` is a different byte string for the
//! same field element, which would make encodings malleable.

use ff::{FromUniformBytes, PrimeField};
use halo2curves::secp256k1::{Fp, Fq};

/// Decodes a 64-digit hex string at compile time (only used for the constants below).
const fn hex32(s: &str) -> [u8; 32] {
    let b = s.as_bytes();
    let mut out = [0u8; 32];
    let mut i = 0;
    while i < 32 {
        out[i] = (nibble(b[2 * i]) << 4) | nibble(b[2 * i + 1]);
        i += 1;
    }
    out
}

const fn nibble(c: u8) -> u8 {
    match c {
        b'0'..=b'9' => c - b'0',
        b'a'..=b'f' => c - b'a' + 10,
        b'A'..=b'F' => c - b'A' + 10,
        _ => panic!("bad hex digit in constant"),
    }
}

/// p = 2^256 - 2^32 - 977, the base field modulus, big-endian.
pub const P_BE: [u8; 32] =
    hex32("FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEFFFFFC2F");
/// n, the order of the generator G (and of the whole curve group), big-endian.
pub const N_BE: [u8; 32] =
    hex32("FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141");
/// floor(n / 2), the largest "low" s under EIP-2, big-endian.
pub const HALF_N_BE: [u8; 32] =
    hex32("7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0");
/// p - n (about 2^128.3): r + n < p exactly when r < p - n.
pub const P_MINUS_N_BE: [u8; 32] =
    hex32("000000000000000000000000000000014551231950B75FC4402DA1722FC9BAEE");

/// `a < b` for 32-byte big-endian integers (lexicographic order is numeric order).
pub fn be_lt(a: &[u8; 32], b: &[u8; 32]) -> bool {
    a < b
}

fn reversed(b: &[u8; 32]) -> [u8; 32] {
    let mut le = *b;
    le.reverse();
    le
}

/// The scalar with big-endian value `b`, or `None` if `b >= n` (no reduction).
pub fn fq_from_be_bytes(b: &[u8; 32]) -> Option<Fq> {
    Option::from(Fq::from_repr(reversed(b)))
}

/// The field element with big-endian value `b`, or `None` if `b >= p` (no reduction).
pub fn fp_from_be_bytes(b: &[u8; 32]) -> Option<Fp> {
    Option::from(Fp::from_repr(reversed(b)))
}

/// `b mod n` for a 256-bit big-endian integer: the ECDSA message-hash-to-scalar map for a
/// 256-bit digest (SEC1 4.1.3 step 5 with `e` = the whole digest, then reduced mod n).
///
/// Since `n > 2^255`, `b < 2n` and the reduction subtracts n at most once.
pub fn fq_from_be_bytes_reduced(b: &[u8; 32]) -> Fq {
    let mut wide = [0u8; 64];
    wide[..32].copy_from_slice(&reversed(b));
    Fq::from_uniform_bytes(&wide)
}

/// Big-endian bytes of a scalar (always `< n`).
pub fn fq_to_be_bytes(x: &Fq) -> [u8; 32] {
    reversed(&x.to_repr())
}

/// Big-endian bytes of a field element (always `< p`).
pub fn fp_to_be_bytes(x: &Fp) -> [u8; 32] {
    reversed(&x.to_repr())
}

/// `x mod n` for a base-field element: the ECDSA map `r = x(R) mod n`.
///
/// `x < p < 2n`, so this subtracts n when `n <= x < p` (probability about 2^-128 for a
/// random point) and is the identity map on the integer otherwise.
pub fn fp_to_fq_reduced(x: &Fp) -> Fq {
    fq_from_be_bytes_reduced(&fp_to_be_bytes(x))
}

/// Whether the integer value of `x` is `>= n`, i.e. `x mod n != x` (recovery id bit 1).
pub fn fp_is_ge_n(x: &Fp) -> bool {
    !be_lt(&fp_to_be_bytes(x), &N_BE)
}

/// `a + b` of 32-byte big-endian integers, `None` past 2²⁵⁶.
pub fn be_add(a: &[u8; 32], b: &[u8; 32]) -> Option<[u8; 32]> {
    let mut out = [0u8; 32];
    let mut carry = 0u16;
    for i in (0..32).rev() {
        let t = a[i] as u16 + b[i] as u16 + carry;
        out[i] = t as u8;
        carry = t >> 8;
    }
    (carry == 0).then_some(out)
}

/// The field element `r + n` (as integers), or `None` when `r + n >= p`.
///
/// This is the x coordinate of R for recovery ids 2 and 3. It exists only for
/// `r < p - n`, i.e. for fewer than 2^129 of the 2^256 possible r.
pub fn fq_plus_n_as_fp(r: &Fq) -> Option<Fp> {
    let r_be = fq_to_be_bytes(r);
    if !be_lt(&r_be, &P_MINUS_N_BE) {
        return None;
    }
    // r < p - n, so r + n < p < 2^256: no carry out.
    fp_from_be_bytes(&be_add(&r_be, &N_BE)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ff::Field;

    fn one_be() -> [u8; 32] {
        let mut b = [0u8; 32];
        b[31] = 1;
        b
    }

    #[test]
    fn constants_match_field_moduli() {
        // n - 1 and p - 1 are the largest canonical values; n and p are rejected.
        let n_minus_1 = fq_to_be_bytes(&(-Fq::ONE));
        let mut n = n_minus_1;
        n[31] += 1;
        assert_eq!(n, N_BE);
        let p_minus_1 = fp_to_be_bytes(&(-Fp::ONE));
        let mut p = p_minus_1;
        p[31] += 1;
        assert_eq!(p, P_BE);
        // HALF_N = (n - 1) / 2, so 2 * HALF_N + 1 = n.
        let half = fq_from_be_bytes(&HALF_N_BE).unwrap();
        assert_eq!(half + half + Fq::ONE, Fq::ZERO);
        // P_MINUS_N + n = p: as field elements of Fp, P_MINUS_N + (n mod p) = 0.
        let pmn = fp_from_be_bytes(&P_MINUS_N_BE).unwrap();
        let n_fp = fp_from_be_bytes(&N_BE).unwrap();
        assert_eq!(pmn + n_fp, Fp::ZERO);
    }

    #[test]
    fn canonical_parsers_reject_modulus_and_above() {
        assert!(fq_from_be_bytes(&N_BE).is_none());
        assert!(fq_from_be_bytes(&[0xff; 32]).is_none());
        assert!(fp_from_be_bytes(&P_BE).is_none());
        assert!(fp_from_be_bytes(&[0xff; 32]).is_none());
        assert_eq!(fq_from_be_bytes(&one_be()), Some(Fq::ONE));
        assert_eq!(fp_from_be_bytes(&one_be()), Some(Fp::ONE));
        // n is a valid Fp element (n < p).
        assert!(fp_from_be_bytes(&N_BE).is_some());
    }

    #[test]
    fn reduction_and_round_trips() {
        assert_eq!(fq_from_be_bytes_reduced(&N_BE), Fq::ZERO);
        let mut n_plus_1 = N_BE;
        n_plus_1[31] += 1;
        assert_eq!(fq_from_be_bytes_reduced(&n_plus_1), Fq::ONE);
        // 2^256 - 1 mod n = 2^256 - 1 - n.
        let all = fq_from_be_bytes_reduced(&[0xff; 32]);
        let n_fq_minus = -fq_from_be_bytes_reduced(&N_BE); // 0
        assert_eq!(n_fq_minus, Fq::ZERO);
        let expected = fq_from_be_bytes(&hex32(
            "000000000000000000000000000000014551231950B75FC4402DA1732FC9BEBE",
        ))
        .unwrap();
        assert_eq!(all, expected);
        let x = Fq::from(0x1234_5678_9abc_def0u64);
        assert_eq!(fq_from_be_bytes(&fq_to_be_bytes(&x)), Some(x));
        let y = Fp::from(0x1234_5678_9abc_def0u64);
        assert_eq!(fp_from_be_bytes(&fp_to_be_bytes(&y)), Some(y));
        assert_eq!(fq_to_be_bytes(&Fq::ONE), one_be());
    }

    #[test]
    fn x_mod_n_and_r_plus_n() {
        let n_fp = fp_from_be_bytes(&N_BE).unwrap();
        assert!(fp_is_ge_n(&n_fp));
        assert!(!fp_is_ge_n(&(n_fp - Fp::ONE)));
        assert_eq!(fp_to_fq_reduced(&(n_fp + Fp::from(5))), Fq::from(5));
        assert_eq!(fq_plus_n_as_fp(&Fq::from(5)), Some(n_fp + Fp::from(5)));
        // Largest r with r + n < p is p - n - 1, giving p - 1.
        let pmn = fq_from_be_bytes(&P_MINUS_N_BE).unwrap();
        assert_eq!(fq_plus_n_as_fp(&(pmn - Fq::ONE)), Some(-Fp::ONE));
        assert_eq!(fq_plus_n_as_fp(&pmn), None);
        assert_eq!(fq_plus_n_as_fp(&(-Fq::ONE)), None);
    }
}
