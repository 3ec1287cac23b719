//! The relation block: one non-native identity proven over the integers.
//!
//! A [`Relation`] is
//!
//! ```text
//!   a₁·(b₁ − c₁) + α·a₂·(b₂ − c₂) + β·l₁ + μ·l₂ + ν·v + C ≡ 0  (mod p)
//! ```
//!
//! over values given as limb cells (copied into the block), small integer coefficients `α`,
//! `β`, `μ` and a constant `C`; an absent operand is 0 (a copy of the constant-0 cell
//! wherever the gate reads it, see below). The block may also produce one **new
//! value** `v` (range-checked proper limbs in the block itself): as a *remainder* (`ν = −1`,
//! `v ≡ a₁·(b₁ − c₁) + … + C`) or as a *factor* (`a₁ := v`, e.g. a slope `λ` with
//! `λ·(x₂ − x₁) ≡ y₂ − y₁`). Folding the differences and the linear terms into the gate saves
//! the lazy-sum rows an affine point addition would otherwise need (see `ecc`).
//!
//! **Witness**: the new value `v`, a quotient `Q ≥ 0` and three carries. **Constraints** (the
//! `Relation`/`RelationFactor` gates, `field::gates`): with a constant offset `K ≥ 0` (a
//! multiple of 2^176) fixed by the operands' bounds (so that `S + K·p ≥ 0` for every witness in bounds, where `S`
//! is the left-hand side), the integer identity
//!
//! ```text
//!   E = a₁·(b₁ − c₁) + α·a₂·(b₂ − c₂) + β·l₁ + μ·l₂ + ν·v + C − (Q − K)·p = 0
//! ```
//!
//! is checked limb-wise modulo `2^264` (three carry equations) and natively modulo `r`.
//!
//! **Why a dishonest witness cannot pass.** Every operand has non-negative limbs with tracked
//! maxima (its type's invariant: range-checked, or a lazy sum of range-checked values); `v` and
//! `Q` are range-checked here (`v` to 88/88/80 bits, `Q` to the bits of its honest maximum); each
//! carry `c_k` is range-checked as `c_k + 2^95 ∈ [0, 2^96)`. From these, [`bounds`] computes for
//! every block, before any witness exists:
//! * each carry equation's terms are `< 2^250 ≪ r ≈ 2^253.6` (asserted), so each holds over the
//!   integers; summing them gives `Σ_(k<3) e_k·2^(88k) = c₂·2^264`, and the limb products of
//!   positions 3 and 4 are multiples of `2^264`: `E ≡ 0 (mod 2^264)`;
//! * the gate's native equation gives `E ≡ 0 (mod r)`; `2^264` and `r` are coprime;
//! * `|E| < 2^264·r` for every witness in bounds (asserted), so `E = 0` over the integers, hence
//!   the relation holds mod p.
//!
//! **Every cell the gate reads is pinned** (a cell is constrained only by what the verifier
//! checks, never by what the honest prover writes). The `Relation` gate always evaluates
//! `A₁·(B₁ − C₁)` and `−V`, and `α·A₂·(B₂ − C₂)` wherever `α ≠ 0`; `RelationFactor` reads
//! `B₁`, `C₁` (its `A₁` is `V`) and, for modulus 0, `W`. Each read is pinned as follows:
//! * an operand slot of a present operand: a copy of the operand's limb cells;
//! * an **absent** operand slot the gate reads (`C₁` of a product without `minus`, `C₂` of
//!   `plus_product(.., None)`, `A₁`, `B₁`, `C₁` of a linear relation, the `V` rows of a
//!   relation without a new value): a copy of the builder's constant-0 cell (a lin row
//!   `x₂ = γ = 0`). Before this rule the slots were left unassigned, so a prover writing
//!   `C = B − B′` made the block prove the relation for any `B′` of its choice (CHANGELOG.md,
//!   relation-block fix; `tests/relation_slot_attacks.rs` reproduces the attacks);
//! * `L₁`, `L₂`: read only where `β`, `μ ≠ 0`, i.e. where the relation has that linear term,
//!   whose limbs are copied;
//! * `Q`, `V` and the carries: the value cells of range rows (range gate and lookups);
//! * `W` (modulus 0, factor blocks): determined by the distinctness constraint
//!   `W·D·(D − p)·(D + p) = 1`;
//! * `α`, `β`, `μ`, `C`, `K₂`: fixed cells.
//!
//! The footprint check (`crate::footprint`) verifies this on every laid-out circuit.
//!
//! A violated assertion is a circuit-construction error (operands too large: reduce first),
//! never a property of the witness. An honest witness always satisfies the block when the
//! relation holds; when it does not (or a factor's divisor is `≡ 0`), the honest generator
//! writes a wrong but in-range witness and the circuit is unsatisfiable; nothing panics.
//!
//! **Layout** (9 rows; `field::gates`): column 0 `Q`, `v`, carries (range rows); columns 1–3
//! the operand copies (absent ones: copies of the constant 0); `α, β, μ` and the top limb of
//! `K` and the constant `C` in fixed columns.

use ff::{Field, PrimeField};
use num_bigint::{BigInt, BigUint, Sign};
use num_integer::Integer;
use num_traits::{One, Signed, Zero};

use super::chip::{proper_max, FieldChip, PROPER_BITS};
use super::gates::{RELATION, RELATION_FACTOR};
use super::params::{from_limbs, to_limbs, CARRY_BITS, LIMB_BITS, NUM_LIMBS};
use super::types::{CrtInt, FieldValue, Proper};
use crate::bigint::{fe_to_big, modulus, native};
use crate::layout::{AssignedValue, Builder, Native, ALPHA, BETA, GAMMA, MU};
use crate::range::RangeChip;

const N: usize = NUM_LIMBS;

/// Rows of a relation block.
pub const RELATION_ROWS: u32 = 3 * N as u32;

/// What the block's new value is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum NewValue {
    /// No new value: the relation only checks its operands.
    #[default]
    None,
    /// `ν = −1`: `v ≡ a₁·(b₁ − c₁) + α·a₂·(b₂ − c₂) + β·l₁ + μ·l₂ + C`.
    Remainder,
    /// `a₁ := v`: `v·(b₁ − c₁) + α·a₂·(b₂ − c₂) + β·l₁ + μ·l₂ + C ≡ 0`, so
    /// `v ≡ −(…)/(b₁ − c₁)`. The caller must make `b₁ ≢ c₁` hold (e.g. [`Relation::distinct`]),
    /// otherwise `v` is free.
    Factor,
}

/// One relation (see the module doc); build it with the chained constructors.
#[derive(Clone, Debug, Default)]
pub struct Relation<'a> {
    pub a1: Option<&'a CrtInt>,
    pub b1: Option<&'a CrtInt>,
    pub c1: Option<&'a CrtInt>,
    pub alpha: i64,
    pub a2: Option<&'a CrtInt>,
    pub b2: Option<&'a CrtInt>,
    pub c2: Option<&'a CrtInt>,
    pub lin: [(i64, Option<&'a CrtInt>); 2],
    pub constant: BigInt,
    pub new: NewValue,
    /// The caller relies on `b₁ ≢ c₁ (mod p)`, which every factor block of modulus 0 proves
    /// (`RelationFactor(0)`); asserts both are `< 2^256`, which that proof needs.
    pub distinct: bool,
}

impl<'a> Relation<'a> {
    /// `a·b` as the first product.
    pub fn product<P>(a: &'a impl FieldValue<P>, b: &'a impl FieldValue<P>) -> Self {
        Self {
            a1: Some(a.crt()),
            b1: Some(b.crt()),
            ..Self::default()
        }
    }

    /// `v·(b − c)` as the first product, `v` the block's new value ([`NewValue::Factor`]).
    pub fn factor_times<P>(b: &'a impl FieldValue<P>, c: Option<&'a CrtInt>) -> Self {
        Self {
            b1: Some(b.crt()),
            c1: c,
            new: NewValue::Factor,
            ..Self::default()
        }
    }

    /// An empty relation (only linear terms and a constant).
    pub fn linear() -> Self {
        Self::default()
    }

    /// Turns the first product into `a·(b − c)`.
    pub fn minus<P>(mut self, c: &'a impl FieldValue<P>) -> Self {
        self.c1 = Some(c.crt());
        self
    }

    /// Adds the second product `α·a·(b − c)` (`c` absent: 0, pinned by a copy).
    pub fn plus_product<P>(
        mut self,
        alpha: i64,
        a: &'a impl FieldValue<P>,
        b: &'a impl FieldValue<P>,
        c: Option<&'a CrtInt>,
    ) -> Self {
        self.alpha = alpha;
        self.a2 = Some(a.crt());
        self.b2 = Some(b.crt());
        self.c2 = c;
        self
    }

    /// Adds the linear term `coef·x` (at most two).
    pub fn plus_term<P>(mut self, coef: i64, x: &'a impl FieldValue<P>) -> Self {
        let slot = self
            .lin
            .iter_mut()
            .find(|(_, v)| v.is_none())
            .expect("a relation has two linear terms at most");
        *slot = (coef, Some(x.crt()));
        self
    }

    /// Adds the constant `C`.
    pub fn constant(mut self, c: impl Into<BigInt>) -> Self {
        self.constant += c.into();
        self
    }

    /// The block's new value is the remainder (`ν = −1`).
    pub fn remainder(mut self) -> Self {
        self.new = NewValue::Remainder;
        self
    }

    /// Also proves `b₁ ≢ c₁ (mod p)`.
    pub fn distinct(mut self) -> Self {
        self.distinct = true;
        self
    }

    fn nu(&self) -> i64 {
        if self.new == NewValue::Remainder {
            -1
        } else {
            0
        }
    }
}

/// Bounds of one block, computed from the operands' tracked maxima only.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RelationBounds {
    /// `K` of `Γ = C + K·p`.
    pub k: BigUint,
    /// Bit size of `Q`.
    pub q_bits: u32,
    /// `[min, max]` of each carry.
    pub carries: [(BigInt, BigInt); N],
}

fn big(x: &BigUint) -> BigInt {
    BigInt::from_biguint(Sign::Plus, x.clone())
}

fn limb_max(x: Option<&CrtInt>) -> [BigInt; N] {
    match x {
        Some(c) => [0, 1, 2].map(|i| big(&c.max_limbs[i])),
        None => [0, 1, 2].map(|_| BigInt::zero()),
    }
}

fn value_max(x: Option<&CrtInt>) -> BigInt {
    x.map_or_else(BigInt::zero, |c| big(&c.max_value()))
}

/// `[min, max]` of `coef·x` for `x ∈ [lo, hi]`.
fn scaled(coef: i64, lo: &BigInt, hi: &BigInt) -> (BigInt, BigInt) {
    let (a, b) = (lo * coef, hi * coef);
    if a <= b {
        (a, b)
    } else {
        (b, a)
    }
}

/// The bounds of a block: `K`, the bits of `Q`, the carries' ranges; asserts the soundness
/// conditions of the module doc (panics on a construction error).
pub fn bounds(rel: &Relation<'_>, p: &BigUint, range: &RangeChip) -> RelationBounds {
    let pb = big(p);
    let proper: [BigUint; N] = proper_max();
    let v_lim: [BigInt; N] = [0, 1, 2].map(|i| big(&proper[i]));
    let v_max = big(&from_limbs(&proper));
    let (a1, a1_max) = if rel.new == NewValue::Factor {
        (v_lim.clone(), v_max.clone())
    } else {
        (limb_max(rel.a1), value_max(rel.a1))
    };
    // Value range of S = Σ terms (without Γ).
    let mut s_lo = BigInt::zero();
    let mut s_hi = BigInt::zero();
    let prods = [
        (1i64, a1_max, value_max(rel.b1), value_max(rel.c1)),
        (
            rel.alpha,
            value_max(rel.a2),
            value_max(rel.b2),
            value_max(rel.c2),
        ),
    ];
    for (coef, a, bm, cm) in &prods {
        let (lo, hi) = scaled(*coef, &(-(a * cm)), &(a * bm));
        s_lo += lo;
        s_hi += hi;
    }
    for (coef, x) in &rel.lin {
        let (lo, hi) = scaled(*coef, &BigInt::zero(), &value_max(*x));
        s_lo += lo;
        s_hi += hi;
    }
    let (lo, hi) = scaled(rel.nu(), &BigInt::zero(), &v_max);
    s_lo += lo + &rel.constant;
    s_hi += hi + &rel.constant;
    // K = K₂·2^176, the smallest such multiple covering the negative part (only its top limb
    // is a fixed cell of the block).
    let k_min = if s_lo < BigInt::zero() {
        (-&s_lo).div_ceil(&pb)
    } else {
        BigInt::zero()
    };
    let unit = BigInt::one() << (2 * LIMB_BITS);
    let k = k_min.div_ceil(&unit) * &unit;
    let kp = &k * &pb;
    let q_max = (&s_hi + &kp).div_floor(&pb);
    // The quotient's top limb must be one range row: widen its bound to the next size that
    // is (sound: Q is then range-checked to a larger power of two, covered by the CRT bound
    // below).
    let mut q_bits = q_max.bits().max(1) as u32;
    while q_bits > 2 * LIMB_BITS && !range.fits_one_row(q_bits - 2 * LIMB_BITS) {
        q_bits += 1;
    }
    assert!(
        q_bits <= LIMB_BITS * N as u32,
        "relation: quotient above 2^264: reduce the operands first"
    );
    let q_lim: [BigInt; N] = q_limb_bits(q_bits).map(|b| (BigInt::one() << b) - BigInt::one());
    // CRT bound: every witness in bounds gives |E| < 2^264·r.
    let crt = (BigInt::one() << (LIMB_BITS * N as u32)) * big(&modulus::<Native>());
    let e_hi = &s_hi + &kp;
    let e_lo = &s_lo + &kp - ((BigInt::one() << q_bits) - BigInt::one()) * &pb;
    assert!(
        e_hi.abs() < crt && e_lo.abs() < crt,
        "relation: operands too large for the CRT bound: reduce first"
    );
    // Limb-position ranges of e_k and the carries.
    let gam = signed_limbs(&rel.constant);
    let kl = to_limbs(&k.to_biguint().unwrap_or_default()).map(|x| big(&x));
    let pl = to_limbs(p).map(|x| big(&x));
    let lims = |x: Option<&CrtInt>| limb_max(x);
    let (b1, c1) = (lims(rel.b1), lims(rel.c1));
    let (a2, b2, c2) = (lims(rel.a2), lims(rel.b2), lims(rel.c2));
    let mut carries: Vec<(BigInt, BigInt)> = Vec::new();
    let (mut cl, mut ch) = (BigInt::zero(), BigInt::zero());
    let term_bound = BigInt::one() << 250;
    for kk in 0..N {
        let mut lo = &gam[kk] + &cl;
        let mut hi = &gam[kk] + &ch;
        for i in 0..=kk {
            let j = kk - i;
            let (l1, h1) = (-(&a1[i] * &c1[j]), &a1[i] * &b1[j]);
            let (l2, h2) = scaled(rel.alpha, &(-(&a2[i] * &c2[j])), &(&a2[i] * &b2[j]));
            // −(Q_i − K_i)·p_j with Q_i ∈ [0, q_lim_i].
            lo += l1 + l2 - (&q_lim[i] - &kl[i]) * &pl[j];
            hi += h1 + h2 + &kl[i] * &pl[j];
        }
        for (coef, x) in &rel.lin {
            let (l, h) = scaled(*coef, &BigInt::zero(), &lims(*x)[kk]);
            lo += l;
            hi += h;
        }
        let (l, h) = scaled(rel.nu(), &BigInt::zero(), &v_lim[kk]);
        lo += l;
        hi += h;
        assert!(
            lo.abs() < term_bound && hi.abs() < term_bound,
            "relation: limb terms too large"
        );
        cl = lo >> LIMB_BITS;
        ch = hi >> LIMB_BITS;
        let half = BigInt::one() << (CARRY_BITS - 1);
        assert!(
            cl >= -&half && ch < half,
            "relation: carry above 2^95: reduce the operands first"
        );
        carries.push((cl.clone(), ch.clone()));
    }
    assert!(
        rel.constant.magnitude().bits() < LIMB_BITS as u64,
        "relation: constant above 2^87"
    );
    RelationBounds {
        k: k.to_biguint().unwrap_or_default(),
        q_bits,
        carries: [carries[0].clone(), carries[1].clone(), carries[2].clone()],
    }
}

/// The limbs of a signed integer `|c| < 2^264`: `sign(c)·limbs(|c|)`.
fn signed_limbs(c: &BigInt) -> [BigInt; N] {
    let l = to_limbs(c.magnitude()).map(|x| big(&x));
    if c.is_negative() {
        l.map(|x| -x)
    } else {
        l
    }
}

/// A signed integer as a native field element.
fn native_signed(x: &BigInt) -> Native {
    let m = native(x.magnitude());
    if x.is_negative() {
        -m
    } else {
        m
    }
}

/// Bits of the three limbs of a quotient of `q_bits` bits.
fn q_limb_bits(q_bits: u32) -> [u32; N] {
    [0, 1, 2].map(|i| q_bits.saturating_sub(LIMB_BITS * i as u32).min(LIMB_BITS))
}

fn val(x: Option<&CrtInt>) -> BigInt {
    x.map_or_else(BigInt::zero, |c| big(&c.value))
}

fn limb_vals(x: Option<&CrtInt>) -> [BigInt; N] {
    match x {
        Some(c) => [0, 1, 2].map(|i| big(&fe_to_big(&c.limbs[i].value))),
        None => [0, 1, 2].map(|_| BigInt::zero()),
    }
}

/// `x mod m` in `[0, m)`.
fn modp(x: &BigInt, m: &BigInt) -> BigUint {
    x.mod_floor(m).to_biguint().unwrap_or_default()
}

impl<P: PrimeField> FieldChip<P> {
    /// Lays out the relation with its honest witness and returns the new value (if any).
    pub fn relation(&self, b: &mut Builder, rel: &Relation<'_>) -> Option<Proper<P>> {
        self.relation_with_witness(b, rel, None, None)
    }

    /// [`Self::relation`] with a caller-chosen new value and/or quotient (soundness tests):
    /// `q_forced` is the signed quotient `S/p` of the relation (the block stores `q + K`).
    /// Not for circuit code.
    #[doc(hidden)]
    pub(crate) fn relation_with_witness(
        &self,
        b: &mut Builder,
        rel: &Relation<'_>,
        v_forced: Option<BigUint>,
        q_forced: Option<BigInt>,
    ) -> Option<Proper<P>> {
        assert!(
            rel.new != NewValue::Factor || rel.a1.is_none(),
            "a factor relation has no first operand"
        );
        assert!(
            !rel.distinct || (self.mul_gate == 0 && rel.new == NewValue::Factor),
            "distinctness is proven by the factor blocks of modulus 0"
        );
        assert!(
            !rel.distinct
                || [rel.b1, rel.c1].iter().all(|x| match x {
                    Some(c) => c.max_value().bits() <= 256,
                    None => true,
                }),
            "distinct operands must be below 2^256"
        );
        let layout = rel;
        let bnd = bounds(rel, &self.p, &self.range);
        // The witness is computed from `rel`: the relation itself, or (adversarial prover,
        // tests only) the relation with substituted `B` operands whose differences the absent
        // `C` slots absorb (`fills`).
        #[cfg(not(feature = "testing"))]
        let fills = [None, None];
        #[cfg(feature = "testing")]
        let owned = adversary_operands(self.mul_gate, rel);
        #[cfg(feature = "testing")]
        let (wit, fills) = substituted(rel, &owned);
        #[cfg(feature = "testing")]
        let rel = &wit;
        let pb = big(&self.p);
        let d1 = val(rel.b1) - val(rel.c1);
        let rest = BigInt::from(rel.alpha) * val(rel.a2) * (val(rel.b2) - val(rel.c2))
            + rel
                .lin
                .iter()
                .map(|(c, x)| BigInt::from(*c) * val(*x))
                .sum::<BigInt>()
            + &rel.constant;
        // The honest new value.
        let v: Option<BigUint> = match rel.new {
            NewValue::None => None,
            NewValue::Remainder => Some(modp(&(val(rel.a1) * &d1 + &rest), &pb)),
            NewValue::Factor => {
                let den = modp(&d1, &pb);
                let inv = if den.is_zero() {
                    BigUint::zero()
                } else {
                    den.modpow(&(&self.p - 2u32), &self.p)
                };
                Some(modp(&(-(big(&inv) * &rest)), &pb))
            }
        };
        let v = v_forced.or(v).map(|x| {
            // A forced value must still fit the limbs the block range-checks.
            if x.bits() > 256 {
                BigUint::zero()
            } else {
                x
            }
        });
        let vi = v.as_ref().map_or_else(BigInt::zero, big);
        let a1v = if rel.new == NewValue::Factor {
            vi.clone()
        } else {
            val(rel.a1)
        };
        let s = &a1v * &d1 + &rest + BigInt::from(rel.nu()) * &vi;
        let q_signed = q_forced.unwrap_or_else(|| s.div_floor(&pb));
        let q = (q_signed + big(&bnd.k)).to_biguint().unwrap_or_default();
        // Honest carries: c_k = (e_k + c_(k−1)) / 2^88, with the signed quotient Q − K.
        let kl = to_limbs(&bnd.k).map(|x| big(&x));
        let ql: Vec<BigInt> = to_limbs(&q)
            .iter()
            .zip(kl.iter())
            .map(|(x, k)| big(x) - k)
            .collect();
        let pl = to_limbs(&self.p).map(|x| big(&x));
        let gl = signed_limbs(&rel.constant);
        let vl: [BigInt; N] = to_limbs(v.as_ref().unwrap_or(&BigUint::zero())).map(|x| big(&x));
        let a1l = if rel.new == NewValue::Factor {
            vl.clone()
        } else {
            limb_vals(rel.a1)
        };
        let (b1l, c1l) = (limb_vals(rel.b1), limb_vals(rel.c1));
        let (a2l, b2l, c2l) = (limb_vals(rel.a2), limb_vals(rel.b2), limb_vals(rel.c2));
        let ll = rel.lin.map(|(c, x)| (c, limb_vals(x)));
        let offset = BigInt::one() << (CARRY_BITS - 1);
        let mut carries = Vec::with_capacity(N);
        let mut c = BigInt::zero();
        for k in 0..N {
            let mut e = &gl[k] + &c + BigInt::from(rel.nu()) * &vl[k];
            for i in 0..=k {
                e += &a1l[i] * (&b1l[k - i] - &c1l[k - i]);
                e += BigInt::from(rel.alpha) * &a2l[i] * (&b2l[k - i] - &c2l[k - i]);
                e -= &ql[i] * &pl[k - i];
            }
            for (coef, l) in &ll {
                e += BigInt::from(*coef) * &l[k];
            }
            c = e >> LIMB_BITS; // floor; exact for an honest witness
                                // An out-of-range carry (dishonest or wrong witness) is stored clamped: the range
                                // check or the gate then fails.
            let stored = (&c + &offset).to_biguint().unwrap_or_default();
            let stored = if stored.bits() > CARRY_BITS as u64 {
                BigUint::zero()
            } else {
                stored
            };
            carries.push(stored);
        }
        self.lay_out_relation(b, layout, &bnd, &q, v.as_ref(), &carries, &fills)
    }

    #[allow(clippy::too_many_arguments)]
    fn lay_out_relation(
        &self,
        b: &mut Builder,
        rel: &Relation<'_>,
        bnd: &RelationBounds,
        q: &BigUint,
        v: Option<&BigUint>,
        carries: &[BigUint],
        fills: &[Option<[Native; N]>; 2],
    ) -> Option<Proper<P>> {
        // Absent operand slots that the gate reads are copies of the constant 0 (created
        // before the block opens, so the block's rows stay contiguous).
        let zero = pin_absent_slots().then(|| b.constant(Native::ZERO));
        let q_bits = q_limb_bits(bnd.q_bits);
        let ql = to_limbs(q);
        let mut heights = Vec::new();
        b.begin_block();
        let first = b.next_row();
        for (x, bits) in ql.iter().zip(q_bits) {
            // A forced quotient wider than its range is clamped so the builder never panics.
            let x = if x.bits() > bits as u64 {
                BigUint::zero()
            } else {
                x.clone()
            };
            heights.push(
                self.range
                    .range_rows(b, &x, self.range.main_chunks(bits))
                    .height,
            );
        }
        let v_cells: Option<[AssignedValue; N]> = match v {
            Some(v) => {
                let vl = to_limbs(v);
                Some([0, 1, 2].map(|i| {
                    let rr =
                        self.range
                            .range_rows(b, &vl[i], self.range.main_chunks(PROPER_BITS[i]));
                    heights.push(rr.height);
                    rr.x
                }))
            }
            None => {
                b.new_rows(N as u32);
                None
            }
        };
        for c in carries {
            heights.push(
                self.range
                    .range_rows(b, c, self.range.main_chunks(CARRY_BITS))
                    .height,
            );
        }
        b.end_block();
        assert!(
            heights.iter().all(|h| *h == 1),
            "limb range checks must fit in one row"
        );
        let kind = if rel.new == NewValue::Factor {
            RELATION_FACTOR.at(self.mul_gate)
        } else {
            RELATION.at(self.mul_gate)
        };
        b.enable(kind, first);
        let coef = |x: i64| -> Native {
            if x >= 0 {
                Native::from(x as u64)
            } else {
                -Native::from(x.unsigned_abs())
            }
        };
        for (f, x) in [(ALPHA, rel.alpha), (BETA, rel.lin[0].0), (MU, rel.lin[1].0)] {
            if x != 0 {
                b.set_fixed(f, first, coef(x));
            }
        }
        let kl = to_limbs(&bnd.k);
        debug_assert!(
            kl[0].is_zero() && kl[1].is_zero(),
            "K is a multiple of 2^176"
        );
        if !kl[N - 1].is_zero() {
            b.set_fixed(GAMMA, first + (N - 1) as u32, native(&kl[N - 1]));
        }
        if !rel.constant.is_zero() {
            b.set_fixed(GAMMA, first + 1, native_signed(&rel.constant));
        }
        let factor = rel.new == NewValue::Factor;
        let second = rel.alpha != 0;
        let slots: [OperandSlot<'_>; 8] = [
            (rel.a1, 1, 0, !factor, None),
            (rel.b1, 1, 1, true, None),
            (rel.c1, 1, 2, true, fills[0]),
            (rel.a2, 2, 0, second, None),
            (rel.b2, 2, 1, second, None),
            (rel.c2, 2, 2, second, fills[1]),
            (rel.lin[0].1, 3, 0, rel.lin[0].0 != 0, None),
            (rel.lin[1].1, 3, 1, rel.lin[1].0 != 0, None),
        ];
        for (x, col, g, read, fill) in slots {
            let row = |i: usize| first + (N * g + i) as u32;
            match x {
                Some(x) => {
                    for i in 0..N {
                        b.copy_of(&x.limbs[i], row(i), col);
                    }
                }
                None if read => {
                    for i in 0..N {
                        pin_zero(b, zero.as_ref(), row(i), col, fill.map(|f| f[i]));
                    }
                }
                None => {}
            }
        }
        // Without a new value, the `Relation` gate still subtracts the V rows (column 0, rows
        // 3–5).
        if rel.new == NewValue::None {
            for i in 0..N {
                pin_zero(b, zero.as_ref(), first + (N + i) as u32, 0, None);
            }
        }
        // The factor block of modulus 0 always carries the distinctness constraint (its W);
        // `rel.distinct` says the caller relies on it (and the operands are checked < 2^256).
        if rel.new == NewValue::Factor && self.mul_gate == 0 {
            let limb_values = |x: Option<&CrtInt>| -> [Native; N] {
                x.map_or([Native::ZERO; N], |c| c.limbs.map(|l| l.value))
            };
            // An adversarial fill of the absent C₁ slot (tests only) counts as written.
            let c1 = fills[0].unwrap_or_else(|| limb_values(rel.c1));
            let d = native_of_limbs(&limb_values(rel.b1)) - native_of_limbs(&c1);
            let pn = native(&self.p);
            let w = (d * (d - pn) * (d + pn)).invert().unwrap_or(Native::ZERO);
            b.assign(first, 1, w);
        }
        v_cells.map(|limbs| {
            Proper::wrap(CrtInt {
                limbs,
                value: v.cloned().unwrap_or_default(),
                max_limbs: proper_max(),
            })
        })
    }
}

/// `Σ lᵢ·2^(88 i)` in the native field: the value the gate's native equation sees.
fn native_of_limbs(limbs: &[Native; N]) -> Native {
    limbs.iter().enumerate().fold(Native::ZERO, |acc, (i, l)| {
        acc + *l * crate::bigint::pow2(LIMB_BITS * i as u32)
    })
}

/// One operand slot of the block: (operand, column, slot group, read by the gate, the
/// adversarial fill of an absent slot).
type OperandSlot<'a> = (Option<&'a CrtInt>, usize, usize, bool, Option<[Native; N]>);

/// Pins an absent operand cell that the gate reads: a copy of the constant-0 cell `zero`.
/// `fill` is the adversarial prover's value for it (tests only): written into the cell while
/// the copy constraint stays, so the permutation argument rejects it. With `zero = None` (the
/// unpinned layout of the adversary tests) the cell is left unassigned, or written with `fill`
/// and no constraint, as the layout before the fix allowed.
fn pin_zero(
    b: &mut Builder,
    zero: Option<&AssignedValue>,
    row: u32,
    col: usize,
    fill: Option<Native>,
) {
    match (zero, fill) {
        (Some(z), None) => {
            b.copy_of(z, row, col);
        }
        (Some(z), Some(f)) => {
            let c = b.assign(row, col, f);
            b.constrain_equal(z, &c);
        }
        (None, Some(f)) => {
            b.assign(row, col, f);
        }
        (None, None) => {}
    }
}

/// Whether absent operand slots are pinned: always, except in the adversary tests' unpinned
/// layout (the circuit before the fix).
fn pin_absent_slots() -> bool {
    #[cfg(feature = "testing")]
    {
        !crate::layout::adversary::unpinned()
    }
    #[cfg(not(feature = "testing"))]
    {
        true
    }
}

/// The adversary's substitute operands `(B₁′, B₂′)` for this block, as CRT integers on the
/// real operands' cells (only their values differ).
#[cfg(feature = "testing")]
fn adversary_operands(modulus: usize, rel: &Relation<'_>) -> [Option<CrtInt>; 2] {
    let sub = super::adversary::substitution(modulus, rel);
    let fake = |real: Option<&CrtInt>, c: Option<&CrtInt>, v: Option<BigUint>| {
        let v = v?;
        let real = real.expect("a substituted operand exists");
        assert!(
            c.is_none(),
            "the substitution attack needs an absent C slot"
        );
        let limbs = to_limbs(&v);
        let mut x = real.clone();
        for (cell, l) in x.limbs.iter_mut().zip(limbs.iter()) {
            cell.value = native(l);
        }
        x.value = v;
        Some(x)
    };
    [fake(rel.b1, rel.c1, sub.b1), fake(rel.b2, rel.c2, sub.b2)]
}

/// The relation with the substitute operands, and the values `B − B′` (limb-wise, native)
/// the absent `C` slots get.
#[cfg(feature = "testing")]
fn substituted<'a>(
    rel: &Relation<'a>,
    owned: &'a [Option<CrtInt>; 2],
) -> (Relation<'a>, [Option<[Native; N]>; 2]) {
    let mut w = rel.clone();
    let diff = |real: Option<&CrtInt>, fake: &CrtInt| -> [Native; N] {
        let real = real.expect("a substituted operand exists");
        [0, 1, 2].map(|i| real.limbs[i].value - fake.limbs[i].value)
    };
    let mut fills = [None, None];
    if let Some(f) = &owned[0] {
        fills[0] = Some(diff(rel.b1, f));
        w.b1 = Some(f);
    }
    if let Some(f) = &owned[1] {
        fills[1] = Some(diff(rel.b2, f));
        w.b2 = Some(f);
    }
    (w, fills)
}
