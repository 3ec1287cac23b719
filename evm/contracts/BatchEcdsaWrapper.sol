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
/// The prefix: a verifier whose public inputs begin with `prefixWords` words that are part of
/// the proof rather than of the statement. The batch proof's own verifier has none
/// (prefixWords = 0: the call is D_hi ‖ D_lo ‖ proof). The aggregated verifier (an outer
/// circuit that verifies the batch proof) has 12: the KZG accumulator of the inner proof's
/// check (two G1 points, 3 limbs per coordinate), which its public inputs list before the
/// inner proof's D_hi, D_lo. The accumulator is whatever the outer prover computed, and the
/// outer verifier's pairing decides it together with the outer proof, so it travels with the
/// proof: the caller passes `proof` = accumulator ‖ outer proof and the wrapper splits it
/// around D. The wrapper does not read the prefix words; only D is its own.
///
/// Encodings (B ≥ 1):
/// - `senders`: a_0 ‖ … ‖ a_{B-1}, 20 bytes each; B = senders.length / 20.
/// - `payloads`: for each i in order, len_i as 3 bytes big-endian, then the len_i bytes of
///   payload_i (for an Ethereum transaction: its signing payload, the unsigned EIP-2718
///   encoding it signs). Exactly B entries and nothing after them.
/// - `hashes`: h_0 ‖ … ‖ h_{B-1}, 32 bytes each.
/// - `proof`: prefix (32·prefixWords bytes) ‖ rest; the verifier gets
///   prefix ‖ D_hi ‖ D_lo ‖ rest (with prefixWords = 0: D_hi ‖ D_lo ‖ proof).
///
/// Each function returns D. A malformed input reverts with the custom error that names it;
/// a proof the verifier rejects reverts with ProofRejected (the verifier may use all the gas it
/// is given before failing: callers should cap the gas of the call).
contract BatchEcdsaWrapper {
    /// The batch proof's verifier (returns on success, reverts otherwise).
    address public immutable verifier;
    /// Words of the verifier's public inputs before D_hi, D_lo, taken from the front of
    /// `proof` (0: the batch proof's verifier; 12: the aggregated verifier's accumulator).
    uint256 public immutable prefixWords;
    /// 32 · prefixWords (an immutable: a constant in the code, no storage read).
    uint256 private immutable prefixBytes;

    /// The verifier address given to the constructor holds no code (a call to it would
    /// succeed whatever the proof).
    error NoVerifierCode();
    /// `senders` is empty: there is no batch.
    error EmptyBatch();
    /// `senders` is not a whole number of 20-byte addresses.
    error SendersLength(uint256 length);
    /// `hashes` is not 32 bytes per sender.
    error HashesLength(uint256 length, uint256 expected);
    /// Payload `index`'s length prefix or body runs past the end of `payloads`; index B when
    /// bytes remain after the B-th payload.
    error MalformedPayloads(uint256 index);
    /// `proof` is shorter than the prefix (prefixBytes = 32 · prefixWords) it must begin with.
    error ProofShorterThanPrefix(uint256 length, uint256 prefixBytes);
    /// The verifier rejected the proof for this batch.
    error ProofRejected();

    /// `prefixWords_` as for `prefixWords` above; one whose 32·prefixWords_ overflows reverts
    /// (Panic).
    constructor(address verifier_, uint256 prefixWords_) {
        if (verifier_.code.length == 0) revert NoVerifierCode();
        verifier = verifier_;
        prefixWords = prefixWords_;
        prefixBytes = prefixWords_ * 32;
    }

    /// Verifies the batch of signing `payloads` (hashed here with keccak256) signed by
    /// `senders`; returns D.
    function verifyTransactions(bytes calldata payloads, bytes calldata senders, bytes calldata proof)
        external
        view
        returns (bytes32 d)
    {
        uint256 n = count(senders);
        // 1 + the index of the first malformed payload; 0 when all parse.
        uint256 bad;
        assembly {
            // The preimage is built from the free memory pointer on, pair i at buf + 52·i.
            // Payload i is copied to its pair's place and hashed there; its hash then
            // overwrites the first 32 bytes and the sender the next 20 (the 32-byte load also
            // writes 12 bytes past the pair, which pair i + 1 overwrites, or which lie past the
            // 52·B bytes hashed).
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
            if iszero(bad) { d := keccak256(buf, mul(n, 52)) }
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
        uint256 n = count(senders);
        if (hashes.length != n * 32) revert HashesLength(hashes.length, n * 32);
        assembly {
            // As above: pair i at buf + 52·i, the 12 extra bytes of each sender's load
            // overwritten by the next pair or past the bytes hashed.
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
            d := keccak256(buf, mul(n, 52))
        }
        check(d, proof);
    }

    /// B, from the senders (B ≥ 1).
    function count(bytes calldata senders) private pure returns (uint256) {
        if (senders.length == 0) revert EmptyBatch();
        if (senders.length % 20 != 0) revert SendersLength(senders.length);
        return senders.length / 20;
    }

    /// Staticcalls the verifier with prefix ‖ D_hi ‖ D_lo ‖ rest, where proof = prefix ‖ rest
    /// and the prefix is prefixBytes long; reverts unless it returns.
    function check(bytes32 d, bytes calldata proof) private view {
        address v = verifier;
        uint256 pre = prefixBytes;
        if (proof.length < pre) revert ProofShorterThanPrefix(proof.length, pre);
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
            // code only within its creating transaction) for 100 gas: one of the two accesses
            // pays for the cold account (2,600), the other finds it warm.
            ok := and(gt(extcodesize(v), 0), staticcall(gas(), v, m, add(64, proof.length), 0, 0))
        }
        if (!ok) revert ProofRejected();
    }
}
