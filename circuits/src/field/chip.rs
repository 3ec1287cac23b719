//! The field chip: loading, constants, lazy linear operations, select, zero and equality tests.
//! Multiplication and everything built on it is in `mul.rs`; windows in `decompose.rs`.

use std::marker::PhantomData;

use ff::{Field, PrimeField};
use num_bigint::BigUint;
use num_traits::{One, Zero};

use super::gates::{IS_EQUAL, IS_ZERO, LESS_EQ, SELECT};
use super::params::{to_limbs, LIMB_BITS, NUM_LIMBS, TOP_LIMB_BITS};
use super::types::{CrtInt, FieldValue, Overflowing, Proper, Reduced, Selectable};
use crate::bigint::{fe_to_big, modulus, native};
use crate::layout::{AssignedValue, Builder, Native, GAMMA};
use crate::range::{AssignedBit, RangeChip};

/// Errors on witness input the chip cannot represent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FieldError {
    /// The integer does not fit in three proper limbs (`≥ 2^256`).
    TooLarge,
}

impl std::fmt::Display for FieldError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FieldError::TooLarge => write!(f, "integer does not fit in 256 bits"),
        }
    }
}
impl std::error::Error for FieldError {}

/// Non-native arithmetic modulo the prime of `P` (secp256k1 `Fp` or `Fq`) on BN254 `Fr`.
#[derive(Clone, Debug)]
pub struct FieldChip<P> {
    pub range: RangeChip,
    /// The emulated prime p.
    pub(crate) p: BigUint,
    /// Index of this modulus's relation gates (`gates::RELATION.at(i)`,
    /// `gates::RELATION_FACTOR.at(i)`).
    pub(crate) mul_gate: usize,
    _p: PhantomData<P>,
}

/// Bit sizes of the three limbs of a proper value.
pub(crate) const PROPER_BITS: [u32; NUM_LIMBS] = [LIMB_BITS, LIMB_BITS, TOP_LIMB_BITS];

pub(crate) fn proper_max() -> [BigUint; NUM_LIMBS] {
    PROPER_BITS.map(|b| (BigUint::one() << b) - 1u32)
}

impl<P: PrimeField> FieldChip<P> {
    /// A chip for `P` whose relation gates were registered as `Relation(mul_gate)`,
    /// `RelationFactor(mul_gate)` (the position of `P`'s modulus in `CircuitConfig::configure`'s
    /// list).
    pub fn new(range: RangeChip, mul_gate: usize) -> Self {
        let l = range.params.lookup_bits;
        let needed = super::params::CARRY_BITS.div_ceil(l) as usize;
        assert!(
            range.params.lookup_cols >= needed,
            "the field chip needs {needed} lookup columns for one-row limb checks at L = {l}"
        );
        // One row per limb or carry: a partial top chunk needs its own table section unless a
        // spare column holds its shifted copy.
        for bits in [LIMB_BITS, TOP_LIMB_BITS, super::params::CARRY_BITS] {
            let s = bits % l;
            assert!(
                s == 0
                    || range.params.window_tag(s).is_some()
                    || range.params.lookup_cols > bits.div_ceil(l) as usize,
                "no table section for the {s}-bit top chunk of a {bits}-bit limb"
            );
        }
        Self {
            range,
            p: modulus::<P>(),
            mul_gate,
            _p: PhantomData,
        }
    }

    /// Loads an integer `< 2^256` (possibly `≥ p`) with each limb range-checked in its own range
    /// row (88, 88, 80 bits). The limbs bound the integer below 2^256; since the native value is
    /// never witnessed separately but always computed from the limbs inside the gates, there is
    /// no second representation that could disagree (halo2-lib PR #209).
    pub fn load_uint(&self, b: &mut Builder, v: &BigUint) -> Result<Proper<P>, FieldError> {
        if v.bits() > 256 {
            return Err(FieldError::TooLarge);
        }
        let vals = to_limbs(v);
        let limbs = [0, 1, 2].map(|i| {
            self.range
                .range_rows(b, &vals[i], self.range.main_chunks(PROPER_BITS[i]))
                .x
        });
        Ok(Proper::wrap(CrtInt {
            limbs,
            value: v.clone(),
            max_limbs: proper_max(),
        }))
    }

    /// Loads a field element as a proper value (limbs checked, `< p` not proven).
    pub fn load_proper(&self, b: &mut Builder, v: P) -> Proper<P> {
        self.load_uint(b, &fe_to_big(&v))
            .expect("a field element has 256 bits at most")
    }

    /// Loads a field element and proves it canonical (`< p`).
    pub fn load_reduced(&self, b: &mut Builder, v: P) -> Reduced<P> {
        let x = self.load_proper(b, v);
        self.assert_canonical(b, &x)
    }

    /// A constant: three cached constant cells; canonical by construction (fixed values).
    pub fn load_constant(&self, b: &mut Builder, v: P) -> Reduced<P> {
        let big = fe_to_big(&v);
        let vals = to_limbs(&big);
        let limbs = [0, 1, 2].map(|i| b.constant(native(&vals[i])));
        Reduced::wrap(CrtInt {
            limbs,
            value: big,
            max_limbs: vals,
        })
    }

    /// `x + y` limb by limb, no reduction (lazy). Each output limb is the integer sum of two
    /// non-negative bounded limbs; the tracked bounds add, and are kept `≤ 2^200 ≪ r ≈ 2^253.6`
    /// (asserted), so no limb wraps mod r and the integer value is exactly `x + y`. Nothing is
    /// range-checked: the inputs' bounds carry over. A relation block taking the sum checks the
    /// bounds it needs (carries below 2^95, the CRT value bound: `field::relation::bounds`,
    /// asserted at construction). Cost: 3 lin rows (9 cells).
    pub fn add(
        &self,
        b: &mut Builder,
        x: &impl FieldValue<P>,
        y: &impl FieldValue<P>,
    ) -> Overflowing<P> {
        let (x, y) = (x.crt(), y.crt());
        let limbs = self.limbwise(b, x, Some(y), Native::ONE, Native::ONE, [Native::ZERO; 3]);
        let max_limbs = [0, 1, 2].map(|i| &x.max_limbs[i] + &y.max_limbs[i]);
        self.check_lazy(&max_limbs);
        Overflowing::wrap(CrtInt {
            limbs,
            value: &x.value + &y.value,
            max_limbs,
        })
    }

    /// `x − y + D` limb by limb, where `D ≡ 0 (mod p)` has limbs `D_i ∈ [max y_i + 2^88,
    /// max y_i + 2^89)` (the top limb takes the rest of a multiple of p), so every result limb
    /// is a non-negative integer `≤ max x_i + D_i ≤ 2^200` (asserted; no wrap mod r) and the
    /// value is `x − y + D ≡ x − y (mod p)`. For proper inputs the limbs stay below `2^91`
    /// (tested), so the result can go into `mul`.
    pub fn sub(
        &self,
        b: &mut Builder,
        x: &impl FieldValue<P>,
        y: &impl FieldValue<P>,
    ) -> Overflowing<P> {
        let (x, y) = (x.crt(), y.crt());
        let d = self.sub_offset(&y.max_limbs);
        let limbs = self.limbwise(
            b,
            x,
            Some(y),
            Native::ONE,
            -Native::ONE,
            d.each_ref().map(native),
        );
        let max_limbs = [0, 1, 2].map(|i| &x.max_limbs[i] + &d[i]);
        self.check_lazy(&max_limbs);
        let value = &x.value + super::params::from_limbs(&d) - &y.value;
        Overflowing::wrap(CrtInt {
            limbs,
            value,
            max_limbs,
        })
    }

    /// `D − x` limb by limb (`D` as in [`Self::sub`]): non-negative limbs, value `≡ −x`.
    pub fn neg(&self, b: &mut Builder, x: &impl FieldValue<P>) -> Overflowing<P> {
        let x = x.crt();
        let d = self.sub_offset(&x.max_limbs);
        let limbs = self.limbwise(
            b,
            x,
            None,
            -Native::ONE,
            Native::ZERO,
            d.each_ref().map(native),
        );
        let max_limbs = d.clone();
        let value = super::params::from_limbs(&d) - &x.value;
        Overflowing::wrap(CrtInt {
            limbs,
            value,
            max_limbs,
        })
    }

    /// Limb i of the result is `α·x_i + β·y_i + γ_i` (one linear row per limb; no `y` term
    /// when `y` is `None`). Bounds are the caller's to track.
    fn limbwise(
        &self,
        b: &mut Builder,
        x: &CrtInt,
        y: Option<&CrtInt>,
        alpha: Native,
        beta: Native,
        gamma: [Native; 3],
    ) -> [AssignedValue; 3] {
        [0, 1, 2].map(|i| {
            let yi = y.map(|y| &y.limbs[i]);
            self.range.linear_row(
                b,
                Some(&x.limbs[i]),
                yi,
                alpha,
                beta,
                Native::ZERO,
                gamma[i],
            )
        })
    }

    /// `k·x` for a small integer `k`, limb by limb (lazy); limb bounds scale by `k` (kept
    /// `≤ 2^200`, asserted).
    pub fn scale(&self, b: &mut Builder, x: &impl FieldValue<P>, k: u64) -> Overflowing<P> {
        let x = x.crt();
        let kn = Native::from(k);
        let limbs = self.limbwise(b, x, None, kn, Native::ZERO, [Native::ZERO; 3]);
        let max_limbs = [0, 1, 2].map(|i| &x.max_limbs[i] * k);
        self.check_lazy(&max_limbs);
        Overflowing::wrap(CrtInt {
            limbs,
            value: &x.value * k,
            max_limbs,
        })
    }

    /// Limb-wise `bit ? x : y`. The result keeps the common type's invariant (each limb is one
    /// of the two inputs' limbs, and the bit is the same for all limbs). Needs
    /// `LayoutParams::extra_gates`.
    pub fn select<T: Selectable<P>>(&self, b: &mut Builder, bit: &AssignedBit, x: &T, y: &T) -> T {
        let (xc, yc) = (x.crt(), y.crt());
        let row = b.new_rows(NUM_LIMBS as u32);
        b.enable(SELECT, row);
        b.copy_of(bit.cell(), row, 3);
        let pick = bit.value();
        let limbs = [0, 1, 2].map(|i| {
            let r = row + i as u32;
            b.copy_of(&xc.limbs[i], r, 0);
            b.copy_of(&yc.limbs[i], r, 1);
            b.assign(
                r,
                2,
                if pick {
                    xc.limbs[i].value
                } else {
                    yc.limbs[i].value
                },
            )
        });
        let max_limbs = [0, 1, 2].map(|i| xc.max_limbs[i].clone().max(yc.max_limbs[i].clone()));
        let value = if pick {
            xc.value.clone()
        } else {
            yc.value.clone()
        };
        T::rewrap(CrtInt {
            limbs,
            value,
            max_limbs,
        })
    }

    /// 1 iff `x = 0`. For a canonical `x`, `x ≡ 0 (mod p)` iff all limbs are 0 iff their sum
    /// (non-negative, `< 2^90`, no wrap) is 0; the gate proves `z = [s = 0]` with a witnessed
    /// inverse (free when `s = 0`).
    pub fn is_zero(&self, b: &mut Builder, x: &Reduced<P>) -> AssignedBit {
        let row = b.new_rows(2);
        b.enable(IS_ZERO, row);
        let mut s = Native::ZERO;
        for i in 0..NUM_LIMBS {
            b.copy_of(&x.inner.limbs[i], row, i);
            s += x.inner.limbs[i].value;
        }
        zero_test_witness(b, s, row, 0)
    }

    /// 1 iff `x = y`. Both canonical, so equal iff all limbs equal iff `s = Σ (x_i − y_i)²`
    /// is 0 (`s < 3·2^176`, no wrap mod r). Needs `LayoutParams::extra_gates`.
    pub fn is_equal(&self, b: &mut Builder, x: &Reduced<P>, y: &Reduced<P>) -> AssignedBit {
        let row = b.new_rows(2);
        b.enable(IS_EQUAL, row);
        let mut s = Native::ZERO;
        for i in 0..NUM_LIMBS {
            b.copy_of(&x.inner.limbs[i], row, i);
            b.copy_of(&y.inner.limbs[i], row + 1, i);
            let d = x.inner.limbs[i].value - y.inner.limbs[i].value;
            s += d * d;
        }
        zero_test_witness(b, s, row, 3)
    }

    /// Constrains `x = y`: copy constraints between the limb cells of the two (distinct)
    /// values. Canonical representations are unique, so this is equality in the field
    /// (cf. halo2-ecc TOB-AXIOM-19, where `a` was compared with itself).
    pub fn assert_equal(&self, b: &mut Builder, x: &Reduced<P>, y: &Reduced<P>) {
        for i in 0..NUM_LIMBS {
            b.constrain_equal(&x.inner.limbs[i], &y.inner.limbs[i]);
        }
    }

    /// Proves a proper value canonical: `x ≤ p − 1` by `d = (p − 1) − x` computed limb-wise with
    /// borrows `β_i ∈ {0, 1}` and `d_i` range-checked to 88/88/80 bits (see the less-eq gate).
    /// Summing the limb equations gives `Σ d_i·2^(88 i) = (p − 1) − x` over the integers (all
    /// terms `< 2^90`, no wrap), and `d ≥ 0` forces `x ≤ p − 1`. An honest `mul` output is
    /// canonical, so this never fails for it.
    pub fn assert_canonical(&self, b: &mut Builder, x: &Proper<P>) -> Reduced<P> {
        let bound = &self.p - 1u32;
        self.less_eq_block(b, x.crt(), &bound);
        Reduced::wrap(x.inner.clone())
    }

    /// The canonical form of any value: `assert_canonical` when its limbs are within the
    /// proper bounds (88/88/80 bits, as a remainder or a loaded value), else [`Self::reduce`].
    pub fn canonical(&self, b: &mut Builder, x: &impl FieldValue<P>) -> Reduced<P> {
        let c = x.crt();
        if c.max_limbs
            .iter()
            .zip(proper_max().iter())
            .all(|(m, p)| m <= p)
        {
            self.assert_canonical(b, &Proper::wrap(c.clone()))
        } else {
            self.reduce(b, x)
        }
    }

    /// The less-or-equal block for `x ≤ bound` (`bound < 2^256`, `x` proper).
    pub(crate) fn less_eq_block(&self, b: &mut Builder, x: &CrtInt, bound: &BigUint) {
        let cl = to_limbs(bound);
        let xl = to_limbs(&x.value);
        // Honest borrows: d_i = C_i − x_i − β_(i−1) + 2^88·β_i ≥ 0.
        let mut borrow = 0i64;
        let mut d = Vec::new();
        let mut betas = Vec::new();
        for i in 0..NUM_LIMBS {
            let need = &xl[i] + BigUint::from(borrow as u64);
            let last = i + 1 == NUM_LIMBS;
            let (di, bi) = if cl[i] >= need {
                (&cl[i] - &need, 0)
            } else if !last {
                ((&cl[i] + (BigUint::one() << LIMB_BITS)) - &need, 1)
            } else {
                // x > bound: no honest witness; any value makes the circuit fail.
                (BigUint::zero(), 0)
            };
            d.push(di);
            if !last {
                betas.push(bi);
            }
            borrow = bi;
        }
        b.begin_block();
        let first = b.next_row();
        for (i, di) in d.iter().enumerate() {
            let rr = self
                .range
                .range_rows(b, di, self.range.main_chunks(PROPER_BITS[i]));
            assert_eq!(rr.height, 1, "limb range checks must fit in one row");
        }
        b.end_block();
        b.enable(LESS_EQ, first);
        for (i, (xi, ci)) in x.limbs.iter().zip(cl.iter()).enumerate() {
            let r = first + i as u32;
            b.copy_of(xi, r, 1);
            b.set_fixed(GAMMA, r, native(ci));
        }
        for (i, bi) in betas.iter().enumerate() {
            b.assign(first + i as u32, 2, Native::from(*bi as u64));
        }
    }

    /// Limbs `D_i ≥ m_i` of a multiple of p: the offset that keeps `x − y + D` non-negative.
    pub(crate) fn sub_offset(&self, m: &[BigUint; NUM_LIMBS]) -> [BigUint; NUM_LIMBS] {
        let base = BigUint::one() << LIMB_BITS;
        let target =
            super::params::from_limbs(m) + (BigUint::one() << (2 * LIMB_BITS + 1)) + &base * 2u32;
        let mut k = &target / &self.p + 1u32;
        loop {
            let x = &k * &self.p;
            // D_0 ≡ x (mod 2^88), D_0 ∈ [m_0 + 2^88, m_0 + 2^89); likewise D_1; D_2 takes the rest.
            let d0 = &m[0] + &base + ((&x % &base) + &base - (&m[0] % &base)) % &base;
            if x >= d0 {
                let x1 = (&x - &d0) / &base;
                let d1 = &m[1] + &base + ((&x1 % &base) + &base - (&m[1] % &base)) % &base;
                if x1 >= d1 {
                    let d2 = (&x1 - &d1) / &base;
                    if d2 >= m[2] {
                        return [d0, d1, d2];
                    }
                }
            }
            k += 1u32;
        }
    }

    /// Lazy results must stay far from the native modulus; a relation block further asserts the
    /// carry and CRT bounds of its operands (`field::relation::bounds`).
    fn check_lazy(&self, max_limbs: &[BigUint; NUM_LIMBS]) {
        assert!(
            max_limbs.iter().all(|m| m.bits() <= 200),
            "lazy limb bound too large: reduce before adding more"
        );
    }
}

/// The witness of an is-zero / is-equal block whose tested sum is `s`: the inverse at column
/// 3 of `row` and the result `z = [s = 0]` at column `z_col` of `row + 1` (the gate forces z;
/// the inverse is free when `s = 0`, and marked so).
fn zero_test_witness(b: &mut Builder, s: Native, row: u32, z_col: usize) -> AssignedBit {
    let inv = b.assign(row, 3, s.invert().unwrap_or(Native::ZERO));
    let z = b.assign(row + 1, z_col, Native::from(u64::from(s == Native::ZERO)));
    if s == Native::ZERO {
        b.mark_free(&inv);
    }
    AssignedBit(z)
}
