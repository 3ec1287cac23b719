// SPDX-License-Identifier: MIT
pragma solidity 0.8.19;

/// @title A stand-in for the digest-mode batch verifier, to test and measure the wrapper
/// without a proof: it returns (empty, as the generated verifier does) only when its calldata
/// is exactly prefix ‖ expectedHi ‖ expectedLo ‖ proof, with a prefix of `prefixBytes` bytes
/// whose keccak256 is expectedPrefixHash (the aggregated verifier's accumulator words; none
/// for the batch proof's own verifier, whose calldata is D_hi ‖ D_lo ‖ proof) and a proof
/// whose keccak256 is expectedProofHash. Otherwise it reverts with the part that differs, or,
/// deployed with `exhaust`, uses all the gas it was given (as the real verifier does when a
/// precompile fails on an off-curve point), to test the wrapper's gas cap. After the check it
/// spends `burn` empty loop iterations (43 gas each), so that a measured call's execution gas
/// lies above the EIP-7623 calldata floor, as a real verifier's does; its own gas is then
/// measured alone and subtracted.
contract MockDigestVerifier {
    uint256 private immutable prefixBytes;
    bytes32 private immutable expectedPrefixHash;
    bytes32 private immutable expectedHi;
    bytes32 private immutable expectedLo;
    bytes32 private immutable expectedProofHash;
    uint256 private immutable burn;
    bool private immutable exhaust;

    constructor(
        uint256 prefixWords,
        bytes32 prefixHash,
        bytes32 hi,
        bytes32 lo,
        bytes32 proofHash,
        uint256 burn_,
        bool exhaust_
    ) {
        prefixBytes = prefixWords * 32;
        expectedPrefixHash = prefixHash;
        expectedHi = hi;
        expectedLo = lo;
        expectedProofHash = proofHash;
        burn = burn_;
        exhaust = exhaust_;
    }

    /// What differs from the expected calldata ("" when nothing does).
    function mismatch(bytes calldata input) private view returns (string memory) {
        uint256 p = prefixBytes;
        if (input.length < p + 64) return "short";
        if (keccak256(input[0:p]) != expectedPrefixHash) return "prefix";
        if (bytes32(input[p:p + 32]) != expectedHi) return "D_hi";
        if (bytes32(input[p + 32:p + 64]) != expectedLo) return "D_lo";
        if (keccak256(input[p + 64:]) != expectedProofHash) return "proof";
        return "";
    }

    fallback(bytes calldata input) external returns (bytes memory) {
        string memory why = mismatch(input);
        if (bytes(why).length != 0) {
            if (exhaust) {
                assembly {
                    invalid()
                }
            }
            revert(why);
        }
        for (uint256 i = 0; i < burn; ) {
            unchecked {
                ++i;
            }
        }
        return "";
    }
}
