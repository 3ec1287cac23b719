// SPDX-License-Identifier: MIT
pragma solidity 0.8.19;

/// @title The batch-ecdsa digest wrapper: what a rollup posts in, the batch proof's verifier
/// called with the one public value it proves.
///
/// A digest-mode proof shows that B secp256k1 ECDSA signatures are valid, signature i by the
/// key whose address is a_i over the signing hash h_i, and its only public input is
///
///     D = keccak256(h_0 ‖ a_0 ‖ h_1 ‖ a_1 ‖ … ‖ h_{B-1} ‖ a_{B-1})     (52·B bytes)
///
/// given to the verifier as two words: D_hi = D >> 128 and D_lo = D mod 2^128. This contract
/// recomputes D from the batch and staticcalls the verifier with prefix ‖ D_hi ‖ D_lo ‖ rest,
/// so a rollup never passes the public input itself: an accepted call means each sender a_i
/// signed the posted h_i (or payload_i, h_i = keccak256(payload_i)).
///
/// Any n ≤ B signatures on a key made for B (`batchSize`): the caller posts its n pairs and
/// the wrapper appends B − n copies of the canonical filler pair (FILLER_HASH ‖ FILLER_SENDER,
/// a fixed valid signature whose values are public constants, `batch_ecdsa::native::filler`)
/// before hashing, as the prover padded the batch. Every slot is a signature the circuit
/// checked, and D fixes each slot's pair, so the n posted pairs are exactly the first n slots
/// and every later slot is the filler: a filler slot cannot hide an unsigned pair, and a posted
/// pair cannot be dropped as filler (it would change D). The filler's key is public on purpose:
/// it signs the filler hash, and anyone can sign with it, so a rollup must treat the filler's
/// address as an account anyone controls. Posting the filler pair itself as entry n gives the
/// same D as posting n − 1 entries: both calls are true statements (a_f did sign h_f), and the
/// wrapper does not spend gas to refuse it; a rollup that needs one calldata per proof refuses
/// the filler's address as a sender itself.
///
/// The prefix: a verifier whose public inputs begin with `prefixWords` words that are part of
/// the proof rather than of the statement. The batch proof's own verifier has none
/// (prefixWords = 0: the call is D_hi ‖ D_lo ‖ proof). The aggregated verifier (an outer
/// circuit that verifies the batch proof) has 12: the KZG accumulator of the inner proof's
/// check (two G1 points, 3 limbs per coordinate), which its public inputs list before the
/// inner proof's D_hi, D_lo. The accumulator is whatever the outer prover computed, and the
/// outer verifier's pairing decides it together with the outer proof, so it travels with the
/// proof: the caller passes `proof` = accumulator ‖ rest and the wrapper splits it around D.
///
/// Encodings (1 ≤ n ≤ B):
/// - `senders`: a_0 ‖ … ‖ a_{n-1}, 20 bytes each; n = senders.length / 20.
/// - `payloads`: for each i in order, len_i as 3 bytes big-endian, then the len_i bytes of
///   payload_i (for an Ethereum transaction: its signing payload, the unsigned EIP-2718
///   encoding it signs). Exactly n entries and nothing after them.
/// - `hashes`: h_0 ‖ … ‖ h_{n-1}, 32 bytes each.
/// - `proof`: prefix (32·prefixWords bytes) ‖ rest (restBytes bytes, the verifier's proof);
///   the verifier gets prefix ‖ D_hi ‖ D_lo ‖ rest (with prefixWords = 0: D_hi ‖ D_lo ‖ proof).
///
/// Each function returns D. A malformed input reverts with the custom error that names it, and
/// a proof the verifier rejects with ProofRejected. The generated verifier (snark-verifier,
/// SHPLONK) reads public inputs and scalars mod r, ignores calldata past its proof, and lets a
/// precompile call that fails (an off-curve point) burn all the gas it forwards. The wrapper's
/// checks, in this order, close that: exactly one calldata is accepted for a batch and its
/// proof, and a bad proof costs the caller at most verifierGas in the verifier:
///
/// 1. Canonical calldata (CalldataLength, NonCanonicalEncoding): msg.data must be the
///    canonical ABI encoding of the three `bytes` arguments, 4 + 3·32 + Σ (32 + ceil32(len))
///    bytes, each argument's bytes right after the previous one's padding (offsets 0x60, …)
///    and every padding byte zero. The ABI decoder alone accepts trailing bytes, other
///    offsets and any padding: the same batch would have many calldatas.
/// 2. Exact proof length (ProofShorterThanPrefix, ProofLength): `proof` is exactly
///    prefixBytes + restBytes long. The verifier ignores calldata past its proof, so a longer
///    `proof` would be accepted (and a shorter one read as zeros).
/// 3. The accumulator in range (AccumulatorOutOfRange, prefixWords = 12): the prefix is two
///    G1 points (x, y), each coordinate three 88-bit limbs in little-endian order, coordinate
///    = l0 + l1·2^88 + l2·2^176. Each limb must be < 2^88, the top limb l2 < 2^78, and the
///    coordinate < q (BN254's base field). The verifier reduces each public input word mod r
///    first, so limb + r would be accepted for limb: a second encoding of the same proof.
/// 4. Canonical proof words (ProofWordOutOfRange): `rest` is G1 coordinates (32-byte words)
///    except for scalarsCount 32-byte scalars from byte scalarsOffset on (the evaluations,
///    between the commitments and the opening proof). Each scalar must be < r and each
///    coordinate < q. The verifier reads each scalar mod r (scalar + r would also be
///    accepted), and a coordinate ≥ q makes its precompile calls fail, which costs all the gas
///    they are given.
/// 5. Bounded gas (InsufficientGas): the verifier is staticcalled with exactly verifierGas gas
///    (set at deployment with a margin over its honest execution), never with all that is
///    left, so a proof that makes a precompile fail (an off-curve point, a changed
///    accumulator limb) costs the caller at most verifierGas, not the whole gas limit. Before
///    calling, the wrapper checks that gasleft() lets it forward all of verifierGas (EIP-150
///    forwards at most 63/64 of what is left after the call's own cost) and keep enough to
///    finish; else it reverts with InsufficientGas(have, need), so ProofRejected always means
///    the verifier failed within its full allowance, never that the caller gave too little.
///    An honest call thus needs a gas limit about verifierGas/63 + 5,000 above what it uses
///    plus what the verifier leaves unused of verifierGas (it is charged only what it uses).
///
/// Points on the curve are not checked here: the verifier does that, within verifierGas.
contract BatchEcdsaWrapper {
    /// BN254's base field modulus q (the field of the G1 coordinates).
    uint256 private constant Q = 0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47;
    /// BN254's scalar field modulus r.
    uint256 private constant R = 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001;
    /// 2^88: the bound of an accumulator limb.
    uint256 private constant LIMB_BOUND = 0x10000000000000000000000;
    /// 2^78: the bound of a coordinate's top limb (q < 2^254 = 2^(176 + 78)).
    uint256 private constant TOP_LIMB_BOUND = 0x40000000000000000000;
    /// Words of the aggregated verifier's accumulator (the only prefix there is).
    uint256 private constant ACCUMULATOR_WORDS = 12;
    /// The canonical filler's signing hash h_f = keccak256("batch-ecdsa filler slot")
    /// (`batch_ecdsa::native::filler`; a test compares both).
    bytes32 private constant FILLER_HASH = 0x7247276a89073d3a7d7de0deb8269ec9289d1c0a3b09d30450ef5e9d1dc9d063;
    /// a_f left-aligned in a word, as a sender is loaded (FILLER_ADDRESS << 96).
    uint256 private constant FILLER_SENDER = 0xbd0c6e9fd6084a8032b0f32b3a45925f563ff6ee000000000000000000000000;
    /// Gas kept beyond verifierGas + verifierGas/63 at the check: the call's own cost (a warm
    /// account, 100), the few instructions before it, and what the wrapper spends after it.
    uint256 private constant CALL_RESERVE = 5000;

    /// The batch proof's verifier (returns on success, reverts otherwise).
    address public immutable verifier;
    /// B, the batch size the verifier's key was made for: a call posts 1 to B pairs.
    uint256 public immutable batchSize;
    /// Words of the verifier's public inputs before D_hi, D_lo, taken from the front of
    /// `proof` (0: the batch proof's verifier; 12: the aggregated verifier's accumulator).
    uint256 public immutable prefixWords;
    /// Bytes of the verifier's proof after the prefix (`rest`).
    uint256 public immutable restBytes;
    /// Byte offset in `rest` of the first scalar word.
    uint256 public immutable scalarsOffset;
    /// Scalar words in `rest` from scalarsOffset on; every other word is a G1 coordinate.
    uint256 public immutable scalarsCount;
    /// The gas the verifier is called with.
    uint256 public immutable verifierGas;
    /// 32 · prefixWords (immutables: constants in the code, no storage read).
    uint256 private immutable prefixBytes;
    /// prefixBytes + restBytes: the length of `proof`.
    uint256 private immutable proofBytes;
    /// 32 · scalarsCount.
    uint256 private immutable scalarsBytes;
    /// The least gasleft() at the check that forwards all of verifierGas and finishes.
    uint256 private immutable callGas;

    /// The verifier address given to the constructor holds no code (a call to it would
    /// succeed whatever the proof).
    error NoVerifierCode();
    /// The constructor's prefixWords is neither 0 nor 12 (the accumulator).
    error UnsupportedPrefix(uint256 prefixWords);
    /// The constructor's proof layout does not fit: restBytes or scalarsOffset is not a
    /// multiple of 32, restBytes is over 2^32, or the scalars run past restBytes.
    error BadProofLayout(uint256 restBytes, uint256 scalarsOffset, uint256 scalarsCount);
    /// The constructor's verifierGas is 0 or over 2^64 - 1.
    error BadVerifierGas(uint256 verifierGas);
    /// The calldata is not as long as the canonical encoding of the three arguments
    /// (4 + 3·32 + Σ (32 + ceil32(len))): bytes were added or the arguments overlap.
    error CalldataLength(uint256 length, uint256 expected);
    /// Argument `argument` (0, 1, 2) is not where the canonical encoding puts it, or a byte of
    /// its padding is not zero.
    error NonCanonicalEncoding(uint256 argument);
    /// `senders` is empty: there is no batch.
    error EmptyBatch();
    /// The constructor's batchSize is 0 or over 2^32.
    error BadBatchSize(uint256 batchSize);
    /// `senders` holds more than batchSize addresses.
    error BatchTooLarge(uint256 count, uint256 batchSize);
    /// `senders` is not a whole number of 20-byte addresses.
    error SendersLength(uint256 length);
    /// `hashes` is not 32 bytes per sender.
    error HashesLength(uint256 length, uint256 expected);
    /// Payload `index`'s length prefix or body runs past the end of `payloads`; index n when
    /// bytes remain after the n-th payload.
    error MalformedPayloads(uint256 index);
    /// `proof` is shorter than the prefix (prefixBytes = 32 · prefixWords) it must begin with.
    error ProofShorterThanPrefix(uint256 length, uint256 prefixBytes);
    /// `proof` is not exactly prefixBytes + restBytes long.
    error ProofLength(uint256 length, uint256 expected);
    /// Accumulator word `word` (0 to 11, of `proof`) is out of range: a limb ≥ 2^88, a top
    /// limb ≥ 2^78, or (naming the coordinate's top limb, word 3k + 2) a coordinate ≥ q.
    error AccumulatorOutOfRange(uint256 word);
    /// The 32-byte word at byte `offset` of `proof` (prefix included) is out of range: a
    /// scalar ≥ r or a coordinate ≥ q.
    error ProofWordOutOfRange(uint256 offset);
    /// gasleft() before the call (`have`) cannot forward all of verifierGas and finish: the
    /// call needs `need`. Raise the transaction's gas limit.
    error InsufficientGas(uint256 have, uint256 need);
    /// The verifier rejected the proof for this batch (within its full verifierGas).
    error ProofRejected();

    /// `verifier_`: the verifier's address (it must hold code). `batchSize_`: B, the batch size
    /// of the verifier's key (1 to 2^32). `prefixWords_`: 0 or 12, as for
    /// `prefixWords`. `restBytes_`, `scalarsOffset_`, `scalarsCount_`: the layout of the
    /// verifier's proof after the prefix (multiples of 32; for snark-verifier's SHPLONK proof:
    /// the commitments, 64 bytes each, then the scalars, then two points). `verifierGas_`: the
    /// gas to call it with, above its honest execution (which is the same for every proof).
    constructor(
        address verifier_,
        uint256 batchSize_,
        uint256 prefixWords_,
        uint256 restBytes_,
        uint256 scalarsOffset_,
        uint256 scalarsCount_,
        uint256 verifierGas_
    ) {
        if (verifier_.code.length == 0) revert NoVerifierCode();
        if (batchSize_ == 0 || batchSize_ > 1 << 32) revert BadBatchSize(batchSize_);
        if (prefixWords_ != 0 && prefixWords_ != ACCUMULATOR_WORDS) revert UnsupportedPrefix(prefixWords_);
        if (
            restBytes_ % 32 != 0 || scalarsOffset_ % 32 != 0 || restBytes_ > 1 << 32
                || scalarsOffset_ > restBytes_ || scalarsCount_ > (restBytes_ - scalarsOffset_) / 32
        ) revert BadProofLayout(restBytes_, scalarsOffset_, scalarsCount_);
        if (verifierGas_ == 0 || verifierGas_ > type(uint64).max) revert BadVerifierGas(verifierGas_);
        verifier = verifier_;
        batchSize = batchSize_;
        prefixWords = prefixWords_;
        restBytes = restBytes_;
        scalarsOffset = scalarsOffset_;
        scalarsCount = scalarsCount_;
        verifierGas = verifierGas_;
        prefixBytes = prefixWords_ * 32;
        proofBytes = prefixWords_ * 32 + restBytes_;
        scalarsBytes = scalarsCount_ * 32;
        callGas = verifierGas_ + verifierGas_ / 63 + CALL_RESERVE;
    }

    /// Verifies the batch of signing `payloads` (hashed here with keccak256) signed by
    /// `senders`; returns D.
    function verifyTransactions(bytes calldata payloads, bytes calldata senders, bytes calldata proof)
        external
        view
        returns (bytes32 d)
    {
        canonical(payloads, senders, proof);
        uint256 n = count(senders);
        uint256 b = batchSize;
        // Checked: count() refuses n > B, and a change that lost that check would panic here
        // rather than hash only the first B posted pairs.
        uint256 fill = b - n;
        // 1 + the index of the first malformed payload; 0 when all parse.
        uint256 bad;
        assembly {
            // The preimage is built from the free memory pointer on, pair i at buf + 52·i.
            // Payload i is copied to its pair's place and hashed there; its hash then
            // overwrites the first 32 bytes and the sender the next 20 (the 32-byte load also
            // writes 12 bytes past the pair, which pair i + 1 overwrites, or which lie past the
            // 52·B bytes hashed). The B − n filler pairs follow the n posted ones.
            let buf := mload(0x40)
            let p := buf
            let pos := payloads.offset
            let end := add(payloads.offset, payloads.length)
            let s := senders.offset
            for { let i := 0 } lt(i, n) { i := add(i, 1) } {
                if gt(add(pos, 3), end) {
                    bad := add(i, 1)
                    break
                }
                let len := shr(232, calldataload(pos))
                pos := add(pos, 3)
                if gt(add(pos, len), end) {
                    bad := add(i, 1)
                    break
                }
                calldatacopy(p, pos, len)
                mstore(p, keccak256(p, len))
                mstore(add(p, 32), calldataload(s))
                pos := add(pos, len)
                s := add(s, 20)
                p := add(p, 52)
            }
            if iszero(bad) {
                if iszero(eq(pos, end)) { bad := add(n, 1) }
            }
            if iszero(bad) {
                for { let end_ := add(p, mul(fill, 52)) } lt(p, end_) { p := add(p, 52) } {
                    mstore(p, FILLER_HASH)
                    mstore(add(p, 32), FILLER_SENDER)
                }
                d := keccak256(buf, mul(b, 52))
            }
        }
        if (bad != 0) revert MalformedPayloads(bad - 1);
        check(d, proof);
    }

    /// Verifies the batch of signing `hashes` signed by `senders`; returns D.
    function verifyHashes(bytes calldata hashes, bytes calldata senders, bytes calldata proof)
        external
        view
        returns (bytes32 d)
    {
        canonical(hashes, senders, proof);
        uint256 n = count(senders);
        uint256 b = batchSize;
        uint256 fill = b - n; // checked, as in verifyTransactions
        if (hashes.length != n * 32) revert HashesLength(hashes.length, n * 32);
        assembly {
            // As above: pair i at buf + 52·i, the 12 extra bytes of each sender's load
            // overwritten by the next pair or past the bytes hashed; then the B − n fillers.
            let buf := mload(0x40)
            let p := buf
            let s := senders.offset
            let h := hashes.offset
            for { let end := add(h, hashes.length) } lt(h, end) { h := add(h, 32) } {
                mstore(p, calldataload(h))
                mstore(add(p, 32), calldataload(s))
                s := add(s, 20)
                p := add(p, 52)
            }
            for { let end_ := add(p, mul(fill, 52)) } lt(p, end_) { p := add(p, 52) } {
                mstore(p, FILLER_HASH)
                mstore(add(p, 32), FILLER_SENDER)
            }
            d := keccak256(buf, mul(b, 52))
        }
        check(d, proof);
    }

    /// Check 1: the calldata is the canonical encoding of (a, b, c): selector, the head words
    /// 0x60 and on, then each argument's length word, bytes and zero padding, nothing after.
    function canonical(bytes calldata a, bytes calldata b, bytes calldata c) private pure {
        uint256 expected = 100 + padded(a.length) + padded(b.length) + padded(c.length);
        uint256 length;
        // 1 + the first argument out of place or with a non-zero padding byte; 0 when none.
        uint256 bad;
        assembly {
            length := calldatasize()
            // Where argument i's bytes start in the canonical encoding (after the selector, the
            // three head words and its length word), and whether its padding is zero: the low
            // 8·pad bits of the last word of its padded bytes.
            function fits(offset, len, at) -> ok {
                ok := eq(offset, at)
                let pad := and(sub(0, len), 31)
                if and(ok, gt(pad, 0)) {
                    ok := iszero(shl(sub(256, mul(8, pad)), calldataload(sub(add(offset, add(len, pad)), 32))))
                }
            }
            let at := 0x84
            switch fits(a.offset, a.length, at)
            case 0 { bad := 1 }
            default {
                at := add(at, add(32, and(add(a.length, 31), not(31))))
                switch fits(b.offset, b.length, at)
                case 0 { bad := 2 }
                default {
                    at := add(at, add(32, and(add(b.length, 31), not(31))))
                    if iszero(fits(c.offset, c.length, at)) { bad := 3 }
                }
            }
        }
        if (length != expected) revert CalldataLength(length, expected);
        if (bad != 0) revert NonCanonicalEncoding(bad - 1);
    }

    /// 32 + len rounded up to a multiple of 32: an argument's length word and padded bytes.
    function padded(uint256 len) private pure returns (uint256) {
        return 32 + ((len + 31) & ~uint256(31));
    }

    /// n, from the senders (1 ≤ n ≤ batchSize).
    function count(bytes calldata senders) private view returns (uint256 n) {
        if (senders.length == 0) revert EmptyBatch();
        if (senders.length % 20 != 0) revert SendersLength(senders.length);
        n = senders.length / 20;
        if (n > batchSize) revert BatchTooLarge(n, batchSize);
    }

    /// Checks 2 to 5, then staticcalls the verifier with prefix ‖ D_hi ‖ D_lo ‖ rest, where
    /// proof = prefix ‖ rest and the prefix is prefixBytes long; reverts unless it returns.
    function check(bytes32 d, bytes calldata proof) private view {
        uint256 pre = prefixBytes;
        uint256 total = proofBytes;
        if (proof.length < pre) revert ProofShorterThanPrefix(proof.length, pre);
        if (proof.length != total) revert ProofLength(proof.length, total);
        uint256 start;
        assembly {
            start := proof.offset
        }
        if (pre != 0) checkAccumulator(start);
        checkProofWords(start, pre, total);
        call(d, proof, pre);
    }

    /// Check 3: the 12 accumulator words at `start` (two points, x then y, 3 limbs each, the
    /// least significant first).
    function checkAccumulator(uint256 start) private pure {
        // 1 + the word out of range; 0 when none.
        uint256 bad;
        assembly {
            for { let k := 0 } lt(k, 4) { k := add(k, 1) } {
                let at := add(start, mul(k, 96))
                let l0 := calldataload(at)
                let l1 := calldataload(add(at, 32))
                let l2 := calldataload(add(at, 64))
                let w := add(mul(k, 3), 1)
                if iszero(lt(l0, LIMB_BOUND)) {
                    bad := w
                    break
                }
                if iszero(lt(l1, LIMB_BOUND)) {
                    bad := add(w, 1)
                    break
                }
                // l2 < 2^78 first: the shift below then loses no bits, and the sum is < 2^254.
                if iszero(lt(l2, TOP_LIMB_BOUND)) {
                    bad := add(w, 2)
                    break
                }
                if iszero(lt(or(l0, or(shl(88, l1), shl(176, l2))), Q)) {
                    bad := add(w, 2)
                    break
                }
            }
        }
        if (bad != 0) revert AccumulatorOutOfRange(bad - 1);
    }

    /// Check 4: the words of rest = proof[pre:total] (`proof` at calldata `start`): scalars
    /// < r from scalarsOffset for scalarsBytes, coordinates < q elsewhere.
    function checkProofWords(uint256 start, uint256 pre, uint256 total) private view {
        uint256 s0 = start + pre + scalarsOffset;
        uint256 s1 = s0 + scalarsBytes;
        // The calldata position of the first word out of range; 0 when none.
        uint256 bad;
        assembly {
            // Whether every word in [from, to) is below `bound`: eight words an iteration, no
            // branch per word (the inline assembly is not optimized: this is under half the gas of
            // a loop that stops at the first word out of range).
            function allBelow(from, to, bound) -> ok {
                ok := 1
                let end8 := sub(to, mod(sub(to, from), 256))
                for { let p := from } lt(p, end8) { p := add(p, 256) } {
                    ok := and(
                        ok,
                        and(
                            and(
                                and(lt(calldataload(p), bound), lt(calldataload(add(p, 32)), bound)),
                                and(lt(calldataload(add(p, 64)), bound), lt(calldataload(add(p, 96)), bound))
                            ),
                            and(
                                and(lt(calldataload(add(p, 128)), bound), lt(calldataload(add(p, 160)), bound)),
                                and(lt(calldataload(add(p, 192)), bound), lt(calldataload(add(p, 224)), bound))
                            )
                        )
                    )
                }
                for { let p := end8 } lt(p, to) { p := add(p, 32) } { ok := and(ok, lt(calldataload(p), bound)) }
            }
            // The first word in [from, to) not below `bound` (0 when none): only on failure.
            function first(from, to, bound) -> at {
                for { let p := from } lt(p, to) { p := add(p, 32) } {
                    if iszero(lt(calldataload(p), bound)) {
                        at := p
                        break
                    }
                }
            }
            let r0 := add(start, pre)
            let end := add(start, total)
            if iszero(and(and(allBelow(r0, s0, Q), allBelow(s0, s1, R)), allBelow(s1, end, Q))) {
                bad := first(r0, s0, Q)
                if iszero(bad) { bad := first(s0, s1, R) }
                if iszero(bad) { bad := first(s1, end, Q) }
            }
        }
        if (bad != 0) revert ProofWordOutOfRange(bad - start);
    }

    /// Check 5 and the call: the verifier gets exactly verifierGas.
    function call(bytes32 d, bytes calldata proof, uint256 pre) private view {
        address v = verifier;
        uint256 g = verifierGas;
        uint256 need = callGas;
        uint256 have;
        bool ok;
        assembly {
            // Reuses the memory from the free pointer on: the preimage is no longer needed.
            // With pre = 0 the first copy is empty (3 gas) and the layout is D_hi ‖ D_lo ‖ proof.
            let m := mload(0x40)
            calldatacopy(m, proof.offset, pre)
            let w := add(m, pre)
            mstore(w, shr(128, d))
            mstore(add(w, 32), and(d, 0xffffffffffffffffffffffffffffffff))
            calldatacopy(add(w, 64), add(proof.offset, pre), sub(proof.length, pre))
            // The code check repeats the constructor's (since EIP-6780 a contract loses its
            // code only within its creating transaction); it pays the cold account (2,600), so
            // the call below finds it warm (100) and the memory is already expanded: what the
            // call costs beyond verifierGas is known, and CALL_RESERVE covers it.
            if extcodesize(v) {
                have := gas()
                if iszero(lt(have, need)) {
                    ok := staticcall(g, v, m, add(64, proof.length), 0, 0)
                    have := 0
                }
            }
        }
        if (have != 0) revert InsufficientGas(have, need);
        if (!ok) revert ProofRejected();
    }
}
