//! Multiplication and what is built on it: square, mul by constant, inverse, division, reduce.

use ff::PrimeField;
use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_traits::{One, Zero};

use super::chip::{proper_max, FieldChip, PROPER_BITS};
use super::params::{to_limbs, CARRY_BITS, LIMB_BITS, MAX_MUL_LIMB_BITS, NUM_LIMBS};
use super::types::{CrtInt, FieldValue, Proper, Reduced};
use crate::bigint::native;
use crate::bigint::{fe_to_big, modulus};
use crate::layout::{AssignedValue, Builder, FixedCol, GateKind, Native};

impl<P: PrimeField> FieldChip<P> {
    /// `x·y mod p` as a proper value (honestly canonical; `assert_canonical` proves it).
    ///
    /// **Witness**: `q = ⌊x·y / p⌋`, `r = x·y mod p`, carries `c_k`. **Constraints** (mul block,
    /// see `field::gates`): for `k < 3`, `e_k + c_(k−1) = 2^88·c_k` with
    /// `e_k = Σ_(i+j=k) (x_i·y_j − q_i·p_j) − r_k`, and `X·Y − Q·p − R ≡ 0 (mod r_bn)` on the
    /// native values computed from the limbs inside the gate.
    ///
    /// **Bounds** (asserted below from the tracked maxima; a violation is a circuit-construction
    /// error, never a property of the witness):
    /// * input limbs `< 2^91`: `|e_k| ≤ 3·2^182 + 3·2^176 + 2^88`, carries `|c_k| < 2^96`, range-checked
    ///   as `c_k + 2^96 ∈ [0, 2^97)`; every term of a carry equation is `< 2^185 ≪ r ≈ 2^253.6`, so
    ///   each holds over the integers, and summing them gives `Σ_(k<3) e_k·2^(88k) = c_2·2^264`:
    ///   `E = X·Y − Q·p − R ≡ 0 (mod 2^264)`.
    /// * `q` limbs range-checked to the bits of `⌊max X·max Y / p⌋`, `r` limbs to 88/88/80.
    ///   Then `|E| < max(max X·max Y, 2^qbits·p + 2^256) < 2^264·r_bn ≈ 2^517.6` (asserted),
    ///   and `E ≡ 0 mod 2^264` and `mod r_bn` (coprime) give `E = 0`: `x·y = q·p + r` exactly.
    /// * `r < 2^256`, so `r` is proper.
    pub fn mul(
        &self,
        b: &mut Builder,
        x: &impl FieldValue<P>,
        y: &impl FieldValue<P>,
    ) -> Proper<P> {
        let (x, y) = (x.crt(), y.crt());
        let prod = &x.value * &y.value;
        let (q, r) = prod.div_rem(&self.p);
        self.mul_block(b, x, y, &q, &r)
    }

    /// `x²`.
    pub fn square(&self, b: &mut Builder, x: &impl FieldValue<P>) -> Proper<P> {
        self.mul(b, x, x)
    }

    /// `x·c` for a field constant `c` (the constant's limbs are fixed cells).
    pub fn mul_const(&self, b: &mut Builder, x: &impl FieldValue<P>, c: P) -> Proper<P> {
        let k = self.load_constant(b, c);
        self.mul(b, x, &k)
    }

    /// `x⁻¹`: witness `y` (proper), then `assert_mul_eq(x, y, 1)`: `x·y + D − 1 = q·p` over the
    /// integers, so `x·y ≡ 1 (mod p)`. If `x ≡ 0 (mod p)` then `x·y ≡ 0 ≢ 1`, so no witness
    /// satisfies the circuit (the halo2-lib PR #41 class); the honest witness generator then
    /// assigns `y = 0` and the proof fails, it does not panic.
    pub fn inv(&self, b: &mut Builder, x: &impl FieldValue<P>) -> Proper<P> {
        let xv = x.fe();
        let y = self.load_proper(b, xv.invert().unwrap_or(P::ZERO));
        let one = self.load_constant(b, P::ONE);
        self.assert_mul_eq(b, x, &y, &one);
        y
    }

    /// Proves `x ≢ 0 (mod p)` (for any lazy `x`), by exhibiting its inverse (see [`Self::inv`]).
    pub fn assert_nonzero(&self, b: &mut Builder, x: &impl FieldValue<P>) {
        self.inv(b, x);
    }

    /// `x / y = x·y⁻¹`; unsatisfiable when `y ≡ 0`, whatever `x` is (so 0/0 is rejected too).
    pub fn div(
        &self,
        b: &mut Builder,
        x: &impl FieldValue<P>,
        y: &impl FieldValue<P>,
    ) -> Proper<P> {
        let yi = self.inv(b, y);
        self.mul(b, x, &yi)
    }

    /// The canonical value of any (lazy or proper) `x`: `x·1 = q·p + r` through the mul block,
    /// then `r ≤ p − 1`.
    pub fn reduce(&self, b: &mut Builder, x: &impl FieldValue<P>) -> Reduced<P> {
        let one = self.load_constant(b, P::ONE);
        let r = self.mul(b, x, &one);
        self.assert_canonical(b, &r)
    }

    /// The mul block with a caller-chosen witness `(q, r)` (no check that it is honest): lets
    /// soundness tests try forged quotients and remainders. Not for circuit code.
    #[doc(hidden)]
    pub fn mul_with_witness(
        &self,
        b: &mut Builder,
        x: &impl FieldValue<P>,
        y: &impl FieldValue<P>,
        q: &BigUint,
        r: &BigUint,
    ) -> Proper<P> {
        self.mul_block(b, x.crt(), y.crt(), q, r)
    }

    /// Checks the bounds of the module doc and returns the bit sizes of q's limbs.
    pub(crate) fn mul_bounds(&self, x: &CrtInt, y: &CrtInt, extra: &BigUint) -> [u32; NUM_LIMBS] {
        for m in x.max_limbs.iter().chain(y.max_limbs.iter()) {
            assert!(
                m.bits() <= MAX_MUL_LIMB_BITS as u64,
                "mul input limb above 2^91: reduce first"
            );
        }
        let (mx, my) = (x.max_value(), y.max_value());
        let max_q = (&mx * &my + extra) / &self.p;
        let qbits = max_q.bits() as u32;
        let crt_bound = (BigUint::one() << (LIMB_BITS * NUM_LIMBS as u32)) * modulus::<Native>();
        let q_side = ((BigUint::one() << qbits) - 1u32) * &self.p + (BigUint::one() << 256);
        assert!(
            &mx * &my + extra < crt_bound && q_side < crt_bound,
            "mul inputs too large for the CRT bound: reduce first"
        );
        assert!(qbits <= LIMB_BITS * NUM_LIMBS as u32);
        [0, 1, 2].map(|i| qbits.saturating_sub(LIMB_BITS * i).min(LIMB_BITS))
    }

    /// Lays out one mul block for the witness (q, r) and returns r as a proper value.
    pub(crate) fn mul_block(
        &self,
        b: &mut Builder,
        x: &CrtInt,
        y: &CrtInt,
        q: &BigUint,
        r: &BigUint,
    ) -> Proper<P> {
        let limbs = self.block(b, x, y, q, RPart::Witness(r));
        Proper::wrap(CrtInt {
            limbs,
            value: r.clone(),
            max_limbs: proper_max(),
        })
    }

    /// Proves `x·y ≡ z (mod p)` for any (lazy) `z`, without producing a new value: the mul
    /// block with its r rows replaced by copies of z's limbs and the fixed offset `D ≡ 0 (mod p)`
    /// (`D_k ≥ max z_k`, as in `sub`), i.e. `x·y + (D − z) = q·p` with `q ≥ 0` range-checked.
    /// The same carry and CRT argument as [`Self::mul`] applies with `ρ = z − D`
    /// (`|ρ_k| < 2^93`, and `x·y + D < 2^264·r_bn` is asserted), so the relation holds over the
    /// integers and `x·y ≡ z − D ≡ z (mod p)`. No range check of z is needed: its limbs are
    /// bounded by its type's tracked maxima. Cost: one mul block less three range rows.
    ///
    /// Typical use (ecc): `λ` witnessed, `assert_mul_eq(λ, x2 − x1, y2 − y1)`; the caller must
    /// also prove `x2 − x1 ≢ 0`, otherwise `λ` is free (the division-by-zero gap).
    pub fn assert_mul_eq(
        &self,
        b: &mut Builder,
        x: &impl FieldValue<P>,
        y: &impl FieldValue<P>,
        z: &impl FieldValue<P>,
    ) {
        let (x, y, z) = (x.crt(), y.crt(), z.crt());
        let d = self.sub_offset(&z.max_limbs);
        assert!(
            d.iter().all(|l| l.bits() <= 93),
            "assert_mul_eq: z too large"
        );
        // Honest q = (x·y + D − z) / p; exact when x·y ≡ z. Otherwise floor: the gate fails.
        let num = &x.value * &y.value + super::params::from_limbs(&d);
        let q = if num >= z.value {
            (num - &z.value) / &self.p
        } else {
            BigUint::zero()
        };
        self.block(b, x, y, &q, RPart::Copy { z, d });
    }

    /// Lays out one mul block; returns the cells in the r rows.
    fn block(
        &self,
        b: &mut Builder,
        x: &CrtInt,
        y: &CrtInt,
        q: &BigUint,
        rpart: RPart<'_>,
    ) -> [AssignedValue; NUM_LIMBS] {
        let extra = match &rpart {
            RPart::Witness(_) => BigUint::zero(),
            RPart::Copy { d, .. } => super::params::from_limbs(d),
        };
        let q_bits = self.mul_bounds(x, y, &extra);
        let l = self.range.params.lookup_bits;
        let ql = to_limbs(q);
        let pl = to_limbs(&self.p);
        let big = |c: &AssignedValue| BigInt::from(fe_to_big(&c.value));
        let xl: Vec<BigInt> = x.limbs.iter().map(big).collect();
        let yl: Vec<BigInt> = y.limbs.iter().map(big).collect();
        // ρ_k = r_k − γ_k: r for a product, z − D for assert_mul_eq.
        let rho: Vec<BigInt> = match &rpart {
            RPart::Witness(r) => to_limbs(r).into_iter().map(BigInt::from).collect(),
            RPart::Copy { z, d } => (0..NUM_LIMBS)
                .map(|k| big(&z.limbs[k]) - BigInt::from(d[k].clone()))
                .collect(),
        };
        // Honest carries: c_k = (e_k + c_(k−1)) / 2^88 (exact when x·y = q·p + ρ).
        let offset = BigInt::one() << (CARRY_BITS - 1);
        let mut carries = Vec::new();
        let mut c = BigInt::zero();
        for k in 0..NUM_LIMBS {
            let mut e = -rho[k].clone() + &c;
            for i in 0..=k {
                e += &xl[i] * &yl[k - i] - BigInt::from(&ql[i] * &pl[k - i]);
            }
            c = e >> LIMB_BITS; // floor division; exact for honest witnesses
            carries.push((&c + &offset).to_biguint().unwrap_or_default());
        }
        b.begin_block();
        let first = b.next_row();
        let mut heights = Vec::new();
        for (v, bits) in ql.iter().zip(q_bits) {
            heights.push(self.range.range_rows(b, v, bits, l, 0).height);
        }
        let r_cells = match &rpart {
            RPart::Witness(r) => {
                let rl = to_limbs(r);
                [0, 1, 2].map(|i| {
                    let rr = self.range.range_rows(b, &rl[i], PROPER_BITS[i], l, 0);
                    heights.push(rr.height);
                    rr.x
                })
            }
            RPart::Copy { z, d } => [0, 1, 2].map(|i| {
                let row = b.new_rows(1);
                b.set_fixed(FixedCol::Gamma, row, native(&d[i]));
                b.copy_of(&z.limbs[i], row, 0)
            }),
        };
        for v in carries.iter() {
            heights.push(self.range.range_rows(b, v, CARRY_BITS, l, 0).height);
        }
        b.end_block();
        assert!(
            heights.iter().all(|h| *h == 1),
            "limb range checks must fit in one row"
        );
        b.enable(GateKind::Mul(self.mul_gate), first);
        for i in 0..NUM_LIMBS {
            b.copy_of(&x.limbs[i], first + i as u32, 1);
            b.copy_of(&y.limbs[i], first + (NUM_LIMBS + i) as u32, 1);
        }
        r_cells
    }
}

/// What fills the r rows of a mul block.
enum RPart<'a> {
    /// A new remainder, range-checked to 88/88/80 bits.
    Witness(&'a BigUint),
    /// Copies of an existing value z, with the offset D (limbs of a multiple of p) in γ.
    Copy {
        z: &'a CrtInt,
        d: [BigUint; NUM_LIMBS],
    },
}
