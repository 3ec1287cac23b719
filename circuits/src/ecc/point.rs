//! Points and the point operations: load, constant, addition (one or a chained run), doubling,
//! negation, selection, assert_equal.
//!
//! Every formula is a handful of relation blocks (`field::relation`): the affine chord and
//! tangent formulas with the slope `λ` the new value of a *factor* block (`λ·(x₂ − x₁) ≡ y₂ − y₁`,
//! with `x₂ ≢ x₁` proven by the distinctness constraint of the same block
//! (`RelationFactor(0)`)) and `x₃`, `y₃` the new values of *remainder* blocks. The differences and sums of coordinates are folded into the gates.

use halo2curves::secp256k1::{Fp, Secp256k1Affine};
use num_bigint::BigUint;

use crate::bigint::modulus;
use crate::field::{FieldChip, FieldValue, Overflowing, Proper, Reduced, Relation};
use crate::layout::Builder;
use crate::range::AssignedBit;

/// An affine secp256k1 point proven on the curve (`y² = x³ + 7`) with canonical coordinates.
/// The identity is never represented (secp256k1 has no point with `y = 0`: n is odd). Its
/// fields are the chip's to set (only [`EccChip`] proves a point on the curve); read them
/// with [`Self::x`], [`Self::y`].
#[derive(Clone, Debug)]
pub struct AssignedPoint {
    pub(crate) x: Reduced<Fp>,
    pub(crate) y: Reduced<Fp>,
}

impl AssignedPoint {
    /// The canonical x coordinate.
    pub fn x(&self) -> &Reduced<Fp> {
        &self.x
    }

    /// The canonical y coordinate.
    pub fn y(&self) -> &Reduced<Fp> {
        &self.y
    }

    /// The honest witness value of the point (not a constraint).
    pub fn value(&self) -> Secp256k1Affine {
        Secp256k1Affine {
            x: self.x.fe(),
            y: self.y.fe(),
        }
    }
}

/// An on-curve point (mod p) whose coordinates are not proven canonical: the accumulator and
/// table points of the multiplications. `x` is proper (limbs range-checked, `< 2^256`, maybe
/// `≥ p`): the distinctness constraint of the next addition needs `x < 2^256`. `y` is any bounded value
/// (proper, or a lazy `D − y` for a negated table entry): it only enters relations, where any
/// representative mod p works. Canonical coordinates are proven once, in [`AccPoint::finish`].
/// Its fields are the chip's to set; read them with [`Self::x`], [`Self::y`].
#[derive(Clone, Debug)]
pub struct AccPoint {
    pub(crate) x: Proper<Fp>,
    pub(crate) y: Overflowing<Fp>,
}

impl From<AssignedPoint> for AccPoint {
    fn from(p: AssignedPoint) -> Self {
        AccPoint {
            x: p.x.into(),
            y: p.y.into(),
        }
    }
}

impl AccPoint {
    /// The x coordinate (proper, maybe `≥ p`).
    pub fn x(&self) -> &Proper<Fp> {
        &self.x
    }

    /// The y coordinate (any bounded representative).
    pub fn y(&self) -> &Overflowing<Fp> {
        &self.y
    }

    /// Any coordinates, nothing proven (feature `testing`): for negative tests that hand the
    /// chip a point its own gadgets would never make (e.g. `x + p` for a proper `x`).
    #[cfg(feature = "testing")]
    pub fn unchecked_for_tests(x: Proper<Fp>, y: Overflowing<Fp>) -> Self {
        Self { x, y }
    }

    /// The honest witness value (not a constraint).
    pub fn value(&self) -> Secp256k1Affine {
        Secp256k1Affine {
            x: self.x.fe(),
            y: self.y.fe(),
        }
    }

    /// Proves both coordinates canonical, giving an [`AssignedPoint`] (the same point).
    pub fn finish(self, chip: &EccChip, b: &mut Builder) -> AssignedPoint {
        AssignedPoint {
            x: chip.fp.canonical(b, &self.x),
            y: chip.fp.canonical(b, &self.y),
        }
    }
}

/// The curve chip: an `Fp` chip for coordinates and an `Fq` chip for scalars.
#[derive(Clone, Debug)]
pub struct EccChip {
    pub fp: FieldChip<Fp>,
    pub fq: FieldChip<halo2curves::secp256k1::Fq>,
}

/// A caller-chosen witness for one addition (soundness tests): the slope and/or the result.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, Default)]
pub struct AddWitness {
    pub lambda: Option<Fp>,
    pub x3: Option<Fp>,
    pub y3: Option<Fp>,
}

impl EccChip {
    pub fn new(fp: FieldChip<Fp>, fq: FieldChip<halo2curves::secp256k1::Fq>) -> Self {
        Self { fp, fq }
    }

    /// The curve chip over the field chips of `params`, with `Fp` as modulus 0 and `Fq` as
    /// modulus 1 (as `CircuitConfig::configure_secp256k1` registers them).
    pub(crate) fn for_params(params: &crate::layout::LayoutParams) -> Self {
        let range = crate::range::RangeChip::new(params.clone());
        Self::new(FieldChip::new(range.clone(), 0), FieldChip::new(range, 1))
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

    /// `y² ≡ x³ + 7 (mod p)` in two relation blocks: `x₂ = x·x` (new value), then
    /// `y·y − x·x₂ − 7 ≡ 0`. With canonical x, y this is the curve equation in `Fp`.
    pub fn assert_on_curve(&self, b: &mut Builder, x: &Reduced<Fp>, y: &Reduced<Fp>) {
        let x2 = self.fp.mul(b, x, x);
        self.fp.relation(
            b,
            &Relation::product(y, y)
                .plus_product(-1, x, &x2, None)
                .constant(-7),
        );
    }

    /// A constant point: its coordinates are cached constant cells (canonical by construction)
    /// and it is checked on the curve natively here. Panics on the identity or an off-curve
    /// value: a constant is part of the circuit's definition, never user data.
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

    /// `P + Q` for canonical points, proving `x_P ≢ x_Q` (so neither `P = Q` nor `P = −Q`);
    /// the result is proven canonical. See [`Self::add_acc`].
    pub fn add_strict(
        &self,
        b: &mut Builder,
        p: &AssignedPoint,
        q: &AssignedPoint,
    ) -> AssignedPoint {
        self.add_acc(b, &p.clone().into(), &q.clone().into())
            .finish(self, b)
    }

    /// `P₁ + P₂` in three relation blocks:
    ///
    /// * `λ·(x₂ − x₁) − y₂ + y₁ ≡ 0`, `λ` the new value (factor), with `x₂ ≢ x₁ (mod p)` proven
    ///   by the distinctness constraint of that block, so `λ` is unique mod p;
    /// * `x₃ ≡ λ² − x₁ − x₂` and `y₃ ≡ λ·(x₁ − x₃) − y₁` (new values, remainders).
    ///
    /// On-curve inputs with distinct x give exactly the chord sum mod p (on the curve); `x₃`,
    /// `y₃` are proper (< 2^256), maybe `≥ p`: any representative is the same point.
    pub fn add_acc(&self, b: &mut Builder, p1: &AccPoint, p2: &AccPoint) -> AccPoint {
        self.add_acc_with_witness(b, p1, p2, AddWitness::default())
    }

    /// [`Self::add_acc`] with caller-chosen witnesses (soundness tests). Not for circuit code.
    #[doc(hidden)]
    pub fn add_acc_with_witness(
        &self,
        b: &mut Builder,
        p1: &AccPoint,
        p2: &AccPoint,
        w: AddWitness,
    ) -> AccPoint {
        let fp = &self.fp;
        let force = |v: Option<Fp>| v.map(|x| crate::bigint::fe_to_big(&x));
        let lam = fp
            .relation_with_witness(
                b,
                &Relation::factor_times(&p2.x, Some(p1.x.crt()))
                    .plus_term(-1, &p2.y)
                    .plus_term(1, &p1.y)
                    .distinct(),
                force(w.lambda),
                None,
            )
            .expect("a factor relation has a new value");
        let x3 = fp
            .relation_with_witness(
                b,
                &Relation::product(&lam, &lam)
                    .plus_term(-1, &p1.x)
                    .plus_term(-1, &p2.x)
                    .remainder(),
                force(w.x3),
                None,
            )
            .expect("remainder");
        let y3 = fp
            .relation_with_witness(
                b,
                &Relation::product(&lam, &p1.x)
                    .minus(&x3)
                    .plus_term(-1, &p1.y)
                    .remainder(),
                force(w.y3),
                None,
            )
            .expect("remainder");
        AccPoint {
            x: x3,
            y: y3.into(),
        }
    }

    /// `P₀ + T₁ + T₂ + … + T_m` by chained additions: terms are taken in pairs, and the y of
    /// the sum after the first term of a pair is never witnessed (Eisenträger–Lauter–Montgomery
    /// style). For a pair, with `P₁ = P₀ + T₁` and `y₁ := λ₁·(x₀ − x₁) − y₀` implicit:
    ///
    /// * `λ₁·(x_T₁ − x₀) − y_T₁ + y₀ ≡ 0` (factor, `x_T₁ ≢ x₀` proven), `x₁ ≡ λ₁² − x₀ − x_T₁`;
    /// * `λ₂·(x_T₂ − x₁) + λ₁·(x₀ − x₁) − y_T₂ − y₀ ≡ 0`, i.e. `λ₂·(x_T₂ − x₁) ≡ y_T₂ − y₁`
    ///   (factor, `x_T₂ ≢ x₁` proven), `x₂ ≡ λ₂² − x₁ − x_T₂`;
    /// * `y₂ ≡ λ₂·(x₁ − x₂) − λ₁·(x₀ − x₁) + y₀ = λ₂·(x₁ − x₂) − y₁`.
    ///
    /// Each slope is unique mod p given its distinctness proof, so `(x₂, y₂)` is exactly
    /// `P₀ + T₁ + T₂`: five blocks per pair instead of six. An odd last term is one
    /// [`Self::add_acc`]. A term may be `P₀` itself (e.g. `[T, P₀]` gives `2P₀ + T`).
    pub fn add_run(&self, b: &mut Builder, start: AccPoint, terms: &[AccPoint]) -> AccPoint {
        let fp = &self.fp;
        let mut acc = start;
        let mut it = terms.chunks(2);
        for pair in it.by_ref() {
            let [t1, t2] = match pair {
                [t1, t2] => [t1, t2],
                [t] => {
                    acc = self.add_acc(b, &acc, t);
                    continue;
                }
                _ => unreachable!("chunks(2)"),
            };
            let (x0, y0) = (&acc.x, &acc.y);
            let l1 = fp.new_value(
                b,
                &Relation::factor_times(&t1.x, Some(x0.crt()))
                    .plus_term(-1, &t1.y)
                    .plus_term(1, y0)
                    .distinct(),
            );
            let x1 = fp.new_value(
                b,
                &Relation::product(&l1, &l1)
                    .plus_term(-1, x0)
                    .plus_term(-1, &t1.x)
                    .remainder(),
            );
            let l2 = fp.new_value(
                b,
                &Relation::factor_times(&t2.x, Some(x1.crt()))
                    .plus_product(1, &l1, x0, Some(x1.crt()))
                    .plus_term(-1, &t2.y)
                    .plus_term(-1, y0)
                    .distinct(),
            );
            let x2 = fp.new_value(
                b,
                &Relation::product(&l2, &l2)
                    .plus_term(-1, &x1)
                    .plus_term(-1, &t2.x)
                    .remainder(),
            );
            let y2 = fp.new_value(
                b,
                &Relation::product(&l2, &x1)
                    .minus(&x2)
                    .plus_product(-1, &l1, x0, Some(x1.crt()))
                    .plus_term(1, y0)
                    .remainder(),
            );
            acc = AccPoint {
                x: x2,
                y: y2.into(),
            };
        }
        acc
    }

    /// `2P` in three relation blocks: `λ·(2y) − 3·x·x ≡ 0` (factor; `2y ≢ 0` because no
    /// on-curve point has `y = 0`, n being odd, so `λ` is unique mod p), `x₃ ≡ λ² − 2x`,
    /// `y₃ ≡ λ·(x − x₃) − y`; `2y` is one lazy sum.
    pub fn double_acc(&self, b: &mut Builder, p: &AccPoint) -> AccPoint {
        let fp = &self.fp;
        let y2 = fp.add(b, &p.y, &p.y);
        let lam = fp.new_value(
            b,
            &Relation::factor_times(&y2, None).plus_product(-3, &p.x, &p.x, None),
        );
        let x3 = fp.new_value(
            b,
            &Relation::product(&lam, &lam)
                .plus_term(-2, &p.x)
                .remainder(),
        );
        let y3 = fp.new_value(
            b,
            &Relation::product(&lam, &p.x)
                .minus(&x3)
                .plus_term(-1, &p.y)
                .remainder(),
        );
        AccPoint {
            x: x3,
            y: y3.into(),
        }
    }

    /// `2P` for a canonical point, the result proven canonical.
    pub fn double(&self, b: &mut Builder, p: &AssignedPoint) -> AssignedPoint {
        self.double_acc(b, &p.clone().into()).finish(self, b)
    }

    /// `2A + T` as the chained pair `(A + T) + A` ([`Self::add_run`]): five blocks.
    pub fn double_and_add_acc(&self, b: &mut Builder, a: &AccPoint, t: &AccPoint) -> AccPoint {
        self.add_run(b, a.clone(), &[t.clone(), a.clone()])
    }

    /// `−P = (x, D − y)` lazily (`D ≡ 0 mod p`, limbs bounded): the same x, `y' ≡ −y`.
    pub(crate) fn neg_acc(&self, b: &mut Builder, p: &AccPoint) -> AccPoint {
        AccPoint {
            x: p.x.clone(),
            y: self.fp.neg(b, &p.y),
        }
    }

    /// `−P = (x, p − y)`: the canonical reduction of the lazy `−y` (unique).
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
