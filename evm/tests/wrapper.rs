//! The digest wrapper (`evm/contracts/BatchEcdsaWrapper.sol`) in revm against the stand-in
//! verifier (`MockDigestVerifier.sol`), which accepts only D_hi ‖ D_lo ‖ proof for the D that
//! `batch_ecdsa::native::digest::batch_digest` gives and the exact proof bytes (the wrapper
//! deployed with no prefix words), or, for a wrapper deployed with 12 prefix words (the
//! aggregated verifier's accumulator), only acc ‖ D_hi ‖ D_lo ‖ proof for the exact 12 words
//! acc. No proof is made: what is tested is that the wrapper calls the verifier with the
//! statement of the batch it was given, and rejects malformed input with its named errors.
//! The hardening checks (canonical calldata, exact proof length, accumulator and proof words
//! in range, the verifier's gas cap and `InsufficientGas`) are each tested here with an input
//! the stand-in would accept (deployed to expect it), so that the named error can only come
//! from the wrapper's check; `wrapper_tamper.rs` runs them against the real verifier.
//!
//! Needs solc-js (`npm ci --prefix evm/solc`; `.ci/run` installs it).

use std::sync::OnceLock;

use batch_ecdsa::native::digest::batch_digest;
use batch_ecdsa::native::hash::keccak256;
use batch_ecdsa_evm::chain::{CallOutcome, Chain};
use batch_ecdsa_evm::solc::Compiled;
use batch_ecdsa_evm::solc::Solc;
use batch_ecdsa_evm::wrapper::{
    abi_bytes_call, add_words, demo_file_pairs, encode_payloads, in_range_stand_in,
    measure_aggregated, mock_verifier_creation, padded_pairs, pow2_word, split_verifier_calldata,
    verifier_calldata, verify_hashes_calldata, verify_transactions_calldata, wrapper_creation,
    wrapper_proof, PayloadBatch as Batch, ProofLayout, WrapperChain, WrapperCode, WrapperConfig,
    WrapperRevert, AGGREGATED_PREFIX_WORDS, BN254_Q, BN254_R, MEASURE_BURN, VERIFY_HASHES,
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

/// A 1,024-byte stand-in proof whose words are in range (< 2^253).
fn proof() -> Vec<u8> {
    in_range_stand_in(&(0..1024u32).map(|i| (i * 7 + 3) as u8).collect::<Vec<_>>())
}

/// The gas the wrapper gives the stand-in verifier here (its own use is a few thousand).
const MOCK_GAS: u64 = 200_000;

/// A layout for a stand-in proof of `len` bytes: a third of its words (rounded down) are
/// scalars, after the first third.
fn layout(len: usize) -> ProofLayout {
    let words = len / 32;
    ProofLayout {
        rest_bytes: len,
        scalars_offset: 32 * (words / 3),
        scalars_count: words / 3,
    }
}

/// The wrapper's configuration for a key of `batch_size` signatures, `prefix_words` and a
/// stand-in proof of `len` bytes.
fn config(batch_size: usize, prefix_words: usize, len: usize) -> WrapperConfig {
    WrapperConfig {
        batch_size,
        prefix_words,
        proof_layout: layout(len),
        verifier_gas: MOCK_GAS,
    }
}

/// The wrapper (no prefix words) beside a stand-in verifier expecting `batch` and `proof`.
fn chain_for(batch: &Batch, proof: &[u8]) -> WrapperChain {
    prefixed_chain_for(&[], batch, proof)
}

/// The wrapper with `prefix.len()` prefix words beside a stand-in verifier expecting
/// prefix ‖ D ‖ proof for `batch`.
fn prefixed_chain_for(prefix: &[[u8; 32]], batch: &Batch, proof: &[u8]) -> WrapperChain {
    let d = batch.digest();
    let mock = mock_verifier_creation(&code().mock, prefix, &d, proof, 0, false);
    WrapperChain::deploy(
        &code().wrapper,
        &mock,
        false,
        &config(batch.senders.len(), prefix.len(), proof.len()),
    )
    .expect("deploys")
}

fn hashes(batch: &Batch) -> Vec<[u8; 32]> {
    batch.payloads.iter().map(|p| keccak256(p)).collect()
}

/// The batch's (signing hash, sender) pairs.
fn pairs_of(batch: &Batch) -> Vec<([u8; 32], [u8; 20])> {
    hashes(batch)
        .into_iter()
        .zip(batch.senders.clone())
        .collect()
}

/// The first `n` transactions of `batch`.
fn first(batch: &Batch, n: usize) -> Batch {
    Batch {
        payloads: batch.payloads[..n].to_vec(),
        senders: batch.senders[..n].to_vec(),
    }
}

/// The wrapper for a key of `b` signatures beside a stand-in verifier that accepts only the
/// D of `pairs` (B of them) and `proof`.
fn chain_for_key(b: usize, pairs: &[([u8; 32], [u8; 20])], proof: &[u8]) -> WrapperChain {
    let mock = mock_verifier_creation(&code().mock, &[], &batch_digest(pairs), proof, 0, false);
    WrapperChain::deploy(&code().wrapper, &mock, false, &config(b, 0, proof.len()))
        .expect("deploys")
}

/// Both functions on `batch`: the wrapper's D, or its revert, each function giving the same.
fn outcome(
    chain: &mut WrapperChain,
    batch: &Batch,
    proof: &[u8],
) -> Result<[u8; 32], WrapperRevert> {
    let tx = verify_transactions_calldata(&batch.payloads, &batch.senders, proof).unwrap();
    let h = verify_hashes_calldata(&hashes(batch), &batch.senders, proof).unwrap();
    let a = chain.verify(&tx).map(|(d, _)| d);
    let b = chain.verify(&h).map(|(d, _)| d);
    assert_eq!(a, b, "verifyTransactions and verifyHashes differ");
    a
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
    assert_reverts(chain, batch, proof, WrapperRevert::ProofRejected);
}

/// Both functions revert with `expected` on `batch` and `proof`.
fn assert_reverts(chain: &mut WrapperChain, batch: &Batch, proof: &[u8], expected: WrapperRevert) {
    let data = verify_transactions_calldata(&batch.payloads, &batch.senders, proof).unwrap();
    assert_eq!(
        chain.verify(&data),
        Err(expected.clone()),
        "verifyTransactions"
    );
    let data = verify_hashes_calldata(&hashes(batch), &batch.senders, proof).unwrap();
    assert_eq!(chain.verify(&data), Err(expected), "verifyHashes");
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
    // One byte short, one byte over: not the proof's length.
    let len = proof.len() as u64;
    for p in [
        &proof[..proof.len() - 1],
        &[&proof[..], &[0u8]].concat()[..],
    ] {
        let expected = WrapperRevert::ProofLength {
            length: p.len() as u64,
            expected: len,
        };
        assert_reverts(&mut chain, &batch, p, expected);
    }

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
    // One sender more than payloads: more than the key's B = 3 ...
    let mut four = senders.clone();
    four.extend_from_slice(&[9u8; 20]);
    assert_eq!(
        chain.verify(&raw_tx_call(&enc, &four, &proof)),
        Err(WrapperRevert::BatchTooLarge {
            count: 4,
            batch_size: 3
        })
    );
    // ... and on a key for B = 4, the fourth payload's prefix is missing.
    let padded = batch_digest(&padded_pairs(&pairs_of(&batch), 4).unwrap());
    let mock = mock_verifier_creation(&code().mock, &[], &padded, &proof, 0, false);
    let mut b4 =
        WrapperChain::deploy(&code().wrapper, &mock, false, &config(4, 0, proof.len())).unwrap();
    assert!(b4.verify(&raw_tx_call(&enc, &senders, &proof)).is_ok());
    assert_eq!(
        b4.verify(&raw_tx_call(&enc, &four, &proof)),
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
        let mut proof = vec![0u8; 32 * (rng.next_u32() % 64) as usize];
        rng.fill_bytes(&mut proof);
        let proof = in_range_stand_in(&proof);
        let mut chain = chain_for(&batch, &proof);
        assert_accepted(&mut chain, &batch, &proof);
    }
}

/// Any n ≤ B on a key for B: the wrapper appends B − n canonical filler pairs
/// (`batch_ecdsa::native::filler`) and the verifier gets D of the padded batch, for n = 1,
/// B − 1 and B; n = B + 1 is BatchTooLarge. A posted pair cannot be dropped as filler: a proof
/// whose slot n holds a real pair rejects the first n pairs alone; and the unpadded D of n
/// pairs (what a wrapper without padding would send) is not the padded one. The filler pair
/// posted explicitly gives the same D as one entry fewer (documented, accepted).
#[test]
fn fewer_than_b_pairs_are_padded_with_the_filler() {
    const B: usize = 5;
    let proof = proof();
    let all = demo(B + 1);
    for n in [1, B - 1, B] {
        let batch = first(&all, n);
        let padded = padded_pairs(&pairs_of(&batch), B).unwrap();
        let mut chain = chain_for_key(B, &padded, &proof);
        assert_eq!(
            outcome(&mut chain, &batch, &proof),
            Ok(batch_digest(&padded)),
            "n = {n}"
        );
        if n < B {
            // The proof of n + 1 real pairs (slot n real): the first n alone are rejected.
            let real = padded_pairs(&pairs_of(&first(&all, n + 1)), B).unwrap();
            let mut chain = chain_for_key(B, &real, &proof);
            assert_eq!(
                outcome(&mut chain, &batch, &proof),
                Err(WrapperRevert::ProofRejected),
                "n = {n}: slot {n}'s real pair dropped as filler"
            );
            // A verifier expecting D of the n pairs unpadded rejects the padded call.
            let mut chain = chain_for_key(B, &pairs_of(&batch), &proof);
            assert_eq!(
                outcome(&mut chain, &batch, &proof),
                Err(WrapperRevert::ProofRejected),
                "n = {n}: unpadded D"
            );
        }
    }
    let mut chain = chain_for_key(B, &pairs_of(&first(&all, B)), &proof);
    assert_eq!(
        outcome(&mut chain, &all, &proof),
        Err(WrapperRevert::BatchTooLarge {
            count: B as u64 + 1,
            batch_size: B as u64
        })
    );
    // The filler pair posted as entry 2 (its payload, whose hash is h_f, and its address)
    // gives the same D as the two entries before it: both are true statements (documented in
    // the contract; a rollup that needs one calldata per proof refuses the filler's address).
    let f = batch_ecdsa::native::filler::filler();
    let two = first(&all, 2);
    let padded = padded_pairs(&pairs_of(&two), B).unwrap();
    let mut posted = two.clone();
    posted.payloads.push(b"batch-ecdsa filler slot".to_vec());
    posted.senders.push(f.address);
    assert_eq!(keccak256(&posted.payloads[2]), f.hash);
    let mut chain = chain_for_key(B, &padded, &proof);
    assert_eq!(
        outcome(&mut chain, &posted, &proof),
        Ok(batch_digest(&padded))
    );
}

/// A verifier address without code is refused at deployment (a call to it would succeed).
#[test]
fn verifier_without_code_is_refused() {
    let mut chain = Chain::new(false);
    let no_code = revm::primitives::Address::repeat_byte(0x42);
    let err = chain
        .deploy(&wrapper_creation(
            &code().wrapper,
            no_code,
            &config(1, 0, 0),
        ))
        .expect_err("deploys against an address without code");
    let selector = hex::encode(&keccak256(b"NoVerifierCode()")[..4]);
    assert!(err.contains(&selector), "{err}");
}

/// A stand-in accumulator: 12 words of 88-bit limbs (as the aggregated verifier's are), each
/// coordinate's top limb of 72 bits (so in range, the coordinate < q), distinct from one
/// another.
fn accumulator() -> Vec<[u8; 32]> {
    (0..AGGREGATED_PREFIX_WORDS)
        .map(|i| {
            let h = keccak256(&[i as u8]);
            let mut w = [0u8; 32];
            let bytes = if i % 3 == 2 { 9 } else { 11 };
            w[32 - bytes..].copy_from_slice(&h[..bytes]);
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

    for (word, byte) in [(0, 31), (5, 24), (11, 31)] {
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
    // The proof alone: 12 words short.
    let expected = WrapperRevert::ProofLength {
        length: proof.len() as u64,
        expected: with_acc.len() as u64,
    };
    assert_reverts(&mut chain, &batch, &proof, expected);

    // A wrapper without a prefix in front of this verifier (taking acc ‖ proof as its proof)
    // sends D first: rejected.
    let mock = mock_verifier_creation(&code().mock, &acc, &batch.digest(), &proof, 0, false);
    let unprefixed_config = config(batch.senders.len(), 0, with_acc.len());
    let mut unprefixed =
        WrapperChain::deploy(&code().wrapper, &mock, false, &unprefixed_config).unwrap();
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
    let expected = WrapperRevert::ProofLength {
        length: 384,
        expected: full.len() as u64,
    };
    assert_reverts(&mut chain, &batch, &full[..384], expected);
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

/// The committed aggregation's verifier calldata (`evm/tests/fixtures/aggregate-digest-b32/calldata.hex`)
/// split: its accumulator and outer proof (real ones, in range, in the aggregated layout).
fn committed_accumulator_and_proof() -> (Vec<[u8; 32]>, Vec<u8>) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/aggregate-digest-b32/calldata.hex");
    let text = std::fs::read_to_string(path).expect("committed");
    let calldata = hex::decode(text.trim()).expect("hex");
    let split = split_verifier_calldata(&calldata, AGGREGATED_PREFIX_WORDS).expect("long enough");
    (split.prefix, split.proof)
}

/// `measure_aggregated` (what `evm-wrapper-gas --aggregated` runs on the real verifier's
/// files) against the stand-in expecting acc ‖ D ‖ proof for the demo file's pairs (acc and
/// proof the committed aggregation's, as the wrapper's aggregated configuration needs a proof
/// of that layout and length): accepted, every tampered call rejected, the wrapper's share
/// some thousands of gas; calldata whose D is not the pairs' (those of a prefix of the batch)
/// is refused before anything is deployed.
#[test]
fn aggregated_measurement_against_stand_in() {
    let pairs = demo_file_pairs(4).expect("demo pairs");
    let (acc, proof) = committed_accumulator_and_proof();
    let d = batch_digest(&pairs);
    // 5,000 iterations (215k gas): above the calldata's EIP-7623 floor, within the
    // verifierGas of the aggregated configuration (MEASURE_BURN's 0.86M is not).
    let burn = 5_000;
    assert!(burn < MEASURE_BURN);
    let verifier = Compiled {
        creation: mock_verifier_creation(&code().mock, &acc, &d, &proof, burn, false),
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
        row.wrapper_gas > 2_600 && row.wrapper_gas < 25_000,
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

/// Calldata of `signature(bytes, bytes, bytes)` with the arguments' tails laid out in `order`
/// (the head offsets pointing at them): the canonical encoding for [0, 1, 2].
fn abi_call_ordered(signature: &str, args: &[&[u8]; 3], order: [usize; 3]) -> Vec<u8> {
    let word = |v: usize| {
        let mut w = [0u8; 32];
        w[24..].copy_from_slice(&(v as u64).to_be_bytes());
        w
    };
    let padded = |n: usize| n.div_ceil(32) * 32;
    let mut offsets = [0usize; 3];
    let mut tail = Vec::new();
    for i in order {
        offsets[i] = 96 + tail.len();
        tail.extend_from_slice(&word(args[i].len()));
        tail.extend_from_slice(args[i]);
        tail.resize(tail.len() + padded(args[i].len()) - args[i].len(), 0);
    }
    let mut out = keccak256(signature.as_bytes())[..4].to_vec();
    for o in offsets {
        out.extend_from_slice(&word(o));
    }
    out.extend(tail);
    out
}

/// Check 1: the calldata is the canonical encoding. Each tampered calldata below decodes to
/// the same arguments (the ABI decoder accepts it) and the stand-in would accept the call, so
/// only the wrapper's check names it: bytes after the encoding (`CalldataLength`), the
/// arguments' bytes in another order (`NonCanonicalEncoding` of the first one out of place),
/// a non-zero padding byte (`NonCanonicalEncoding` of its argument).
#[test]
fn calldata_must_be_canonical() {
    let proof = proof();
    let batch = demo(3);
    let mut chain = chain_for(&batch, &proof);
    let enc = encode_payloads(&batch.payloads).unwrap();
    let senders = batch.senders.concat();
    assert_ne!(enc.len() % 32, 0, "the payloads need padding for this test");
    let args: [&[u8]; 3] = [&enc, &senders, &proof];
    let good = abi_call_ordered(VERIFY_TRANSACTIONS, &args, [0, 1, 2]);
    assert_eq!(good, raw_tx_call(&enc, &senders, &proof));
    assert!(chain.verify(&good).is_ok());
    let hashes = hashes(&batch).concat();
    let hash_args: [&[u8]; 3] = [&hashes, &senders, &proof];
    let good_hashes = abi_call_ordered(VERIFY_HASHES, &hash_args, [0, 1, 2]);
    assert!(chain.verify(&good_hashes).is_ok());

    for base in [&good, &good_hashes] {
        for extra in [1usize, 31, 32, 64] {
            let mut data = base.clone();
            data.extend(vec![0x5a; extra]);
            assert_eq!(
                chain.verify(&data),
                Err(WrapperRevert::CalldataLength {
                    length: (base.len() + extra) as u64,
                    expected: base.len() as u64
                }),
                "{extra} trailing bytes"
            );
        }
    }

    for (order, first_out_of_place) in [([1, 0, 2], 0), ([0, 2, 1], 1), ([2, 1, 0], 0)] {
        let data = abi_call_ordered(VERIFY_TRANSACTIONS, &args, order);
        assert_eq!(data.len(), good.len());
        assert_eq!(
            chain.verify(&data),
            Err(WrapperRevert::NonCanonicalEncoding(first_out_of_place)),
            "{order:?}"
        );
        let data = abi_call_ordered(VERIFY_HASHES, &hash_args, order);
        assert_eq!(
            chain.verify(&data),
            Err(WrapperRevert::NonCanonicalEncoding(first_out_of_place)),
            "hashes {order:?}"
        );
    }

    // A padding byte set: the payloads' last, the senders' first (60 bytes, 4 of padding).
    let payloads_end = 4 + 96 + 32 + enc.len().div_ceil(32) * 32;
    let senders_at = payloads_end + 32;
    for (at, argument) in [(payloads_end - 1, 0), (senders_at + senders.len(), 1)] {
        let mut data = good.clone();
        data[at] = 1;
        assert_eq!(
            chain.verify(&data),
            Err(WrapperRevert::NonCanonicalEncoding(argument)),
            "padding byte {at}"
        );
    }
    // The proof a byte longer: with zero padding its length is named; a padding byte set is
    // the encoding's fault first.
    let mut longer = proof.clone();
    longer.push(7);
    let data = raw_tx_call(&enc, &senders, &longer);
    assert_eq!(
        chain.verify(&data),
        Err(WrapperRevert::ProofLength {
            length: longer.len() as u64,
            expected: proof.len() as u64
        })
    );
    let mut padded = data.clone();
    let last = padded.len() - 1;
    padded[last] = 1;
    assert_eq!(
        chain.verify(&padded),
        Err(WrapperRevert::NonCanonicalEncoding(2))
    );
}

/// `base` with 32-byte word `i` set to `value`.
fn with_word(base: &[u8], i: usize, value: [u8; 32]) -> Vec<u8> {
    let mut out = base.to_vec();
    out[32 * i..32 * (i + 1)].copy_from_slice(&value);
    out
}

/// `w − 1` of a non-zero big-endian word.
fn minus_one(w: [u8; 32]) -> [u8; 32] {
    let mut out = w;
    for b in out.iter_mut().rev() {
        let (v, borrow) = b.overflowing_sub(1);
        *b = v;
        if !borrow {
            break;
        }
    }
    out
}

/// Check 4 at the layout's boundaries (the stand-in proof of 32 words: coordinates 0 to 9,
/// scalars 10 to 19, coordinates 20 to 31), with and without the 12 prefix words: a
/// coordinate may be r or q − 1 but not q, a scalar r − 1 but not r, and the first word out
/// of range is named by its byte offset in `proof`. Each proof is the one the stand-in expects
/// (it would accept it): a rejection can only be the wrapper's.
#[test]
fn proof_words_in_range_at_layout_boundaries() {
    let batch = demo(2);
    let base = proof();
    let l = layout(base.len());
    assert_eq!((l.scalars_offset, l.scalars_count), (320, 10));
    let (q, r) = (BN254_Q, BN254_R);
    let cases: [(usize, [u8; 32], Option<u64>); 12] = [
        (0, q, Some(0)),
        (9, r, None),
        (9, minus_one(q), None),
        (9, q, Some(288)),
        (10, minus_one(r), None),
        (10, r, Some(320)),
        (19, minus_one(r), None),
        (19, r, Some(608)),
        (20, r, None),
        (20, q, Some(640)),
        (31, minus_one(q), None),
        (31, [0xff; 32], Some(992)),
    ];
    for prefix in [Vec::new(), accumulator()] {
        let shift = 32 * prefix.len() as u64;
        for (i, value, bad) in cases {
            let p = with_word(&base, i, value);
            let mut chain = prefixed_chain_for(&prefix, &batch, &p);
            let full = wrapper_proof(&prefix, &p);
            match bad {
                None => assert_accepted(&mut chain, &batch, &full),
                Some(offset) => assert_reverts(
                    &mut chain,
                    &batch,
                    &full,
                    WrapperRevert::ProofWordOutOfRange(shift + offset),
                ),
            }
        }
        // Two words out of range: the first is named.
        let p = with_word(&with_word(&base, 25, q), 12, r);
        let mut chain = prefixed_chain_for(&prefix, &batch, &p);
        let full = wrapper_proof(&prefix, &p);
        let expected = WrapperRevert::ProofWordOutOfRange(shift + 384);
        assert_reverts(&mut chain, &batch, &full, expected);
    }
}

/// The limbs of a big-endian coordinate `c` < 2^254: l0, l1 (88 bits), l2 (the rest).
fn limbs_of(c: [u8; 32]) -> [[u8; 32]; 3] {
    let mut out = [[0u8; 32]; 3];
    out[0][21..].copy_from_slice(&c[21..]);
    out[1][21..].copy_from_slice(&c[10..21]);
    out[2][22..].copy_from_slice(&c[..10]);
    out
}

/// Check 3, word by word of the stand-in accumulator (which the stand-in, deployed to expect
/// each changed accumulator, would accept): a limb at its bound (2^88, a top limb 2^78), a
/// limb plus r (what the verifier reads mod r as the limb), a top limb plus 2^80 (which a
/// 256-bit recombination would shift out), a top limb of 2^78 − 1 (the coordinate ≥ q), and
/// each coordinate = q (named by its top limb) are AccumulatorOutOfRange of that word; a low
/// limb of 2^88 − 1 and a coordinate of q − 1 are accepted.
#[test]
fn accumulator_limbs_in_range() {
    let batch = demo(2);
    let proof = proof();
    let acc = accumulator();
    let check = |a: &[[u8; 32]], bad: Option<u64>| {
        let mut chain = prefixed_chain_for(a, &batch, &proof);
        let full = wrapper_proof(a, &proof);
        match bad {
            None => assert_accepted(&mut chain, &batch, &full),
            Some(w) => assert_reverts(
                &mut chain,
                &batch,
                &full,
                WrapperRevert::AccumulatorOutOfRange(w),
            ),
        }
    };
    for i in 0..AGGREGATED_PREFIX_WORDS {
        let top = i % 3 == 2;
        let bound = pow2_word(if top { 78 } else { 88 });
        let set = |v: [u8; 32]| {
            let mut a = acc.clone();
            a[i] = v;
            a
        };
        check(&set(bound), Some(i as u64));
        check(&set(add_words(&acc[i], &BN254_R).unwrap()), Some(i as u64));
        if top {
            check(&set(minus_one(bound)), Some(i as u64));
            check(
                &set(add_words(&acc[i], &pow2_word(80)).unwrap()),
                Some(i as u64),
            );
        } else {
            check(&set(minus_one(bound)), None);
        }
    }
    for k in 0..4 {
        let mut a = acc.clone();
        a[3 * k..3 * k + 3].copy_from_slice(&limbs_of(BN254_Q));
        check(&a, Some(3 * k as u64 + 2));
        a[3 * k..3 * k + 3].copy_from_slice(&limbs_of(minus_one(BN254_Q)));
        check(&a, None);
    }
}

/// Check 5, the cap: against a stand-in that uses all the gas it is given when it rejects (as
/// the real verifier does on an off-curve point), a changed proof byte costs the caller at
/// most verifierGas beyond the honest call's own work, and is ProofRejected; sent directly,
/// the same change burns the whole 30M.
#[test]
fn verifier_gas_is_capped() {
    let batch = demo(2);
    let proof = proof();
    let d = batch.digest();
    let mock = mock_verifier_creation(&code().mock, &[], &d, &proof, 0, true);
    let mut chain =
        WrapperChain::deploy(&code().wrapper, &mock, false, &config(2, 0, proof.len())).unwrap();
    let data = verify_hashes_calldata(&hashes(&batch), &batch.senders, &proof).unwrap();
    let (_, honest) = chain.verify(&data).expect("accepted");
    let mut bad = proof.clone();
    bad[100] ^= 1;
    let data = verify_hashes_calldata(&hashes(&batch), &batch.senders, &bad).unwrap();
    let called = chain.call(&data).unwrap();
    let CallOutcome::Rejected { gas_used, .. } = called.outcome else {
        panic!("accepted: {called:?}")
    };
    assert_eq!(
        batch_ecdsa_evm::wrapper::decode_revert(&called.output),
        WrapperRevert::ProofRejected
    );
    assert!(
        gas_used > MOCK_GAS && gas_used < honest.total + MOCK_GAS,
        "{gas_used} (honest {})",
        honest.total
    );
    let direct = chain
        .call_verifier(&verifier_calldata(&[], &d, &bad))
        .unwrap();
    assert!(
        matches!(direct.outcome, CallOutcome::Rejected { gas_used, .. } if gas_used == batch_ecdsa_evm::chain::CALL_GAS_LIMIT),
        "{direct:?}"
    );
}

/// Check 5, `InsufficientGas`: a stand-in that needs 430k gas (10,000 loop iterations) behind
/// a wrapper giving it 600k. Every gas limit from where the stand-in could not finish up to
/// the least limit the honest call is accepted at gives InsufficientGas, never ProofRejected
/// (without the check, the stand-in would run out of gas and the call read as a rejection);
/// one gas more is accepted.
#[test]
fn too_little_gas_is_insufficient_not_rejected() {
    let batch = demo(4);
    let proof = proof();
    let d = batch.digest();
    let verifier_gas = 600_000u64;
    let mock = mock_verifier_creation(&code().mock, &[], &d, &proof, 10_000, false);
    let cfg = WrapperConfig {
        verifier_gas,
        ..config(batch.senders.len(), 0, proof.len())
    };
    let mut chain = WrapperChain::deploy(&code().wrapper, &mock, false, &cfg).unwrap();
    let data = verify_hashes_calldata(&hashes(&batch), &batch.senders, &proof).unwrap();
    let (_, honest) = chain.verify(&data).expect("accepted");
    let need = verifier_gas + verifier_gas / 63 + 5000;
    let accepted =
        |chain: &mut WrapperChain, limit: u64| chain.verify_with_gas_limit(&data, limit).is_ok();
    let (mut lo, mut hi) = (honest.total, batch_ecdsa_evm::chain::CALL_GAS_LIMIT);
    assert!(
        !accepted(&mut chain, lo),
        "the check asks for more than is used"
    );
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if accepted(&mut chain, mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    let min = hi;
    // What the transaction spends before the check, and the check's own threshold.
    assert!(min > honest.total - honest.execution() + need, "{min}");
    assert!(
        min < honest.total - honest.execution() + need + 20_000,
        "{min}"
    );
    // Below the EIP-7623 floor the transaction is invalid: start above it.
    let start = (honest.total - 420_000).max(honest.floor + 1);
    let steps = 60;
    for s in 0..=steps {
        let limit = start + (min - 1 - start) * s / steps;
        match chain.verify_with_gas_limit(&data, limit) {
            Err(WrapperRevert::InsufficientGas { have, need: n }) => {
                assert_eq!(n, need);
                assert!(have < need, "{have}");
            }
            other => panic!("gas limit {limit}: {other:?}"),
        }
    }
    assert!(chain.verify_with_gas_limit(&data, min).is_ok());
}

/// The wrapper's creation code with raw constructor words after the verifier's address.
fn raw_creation(verifier: revm::primitives::Address, words: &[[u8; 32]]) -> Vec<u8> {
    let mut out = code().wrapper.creation.clone();
    let mut a = [0u8; 32];
    a[12..].copy_from_slice(verifier.as_slice());
    out.extend_from_slice(&a);
    for w in words {
        out.extend_from_slice(w);
    }
    out
}

fn w(v: u64) -> [u8; 32] {
    let mut out = [0u8; 32];
    out[24..].copy_from_slice(&v.to_be_bytes());
    out
}

/// The constructor refuses a batchSize of 0 or over 2^32, a prefix other than 0 or 12, a
/// layout that does not fit, and a verifierGas of 0 or over 2^64 − 1, each with its named
/// error.
#[test]
fn constructor_arguments_are_checked() {
    let mut chain = Chain::new(false);
    let mock = chain
        .deploy(&mock_verifier_creation(
            &code().mock,
            &[],
            &[0; 32],
            &[],
            0,
            false,
        ))
        .unwrap();
    let revert = |sig: &str, args: &[[u8; 32]]| {
        let mut data = keccak256(sig.as_bytes())[..4].to_vec();
        for a in args {
            data.extend_from_slice(a);
        }
        hex::encode(data)
    };
    let gas = w(MOCK_GAS);
    let mut two_64 = [0u8; 32];
    two_64[23] = 1;
    let layout_err = |r: u64, o: u64, c: u64| {
        revert(
            "BadProofLayout(uint256,uint256,uint256)",
            &[w(r), w(o), w(c)],
        )
    };
    let cases: Vec<([[u8; 32]; 6], Option<String>)> = vec![
        ([w(3), w(0), w(64), w(0), w(2), gas], None),
        ([w(3), w(12), w(0), w(0), w(0), gas], None),
        ([w(3), w(0), w(64), w(64), w(0), gas], None),
        ([w(3), w(0), w(0), w(0), w(0), w(u64::MAX)], None),
        (
            [w(3), w(1), w(64), w(0), w(2), gas],
            Some(revert("UnsupportedPrefix(uint256)", &[w(1)])),
        ),
        (
            [w(3), w(13), w(64), w(0), w(2), gas],
            Some(revert("UnsupportedPrefix(uint256)", &[w(13)])),
        ),
        (
            [w(3), w(0), w(33), w(0), w(1), gas],
            Some(layout_err(33, 0, 1)),
        ),
        (
            [w(3), w(0), w(64), w(16), w(1), gas],
            Some(layout_err(64, 16, 1)),
        ),
        (
            [w(3), w(0), w(64), w(32), w(2), gas],
            Some(layout_err(64, 32, 2)),
        ),
        (
            [w(3), w(0), w(64), w(96), w(0), gas],
            Some(layout_err(64, 96, 0)),
        ),
        (
            [w(3), w(0), w((1 << 32) + 32), w(0), w(0), gas],
            Some(layout_err((1 << 32) + 32, 0, 0)),
        ),
        (
            [w(3), w(0), w(64), w(0), w(2), w(0)],
            Some(revert("BadVerifierGas(uint256)", &[w(0)])),
        ),
        (
            [w(3), w(0), w(64), w(0), w(2), two_64],
            Some(revert("BadVerifierGas(uint256)", &[two_64])),
        ),
        ([w(1), w(0), w(64), w(0), w(2), gas], None),
        ([w(1 << 32), w(0), w(64), w(0), w(2), gas], None),
        (
            [w(0), w(0), w(64), w(0), w(2), gas],
            Some(revert("BadBatchSize(uint256)", &[w(0)])),
        ),
        (
            [w((1 << 32) + 1), w(0), w(64), w(0), w(2), gas],
            Some(revert("BadBatchSize(uint256)", &[w((1 << 32) + 1)])),
        ),
    ];
    for (args, expected) in cases {
        let result = chain.deploy(&raw_creation(mock.address, &args));
        match (result, expected) {
            (Ok(_), None) => {}
            (Err(e), Some(data)) => assert!(e.contains(&data), "{e} lacks {data}"),
            (other, expected) => panic!("{args:?}: {other:?}, expected {expected:?}"),
        }
    }
}
