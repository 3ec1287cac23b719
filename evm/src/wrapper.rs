//! The digest wrapper (`evm/contracts/BatchEcdsaWrapper.sol`): the contract a rollup calls
//! with what it posts (signing payloads or hashes, senders, proof). It recomputes the
//! digest-mode statement D ([`batch_ecdsa::native::digest`]) and staticcalls the batch
//! verifier with D_hi ‖ D_lo ‖ proof, so the public input is never taken from the caller.
//!
//! A verifier whose public inputs begin with words that belong to the proof is served by a
//! wrapper deployed with that many prefix words: the caller's `proof` is then prefix ‖ rest
//! ([`wrapper_proof`]) and the verifier is called with prefix ‖ D_hi ‖ D_lo ‖ rest
//! ([`verifier_calldata`]). The batch proof's own verifier has none; the aggregated verifier
//! (feature `aggregate`: an outer circuit verifying the batch proof) has
//! [`AGGREGATED_PREFIX_WORDS`], its KZG accumulator, which its calldata carries before the
//! inner proof's D_hi, D_lo ([`split_verifier_calldata`] takes such calldata apart).
//! [`measure_aggregated`] runs the wrapper in front of the real aggregated verifier.
//!
//! ABI (both return `bytes32 D`; `view`):
//!
//! ```text
//! verifyTransactions(bytes payloads, bytes senders, bytes proof)
//!     payloads = ‖ᵢ len(payloadᵢ) as 3 bytes big-endian ‖ payloadᵢ     (hᵢ = keccak256(payloadᵢ))
//! verifyHashes(bytes hashes, bytes senders, bytes proof)
//!     hashes   = h₀ ‖ … ‖ h_{n−1}                                        (32 bytes each)
//! senders = a₀ ‖ … ‖ a_{n−1} (20 bytes each), n = |senders| / 20, 1 ≤ n ≤ B
//! constructor(address verifier, uint256 batchSize, uint256 prefixWords, uint256 restBytes,
//!             uint256 scalarsOffset, uint256 scalarsCount, uint256 verifierGas)
//! ```
//!
//! **Any n ≤ B on a key made for B**: the wrapper appends B − n canonical filler pairs
//! (`batch_ecdsa::native::filler`, [`padded_pairs`]) to the n posted pairs before hashing D,
//! as the prover padded the batch; the contract's `FILLER_HASH` and `FILLER_SENDER` are
//! compared with the native filler by a test.
//!
//! The constructor's arguments after the verifier are a [`WrapperConfig`]: B, the prefix words (0
//! or 12), the [`ProofLayout`] of the verifier's proof after the prefix (its length, and where
//! its scalars are: every other word is a G1 coordinate) and the gas the verifier is called
//! with. [`aggregated_wrapper_config`] is the aggregated verifier's ([`AGGREGATED_PROOF_LAYOUT`],
//! [`AGGREGATED_VERIFIER_GAS`]); [`ProofLayout::find`] reads a layout off an honest SHPLONK
//! proof (the leading run of points on y² = x³ + 3, the scalars, the two final points).
//!
//! A payload is at most 2²⁴ − 1 bytes ([`MAX_PAYLOAD_BYTES`]; Ethereum's transactions are at
//! most 128 KiB in the mempool). The contract reverts with a custom error ([`WrapperRevert`])
//! when the calldata is not the canonical encoding of its three arguments (trailing bytes,
//! other offsets, non-zero padding), when the senders are empty, not a multiple of 20 bytes
//! or more than B (`BatchTooLarge`), when
//! there are not 32 bytes of hash per sender, when a length prefix or payload runs past the end
//! or bytes follow the n-th payload, when `proof` is not exactly prefix + rest
//! bytes, when an accumulator limb or coordinate is out of range (limb ≥ 2⁸⁸, top limb ≥ 2⁷⁸,
//! coordinate ≥ q), when a scalar word of the proof is ≥ r or a coordinate word ≥ q, when the
//! gas left cannot forward the verifier its whole `verifierGas` (`InsufficientGas`), and when
//! the verifier rejects within that gas (or the verifier address has no code). The generated
//! verifier itself reads public inputs and scalars mod r, ignores calldata past its proof and
//! burns all the gas it is given on an off-curve point; through the hardened wrapper a
//! proof has one encoding and a bad one costs at most `verifierGas`
//! ([`measure_tampering`], `results/wrapper-tamper.json`).
//!
//! [`measure`] gives the wrapper's own cost against [`MOCK_VERIFIER_SOURCE`], a stand-in
//! verifier that checks the words and the proof bytes it is given (no proof needed).

use batch_ecdsa::batch_file::Policy;
pub use batch_ecdsa::calldata::rows::WrapperGasRow;
use batch_ecdsa::native::digest::{batch_digest, digest_words};
pub use batch_ecdsa::native::filler::padded_pairs;
use batch_ecdsa::native::hash::keccak256;
use batch_ecdsa::prover::api::digest_pairs_of;
use batch_ecdsa::prover::circuit::witnesses_from_batch;
use batch_ecdsa::prover::proof::DigestPair;
use ff::PrimeField;
use halo2_proofs::halo2curves::bn256::{Fq, Fr};
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

/// Bytes of each payload's length prefix in `payloads` (one definition, which the cost model
/// reads too: [`batch_ecdsa::calldata::statement::PAYLOAD_LENGTH_PREFIX_BYTES`]).
pub const LENGTH_PREFIX_BYTES: usize =
    batch_ecdsa::calldata::statement::PAYLOAD_LENGTH_PREFIX_BYTES as usize;

/// The longest payload a 3-byte prefix can announce.
pub const MAX_PAYLOAD_BYTES: usize = (1 << (8 * LENGTH_PREFIX_BYTES)) - 1;

/// Bytes of one sender in `senders` (an address).
pub const SENDER_BYTES: usize = batch_ecdsa::native::digest::ADDRESS_BYTES;

/// `verifyTransactions`' signature (its selector is the first 4 bytes of its keccak256).
pub const VERIFY_TRANSACTIONS: &str = "verifyTransactions(bytes,bytes,bytes)";

/// `verifyHashes`' signature.
pub const VERIFY_HASHES: &str = "verifyHashes(bytes,bytes,bytes)";

/// Prefix words of the aggregated verifier: the KZG accumulator its outer circuit exposes
/// before the inner proof's public inputs, two G1 points with each coordinate as 3 limbs of
/// 88 bits (`aggregation_prover::ACCUMULATOR_LIMBS`, feature `aggregate`).
pub const AGGREGATED_PREFIX_WORDS: usize = 12;

/// BN254's base field modulus q (G1 coordinates), a big-endian word.
pub const BN254_Q: [u8; 32] =
    be_word("30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47");

/// BN254's scalar field modulus r, a big-endian word.
pub const BN254_R: [u8; 32] =
    be_word("30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001");

/// Bits of an accumulator limb (three per coordinate, the least significant first).
pub const LIMB_BITS: u32 = 88;

/// Bits of a coordinate's top limb: q < 2²⁵⁴ = 2^(2·88 + 78).
pub const TOP_LIMB_BITS: u32 = 78;

/// A big-endian word from 64 hex digits (constants only).
const fn be_word(hex: &str) -> [u8; 32] {
    let h = hex.as_bytes();
    assert!(h.len() == 64);
    let mut out = [0u8; 32];
    let mut i = 0;
    while i < 64 {
        let c = h[i];
        let v = match c {
            b'0'..=b'9' => c - b'0',
            b'a'..=b'f' => c - b'a' + 10,
            _ => panic!("not lower-case hex"),
        };
        out[i / 2] |= v << (4 * (1 - i % 2));
        i += 1;
    }
    out
}

/// `a + b` of big-endian words, `None` past 2²⁵⁶ (the native reference's addition).
pub use batch_ecdsa::native::encoding::be_add as add_words;

/// The big-endian word 2^`bits` (`bits` < 256).
pub fn pow2_word(bits: u32) -> [u8; 32] {
    let mut w = [0u8; 32];
    w[31 - (bits / 8) as usize] = 1 << (bits % 8);
    w
}

/// A big-endian word as a field element of BN254's base field, if it is < q.
fn base_field(word: &[u8]) -> Option<Fq> {
    let mut le: [u8; 32] = word.try_into().ok()?;
    le.reverse();
    Option::from(Fq::from_repr(le))
}

/// Whether a big-endian word is < r (a canonical scalar).
pub fn is_scalar(word: &[u8]) -> bool {
    let Ok(mut le) = <[u8; 32]>::try_from(word) else {
        return false;
    };
    le.reverse();
    Option::<Fr>::from(Fr::from_repr(le)).is_some()
}

/// Whether a big-endian word is < q (a canonical G1 coordinate).
pub fn is_coordinate(word: &[u8]) -> bool {
    base_field(word).is_some()
}

/// Whether 64 bytes are x ‖ y (big-endian, each < q) of a point on BN254's G1,
/// y² = x³ + 3 (the point at infinity, which the generated verifier encodes as (0, 0), is not).
pub fn is_g1_point(xy: &[u8]) -> bool {
    if xy.len() != 64 {
        return false;
    }
    match (base_field(&xy[..32]), base_field(&xy[32..])) {
        (Some(x), Some(y)) => y.square() == x.square() * x + Fq::from(3),
        _ => false,
    }
}

/// Where the scalars are in a verifier's proof (the bytes after the prefix words, `rest`): the
/// wrapper's constructor arguments `restBytes, scalarsOffset, scalarsCount`. Every 32-byte word
/// of `rest` outside the scalars is a G1 coordinate. snark-verifier's SHPLONK proof is the
/// commitments (64 bytes each: x, y), the evaluations (scalars), then the two opening points
/// W, W' (128 bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProofLayout {
    /// Bytes of `rest` (a multiple of 32): `proof` must be exactly 32·prefix_words + this.
    pub rest_bytes: usize,
    /// Byte offset in `rest` of the first scalar word (a multiple of 32).
    pub scalars_offset: usize,
    /// Scalar words from there on.
    pub scalars_count: usize,
}

impl ProofLayout {
    /// A layout of `rest_bytes` with no scalars: every word a coordinate (< q).
    pub fn coordinates_only(rest_bytes: usize) -> Self {
        ProofLayout {
            rest_bytes,
            scalars_offset: 0,
            scalars_count: 0,
        }
    }

    /// The layout of an honest SHPLONK proof, read off its bytes: the leading run of 64-byte
    /// chunks that are points on y² = x³ + 3 (the commitments), the last 128 bytes two such
    /// points (W, W'), and the words between them the scalars, each < r. An error when the
    /// bytes are not so (a length not a multiple of 32, no scalars, a final chunk off the
    /// curve, a middle word ≥ r). The layout is the verifier's (its circuit's): read it off an
    /// honest proof, never off the proof being checked.
    pub fn find(rest: &[u8]) -> Result<Self, String> {
        let len = rest.len();
        if !len.is_multiple_of(32) {
            return Err(format!("{len} bytes: not a whole number of 32-byte words"));
        }
        if len < 128 + 32 {
            return Err(format!(
                "{len} bytes: shorter than two points and a scalar (160)"
            ));
        }
        let body = len - 128;
        for at in [body, body + 64] {
            if !is_g1_point(&rest[at..at + 64]) {
                return Err(format!(
                    "the 64 bytes at {at} (one of the last two) are not a point on G1"
                ));
            }
        }
        let mut points = 0;
        while 64 * (points + 1) <= body && is_g1_point(&rest[64 * points..64 * (points + 1)]) {
            points += 1;
        }
        let scalars_offset = 64 * points;
        let scalars_count = (body - scalars_offset) / 32;
        if scalars_count == 0 {
            return Err("no scalars between the points".into());
        }
        let layout = ProofLayout {
            rest_bytes: len,
            scalars_offset,
            scalars_count,
        };
        match layout.first_out_of_range(rest) {
            Some(at) => Err(format!(
                "the word at {at} is neither a point's coordinate nor a scalar < r"
            )),
            None => Ok(layout),
        }
    }

    /// The byte offset (in `rest`) of the first word the wrapper rejects with
    /// `ProofWordOutOfRange` (a scalar ≥ r, a coordinate ≥ q, or a partial last word), `None`
    /// when all are in range. The length is not compared with `rest_bytes`.
    pub fn first_out_of_range(&self, rest: &[u8]) -> Option<usize> {
        let scalars = self.scalars_offset..self.scalars_offset + 32 * self.scalars_count;
        rest.chunks(32).enumerate().find_map(|(i, w)| {
            let at = 32 * i;
            let ok = if scalars.contains(&at) {
                is_scalar(w)
            } else {
                is_coordinate(w)
            };
            (!ok).then_some(at)
        })
    }
}

/// The index (0 to 11) of the first accumulator word the wrapper rejects with
/// `AccumulatorOutOfRange`, as the contract checks them: per coordinate (x then y of each
/// point), limbs l0, l1 < 2⁸⁸, top limb l2 < 2⁷⁸, then l0 + l1·2⁸⁸ + l2·2¹⁷⁶ < q (naming the
/// top limb). `None` when all are in range; words past 12 are not read.
pub fn accumulator_out_of_range(words: &[[u8; 32]]) -> Option<usize> {
    let limb = pow2_word(LIMB_BITS);
    let top = pow2_word(TOP_LIMB_BITS);
    for (k, c) in words.chunks(3).take(4).enumerate() {
        let w = 3 * k;
        if c.len() < 3 {
            return Some(w + c.len());
        }
        for (j, bound) in [(0, &limb), (1, &limb), (2, &top)] {
            if c[j] >= *bound {
                return Some(w + j);
            }
        }
        if accumulator_coordinate(c).is_none() {
            return Some(w + 2);
        }
    }
    None
}

/// The coordinate l0 + l1·2⁸⁸ + l2·2¹⁷⁶ of three in-range limbs (big-endian words), if < q.
pub fn accumulator_coordinate(limbs: &[[u8; 32]]) -> Option<Fq> {
    // Little-endian bytes: l0 fills bytes 0..11, l1 11..22, l2 22..32 (l2 < 2^80).
    let mut le = [0u8; 32];
    for (j, l) in limbs.iter().take(3).enumerate() {
        let width = if j < 2 { 11 } else { 10 };
        for b in 0..width {
            le[11 * j + b] = l[31 - b];
        }
    }
    Option::from(Fq::from_repr(le))
}

/// The wrapper's constructor arguments after the verifier's address.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WrapperConfig {
    /// B, the batch size of the verifier's key: a call posts 1 to B pairs, and the wrapper
    /// appends B − n filler pairs before hashing D.
    pub batch_size: usize,
    /// Words of the verifier's public inputs before D_hi, D_lo that the caller passes at the
    /// front of `proof`: 0 (the batch proof's own verifier) or [`AGGREGATED_PREFIX_WORDS`].
    pub prefix_words: usize,
    /// The verifier's proof after the prefix.
    pub proof_layout: ProofLayout,
    /// The gas the verifier is staticcalled with (above its honest execution).
    pub verifier_gas: u64,
}

impl WrapperConfig {
    /// Bytes of the `proof` argument: the prefix words and the rest.
    pub fn proof_bytes(&self) -> usize {
        32 * self.prefix_words + self.proof_layout.rest_bytes
    }
}

/// The aggregated verifier's proof after its accumulator for the outer circuit of the committed
/// fixtures (snark-verifier SHPLONK, k = 22: 6 advice, 1 lookup advice, 1 fixed column; an
/// outer circuit of other columns has another layout, stated in its verifier's header): 19 commitments
/// (1,216 bytes), 62 evaluations, W and W' (128 bytes); 3,328 bytes. [`ProofLayout::find`]
/// gives it on the committed outer proofs (`evm/tests/fixtures/aggregate-digest-b32`,
/// `evm/tests/fixtures/aggregated-txs-b8`; tested), and the generated verifier reads words 0x680 to 0xe20
/// of its calldata (the proof from 0x1c0) mod r and the others as points.
pub const AGGREGATED_PROOF_LAYOUT: ProofLayout = ProofLayout {
    rest_bytes: 3328,
    scalars_offset: 1216,
    scalars_count: 62,
};

/// The aggregated verifier's execution gas on an honest proof (`results/aggregate-digest-b32.json`,
/// `verify_gas_execution`; the same at every B and statement measured, the verifier doing the
/// same work for every proof).
pub const AGGREGATED_VERIFIER_HONEST_GAS: u64 = 419_814;

/// The gas the wrapper gives the aggregated verifier: [`verifier_gas_for`] its honest
/// execution, 630,000. A tampered proof then costs the caller at most this much in the
/// verifier (the verifier's precompile calls burn all they are given on an off-curve point),
/// about 1.4× an honest call through the wrapper in all (`results/wrapper-tamper.json`).
pub const AGGREGATED_VERIFIER_GAS: u64 = verifier_gas_for(AGGREGATED_VERIFIER_HONEST_GAS);

/// The gas to call a verifier with, from its honest execution gas: 3/2 of it, rounded up to
/// a multiple of 1,000. The margin (50%) covers a repricing of what it uses (precompiles,
/// opcodes) before the immutable value must change, and keeps a tampered proof's cost near
/// 1.5× an honest verification at most.
pub const fn verifier_gas_for(honest_execution_gas: u64) -> u64 {
    (honest_execution_gas * 3 / 2).div_ceil(1000) * 1000
}

/// The wrapper's configuration for the aggregated verifier of a key for `batch_size`
/// signatures: [`AGGREGATED_PREFIX_WORDS`] (the accumulator), the verifier's `proof_layout`
/// (its outer circuit's: [`AGGREGATED_PROOF_LAYOUT`] for the 6-column outer circuit of the
/// committed fixtures; a generated verifier states its own in its header,
/// [`crate::pinning::Header::proof_layout`]) and [`AGGREGATED_VERIFIER_GAS`]. The layout
/// is the verifier's, fixed by the outer circuit, and not read from the proof at hand (a
/// tampered proof must not choose how it is checked); [`ProofLayout::find`] confirms it on an
/// honest proof.
pub fn aggregated_wrapper_config(batch_size: usize, proof_layout: ProofLayout) -> WrapperConfig {
    WrapperConfig {
        batch_size,
        prefix_words: AGGREGATED_PREFIX_WORDS,
        proof_layout,
        verifier_gas: AGGREGATED_VERIFIER_GAS,
    }
}

/// Why a batch cannot be encoded for the wrapper (the same conditions the contract rejects).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WrapperInputError {
    #[error("an empty batch: the wrapper takes n ≥ 1")]
    Empty,
    #[error("{items} payloads or hashes but {senders} senders")]
    CountMismatch { items: usize, senders: usize },
    #[error("payload {index} is {len} bytes, more than a 3-byte length prefix can say ({MAX_PAYLOAD_BYTES})")]
    PayloadTooLong { index: usize, len: usize },
}

/// The wrapper's revert, decoded from its revert data (the constructor's errors come back in
/// the deployment's failure).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WrapperRevert {
    NoVerifierCode,
    /// Constructor: batchSize is 0 or over 2³².
    BadBatchSize(u64),
    /// More senders (`count`) than the key's B (`batch_size`).
    BatchTooLarge {
        count: u64,
        batch_size: u64,
    },
    /// Constructor: prefixWords is neither 0 nor 12.
    UnsupportedPrefix(u64),
    /// Constructor: the proof layout does not fit.
    BadProofLayout {
        rest_bytes: u64,
        scalars_offset: u64,
        scalars_count: u64,
    },
    /// Constructor: verifierGas is 0 or over 2⁶⁴ − 1.
    BadVerifierGas(u64),
    /// The calldata is not the canonical encoding's length (trailing bytes, overlapping
    /// arguments).
    CalldataLength {
        length: u64,
        expected: u64,
    },
    /// Argument 0, 1 or 2 is not where the canonical encoding puts it, or its padding is not
    /// zero.
    NonCanonicalEncoding(u64),
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
    /// `proof` is not exactly 32·prefixWords + restBytes long.
    ProofLength {
        length: u64,
        expected: u64,
    },
    /// Accumulator word (0 to 11) out of range ([`accumulator_out_of_range`]).
    AccumulatorOutOfRange(u64),
    /// The word at this byte offset of `proof` (prefix included) is a scalar ≥ r or a
    /// coordinate ≥ q.
    ProofWordOutOfRange(u64),
    /// gasleft() before the call could not forward the whole verifierGas: the transaction's
    /// gas limit is too low (not a rejection).
    InsufficientGas {
        have: u64,
        need: u64,
    },
    /// The verifier rejected the proof (within its whole verifierGas).
    ProofRejected,
    /// Revert data that is none of the above (e.g. the ABI decoder's bare revert).
    Other(Vec<u8>),
}

impl WrapperRevert {
    /// The error's name (`"Other"` for anything else).
    pub fn name(&self) -> &'static str {
        match self {
            WrapperRevert::NoVerifierCode => "NoVerifierCode",
            WrapperRevert::BadBatchSize(_) => "BadBatchSize",
            WrapperRevert::BatchTooLarge { .. } => "BatchTooLarge",
            WrapperRevert::UnsupportedPrefix(_) => "UnsupportedPrefix",
            WrapperRevert::BadProofLayout { .. } => "BadProofLayout",
            WrapperRevert::BadVerifierGas(_) => "BadVerifierGas",
            WrapperRevert::CalldataLength { .. } => "CalldataLength",
            WrapperRevert::NonCanonicalEncoding(_) => "NonCanonicalEncoding",
            WrapperRevert::EmptyBatch => "EmptyBatch",
            WrapperRevert::SendersLength(_) => "SendersLength",
            WrapperRevert::HashesLength { .. } => "HashesLength",
            WrapperRevert::MalformedPayloads(_) => "MalformedPayloads",
            WrapperRevert::ProofShorterThanPrefix { .. } => "ProofShorterThanPrefix",
            WrapperRevert::ProofLength { .. } => "ProofLength",
            WrapperRevert::AccumulatorOutOfRange(_) => "AccumulatorOutOfRange",
            WrapperRevert::ProofWordOutOfRange(_) => "ProofWordOutOfRange",
            WrapperRevert::InsufficientGas { .. } => "InsufficientGas",
            WrapperRevert::ProofRejected => "ProofRejected",
            WrapperRevert::Other(_) => "Other",
        }
    }
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
    let one = |sig: &str| is(sig) && args.len() == 32;
    let two = |sig: &str| is(sig) && args.len() == 64;
    let w = |i: usize| word_u64(args, i);
    let pair = || w(0).zip(w(1));
    let decoded = if is("NoVerifierCode()") && args.is_empty() {
        Some(WrapperRevert::NoVerifierCode)
    } else if is("EmptyBatch()") && args.is_empty() {
        Some(WrapperRevert::EmptyBatch)
    } else if is("ProofRejected()") && args.is_empty() {
        Some(WrapperRevert::ProofRejected)
    } else if one("BadBatchSize(uint256)") {
        w(0).map(WrapperRevert::BadBatchSize)
    } else if two("BatchTooLarge(uint256,uint256)") {
        pair().map(|(count, batch_size)| WrapperRevert::BatchTooLarge { count, batch_size })
    } else if one("SendersLength(uint256)") {
        w(0).map(WrapperRevert::SendersLength)
    } else if one("MalformedPayloads(uint256)") {
        w(0).map(WrapperRevert::MalformedPayloads)
    } else if one("UnsupportedPrefix(uint256)") {
        w(0).map(WrapperRevert::UnsupportedPrefix)
    } else if one("BadVerifierGas(uint256)") {
        w(0).map(WrapperRevert::BadVerifierGas)
    } else if one("NonCanonicalEncoding(uint256)") {
        w(0).map(WrapperRevert::NonCanonicalEncoding)
    } else if one("AccumulatorOutOfRange(uint256)") {
        w(0).map(WrapperRevert::AccumulatorOutOfRange)
    } else if one("ProofWordOutOfRange(uint256)") {
        w(0).map(WrapperRevert::ProofWordOutOfRange)
    } else if two("HashesLength(uint256,uint256)") {
        pair().map(|(length, expected)| WrapperRevert::HashesLength { length, expected })
    } else if two("ProofShorterThanPrefix(uint256,uint256)") {
        pair().map(
            |(length, prefix_bytes)| WrapperRevert::ProofShorterThanPrefix {
                length,
                prefix_bytes,
            },
        )
    } else if two("ProofLength(uint256,uint256)") {
        pair().map(|(length, expected)| WrapperRevert::ProofLength { length, expected })
    } else if two("CalldataLength(uint256,uint256)") {
        pair().map(|(length, expected)| WrapperRevert::CalldataLength { length, expected })
    } else if two("InsufficientGas(uint256,uint256)") {
        pair().map(|(have, need)| WrapperRevert::InsufficientGas { have, need })
    } else if is("BadProofLayout(uint256,uint256,uint256)") && args.len() == 96 {
        w(0).zip(w(1))
            .zip(w(2))
            .map(
                |((rest_bytes, scalars_offset), scalars_count)| WrapperRevert::BadProofLayout {
                    rest_bytes,
                    scalars_offset,
                    scalars_count,
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

/// The wrapper's creation code with its constructor arguments: the verifier's address, then
/// `config` (B, prefix words, rest bytes, scalars offset, scalars count, verifier gas).
pub fn wrapper_creation(wrapper: &Compiled, verifier: Address, config: &WrapperConfig) -> Vec<u8> {
    let mut out = wrapper.creation.clone();
    out.extend_from_slice(&address_word(verifier));
    let layout = &config.proof_layout;
    for v in [
        config.batch_size as u64,
        config.prefix_words as u64,
        layout.rest_bytes as u64,
        layout.scalars_offset as u64,
        layout.scalars_count as u64,
        config.verifier_gas,
    ] {
        out.extend_from_slice(&u64_word(v));
    }
    out
}

/// The stand-in verifier's creation code: it accepts exactly
/// `verifier_calldata(prefix, d, proof)` and then spends `burn` loop iterations; anything else
/// it rejects, with a revert, or with `exhaust` by using all the gas it was given (as the real
/// verifier does on an off-curve point).
pub fn mock_verifier_creation(
    mock: &Compiled,
    prefix: &[[u8; 32]],
    d: &[u8; 32],
    proof: &[u8],
    burn: u64,
    exhaust: bool,
) -> Vec<u8> {
    let mut out = mock.creation.clone();
    out.extend_from_slice(&u64_word(prefix.len() as u64));
    out.extend_from_slice(&keccak256(&prefix.concat()));
    for w in digest_words(d) {
        out.extend_from_slice(&w);
    }
    out.extend_from_slice(&keccak256(proof));
    out.extend_from_slice(&u64_word(burn));
    out.extend_from_slice(&u64_word(exhaust as u64));
    out
}

/// Stand-in proof bytes made acceptable to the wrapper's range checks: each 32-byte word with
/// its top 3 bits cleared (then < 2²⁵³ < r < q, whichever the layout calls it), a partial last
/// word dropped. Its bytes stay as non-zero as the input's (calldata gas).
pub fn in_range_stand_in(bytes: &[u8]) -> Vec<u8> {
    let mut out = bytes[..bytes.len() / 32 * 32].to_vec();
    for w in out.chunks_mut(32) {
        w[0] &= 0x1f;
    }
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
    /// wrapper pointing at it with `config` ([`wrapper_creation`]). `lift_code_limit` as for
    /// [`crate::chain::deploy`] (a real batch verifier can exceed EIP-170).
    pub fn deploy(
        wrapper: &Compiled,
        verifier_creation: &[u8],
        lift_code_limit: bool,
        config: &WrapperConfig,
    ) -> Result<Self, String> {
        let mut chain = Chain::new(lift_code_limit);
        let verifier = chain
            .deploy(verifier_creation)
            .map_err(|e| format!("verifier: {e}"))?;
        let wrapper = chain
            .deploy(&wrapper_creation(wrapper, verifier.address, config))
            .map_err(|e| format!("wrapper: {e}"))?;
        Ok(WrapperChain {
            chain,
            verifier,
            wrapper,
        })
    }

    /// A transaction to the wrapper (gas limit [`crate::chain::CALL_GAS_LIMIT`]).
    pub fn call(&mut self, calldata: &[u8]) -> Result<Called, String> {
        self.chain.call(self.wrapper.address, calldata)
    }

    /// A transaction to the wrapper with this gas limit.
    pub fn call_with_gas_limit(
        &mut self,
        calldata: &[u8],
        gas_limit: u64,
    ) -> Result<Called, String> {
        self.chain
            .call_with_gas_limit(self.wrapper.address, calldata, gas_limit)
    }

    /// A transaction straight to the verifier.
    pub fn call_verifier(&mut self, calldata: &[u8]) -> Result<Called, String> {
        self.chain.call(self.verifier.address, calldata)
    }

    /// Calls the wrapper: `Ok((D it returned, gas))` when it accepts, `Err(revert)` when it
    /// reverts. A transaction the EVM refuses, or a return that is not one word, is a
    /// [`WrapperRevert::Other`] with the message's bytes.
    pub fn verify(&mut self, calldata: &[u8]) -> Result<([u8; 32], CallGas), WrapperRevert> {
        self.verify_with_gas_limit(calldata, crate::chain::CALL_GAS_LIMIT)
    }

    /// [`Self::verify`] with this gas limit (a halt, out of gas, is [`WrapperRevert::Other`]
    /// with empty data).
    pub fn verify_with_gas_limit(
        &mut self,
        calldata: &[u8],
        gas_limit: u64,
    ) -> Result<([u8; 32], CallGas), WrapperRevert> {
        let called = self
            .call_with_gas_limit(calldata, gas_limit)
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

/// The gas the wrapper gives the stand-in verifier in [`measure`]: above its
/// [`MEASURE_BURN`] iterations and its hashing of the proof.
pub const MEASURE_VERIFIER_GAS: u64 = 2_000_000;

/// Measures the wrapper on one batch (signing payloads and senders) with a `proof` of
/// stand-in bytes, made [`in_range_stand_in`] (its words in range; a whole number of words,
/// or an error), as every word of the verifier's proof: both functions, each checked to
/// return D. The wrapper is deployed with no prefix and the proof's words all coordinates
/// (checked < q: the same gas as a scalar's < r).
pub fn measure<P: AsRef<[u8]>>(
    code: &WrapperCode,
    payloads: &[P],
    senders: &[[u8; 20]],
    proof: &[u8],
) -> Result<WrapperGasRow, String> {
    let b = payloads.len();
    let tag = format!("B = {b}");
    if !proof.len().is_multiple_of(32) {
        return Err(format!(
            "{tag}: a {}-byte stand-in proof: not a whole number of 32-byte words",
            proof.len()
        ));
    }
    let proof = &in_range_stand_in(proof)[..];
    let tx_data = verify_transactions_calldata(payloads, senders, proof)
        .map_err(|e| format!("{tag}: {e}"))?;
    let hashes: Vec<[u8; 32]> = payloads.iter().map(|p| keccak256(p.as_ref())).collect();
    let hash_data =
        verify_hashes_calldata(&hashes, senders, proof).map_err(|e| format!("{tag}: {e}"))?;
    let d = payloads_digest(payloads, senders);
    let (mut chain, mock_gas) = stand_in_chain(code, b, &d, proof, &tag)?;
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
    let one_of_b = measure_one_of_b(code, &hashes, senders, proof, &tag)?;
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
        hashes_one_of_b_wrapper_gas: Some(one_of_b),
    })
}

/// The wrapper for a key of `b` signatures (no prefix, the proof's words all coordinates)
/// beside a stand-in verifier that accepts only D = `d` and `proof`, and the stand-in's own
/// execution gas on that call (subtracted from the wrapper's measurements).
fn stand_in_chain(
    code: &WrapperCode,
    b: usize,
    d: &[u8; 32],
    proof: &[u8],
    tag: &str,
) -> Result<(WrapperChain, u64), String> {
    let mock = mock_verifier_creation(&code.mock, &[], d, proof, MEASURE_BURN, false);
    let config = WrapperConfig {
        batch_size: b,
        prefix_words: 0,
        proof_layout: ProofLayout::coordinates_only(proof.len()),
        verifier_gas: MEASURE_VERIFIER_GAS,
    };
    let mut chain = WrapperChain::deploy(&code.wrapper, &mock, false, &config)?;
    let mock_gas = execution_of(
        &chain.call_verifier(&verifier_calldata(&[], d, proof))?,
        &format!("{tag}: the stand-in verifier alone"),
    )?;
    Ok((chain, mock_gas))
}

/// `verifyHashes` with the first pair alone on a wrapper for B = `hashes.len()`: the wrapper
/// appends B − 1 filler pairs (a stand-in verifier expecting the padded D). Its own gas, the
/// stand-in's subtracted: with the B = 1 row it gives what a filler slot costs.
fn measure_one_of_b(
    code: &WrapperCode,
    hashes: &[[u8; 32]],
    senders: &[[u8; 20]],
    proof: &[u8],
    tag: &str,
) -> Result<u64, String> {
    let b = hashes.len();
    let (Some(h), Some(a)) = (hashes.first(), senders.first()) else {
        return Err(format!("{tag}: an empty batch"));
    };
    let first = [(*h, *a)];
    let padded = padded_pairs(&first, b).ok_or_else(|| format!("{tag}: {b} pairs"))?;
    let d = batch_digest(&padded);
    let what = format!("{tag}: verifyHashes with 1 of {b} pairs");
    let (mut chain, mock_gas) = stand_in_chain(code, b, &d, proof, &what)?;
    let data = verify_hashes_calldata(&hashes[..1], &senders[..1], proof)
        .map_err(|e| format!("{what}: {e}"))?;
    let called = chain.call(&data)?;
    let exec = execution_of(&called, &what)?;
    if called.output != d {
        return Err(format!(
            "{what} returned {:?}, not the padded D",
            called.output
        ));
    }
    Ok(exec - mock_gas)
}

/// The (signing hash, address) pairs of the demo batch [`demo_file`]`(b)`, as the prover
/// forms them for D (`batch_ecdsa::prover::api::digest_pairs_of`: the raw 32-byte message
/// hash and the address of the key), each signature checked first. The aggregated verifier's
/// inner proof is of this batch (`aggregation_prover::inner_snark`).
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

/// Runs the wrapper (`wrapper`, deployed with [`aggregated_wrapper_config`]) in front of the
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
    let config = aggregated_wrapper_config(pairs.len(), AGGREGATED_PROOF_LAYOUT);
    let mut chain = WrapperChain::deploy(wrapper, &verifier.creation, false, &config)?;
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

/// The most a tampered call through the wrapper may cost, as a multiple of the honest call
/// through it (the goal [`AGGREGATED_VERIFIER_GAS`] is chosen for; [`measure_tampering`]
/// reports the worst ratio, the tests hold it to this).
pub const TAMPER_GAS_BOUND: f64 = 1.5;

/// One tampering of the aggregated verifier's honest call, sent directly to the verifier and
/// through the hardened wrapper (`results/wrapper-tamper.json`, [`measure_tampering`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TamperRow {
    /// Short name of the case.
    pub case: String,
    /// What was changed in the honest call.
    pub change: String,
    /// Both transactions' gas limit.
    pub gas_limit: u64,
    /// The verifier called directly with the same change (its calldata
    /// accumulator ‖ D_hi ‖ D_lo ‖ outer proof): the transaction's gas (all of the limit
    /// when it runs out)…
    pub direct_gas: u64,
    /// …and what it did: `accepted`, `reverted`, or `halt: …` (out of gas).
    pub direct_outcome: String,
    /// `verifyHashes` through the wrapper with the change: the transaction's gas…
    pub wrapper_gas: u64,
    /// …and `accepted` (it returned D) or the wrapper's revert, e.g.
    /// `ProofWordOutOfRange(1600)` (see [`WrapperRevert`]).
    pub wrapper_outcome: String,
    /// `wrapper_gas` / the honest call's through the wrapper.
    pub wrapper_vs_honest: f64,
}

/// [`measure_tampering`]'s report (`results/wrapper-tamper.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TamperReport {
    /// B, the inner batch proof's signatures.
    pub batch_size: u64,
    /// The wrapper's constructor arguments ([`aggregated_wrapper_config`]).
    pub config: WrapperConfig,
    /// The verifier's execution gas on the honest calldata, called directly.
    pub verifier_honest_execution_gas: u64,
    /// The honest `verifyHashes` through the wrapper: the transaction's gas.
    pub honest_wrapper_gas: u64,
    /// The least transaction gas limit at which the honest call through the wrapper is
    /// accepted (below it: `InsufficientGas`).
    pub honest_min_gas_limit: u64,
    /// The largest `wrapper_vs_honest` of a tampered row.
    pub worst_tampered_vs_honest: f64,
    /// The wrapper's and the verifier's runtime code.
    pub wrapper_runtime_code_bytes: u64,
    pub verifier_runtime_code_bytes: u64,
    /// One row per case, the honest call first.
    pub rows: Vec<TamperRow>,
    /// The compiler of both contracts.
    pub solc_version: String,
}

/// What a call did, in words, and its gas: `accepted`, `reverted`, `halt: …`.
fn direct_outcome(called: &Called) -> (u64, String) {
    match &called.outcome {
        CallOutcome::Accepted(g) => (g.total, "accepted".into()),
        CallOutcome::Rejected { gas_used, reason } if reason == "revert" => {
            (*gas_used, "reverted".into())
        }
        CallOutcome::Rejected { gas_used, reason } => (*gas_used, reason.clone()),
    }
}

/// A wrapper call's outcome in words: `accepted` when it returned `d`, the decoded revert
/// (`ProofRejected`, `ProofLength { length: …, expected: … }`, …), or `halt: …`.
fn wrapper_outcome(called: &Called, d: &[u8; 32]) -> (u64, String) {
    match &called.outcome {
        CallOutcome::Accepted(g) if called.output == d => (g.total, "accepted".into()),
        CallOutcome::Accepted(g) => (
            g.total,
            format!("returned {}, not D", hex::encode(&called.output)),
        ),
        CallOutcome::Rejected { gas_used, reason } if reason == "revert" => {
            (*gas_used, format!("{:?}", decode_revert(&called.output)))
        }
        CallOutcome::Rejected { gas_used, reason } => (*gas_used, reason.clone()),
    }
}

fn add_in_place(word: &mut [u8], add: &[u8; 32], what: &str) -> Result<(), String> {
    let w: [u8; 32] = (&*word)
        .try_into()
        .map_err(|_| format!("{what}: not a word"))?;
    let sum = add_words(&w, add).ok_or_else(|| format!("{what}: overflows 2^256"))?;
    word.copy_from_slice(&sum);
    Ok(())
}

/// The wrapper ([`aggregated_wrapper_config`]) in front of the real aggregated verifier
/// (`verifier`, deployed under EIP-170) on the batch `pairs`, with the verifier's honest
/// `calldata`: the honest call and each tampering of it (a point off the curve, a commitment
/// coordinate + q, a changed accumulator limb, an accumulator limb + r, a changed scalar, a
/// scalar + r, the proof a word longer or shorter, bytes after the calldata, too small a gas
/// limit) sent directly to the verifier and through the wrapper (`verifyHashes`), each with a
/// [`crate::chain::CALL_GAS_LIMIT`] transaction but the last. An error when the honest call is
/// not accepted both ways; the tampered outcomes are reported as they are (the tests hold
/// them to the wrapper's named errors and [`TAMPER_GAS_BOUND`]).
pub fn measure_tampering(
    wrapper: &Compiled,
    verifier: &Compiled,
    calldata: &[u8],
    pairs: &[DigestPair],
) -> Result<TamperReport, String> {
    use crate::chain::CALL_GAS_LIMIT;
    let config = aggregated_wrapper_config(pairs.len(), AGGREGATED_PROOF_LAYOUT);
    let layout = config.proof_layout;
    let split = split_verifier_calldata(calldata, config.prefix_words)
        .ok_or_else(|| format!("the calldata is {} bytes: too short", calldata.len()))?;
    let d = batch_digest(pairs);
    if split.digest_words != digest_words(&d) {
        return Err("the calldata's D is not the pairs' (the proof is of another batch)".into());
    }
    if split.proof.len() != layout.rest_bytes {
        return Err(format!(
            "the outer proof is {} bytes, not the {} of the aggregated verifier's layout",
            split.proof.len(),
            layout.rest_bytes
        ));
    }
    let mut chain = WrapperChain::deploy(wrapper, &verifier.creation, false, &config)?;
    let hashes: Vec<[u8; 32]> = pairs.iter().map(|p| p.0).collect();
    let senders: Vec<[u8; 20]> = pairs.iter().map(|p| p.1).collect();
    let wrapper_data = |acc: &[[u8; 32]], rest: &[u8]| {
        verify_hashes_calldata(&hashes, &senders, &wrapper_proof(acc, rest))
            .map_err(|e| e.to_string())
    };

    let direct = accepted_gas(&chain.call_verifier(calldata)?, "the honest call, directly")?;
    let honest_data = wrapper_data(&split.prefix, &split.proof)?;
    let honest = chain.call(&honest_data)?;
    let honest_gas = accepted_gas(&honest, "the honest call through the wrapper")?.total;
    if honest.output != d {
        return Err("the honest call through the wrapper did not return D".into());
    }
    // The least gas limit accepted: the honest gas is not enough (the wrapper asks for
    // verifierGas + 1/63 of it before calling); CALL_GAS_LIMIT is.
    let accepts = |chain: &mut WrapperChain, limit: u64| -> Result<bool, String> {
        Ok(matches!(
            chain.call_with_gas_limit(&honest_data, limit)?.outcome,
            CallOutcome::Accepted(_)
        ))
    };
    let (mut lo, mut hi) = (honest_gas, CALL_GAS_LIMIT);
    if accepts(&mut chain, lo)? || !accepts(&mut chain, hi)? {
        return Err(format!(
            "the honest call is accepted at its own gas ({honest_gas}) or not at {hi}"
        ));
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if accepts(&mut chain, mid)? {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    let min_limit = hi;

    struct Case {
        case: &'static str,
        change: String,
        acc: Vec<[u8; 32]>,
        rest: Vec<u8>,
        trailing: bool,
        gas_limit: u64,
    }
    let case = |case: &'static str, change: &str| Case {
        case,
        change: change.into(),
        acc: split.prefix.clone(),
        rest: split.proof.clone(),
        trailing: false,
        gas_limit: CALL_GAS_LIMIT,
    };
    let s0 = layout.scalars_offset;
    let last = layout.rest_bytes - 32;
    let one = pow2_word(0);
    let mut cases = vec![case("honest", "none")];
    let mut c = case(
        "off-curve point",
        "the first commitment's y + 1 (still < q, the point off the curve)",
    );
    add_in_place(&mut c.rest[32..64], &one, "y + 1")?;
    cases.push(c);
    let mut c = case(
        "off-curve final point",
        "the last point's (W') y + 1 (still < q, off the curve)",
    );
    add_in_place(&mut c.rest[last..], &one, "y + 1")?;
    cases.push(c);
    let mut c = case("coordinate + q", "the first commitment's x + q");
    add_in_place(&mut c.rest[..32], &BN254_Q, "x + q")?;
    cases.push(c);
    let mut c = case(
        "changed accumulator limb",
        "accumulator word 0 (the first point's x, lowest limb) with its lowest bit flipped",
    );
    c.acc[0][31] ^= 1;
    cases.push(c);
    let mut c = case(
        "accumulator limb + r",
        "accumulator word 0 + r (the verifier reads public inputs mod r)",
    );
    add_in_place(&mut c.acc[0], &BN254_R, "limb + r")?;
    cases.push(c);
    let mut c = case(
        "changed scalar",
        "the first evaluation (scalar word 0) with its lowest bit flipped",
    );
    c.rest[s0 + 31] ^= 1;
    cases.push(c);
    let mut c = case(
        "scalar + r",
        "the first evaluation + r (the verifier reads scalars mod r)",
    );
    add_in_place(&mut c.rest[s0..s0 + 32], &BN254_R, "scalar + r")?;
    cases.push(c);
    let mut c = case("proof a word longer", "32 zero bytes after the outer proof");
    c.rest.extend_from_slice(&[0; 32]);
    cases.push(c);
    let mut c = case(
        "proof a word shorter",
        "the outer proof's last word dropped",
    );
    c.rest.truncate(last);
    cases.push(c);
    let mut c = case(
        "trailing calldata",
        "32 bytes after the calldata (through the wrapper: after the ABI encoding)",
    );
    c.trailing = true;
    cases.push(c);
    let mut c = case(
        "too little gas",
        "none; the gas limit one below the least the honest call through the wrapper needs",
    );
    c.gas_limit = min_limit - 1;
    cases.push(c);

    let mut rows = Vec::new();
    for c in cases {
        let mut direct_data = verifier_calldata(&c.acc, &d, &c.rest);
        let mut through = wrapper_data(&c.acc, &c.rest)?;
        if c.trailing {
            direct_data.extend_from_slice(&[0xab; 32]);
            through.extend_from_slice(&[0xab; 32]);
        }
        let (direct_gas, direct_outcome) = direct_outcome(&chain.chain.call_with_gas_limit(
            chain.verifier.address,
            &direct_data,
            c.gas_limit,
        )?);
        let (wrapper_gas, wrapper_outcome) =
            wrapper_outcome(&chain.call_with_gas_limit(&through, c.gas_limit)?, &d);
        rows.push(TamperRow {
            case: c.case.into(),
            change: c.change,
            gas_limit: c.gas_limit,
            direct_gas,
            direct_outcome,
            wrapper_gas,
            wrapper_outcome,
            wrapper_vs_honest: ratio(wrapper_gas, honest_gas),
        });
    }
    let worst = rows
        .iter()
        .skip(1)
        .map(|r| r.wrapper_vs_honest)
        .fold(0.0, f64::max);
    Ok(TamperReport {
        batch_size: pairs.len() as u64,
        config,
        verifier_honest_execution_gas: direct.execution(),
        honest_wrapper_gas: honest_gas,
        honest_min_gas_limit: min_limit,
        worst_tampered_vs_honest: worst,
        wrapper_runtime_code_bytes: chain.wrapper.runtime_bytes as u64,
        verifier_runtime_code_bytes: chain.verifier.runtime_bytes as u64,
        rows,
        solc_version: verifier.version.clone(),
    })
}

/// `a / b` to 3 decimals (stable in the JSON).
fn ratio(a: u64, b: u64) -> f64 {
    (a as f64 / b as f64 * 1000.0).round() / 1000.0
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
        let word = |v: u64| u64_word(v).to_vec();
        let data = [
            selector("InsufficientGas(uint256,uint256)").to_vec(),
            word(5),
            word(9),
        ]
        .concat();
        let e = decode_revert(&data);
        assert_eq!(e, WrapperRevert::InsufficientGas { have: 5, need: 9 });
        assert_eq!(e.name(), "InsufficientGas");
        let data = [
            selector("BadProofLayout(uint256,uint256,uint256)").to_vec(),
            word(64),
            word(16),
            word(1),
        ]
        .concat();
        assert_eq!(
            decode_revert(&data),
            WrapperRevert::BadProofLayout {
                rest_bytes: 64,
                scalars_offset: 16,
                scalars_count: 1
            }
        );
        let data = [
            selector("ProofWordOutOfRange(uint256)").to_vec(),
            word(1600),
        ]
        .concat();
        assert_eq!(
            decode_revert(&data),
            WrapperRevert::ProofWordOutOfRange(1600)
        );
        // A word over 64 bits is not decoded.
        let mut big = data.clone();
        big[4] = 1;
        assert_eq!(decode_revert(&big), WrapperRevert::Other(big.clone()));
    }

    /// `w` − 1 (its last byte is not 0).
    fn minus_one(w: [u8; 32]) -> [u8; 32] {
        let mut out = w;
        out[31] -= 1;
        out
    }

    #[test]
    fn moduli_and_bounds() {
        assert!(is_coordinate(&minus_one(BN254_Q)) && !is_coordinate(&BN254_Q));
        assert!(is_scalar(&minus_one(BN254_R)) && !is_scalar(&BN254_R));
        // r < q: r is a coordinate, q − 1 no scalar.
        assert!(is_coordinate(&BN254_R) && !is_scalar(&minus_one(BN254_Q)));
        assert_eq!(add_words(&[0xff; 32], &pow2_word(0)), None);
        assert_eq!(add_words(&minus_one(BN254_R), &pow2_word(0)), Some(BN254_R));
        assert_eq!(pow2_word(88)[20], 1);
        assert_eq!(pow2_word(78)[22], 0x40);
        assert_eq!(AGGREGATED_VERIFIER_GAS, 630_000);
        assert_eq!(verifier_gas_for(1), 1_000);
        assert_eq!(verifier_gas_for(2_000), 3_000);
    }

    /// The generator (1, 2) as 64 bytes.
    fn generator() -> [u8; 64] {
        let mut g = [0u8; 64];
        g[31] = 1;
        g[63] = 2;
        g
    }

    #[test]
    fn points_and_layouts() {
        let g = generator();
        assert!(is_g1_point(&g));
        let mut off = g;
        off[63] = 3;
        assert!(!is_g1_point(&off) && !is_g1_point(&[0u8; 64]) && !is_g1_point(&g[..63]));

        // 3 commitments, 3 scalars (5, 7, 11: no pair of them on the curve), W, W'.
        let scalars: Vec<u8> = [5u64, 7, 11].iter().flat_map(|&v| u64_word(v)).collect();
        let rest = [g.repeat(3), scalars, g.repeat(2)].concat();
        let layout = ProofLayout::find(&rest).unwrap();
        assert_eq!(
            layout,
            ProofLayout {
                rest_bytes: 64 * 5 + 96,
                scalars_offset: 192,
                scalars_count: 3
            }
        );
        assert_eq!(layout.first_out_of_range(&rest), None);
        let mut bad = rest.clone();
        bad[192 + 64..192 + 96].copy_from_slice(&BN254_R);
        assert_eq!(layout.first_out_of_range(&bad), Some(256));
        assert!(ProofLayout::find(&bad).is_err());
        bad[192 + 64..192 + 96].copy_from_slice(&minus_one(BN254_Q));
        // q − 1 where a coordinate is: fine; where a scalar is: not.
        assert_eq!(layout.first_out_of_range(&bad), Some(256));
        let mut bad = rest.clone();
        bad[..32].copy_from_slice(&BN254_R);
        assert_eq!(layout.first_out_of_range(&bad), None);
        bad[..32].copy_from_slice(&BN254_Q);
        assert_eq!(layout.first_out_of_range(&bad), Some(0));
        // Not whole words, the last point off the curve, no scalars.
        assert!(ProofLayout::find(&rest[1..]).is_err());
        let n = rest.len();
        let mut bad = rest.clone();
        bad[n - 1] = 3;
        assert!(ProofLayout::find(&bad).is_err());
        assert!(ProofLayout::find(&g.repeat(4)).is_err());
    }

    #[test]
    fn accumulator_limbs() {
        // The generator's coordinates as limbs: x = 1 (l0 = 1), y = 2.
        let limb = |v: u64| u64_word(v);
        let acc: Vec<[u8; 32]> = [1u64, 0, 0, 2, 0, 0]
            .repeat(2)
            .into_iter()
            .map(limb)
            .collect();
        assert_eq!(accumulator_out_of_range(&acc), None);
        assert_eq!(accumulator_coordinate(&acc[3..6]), Some(Fq::from(2)));
        // l0 + l1·2^88 + l2·2^176 with each limb 1.
        let c = accumulator_coordinate(&[limb(1), limb(1), limb(1)]).unwrap();
        let two88 = Fq::from(1u64 << 44).square();
        assert_eq!(c, Fq::from(1) + two88 + two88 * two88);
        for (i, v) in [
            (0, pow2_word(LIMB_BITS)),
            (4, pow2_word(LIMB_BITS)),
            (8, pow2_word(TOP_LIMB_BITS)),
            (11, minus_one(pow2_word(TOP_LIMB_BITS))),
        ] {
            let mut a = acc.clone();
            a[i] = v;
            assert_eq!(accumulator_out_of_range(&a), Some(i), "word {i}");
        }
        assert_eq!(accumulator_out_of_range(&acc[..7]), Some(7));
    }
}
