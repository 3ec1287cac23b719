//! Public keys: SEC1 parsing / serialisation, construction from a secret, Ethereum address.

use ff::{Field, PrimeField};
use group::{prime::PrimeCurveAffine, Curve};
use halo2curves::secp256k1::{Fp, Fq, Secp256k1, Secp256k1Affine};
use halo2curves::CurveAffine;

use super::encoding::{fp_from_be_bytes, fp_to_be_bytes};
use super::error::KeyError;
use super::sqrt::decompress;

/// A secp256k1 public key Q: a point on y^2 = x^3 + 7 other than the identity.
///
/// The only constructors check both conditions, so holding a `PublicKey` is proof of them.
/// The curve has prime order n (cofactor 1), so every such point generates the whole group
/// and no subgroup check is needed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PublicKey {
    point: Secp256k1Affine,
}

impl PublicKey {
    /// Parses a SEC1 encoding (SEC 1 v2, 2.3.3 / 2.3.4):
    /// - `04 ‖ x ‖ y` (65 bytes): x, y < p and y^2 = x^3 + 7;
    /// - `02 ‖ x` / `03 ‖ x` (33 bytes): x < p, y = the root of x^3 + 7 with parity
    ///   0 (prefix 02) or 1 (prefix 03); rejected when x^3 + 7 is not a square.
    ///
    /// The identity (`00`), hybrid encodings (`06`/`07`) and any other prefix or length
    /// are rejected.
    pub fn from_sec1(bytes: &[u8]) -> Result<Self, KeyError> {
        let (&prefix, body) = bytes.split_first().ok_or(KeyError::Empty)?;
        match prefix {
            0x04 => {
                if bytes.len() != 65 {
                    return Err(KeyError::UncompressedLength(bytes.len()));
                }
                let (xb, yb) = body.split_at(32);
                let bad_len = |_| KeyError::UncompressedLength(bytes.len());
                let x = fp_from_be_bytes(&xb.try_into().map_err(bad_len)?)
                    .ok_or(KeyError::XNotInField)?;
                let y = fp_from_be_bytes(&yb.try_into().map_err(bad_len)?)
                    .ok_or(KeyError::YNotInField)?;
                // Checked here, before `from_affine`, so that 04 ‖ 0 ‖ 0 (not a curve point;
                // halo2curves' in-memory identity) is reported as off the curve.
                if y.square() != x.square() * x + Fp::from(7) {
                    return Err(KeyError::NotOnCurve);
                }
                Self::from_affine(Secp256k1Affine { x, y })
            }
            0x02 | 0x03 => {
                if bytes.len() != 33 {
                    return Err(KeyError::CompressedLength(bytes.len()));
                }
                let xb: [u8; 32] = body
                    .try_into()
                    .map_err(|_| KeyError::CompressedLength(bytes.len()))?;
                let x = fp_from_be_bytes(&xb).ok_or(KeyError::XNotInField)?;
                let point = decompress(&x, prefix == 0x03).ok_or(KeyError::NoCurvePoint)?;
                Self::from_affine(point)
            }
            0x00 => Err(KeyError::Identity),
            other => Err(KeyError::UnknownPrefix(other)),
        }
    }

    /// Wraps an affine point after checking it is not the identity and is on the curve.
    ///
    /// The identity check comes first: halo2curves represents it as (0, 0) and its
    /// `is_on_curve` accepts the identity.
    pub fn from_affine(p: Secp256k1Affine) -> Result<Self, KeyError> {
        if bool::from(p.is_identity()) {
            return Err(KeyError::Identity);
        }
        if !bool::from(p.is_on_curve()) {
            return Err(KeyError::NotOnCurve);
        }
        Ok(Self { point: p })
    }

    /// Q = d·G for a secret key d ∈ [1, n). d = 0 is rejected (it gives the identity).
    pub fn from_secret(d: &Fq) -> Result<Self, KeyError> {
        if bool::from(d.is_zero()) {
            return Err(KeyError::ZeroSecret);
        }
        Self::from_affine((Secp256k1::generator() * d).to_affine())
    }

    /// The point Q.
    pub fn point(&self) -> Secp256k1Affine {
        self.point
    }

    /// `04 ‖ x ‖ y`, big-endian.
    pub fn to_sec1_uncompressed(&self) -> [u8; 65] {
        let mut out = [0u8; 65];
        out[0] = 0x04;
        out[1..33].copy_from_slice(&fp_to_be_bytes(&self.point.x));
        out[33..].copy_from_slice(&fp_to_be_bytes(&self.point.y));
        out
    }

    /// `02 ‖ x` (y even) or `03 ‖ x` (y odd).
    pub fn to_sec1_compressed(&self) -> [u8; 33] {
        let mut out = [0u8; 33];
        out[0] = if bool::from(self.point.y.is_odd()) {
            0x03
        } else {
            0x02
        };
        out[1..].copy_from_slice(&fp_to_be_bytes(&self.point.x));
        out
    }

    /// Ethereum address: the last 20 bytes of keccak256(x ‖ y), x and y 32-byte big-endian
    /// (the uncompressed SEC1 encoding without its 04 prefix).
    pub fn address(&self) -> [u8; 20] {
        let enc = self.to_sec1_uncompressed();
        let (mut x, mut y) = ([0u8; 32], [0u8; 32]);
        x.copy_from_slice(&enc[1..33]);
        y.copy_from_slice(&enc[33..65]);
        crate::digest::address_of_coordinates(&x, &y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::P_BE;

    fn g() -> Secp256k1Affine {
        Secp256k1Affine::generator()
    }

    #[test]
    fn generator_round_trips() {
        let q = PublicKey::from_secret(&Fq::ONE).unwrap();
        assert_eq!(q.point(), g());
        let u = q.to_sec1_uncompressed();
        assert_eq!(
            hex::encode(u),
            "0479be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798\
             483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8"
        );
        assert_eq!(PublicKey::from_sec1(&u), Ok(q));
        let c = q.to_sec1_compressed();
        assert_eq!(c[0], 0x02);
        assert_eq!(PublicKey::from_sec1(&c), Ok(q));
        let minus = PublicKey::from_affine(-g()).unwrap();
        assert_eq!(minus.to_sec1_compressed()[0], 0x03);
        assert_eq!(PublicKey::from_sec1(&minus.to_sec1_compressed()), Ok(minus));
    }

    #[test]
    fn address_of_secret_one() {
        // Well-known: the address of private key 1.
        let q = PublicKey::from_secret(&Fq::ONE).unwrap();
        assert_eq!(
            hex::encode(q.address()),
            "7e5f4552091a69125d5dfcb7b8c2659029395bdf"
        );
    }

    #[test]
    fn sec1_error_paths() {
        let q = PublicKey::from_secret(&Fq::from(7)).unwrap();
        let u = q.to_sec1_uncompressed();
        let c = q.to_sec1_compressed();
        assert_eq!(PublicKey::from_sec1(&[]), Err(KeyError::Empty));
        assert_eq!(PublicKey::from_sec1(&[0x00]), Err(KeyError::Identity));
        assert_eq!(
            PublicKey::from_sec1(&u[..64]),
            Err(KeyError::UncompressedLength(64))
        );
        let mut long = u.to_vec();
        long.push(0);
        assert_eq!(
            PublicKey::from_sec1(&long),
            Err(KeyError::UncompressedLength(66))
        );
        assert_eq!(
            PublicKey::from_sec1(&c[..32]),
            Err(KeyError::CompressedLength(32))
        );
        assert_eq!(
            PublicKey::from_sec1(&u[..33]),
            Err(KeyError::UncompressedLength(33))
        );
        let mut c65 = u;
        c65[0] = 0x02;
        assert_eq!(
            PublicKey::from_sec1(&c65),
            Err(KeyError::CompressedLength(65))
        );
        let mut hybrid = u;
        hybrid[0] = 0x06;
        assert_eq!(
            PublicKey::from_sec1(&hybrid),
            Err(KeyError::UnknownPrefix(0x06))
        );
        // x >= p, y >= p.
        let mut bad = u;
        bad[1..33].copy_from_slice(&P_BE);
        assert_eq!(PublicKey::from_sec1(&bad), Err(KeyError::XNotInField));
        let mut bad = u;
        bad[33..].copy_from_slice(&P_BE);
        assert_eq!(PublicKey::from_sec1(&bad), Err(KeyError::YNotInField));
        let mut bad = c;
        bad[1..].copy_from_slice(&P_BE);
        assert_eq!(PublicKey::from_sec1(&bad), Err(KeyError::XNotInField));
        // y + p would be the same field element: encoded y >= p is rejected, not reduced.
        // Off-curve: flip the last bit of y.
        let mut bad = u;
        bad[64] ^= 1;
        assert_eq!(PublicKey::from_sec1(&bad), Err(KeyError::NotOnCurve));
        // All-zero uncompressed encoding is (0, 0): not on the curve (and halo2curves'
        // in-memory identity, which must not slip through).
        let mut zero = [0u8; 65];
        zero[0] = 0x04;
        assert_eq!(PublicKey::from_sec1(&zero), Err(KeyError::NotOnCurve));
        // Compressed x with no curve point: find a small x where x^3 + 7 is a non-residue.
        let x = (0u64..)
            .map(Fp::from)
            .find(|x| decompress(x, false).is_none())
            .unwrap();
        let mut nc = [0u8; 33];
        nc[0] = 0x02;
        nc[1..].copy_from_slice(&fp_to_be_bytes(&x));
        assert_eq!(PublicKey::from_sec1(&nc), Err(KeyError::NoCurvePoint));
        assert_eq!(PublicKey::from_secret(&Fq::ZERO), Err(KeyError::ZeroSecret));
        assert_eq!(
            PublicKey::from_affine(Secp256k1Affine::identity()),
            Err(KeyError::Identity)
        );
        assert_eq!(
            PublicKey::from_affine(Secp256k1Affine {
                x: Fp::ONE,
                y: Fp::ONE
            }),
            Err(KeyError::NotOnCurve)
        );
    }
}
