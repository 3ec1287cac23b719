//! Cell counts per field operation (advice cells, of which looked-up, rows) for the wide-gate
//! layout the chip uses and for the vertical prototype, at lookup bits L (default 17, k = 18).
//! No keys or proofs: the counts come from the builder. Run:
//! `cargo bench -p batch-ecdsa-circuits --bench cells [-- L]`.
//! The same operations in halo2-ecc: `benches/halo2-ecc-cells` (separate crate).

use batch_ecdsa_circuits::field::{FieldChip, Overflowing};
use batch_ecdsa_circuits::layout::{Builder, LayoutParams, LayoutStats, Native, MAIN_COLS};
use batch_ecdsa_circuits::range::RangeChip;
use ff::Field;
use halo2curves::secp256k1::{Fp, Fq};
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;

fn main() {
    let l: u32 = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(17);
    let params = LayoutParams::new(l);
    let mut b = Builder::new(0, params.clone());
    let range = RangeChip::new(params.clone());
    let fp: FieldChip<Fp> = FieldChip::new(range.clone(), 0);
    let fq: FieldChip<Fq> = FieldChip::new(range, 1);
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let (xv, yv) = (Fp::random(&mut rng), Fp::random(&mut rng));
    // Warm the constant cache (0 and 1 are shared by every later use).
    b.constant(Native::ZERO);
    b.constant(Native::ONE);

    let mut rows: Vec<(&str, LayoutStats)> = Vec::new();
    macro_rules! measure {
        ($name:expr, $e:expr) => {{
            let before = b.stats();
            let out = $e;
            rows.push(($name, b.stats() - before));
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
    let m = measure!("Fp mul (wide block)", fp.mul(&mut b, &x, &y));
    measure!(
        "Fp mul (vertical prototype)",
        fp.mul_vertical(&mut b, &x, &y)
    );
    measure!("Fp square", fp.square(&mut b, &x));
    measure!("Fp mul of lazy sums (a+b)(a+b)", fp.mul(&mut b, &s, &s));
    measure!("Fp mul_const", fp.mul_const(&mut b, &x, yv));
    measure!(
        "Fp assert_mul_eq (x*y == lazy z)",
        fp.assert_mul_eq(&mut b, &x, &y, &s)
    );
    measure!("Fp inverse", fp.inv(&mut b, &y));
    measure!("Fp div", fp.div(&mut b, &x, &y));
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
    println!(
        "batch-ecdsa-circuits field chip, 3 x 88-bit limbs, L = {l} (k = {}), {} advice columns ({} main + {} looked-up)",
        l + 1,
        cols,
        MAIN_COLS,
        params.lookup_cols
    );
    println!(
        "{:<44} {:>8} {:>8} {:>6} {:>7}",
        "operation", "advice", "lookup", "rows", "copies"
    );
    for (n, st) in rows {
        println!(
            "{n:<44} {:>8} {:>8} {:>6} {:>7}",
            st.advice_cells, st.lookup_cells, st.rows, st.copies
        );
    }
}
