//! Cell counts of halo2-ecc 0.5.5's `FpChip` (3 × 88-bit limbs) for the operations that
//! `batch-ecdsa-circuits` measures in `circuits/benches/cells.rs`. Comparison only: this crate is
//! outside the workspace and nothing in the product depends on it.
//!
//! Counts are read from halo2-base's own bookkeeping: advice cells are the virtual cells of the
//! main context (`ctx.advice.len()`), lookup cells the cells sent to the lookup manager.
use halo2_base::gates::circuit::builder::BaseCircuitBuilder;
use halo2_base::gates::{GateInstructions, RangeInstructions};
use halo2_base::halo2_proofs::halo2curves::bn256::Fr;
use halo2_base::halo2_proofs::halo2curves::secp256k1::{Fp, Fq};
use halo2_base::halo2_proofs::halo2curves::ff::Field;
use halo2_base::halo2_proofs::halo2curves::secp256k1::Secp256k1Affine;
use halo2_base::utils::{biguint_to_fe, fe_to_biguint, modulus};
use halo2_ecc::ecc::ecdsa::ecdsa_verify_no_pubkey_check;
use halo2_ecc::ecc::EccChip;
use halo2_ecc::fields::fp::FpChip;
use halo2_ecc::fields::{FieldChip, Selectable};

/// A valid secp256k1 ECDSA input (r, s, h, Q) from fixed secrets (as halo2-ecc's own test
/// builds one).
fn ecdsa_input(i: u64) -> (Fq, Fq, Fq, Secp256k1Affine) {
    let sk = Fq::from(0x5eed_0000 + i).pow_vartime([3u64, 1]);
    let k = Fq::from(0x0c0f_fee0 + i).pow_vartime([5u64, 2]);
    let h = Fq::from(0x0ba5_e000 + i).pow_vartime([7u64, 3]);
    let pk = Secp256k1Affine::from(Secp256k1Affine::generator() * sk);
    let rp = Secp256k1Affine::from(Secp256k1Affine::generator() * k);
    let r = biguint_to_fe::<Fq>(&(fe_to_biguint(&rp.x) % modulus::<Fq>()));
    let s = k.invert().unwrap() * (h + r * sk);
    (r, s, h, pk)
}

fn counts(b: &BaseCircuitBuilder<Fr>) -> (usize, usize) {
    let s = b.statistics();
    let adv: usize = s.gate.total_advice_per_phase.iter().sum();
    let lk: usize = s.total_lookup_advice_per_phase.iter().sum();
    (adv, lk)
}

fn main() {
    let lookup_bits: usize = std::env::args().skip(1).find_map(|a| a.parse().ok()).unwrap_or(17);
    let mut builder =
        BaseCircuitBuilder::<Fr>::new(false).use_k(lookup_bits + 1).use_lookup_bits(lookup_bits);
    let range = builder.range_chip();
    let fp = FpChip::<Fr, Fp>::new(&range, 88, 3);
    let fq = FpChip::<Fr, Fq>::new(&range, 88, 3);
    let av = Fp::from(0x1234_5678_9abc_def1u64).pow_vartime([7u64, 3]);
    let bv = Fp::from(0x0fed_cba9_8765_4321u64).pow_vartime([5u64, 9]);
    let sv = Fq::from(0x1357_9bdf_2468_ace0u64).pow_vartime([11u64, 2]);

    let mut rows: Vec<(String, usize, usize)> = Vec::new();
    macro_rules! measure {
        ($name:expr, $body:expr) => {{
            let before = counts(&builder);
            let out = $body;
            let after = counts(&builder);
            rows.push(($name.to_string(), after.0 - before.0, after.1 - before.1));
            out
        }};
    }
    let a = measure!("Fp load_private (range-checked)", fp.load_private(builder.main(0), av));
    let b = fp.load_private(builder.main(0), bv);
    measure!("Fp load_private_reduced", fp.load_private_reduced(builder.main(0), av));
    measure!("Fp add_no_carry (lazy add)", fp.add_no_carry(builder.main(0), a.clone(), b.clone()));
    measure!("Fp sub_no_carry (lazy sub)", fp.sub_no_carry(builder.main(0), a.clone(), b.clone()));
    let m = measure!("Fp mul", fp.mul(builder.main(0), a.clone(), b.clone()));
    measure!("Fp mul_no_carry (no reduction)", fp.mul_no_carry(builder.main(0), a.clone(), b.clone()));
    let s = fp.add_no_carry(builder.main(0), a.clone(), b.clone());
    measure!("Fp carry_mod of a lazy sum", fp.carry_mod(builder.main(0), s));
    measure!("Fp divide (checked)", fp.divide(builder.main(0), a.clone(), b.clone()));
    let one = fp.load_constant(builder.main(0), Fp::ONE);
    measure!("Fp inverse (= divide 1 / b)", fp.divide(builder.main(0), one, b.clone()));
    measure!("Fp enforce_less_than_p (reduce check)", fp.enforce_less_than_p(builder.main(0), m.clone()));
    measure!("Fp is_zero", fp.is_zero(builder.main(0), m.clone()));
    measure!("Fp is_equal", fp.is_equal(builder.main(0), m.clone(), a.clone()));
    let sel = builder.main(0).load_witness(Fr::ONE);
    measure!("Fp select", fp.select(builder.main(0), a.clone(), b.clone(), sel));
    let sc = fq.load_private(builder.main(0), sv);
    measure!("Fq scalar -> bits (num_to_bits per limb, as scalar_multiply)", {
        let ctx = builder.main(0);
        let limbs = sc.limbs().to_vec();
        let mut bits = Vec::new();
        for (i, l) in limbs.iter().enumerate() {
            let nb = if i < 2 { 88 } else { 80 };
            bits.extend(range.gate().num_to_bits(ctx, *l, nb));
        }
        bits
    });
    // ECDSA: `ecdsa_verify_no_pubkey_check` with window 4/4 (variable / fixed base), the way
    // halo2-ecc's own secp256k1 test calls it: h, r, s loaded with `load_private` (limbs
    // range-checked), the key with `load_private_unchecked` (no on-curve check). Two lines: the
    // verification call alone, and per signature including the loads, for B = 1 and 2 (the
    // second signature's marginal cost).
    let ecc = EccChip::new(&fp);
    for i in 0..2u64 {
        let (r, s, h, pk) = ecdsa_input(i);
        let before = counts(&builder);
        let [hh, rr, ss] = [h, r, s].map(|x| fq.load_private(builder.main(0), x));
        let q = ecc.load_private_unchecked(builder.main(0), (pk.x, pk.y));
        let mid = counts(&builder);
        let ok = ecdsa_verify_no_pubkey_check::<Fr, Fp, Fq, Secp256k1Affine>(
            &ecc,
            builder.main(0),
            q,
            rr,
            ss,
            hh,
            4,
            4,
        );
        assert_eq!(*ok.value(), Fr::ONE, "the input signature must verify");
        let after = counts(&builder);
        rows.push((
            format!("ECDSA #{i}: ecdsa_verify_no_pubkey_check (4/4) call"),
            after.0 - mid.0,
            after.1 - mid.1,
        ));
        rows.push((
            format!("ECDSA #{i}: per signature incl. loading h, r, s, Q"),
            after.0 - before.0,
            after.1 - before.1,
        ));
    }
    println!("halo2-ecc 0.5.5 FpChip<Fr, secp256k1 Fp>, 3 x 88-bit limbs, lookup_bits = {lookup_bits}");
    println!("{:<62} {:>12} {:>12}", "operation", "advice", "lookup");
    for (n, a, l) in rows {
        println!("{n:<62} {a:>12} {l:>12}");
    }
}
