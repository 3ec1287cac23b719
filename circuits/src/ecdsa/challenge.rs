//! The batch challenge `t` inside the circuit: the proof system's challenge (drawn after the
//! first-phase advice is committed) as a canonical `Fq` scalar, and its powers `tⁱ`.
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
use crate::ecc::{native_windows, ScalarWindow};
use crate::field::params::LIMB_BITS;
use crate::field::{CrtInt, FieldChip, Reduced};
use crate::layout::{AssignedValue, Builder, GateKind, Native};

/// How many integers in `[0, n)` share one residue mod r (`⌈n / r⌉`): the factor on the error
/// bound that comes from not proving `T < r` (see the module doc).
pub const CHALLENGE_REPRESENTATIVES: u64 = 6;

/// The challenge cell and its value as a canonical scalar.
#[derive(Clone, Debug)]
pub struct ChallengeScalar {
    /// The cell under the `Challenge` gate (equals the proof system's challenge).
    pub cell: AssignedValue,
    /// `t` as a canonical `Fq` scalar whose limbs recompose to `cell` mod r.
    pub t: Reduced<Fq>,
}

/// Loads the challenge `c` (the value read from `layouter.get_challenge`; any value while the
/// challenge is unknown, e.g. at keygen, since the layout does not depend on it) into a
/// later-phase builder and returns it as a canonical `Fq` scalar. Panics if `b` is a
/// first-phase builder (a construction error: no challenge exists there).
pub fn load_challenge_scalar(fq: &FieldChip<Fq>, b: &mut Builder, c: Native) -> ChallengeScalar {
    assert!(
        b.phase >= 1,
        "the challenge is only usable in a later phase"
    );
    let cell = load_challenge_cell(b, 0, c);
    // c < r < n, so the integer value of c is already a canonical Fq element.
    let t = fq.load_reduced(b, big_to_fe::<Fq>(&fe_to_big(&c)));
    let l = t.limbs();
    let (one, zero) = (Native::ONE, Native::ZERO);
    let lo = fq.range.lin(
        b,
        Some(&l[0]),
        Some(&l[1]),
        one,
        pow2(LIMB_BITS),
        zero,
        zero,
    );
    let all = fq.range.lin(
        b,
        Some(&lo),
        Some(&l[2]),
        one,
        pow2(2 * LIMB_BITS),
        zero,
        zero,
    );
    b.constrain_equal(&all, &cell);
    ChallengeScalar { cell, t }
}

/// The cell of challenge `j` (value `c`, any value while it is unknown): one row on lane 0
/// under the `Challenge(j)` gate, so the cell equals the proof system's j-th challenge. Panics
/// if `b` is a first-phase builder (a construction error).
pub fn load_challenge_cell(b: &mut Builder, j: usize, c: Native) -> AssignedValue {
    assert!(
        b.phase >= 1,
        "the challenge is only usable in a later phase"
    );
    let row = b.new_rows_in_lane(0, 1);
    b.enable(GateKind::Challenge(j), row);
    b.assign(row, 0, c)
}

/// Bits of the low coefficient cut from a challenge (`c mod 2^126`).
pub const COEF_LO_BITS: u32 = 126;
/// Bits of the high coefficient cut from a challenge (`⌊c / 2^126⌋ < 2^127.6`).
pub const COEF_HI_BITS: u32 = 128;

/// A short batch coefficient `z < 2^bits` (`bits ≤ 128`): its native cell, its `w`-bit windows
/// (which prove `z < 2^bits`) and `z` as a canonical `Fq` scalar equal to the same integer.
#[derive(Clone, Debug)]
pub struct ShortCoefficient {
    pub cell: AssignedValue,
    pub bits: u32,
    pub windows: Vec<ScalarWindow>,
    pub scalar: Reduced<Fq>,
}

/// `z` (the cell `x`, already proven `< 2^bits`, `88 < bits ≤ 128`) as a canonical `Fq`
/// scalar: limbs `l₀ < 2^88` and `l₁ < 2^(bits−88)` range-checked, `l₂` the constant 0, and
/// `l₀ + 2^88·l₁ = x` natively. The integer `l₀ + 2^88·l₁ < 2^128 < r` equals `x` (both are
/// `< r` and agree mod r), so the scalar is exactly `z` (and `< n`).
fn short_scalar(fq: &FieldChip<Fq>, b: &mut Builder, x: &AssignedValue, bits: u32) -> Reduced<Fq> {
    let v = fe_to_big(&x.value);
    let mask = (BigUint::from(1u8) << LIMB_BITS) - 1u32;
    let l0 = fq
        .range
        .load_checked(b, big_to_fe::<Native>(&(&v & &mask)), LIMB_BITS);
    let l1 = fq
        .range
        .load_checked(b, big_to_fe::<Native>(&(&v >> LIMB_BITS)), bits - LIMB_BITS);
    let sum = fq.range.lin(
        b,
        Some(&l0),
        Some(&l1),
        Native::ONE,
        pow2(LIMB_BITS),
        Native::ZERO,
        Native::ZERO,
    );
    b.constrain_equal(&sum, x);
    let l2 = b.constant(Native::ZERO);
    let one = BigUint::from(1u8);
    Reduced::wrap(CrtInt {
        limbs: [l0, l1, l2],
        value: v,
        max_limbs: [
            (&one << LIMB_BITS) - 1u32,
            (&one << (bits - LIMB_BITS)) - 1u32,
            BigUint::from(0u8),
        ],
    })
}

/// A free cell `< 2^bits` with its windows and scalar (the windows' range rows prove the bound).
fn short_coefficient(
    fq: &FieldChip<Fq>,
    b: &mut Builder,
    v: &BigUint,
    bits: u32,
    w: u32,
) -> ShortCoefficient {
    let cell = fq.range.load_witness(b, big_to_fe::<Native>(v));
    let windows = native_windows(fq, b, &cell, bits, w);
    let scalar = short_scalar(fq, b, &cell, bits);
    ShortCoefficient {
        cell,
        bits,
        windows,
        scalar,
    }
}

/// The two short coefficients cut from a challenge cell `c` (see [`super::batch`] for the
/// soundness argument): `lo = c mod 2^126`, `hi = ⌊c / 2^126⌋`, as the **canonical** cut:
/// `lo < 2^126` and `hi < 2^128` (their windows), `lo + 2^126·hi = c` natively, and
/// `lo + 2^126·hi ≤ r − 1` as integers: with `r − 1 = r_hi·2^126 + r_lo'` (`r_lo' < 2^126`) and a
/// borrow bit β, `d_lo = r_lo' − lo + β·2^126 ∈ [0, 2^126)` and `d_hi = r_hi − hi − β ∈ [0, 2^128)`
/// (range-checked), whose sum `d_lo + 2^126·d_hi = r − 1 − (lo + 2^126·hi) ≥ 0`. Each `d` is the
/// exact integer (|value| < 2^129 ≪ r), so the integer `lo + 2^126·hi` lies in `[0, r)` and
/// equals `c`: the prover has no choice of `(lo, hi)`.
pub fn cut_challenge(
    fq: &FieldChip<Fq>,
    b: &mut Builder,
    c: &AssignedValue,
    w: u32,
) -> [ShortCoefficient; 2] {
    let cv = fe_to_big(&c.value);
    let one = BigUint::from(1u8);
    let lo_v = &cv & ((&one << COEF_LO_BITS) - 1u32);
    let hi_v = &cv >> COEF_LO_BITS;
    cut_challenge_as(fq, b, c, w, &lo_v, &hi_v)
}

/// [`cut_challenge`] with caller-chosen witnesses `lo`, `hi` (soundness tests: e.g. the cut of
/// `c + r`, which must be rejected). Not for circuit code.
#[doc(hidden)]
pub fn cut_challenge_as(
    fq: &FieldChip<Fq>,
    b: &mut Builder,
    c: &AssignedValue,
    w: u32,
    lo_v: &BigUint,
    hi_v: &BigUint,
) -> [ShortCoefficient; 2] {
    let one = BigUint::from(1u8);
    let lo = short_coefficient(fq, b, lo_v, COEF_LO_BITS, w);
    let hi = short_coefficient(fq, b, hi_v, COEF_HI_BITS, w);
    let (zero, one_n) = (Native::ZERO, Native::ONE);
    let sum = fq.range.lin(
        b,
        Some(&lo.cell),
        Some(&hi.cell),
        one_n,
        pow2(COEF_LO_BITS),
        zero,
        zero,
    );
    b.constrain_equal(&sum, c);
    let rm1 = crate::bigint::modulus::<Native>() - 1u32;
    let r_lo = &rm1 & ((&one << COEF_LO_BITS) - 1u32);
    let r_hi = &rm1 >> COEF_LO_BITS;
    let borrow = *lo_v > r_lo;
    let beta = fq.range.load_bit(b, borrow);
    let d_lo = fq.range.lin(
        b,
        Some(&lo.cell),
        Some(beta.cell()),
        -one_n,
        pow2(COEF_LO_BITS),
        zero,
        big_to_fe::<Native>(&r_lo),
    );
    fq.range.range_check(b, &d_lo, COEF_LO_BITS);
    let d_hi = fq.range.lin(
        b,
        Some(&hi.cell),
        Some(beta.cell()),
        -one_n,
        -one_n,
        zero,
        big_to_fe::<Native>(&r_hi),
    );
    fq.range.range_check(b, &d_hi, COEF_HI_BITS);
    [lo, hi]
}

/// The coefficient 1 (of the first signature) as a short coefficient: one 1-bit window.
pub fn unit_coefficient(fq: &FieldChip<Fq>, b: &mut Builder, w: u32) -> ShortCoefficient {
    let cell = b.constant(Native::ONE);
    let windows = native_windows(fq, b, &cell, 1, w);
    let scalar = fq.load_constant(b, Fq::ONE);
    ShortCoefficient {
        cell,
        bits: 1,
        windows,
        scalar,
    }
}

/// The batch coefficients natively, as the circuit derives them from the challenges:
/// `z₀ = 1`, then `lo(c₀), hi(c₀), lo(c₁), …` (first `count`).
pub fn short_coefficients_native(challenges: &[Native], count: usize) -> Vec<Fq> {
    let mut out = vec![Fq::ONE];
    for c in challenges {
        let v = fe_to_big(c);
        out.push(big_to_fe::<Fq>(
            &(&v & ((BigUint::from(1u8) << COEF_LO_BITS) - 1u32)),
        ));
        out.push(big_to_fe::<Fq>(&(&v >> COEF_LO_BITS)));
    }
    out.truncate(count);
    out
}

/// Challenges needed for `b` signatures with short coefficients: two coefficients per
/// challenge, the first signature's coefficient is 1 (at least one challenge).
pub fn challenges_for(b: usize) -> usize {
    b.saturating_sub(1).div_ceil(2).max(1)
}

/// `[1, t, t², …, t^(count−1)]` as canonical scalars: `t⁰` is the constant 1 (fixed), each
/// further power one multiplication and one canonicalisation (93 cells).
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

/// The native value of a challenge as an `Fq` scalar (its integer value, `< r < n`).
pub fn challenge_as_scalar(c: Native) -> Fq {
    let mut le = [0u8; 64];
    le[..32].copy_from_slice(c.to_repr().as_ref());
    <Fq as ff::FromUniformBytes<64>>::from_uniform_bytes(&le)
}
