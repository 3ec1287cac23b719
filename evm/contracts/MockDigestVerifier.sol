// SPDX-License-Identifier: MIT
pragma solidity 0.8.19;

/// @title A stand-in for the digest-mode batch verifier, to test and measure the wrapper
/// without a proof: it returns (empty, as the generated verifier does) only when its calldata
/// is exactly prefix ‖ expectedHi ‖ expectedLo ‖ proof, with a prefix of `prefixBytes` bytes
/// whose keccak256 is expectedPrefixHash (the aggregated verifier's accumulator words; none
/// for the batch proof's own verifier, whose calldata is D_hi ‖ D_lo ‖ proof) and a proof
/// whose keccak256 is expectedProofHash, and reverts otherwise. After the check it spends
/// `burn` empty loop iterations, so that a measured call's execution gas lies above the
/// EIP-7623 calldata floor, as a real verifier's does; its own gas is then measured alone and
/// subtracted.
contract MockDigestVerifier {
    uint256 private immutable prefixBytes;
    bytes32 private immutable expectedPrefixHash;
    bytes32 private immutable expectedHi;
    bytes32 private immutable expectedLo;
    bytes32 private immutable expectedProofHash;
    uint256 private immutable burn;

    constructor(
        uint256 prefixWords,
        bytes32 prefixHash,
        bytes32 hi,
        bytes32 lo,
        bytes32 proofHash,
        uint256 burn_
    ) {
        prefixBytes = prefixWords * 32;
        expectedPrefixHash = prefixHash;
        expectedHi = hi;
        expectedLo = lo;
        expectedProofHash = proofHash;
        burn = burn_;
    }

    fallback(bytes calldata input) external returns (bytes memory) {
        uint256 p = prefixBytes;
        require(input.length >= p + 64, "short");
        require(keccak256(input[0:p]) == expectedPrefixHash, "prefix");
        require(bytes32(input[p:p + 32]) == expectedHi, "D_hi");
        require(bytes32(input[p + 32:p + 64]) == expectedLo, "D_lo");
        require(keccak256(input[p + 64:]) == expectedProofHash, "proof");
        for (uint256 i = 0; i < burn; ) {
            unchecked {
                ++i;
            }
        }
        return "";
    }
}
