//! The vertical prototype of the multiplication, kept for the layout comparison only.
//!
//! It proves the same relation as [`FieldChip::mul`] with halo2-base's single gate
//! `x[0] + x[1]·x[2] = x[3]` down column 0 (inner products chain: each term costs three cells),
//! plus the same range rows for q, r and the carries. `benches/cells.rs` measures both; the wide
//! block is about 2.9× cheaper (68 against 200 cells at L = 17), so the chip uses it.

use ff::{Field, PrimeField};
use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_traits::{One, Zero};

use super::chip::{proper_max, FieldChip, PROPER_BITS};
use super::params::{to_limbs, CARRY_BITS, LIMB_BITS, NUM_LIMBS};
use super::types::{CrtInt, FieldValue, Proper};
use crate::bigint::{fe_to_big, native, pow2};
use crate::layout::{AssignedValue, Builder, GateKind, Native};

/// One term of a vertical inner product: a cell, or a constant (loaded as a cached constant
/// cell and copied, as halo2-base does).
enum Term {
    Cell(AssignedValue),
    Const(Native),
}

impl<P: PrimeField> FieldChip<P> {
    /// `Σ x_i·y_i` down column 0 starting from a copy of the constant 0; returns the last cell.
    fn vertical_inner_product(&self, b: &mut Builder, terms: &[(Term, Term)]) -> AssignedValue {
        let zero = b.constant(Native::ZERO);
        let h = 1 + 3 * terms.len() as u32;
        let row = b.new_rows(h);
        let mut acc = b.copy_of(&zero, row, 0);
        for (t, (x, y)) in terms.iter().enumerate() {
            let r = row + 1 + 3 * t as u32;
            b.enable(GateKind::Vertical, r - 1);
            let put = |b: &mut Builder, term: &Term, rr: u32| -> Native {
                match term {
                    Term::Cell(c) => b.copy_of(c, rr, 0).value,
                    Term::Const(v) => {
                        let c = b.constant(*v);
                        b.copy_of(&c, rr, 0).value
                    }
                }
            };
            let xv = put(b, x, r);
            let yv = put(b, y, r + 1);
            acc = b.assign(r + 2, 0, acc.value + xv * yv);
        }
        acc
    }

    /// The vertical-layout multiplication (same relation and bounds as `mul`).
    pub fn mul_vertical(
        &self,
        b: &mut Builder,
        x: &impl FieldValue<P>,
        y: &impl FieldValue<P>,
    ) -> Proper<P> {
        let (x, y) = (x.crt(), y.crt());
        let prod = &x.value * &y.value;
        let (q, r) = prod.div_rem(&self.p);
        let l = self.range.params.lookup_bits;
        let (ql, rl, pl) = (to_limbs(&q), to_limbs(&r), to_limbs(&self.p));
        let q_bits = self.mul_bounds(x, y, &BigUint::from(0u8));
        let q_cells: Vec<_> = (0..NUM_LIMBS)
            .map(|i| self.range.range_rows(b, &ql[i], q_bits[i], l, 0).x)
            .collect();
        let r_cells: Vec<_> = (0..NUM_LIMBS)
            .map(|i| self.range.range_rows(b, &rl[i], PROPER_BITS[i], l, 0).x)
            .collect();
        let xl: Vec<BigInt> = x
            .limbs
            .iter()
            .map(|c| BigInt::from(fe_to_big(&c.value)))
            .collect();
        let yl: Vec<BigInt> = y
            .limbs
            .iter()
            .map(|c| BigInt::from(fe_to_big(&c.value)))
            .collect();
        let offset = BigInt::one() << (CARRY_BITS - 1);
        let mut carry = BigInt::zero();
        let mut prev: Option<AssignedValue> = None;
        let off = pow2(CARRY_BITS - 1);
        for k in 0..NUM_LIMBS {
            let mut e = -BigInt::from(rl[k].clone()) + &carry;
            for i in 0..=k {
                e += &xl[i] * &yl[k - i] - BigInt::from(&ql[i] * &pl[k - i]);
            }
            carry = e >> LIMB_BITS;
            let stored: BigUint = (&carry + &offset).to_biguint().unwrap_or_default();
            let cc = self.range.range_rows(b, &stored, CARRY_BITS, l, 0).x;
            // Σ x_i y_j − Σ q_i p_j − r_k + (c'_(k−1) − off) − 2^88 (c'_k − off) = 0
            let mut terms = Vec::new();
            for i in 0..=k {
                terms.push((Term::Cell(x.limbs[i]), Term::Cell(y.limbs[k - i])));
                terms.push((Term::Cell(q_cells[i]), Term::Const(-native(&pl[k - i]))));
            }
            terms.push((Term::Cell(r_cells[k]), Term::Const(-Native::ONE)));
            if let Some(p) = prev {
                terms.push((Term::Cell(p), Term::Const(Native::ONE)));
                terms.push((Term::Const(Native::ONE), Term::Const(-off)));
            }
            terms.push((Term::Cell(cc), Term::Const(-pow2(LIMB_BITS))));
            terms.push((Term::Const(Native::ONE), Term::Const(off * pow2(LIMB_BITS))));
            let out = self.vertical_inner_product(b, &terms);
            let zero = b.constant(Native::ZERO);
            b.constrain_equal(&out, &zero);
            prev = Some(cc);
        }
        // Native check: X·Y − Q·p − R = 0 with each native value an inner product of its limbs.
        let lb: Vec<Native> = (0..NUM_LIMBS).map(|i| pow2(LIMB_BITS * i as u32)).collect();
        let nat = |chip: &Self, b: &mut Builder, cells: &[AssignedValue]| {
            let t: Vec<_> = cells
                .iter()
                .zip(lb.iter())
                .map(|(c, w)| (Term::Cell(*c), Term::Const(*w)))
                .collect();
            chip.vertical_inner_product(b, &t)
        };
        let (nx, ny) = (nat(self, b, &x.limbs), nat(self, b, &y.limbs));
        let (nq, nr) = (nat(self, b, &q_cells), nat(self, b, &r_cells));
        let terms = vec![
            (Term::Cell(nx), Term::Cell(ny)),
            (Term::Cell(nq), Term::Const(-native(&self.p))),
            (Term::Cell(nr), Term::Const(-Native::ONE)),
        ];
        let out = self.vertical_inner_product(b, &terms);
        let zero = b.constant(Native::ZERO);
        b.constrain_equal(&out, &zero);
        let limbs = [r_cells[0], r_cells[1], r_cells[2]];
        Proper::wrap(CrtInt {
            limbs,
            value: r,
            max_limbs: proper_max(),
        })
    }
}
