//! Gates of the field chip. Each is enabled on the first row of its block and reads the block's
//! cells through rotations; the block shapes are fixed here and in the chip code that fills them.

use halo2_proofs::plonk::{ConstraintSystem, Expression, VirtualCells};
use halo2_proofs::poly::Rotation;
use num_bigint::BigUint;

use super::params::{to_limbs, CARRY_BITS, LIMB_BITS, NUM_LIMBS};
use crate::bigint::{native, pow2};
use crate::layout::{GateKind, GroupConfig, Native};

const N: usize = NUM_LIMBS;

fn adv(
    m: &mut VirtualCells<'_, Native>,
    cfg: &GroupConfig,
    col: usize,
    rot: usize,
) -> Expression<Native> {
    m.query_advice(cfg.main[col], Rotation(rot as i32))
}

fn constant(x: Native) -> Expression<Native> {
    Expression::Constant(x)
}

/// Adds the field gates for one column group; `moduli[i]` gets the gate `Mul(i)`.
///
/// **Mul block** (`3·N` rows; column 0 holds `q_0..q_(N−1)`, `r_0..r_(N−1)`, the offset
/// carries `c'_0..c'_(N−1)`, each in its own range row except r in `assert_mul_eq`, where r's
/// cells are copies of an existing value; column 1 rows `0..N` holds copies of `a`, rows
/// `N..2N` copies of `b`; fixed γ at rows `N..2N` is 0 for a product and the limbs of a multiple
/// D of p for `assert_mul_eq`). With `c_k = c'_k − 2^(CARRY_BITS−1)`, `c_(−1) = 0` and
/// `ρ_k = r_k − γ_k`, for `k < N`:
///
/// `Σ_(i+j=k) a_i·b_j − Σ_(i+j=k) q_i·p_j − ρ_k + c_(k−1) − 2^88·c_k = 0`
///
/// and, on the native values `A = Σ a_i·2^(88 i) mod r` (likewise B, Q, Ρ):
/// `A·B − Q·(p mod r) − Ρ = 0`. See `FieldChip::mul` for why this proves `a·b = q·p + ρ`.
pub fn configure(meta: &mut ConstraintSystem<Native>, cfg: &GroupConfig, moduli: &[BigUint]) {
    let base = pow2(LIMB_BITS);
    let limb_base: Vec<Native> = (0..N).map(|i| pow2(LIMB_BITS * i as u32)).collect();
    let offset = pow2(CARRY_BITS - 1);
    for (idx, p) in moduli.iter().enumerate() {
        let pl: Vec<Native> = to_limbs(p).iter().map(native).collect();
        let p_nat = native(p);
        let c = cfg.clone();
        let lb = limb_base.clone();
        meta.create_gate("field mul", move |m| {
            let s = m.query_selector(c.selector(GateKind::Mul(idx)));
            let q: Vec<_> = (0..N).map(|i| adv(m, &c, 0, i)).collect();
            // r_k − γ_k: γ = 0 for a product, γ = D (a multiple of p) for `assert_mul_eq`.
            let r: Vec<_> = (0..N)
                .map(|i| adv(m, &c, 0, N + i) - m.query_fixed(c.gamma, Rotation((N + i) as i32)))
                .collect();
            let cr: Vec<_> = (0..N)
                .map(|i| adv(m, &c, 0, 2 * N + i) - constant(offset))
                .collect();
            let a: Vec<_> = (0..N).map(|i| adv(m, &c, 1, i)).collect();
            let b: Vec<_> = (0..N).map(|i| adv(m, &c, 1, N + i)).collect();
            let mut out = Vec::new();
            for k in 0..N {
                let mut e =
                    constant(Native::from(0u64)) - r[k].clone() - cr[k].clone() * constant(base);
                if k > 0 {
                    e = e + cr[k - 1].clone();
                }
                for i in 0..=k {
                    e = e + a[i].clone() * b[k - i].clone() - q[i].clone() * constant(pl[k - i]);
                }
                out.push(s.clone() * e);
            }
            let nat = |v: &[Expression<Native>]| {
                v.iter()
                    .zip(lb.iter())
                    .fold(constant(Native::from(0u64)), |acc, (x, w)| {
                        acc + x.clone() * constant(*w)
                    })
            };
            let (na, nb, nq, nr) = (nat(&a), nat(&b), nat(&q), nat(&r));
            out.push(s * (na * nb - nq * constant(p_nat) - nr));
            out
        });
    }

    // Select block: rows 0..N, columns (a_i, b_i, c_i); the bit s at column 3, row 0.
    // c_i = b_i + s·(a_i − b_i); s is an `AssignedBit` (proven boolean where it was made).
    let c = cfg.clone();
    meta.create_gate("field select", move |m| {
        let sel = m.query_selector(c.selector(GateKind::Select));
        let bit = adv(m, &c, 3, 0);
        (0..N)
            .map(|i| {
                let (a, b, o) = (adv(m, &c, 0, i), adv(m, &c, 1, i), adv(m, &c, 2, i));
                sel.clone() * (o - b.clone() - bit.clone() * (a - b))
            })
            .collect::<Vec<_>>()
    });

    // Is-zero block: row 0 = (l_0, l_1, l_2, inv), row 1 column 0 = z. With s = Σ l_i:
    // s·inv = 1 − z and s·z = 0, so z = 1 iff s = 0, and z is boolean.
    let c = cfg.clone();
    meta.create_gate("field is_zero", move |m| {
        let sel = m.query_selector(c.selector(GateKind::IsZero));
        let s = (0..N).fold(constant(Native::from(0u64)), |acc, i| {
            acc + adv(m, &c, i, 0)
        });
        let inv = adv(m, &c, 3, 0);
        let z = adv(m, &c, 0, 1);
        vec![
            sel.clone() * (s.clone() * inv - constant(Native::from(1u64)) + z.clone()),
            sel * s * z,
        ]
    });

    // Is-equal block: row 0 = (a_0, a_1, a_2, inv), row 1 = (b_0, b_1, b_2, z). With
    // s = Σ (a_i − b_i)²: s·inv = 1 − z and s·z = 0.
    let c = cfg.clone();
    meta.create_gate("field is_equal", move |m| {
        let sel = m.query_selector(c.selector(GateKind::IsEqual));
        let s = (0..N).fold(constant(Native::from(0u64)), |acc, i| {
            let d = adv(m, &c, i, 0) - adv(m, &c, i, 1);
            acc + d.clone() * d
        });
        let inv = adv(m, &c, 3, 0);
        let z = adv(m, &c, 3, 1);
        vec![
            sel.clone() * (s.clone() * inv - constant(Native::from(1u64)) + z.clone()),
            sel * s * z,
        ]
    });

    // Less-or-equal block: N range rows with d_i in column 0; column 1 rows 0..N: x_i; column 2
    // rows 0..N−1: borrows β_i; fixed γ rows 0..N: limbs of the bound C. For each i:
    // d_i = γ_i − x_i − β_(i−1) + 2^88·β_i (β_(−1) = β_(N−1) = 0), β_i·(1 − β_i) = 0.
    let c = cfg.clone();
    meta.create_gate("field less_eq", move |m| {
        let sel = m.query_selector(c.selector(GateKind::LessEq));
        let mut out = Vec::new();
        for i in 0..N {
            let d = adv(m, &c, 0, i);
            let x = adv(m, &c, 1, i);
            let g = m.query_fixed(c.gamma, Rotation(i as i32));
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

    // Vertical prototype (halo2-base's gate): x[0] + x[1]·x[2] = x[3] down column 0.
    let c = cfg.clone();
    meta.create_gate("vertical a+b*c=d", move |m| {
        let sel = m.query_selector(c.selector(GateKind::Vertical));
        let (a, b, cc, d) = (
            adv(m, &c, 0, 0),
            adv(m, &c, 0, 1),
            adv(m, &c, 0, 2),
            adv(m, &c, 0, 3),
        );
        vec![sel * (a + b * cc - d)]
    });
}
