//! The digest wrapper (`evm/contracts/BatchEcdsaWrapper.sol`): the contract a rollup calls
//! with what it posts (signing payloads or hashes, senders, proof). It recomputes the
//! digest-mode statement D ([`batch_ecdsa::native::digest`]) and staticcalls the batch
//! verifier with D_hi ‖ D_lo ‖ proof, so the public input is never taken from the caller.
//!
//! A verifier whose public inputs begin with words that belong to the proof is served by a
//! wrapper deployed with that many prefix words (`constructor(verifier, prefixWords)`): the
//! caller's `proof` is then prefix ‖ rest ([`wrapper_proof`]) and the verifier is called with
//! prefix ‖ D_hi ‖ D_lo ‖ rest ([`verifier_calldata`]). The batch proof's own verifier has
//! none; the aggregated verifier (feature `aggregate`: an outer circuit verifying the batch
//! proof) has [`AGGREGATED_PREFIX_WORDS`], its KZG accumulator, which its calldata carries
//! before the inner proof's D_hi, D_lo ([`split_verifier_calldata`] takes such calldata
//! apart). [`measure_aggregated`] runs the wrapper in front of the real aggregated verifier.
//!
//! ABI (both return `bytes32 D`; `view`):
//!
//! ```text
//! verifyTransactions(bytes payloads, bytes senders, bytes proof)
//!     payloads = ‖ᵢ len(payloadᵢ) as 3 bytes big-endian ‖ payloadᵢ     (hᵢ = keccak256(payloadᵢ))
//! verifyHashes(bytes hashes, bytes senders, bytes proof)
//!     hashes   = h₀ ‖ … ‖ h_{B−1}                                        (32 bytes each)
//! senders = a₀ ‖ … ‖ a_{B−1} (20 bytes each), B = |senders| / 20 ≥ 1
//! ```
//!
//! A payload is at most 2²⁴ − 1 bytes ([`MAX_PAYLOAD_BYTES`]; Ethereum's transactions are at
//! most 128 KiB in the mempool). The contract reverts with a custom error ([`WrapperRevert`])
//! when the senders are empty or not a multiple of 20 bytes, when there are not 32 bytes of
//! hash per sender, when a length prefix or payload runs past the end or bytes follow the
//! B-th payload, when `proof` is shorter than the prefix, and when the verifier rejects (or
//! the verifier address has no code).
//!
//! [`measure`] gives the wrapper's own cost against [`MOCK_VERIFIER_SOURCE`], a stand-in
//! verifier that checks the words and the proof bytes it is given (no proof needed).

use batch_ecdsa::batch_file::Policy;
use batch_ecdsa::native::digest::{batch_digest, digest_words};
use batch_ecdsa::native::hash::keccak256;
use batch_ecdsa::prover::api::digest_pairs_of;
use batch_ecdsa::prover::circuit::witnesses_from_batch;
use batch_ecdsa::prover::proof::DigestPair;
use revm::primitives::Address;
use serde::{Deserialize, Serialize};

use crate::chain::{CallGas, CallOutcome, Called, Chain, Contract};
use crate::measure::demo_file;
use crate::solc::{Compiled, Solc};
use crate::EIP170_CODE_LIMIT;

/// The wrapper's Solidity.
pub const WRAPPER_SOURCE: &str = include_str!("../contracts/BatchEcdsaWrapper.sol");

/// The stand-in verifier's Solidity (tests and gas measurement only).
pub const MOCK_VERIFIER_SOURCE: &str = include_str!("../contracts/MockDigestVerifier.sol");

/// Bytes of each payload's length prefix in `payloads`.
pub const LENGTH_PREFIX_BYTES: usize = 3;

/// The longest payload a 3-byte prefix can announce.
pub const MAX_PAYLOAD_BYTES: usize = (1 << (8 * LENGTH_PREFIX_BYTES)) - 1;

/// Bytes of one sender in `senders`.
pub const SENDER_BYTES: usize = 20;

/// `verifyTransactions`' signature (its selector is the first 4 bytes of its keccak256).
pub const VERIFY_TRANSACTIONS: &str = "verifyTransactions(bytes,bytes,bytes)";

/// `verifyHashes`' signature.
pub const VERIFY_HASHES: &str = "verifyHashes(bytes,bytes,bytes)";

/// Prefix words of the aggregated verifier: the KZG accumulator its outer circuit exposes
/// before the inner proof's public inputs, two G1 points with each coordinate as 3 limbs of
/// 88 bits (`aggregate::ACCUMULATOR_LIMBS`, feature `aggregate`).
pub const AGGREGATED_PREFIX_WORDS: usize = 12;

/// Why a batch cannot be encoded for the wrapper (the same conditions the contract rejects).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WrapperInputError {
    #[error("an empty batch: the wrapper takes B ≥ 1")]
    Empty,
    #[error("{items} payloads or hashes but {senders} senders")]
    CountMismatch { items: usize, senders: usize },
    #[error("payload {index} is {len} bytes, more than a 3-byte length prefix can say ({MAX_PAYLOAD_BYTES})")]
    PayloadTooLong { index: usize, len: usize },
}

/// The wrapper's revert, decoded from its revert data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WrapperRevert {
    NoVerifierCode,
    EmptyBatch,
    SendersLength(u64),
    HashesLength {
        length: u64,
        expected: u64,
    },
    MalformedPayloads(u64),
    ProofShorterThanPrefix {
        length: u64,
        prefix_bytes: u64,
    },
    ProofRejected,
    /// Revert data that is none of the above (e.g. the ABI decoder's bare revert).
    Other(Vec<u8>),
}

fn selector(signature: &str) -> [u8; 4] {
    let h = keccak256(signature.as_bytes());
    [h[0], h[1], h[2], h[3]]
}

/// The low 8 bytes of ABI word `i` of `args`, if the word is there and fits u64.
fn word_u64(args: &[u8], i: usize) -> Option<u64> {
    let w = args.get(32 * i..32 * (i + 1))?;
    if w[..24].iter().any(|&b| b != 0) {
        return None;
    }
    Some(u64::from_be_bytes(w[24..].try_into().ok()?))
}

/// Decodes the wrapper's custom errors; anything else is [`WrapperRevert::Other`].
pub fn decode_revert(data: &[u8]) -> WrapperRevert {
    let other = || WrapperRevert::Other(data.to_vec());
    if data.len() < 4 {
        return other();
    }
    let (sel, args) = data.split_at(4);
    let is = |sig: &str| sel == selector(sig);
    let decoded = if is("NoVerifierCode()") && args.is_empty() {
        Some(WrapperRevert::NoVerifierCode)
    } else if is("EmptyBatch()") && args.is_empty() {
        Some(WrapperRevert::EmptyBatch)
    } else if is("ProofRejected()") && args.is_empty() {
        Some(WrapperRevert::ProofRejected)
    } else if is("SendersLength(uint256)") && args.len() == 32 {
        word_u64(args, 0).map(WrapperRevert::SendersLength)
    } else if is("MalformedPayloads(uint256)") && args.len() == 32 {
        word_u64(args, 0).map(WrapperRevert::MalformedPayloads)
    } else if is("HashesLength(uint256,uint256)") && args.len() == 64 {
        word_u64(args, 0)
            .zip(word_u64(args, 1))
            .map(|(length, expected)| WrapperRevert::HashesLength { length, expected })
    } else if is("ProofShorterThanPrefix(uint256,uint256)") && args.len() == 64 {
        word_u64(args, 0)
            .zip(word_u64(args, 1))
            .map(
                |(length, prefix_bytes)| WrapperRevert::ProofShorterThanPrefix {
                    length,
                    prefix_bytes,
                },
            )
    } else {
        None
    };
    decoded.unwrap_or_else(other)
}

/// `payloads` as the wrapper reads it: each payload after its 3-byte big-endian length.
pub fn encode_payloads<P: AsRef<[u8]>>(payloads: &[P]) -> Result<Vec<u8>, WrapperInputError> {
    let total: usize = payloads
        .iter()
        .map(|p| LENGTH_PREFIX_BYTES + p.as_ref().len())
        .sum();
    let mut out = Vec::with_capacity(total);
    for (index, p) in payloads.iter().enumerate() {
        let p = p.as_ref();
        if p.len() > MAX_PAYLOAD_BYTES {
            return Err(WrapperInputError::PayloadTooLong {
                index,
                len: p.len(),
            });
        }
        out.extend_from_slice(&(p.len() as u32).to_be_bytes()[1..]);
        out.extend_from_slice(p);
    }
    Ok(out)
}

/// ABI calldata of `signature(bytes, …)`: the selector, one offset word per argument, then
/// each argument as its length word and its bytes zero-padded to a multiple of 32.
pub fn abi_bytes_call(signature: &str, args: &[&[u8]]) -> Vec<u8> {
    let word = |v: usize| {
        let mut w = [0u8; 32];
        w[24..].copy_from_slice(&(v as u64).to_be_bytes());
        w
    };
    let padded = |n: usize| n.div_ceil(32) * 32;
    let mut out = selector(signature).to_vec();
    let mut offset = 32 * args.len();
    for a in args {
        out.extend_from_slice(&word(offset));
        offset += 32 + padded(a.len());
    }
    for a in args {
        out.extend_from_slice(&word(a.len()));
        out.extend_from_slice(a);
        out.resize(out.len() + padded(a.len()) - a.len(), 0);
    }
    out
}

fn check_counts(items: usize, senders: usize) -> Result<(), WrapperInputError> {
    if senders == 0 {
        return Err(WrapperInputError::Empty);
    }
    if items != senders {
        return Err(WrapperInputError::CountMismatch { items, senders });
    }
    Ok(())
}

/// Calldata of `verifyTransactions(encode_payloads(payloads), senders, proof)`.
pub fn verify_transactions_calldata<P: AsRef<[u8]>>(
    payloads: &[P],
    senders: &[[u8; 20]],
    proof: &[u8],
) -> Result<Vec<u8>, WrapperInputError> {
    check_counts(payloads.len(), senders.len())?;
    let encoded = encode_payloads(payloads)?;
    Ok(abi_bytes_call(
        VERIFY_TRANSACTIONS,
        &[&encoded, senders.concat().as_slice(), proof],
    ))
}

/// Calldata of `verifyHashes(hashes, senders, proof)`.
pub fn verify_hashes_calldata(
    hashes: &[[u8; 32]],
    senders: &[[u8; 20]],
    proof: &[u8],
) -> Result<Vec<u8>, WrapperInputError> {
    check_counts(hashes.len(), senders.len())?;
    Ok(abi_bytes_call(
        VERIFY_HASHES,
        &[
            hashes.concat().as_slice(),
            senders.concat().as_slice(),
            proof,
        ],
    ))
}

/// D of a batch of signing payloads: [`batch_digest`] of (keccak256(payloadᵢ), aᵢ).
pub fn payloads_digest<P: AsRef<[u8]>>(payloads: &[P], senders: &[[u8; 20]]) -> [u8; 32] {
    let items: Vec<_> = payloads
        .iter()
        .zip(senders)
        .map(|(p, a)| (keccak256(p.as_ref()), *a))
        .collect();
    batch_digest(&items)
}

/// A batch as a rollup posts it to [`VERIFY_TRANSACTIONS`]: signing payloads and senders.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PayloadBatch {
    pub payloads: Vec<Vec<u8>>,
    pub senders: Vec<[u8; 20]>,
}

impl PayloadBatch {
    /// The signing payloads and senders of `b` demo transactions (`batch_ecdsa::txs::demo`,
    /// `seed`, chain 1), each decoded and its signature checked.
    pub fn demo(b: usize, seed: u64) -> Result<Self, String> {
        use batch_ecdsa::txs::{demo::demo_txs, SignedTxs, TxPolicy};
        let raw = demo_txs(b, seed, 1).map_err(|e| e.to_string())?;
        let txs = SignedTxs::decode(&raw, &TxPolicy::for_chain(1)).map_err(|errors| {
            let list: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
            list.join("; ")
        })?;
        Ok(PayloadBatch {
            payloads: txs
                .records
                .iter()
                .map(|r| r.tx.signing_payload.clone())
                .collect(),
            senders: txs.records.iter().map(|r| r.sender).collect(),
        })
    }

    /// Its D.
    pub fn digest(&self) -> [u8; 32] {
        payloads_digest(&self.payloads, &self.senders)
    }
}

/// The `proof` argument of a wrapper with `prefix.len()` prefix words: prefix ‖ proof.
pub fn wrapper_proof(prefix: &[[u8; 32]], proof: &[u8]) -> Vec<u8> {
    let mut out = prefix.concat();
    out.extend_from_slice(proof);
    out
}

/// The verifier's calldata for D, the prefix words and `proof`: prefix ‖ D_hi ‖ D_lo ‖ proof
/// (D_hi ‖ D_lo ‖ proof without a prefix), what the wrapper sends it.
pub fn verifier_calldata(prefix: &[[u8; 32]], d: &[u8; 32], proof: &[u8]) -> Vec<u8> {
    let mut out = prefix.concat();
    for w in digest_words(d) {
        out.extend_from_slice(&w);
    }
    out.extend_from_slice(proof);
    out
}

/// A verifier's calldata taken apart: prefix ‖ D_hi ‖ D_lo ‖ proof.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitCalldata {
    pub prefix: Vec<[u8; 32]>,
    /// The two words after the prefix, as they are (D_hi, D_lo when the calldata is the
    /// digest statement's).
    pub digest_words: [[u8; 32]; 2],
    pub proof: Vec<u8>,
}

/// Splits a verifier's `calldata` after `prefix_words` words and the two words of D (the
/// inverse of [`verifier_calldata`]); `None` when it is shorter than those words.
pub fn split_verifier_calldata(calldata: &[u8], prefix_words: usize) -> Option<SplitCalldata> {
    let word =
        |i: usize| -> Option<[u8; 32]> { calldata.get(32 * i..32 * (i + 1))?.try_into().ok() };
    let prefix = (0..prefix_words).map(word).collect::<Option<Vec<_>>>()?;
    let digest_words = [word(prefix_words)?, word(prefix_words + 1)?];
    Some(SplitCalldata {
        prefix,
        digest_words,
        proof: calldata[32 * (prefix_words + 2)..].to_vec(),
    })
}

/// A 32-byte ABI word holding `address`.
fn address_word(address: Address) -> [u8; 32] {
    let mut w = [0u8; 32];
    w[12..].copy_from_slice(address.as_slice());
    w
}

/// A 32-byte ABI word holding `v`.
fn u64_word(v: u64) -> [u8; 32] {
    let mut w = [0u8; 32];
    w[24..].copy_from_slice(&v.to_be_bytes());
    w
}

/// The wrapper's creation code with its constructor arguments: the verifier's address and
/// its number of prefix words (0 for the batch proof's verifier,
/// [`AGGREGATED_PREFIX_WORDS`] for the aggregated one).
pub fn wrapper_creation(wrapper: &Compiled, verifier: Address, prefix_words: usize) -> Vec<u8> {
    let mut out = wrapper.creation.clone();
    out.extend_from_slice(&address_word(verifier));
    out.extend_from_slice(&u64_word(prefix_words as u64));
    out
}

/// The stand-in verifier's creation code: it accepts exactly
/// `verifier_calldata(prefix, d, proof)` and then spends `burn` loop iterations.
pub fn mock_verifier_creation(
    mock: &Compiled,
    prefix: &[[u8; 32]],
    d: &[u8; 32],
    proof: &[u8],
    burn: u64,
) -> Vec<u8> {
    let mut out = mock.creation.clone();
    out.extend_from_slice(&u64_word(prefix.len() as u64));
    out.extend_from_slice(&keccak256(&prefix.concat()));
    for w in digest_words(d) {
        out.extend_from_slice(&w);
    }
    out.extend_from_slice(&keccak256(proof));
    out.extend_from_slice(&u64_word(burn));
    out
}

/// The wrapper and the stand-in verifier, compiled.
#[derive(Clone, Debug)]
pub struct WrapperCode {
    pub wrapper: Compiled,
    pub mock: Compiled,
}

impl WrapperCode {
    pub fn compile(solc: &Solc) -> Result<Self, String> {
        let wrapper = solc
            .compile(WRAPPER_SOURCE)
            .map_err(|e| format!("the wrapper does not compile: {e}"))?;
        let mock = solc
            .compile(MOCK_VERIFIER_SOURCE)
            .map_err(|e| format!("the mock verifier does not compile: {e}"))?;
        Ok(WrapperCode { wrapper, mock })
    }
}

/// A wrapper deployed beside its verifier on one chain.
pub struct WrapperChain {
    chain: Chain,
    pub verifier: Contract,
    pub wrapper: Contract,
}

impl WrapperChain {
    /// Deploys the verifier (`verifier_creation`, constructor arguments included), then the
    /// wrapper pointing at it with `prefix_words` ([`wrapper_creation`]). `lift_code_limit`
    /// as for [`crate::chain::deploy`] (a real batch verifier can exceed EIP-170).
    pub fn deploy(
        wrapper: &Compiled,
        verifier_creation: &[u8],
        lift_code_limit: bool,
        prefix_words: usize,
    ) -> Result<Self, String> {
        let mut chain = Chain::new(lift_code_limit);
        let verifier = chain
            .deploy(verifier_creation)
            .map_err(|e| format!("verifier: {e}"))?;
        let wrapper = chain
            .deploy(&wrapper_creation(wrapper, verifier.address, prefix_words))
            .map_err(|e| format!("wrapper: {e}"))?;
        Ok(WrapperChain {
            chain,
            verifier,
            wrapper,
        })
    }

    /// A transaction to the wrapper.
    pub fn call(&mut self, calldata: &[u8]) -> Result<Called, String> {
        self.chain.call(self.wrapper.address, calldata)
    }

    /// A transaction straight to the verifier.
    pub fn call_verifier(&mut self, calldata: &[u8]) -> Result<Called, String> {
        self.chain.call(self.verifier.address, calldata)
    }

    /// Calls the wrapper: `Ok((D it returned, gas))` when it accepts, `Err(revert)` when it
    /// reverts. A transaction the EVM refuses, or a return that is not one word, is a
    /// [`WrapperRevert::Other`] with the message's bytes.
    pub fn verify(&mut self, calldata: &[u8]) -> Result<([u8; 32], CallGas), WrapperRevert> {
        let called = self
            .call(calldata)
            .map_err(|e| WrapperRevert::Other(e.into_bytes()))?;
        match called.outcome {
            CallOutcome::Accepted(gas) => {
                let d: [u8; 32] = called.output.as_slice().try_into().map_err(|_| {
                    WrapperRevert::Other(b"the wrapper returned no 32-byte word".to_vec())
                })?;
                Ok((d, gas))
            }
            CallOutcome::Rejected { .. } => Err(decode_revert(&called.output)),
        }
    }
}

/// The wrapper's cost at one B, measured against the stand-in verifier (`results/wrapper-gas.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WrapperGasRow {
    /// B.
    pub batch_size: u64,
    /// Σ |payloadᵢ| (the signing payloads posted).
    pub payload_bytes: u64,
    /// What the batch adds to `verifyTransactions`' calldata per transaction:
    /// |payload| + 3 + 20, averaged over the batch (ABI words and the proof excluded).
    pub batch_bytes_per_tx: f64,
    /// Bytes of the proof passed through (a stand-in of the batch proof's length).
    pub proof_bytes: u64,
    /// `verifyTransactions`: the whole calldata.
    pub transactions_calldata_bytes: u64,
    /// `verifyTransactions`: the wrapper's own execution gas (the transaction's execution less
    /// the stand-in verifier's): parsing, hashing, building D and the verifier's calldata, the
    /// call itself (a cold account).
    pub transactions_wrapper_gas: u64,
    /// `verifyTransactions`: the transaction's intrinsic gas (21,000 and the calldata).
    pub transactions_intrinsic_gas: u64,
    /// `verifyHashes`: the whole calldata.
    pub hashes_calldata_bytes: u64,
    /// `verifyHashes`: the wrapper's own execution gas.
    pub hashes_wrapper_gas: u64,
    /// `verifyHashes`: the transaction's intrinsic gas.
    pub hashes_intrinsic_gas: u64,
    /// The stand-in verifier's execution, called alone with D_hi ‖ D_lo ‖ proof (subtracted).
    pub mock_verifier_gas: u64,
    /// The wrapper's runtime code.
    pub runtime_code_bytes: u64,
    /// Gas of the wrapper's deployment.
    pub deploy_gas: u64,
}

/// Loop iterations of the stand-in verifier in [`measure`]: 0.86 M gas (43 per iteration),
/// near a real batch verifier's 0.7 M, so that each transaction's execution lies above its
/// EIP-7623 calldata floor and the execution can be read off the gas used ([`measure`]
/// fails rather than report a transaction on its floor).
pub const MEASURE_BURN: u64 = 20_000;

fn execution_of(called: &Called, what: &str) -> Result<u64, String> {
    match &called.outcome {
        CallOutcome::Accepted(g) if !g.on_floor() => Ok(g.execution()),
        CallOutcome::Accepted(_) => Err(format!(
            "{what}: the call paid its EIP-7623 floor; raise the stand-in's burn"
        )),
        CallOutcome::Rejected { reason, .. } => Err(format!(
            "{what}: rejected ({reason}): {:?}",
            decode_revert(&called.output)
        )),
    }
}

/// Measures the wrapper on one batch (signing payloads and senders) with a `proof` of
/// stand-in bytes: both functions, each checked to return D.
pub fn measure<P: AsRef<[u8]>>(
    code: &WrapperCode,
    payloads: &[P],
    senders: &[[u8; 20]],
    proof: &[u8],
) -> Result<WrapperGasRow, String> {
    let b = payloads.len();
    let tag = format!("B = {b}");
    let tx_data = verify_transactions_calldata(payloads, senders, proof)
        .map_err(|e| format!("{tag}: {e}"))?;
    let hashes: Vec<[u8; 32]> = payloads.iter().map(|p| keccak256(p.as_ref())).collect();
    let hash_data =
        verify_hashes_calldata(&hashes, senders, proof).map_err(|e| format!("{tag}: {e}"))?;
    let d = payloads_digest(payloads, senders);
    let mock = mock_verifier_creation(&code.mock, &[], &d, proof, MEASURE_BURN);
    let mut chain = WrapperChain::deploy(&code.wrapper, &mock, false, 0)?;
    let mock_gas = execution_of(
        &chain.call_verifier(&verifier_calldata(&[], &d, proof))?,
        &format!("{tag}: the stand-in verifier alone"),
    )?;
    let mut run = |data: &[u8], what: &str| -> Result<(u64, u64), String> {
        let called = chain.call(data)?;
        let exec = execution_of(&called, &format!("{tag}: {what}"))?;
        if called.output != d {
            return Err(format!("{tag}: {what} returned {:?}, not D", called.output));
        }
        let CallOutcome::Accepted(g) = called.outcome else {
            unreachable!("execution_of accepted it")
        };
        Ok((exec - mock_gas, g.intrinsic))
    };
    let (tx_gas, tx_intrinsic) = run(&tx_data, "verifyTransactions")?;
    let (hash_gas, hash_intrinsic) = run(&hash_data, "verifyHashes")?;
    let payload_bytes: usize = payloads.iter().map(|p| p.as_ref().len()).sum();
    Ok(WrapperGasRow {
        batch_size: b as u64,
        payload_bytes: payload_bytes as u64,
        batch_bytes_per_tx: (payload_bytes + b * (LENGTH_PREFIX_BYTES + SENDER_BYTES)) as f64
            / b as f64,
        proof_bytes: proof.len() as u64,
        transactions_calldata_bytes: tx_data.len() as u64,
        transactions_wrapper_gas: tx_gas,
        transactions_intrinsic_gas: tx_intrinsic,
        hashes_calldata_bytes: hash_data.len() as u64,
        hashes_wrapper_gas: hash_gas,
        hashes_intrinsic_gas: hash_intrinsic,
        mock_verifier_gas: mock_gas,
        runtime_code_bytes: chain.wrapper.runtime_bytes as u64,
        deploy_gas: chain.wrapper.deploy_gas,
    })
}

/// The (signing hash, address) pairs of the demo batch [`demo_file`]`(b)`, as the prover
/// forms them for D (`batch_ecdsa::prover::api::digest_pairs_of`: the raw 32-byte message
/// hash and the address of the key), each signature checked first. The aggregated verifier's
/// inner proof is of this batch (`aggregate::inner_snark`).
pub fn demo_file_pairs(b: usize) -> Result<Vec<DigestPair>, String> {
    let file = demo_file(b)?;
    let ws = witnesses_from_batch(&file, Policy::default(), true).map_err(|e| e.to_string())?;
    Ok(digest_pairs_of(&ws))
}

/// The wrapper in front of the real aggregated verifier (`results/wrapper-aggregated.json`,
/// `evm-wrapper-gas --aggregated DIR`): `verifyHashes` with the batch's pairs and the
/// accumulator ‖ outer proof of the verifier's honest calldata.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AggregatedWrapperRow {
    /// B, the inner batch proof's signatures.
    pub batch_size: u64,
    /// The wrapper's prefix words (the accumulator: [`AGGREGATED_PREFIX_WORDS`]).
    pub prefix_words: u64,
    /// Bytes of the outer proof (the calldata after the accumulator and D).
    pub outer_proof_bytes: u64,
    /// The aggregated verifier's runtime code (deployed under EIP-170: at most 24,576).
    pub verifier_runtime_code_bytes: u64,
    pub verifier_deploy_gas: u64,
    pub wrapper_runtime_code_bytes: u64,
    pub wrapper_deploy_gas: u64,
    /// The honest call through the wrapper returned D (measured below; an honest call the
    /// verifier rejects is an error, not a row).
    pub accepted: bool,
    /// `verifyHashes(hashes, senders, accumulator ‖ outer proof)`: the whole calldata.
    pub calldata_bytes: u64,
    /// That transaction's gas: `max(intrinsic + execution, floor)`.
    pub total_gas: u64,
    /// Its intrinsic gas (21,000 and the calldata).
    pub intrinsic_gas: u64,
    /// Its execution: the wrapper and the verifier it calls.
    pub execution_gas: u64,
    /// Its EIP-7623 floor (below the total: the execution is read off).
    pub floor_gas: u64,
    /// The verifier called directly with the same calldata the wrapper sends it
    /// (accumulator ‖ D_hi ‖ D_lo ‖ outer proof).
    pub direct_calldata_bytes: u64,
    pub direct_total_gas: u64,
    pub direct_execution_gas: u64,
    /// The wrapper's share: `execution_gas − direct_execution_gas` (pairs into memory, D,
    /// the verifier's calldata, the call to it with its cold account).
    pub wrapper_gas: u64,
    /// What the wrapper adds to the transaction's total: `total_gas − direct_total_gas`
    /// (its execution share and the calldata of the hashes, senders and ABI words).
    pub added_total_gas: u64,
    /// Each tampered call reverted with `ProofRejected` (the real verifier rejects the
    /// D the wrapper computes): one hash bit, one address bit, two pairs swapped, one
    /// accumulator bit.
    pub changed_hash_rejected: bool,
    pub changed_address_rejected: bool,
    pub swapped_pair_rejected: bool,
    pub changed_accumulator_rejected: bool,
    /// The compiler of both contracts.
    pub solc_version: String,
}

/// The gas of an accepted call that is off its EIP-7623 floor.
fn accepted_gas(called: &Called, what: &str) -> Result<CallGas, String> {
    execution_of(called, what)?;
    match called.outcome {
        CallOutcome::Accepted(g) => Ok(g),
        CallOutcome::Rejected { .. } => unreachable!("execution_of accepted it"),
    }
}

/// Runs the wrapper (`wrapper`, deployed with [`AGGREGATED_PREFIX_WORDS`]) in front of the
/// aggregated verifier (`verifier`, deployed under EIP-170) on the batch `pairs`, with the
/// verifier's honest `calldata` (accumulator ‖ D_hi ‖ D_lo ‖ outer proof): the calldata's D
/// must be the pairs' [`batch_digest`]; the wrapper must accept and return D; a changed
/// hash, a changed address, two swapped pairs and a changed accumulator word must be
/// rejected with `ProofRejected`.
pub fn measure_aggregated(
    wrapper: &Compiled,
    verifier: &Compiled,
    calldata: &[u8],
    pairs: &[DigestPair],
) -> Result<AggregatedWrapperRow, String> {
    let prefix_words = AGGREGATED_PREFIX_WORDS;
    if pairs.len() < 2 {
        return Err("the checks swap two pairs: B ≥ 2".into());
    }
    if verifier.runtime.len() > EIP170_CODE_LIMIT {
        return Err(format!(
            "the verifier's runtime code is {} bytes, over EIP-170's {EIP170_CODE_LIMIT}",
            verifier.runtime.len()
        ));
    }
    let split = split_verifier_calldata(calldata, prefix_words).ok_or_else(|| {
        format!(
            "the calldata is {} bytes, shorter than {} words",
            calldata.len(),
            prefix_words + 2
        )
    })?;
    let d = batch_digest(pairs);
    if split.digest_words != digest_words(&d) {
        return Err(format!(
            "the calldata's words {prefix_words} and {} are {} {}, not D_hi, D_lo of the batch's \
             {} pairs (D = {}): the proof is of another batch",
            prefix_words + 1,
            hex::encode(split.digest_words[0]),
            hex::encode(split.digest_words[1]),
            pairs.len(),
            hex::encode(d)
        ));
    }
    let mut chain = WrapperChain::deploy(wrapper, &verifier.creation, false, prefix_words)?;
    let direct = accepted_gas(
        &chain.call_verifier(calldata)?,
        "the verifier called directly with its calldata",
    )?;

    let hashes: Vec<[u8; 32]> = pairs.iter().map(|p| p.0).collect();
    let senders: Vec<[u8; 20]> = pairs.iter().map(|p| p.1).collect();
    let proof = wrapper_proof(&split.prefix, &split.proof);
    let call = |h: &[[u8; 32]], s: &[[u8; 20]], p: &[u8]| {
        verify_hashes_calldata(h, s, p).map_err(|e| e.to_string())
    };
    let data = call(&hashes, &senders, &proof)?;
    let called = chain.call(&data)?;
    let gas = accepted_gas(&called, "verifyHashes through the wrapper")?;
    if called.output != d {
        return Err(format!(
            "verifyHashes returned {}, not D = {}",
            hex::encode(&called.output),
            hex::encode(d)
        ));
    }

    let mut rejected = |data: Vec<u8>, what: &str| -> Result<bool, String> {
        match chain.verify(&data) {
            Err(WrapperRevert::ProofRejected) => Ok(true),
            Ok(_) => Err(format!(
                "{what}: the verifier ACCEPTS it through the wrapper"
            )),
            Err(other) => Err(format!(
                "{what}: reverted with {other:?}, not ProofRejected"
            )),
        }
    };
    let mut h = hashes.clone();
    h[pairs.len() / 2][31] ^= 1;
    let changed_hash_rejected = rejected(call(&h, &senders, &proof)?, "a changed hash")?;
    let mut s = senders.clone();
    s[pairs.len() - 1][0] ^= 0x80;
    let changed_address_rejected = rejected(call(&hashes, &s, &proof)?, "a changed address")?;
    let (mut h, mut s) = (hashes.clone(), senders.clone());
    h.swap(0, 1);
    s.swap(0, 1);
    let swapped_pair_rejected = rejected(call(&h, &s, &proof)?, "two swapped pairs")?;
    let mut p = proof.clone();
    p[31] ^= 1;
    let changed_accumulator_rejected =
        rejected(call(&hashes, &senders, &p)?, "a changed accumulator word")?;

    Ok(AggregatedWrapperRow {
        batch_size: pairs.len() as u64,
        prefix_words: prefix_words as u64,
        outer_proof_bytes: split.proof.len() as u64,
        verifier_runtime_code_bytes: chain.verifier.runtime_bytes as u64,
        verifier_deploy_gas: chain.verifier.deploy_gas,
        wrapper_runtime_code_bytes: chain.wrapper.runtime_bytes as u64,
        wrapper_deploy_gas: chain.wrapper.deploy_gas,
        accepted: true,
        calldata_bytes: data.len() as u64,
        total_gas: gas.total,
        intrinsic_gas: gas.intrinsic,
        execution_gas: gas.execution(),
        floor_gas: gas.floor,
        direct_calldata_bytes: calldata.len() as u64,
        direct_total_gas: direct.total,
        direct_execution_gas: direct.execution(),
        wrapper_gas: gas.execution().saturating_sub(direct.execution()),
        added_total_gas: gas.total.saturating_sub(direct.total),
        changed_hash_rejected,
        changed_address_rejected,
        swapped_pair_rejected,
        changed_accumulator_rejected,
        solc_version: verifier.version.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payload_encoding() {
        let long = vec![0xab; 300];
        let enc = encode_payloads(&[&b""[..], &b"xy"[..], &long[..]]).unwrap();
        assert_eq!(&enc[..3], &[0, 0, 0]);
        assert_eq!(&enc[3..8], &[0, 0, 2, b'x', b'y']);
        assert_eq!(&enc[8..11], &[0, 1, 44]);
        assert_eq!(enc.len(), 3 + 5 + 3 + 300);
        let too_long = vec![0u8; MAX_PAYLOAD_BYTES + 1];
        assert_eq!(
            encode_payloads(&[&b"a"[..], &too_long[..]]),
            Err(WrapperInputError::PayloadTooLong {
                index: 1,
                len: MAX_PAYLOAD_BYTES + 1
            })
        );
    }

    #[test]
    fn abi_layout() {
        let c = abi_bytes_call(VERIFY_HASHES, &[&[1u8; 32], &[2u8; 20], &[3u8; 33]]);
        assert_eq!(&c[..4], &selector(VERIFY_HASHES));
        let args = &c[4..];
        assert_eq!(word_u64(args, 0), Some(96));
        assert_eq!(word_u64(args, 1), Some(96 + 64));
        assert_eq!(word_u64(args, 2), Some(96 + 64 + 64));
        assert_eq!(word_u64(args, 3), Some(32));
        assert_eq!(word_u64(args, 5), Some(20));
        assert_eq!(word_u64(args, 7), Some(33));
        assert_eq!(args.len(), 32 * 3 + 64 + 64 + 96);
    }

    #[test]
    fn counts_checked() {
        assert_eq!(
            verify_hashes_calldata(&[], &[], &[]),
            Err(WrapperInputError::Empty)
        );
        assert_eq!(
            verify_transactions_calldata(&[b"a"], &[[0; 20], [1; 20]], &[]),
            Err(WrapperInputError::CountMismatch {
                items: 1,
                senders: 2
            })
        );
    }

    #[test]
    fn revert_decoding() {
        let mut data = selector("MalformedPayloads(uint256)").to_vec();
        data.extend_from_slice(&[0u8; 31]);
        data.push(7);
        assert_eq!(decode_revert(&data), WrapperRevert::MalformedPayloads(7));
        assert_eq!(
            decode_revert(&selector("ProofRejected()")),
            WrapperRevert::ProofRejected
        );
        assert_eq!(decode_revert(&[1, 2]), WrapperRevert::Other(vec![1, 2]));
    }
}
