//! The batch challenges inside the circuit: the proof system's challenges (drawn after the
//! first-phase advice is committed) pinned to cells, cut into short odd coefficients
//! (the default, [`cut_challenge`]), or one of them as a canonical `Fq` scalar `t` and its
//! powers `tⁱ` ([`load_challenge_scalar`], [`powers`]).
//!
//! **Binding to the transcript.** [`load_challenge_scalar`] puts one cell under the
//! `Challenge` gate (`x0 = c`, see `config::configure_challenge_gate`), so that cell *is* the
//! challenge `c ∈ Fr` of the proof system, not a witness. `t` is then loaded as three limbs
//! (88/88/80 bits, range-checked, proven `< n`: a [`Reduced<Fq>`]) and bound to that cell by
//! the native linear relation `l₀ + 2^88·l₁ + 2^176·l₂ = c` (two lin rows and a copy).
//!
//! **Which integer is t.** The limbs give an integer `T ∈ [0, n)` with `T ≡ c (mod r)`
//! (`r` the BN254 scalar modulus ≈ 2^253.6, `n` ≈ 2^256). Since `n < 6r`, at most six integers
//! qualify: `T = c + k·r`, `k ∈ {0, …, 5}`. The honest prover uses `k = 0`; a dishonest one may
//! pick another `k`. We do not prove `T < r`; instead the error bound of the batch argument
//! (see [`super::batch`]) is multiplied by 6: for each fixed `k` the map `c ↦ c + k·r mod n` is
//! injective on `[0, r)`, so at most `B − 1` challenges `c` make `T` a root of the non-zero
//! degree-`(B−1)` error polynomial, and at most `6(B − 1)` over all `k`.

use ff::{Field, PrimeField};
use halo2curves::secp256k1::Fq;

use num_bigint::BigUint;

use crate::bigint::{big_to_fe, fe_to_big, pow2};
use crate::config::CHALLENGE;
use crate::ecc::{odd_windows_short, ScalarWindow};
use crate::field::params::LIMB_BITS;
use crate::field::{CrtInt, FieldChip, Overflowing, Reduced};
use crate::layout::{AssignedValue, Builder, Native, CHALLENGES_PER_GATE, MAIN_COLS};

/// How many integers in `[0, n)` share one residue mod r (`⌈n / r⌉`): the factor on the error
/// bound that comes from not proving `T < r` (see the module doc).
pub const CHALLENGE_REPRESENTATIVES: u64 = 6;

/// The challenge cell and its value as a canonical scalar.
#[derive(Clone, Debug)]
pub struct ChallengeScalar {
    /// `t` as a canonical `Fq` scalar whose limbs recompose to the cell under the `Challenge`
    /// gate (which equals the proof system's challenge) mod r.
    pub(crate) t: Reduced<Fq>,
}

/// Loads the challenge `c` (the value read from `layouter.get_challenge`; any value while the
/// challenge is unknown, e.g. at keygen, since the layout does not depend on it) into a
/// later-phase builder and returns it as a canonical `Fq` scalar. Panics if `b` is a
/// first-phase builder (a construction error: no challenge exists there).
pub(crate) fn load_challenge_scalar(
    fq: &FieldChip<Fq>,
    b: &mut Builder,
    c: Native,
) -> ChallengeScalar {
    assert!(
        b.phase >= 1,
        "the challenge is only usable in a later phase"
    );
    let cell = load_challenge_cells(b, &[c])[0];
    // c < r < n, so the integer value of c is already a canonical Fq element.
    let t = fq.load_reduced(b, big_to_fe::<Fq>(&fe_to_big(&c)));
    let l = t.limbs();
    let one = Native::ONE;
    let lo = fq.range.weighted_sum(b, &l[0], one, &l[1], pow2(LIMB_BITS));
    let all = fq
        .range
        .weighted_sum(b, &lo, one, &l[2], pow2(2 * LIMB_BITS));
    b.constrain_equal(&all, &cell);
    ChallengeScalar { t }
}

/// The cells of the challenges `cs` (values read from `layouter.get_challenge`; any values
/// while they are unknown): challenge `j` at main column `j mod 4`, `j / 4` rows below the row
/// of its `Challenge(j / 16)` gate, on lane 0, so each cell equals the proof system's j-th
/// challenge. Panics if `b` is a first-phase builder (a construction error).
pub(crate) fn load_challenge_cells(b: &mut Builder, cs: &[Native]) -> Vec<AssignedValue> {
    assert!(
        b.phase >= 1,
        "the challenges are only usable in a later phase"
    );
    let mut out = Vec::with_capacity(cs.len());
    for (k, block) in cs.chunks(CHALLENGES_PER_GATE).enumerate() {
        let rows = block.len().div_ceil(MAIN_COLS) as u32;
        let row = b.new_rows_in_lane(0, rows);
        b.enable(CHALLENGE.at(k), row);
        for (j, c) in block.iter().enumerate() {
            out.push(b.assign(row + (j / MAIN_COLS) as u32, j % MAIN_COLS, *c));
        }
    }
    out
}

/// Bits of each half cut from a challenge: `lo = c mod 2^127`, `hi = ⌊c / 2^127⌋ < 2^126.6`.
pub const COEF_BITS: u32 = 127;

/// A short odd batch coefficient `z = 2·lo + 1` with `lo < 2^127`: the cell of `lo`, the
/// signed-odd windows of `z` (which prove `lo < 2^127`) and `z` as an `Fq` operand (limbs
/// `2·l₀ + 1`, `2·l₁`, 0 of `lo = l₀ + 2^88·l₁`, exactly the integer z).
#[derive(Clone, Debug)]
pub struct ShortCoefficient {
    pub(crate) cell: AssignedValue,
    pub(crate) windows: Vec<ScalarWindow>,
    pub(crate) scalar: Overflowing<Fq>,
}

impl ShortCoefficient {
    /// The signed-odd windows of `z`.
    pub fn windows(&self) -> &[ScalarWindow] {
        &self.windows
    }

    /// `z` as an `Fq` operand.
    pub fn scalar(&self) -> &Overflowing<Fq> {
        &self.scalar
    }
}

/// `z = 2·x + 1` (for the cell `x`, proven `< 2^bits` elsewhere, `88 < bits ≤ 127`) as an `Fq`
/// operand: limbs `l₀ < 2^88` and `l₁ < 2^(bits−88)` range-checked with `l₀ + 2^88·l₁ = x`
/// natively (the integer `l₀ + 2^88·l₁ < 2^127 < r` equals `x`, both `< r` and equal mod r),
/// then the limbs `2·l₀ + 1`, `2·l₁` and the constant 0: exactly the integer z (`< 2^128 < n`).
fn odd_scalar(
    fq: &FieldChip<Fq>,
    b: &mut Builder,
    x: &AssignedValue,
    bits: u32,
) -> Overflowing<Fq> {
    let v = fe_to_big(&x.value);
    let mask = (BigUint::from(1u8) << LIMB_BITS) - 1u32;
    let l0 = fq
        .range
        .load_checked(b, big_to_fe::<Native>(&(&v & &mask)), LIMB_BITS);
    let l1 = fq
        .range
        .load_checked(b, big_to_fe::<Native>(&(&v >> LIMB_BITS)), bits - LIMB_BITS);
    let (one, zero) = (Native::ONE, Native::ZERO);
    let sum = fq.range.weighted_sum(b, &l0, one, &l1, pow2(LIMB_BITS));
    b.constrain_equal(&sum, x);
    let two = Native::from(2u64);
    let z0 = fq
        .range
        .linear_row(b, Some(&l0), None, two, zero, zero, one);
    let z1 = fq
        .range
        .linear_row(b, Some(&l1), None, two, zero, zero, zero);
    let z2 = b.constant(zero);
    let one_b = BigUint::from(1u8);
    let z = BigUint::from(2u8) * &v + 1u32;
    Overflowing::wrap(CrtInt {
        limbs: [z0, z1, z2],
        value: z,
        max_limbs: [
            (&one_b << (LIMB_BITS + 1)) - 1u32,
            (&one_b << (bits - LIMB_BITS + 1)) - 2u32,
            BigUint::from(0u8),
        ],
    })
}

/// A free cell `lo < 2^bits` with the windows and operand of `z = 2·lo + 1` (the windows'
/// range rows prove the bound).
fn short_coefficient(
    fq: &FieldChip<Fq>,
    b: &mut Builder,
    v: &BigUint,
    bits: u32,
) -> ShortCoefficient {
    let cell = fq.range.load_witness(b, big_to_fe::<Native>(v));
    let windows = odd_windows_short(fq, b, &cell, bits);
    let scalar = odd_scalar(fq, b, &cell, bits);
    ShortCoefficient {
        cell,
        windows,
        scalar,
    }
}

/// The two short coefficients `2·lo + 1`, `2·hi + 1` cut from a challenge cell `c` (see
/// [`super::batch`] for the soundness argument): `lo = c mod 2^127`, `hi = ⌊c / 2^127⌋`, as the
/// **canonical** cut: `lo, hi < 2^127` (their windows), `lo + 2^127·hi = c` natively, and
/// `lo + 2^127·hi ≤ r − 1` as integers: with `r − 1 = r_hi·2^127 + r_lo'` (`r_lo' < 2^127`) and
/// a borrow bit β, `d_lo = r_lo' − lo + β·2^127 ∈ [0, 2^127)` and
/// `d_hi = r_hi − hi − β ∈ [0, 2^127)` (range-checked), whose sum
/// `d_lo + 2^127·d_hi = r − 1 − (lo + 2^127·hi) ≥ 0`. Each `d` is the exact integer
/// (`|value| < 2^129 ≪ r`), so the integer `lo + 2^127·hi` lies in `[0, r)` and equals `c`: the
/// prover has no choice of `(lo, hi)`.
pub fn cut_challenge(
    fq: &FieldChip<Fq>,
    b: &mut Builder,
    c: &AssignedValue,
) -> [ShortCoefficient; 2] {
    let cv = fe_to_big(&c.value);
    let one = BigUint::from(1u8);
    let lo_v = &cv & ((&one << COEF_BITS) - 1u32);
    let hi_v = &cv >> COEF_BITS;
    cut_challenge_as(fq, b, c, &lo_v, &hi_v)
}

/// [`cut_challenge`] with caller-chosen witnesses `lo`, `hi` (soundness tests: e.g. the cut of
/// `c + r`, which must be rejected). Not for circuit code.
#[doc(hidden)]
pub fn cut_challenge_as(
    fq: &FieldChip<Fq>,
    b: &mut Builder,
    c: &AssignedValue,
    lo_v: &BigUint,
    hi_v: &BigUint,
) -> [ShortCoefficient; 2] {
    let one = BigUint::from(1u8);
    let lo = short_coefficient(fq, b, lo_v, COEF_BITS);
    let hi = short_coefficient(fq, b, hi_v, COEF_BITS);
    let (zero, one_n) = (Native::ZERO, Native::ONE);
    let sum = fq
        .range
        .weighted_sum(b, &lo.cell, one_n, &hi.cell, pow2(COEF_BITS));
    b.constrain_equal(&sum, c);
    let rm1 = crate::bigint::modulus::<Native>() - 1u32;
    let r_lo = &rm1 & ((&one << COEF_BITS) - 1u32);
    let r_hi = &rm1 >> COEF_BITS;
    let borrow = *lo_v > r_lo;
    let beta = fq.range.load_bit(b, borrow);
    let d_lo = fq.range.linear_row(
        b,
        Some(&lo.cell),
        Some(beta.cell()),
        -one_n,
        pow2(COEF_BITS),
        zero,
        big_to_fe::<Native>(&r_lo),
    );
    fq.range.range_check(b, &d_lo, COEF_BITS);
    let d_hi = fq.range.linear_row(
        b,
        Some(&hi.cell),
        Some(beta.cell()),
        -one_n,
        -one_n,
        zero,
        big_to_fe::<Native>(&r_hi),
    );
    fq.range.range_check(b, &d_hi, COEF_BITS);
    [lo, hi]
}

/// The coefficient 1 of the first signature: `lo = 0` (a constant cell), one window of index 8
/// (digit +1), and the constant 1.
pub(crate) fn unit_coefficient(fq: &FieldChip<Fq>, b: &mut Builder) -> ShortCoefficient {
    let cell = b.constant(Native::ZERO);
    let windows = odd_windows_short(fq, b, &cell, 3);
    let scalar = fq.load_constant(b, Fq::ONE).into();
    ShortCoefficient {
        cell,
        windows,
        scalar,
    }
}

/// The short coefficients natively, in circuit order: `z₀ = 1`, then `2·lo + 1`, `2·hi + 1` of
/// each challenge (`lo = c mod 2^127`, `hi = ⌊c / 2^127⌋`), truncated to `count`.
pub(crate) fn short_coefficients_native(challenges: &[Native], count: usize) -> Vec<Fq> {
    let mut out = vec![Fq::ONE];
    for c in challenges {
        let v = fe_to_big(c);
        let lo = &v & ((BigUint::from(1u8) << COEF_BITS) - 1u32);
        let hi = &v >> COEF_BITS;
        for h in [lo, hi] {
            out.push(big_to_fe::<Fq>(&(BigUint::from(2u8) * h + 1u32)));
        }
    }
    out.truncate(count);
    out
}

/// Challenges a batch of `b` signatures needs: two coefficients per challenge after `z₀ = 1`.
pub(crate) fn challenges_for(b: usize) -> usize {
    b.saturating_sub(1).div_ceil(2).max(1)
}

/// `1, t, t², …, t^(count−1)` as canonical scalars (`count − 2` mul blocks, each proven `< n`).
pub fn powers(
    fq: &FieldChip<Fq>,
    b: &mut Builder,
    t: &Reduced<Fq>,
    count: usize,
) -> Vec<Reduced<Fq>> {
    let mut out = Vec::with_capacity(count);
    if count == 0 {
        return out;
    }
    out.push(fq.load_constant(b, Fq::ONE));
    for i in 1..count {
        let next = if i == 1 {
            t.clone()
        } else {
            let m = fq.mul(b, &out[i - 1], t);
            fq.assert_canonical(b, &m)
        };
        out.push(next);
    }
    out
}

/// The native value of the challenge `c` as the `Fq` scalar the circuit uses (`T = c`, the
/// honest representative; tests).
pub(crate) fn challenge_as_scalar(c: Native) -> Fq {
    let mut le = [0u8; 64];
    le[..32].copy_from_slice(c.to_repr().as_ref());
    <Fq as ff::FromUniformBytes<64>>::from_uniform_bytes(&le)
}
