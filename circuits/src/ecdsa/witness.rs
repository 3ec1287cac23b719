//! The witness of one ECDSA* verification: the nonce point R and s (private), the message hash
//! h and the key Q (public, see [`super::instance`]).

use ff::Field;
use group::prime::PrimeCurveAffine;
use halo2curves::secp256k1::{Fq, Secp256k1Affine};
use num_bigint::BigUint;

use crate::bigint::fe_to_big;

/// Why a witness cannot be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WitnessError {
    /// R or Q is the point at infinity (it has no affine coordinates in the circuit).
    Identity(&'static str),
    /// s is zero (no valid signature has it).
    ZeroS,
    /// A raw value does not fit in 256 bits (three limbs).
    TooLarge(&'static str),
    /// The signing hash is not `≡ h (mod n)`.
    HashMismatch,
}

impl std::fmt::Display for WitnessError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WitnessError::Identity(w) => write!(f, "{w} is the point at infinity"),
            WitnessError::ZeroS => write!(f, "s is zero"),
            WitnessError::TooLarge(w) => write!(f, "{w} does not fit in 256 bits"),
            WitnessError::HashMismatch => write!(f, "the signing hash is not h mod n"),
        }
    }
}
impl std::error::Error for WitnessError {}

/// One signature's witness as integers (coordinates and scalars `< 2^256`). Built from
/// halo2curves values by [`SignatureWitness::new`]; [`SignatureWitness::from_raw`] and
/// [`SignatureWitness::edited`] let negative tests force what those types cannot hold (s ≥ n,
/// an off-curve point, h ≥ n).
///
/// The fields are private so that every witness keeps what its constructors check: each value
/// fits in 256 bits (three limbs), and the signing hash is `≡ h (mod n)`. Neither makes a
/// witness valid: the circuit checks the signature, whatever the values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignatureWitness {
    /// Affine coordinates of the nonce point R (private).
    r_point: (BigUint, BigUint),
    /// The signature scalar s (private).
    s: BigUint,
    /// The message hash as a scalar mod n (public).
    h: BigUint,
    /// Affine coordinates of the public key Q (public).
    q: (BigUint, BigUint),
    /// The 32-byte signing hash as a big-endian integer `< 2^256`, `≡ h (mod n)`: what the
    /// digest statement hashes ([`super::digest`]). Equal to `h` unless the hash is `≥ n`
    /// (set it with [`SignatureWitness::with_hash`]).
    hash: BigUint,
}

/// A witness's raw integers, for negative tests that change them ([`SignatureWitness::edited`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawWitness {
    /// Affine coordinates of R.
    pub r_point: (BigUint, BigUint),
    /// s.
    pub s: BigUint,
    /// h.
    pub h: BigUint,
    /// Affine coordinates of Q.
    pub q: (BigUint, BigUint),
}

impl SignatureWitness {
    /// The ECDSA* witness `(R, s)` of hash `h` under key `Q`. Fails on the identity for R or Q
    /// and on `s = 0`; it does **not** check the signature (the circuit does).
    pub fn new(
        r_point: Secp256k1Affine,
        s: Fq,
        h: Fq,
        q: Secp256k1Affine,
    ) -> Result<Self, WitnessError> {
        if bool::from(r_point.is_identity()) {
            return Err(WitnessError::Identity("R"));
        }
        if bool::from(q.is_identity()) {
            return Err(WitnessError::Identity("Q"));
        }
        if bool::from(s.is_zero()) {
            return Err(WitnessError::ZeroS);
        }
        Ok(Self {
            r_point: (fe_to_big(&r_point.x), fe_to_big(&r_point.y)),
            s: fe_to_big(&s),
            h: fe_to_big(&h),
            q: (fe_to_big(&q.x), fe_to_big(&q.y)),
            hash: fe_to_big(&h),
        })
    }

    /// The same witness with the 32-byte signing hash `hash` (big-endian), which must reduce
    /// to `h` mod n: the digest statement hashes these bytes, the signature signs `h`.
    pub fn with_hash(mut self, hash: &[u8; 32]) -> Result<Self, WitnessError> {
        let v = BigUint::from_bytes_be(hash);
        if &v % crate::bigint::modulus::<Fq>() != &self.h % crate::bigint::modulus::<Fq>() {
            return Err(WitnessError::HashMismatch);
        }
        self.hash = v;
        Ok(self)
    }

    /// A placeholder for laying a circuit out without a batch (keygen, verification, the
    /// planner): `R = Q = G`, `s = h = 1` — on the curve, in range, **not** a valid signature
    /// (nothing is proven with it). The layout depends only on B, k and the window, never on
    /// the witness values, so any witnesses of the right count give the same circuit and keys.
    pub fn placeholder() -> Self {
        let g = Secp256k1Affine::generator();
        Self::new(g, Fq::ONE, Fq::ONE, g).expect("G is not the identity and 1 is not zero")
    }

    /// `n` copies of [`Self::placeholder`].
    pub fn placeholders(n: usize) -> Vec<Self> {
        vec![Self::placeholder(); n]
    }

    /// Any integers below 2^256, unchecked otherwise: **for negative tests**, to force values
    /// past the native types (s = 0, s ≥ n, h ≥ n, coordinates ≥ p, points off the curve).
    pub fn from_raw(
        r_point: (BigUint, BigUint),
        s: BigUint,
        h: BigUint,
        q: (BigUint, BigUint),
    ) -> Result<Self, WitnessError> {
        for (v, name) in [
            (&r_point.0, "x(R)"),
            (&r_point.1, "y(R)"),
            (&s, "s"),
            (&h, "h"),
            (&q.0, "x(Q)"),
            (&q.1, "y(Q)"),
        ] {
            if v.bits() > 256 {
                return Err(WitnessError::TooLarge(name));
            }
        }
        Ok(Self {
            r_point,
            s,
            hash: h.clone(),
            h,
            q,
        })
    }

    /// The same witness with its raw values changed by `edit`, checked as [`Self::from_raw`]
    /// checks them (each below 2^256): **for negative tests**. The signing hash is kept when h
    /// is unchanged and follows h otherwise.
    pub fn edited(&self, edit: impl FnOnce(&mut RawWitness)) -> Result<Self, WitnessError> {
        let mut raw = self.raw();
        edit(&mut raw);
        let same_h = raw.h == self.h;
        let mut w = Self::from_raw(raw.r_point, raw.s, raw.h, raw.q)?;
        if same_h {
            w.hash = self.hash.clone();
        }
        Ok(w)
    }

    /// The raw integers `(R, s, h, Q)`.
    pub fn raw(&self) -> RawWitness {
        RawWitness {
            r_point: self.r_point.clone(),
            s: self.s.clone(),
            h: self.h.clone(),
            q: self.q.clone(),
        }
    }

    /// Affine coordinates of the nonce point R.
    pub fn r_point(&self) -> &(BigUint, BigUint) {
        &self.r_point
    }

    /// The signature scalar s.
    pub fn s(&self) -> &BigUint {
        &self.s
    }

    /// The message hash as a scalar mod n.
    pub fn h(&self) -> &BigUint {
        &self.h
    }

    /// Affine coordinates of the public key Q.
    pub fn q(&self) -> &(BigUint, BigUint) {
        &self.q
    }

    /// The 32-byte signing hash as a big-endian integer (`≡ h mod n`).
    pub fn hash(&self) -> &BigUint {
        &self.hash
    }

    /// The 9 public instance values of this signature (see [`super::instance`]).
    pub fn instance(&self) -> [crate::layout::Native; super::INSTANCE_CELLS_PER_SIGNATURE] {
        super::instance::signature_instance_raw(&self.h, &self.q.0, &self.q.1)
    }
}
