//! The digest wrapper (`evm/contracts/BatchEcdsaWrapper.sol`) in revm against the stand-in
//! verifier (`MockDigestVerifier.sol`), which accepts only D_hi ‖ D_lo ‖ proof for the D that
//! `batch_ecdsa::native::digest::batch_digest` gives and the exact proof bytes (the wrapper
//! deployed with no prefix words), or, for a wrapper deployed with 12 prefix words (the
//! aggregated verifier's accumulator), only acc ‖ D_hi ‖ D_lo ‖ proof for the exact 12 words
//! acc. No proof is made: what is tested is that the wrapper calls the verifier with the
//! statement of the batch it was given, and rejects malformed input with its named errors.
//!
//! Needs solc-js (`npm ci --prefix evm/solc`; `.ci/run` installs it).

use std::sync::OnceLock;

use batch_ecdsa::native::digest::batch_digest;
use batch_ecdsa::native::hash::keccak256;
use batch_ecdsa_evm::chain::Chain;
use batch_ecdsa_evm::solc::Compiled;
use batch_ecdsa_evm::solc::Solc;
use batch_ecdsa_evm::wrapper::{
    abi_bytes_call, demo_file_pairs, encode_payloads, measure_aggregated, mock_verifier_creation,
    split_verifier_calldata, verifier_calldata, verify_hashes_calldata,
    verify_transactions_calldata, wrapper_creation, wrapper_proof, PayloadBatch as Batch,
    WrapperChain, WrapperCode, WrapperRevert, AGGREGATED_PREFIX_WORDS, MEASURE_BURN, VERIFY_HASHES,
    VERIFY_TRANSACTIONS,
};
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;

fn code() -> &'static WrapperCode {
    static CODE: OnceLock<WrapperCode> = OnceLock::new();
    CODE.get_or_init(|| {
        let solc = Solc::locate_or_install().expect("solc-js (npm ci --prefix evm/solc)");
        WrapperCode::compile(&solc).expect("compiles")
    })
}

/// `n` demo transactions' signing payloads and senders (seed 1).
fn demo(n: usize) -> Batch {
    Batch::demo(n, 1).expect("demo transactions")
}

fn proof() -> Vec<u8> {
    (0..1000u32).map(|i| (i * 7 + 3) as u8).collect()
}

/// The wrapper (no prefix words) beside a stand-in verifier expecting `batch` and `proof`.
fn chain_for(batch: &Batch, proof: &[u8]) -> WrapperChain {
    prefixed_chain_for(&[], batch, proof)
}

/// The wrapper with `prefix.len()` prefix words beside a stand-in verifier expecting
/// prefix ‖ D ‖ proof for `batch`.
fn prefixed_chain_for(prefix: &[[u8; 32]], batch: &Batch, proof: &[u8]) -> WrapperChain {
    let d = batch.digest();
    let mock = mock_verifier_creation(&code().mock, prefix, &d, proof, 0);
    WrapperChain::deploy(&code().wrapper, &mock, false, prefix.len()).expect("deploys")
}

fn hashes(batch: &Batch) -> Vec<[u8; 32]> {
    batch.payloads.iter().map(|p| keccak256(p)).collect()
}

/// Both functions accept `batch` and return the Rust D.
fn assert_accepted(chain: &mut WrapperChain, batch: &Batch, proof: &[u8]) {
    let expected = batch_digest(
        &hashes(batch)
            .into_iter()
            .zip(batch.senders.iter().copied())
            .collect::<Vec<_>>(),
    );
    let data = verify_transactions_calldata(&batch.payloads, &batch.senders, proof).unwrap();
    let (d, _) = chain.verify(&data).expect("verifyTransactions accepts");
    assert_eq!(d, expected, "verifyTransactions' D");
    let data = verify_hashes_calldata(&hashes(batch), &batch.senders, proof).unwrap();
    let (d, _) = chain.verify(&data).expect("verifyHashes accepts");
    assert_eq!(d, expected, "verifyHashes' D");
}

/// Both functions reject `batch` (with `proof`) as ProofRejected.
fn assert_rejected(chain: &mut WrapperChain, batch: &Batch, proof: &[u8]) {
    let data = verify_transactions_calldata(&batch.payloads, &batch.senders, proof).unwrap();
    assert_eq!(chain.verify(&data), Err(WrapperRevert::ProofRejected));
    let data = verify_hashes_calldata(&hashes(batch), &batch.senders, proof).unwrap();
    assert_eq!(chain.verify(&data), Err(WrapperRevert::ProofRejected));
}

/// B = 1 and 2 (demo transactions), and 32 mixing demo transactions with an empty payload and
/// payloads of 256 and 1,000 bytes.
#[test]
fn valid_batches_pass() {
    let proof = proof();
    let mut b32 = demo(29);
    for len in [0usize, 256, 1000] {
        b32.payloads
            .push((0..len).map(|i| (i % 251) as u8).collect());
        b32.senders.push([len as u8; 20]);
    }
    b32.payloads.swap(0, 29);
    b32.senders.swap(0, 29);
    let mut two = demo(2);
    two.payloads[1] = vec![0xee; 300];
    for batch in [demo(1), demo(2), two, b32] {
        let mut chain = chain_for(&batch, &proof);
        assert_accepted(&mut chain, &batch, &proof);
    }
}

/// A payload one byte off, a sender one byte off, two pairs swapped, two senders swapped,
/// the proof one byte off or one byte short: the wrapper computes (or forwards) something
/// else and the verifier rejects.
#[test]
fn tampered_batches_are_rejected() {
    let proof = proof();
    let batch = demo(6);
    let mut chain = chain_for(&batch, &proof);
    assert_accepted(&mut chain, &batch, &proof);

    let mut b = batch.clone();
    b.payloads[3][10] ^= 1;
    assert_rejected(&mut chain, &b, &proof);

    let mut b = batch.clone();
    b.senders[5][19] ^= 0x40;
    assert_rejected(&mut chain, &b, &proof);

    let mut b = batch.clone();
    b.payloads.swap(1, 4);
    b.senders.swap(1, 4);
    assert_rejected(&mut chain, &b, &proof);

    let mut b = batch.clone();
    b.senders.swap(0, 1);
    assert_rejected(&mut chain, &b, &proof);

    let mut p = proof.clone();
    p[500] ^= 1;
    assert_rejected(&mut chain, &batch, &p);
    assert_rejected(&mut chain, &batch, &proof[..proof.len() - 1]);

    // The pairs of a prefix of the batch.
    let prefix = Batch {
        payloads: batch.payloads[..5].to_vec(),
        senders: batch.senders[..5].to_vec(),
    };
    assert_rejected(&mut chain, &prefix, &proof);
}

/// Calldata of `verifyTransactions` from raw `payloads` and `senders` bytes (any encoding).
fn raw_tx_call(payloads: &[u8], senders: &[u8], proof: &[u8]) -> Vec<u8> {
    abi_bytes_call(VERIFY_TRANSACTIONS, &[payloads, senders, proof])
}

#[test]
fn malformed_inputs_are_named() {
    let proof = proof();
    let batch = demo(3);
    let mut chain = chain_for(&batch, &proof);
    let enc = encode_payloads(&batch.payloads).unwrap();
    let senders = batch.senders.concat();
    let b = batch.payloads.len() as u64;
    assert!(chain.verify(&raw_tx_call(&enc, &senders, &proof)).is_ok());

    // Senders: empty, one byte short, one byte over.
    assert_eq!(
        chain.verify(&raw_tx_call(&enc, &[], &proof)),
        Err(WrapperRevert::EmptyBatch)
    );
    assert_eq!(
        chain.verify(&raw_tx_call(&enc, &senders[1..], &proof)),
        Err(WrapperRevert::SendersLength(59))
    );
    let mut over = senders.clone();
    over.push(0);
    assert_eq!(
        chain.verify(&raw_tx_call(&enc, &over, &proof)),
        Err(WrapperRevert::SendersLength(61))
    );
    // One sender more than payloads: the fourth payload's prefix is missing.
    let mut four = senders.clone();
    four.extend_from_slice(&[9u8; 20]);
    assert_eq!(
        chain.verify(&raw_tx_call(&enc, &four, &proof)),
        Err(WrapperRevert::MalformedPayloads(3))
    );
    // One sender fewer: bytes remain after the second payload.
    assert_eq!(
        chain.verify(&raw_tx_call(&enc, &senders[..40], &proof)),
        Err(WrapperRevert::MalformedPayloads(2))
    );
    // Trailing bytes after the last payload.
    let mut trailing = enc.clone();
    trailing.push(0);
    assert_eq!(
        chain.verify(&raw_tx_call(&trailing, &senders, &proof)),
        Err(WrapperRevert::MalformedPayloads(b))
    );
    // The last payload one byte short of its prefix.
    assert_eq!(
        chain.verify(&raw_tx_call(&enc[..enc.len() - 1], &senders, &proof)),
        Err(WrapperRevert::MalformedPayloads(b - 1))
    );
    // The first prefix overruns the end (by one byte, then the largest a prefix can say).
    let first = batch.payloads[0].len() as u32;
    for len in [(enc.len() - 3 + 1) as u32, (1 << 24) - 1] {
        let mut bad = enc.clone();
        bad[..3].copy_from_slice(&len.to_be_bytes()[1..]);
        assert_eq!(
            chain.verify(&raw_tx_call(&bad, &senders, &proof)),
            Err(WrapperRevert::MalformedPayloads(0))
        );
    }
    // A prefix cut: the payloads end one or two bytes into the second prefix.
    let second = 3 + batch.payloads[0].len();
    for cut in [1, 2] {
        assert_eq!(
            chain.verify(&raw_tx_call(&enc[..second + cut], &senders, &proof)),
            Err(WrapperRevert::MalformedPayloads(1))
        );
    }
    // A prefix one less or one more than its payload: the next prefix is read out of place,
    // and the pairs hashed (if it parses at all) are not the batch's.
    for len in [first - 1, first + 1] {
        let mut shifted = enc.clone();
        shifted[..3].copy_from_slice(&len.to_be_bytes()[1..]);
        assert!(chain
            .verify(&raw_tx_call(&shifted, &senders, &proof))
            .is_err());
    }

    // verifyHashes: 32 bytes per sender, or HashesLength.
    let hashes = hashes(&batch).concat();
    let call = |h: &[u8], s: &[u8]| abi_bytes_call(VERIFY_HASHES, &[h, s, &proof]);
    assert!(chain.verify(&call(&hashes, &senders)).is_ok());
    assert_eq!(
        chain.verify(&call(&hashes[1..], &senders)),
        Err(WrapperRevert::HashesLength {
            length: 95,
            expected: 96
        })
    );
    assert_eq!(
        chain.verify(&call(&hashes, &senders[..40])),
        Err(WrapperRevert::HashesLength {
            length: 96,
            expected: 64
        })
    );
    assert_eq!(
        chain.verify(&call(&hashes, &[])),
        Err(WrapperRevert::EmptyBatch)
    );
}

/// Random batches (B from 1 to 40, payloads of 0 to 600 random bytes, random senders): the
/// stand-in accepts, so the wrapper sent the Rust D's words, and the wrapper returns D.
#[test]
fn wrapper_digest_matches_native() {
    let mut rng = ChaCha20Rng::seed_from_u64(17);
    for _ in 0..24 {
        let b = 1 + (rng.next_u32() % 40) as usize;
        let mut batch = Batch {
            payloads: Vec::new(),
            senders: Vec::new(),
        };
        for _ in 0..b {
            let mut p = vec![0u8; (rng.next_u32() % 601) as usize];
            rng.fill_bytes(&mut p);
            let mut a = [0u8; 20];
            rng.fill_bytes(&mut a);
            batch.payloads.push(p);
            batch.senders.push(a);
        }
        let mut proof = vec![0u8; 1 + (rng.next_u32() % 2000) as usize];
        rng.fill_bytes(&mut proof);
        let mut chain = chain_for(&batch, &proof);
        assert_accepted(&mut chain, &batch, &proof);
    }
}

/// A verifier address without code is refused at deployment (a call to it would succeed).
#[test]
fn verifier_without_code_is_refused() {
    let mut chain = Chain::new(false);
    let no_code = revm::primitives::Address::repeat_byte(0x42);
    let err = chain
        .deploy(&wrapper_creation(&code().wrapper, no_code, 0))
        .expect_err("deploys against an address without code");
    let selector = hex::encode(&keccak256(b"NoVerifierCode()")[..4]);
    assert!(err.contains(&selector), "{err}");
}

/// A stand-in accumulator: 12 words of 88-bit limbs (as the aggregated verifier's are),
/// distinct from one another.
fn accumulator() -> Vec<[u8; 32]> {
    (0..AGGREGATED_PREFIX_WORDS)
        .map(|i| {
            let h = keccak256(&[i as u8]);
            let mut w = [0u8; 32];
            w[21..].copy_from_slice(&h[..11]);
            w
        })
        .collect()
}

/// With 12 prefix words (the aggregated verifier's accumulator) the caller passes
/// acc ‖ proof and the verifier gets acc ‖ D_hi ‖ D_lo ‖ proof: accepted for the batch and its
/// accumulator (B = 1, 6 and 32 mixed payloads); rejected for a changed accumulator word (the
/// first, a middle and the last), a changed payload or sender, two swapped pairs, the proof
/// without its accumulator, and a wrapper with no prefix in front of the same verifier.
#[test]
fn prefixed_verifier_gets_prefix_then_digest() {
    let proof = proof();
    let acc = accumulator();
    let mut b32 = demo(31);
    b32.payloads.push(vec![0x5a; 700]);
    b32.senders.push([7u8; 20]);
    for batch in [demo(1), demo(6), b32] {
        let mut chain = prefixed_chain_for(&acc, &batch, &proof);
        assert_accepted(&mut chain, &batch, &wrapper_proof(&acc, &proof));
    }

    let batch = demo(6);
    let mut chain = prefixed_chain_for(&acc, &batch, &proof);
    let with_acc = wrapper_proof(&acc, &proof);
    assert_accepted(&mut chain, &batch, &with_acc);
    // The public getter.
    let got = chain.call(&keccak256(b"prefixWords()")[..4]).unwrap();
    assert_eq!(got.output[31], 12);
    assert!(got.output[..31].iter().all(|&b| b == 0));

    for (word, byte) in [(0, 31), (5, 21), (11, 31)] {
        let mut a = acc.clone();
        a[word][byte] ^= 1;
        assert_rejected(&mut chain, &batch, &wrapper_proof(&a, &proof));
    }
    let mut b = batch.clone();
    b.payloads[2][0] ^= 0x10;
    assert_rejected(&mut chain, &b, &with_acc);
    let mut b = batch.clone();
    b.senders[4][7] ^= 1;
    assert_rejected(&mut chain, &b, &with_acc);
    let mut b = batch.clone();
    b.payloads.swap(0, 5);
    b.senders.swap(0, 5);
    assert_rejected(&mut chain, &b, &with_acc);
    // The proof alone (long enough to be cut after 12 words, which are then no accumulator).
    assert_rejected(&mut chain, &batch, &proof);

    // A wrapper without a prefix in front of this verifier sends D first: rejected.
    let mock = mock_verifier_creation(&code().mock, &acc, &batch.digest(), &proof, 0);
    let mut unprefixed = WrapperChain::deploy(&code().wrapper, &mock, false, 0).unwrap();
    assert_rejected(&mut unprefixed, &batch, &with_acc);
}

/// A `proof` shorter than the 12 prefix words reverts with ProofShorterThanPrefix (empty,
/// one word, one byte short); exactly the prefix (an empty rest) is forwarded, and this
/// verifier, expecting a proof after D, rejects it.
#[test]
fn proof_shorter_than_prefix_is_named() {
    let proof = proof();
    let acc = accumulator();
    let batch = demo(3);
    let mut chain = prefixed_chain_for(&acc, &batch, &proof);
    let full = wrapper_proof(&acc, &proof);
    let hashes = hashes(&batch);
    for len in [0usize, 32, 383] {
        let short = &full[..len];
        let expected = Err(WrapperRevert::ProofShorterThanPrefix {
            length: len as u64,
            prefix_bytes: 384,
        });
        let data = verify_hashes_calldata(&hashes, &batch.senders, short).unwrap();
        assert_eq!(chain.verify(&data), expected);
        let data = verify_transactions_calldata(&batch.payloads, &batch.senders, short).unwrap();
        assert_eq!(chain.verify(&data), expected);
    }
    assert_rejected(&mut chain, &batch, &full[..384]);
    assert_accepted(&mut chain, &batch, &full);

    // The same verifier, now expecting an empty proof after D: the prefix alone is accepted.
    let mut chain = prefixed_chain_for(&acc, &batch, &[]);
    assert_accepted(&mut chain, &batch, &full[..384]);
}

/// `split_verifier_calldata` inverts `verifier_calldata`, and is None below prefix + 2 words.
#[test]
fn verifier_calldata_splits() {
    let acc = accumulator();
    let d = demo(2).digest();
    let data = verifier_calldata(&acc, &d, &proof());
    assert_eq!(&data[..384], acc.concat().as_slice());
    let split = split_verifier_calldata(&data, 12).unwrap();
    assert_eq!(split.prefix, acc);
    assert_eq!(
        split.digest_words,
        batch_ecdsa::native::digest::digest_words(&d)
    );
    assert_eq!(split.proof, proof());
    assert_eq!(verifier_calldata(&split.prefix, &d, &split.proof), data);
    assert!(split_verifier_calldata(&data[..14 * 32 - 1], 12).is_none());
    assert_eq!(
        split_verifier_calldata(&data[..14 * 32], 12).unwrap().proof,
        Vec::<u8>::new()
    );
}

/// `measure_aggregated` (what `evm-wrapper-gas --aggregated` runs on the real verifier's
/// files) against the stand-in expecting acc ‖ D ‖ proof for the demo file's pairs: accepted,
/// every tampered call rejected, the wrapper's share a few thousand gas; calldata whose D is
/// not the pairs' (those of a prefix of the batch) is refused before anything is deployed.
#[test]
fn aggregated_measurement_against_stand_in() {
    let pairs = demo_file_pairs(4).expect("demo pairs");
    let acc = accumulator();
    let proof = proof();
    let d = batch_digest(&pairs);
    let verifier = Compiled {
        creation: mock_verifier_creation(&code().mock, &acc, &d, &proof, MEASURE_BURN),
        ..code().mock.clone()
    };
    let calldata = verifier_calldata(&acc, &d, &proof);
    let row = measure_aggregated(&code().wrapper, &verifier, &calldata, &pairs).unwrap();
    assert!(row.accepted);
    assert!(row.changed_hash_rejected && row.changed_address_rejected);
    assert!(row.swapped_pair_rejected && row.changed_accumulator_rejected);
    assert_eq!((row.batch_size, row.prefix_words), (4, 12));
    assert_eq!(row.outer_proof_bytes, proof.len() as u64);
    assert_eq!(row.direct_calldata_bytes, calldata.len() as u64);
    // The ABI call: selector, 3 offsets, then hashes, senders and acc ‖ proof with lengths.
    let padded = |n: usize| 32 + n.div_ceil(32) * 32;
    assert_eq!(
        row.calldata_bytes as usize,
        4 + 96 + padded(4 * 32) + padded(4 * 20) + padded(384 + proof.len())
    );
    assert!(
        row.wrapper_gas > 2_600 && row.wrapper_gas < 10_000,
        "{row:?}"
    );
    assert_eq!(
        row.execution_gas,
        row.direct_execution_gas + row.wrapper_gas
    );

    let err = measure_aggregated(&code().wrapper, &verifier, &calldata, &pairs[..3]).unwrap_err();
    assert!(err.contains("not D_hi, D_lo"), "{err}");
    let err =
        measure_aggregated(&code().wrapper, &verifier, &calldata[..13 * 32], &pairs).unwrap_err();
    assert!(err.contains("shorter than 14 words"), "{err}");
}
