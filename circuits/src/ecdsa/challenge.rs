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

use crate::bigint::{big_to_fe, fe_to_big, pow2};
use crate::field::params::LIMB_BITS;
use crate::field::{FieldChip, Reduced};
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
    let row = b.new_rows(1);
    b.enable(GateKind::Challenge, row);
    let cell = b.assign(row, 0, c);
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
