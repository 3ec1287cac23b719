//! Internal Jacobian point arithmetic for secp256k1 (`y^2 = x^3 + 7`), variable time.
//!
//! A Jacobian triple `(X, Y, Z)` with `Z != 0` stands for the affine point `(X/Z^2, Y/Z^3)`;
//! `Z == 0` is the identity. The formulas are the fastest known for `a = 0`
//! (explicit-formulas database: `dbl-2009-l`, `madd-2007-bl`, `add-2007-bl`); they are not
//! complete, so every exceptional case (identity operand, `P == Q`, `P == -Q`) is detected and
//! handled explicitly. Everything here handles public data only (batch verification), so the
//! branches on point values are harmless.

use ff::Field;
use halo2curves::secp256k1::{Fp, Secp256k1, Secp256k1Affine};

/// An affine point that may be the identity (`infinity == true`, coordinates meaningless).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Affine {
    pub(crate) x: Fp,
    pub(crate) y: Fp,
    pub(crate) infinity: bool,
}

impl Affine {
    pub(crate) const IDENTITY: Affine = Affine {
        x: Fp::ZERO,
        y: Fp::ZERO,
        infinity: true,
    };

    /// halo2curves encodes the affine identity as `(0, 0)` (not on the curve).
    pub(crate) fn from_halo2(p: &Secp256k1Affine) -> Affine {
        let infinity = p.x.is_zero_vartime() && p.y.is_zero_vartime();
        Affine {
            x: p.x,
            y: p.y,
            infinity,
        }
    }

    pub(crate) fn neg(&self) -> Affine {
        Affine {
            x: self.x,
            y: -self.y,
            infinity: self.infinity,
        }
    }
}

/// A point in Jacobian coordinates; `z == 0` is the identity.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Jacobian {
    pub(crate) x: Fp,
    pub(crate) y: Fp,
    pub(crate) z: Fp,
}

impl Jacobian {
    pub(crate) const IDENTITY: Jacobian = Jacobian {
        x: Fp::ONE,
        y: Fp::ONE,
        z: Fp::ZERO,
    };

    #[inline]
    pub(crate) fn is_identity(&self) -> bool {
        self.z.is_zero_vartime()
    }

    pub(crate) fn from_affine(p: &Affine) -> Jacobian {
        if p.infinity {
            Jacobian::IDENTITY
        } else {
            Jacobian {
                x: p.x,
                y: p.y,
                z: Fp::ONE,
            }
        }
    }

    /// Converts to halo2curves' homogeneous projective form: `(X·Z, Y, Z^3)` has
    /// `x = X·Z / Z^3 = X/Z^2` and `y = Y/Z^3`, the same affine point.
    pub(crate) fn to_halo2(self) -> Secp256k1 {
        if self.is_identity() {
            return Secp256k1 {
                x: Fp::ZERO,
                y: Fp::ONE,
                z: Fp::ZERO,
            };
        }
        Secp256k1 {
            x: self.x * self.z,
            y: self.y,
            z: self.z.square() * self.z,
        }
    }

    /// `2·self` (dbl-2009-l, 2M + 5S). The curve has odd order, so no finite point has `y == 0`.
    #[inline]
    pub(crate) fn double(&self) -> Jacobian {
        if self.is_identity() {
            return *self;
        }
        let a = self.x.square();
        let b = self.y.square();
        let c = b.square();
        let d = ((self.x + b).square() - a - c).double();
        let e = a.double() + a;
        let f = e.square();
        let x3 = f - d.double();
        let c8 = c.double().double().double();
        let y3 = e * (d - x3) - c8;
        let z3 = (self.y * self.z).double();
        Jacobian {
            x: x3,
            y: y3,
            z: z3,
        }
    }

    /// `self + q` for an affine `q` (madd-2007-bl, 7M + 4S), with the exceptional cases.
    #[inline]
    pub(crate) fn add_affine(&self, q: &Affine) -> Jacobian {
        if q.infinity {
            return *self;
        }
        if self.is_identity() {
            return Jacobian::from_affine(q);
        }
        let z1z1 = self.z.square();
        let u2 = q.x * z1z1;
        let s2 = q.y * self.z * z1z1;
        let h = u2 - self.x;
        let r = (s2 - self.y).double();
        if h.is_zero_vartime() {
            return if r.is_zero_vartime() {
                Jacobian::from_affine(q).double()
            } else {
                Jacobian::IDENTITY
            };
        }
        let hh = h.square();
        let i = hh.double().double();
        let j = h * i;
        let v = self.x * i;
        let x3 = r.square() - j - v.double();
        let y3 = r * (v - x3) - (self.y * j).double();
        let z3 = (self.z + h).square() - z1z1 - hh;
        Jacobian {
            x: x3,
            y: y3,
            z: z3,
        }
    }

    /// `self - q` for an affine `q`.
    #[inline]
    pub(crate) fn sub_affine(&self, q: &Affine) -> Jacobian {
        self.add_affine(&q.neg())
    }

    /// `self + q` (add-2007-bl, 11M + 5S), with the exceptional cases.
    pub(crate) fn add(&self, q: &Jacobian) -> Jacobian {
        if q.is_identity() {
            return *self;
        }
        if self.is_identity() {
            return *q;
        }
        let z1z1 = self.z.square();
        let z2z2 = q.z.square();
        let u1 = self.x * z2z2;
        let u2 = q.x * z1z1;
        let s1 = self.y * q.z * z2z2;
        let s2 = q.y * self.z * z1z1;
        let h = u2 - u1;
        let r = (s2 - s1).double();
        if h.is_zero_vartime() {
            return if r.is_zero_vartime() {
                self.double()
            } else {
                Jacobian::IDENTITY
            };
        }
        let i = h.double().square();
        let j = h * i;
        let v = u1 * i;
        let x3 = r.square() - j - v.double();
        let y3 = r * (v - x3) - (s1 * j).double();
        let z3 = ((self.z + q.z).square() - z1z1 - z2z2) * h;
        Jacobian {
            x: x3,
            y: y3,
            z: z3,
        }
    }
}

/// Montgomery's trick: replaces every non-zero element by its inverse with one field
/// inversion and `3(n-1)` multiplications; zeros stay zero.
pub(crate) fn batch_invert_fp(values: &mut [Fp]) {
    let mut prefix = Vec::with_capacity(values.len());
    let mut acc = Fp::ONE;
    for v in values.iter() {
        prefix.push(acc);
        if !v.is_zero_vartime() {
            acc *= v;
        }
    }
    // acc is a product of non-zero field elements, hence invertible.
    let mut inv = acc.invert().unwrap_or(Fp::ZERO);
    for (v, before) in values.iter_mut().zip(prefix).rev() {
        if v.is_zero_vartime() {
            continue;
        }
        let next = inv * *v;
        *v = inv * before;
        inv = next;
    }
}

/// Converts Jacobian points to affine with a single inversion (Montgomery's trick).
pub(crate) fn batch_normalize(points: &[Jacobian]) -> Vec<Affine> {
    let mut zinv: Vec<Fp> = points.iter().map(|p| p.z).collect();
    batch_invert_fp(&mut zinv);
    points
        .iter()
        .zip(zinv.iter())
        .map(|(p, zi)| {
            if p.is_identity() {
                Affine::IDENTITY
            } else {
                let zi2 = zi.square();
                Affine {
                    x: p.x * zi2,
                    y: p.y * zi2 * zi,
                    infinity: false,
                }
            }
        })
        .collect()
}
