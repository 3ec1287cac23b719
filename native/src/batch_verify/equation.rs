//! Structural checks and the batch equation (see the module documentation of `batch`).

use super::challenge::{batch_challenge, fp_to_fq_reduced};
use super::{BatchError, BatchItem};
use crate::msm::point::Affine;
use crate::msm::{msm_internal, mul_generator_internal};
use ff::Field;
use halo2curves::secp256k1::{Fq, Secp256k1Affine};
use halo2curves::CurveAffine;
use rayon::prelude::*;

/// Batches at least this large do their per-item work on several threads.
const PARALLEL_MIN_ITEMS: usize = 64;

fn is_identity(p: &Secp256k1Affine) -> bool {
    // halo2curves writes the affine identity as (0, 0), which is not a curve point.
    p.x.is_zero_vartime() && p.y.is_zero_vartime()
}

/// Checks one item's structure; on success returns `r = x(R) mod n`.
pub(crate) fn check_item(index: usize, item: &BatchItem) -> Result<Fq, BatchError> {
    if is_identity(&item.r_point) {
        return Err(BatchError::NonceIsIdentity { index });
    }
    if !bool::from(item.r_point.is_on_curve()) {
        return Err(BatchError::NonceNotOnCurve { index });
    }
    if is_identity(&item.q) {
        return Err(BatchError::KeyIsIdentity { index });
    }
    if !bool::from(item.q.is_on_curve()) {
        return Err(BatchError::KeyNotOnCurve { index });
    }
    if item.s.is_zero_vartime() {
        return Err(BatchError::ZeroS { index });
    }
    let r = fp_to_fq_reduced(&item.r_point.x);
    if r.is_zero_vartime() {
        return Err(BatchError::ZeroR { index });
    }
    Ok(r)
}

/// Structural checks on every item; returns every `r_i`, or the error of the first bad item.
pub(crate) fn check_structure(items: &[BatchItem]) -> Result<Vec<Fq>, BatchError> {
    if items.len() >= PARALLEL_MIN_ITEMS {
        items
            .par_iter()
            .enumerate()
            .map(|(i, item)| check_item(i, item))
            .collect()
    } else {
        items
            .iter()
            .enumerate()
            .map(|(i, item)| check_item(i, item))
            .collect()
    }
}

/// Montgomery's trick on scalars: every element must be non-zero (checked by the caller).
fn batch_invert_fq(values: &mut [Fq]) {
    let mut prefix = Vec::with_capacity(values.len());
    let mut acc = Fq::ONE;
    for v in values.iter() {
        prefix.push(acc);
        acc *= v;
    }
    let mut inv = acc.invert().unwrap_or(Fq::ZERO);
    for (v, before) in values.iter_mut().zip(prefix).rev() {
        let next = inv * *v;
        *v = inv * before;
        inv = next;
    }
}

/// Evaluates `Σ t^i R_i − Σ (t^i r_i/s_i) Q_i − (Σ t^i h_i/s_i) G == O` for structurally
/// checked items (`r_values[i] = x(R_i) mod n`, every `s_i != 0`), with `t` hashed over
/// exactly these items.
pub(crate) fn batch_equation_holds(items: &[BatchItem], r_values: &[Fq]) -> bool {
    let b = items.len();
    if b == 0 {
        return true;
    }
    let t = batch_challenge(items);

    let mut s_inv: Vec<Fq> = items.iter().map(|it| it.s).collect();
    batch_invert_fq(&mut s_inv);
    let mut powers = Vec::with_capacity(b);
    let mut acc = Fq::ONE;
    for _ in 0..b {
        powers.push(acc);
        acc *= t;
    }

    // Per item: (t^i, −t^i r_i / s_i, t^i h_i / s_i).
    let per_item = |i: usize| {
        let ti_over_s = powers[i] * s_inv[i];
        (
            powers[i],
            -(ti_over_s * r_values[i]),
            ti_over_s * items[i].h,
        )
    };
    let terms: Vec<(Fq, Fq, Fq)> = if b >= PARALLEL_MIN_ITEMS {
        (0..b).into_par_iter().map(per_item).collect()
    } else {
        (0..b).map(per_item).collect()
    };

    let mut points = Vec::with_capacity(2 * b);
    let mut scalars = Vec::with_capacity(2 * b);
    let mut g_scalar = Fq::ZERO;
    for (item, (a, c, g)) in items.iter().zip(&terms) {
        points.push(Affine::from_halo2(&item.r_point));
        scalars.push(*a);
        points.push(Affine::from_halo2(&item.q));
        scalars.push(*c);
        g_scalar += g;
    }
    let sum = msm_internal(&points, &scalars).add(&mul_generator_internal(&-g_scalar));
    sum.is_identity()
}

/// Direct check of one item: structure, then `R == u1·G + u2·Q` with `u1 = h/s`, `u2 = r/s`.
pub(crate) fn item_is_valid(item: &BatchItem) -> bool {
    let Ok(r) = check_item(0, item) else {
        return false;
    };
    let Some(s_inv) = Option::<Fq>::from(item.s.invert()) else {
        return false;
    };
    let u1 = item.h * s_inv;
    let u2 = r * s_inv;
    let q = Affine::from_halo2(&item.q);
    let candidate = mul_generator_internal(&u1).add(&msm_internal(&[q], &[u2]));
    candidate
        .sub_affine(&Affine::from_halo2(&item.r_point))
        .is_identity()
}
