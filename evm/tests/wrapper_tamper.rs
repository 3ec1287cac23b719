//! The hardened digest wrapper in front of the real aggregated verifier (the committed
//! `evm/tests/fixtures/aggregate-digest-b32`: `AggregationVerifier.sol`, compiled with solc-js and
//! deployed in revm with EIP-170 enforced, and its honest calldata for the demo batch of 32
//! signatures; `evm/tests/fixtures/aggregated-txs-b8` for a second proof). What the generated verifier
//! lets through on its own (a public input or scalar + r read mod r, bytes after its proof)
//! or burns all the gas it is given on (an off-curve point, a changed accumulator limb), each
//! sent directly and through the wrapper: the wrapper names it, or rejects it within its
//! verifierGas, at most 1.5× the honest call's gas; `results/wrapper-tamper.json` is what
//! `evm-wrapper-tamper` measures.
//!
//! Needs solc-js (`npm ci --prefix evm/solc`; `.ci/run` installs it).

mod committed;
use committed::{compiled, verifier_sol};

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use batch_ecdsa::native::digest::batch_digest;
use batch_ecdsa::prover::proof::DigestPair;
use batch_ecdsa_evm::chain::CallOutcome;
use batch_ecdsa_evm::wrapper::{
    accumulator_coordinate, accumulator_out_of_range, add_words, aggregated_wrapper_config,
    demo_file_pairs, is_g1_point, measure_tampering, pow2_word, split_verifier_calldata,
    verifier_calldata, verify_hashes_calldata, wrapper_proof, ProofLayout, SplitCalldata,
    TamperReport, WrapperChain, WrapperRevert, AGGREGATED_PREFIX_WORDS, AGGREGATED_PROOF_LAYOUT,
    AGGREGATED_VERIFIER_GAS, BN254_R, TAMPER_GAS_BOUND,
};
use ff::PrimeField;

const B: usize = 32;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// A committed verifier calldata, split into accumulator, D's words and outer proof.
fn committed(dir: &str, file: &str) -> SplitCalldata {
    let text = std::fs::read_to_string(fixtures().join(dir).join(file)).expect("committed");
    let calldata = hex::decode(text.trim()).expect("hex");
    split_verifier_calldata(&calldata, AGGREGATED_PREFIX_WORDS).expect("long enough")
}

fn b32() -> SplitCalldata {
    committed("aggregate-digest-b32", "calldata.hex")
}

fn pairs() -> &'static [DigestPair] {
    static P: OnceLock<Vec<DigestPair>> = OnceLock::new();
    P.get_or_init(|| demo_file_pairs(B).expect("demo batch"))
}

/// The verifier under EIP-170 and the wrapper in front of it.
fn chain() -> WrapperChain {
    let (verifier, code) = compiled();
    WrapperChain::deploy(
        &code.wrapper,
        &verifier.creation,
        false,
        &aggregated_wrapper_config(B, AGGREGATED_PROOF_LAYOUT),
    )
    .expect("deploys")
}

/// A big-endian word of a base field element.
fn be(f: halo2_proofs::halo2curves::bn256::Fq) -> [u8; 32] {
    let mut w = f.to_repr();
    w.reverse();
    w
}

/// The two committed proofs: their outer proofs have the aggregated layout (found from their
/// bytes: 19 commitments, 62 scalars, 2 points), every word in range; their accumulators are
/// in range, and their limbs are little-endian (l0 + l1·2^88 + l2·2^176 gives two points on
/// the curve; the other order does not). The generated verifier reads exactly the layout's
/// scalar words mod r (and the 14 public inputs), the others as points.
#[test]
fn committed_proofs_have_the_aggregated_layout() {
    for (dir, file) in [
        ("aggregate-digest-b32", "calldata.hex"),
        ("aggregated-txs-b8", "verifier-calldata.hex"),
    ] {
        let split = committed(dir, file);
        assert_eq!(
            ProofLayout::find(&split.proof),
            Ok(AGGREGATED_PROOF_LAYOUT),
            "{dir}"
        );
        assert_eq!(
            AGGREGATED_PROOF_LAYOUT.first_out_of_range(&split.proof),
            None
        );
        assert_eq!(accumulator_out_of_range(&split.prefix), None, "{dir}");
        for k in 0..2 {
            let a = &split.prefix[6 * k..6 * k + 6];
            let point = |x: &[[u8; 32]], y: &[[u8; 32]]| -> Option<bool> {
                let (x, y) = (accumulator_coordinate(x)?, accumulator_coordinate(y)?);
                Some(is_g1_point(&[be(x), be(y)].concat()))
            };
            assert_eq!(point(&a[..3], &a[3..]), Some(true), "{dir} point {k}");
            let (mut x, mut y) = (a[..3].to_vec(), a[3..].to_vec());
            x.reverse();
            y.reverse();
            assert_ne!(point(&x, &y), Some(true), "{dir} point {k}, limbs reversed");
        }
    }
    // The verifier's own reading of its calldata: mod r for the public inputs and scalars.
    let sol = verifier_sol();
    let mut scalars = Vec::new();
    let mut points = Vec::new();
    for (i, _) in sol.match_indices("calldataload(0x") {
        let hex_end = sol[i + 15..].find(')').unwrap() + i + 15;
        let offset = usize::from_str_radix(&sol[i + 15..hex_end], 16).unwrap();
        if sol[..i].ends_with("mod(") {
            scalars.push(offset);
        } else {
            points.push(offset);
        }
    }
    scalars.sort();
    points.sort();
    let rest_at = 32 * (AGGREGATED_PREFIX_WORDS + 2);
    let l = AGGREGATED_PROOF_LAYOUT;
    let s0 = rest_at + l.scalars_offset;
    let expected: Vec<usize> = (0..rest_at)
        .step_by(32)
        .chain((s0..s0 + 32 * l.scalars_count).step_by(32))
        .collect();
    assert_eq!(scalars, expected);
    let expected: Vec<usize> = (rest_at..rest_at + l.rest_bytes)
        .step_by(32)
        .filter(|o| !expected.contains(o))
        .collect();
    assert_eq!(points, expected);
}

fn report() -> &'static TamperReport {
    static R: OnceLock<TamperReport> = OnceLock::new();
    R.get_or_init(|| {
        let (verifier, code) = compiled();
        let s = b32();
        let calldata = verifier_calldata(&s.prefix, &batch_digest(pairs()), &s.proof);
        measure_tampering(&code.wrapper, verifier, &calldata, pairs()).expect("measured")
    })
}

/// Each tampering of the honest call (`measure_tampering`, what `evm-wrapper-tamper` writes to
/// `results/wrapper-tamper.json`): directly, the verifier accepts a limb or scalar + r and
/// bytes after its proof, and burns nearly all 30M gas on an off-curve point or on a
/// coordinate + q; through the wrapper each is named or ProofRejected, at most 1.5× the honest
/// call. The committed report is the one measured here.
#[test]
fn tampered_calls_are_named_or_rejected_within_the_bound() {
    let r = report();
    assert_eq!(
        r.config,
        aggregated_wrapper_config(B, AGGREGATED_PROOF_LAYOUT)
    );
    assert_eq!(r.verifier_honest_execution_gas, 419_814);
    assert_eq!(r.config.verifier_gas, AGGREGATED_VERIFIER_GAS);
    let honest = &r.rows[0];
    assert_eq!(
        (honest.case.as_str(), honest.direct_outcome.as_str()),
        ("honest", "accepted")
    );
    assert_eq!(honest.wrapper_outcome, "accepted");
    assert_eq!(honest.wrapper_gas, r.honest_wrapper_gas);
    let scalar0 = 384 + AGGREGATED_PROOF_LAYOUT.scalars_offset;
    // (case, directly: outcome and whether it burns nearly all 30M, through the wrapper).
    let expected: [(&str, &str, bool, &str); 12] = [
        ("honest", "accepted", false, "accepted"),
        ("off-curve point", "reverted", true, "ProofRejected"),
        ("off-curve final point", "halt", true, "ProofRejected"),
        (
            "coordinate + q",
            "reverted",
            true,
            "ProofWordOutOfRange(384)",
        ),
        ("changed accumulator limb", "halt", true, "ProofRejected"),
        (
            "accumulator limb + r",
            "accepted",
            false,
            "AccumulatorOutOfRange(0)",
        ),
        ("changed scalar", "reverted", false, "ProofRejected"),
        (
            "scalar + r",
            "accepted",
            false,
            &format!("ProofWordOutOfRange({scalar0})"),
        ),
        (
            "proof a word longer",
            "accepted",
            false,
            "ProofLength { length: 3744, expected: 3712 }",
        ),
        (
            "proof a word shorter",
            "halt",
            true,
            "ProofLength { length: 3680, expected: 3712 }",
        ),
        ("trailing calldata", "accepted", false, "CalldataLength"),
        ("too little gas", "accepted", false, "InsufficientGas"),
    ];
    assert_eq!(r.rows.len(), expected.len());
    for (row, (case, direct, burns, through)) in r.rows.iter().zip(expected) {
        assert_eq!(row.case, case);
        assert!(
            row.direct_outcome.starts_with(direct),
            "{case}: directly {}",
            row.direct_outcome
        );
        assert_eq!(
            row.direct_gas > 29_000_000,
            burns,
            "{case}: {}",
            row.direct_gas
        );
        assert!(
            row.wrapper_outcome.starts_with(through),
            "{case}: through the wrapper {}",
            row.wrapper_outcome
        );
        assert!(
            row.wrapper_gas as f64 <= TAMPER_GAS_BOUND * r.honest_wrapper_gas as f64,
            "{case}: {} gas through the wrapper, honest {}",
            row.wrapper_gas,
            r.honest_wrapper_gas
        );
        if through == "ProofRejected" && burns {
            // The verifier used all of verifierGas: the cap is what bounds the call.
            assert!(row.wrapper_gas > r.honest_wrapper_gas + 200_000, "{case}");
        }
    }
    assert!(r.worst_tampered_vs_honest <= TAMPER_GAS_BOUND);
}

/// Calls `acc ‖ D ‖ rest` directly and through the wrapper: (directly accepted, the wrapper's
/// result).
fn both(
    chain: &mut WrapperChain,
    acc: &[[u8; 32]],
    rest: &[u8],
) -> (bool, Result<(), WrapperRevert>) {
    let d = batch_digest(pairs());
    let direct = chain
        .call_verifier(&verifier_calldata(acc, &d, rest))
        .unwrap();
    let hashes: Vec<[u8; 32]> = pairs().iter().map(|p| p.0).collect();
    let senders: Vec<[u8; 20]> = pairs().iter().map(|p| p.1).collect();
    let data = verify_hashes_calldata(&hashes, &senders, &wrapper_proof(acc, rest)).unwrap();
    (
        matches!(direct.outcome, CallOutcome::Accepted(_)),
        chain.verify(&data).map(|(got, _)| assert_eq!(got, d)),
    )
}

/// Against the real verifier, word by word: each accumulator limb + r (the first, a middle,
/// each coordinate's top limb) and the first and last scalar + r are accepted directly (the
/// verifier reduces them mod r: another encoding of the same proof) and named through the
/// wrapper; a top limb + 2^80 (the same coordinate once shifted into 256 bits) is named too.
#[test]
fn real_verifier_accepts_what_the_wrapper_names() {
    let mut chain = chain();
    let s = b32();
    assert_eq!(both(&mut chain, &s.prefix, &s.proof), (true, Ok(())));
    for i in [0usize, 2, 4, 5, 8, 11] {
        let mut acc = s.prefix.clone();
        acc[i] = add_words(&acc[i], &BN254_R).unwrap();
        assert_eq!(
            both(&mut chain, &acc, &s.proof),
            (true, Err(WrapperRevert::AccumulatorOutOfRange(i as u64))),
            "accumulator word {i} + r"
        );
    }
    let mut acc = s.prefix.clone();
    acc[2] = add_words(&acc[2], &pow2_word(80)).unwrap();
    assert_eq!(
        both(&mut chain, &acc, &s.proof).1,
        Err(WrapperRevert::AccumulatorOutOfRange(2))
    );
    let l = AGGREGATED_PROOF_LAYOUT;
    for j in [0, l.scalars_count - 1] {
        let at = l.scalars_offset + 32 * j;
        let mut rest = s.proof.clone();
        let w: [u8; 32] = rest[at..at + 32].try_into().unwrap();
        rest[at..at + 32].copy_from_slice(&add_words(&w, &BN254_R).unwrap());
        assert_eq!(
            both(&mut chain, &s.prefix, &rest),
            (
                true,
                Err(WrapperRevert::ProofWordOutOfRange(384 + at as u64))
            ),
            "scalar {j} + r"
        );
    }
}

/// Too small a gas limit for the honest call through the wrapper, from where the verifier
/// could not finish (without the check, a ProofRejected) up to one below the least accepted,
/// is InsufficientGas every time.
#[test]
fn real_verifier_too_little_gas_is_named() {
    let r = report();
    let mut chain = chain();
    let s = b32();
    let hashes: Vec<[u8; 32]> = pairs().iter().map(|p| p.0).collect();
    let senders: Vec<[u8; 20]> = pairs().iter().map(|p| p.1).collect();
    let data =
        verify_hashes_calldata(&hashes, &senders, &wrapper_proof(&s.prefix, &s.proof)).unwrap();
    let min = r.honest_min_gas_limit;
    let (_, gas) = chain.verify_with_gas_limit(&data, min).expect("accepted");
    // Below the EIP-7623 floor the transaction is invalid: start above it.
    let start = (gas.total - r.verifier_honest_execution_gas + 10_000).max(gas.floor + 1);
    let steps = 40;
    for i in 0..=steps {
        let limit = start + (min - 1 - start) * i / steps;
        match chain.verify_with_gas_limit(&data, limit) {
            Err(WrapperRevert::InsufficientGas { have, need }) => assert!(have < need),
            other => panic!("gas limit {limit}: {other:?}"),
        }
    }
}
