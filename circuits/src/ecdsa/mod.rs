//! ECDSA verification circuits over the field and curve chips.
//!
//! * [`scalar`]: the scalar side: `1 ≤ s < n`, `u = h/s`, `v = r/s` with a divisor proven
//!   non-zero, and `r = x(R) mod n ≠ 0` bound to the canonical `x(R)` (with `x ∈ [n, p)`).
//! * [`instance`]: the public inputs (per signature `h` and `Q`, packed into 3 field
//!   elements: [`INSTANCE_CELLS_PER_SIGNATURE`]).
//! * [`witness`]: the per-signature witness (R, s private; h, Q public).
//! * [`naive`]: one verification per signature; [`batch`]: one random linear combination of
//!   all of them with the challenge `t` of [`challenge`].
//!
//! The statement, per signature i (ECDSA*, SEC 1 §4.1.4 with the nonce point R given):
//! `Qᵢ`, `Rᵢ` on the curve (affine, so never the identity), `1 ≤ sᵢ < n`,
//! `rᵢ = x(Rᵢ) mod n ≠ 0`, and `Rᵢ = uᵢ·G + vᵢ·Qᵢ` with `uᵢ = hᵢ/sᵢ`, `vᵢ = rᵢ/sᵢ` (mod n).
//! This is exactly ECDSA validity of `(rᵢ, sᵢ)` on `hᵢ` under `Qᵢ`: ECDSA accepts iff the point
//! `u·G + v·Q` is not the identity and its x mod n equals r, and that point is the R proven here.

pub mod batch;
pub mod challenge;
pub mod digest;
pub mod instance;
pub mod naive;
pub mod scalar;
pub mod witness;

pub use batch::{BatchConfig, BatchEcdsaCircuit};
pub use digest::{Statement, DIGEST_INSTANCE_CELLS};
pub use instance::{batch_instance, INSTANCE_CELLS_PER_SIGNATURE};
pub use naive::{NaiveConfig, NaiveEcdsaCircuit};
pub use scalar::NonZeroScalar;
pub use witness::{RawWitness, SignatureWitness, WitnessError};

/// The loaded values of one signature, each proven where it is loaded: `Q`, `R` canonical and
/// on the curve, `h` proper (canonical under [`Statement::Keys`], whose instance names `h`
/// mod n; under [`Statement::Digest`] the 256-bit signing hash itself, used only mod n),
/// `1 ≤ s < n`.
pub(crate) struct LoadedSignature {
    pub q: crate::ecc::AssignedPoint,
    pub r_point: crate::ecc::AssignedPoint,
    pub h: crate::field::Proper<halo2curves::secp256k1::Fq>,
    pub s: NonZeroScalar,
}

/// Loads `Q`, `R`, `h`, `s` of `w` (in this order, as both circuits lay them out); `h` is
/// `w.h` proven canonical for [`Statement::Keys`], the signing hash `w.hash` (limbs
/// range-checked) for [`Statement::Digest`]. Never panics on witness values:
/// `SignatureWitness` guarantees values < 2^256, so the loads cannot fail; their fallback
/// (load n, which is not canonical) keeps the builder panic-free regardless and makes the
/// keys circuit unsatisfiable (the digest circuit's commitments differ from it).
pub(crate) fn load_signature(
    ecc: &crate::ecc::EccChip,
    b: &mut crate::layout::Builder,
    w: &SignatureWitness,
    statement: Statement,
) -> LoadedSignature {
    let fq = &ecc.fq;
    let q = ecc.load_point_xy(b, &w.q().0, &w.q().1);
    let r_point = ecc.load_point_xy(b, &w.r_point().0, &w.r_point().1);
    let n = crate::bigint::modulus::<halo2curves::secp256k1::Fq>();
    let h: crate::field::Proper<_> = match statement {
        Statement::Keys => scalar::load_canonical_scalar(fq, b, w.h())
            .unwrap_or_else(|_| scalar::load_canonical_scalar(fq, b, &n).expect("n < 2^256"))
            .into(),
        Statement::Digest => fq
            .load_uint(b, w.hash())
            .unwrap_or_else(|_| fq.load_uint(b, &n).expect("n < 2^256")),
    };
    let s = scalar::load_signature_scalar(fq, b, w.s())
        .unwrap_or_else(|_| scalar::load_signature_scalar(fq, b, &n).expect("n < 2^256"));
    LoadedSignature { q, r_point, h, s }
}
