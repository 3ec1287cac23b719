//! `BatchEcdsaCircuit` inside the circuits crate (MockProver at the smallest k that fits):
//! valid batches accepted; the challenge cell and the limbs of t cannot be changed; corrupted
//! signatures (s + 1, R → −R), a wrong instance, a changed raw phase-0 cell and sampled witness
//! mutations are rejected.
//! The gen-batch, known-t forgery, real-proof and "t changes" tests are in the root package
//! (`tests/batch_ecdsa.rs`), next to the native signer.

use batch_ecdsa_circuits::bigint::modulus;
use batch_ecdsa_circuits::ecdsa::batch::{
    BatchEcdsaCircuit, DEFAULT_BATCH_WINDOW, RAW_CELLS_PER_SIGNATURE,
};
use batch_ecdsa_circuits::ecdsa::SignatureWitness;
use batch_ecdsa_circuits::layout::Native;
use batch_ecdsa_circuits::plan::FitOptions;
use batch_ecdsa_circuits::test_utils::{ecdsa_witness, mock_verify, mutation_test, Mutable};
use ff::Field;
use halo2curves::secp256k1::Fp;

fn fitted(sigs: Vec<SignatureWitness>) -> (BatchEcdsaCircuit, u32) {
    let (c, k) =
        BatchEcdsaCircuit::fitted(sigs, &FitOptions::default().window(DEFAULT_BATCH_WINDOW));
    println!("B={}: k={k}, {:?}", c.signatures().len(), c.phase_stats());
    (c, k)
}

/// Number of phase-0 advice cells (mutation indices of phase 1 start here).
fn phase0_cells(c: &BatchEcdsaCircuit) -> usize {
    c.phase_stats()[0].advice_cells
}

#[test]
fn b1_valid_and_the_challenge_cells_are_pinned() {
    let (c, k) = fitted(vec![ecdsa_witness(11)]);
    mock_verify(k, &c).expect("valid B=1 batch");
    assert!(
        c.last_challenge().is_some(),
        "synthesis read a known challenge"
    );
    // Phase-1 cell 0 is the cell under the challenge gate; the next ones are the unit
    // coefficient's cells (a constant and its window).
    let n0 = phase0_cells(&c);
    for idx in [n0, n0 + 1, n0 + 2, n0 + 3] {
        let bad = c.tampered(idx, Native::ONE);
        assert!(
            mock_verify(k, &bad).is_err(),
            "changed challenge/t cell {idx} accepted"
        );
    }
}

#[test]
fn b2_valid_accepted_corrupted_and_wrong_instance_rejected() {
    let sigs = vec![ecdsa_witness(21), ecdsa_witness(22)];
    let (c, k) = fitted(sigs.clone());
    mock_verify(k, &c).expect("valid B=2 batch");

    // A wrong public hash, a wrong key x, the other key with the same x (parity flipped), and
    // the instance of −Q altogether: each is rejected.
    let minus_q = {
        let w = sigs[1]
            .edited(|r| r.q.1 = modulus::<Fp>() - &r.q.1)
            .expect("below 2^256");
        w.instance()
    };
    type Change = Box<dyn Fn(&mut Vec<Native>)>;
    let cases: Vec<(&str, Change)> = vec![
        ("hash", Box::new(|i: &mut Vec<Native>| i[0] += Native::ONE)),
        ("key x", Box::new(|i: &mut Vec<Native>| i[4] += Native::ONE)),
        (
            "parity of y",
            Box::new(|i: &mut Vec<Native>| i[5] += Native::from(2u64).pow([160u64])),
        ),
        (
            "instance of -Q",
            Box::new(move |i: &mut Vec<Native>| i[3..6].copy_from_slice(&minus_q)),
        ),
    ];
    for (what, change) in cases {
        let mut inst = c.instance();
        change(&mut inst);
        let p = halo2_proofs::dev::MockProver::run(k, &c, vec![inst]).expect("synthesis");
        assert!(p.verify().is_err(), "a changed {what} was accepted");
    }

    // s + 1 at the last position.
    let mut bad = sigs.clone();
    bad[1] = bad[1]
        .edited(|r| r.s = (&r.s + 1u32) % modulus::<halo2curves::secp256k1::Fq>())
        .expect("below 2^256");
    let cb = BatchEcdsaCircuit::new(c.params().clone(), bad, c.window());
    assert!(mock_verify(k, &cb).is_err(), "s + 1 accepted");

    // R → −R at the first position (same x, so same r: only the batch equation can tell).
    let mut bad = sigs;
    bad[0] = bad[0]
        .edited(|r| r.r_point.1 = modulus::<Fp>() - &r.r_point.1)
        .expect("below 2^256");
    let cb = BatchEcdsaCircuit::new(c.params().clone(), bad, c.window());
    assert!(mock_verify(k, &cb).is_err(), "R -> -R accepted");
}

#[test]
fn b2_witness_mutation_sample() {
    let (c, k) = fitted(vec![ecdsa_witness(31), ecdsa_witness(32)]);
    // Each sample is a full MockProver run at k (tens of seconds on this machine): a small
    // sample over both phases; the chip-level mutation tests cover the gadgets exhaustively.
    let report = mutation_test(k, &c, 8, 5);
    println!("{report}");
    assert_eq!(report.caught, report.total, "escaped: {:?}", report.escaped);
    assert_eq!(report.free, 0, "a valid batch has no free cells");
    // The same over the footprint (every cell a gate reads, by position, through the
    // adversarial prover): after the fix every one is assigned, and each change is caught.
    let fp = batch_ecdsa_circuits::test_utils::footprint_mutation_test(
        k,
        &c,
        6,
        9,
        &batch_ecdsa_circuits::layout::adversary::Adversary::default(),
    );
    println!("footprint: {fp}");
    assert_eq!(fp.caught, fp.total, "escaped: {:?}", fp.escaped);
}

/// The large mutation sample (ignored: about 10 minutes on 2 cores; run with
/// `cargo test --release -p batch-ecdsa-circuits --test ecdsa_batch -- --ignored --nocapture`):
/// on a B = 2 batch, EVERY one of the first 160 cells of phase 1 (the challenge cell, the unit
/// coefficient, the canonical cut of the challenge) plus a uniform sample of 120 cells over
/// both phases, each changed once (+1 or a random delta).
#[test]
#[ignore]
fn b2_witness_mutation_large_sample() {
    use batch_ecdsa_circuits::test_utils::mutation_test_cells;
    use rand_chacha::rand_core::{RngCore, SeedableRng};
    let (c, k) = fitted(vec![ecdsa_witness(51), ecdsa_witness(52)]);
    let n0 = phase0_cells(&c);
    let (all, free) = c.mutable_cells();
    assert_eq!(free, 0, "a valid batch has no free cells");
    let mut idx: Vec<usize> = (n0..n0 + 160).collect();
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(77);
    for _ in 0..120 {
        idx.push(all[(rng.next_u64() as usize) % all.len()]);
    }
    idx.sort_unstable();
    idx.dedup();
    let t0 = std::time::Instant::now();
    let report = mutation_test_cells(k, &c, &idx, 78, 2);
    println!("{report} in {:?}", t0.elapsed());
    assert_eq!(report.free, 0, "sampled a free cell");
    assert_eq!(report.caught, report.total, "escaped: {:?}", report.escaped);
}

#[test]
fn layout_counts_do_not_depend_on_t() {
    let c = BatchEcdsaCircuit::new(
        batch_ecdsa_circuits::ecdsa::batch::batch_params(15, DEFAULT_BATCH_WINDOW),
        vec![ecdsa_witness(41), ecdsa_witness(42)],
        DEFAULT_BATCH_WINDOW,
    );
    let a = c.build(Native::ONE);
    let mut rng =
        <rand_chacha::ChaCha20Rng as rand_chacha::rand_core::SeedableRng>::seed_from_u64(9);
    let b = c.build(Native::random(&mut rng));
    assert_eq!(a.0.stats(), b.0.stats());
    assert_eq!(a.1.stats(), b.1.stats());
    assert_eq!(a.1.enabled_gates(), b.1.enabled_gates());
    assert_eq!(a.1.copy_constraints(), b.1.copy_constraints());
}

#[test]
fn b2_tampered_raw_phase0_cell_is_caught_by_its_copy_constraint() {
    let (c, k) = fitted(vec![ecdsa_witness(51), ecdsa_witness(52)]);
    let n0 = phase0_cells(&c);
    assert_eq!(
        n0,
        2 * RAW_CELLS_PER_SIGNATURE,
        "phase 0 holds only the raw limbs"
    );
    assert!(
        c.phase_stats()[0].copies == 0,
        "phase 0 has no constraints of its own"
    );
    // x(R) limb 0 of signature 0, y(R) top limb of signature 0, s limb 1 of signature 1.
    for idx in [0, 5, RAW_CELLS_PER_SIGNATURE + 7] {
        let bad = c.tampered(idx, Native::ONE);
        let err = mock_verify(k, &bad).expect_err("a changed raw phase-0 cell was accepted");
        assert!(
            err.contains("Equality constraint not satisfied"),
            "raw cell {idx}: expected a copy-constraint failure, got {err}"
        );
    }
}

#[test]
fn b2_tampered_instance_mirror_cell_is_caught_by_the_instance_gate() {
    // The first phase-1 cells are the instance mirror rows (`Builder::mirror_instance`): each
    // must equal the instance column at its row, and the public cells are copied to them.
    let (c, k) = fitted(vec![ecdsa_witness(53), ecdsa_witness(54)]);
    let n0 = phase0_cells(&c);
    let n_public = c.instance().len();
    assert_eq!(
        n_public,
        2 * batch_ecdsa_circuits::ecdsa::INSTANCE_CELLS_PER_SIGNATURE
    );
    for j in [0, n_public - 1] {
        let bad = c.tampered(n0 + j, Native::ONE);
        let err = mock_verify(k, &bad).expect_err("a changed instance mirror cell was accepted");
        assert!(
            err.contains("instance") || err.contains("Equality constraint not satisfied"),
            "mirror cell {j}: expected the instance gate or its copy to fail, got {err}"
        );
    }
}

/// The other windows of the `Qᵢ` and G terms (the default is tested above): w = 3 and 4 accept
/// a valid B = 2 batch and reject `s + 1` at the first position and R → −R at the last.
#[test]
fn b2_other_windows_valid_accepted_corrupted_rejected() {
    for w in [3u32, 4].into_iter().filter(|w| *w != DEFAULT_BATCH_WINDOW) {
        let sigs = vec![ecdsa_witness(41), ecdsa_witness(42)];
        let (c, k) = BatchEcdsaCircuit::fitted(sigs.clone(), &FitOptions::default().window(w));
        assert_eq!(c.window(), w);
        mock_verify(k, &c).unwrap_or_else(|e| panic!("valid B=2 batch at w = {w}: {e}"));
        let mut bad = sigs.clone();
        bad[0] = bad[0]
            .edited(|r| r.s = (&r.s + 1u32) % modulus::<halo2curves::secp256k1::Fq>())
            .expect("below 2^256");
        let cb = BatchEcdsaCircuit::new(c.params().clone(), bad, w);
        assert!(mock_verify(k, &cb).is_err(), "w = {w}: s + 1 accepted");
        let mut bad = sigs;
        bad[1] = bad[1]
            .edited(|r| r.r_point.1 = modulus::<Fp>() - &r.r_point.1)
            .expect("below 2^256");
        let cb = BatchEcdsaCircuit::new(c.params().clone(), bad, w);
        assert!(mock_verify(k, &cb).is_err(), "w = {w}: R -> -R accepted");
    }
}
