//! Both ECDSA circuits under the digest statement (`Statement::Digest`): the only public input
//! is `D = keccak256(h₀ ‖ a₀ ‖ …)` as two 128-bit halves. Valid batches are accepted (with the
//! footprint check); an instance naming a wrong address, a wrong hash, a swapped pair or a
//! changed D is rejected; a signing hash `≥ n` is proven as it is signed (mod n); a changed
//! committed phase-0 key or hash limb and sampled witness / footprint mutations are caught.

use batch_ecdsa_circuits::bigint::modulus;
use batch_ecdsa_circuits::ecdsa::batch::{BatchEcdsaCircuit, DEFAULT_BATCH_WINDOW};
use batch_ecdsa_circuits::ecdsa::digest::{
    address_of, be_bytes32, digest_instance, witness_digest,
};
use batch_ecdsa_circuits::ecdsa::naive::{NaiveEcdsaCircuit, DEFAULT_WINDOW};
use batch_ecdsa_circuits::ecdsa::{SignatureWitness, Statement};
use batch_ecdsa_circuits::layout::adversary::Adversary;
use batch_ecdsa_circuits::layout::Native;
use batch_ecdsa_circuits::plan::FitOptions;
use batch_ecdsa_circuits::test_utils::{
    ecdsa_witness, footprint_mutation_test, mock_verify, mutation_test, Mutable,
};
use batch_ecdsa_native::digest::batch_digest;
use ff::Field;
use halo2_proofs::dev::MockProver;
use halo2curves::secp256k1::Fq;

fn batch(sigs: Vec<SignatureWitness>) -> (BatchEcdsaCircuit, u32) {
    let (c, k) = BatchEcdsaCircuit::fitted(
        sigs,
        &FitOptions::default()
            .window(DEFAULT_BATCH_WINDOW)
            .statement(Statement::Digest),
    );
    println!(
        "batch digest B={}: k={k}, d={}, {:?}",
        c.signatures().len(),
        c.params().keccak_digits,
        c.phase_stats()
    );
    (c, k)
}

/// A valid witness of the scalar `h` (secrets from `seed`): `s = (h + r·d)/k`.
fn witness_with_h(seed: u64, h: Fq) -> SignatureWitness {
    use group::Curve;
    use halo2curves::secp256k1::Secp256k1;
    let d = Fq::from(seed + 1000);
    let k = Fq::from(seed + 2000);
    let q = (Secp256k1::generator() * d).to_affine();
    let r_point = (Secp256k1::generator() * k).to_affine();
    let r: Fq = batch_ecdsa_circuits::bigint::big_to_fe(&batch_ecdsa_circuits::bigint::fe_to_big(
        &r_point.x,
    ));
    let s = (h + r * d) * k.invert().unwrap();
    SignatureWitness::new(r_point, s, h, q).expect("a valid witness")
}

fn pairs(ws: &[SignatureWitness]) -> Vec<([u8; 32], [u8; 20])> {
    ws.iter()
        .map(|w| (be_bytes32(w.hash()), address_of(&w.q().0, &w.q().1)))
        .collect()
}

/// MockProver with `instance` in place of the circuit's own.
fn rejects_instance<C: Mutable>(k: u32, c: &C, instance: Vec<Native>) -> bool {
    MockProver::run(k, c, vec![instance])
        .expect("synthesis")
        .verify()
        .is_err()
}

/// Instances that name another statement: a wrong address, a wrong hash, the two pairs
/// swapped, D itself changed. Each must be rejected by the circuit `c` of `ws`.
fn wrong_statements(ws: &[SignatureWitness]) -> Vec<(&'static str, Vec<Native>)> {
    let good = pairs(ws);
    let mut out = Vec::new();
    let mut p = good.clone();
    p[0].1[19] ^= 1;
    out.push(("address", digest_instance(&batch_digest(&p)).to_vec()));
    let mut p = good.clone();
    p[ws.len() - 1].0[0] ^= 0x80;
    out.push(("hash", digest_instance(&batch_digest(&p)).to_vec()));
    if ws.len() >= 2 {
        let mut p = good.clone();
        p.swap(0, 1);
        out.push(("swapped pair", digest_instance(&batch_digest(&p)).to_vec()));
        let mut p = good.clone();
        let a = p[0].1;
        p[0].1 = p[1].1;
        p[1].1 = a;
        out.push((
            "addresses exchanged",
            digest_instance(&batch_digest(&p)).to_vec(),
        ));
    }
    let mut inst = digest_instance(&batch_digest(&good)).to_vec();
    inst[1] += Native::ONE;
    out.push(("D_lo + 1", inst));
    let mut inst = digest_instance(&batch_digest(&good)).to_vec();
    inst[0] += Native::ONE;
    out.push(("D_hi + 1", inst));
    out
}

#[test]
fn naive_digest_accepts_and_rejects_wrong_statements() {
    let ws = vec![ecdsa_witness(71), ecdsa_witness(72)];
    let (c, k) = NaiveEcdsaCircuit::fitted(
        ws.clone(),
        &FitOptions::default()
            .window(DEFAULT_WINDOW)
            .statement(Statement::Digest),
    );
    println!(
        "naive digest B=2: k={k}, d={}, {:?}",
        c.params().keccak_digits,
        c.stats()
    );
    assert_eq!(c.instance(), digest_instance(&witness_digest(&ws)).to_vec());
    mock_verify(k, &c).expect("valid naive digest batch");
    for (what, inst) in wrong_statements(&ws) {
        assert!(
            rejects_instance(k, &c, inst),
            "naive: a wrong {what} was accepted"
        );
    }
}

#[test]
fn batch_digest_accepts_and_rejects_wrong_statements() {
    let ws = vec![ecdsa_witness(81), ecdsa_witness(82)];
    let (c, k) = batch(ws.clone());
    mock_verify(k, &c).expect("valid batch digest B=2");
    for (what, inst) in wrong_statements(&ws) {
        assert!(
            rejects_instance(k, &c, inst),
            "batch: a wrong {what} was accepted"
        );
    }
    // The keys instance (3 values per signature) is not this circuit's statement.
    let keys: Vec<Native> = ws.iter().flat_map(|w| w.instance()).collect();
    assert!(rejects_instance(k, &c, keys), "keys instance accepted");
}

/// A signing hash `H ≥ n`: the signature signs `H mod n`; the digest hashes H's own bytes.
#[test]
fn batch_digest_hash_above_n() {
    let w = witness_with_h(91, Fq::from(12345u64));
    let big = w.h() + modulus::<Fq>();
    assert!(big.bits() <= 256, "h + n fits in 256 bits for a small h");
    let w_big = w.clone().with_hash(&be_bytes32(&big)).expect("H ≡ h mod n");
    let (c, k) = batch(vec![w_big.clone()]);
    mock_verify(k, &c).expect("H ≥ n proven");
    // The instance of the reduced bytes is another statement.
    let reduced = digest_instance(&batch_digest(&pairs(&[w]))).to_vec();
    assert!(
        rejects_instance(k, &c, reduced),
        "the reduced hash's digest accepted"
    );
    // A hash that is not ≡ h is refused when the witness is built.
    assert!(w_big
        .clone()
        .with_hash(&be_bytes32(&(&big + 1u32)))
        .is_err());
}

#[test]
fn batch_digest_mutations_and_footprint() {
    let (c, k) = batch(vec![ecdsa_witness(101), ecdsa_witness(102)]);
    let report = mutation_test(k, &c, 8, 17);
    println!("{report}");
    assert_eq!(report.caught, report.total, "escaped: {:?}", report.escaped);
    assert_eq!(report.free, 0, "a valid batch has no free cells");
    let fp = footprint_mutation_test(k, &c, 8, 19, &Adversary::default());
    println!("footprint: {fp}");
    assert_eq!(fp.caught, fp.total, "escaped: {:?}", fp.escaped);
}

/// The phase-0 commitment holds the statement's limbs (h, x(Q), y(Q)) after R and s: a
/// changed one breaks a copy constraint.
#[test]
fn batch_digest_committed_statement_cells_are_bound() {
    let (c, k) = batch(vec![ecdsa_witness(111)]);
    mock_verify(k, &c).expect("valid");
    let per = batch_ecdsa_circuits::ecdsa::batch::raw_cells_per_signature(Statement::Digest);
    assert_eq!(c.phase_stats()[0].advice_cells, per);
    for idx in [9, 11, 12, 17] {
        let bad = c.tampered(idx, Native::ONE);
        assert!(
            batch_ecdsa_circuits::test_utils::mock_only(k, &bad).is_err(),
            "changed committed statement limb {idx} accepted"
        );
    }
}

/// Two phase-1 lanes: the Keccak columns (lane 0 only) and their blocks serve both lanes' work;
/// the layout passes the footprint check and MockProver.
#[test]
fn batch_digest_two_lanes() {
    use batch_ecdsa_circuits::ecdsa::batch::batch_params;
    let ws = vec![ecdsa_witness(121), ecdsa_witness(122)];
    let mut p = batch_params(13, DEFAULT_BATCH_WINDOW);
    p.lanes = vec![1, 2];
    let c = BatchEcdsaCircuit::new(p, ws, DEFAULT_BATCH_WINDOW).with_statement(Statement::Digest);
    let cs = batch_ecdsa_circuits::plan::configured::<BatchEcdsaCircuit>(c.params());
    let one = {
        let mut q = c.params().clone();
        q.lanes = vec![];
        batch_ecdsa_circuits::plan::configured::<BatchEcdsaCircuit>(&q)
    };
    // The second lane adds main and looked-up columns, no Keccak columns.
    assert_eq!(
        cs.num_advice_columns() - one.num_advice_columns(),
        4 + c.params().lookup_cols
    );
    let k = 14;
    println!("two lanes: {:?}", c.phase_stats());
    mock_verify(k, &c).expect("valid two-lane digest batch");
}
