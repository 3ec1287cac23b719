//! Cell counts per field and curve operation (advice cells, of which looked-up, rows, copies)
//! of the relation-block layout, at lookup bits L (default 17, k = 18).
//! No keys or proofs: the counts come from the builder. Run:
//! `cargo bench -p batch-ecdsa-circuits --bench cells [-- L]`.
//! The same operations in halo2-ecc: `benches/halo2-ecc-cells` (separate crate).

use batch_ecdsa_circuits::ecc::EccChip;
use batch_ecdsa_circuits::ecc::{odd_windows, odd_windows_short, AccPoint, WINDOW};
use batch_ecdsa_circuits::field::{FieldChip, FieldValue, Overflowing, Proper, Relation};
use batch_ecdsa_circuits::layout::{Builder, LayoutParams, LayoutStats, Native, MAIN_COLS};
use batch_ecdsa_circuits::range::RangeChip;
use ff::Field;
use group::Curve;
use halo2curves::secp256k1::{Fp, Fq, Secp256k1, Secp256k1Affine};
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;

fn main() {
    let l = batch_ecdsa_circuits::test_utils::number_arg(17);
    let mut params = LayoutParams::new(l);
    params.extra_gates = true;
    let mut b = Builder::new(0, params.clone());
    let range = RangeChip::new(params.clone());
    let fp: FieldChip<Fp> = FieldChip::new(range.clone(), 0);
    let fq: FieldChip<Fq> = FieldChip::new(range, 1);
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let (xv, yv) = (Fp::random(&mut rng), Fp::random(&mut rng));
    // Warm the constant cache (0 and 1 are shared by every later use).
    b.constant(Native::ZERO);
    b.constant(Native::ONE);

    let mut rows: Vec<(String, LayoutStats)> = Vec::new();
    macro_rules! measure {
        ($name:expr, $e:expr) => {{
            let before = b.stats();
            let out = $e;
            rows.push(($name.to_string(), b.stats() - before));
            out
        }};
    }
    let x = measure!(
        "Fp load_proper (range-checked limbs)",
        fp.load_proper(&mut b, xv)
    );
    let y = fp.load_proper(&mut b, yv);
    let xr = measure!("Fp load_reduced (limbs + < p)", fp.load_reduced(&mut b, xv));
    let yr = fp.load_reduced(&mut b, yv);
    let s: Overflowing<Fp> = measure!("Fp add (lazy)", fp.add(&mut b, &x, &y));
    measure!("Fp sub (lazy)", fp.sub(&mut b, &x, &y));
    measure!("Fp neg (lazy)", fp.neg(&mut b, &x));
    let m = measure!("Fp mul (relation block)", fp.mul(&mut b, &x, &y));
    measure!(
        "Fp relation, 2 products + 2 linear terms, new value",
        fp.new_value(
            &mut b,
            &Relation::product(&x, &y)
                .minus(&m)
                .plus_product(-1, &y, &x, Some(m.crt()))
                .plus_term(1, &x)
                .plus_term(-1, &y)
                .remainder(),
        )
    );
    measure!("Fp square", fp.square(&mut b, &x));
    measure!("Fp mul of lazy sums (a+b)(a+b)", fp.mul(&mut b, &s, &s));
    measure!("Fp mul_const", fp.mul_const(&mut b, &x, yv));
    measure!(
        "Fp assert_mul_eq (x*y == lazy z)",
        fp.assert_mul_eq(&mut b, &x, &y, &s)
    );
    measure!("Fp inverse", fp.inv(&mut b, &y));
    measure!("Fp div (checked)", fp.div(&mut b, &x, &y));
    measure!(
        "Fp div_by_nonzero (divisor proven elsewhere)",
        fp.div_by_nonzero(&mut b, &x, &y)
    );
    measure!(
        "Fp assert_canonical (proper -> reduced)",
        fp.assert_canonical(&mut b, &m)
    );
    measure!("Fp reduce (lazy -> reduced)", fp.reduce(&mut b, &s));
    measure!("Fp is_zero", fp.is_zero(&mut b, &xr));
    measure!("Fp is_equal", fp.is_equal(&mut b, &xr, &yr));
    measure!("Fp assert_equal", fp.assert_equal(&mut b, &xr, &xr.clone()));
    let bit = fp.range.load_bit(&mut b, true);
    measure!("Fp select", fp.select(&mut b, &bit, &xr, &yr));
    let sc = fq.load_reduced(&mut b, Fq::random(&mut rng));
    measure!(
        "Fq 256-bit scalar -> 64 4-bit windows",
        fq.to_windows(&mut b, &sc, 4)
    );
    measure!("Fq 256-bit scalar -> 256 bits", fq.to_bits(&mut b, &sc));

    let cols = MAIN_COLS + params.lookup_cols;
    print_rows(&format!(
        "batch-ecdsa-circuits field chip, 3 x 88-bit limbs, L = {l} (k = {}), {} advice columns ({} main + {} looked-up)",
        l + 1,
        cols,
        MAIN_COLS,
        params.lookup_cols
    ), &rows);
    ecc_rows(l);
}

fn print_rows(title: &str, rows: &[(String, LayoutStats)]) {
    println!("{title}");
    println!(
        "{:<52} {:>9} {:>9} {:>7} {:>7}",
        "operation", "advice", "lookup", "rows", "copies"
    );
    for (n, st) in rows {
        println!(
            "{n:<52} {:>9} {:>9} {:>7} {:>7}",
            st.advice_cells, st.lookup_cells, st.rows, st.copies
        );
    }
    println!();
}

/// Per-operation cells of the ecc chip and of the MSM.
fn ecc_rows(l: u32) {
    let mut params = LayoutParams::new(l);
    params.extra_gates = true;
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    let rnd_point = |rng: &mut ChaCha20Rng| -> Secp256k1Affine {
        (Secp256k1::generator() * Fq::random(rng)).to_affine()
    };
    let new = || {
        let mut b = Builder::new(0, params.clone());
        b.constant(Native::ZERO);
        b.constant(Native::ONE);
        let r = RangeChip::new(params.clone());
        let e = EccChip::new(FieldChip::new(r.clone(), 0), FieldChip::new(r, 1));
        (b, e)
    };
    let mut rows: Vec<(String, LayoutStats)> = Vec::new();
    macro_rules! measure {
        ($b:expr, $name:expr, $e:expr) => {{
            let before = $b.stats();
            let out = $e;
            rows.push(($name, $b.stats() - before));
            out
        }};
    }
    let (p, q) = (rnd_point(&mut rng), rnd_point(&mut rng));
    let g = Secp256k1Affine::from(Secp256k1::generator());
    {
        let (mut b, e) = new();
        let b = &mut b;
        let pa = measure!(
            b,
            "ecc load_point (canonical, on curve)".into(),
            e.load_point(b, p)
        );
        let qa = e.load_point(b, q);
        let s = measure!(
            b,
            "ecc add_strict (canonical result)".into(),
            e.add_strict(b, &pa, &qa)
        );
        measure!(b, "ecc double (canonical result)".into(), e.double(b, &s));
        measure!(b, "ecc neg".into(), e.neg(b, &s));
        let acc: AccPoint = s.clone().into();
        let qacc: AccPoint = qa.clone().into();
        let pacc: AccPoint = pa.clone().into();
        measure!(
            b,
            "ecc add, accumulator (3 blocks)".into(),
            e.add_acc(b, &acc, &qacc)
        );
        measure!(
            b,
            "ecc chained pair P + T1 + T2 (5 blocks)".into(),
            e.add_run(b, acc.clone(), &[qacc.clone(), pacc.clone()])
        );
        measure!(
            b,
            "ecc double, accumulator (3 blocks)".into(),
            e.double_acc(b, &acc)
        );
        measure!(
            b,
            "ecc double-and-add 2A+T, accumulator".into(),
            e.double_and_add_acc(b, &acc, &qacc)
        );
        measure!(
            b,
            "ecc finish (both coordinates canonical)".into(),
            acc.clone().finish(&e, b)
        );
        let bit = e.fp.range.load_bit(b, true);
        measure!(b, "ecc select".into(), e.select(b, &bit, &pa, &qa));
        measure!(
            b,
            "ecc assert_equal (copies only)".into(),
            e.assert_equal(b, &pa, &pa.clone())
        );
        let k: Proper<Fq> = e.fq.load_reduced(b, Fq::random(&mut rng)).into();
        let table = measure!(
            b,
            "window table (2e-15)P, 16 entries".into(),
            e.odd_table(b, &pacc, WINDOW)
        );
        let lt = measure!(
            b,
            "lookup table load, 16 entries (copies)".into(),
            e.load_lookup_table(b, table)
        );
        measure!(
            b,
            "constant window table of G (once per circuit)".into(),
            e.constant_odd_table(b, g, WINDOW)
        );
        let wins = measure!(
            b,
            "scalar -> 65 signed odd windows (recoding)".into(),
            odd_windows(&e.fq, b, &k, WINDOW)
        );
        let lo = e.fq.range.load_witness(b, Native::from(12345u64));
        measure!(
            b,
            "short odd scalar 2lo+1, lo < 2^127 -> 32 windows".into(),
            odd_windows_short(&e.fq, b, &lo, 127)
        );
        measure!(
            b,
            "lookup select (8 cells)".into(),
            e.select_lookup(b, &lt, &wins[0].digit, 0)
        );
        measure!(b, "fixed_base_mul k*G".into(), e.fixed_base_mul(b, &k, g));
        measure!(b, "scalar_mul k*P".into(), e.scalar_mul(b, &pa, &k));
    }
    print_rows(&format!("ecc chip, L = {l}"), &rows);
    let mut rows2: Vec<(String, LayoutStats)> = Vec::new();
    for nb in [1usize, 2, 8, 32] {
        let (mut b, e) = new();
        let pts: Vec<_> = (0..nb)
            .map(|_| e.load_point(&mut b, rnd_point(&mut rng)))
            .collect();
        let ks: Vec<Proper<Fq>> = (0..nb)
            .map(|_| e.fq.load_reduced(&mut b, Fq::random(&mut rng)).into())
            .collect();
        let k0: Proper<Fq> = e.fq.load_reduced(&mut b, Fq::random(&mut rng)).into();
        let before = b.stats();
        e.msm(&mut b, &pts, &ks, Some(&k0), WINDOW);
        let st = b.stats() - before;
        let per = LayoutStats {
            advice_cells: st.advice_cells / nb,
            lookup_cells: st.lookup_cells / nb,
            rows: st.rows / nb,
            copies: st.copies / nb,
        };
        rows2.push((format!("msm B = {nb} + G term: total"), st));
        rows2.push((format!("msm B = {nb} + G term: per point"), per));
    }
    print_rows(
        &format!(
            "msm (Straus, shared doublings, signed odd windows, G from a constant table), L = {l}"
        ),
        &rows2,
    );
}
