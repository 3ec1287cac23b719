//! Points and the point operations: load, constant, add_strict, double, neg, select,
//! assert_equal.

use ff::Field;
use halo2curves::secp256k1::{Fp, Fq, Secp256k1Affine};
use num_bigint::BigUint;

use crate::bigint::modulus;
use crate::field::{FieldChip, FieldValue, Proper, Reduced};
use crate::layout::{Builder, Native};
use crate::range::AssignedBit;

/// An affine secp256k1 point proven on the curve (`y² = x³ + 7`) with canonical coordinates.
/// The identity is never represented (secp256k1 has no point with `y = 0`: n is odd).
#[derive(Clone, Debug)]
pub struct AssignedPoint {
    pub x: Reduced<Fp>,
    pub y: Reduced<Fp>,
}

impl AssignedPoint {
    /// The honest witness value of the point (not a constraint).
    pub fn value(&self) -> Secp256k1Affine {
        Secp256k1Affine {
            x: self.x.fe(),
            y: self.y.fe(),
        }
    }
}

/// An on-curve point whose y is only range-checked (proper, maybe `≥ p`): the accumulator
/// of the multiplications. x stays canonical (the next addition's `x₁ ≠ x₂` proof needs it);
/// y only enters multiplications and differences, where any representative mod p works, so
/// its `< p` proof (25 cells) is paid once, in [`AccPoint::finish`].
#[derive(Clone, Debug)]
pub struct AccPoint {
    pub x: Reduced<Fp>,
    pub y: Proper<Fp>,
}

impl From<AssignedPoint> for AccPoint {
    fn from(p: AssignedPoint) -> Self {
        AccPoint {
            x: p.x,
            y: p.y.into(),
        }
    }
}

impl AccPoint {
    /// The honest witness value (not a constraint).
    pub fn value(&self) -> Secp256k1Affine {
        Secp256k1Affine {
            x: self.x.fe(),
            y: self.y.fe(),
        }
    }

    /// Proves y canonical (`assert_canonical`), giving an [`AssignedPoint`].
    pub fn finish(self, chip: &EccChip, b: &mut Builder) -> AssignedPoint {
        let y = chip.fp.assert_canonical(b, &self.y);
        AssignedPoint { x: self.x, y }
    }
}

/// The curve chip: an `Fp` chip for coordinates and an `Fq` chip for scalars.
#[derive(Clone, Debug)]
pub struct EccChip {
    pub fp: FieldChip<Fp>,
    pub fq: FieldChip<Fq>,
    /// Window of [`EccChip::fixed_base_mul`]: the largest configured selection size (see
    /// `layout::ecc_select_sizes`).
    pub fixed_window: u32,
    /// How the MSM selects from its witness-point tables: the dynamic point-table lookup
    /// (`true`, the default: 8 cells per selection plus `6·2^w` per table) or the one-hot
    /// indicator block (`false`: `7·2^w + 7` per selection). Both are sound; see `gates.rs`.
    pub lookup_select: bool,
}

/// `y³`-free helpers on native coordinates: the honest witnesses (never panic; a degenerate
/// input gives a garbage witness that the constraints reject).
fn slope_add(x1: Fp, y1: Fp, x2: Fp, y2: Fp) -> Fp {
    (y2 - y1) * (x2 - x1).invert().unwrap_or(Fp::ZERO)
}

fn slope_double(x: Fp, y: Fp) -> Fp {
    (x.square() * Fp::from(3)) * (y.double()).invert().unwrap_or(Fp::ZERO)
}

impl EccChip {
    pub fn new(fp: FieldChip<Fp>, fq: FieldChip<Fq>) -> Self {
        let fixed_window = crate::layout::ecc_select_sizes(&fp.range.params)
            .into_iter()
            .max()
            .unwrap_or(0);
        Self {
            fp,
            fq,
            fixed_window,
            lookup_select: true,
        }
    }

    /// Loads a witness point; proves canonical coordinates and `y² = x³ + 7` (so never the
    /// identity). The identity (or any off-curve value) is loaded as its coordinates and makes
    /// the circuit unsatisfiable; nothing panics.
    pub fn load_point(&self, b: &mut Builder, p: Secp256k1Affine) -> AssignedPoint {
        let x = self.fp.load_reduced(b, p.x);
        let y = self.fp.load_reduced(b, p.y);
        self.assert_on_curve(b, &x, &y);
        AssignedPoint { x, y }
    }

    /// Loads raw coordinates (for negative tests and untrusted input): proves both `< p` and
    /// the curve equation. A coordinate `≥ 2^256` is loaded as `p` (which fails the `< p`
    /// check), so the circuit is unsatisfiable rather than the builder panicking.
    pub fn load_point_xy(&self, b: &mut Builder, x: &BigUint, y: &BigUint) -> AssignedPoint {
        let p = modulus::<Fp>();
        let mut load = |v: &BigUint| -> Reduced<Fp> {
            let raw: Proper<Fp> = match self.fp.load_uint(b, v) {
                Ok(r) => r,
                Err(_) => self.fp.load_uint(b, &p).expect("p is below 2^256"),
            };
            self.fp.assert_canonical(b, &raw)
        };
        let x = load(x);
        let y = load(y);
        self.assert_on_curve(b, &x, &y);
        AssignedPoint { x, y }
    }

    /// `y² ≡ x³ + 7 (mod p)`: `x2 = x·x` and `y2 = y·y` (mul blocks, remainders range-checked),
    /// then `assert_mul_eq(x, x2, y2 − 7)`, which proves `x·x² ≡ y² − 7` (see
    /// `FieldChip::assert_mul_eq`). With canonical x, y this is the curve equation in `Fp`.
    pub fn assert_on_curve(&self, b: &mut Builder, x: &Reduced<Fp>, y: &Reduced<Fp>) {
        let x2 = self.fp.mul(b, x, x);
        let y2 = self.fp.mul(b, y, y);
        let seven = self.fp.load_constant(b, Fp::from(7));
        let rhs = self.fp.sub(b, &y2, &seven);
        self.fp.assert_mul_eq(b, x, &x2, &rhs);
    }

    /// A constant point: its coordinates are fixed cells (canonical by construction) and it is
    /// checked on the curve natively here. Panics on the identity or an off-curve value: a
    /// constant is part of the circuit's definition, never user data.
    pub fn constant_point(&self, b: &mut Builder, p: Secp256k1Affine) -> AssignedPoint {
        assert!(
            p.y.square() == p.x.square() * p.x + Fp::from(7),
            "constant point must be on the curve (and not the identity)"
        );
        AssignedPoint {
            x: self.fp.load_constant(b, p.x),
            y: self.fp.load_constant(b, p.y),
        }
    }

    /// Proves `x₁ ≠ x₂` for canonical x's: the is-equal block computes
    /// `s = Σ (x₁ᵢ − x₂ᵢ)²` over the native field (`s < 3·2^176`, no wrap, so `s = 0` iff the
    /// limbs, hence the integers, are equal) and a bit `z` with `s·inv = 1 − z`, `s·z = 0`;
    /// `z` is tied to the constant 0, leaving `s·inv = 1`, which has no solution when `s = 0`.
    /// Canonical coordinates make integer inequality the same as inequality in `Fp`.
    pub fn assert_x_distinct(&self, b: &mut Builder, x1: &Reduced<Fp>, x2: &Reduced<Fp>) {
        let z = self.fp.is_equal(b, x1, x2);
        let zero = b.constant(Native::ZERO);
        b.constrain_equal(z.cell(), &zero);
    }

    /// `P + Q`; proves `x_P ≠ x_Q` (so the slope is unique and neither `P = Q` nor `P = −Q`).
    ///
    /// With `x_P ≠ x_Q` proven ([`Self::assert_x_distinct`]) and both canonical,
    /// `x_Q − x_P ≢ 0 (mod p)`, so `assert_mul_eq(λ, x_Q − x_P, y_Q − y_P)` fixes `λ mod p`
    /// (λ is only range-checked as proper: any representative works). The outputs are witnessed
    /// with range-checked limbs, `x₃` proven `< p`, and bound by `λ·λ ≡ x₃ + x_P + x_Q` and
    /// `λ·(x_P − x₃) ≡ y₃ + y_P`; then `y₃` is proven `< p` too. A canonical value is unique
    /// mod p, so `(x₃, y₃)` is exactly the chord sum, which lies on the curve.
    pub fn add_strict(
        &self,
        b: &mut Builder,
        p: &AssignedPoint,
        q: &AssignedPoint,
    ) -> AssignedPoint {
        self.add_acc(b, &p.x, &p.y, &q.x, &q.y).finish(self, b)
    }

    /// The addition of [`Self::add_strict`] on accumulator points (y proper, not canonical).
    pub fn add_acc(
        &self,
        b: &mut Builder,
        x1: &Reduced<Fp>,
        y1: &impl FieldValue<Fp>,
        x2: &Reduced<Fp>,
        y2: &impl FieldValue<Fp>,
    ) -> AccPoint {
        let lam = slope_add(x1.fe(), y1.fe(), x2.fe(), y2.fe());
        self.add_core(b, x1, y1, x2, y2, lam, None)
    }

    /// [`Self::add_strict`] with a caller-chosen slope and optionally result: lets soundness
    /// tests try forged witnesses. Not for circuit code.
    #[doc(hidden)]
    pub fn add_with_witness(
        &self,
        b: &mut Builder,
        p: &AssignedPoint,
        q: &AssignedPoint,
        lam: Fp,
        result: Option<(Fp, Fp)>,
    ) -> AssignedPoint {
        self.add_core(b, &p.x, &p.y, &q.x, &q.y, lam, result)
            .finish(self, b)
    }

    #[allow(clippy::too_many_arguments)]
    fn add_core(
        &self,
        b: &mut Builder,
        x1: &Reduced<Fp>,
        y1: &impl FieldValue<Fp>,
        x2: &Reduced<Fp>,
        y2: &impl FieldValue<Fp>,
        lam: Fp,
        result: Option<(Fp, Fp)>,
    ) -> AccPoint {
        let (x1v, y1v, x2v) = (x1.fe(), y1.fe(), x2.fe());
        self.assert_x_distinct(b, x1, x2);
        let fp = &self.fp;
        let l = fp.load_proper(b, lam);
        let dx = fp.sub(b, x2, x1);
        let dy = fp.sub(b, y2, y1);
        fp.assert_mul_eq(b, &l, &dx, &dy);
        let x3v = lam.square() - x1v - x2v;
        let y3v = lam * (x1v - x3v) - y1v;
        let (x3v, y3v) = result.unwrap_or((x3v, y3v));
        self.chord_outputs(b, &l, x1, y1, x2, x3v, y3v)
    }

    /// Witnesses `x₃` (canonical) and `y₃` (proper) and proves `λ² ≡ x₃ + x₁ + x₂`,
    /// `λ·(x₁ − x₃) ≡ y₃ + y₁`.
    #[allow(clippy::too_many_arguments)]
    fn chord_outputs(
        &self,
        b: &mut Builder,
        l: &Proper<Fp>,
        x1: &Reduced<Fp>,
        y1: &impl FieldValue<Fp>,
        x2: &Reduced<Fp>,
        x3v: Fp,
        y3v: Fp,
    ) -> AccPoint {
        let fp = &self.fp;
        let x3 = fp.load_reduced(b, x3v);
        let s = fp.add(b, &x3, x1);
        let s = fp.add(b, &s, x2);
        fp.assert_mul_eq(b, l, l, &s);
        let y3 = fp.load_proper(b, y3v);
        let t = fp.sub(b, x1, &x3);
        let u = fp.add(b, &y3, y1);
        fp.assert_mul_eq(b, l, &t, &u);
        AccPoint { x: x3, y: y3 }
    }

    /// `2P`. The tangent slope is bound by `λ·2y ≡ 3x²`; `2y ≢ 0` because no on-curve point has
    /// `y = 0` (n odd), so `λ` is unique mod p. Outputs as in [`Self::add_strict`] with
    /// `x₂ = x₁`: `λ² ≡ x₃ + 2x`, `λ·(x − x₃) ≡ y₃ + y`.
    pub fn double(&self, b: &mut Builder, p: &AssignedPoint) -> AssignedPoint {
        self.double_acc(b, &p.x, &p.y).finish(self, b)
    }

    /// [`Self::double`] on an accumulator point.
    pub fn double_acc(
        &self,
        b: &mut Builder,
        x: &Reduced<Fp>,
        y: &impl FieldValue<Fp>,
    ) -> AccPoint {
        let (xv, yv) = (x.fe(), y.fe());
        let lam = slope_double(xv, yv);
        let fp = &self.fp;
        let l = fp.load_proper(b, lam);
        let xx = fp.mul(b, x, x);
        let xx3 = fp.scale(b, &xx, 3);
        let y2 = fp.add(b, y, y);
        fp.assert_mul_eq(b, &l, &y2, &xx3);
        let x3v = lam.square() - xv.double();
        let y3v = lam * (xv - x3v) - yv;
        self.chord_outputs(b, &l, x, y, x, x3v, y3v)
    }

    /// `2A + T` as `(A + T) + A` without witnessing the middle y (Eisenträger–Lauter–Montgomery):
    /// `λ₁` is bound as in [`Self::add_strict`] (with `x_A ≠ x_T` proven) and `x₃` of
    /// `S = A + T` as there; `y_S = λ₁(x_A − x₃) − y_A` stays implicit. With `x₃ ≠ x_A` proven,
    /// the slope of `S + A` is `λ₂ = (y_A − y_S)/(x_A − x₃) = 2y_A/(x_A − x₃) − λ₁`, bound by
    /// `(λ₁ + λ₂)·(x_A − x₃) ≡ 2y_A` (unique since `x_A − x₃ ≢ 0`), and the outputs by
    /// `λ₂² ≡ x₄ + x₃ + x_A`, `λ₂·(x_A − x₄) ≡ y₄ + y_A`: exactly `S + A = 2A + T`. Saves the
    /// y of `S` and the doubling's `x²` against `double` then `add`.
    pub fn double_and_add_acc(
        &self,
        b: &mut Builder,
        a: &AccPoint,
        tx: &Reduced<Fp>,
        ty: &impl FieldValue<Fp>,
    ) -> AccPoint {
        let fp = &self.fp;
        let (xa, ya, xt, yt) = (a.x.fe(), a.y.fe(), tx.fe(), ty.fe());
        let l1v = slope_add(xa, ya, xt, yt);
        self.assert_x_distinct(b, &a.x, tx);
        let l1 = fp.load_proper(b, l1v);
        let dx = fp.sub(b, tx, &a.x);
        let dy = fp.sub(b, ty, &a.y);
        fp.assert_mul_eq(b, &l1, &dx, &dy);
        let x3v = l1v.square() - xa - xt;
        let x3 = fp.load_reduced(b, x3v);
        let s = fp.add(b, &x3, &a.x);
        let s = fp.add(b, &s, tx);
        fp.assert_mul_eq(b, &l1, &l1, &s);
        self.assert_x_distinct(b, &x3, &a.x);
        let l2v = ya.double() * (xa - x3v).invert().unwrap_or(Fp::ZERO) - l1v;
        let l2 = fp.load_proper(b, l2v);
        let ls = fp.add(b, &l1, &l2);
        let d = fp.sub(b, &a.x, &x3);
        let y2 = fp.add(b, &a.y, &a.y);
        fp.assert_mul_eq(b, &ls, &d, &y2);
        let x4v = l2v.square() - x3v - xa;
        let y4v = l2v * (xa - x4v) - ya;
        self.chord_outputs(b, &l2, &a.x, &a.y, &x3, x4v, y4v)
    }

    /// `−P = (x, p − y)`: the canonical reduction of the lazy `−y` (`reduce` proves the result
    /// `< p` and `≡ −y`, unique).
    pub fn neg(&self, b: &mut Builder, p: &AssignedPoint) -> AssignedPoint {
        let ny = self.fp.neg(b, &p.y);
        let y = self.fp.reduce(b, &ny);
        AssignedPoint { x: p.x.clone(), y }
    }

    /// `bit ? P : Q`, limb by limb; both inputs satisfy the invariant, so the output does.
    pub fn select(
        &self,
        b: &mut Builder,
        bit: &AssignedBit,
        p: &AssignedPoint,
        q: &AssignedPoint,
    ) -> AssignedPoint {
        AssignedPoint {
            x: self.fp.select(b, bit, &p.x, &q.x),
            y: self.fp.select(b, bit, &p.y, &q.y),
        }
    }

    /// `P = Q`: copy constraints on the canonical limbs (unique representation).
    pub fn assert_equal(&self, b: &mut Builder, p: &AssignedPoint, q: &AssignedPoint) {
        self.fp.assert_equal(b, &p.x, &q.x);
        self.fp.assert_equal(b, &p.y, &q.y);
    }
}
