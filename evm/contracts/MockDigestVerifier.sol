// SPDX-License-Identifier: MIT
pragma solidity 0.8.19;

/// @title A stand-in for the digest-mode batch verifier, to test and measure the wrapper
/// without a proof: it returns (empty, as the generated verifier does) only when its calldata
/// is exactly expectedHi ‖ expectedLo ‖ a proof whose keccak256 is expectedProofHash, and
/// reverts otherwise. After the check it spends `burn` empty loop iterations, so that a
/// measured call's execution gas lies above the EIP-7623 calldata floor, as a real
/// verifier's does; its own gas is then measured alone and subtracted.
contract MockDigestVerifier {
    bytes32 private immutable expectedHi;
    bytes32 private immutable expectedLo;
    bytes32 private immutable expectedProofHash;
    uint256 private immutable burn;

    constructor(bytes32 hi, bytes32 lo, bytes32 proofHash, uint256 burn_) {
        expectedHi = hi;
        expectedLo = lo;
        expectedProofHash = proofHash;
        burn = burn_;
    }

    fallback(bytes calldata input) external returns (bytes memory) {
        require(input.length >= 64, "short");
        require(bytes32(input[0:32]) == expectedHi, "D_hi");
        require(bytes32(input[32:64]) == expectedLo, "D_lo");
        require(keccak256(input[64:]) == expectedProofHash, "proof");
        for (uint256 i = 0; i < burn; ) {
            unchecked {
                ++i;
            }
        }
        return "";
    }
}
