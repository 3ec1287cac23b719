//! Gates of the field chip. Each is enabled on the first row of its block and reads the block's
//! cells through rotations; the block shapes are fixed here and in the chip code that fills them.

use halo2_proofs::plonk::{ConstraintSystem, Expression, VirtualCells};
use halo2_proofs::poly::Rotation;
use num_bigint::BigUint;

use super::params::{to_limbs, CARRY_BITS, LIMB_BITS, NUM_LIMBS};
use crate::bigint::{native, pow2};
use crate::layout::{GateId, GroupConfig, LayoutParams, Native, ALPHA, BETA, GAMMA, MU};

/// The limb-wise select block (only with `LayoutParams::extra_gates`).
pub const SELECT: GateId = GateId::new("field select");
/// The is-zero block.
pub const IS_ZERO: GateId = GateId::new("field is_zero");
/// The is-equal block (only with `LayoutParams::extra_gates`).
pub const IS_EQUAL: GateId = GateId::new("field is_equal");
/// The less-or-equal block.
pub const LESS_EQ: GateId = GateId::new("field less_eq");

/// The gates of the field layer for `n_moduli` emulated moduli, in selector order: is-zero,
/// less-or-equal, the extra gates when `params.extra_gates`, then per modulus its relation
/// and relation-factor gates.
pub fn gates(params: &LayoutParams, n_moduli: usize) -> Vec<GateId> {
    let mut v = vec![IS_ZERO, LESS_EQ];
    if params.extra_gates {
        v.extend([SELECT, IS_EQUAL]);
    }
    v.extend((0..n_moduli).flat_map(|i| [RELATION.at(i), RELATION_FACTOR.at(i)]));
    v
}

/// `RELATION.at(i)`: the relation block of the i-th emulated modulus (see [`configure`]).
pub const RELATION: GateId = GateId::new("field relation");
/// `RELATION_FACTOR.at(i)`: the relation block of the i-th modulus with the block's new value
/// the first factor of the first product (for modulus 0 with the distinctness constraint).
pub const RELATION_FACTOR: GateId = GateId::new("field relation factor");

const N: usize = NUM_LIMBS;

fn adv(
    m: &mut VirtualCells<'_, Native>,
    cfg: &GroupConfig,
    col: usize,
    rot: usize,
) -> Expression<Native> {
    m.query_advice(cfg.main[col], Rotation(rot as i32))
}

/// The zero test of the is-zero and is-equal blocks under selector `sel`:
/// `s·inv = 1 − z` and `s·z = 0`. If `s ≠ 0` the second forces `z = 0` (and the first then
/// pins `inv = 1/s`); if `s = 0` the first forces `z = 1`. So `z` is the boolean `[s = 0]`.
fn zero_test(
    sel: Expression<Native>,
    s: Expression<Native>,
    inv: Expression<Native>,
    z: Expression<Native>,
) -> Vec<Expression<Native>> {
    vec![
        sel.clone() * (s.clone() * inv - constant(Native::from(1u64)) + z.clone()),
        sel * s * z,
    ]
}

fn constant(x: Native) -> Expression<Native> {
    Expression::Constant(x)
}

/// Adds the field gates for one column group; `moduli[i]` gets the gates `RELATION.at(i)` and
/// `RELATION_FACTOR.at(i)` (`RELATION_FACTOR.at(0)` with the distinctness constraint).
///
/// **Relation block** (`3·N = 9` rows, see `field::relation`). Column 0: the quotient limbs
/// `Q` (rows 0–2), the block's new value `V` (rows 3–5) and the offset carries `c'` (rows
/// 6–8), each the value cell of a range row (chunks in the looked-up columns of its row).
/// Columns 1–3, three limbs per slot (rows 0–2, 3–5, 6–8): `A₁ B₁ C₁` (column 1), `A₂ B₂ C₂`
/// (column 2), `L₁ L₂` (column 3, rows 0–5). Fixed at row 0: `α` (alpha),
/// `β` (beta), `μ` (mu); fixed γ at row 1: the constant `C` (one signed limb, `|C| < 2^87`:
/// `C₁ = C₂ = 0`), at row 2: `K₂` of the quotient offset `K = K₂·2^176` (`K₀ = K₁ = 0`). (γ is
/// queried at rows 0–2 by other gates too, so this adds no fixed query.) With
/// `c_k = c'_k − 2^(CARRY_BITS−1)`,
/// `c_(−1) = 0` and the limb convolution `(X ⊛ Y)_k = Σ_(i+j=k) X_i·Y_j`, for `k < N`:
///
/// `e_k = (A₁ ⊛ (B₁ − C₁))_k + α·(A₂ ⊛ (B₂ − C₂))_k + β·L₁_k + μ·L₂_k − V_k + C_k − ((Q − K) ⊛ p)_k`,
/// `e_k + c_(k−1) − 2^88·c_k = 0`,
///
/// and on the native values (`X̂ = Σ X_i·2^(88 i) mod r`):
/// `Â₁·(B̂₁ − Ĉ₁) + α·Â₂·(B̂₂ − Ĉ₂) + β·L̂₁ + μ·L̂₂ − V̂ + Ĉ − (Q̂ − K̂)·(p mod r) = 0`.
///
/// `RELATION_FACTOR.at(i)` is the same with `A₁ := V` (the new value is the first factor) and no
/// `−V` term.
/// Why these prove the relation over the integers, and the bounds they need:
/// `FieldChip::relation`.
///
/// **Reads and what pins them.** `RELATION` reads column 0 rows 0–8 (range-row value cells),
/// `A₁ B₁ C₁` always, `A₂ B₂ C₂` where `α ≠ 0`, `L₁`/`L₂` where `β`/`μ ≠ 0`;
/// `RELATION_FACTOR` the same without `A₁` (plus `W` for modulus 0). No operand slot is ever left to the prover: a
/// present operand is a copy of its limbs, an absent one the gate reads (and the V rows of a
/// relation without a new value) a copy of the constant-0 cell (`field::relation`). The
/// footprint check (`crate::footprint`) verifies every enabled block.
///
/// **Distinct** (part of `RELATION_FACTOR.at(0)`, the factor block of modulus 0, whose `A₁` slot
/// is free):
/// with `D = B̂₁ − Ĉ₁` and `W` the cell of column 1, row 0, `W·D·(D − p)·(D + p) = 1`. For
/// `B₁, C₁ < 2^256` the integer `B₁ − C₁` lies in `(−2^256, 2^256)`, so it is `≡ 0 (mod p)`
/// only if it is `0`, `p` or `−p`; each makes a factor `≡ 0 (mod r)` and the gate unsatisfiable.
/// So every factor block of modulus 0 whose `B₁`, `C₁` are below `2^256` (asserted for the
/// relations marked `distinct`, the chord slopes) proves `B₁ ≢ C₁ (mod p)`. For the other
/// factor blocks of modulus 0 (the doubling slope, whose `B₁ = 2y` is a lazy sum up to about
/// 2^257) the gate only proves `D ∉ {0, ±p} (mod r)`; their soundness does not rest on it
/// (no on-curve point has `y = 0`), and `W`, the inverse of a nonzero product, always exists
/// for an honest witness.
pub fn configure(meta: &mut ConstraintSystem<Native>, cfg: &GroupConfig, moduli: &[BigUint]) {
    let base = pow2(LIMB_BITS);
    let limb_base: Vec<Native> = (0..N).map(|i| pow2(LIMB_BITS * i as u32)).collect();
    let offset = pow2(CARRY_BITS - 1);
    for (idx, p) in moduli.iter().enumerate() {
        for v_first in [false, true] {
            let pl: Vec<Native> = to_limbs(p).iter().map(native).collect();
            let p_nat = native(p);
            let c = cfg.clone();
            let lb = limb_base.clone();
            let kind = if v_first {
                RELATION_FACTOR.at(idx)
            } else {
                RELATION.at(idx)
            };
            meta.create_gate("field relation", move |m| {
                let s = m.query_selector(c.selector(kind));
                let slot = |m: &mut VirtualCells<'_, Native>, col: usize, g: usize| {
                    (0..N)
                        .map(|i| adv(m, &c, col, N * g + i))
                        .collect::<Vec<_>>()
                };
                let q = slot(m, 0, 0);
                let v = slot(m, 0, 1);
                let cr: Vec<_> = slot(m, 0, 2)
                    .into_iter()
                    .map(|x| x - constant(offset))
                    .collect();
                let a1 = if v_first { v.clone() } else { slot(m, 1, 0) };
                let (b1, c1) = (slot(m, 1, 1), slot(m, 1, 2));
                let (a2, b2, c2) = (slot(m, 2, 0), slot(m, 2, 1), slot(m, 2, 2));
                let (l1, l2) = (slot(m, 3, 0), slot(m, 3, 1));
                let alpha = m.query_fixed(c.fixed(ALPHA), Rotation::cur());
                let beta = m.query_fixed(c.fixed(BETA), Rotation::cur());
                let mu = m.query_fixed(c.fixed(MU), Rotation::cur());
                // Signed quotient Q − K with K = K₂·2^176 (fixed γ at row 2), and the constant
                // C, one signed limb (fixed γ at row 1).
                let mut q = q;
                q[N - 1] =
                    q[N - 1].clone() - m.query_fixed(c.fixed(GAMMA), Rotation((N - 1) as i32));
                let gam: Vec<_> = (0..N)
                    .map(|i| {
                        if i == 0 {
                            m.query_fixed(c.fixed(GAMMA), Rotation(1))
                        } else {
                            constant(Native::from(0u64))
                        }
                    })
                    .collect();
                let d1: Vec<_> = (0..N).map(|i| b1[i].clone() - c1[i].clone()).collect();
                let d2: Vec<_> = (0..N).map(|i| b2[i].clone() - c2[i].clone()).collect();
                let mut out = Vec::new();
                for k in 0..N {
                    let mut p1 = constant(Native::from(0u64));
                    let mut p2 = constant(Native::from(0u64));
                    let mut qp = constant(Native::from(0u64));
                    for i in 0..=k {
                        p1 = p1 + a1[i].clone() * d1[k - i].clone();
                        p2 = p2 + a2[i].clone() * d2[k - i].clone();
                        qp = qp + q[i].clone() * constant(pl[k - i]);
                    }
                    let mut e = p1
                        + alpha.clone() * p2
                        + beta.clone() * l1[k].clone()
                        + mu.clone() * l2[k].clone()
                        + gam[k].clone()
                        - qp
                        - cr[k].clone() * constant(base);
                    if !v_first {
                        e = e - v[k].clone();
                    }
                    if k > 0 {
                        e = e + cr[k - 1].clone();
                    }
                    out.push(s.clone() * e);
                }
                let nat = |x: &[Expression<Native>]| {
                    x.iter()
                        .zip(lb.iter())
                        .fold(constant(Native::from(0u64)), |acc, (x, w)| {
                            acc + x.clone() * constant(*w)
                        })
                };
                let mut e = nat(&a1) * nat(&d1)
                    + alpha * nat(&a2) * nat(&d2)
                    + beta * nat(&l1)
                    + mu * nat(&l2)
                    + nat(&gam)
                    - nat(&q) * constant(p_nat);
                if !v_first {
                    e = e - nat(&v);
                }
                out.push(s.clone() * e);
                if v_first && idx == 0 {
                    // Distinct: W·D·(D − p)·(D + p) = 1 with D = B̂₁ − Ĉ₁, W in the A₁ slot.
                    let d = nat(&d1);
                    let w = adv(m, &c, 1, 0);
                    out.push(
                        s * (w * d.clone() * (d.clone() - constant(p_nat)) * (d + constant(p_nat))
                            - constant(Native::from(1u64))),
                    );
                }
                out
            });
        }
    }
    // Select block: rows 0..N, columns (a_i, b_i, c_i); the bit s at column 3, row 0.
    // c_i = b_i + s·(a_i − b_i); s is an `AssignedBit` (proven boolean where it was made).
    // Reads: every cell of the block; a_i, b_i, s are copies, c_i is determined by the gate.
    let c = cfg.clone();
    if let Some(select) = c.try_selector(SELECT) {
        meta.create_gate("field select", move |m| {
            let sel = m.query_selector(select);
            let bit = adv(m, &c, 3, 0);
            (0..N)
                .map(|i| {
                    let (a, b, o) = (adv(m, &c, 0, i), adv(m, &c, 1, i), adv(m, &c, 2, i));
                    sel.clone() * (o - b.clone() - bit.clone() * (a - b))
                })
                .collect::<Vec<_>>()
        });
    }

    // Is-zero block: row 0 = (l_0, l_1, l_2, inv), row 1 column 0 = z. With s = Σ l_i:
    // s·inv = 1 − z and s·z = 0, so z = 1 iff s = 0, and z is boolean. Reads: l_i (copies of
    // the input limbs), z (determined: 0 if s ≠ 0, else 1), inv (determined as 1/s when s ≠ 0;
    // free when s = 0, marked free by the chip: no value of it changes z).
    let c = cfg.clone();
    meta.create_gate("field is_zero", move |m| {
        let sel = m.query_selector(c.selector(IS_ZERO));
        let s = (0..N).fold(constant(Native::from(0u64)), |acc, i| {
            acc + adv(m, &c, i, 0)
        });
        let (inv, z) = (adv(m, &c, 3, 0), adv(m, &c, 0, 1));
        zero_test(sel, s, inv, z)
    });

    // Is-equal block: row 0 = (a_0, a_1, a_2, inv), row 1 = (b_0, b_1, b_2, z). With
    // s = Σ (a_i − b_i)²: s·inv = 1 − z and s·z = 0. Reads: as is-zero (a_i, b_i copies).
    let c = cfg.clone();
    if let Some(is_equal) = c.try_selector(IS_EQUAL) {
        meta.create_gate("field is_equal", move |m| {
            let sel = m.query_selector(is_equal);
            let s = (0..N).fold(constant(Native::from(0u64)), |acc, i| {
                let d = adv(m, &c, i, 0) - adv(m, &c, i, 1);
                acc + d.clone() * d
            });
            let (inv, z) = (adv(m, &c, 3, 0), adv(m, &c, 3, 1));
            zero_test(sel, s, inv, z)
        });
    }

    // Less-or-equal block: N range rows with d_i in column 0; column 1 rows 0..N: x_i; column 2
    // rows 0..N−1: borrows β_i; fixed γ rows 0..N: limbs of the bound C. For each i:
    // d_i = γ_i − x_i − β_(i−1) + 2^88·β_i (β_(−1) = β_(N−1) = 0), β_i·(1 − β_i) = 0.
    // Reads: d_i (range-row value cells), x_i (copies), β_0, β_1 (determined by the gate and
    // proven boolean), γ (fixed).
    let c = cfg.clone();
    meta.create_gate("field less_eq", move |m| {
        let sel = m.query_selector(c.selector(LESS_EQ));
        let mut out = Vec::new();
        for i in 0..N {
            let d = adv(m, &c, 0, i);
            let x = adv(m, &c, 1, i);
            let g = m.query_fixed(c.fixed(GAMMA), Rotation(i as i32));
            let mut e = d - g + x;
            if i > 0 {
                e = e + adv(m, &c, 2, i - 1);
            }
            if i + 1 < N {
                let bi = adv(m, &c, 2, i);
                e = e - bi.clone() * constant(base);
                out.push(sel.clone() * bi.clone() * (constant(Native::from(1u64)) - bi));
            }
            out.push(sel.clone() * e);
        }
        out
    });
}
