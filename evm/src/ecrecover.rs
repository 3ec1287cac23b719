//! What a bridge or committee pays today: N signatures on one digest checked on chain with
//! the `ecrecover` precompile, measured in revm against the same EVM as the proof verifier.
//!
//! The contract ([`SOURCE`]) is the usual multisig check: each 65-byte signature `r ‖ s ‖ v`
//! recovered with `ecrecover` (3,000 gas), the signers strictly increasing so none counts
//! twice. It does not compare the signers with a committee (stored members would add a cold
//! `SLOAD`, 2,100 gas, each; members passed in calldata 32 bytes each and a hash), so it is a
//! lower bound of what a bridge pays, and the break-even N computed from it is conservative
//! (it favours `ecrecover`). The execution gas is affine in N; [`measure`] fits it from two N.

use batch_ecdsa::calldata::limits::ECRECOVER_SIGNATURE_BYTES;
use batch_ecdsa::calldata::rows::EcrecoverBench;
use batch_ecdsa::native::ecdsa::sign;
use batch_ecdsa::native::hash::keccak256;
use batch_ecdsa::native::public_key::PublicKey;
use halo2_proofs::halo2curves::secp256k1::Fq;

use crate::chain::{deploy, CallOutcome};
use crate::solc::Solc;

/// The measured contract.
pub const SOURCE: &str = r#"// SPDX-License-Identifier: MIT
pragma solidity 0.8.19;

/// N signatures on one digest, as bridges and multisigs check them: each recovered with
/// ecrecover, the signers strictly increasing (no signer counted twice).
contract EcrecoverBatch {
    function verify(bytes32 digest, bytes calldata sigs) external pure returns (uint256 n) {
        require(sigs.length % 65 == 0, "length");
        n = sigs.length / 65;
        address last = address(0);
        for (uint256 i = 0; i < n; i++) {
            bytes32 r;
            bytes32 s;
            uint8 v;
            assembly {
                let p := add(sigs.offset, mul(i, 65))
                r := calldataload(p)
                s := calldataload(add(p, 32))
                v := byte(0, calldataload(add(p, 64)))
            }
            address signer = ecrecover(digest, v, r, s);
            require(signer > last, "order");
            last = signer;
        }
    }
}
"#;

/// Gas of the `ecrecover` path, fitted as `base + N · per_signature` (execution only): the
/// calculator's format (`batch_ecdsa::calldata::rows::EcrecoverBench`, one format for
/// writer and reader).
pub type EcrecoverGas = EcrecoverBench;

pub use batch_ecdsa::calldata::limits::ECRECOVER_GAS;

/// `n` signatures of one digest by `n` deterministic keys, sorted by signer address, as
/// 65-byte `r ‖ s ‖ v` (v = 27 + parity).
fn signatures(digest: &[u8; 32], n: usize) -> Vec<u8> {
    let h = batch_ecdsa::native::encoding::fq_from_be_bytes_reduced(digest);
    let mut sigs: Vec<([u8; 20], Vec<u8>)> = (1..=n as u64)
        .map(|i| {
            let d = Fq::from(1_000 + i);
            let k = Fq::from(7_000 + i);
            let (sig, recid, _) = sign(&d, &h, &k).expect("a valid deterministic signature");
            let addr = PublicKey::from_secret(&d).expect("non-zero key").address();
            // r ‖ s (64 bytes, big-endian) and v; ecrecover takes v = 27 + y parity (an r
            // that is x(R) − n, recovery id 2 or 3, has no v: the deterministic keys avoid it).
            let mut bytes = sig.to_compact().to_vec();
            assert!(!recid.is_x_reduced(), "x(R) ≥ n for key {i}");
            bytes.push(27 + u8::from(recid.is_y_odd()));
            (addr, bytes)
        })
        .collect();
    sigs.sort();
    sigs.into_iter().flat_map(|(_, b)| b).collect()
}

/// ABI calldata of `verify(bytes32, bytes)`.
fn calldata(digest: &[u8; 32], sigs: &[u8]) -> Vec<u8> {
    let mut out = keccak256(b"verify(bytes32,bytes)")[..4].to_vec();
    out.extend_from_slice(digest);
    let word = |v: usize| {
        let mut w = [0u8; 32];
        w[24..].copy_from_slice(&(v as u64).to_be_bytes());
        w
    };
    out.extend_from_slice(&word(64));
    out.extend_from_slice(&word(sigs.len()));
    out.extend_from_slice(sigs);
    out.resize(out.len() + (32 - sigs.len() % 32) % 32, 0);
    out
}

/// Deploys the contract and verifies `n1` and `n2` signatures (`n1 < n2`).
pub fn measure(solc: &Solc, n1: usize, n2: usize) -> Result<EcrecoverGas, String> {
    let compiled = solc.compile(SOURCE).map_err(|e| e.to_string())?;
    let mut contract = deploy(&compiled.creation, false)?;
    let digest = keccak256(b"batch-ecdsa committee digest");
    let mut exec = [0u64; 2];
    for (slot, n) in exec.iter_mut().zip([n1, n2]) {
        match contract.call(&calldata(&digest, &signatures(&digest, n)))? {
            CallOutcome::Accepted(g) if !g.on_floor() => *slot = g.execution(),
            CallOutcome::Accepted(_) => {
                return Err(format!("N = {n}: the call paid its EIP-7623 floor"))
            }
            CallOutcome::Rejected { reason, .. } => {
                return Err(format!(
                    "the ecrecover contract rejects {n} valid signatures: {reason}"
                ))
            }
        }
    }
    let per = (exec[1] - exec[0]) / (n2 - n1) as u64;
    Ok(EcrecoverGas {
        n: [n1 as u64, n2 as u64],
        execution_gas: exec,
        per_signature_execution: per,
        loop_overhead: per.saturating_sub(ECRECOVER_GAS),
        base_execution: exec[0].saturating_sub(per * n1 as u64),
        calldata_bytes_per_signature: ECRECOVER_SIGNATURE_BYTES,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The contract accepts sorted valid signatures and rejects them out of order or with a
    /// length that is not a multiple of 65: its checks run, so its gas is a working check's.
    #[test]
    fn the_contract_checks_what_it_says() {
        let solc = Solc::locate_or_install().expect("solc-js");
        let compiled = solc.compile(SOURCE).expect("compiles");
        let mut c = deploy(&compiled.creation, false).expect("deploys");
        let digest = keccak256(b"test digest");
        let sigs = signatures(&digest, 3);
        let ok = |c: &mut crate::chain::Deployed, sigs: &[u8]| {
            matches!(
                c.call(&calldata(&digest, sigs)).unwrap(),
                CallOutcome::Accepted(_)
            )
        };
        assert!(ok(&mut c, &sigs));
        let mut swapped = sigs[65..130].to_vec();
        swapped.extend_from_slice(&sigs[..65]);
        swapped.extend_from_slice(&sigs[130..]);
        assert!(!ok(&mut c, &swapped), "out of order accepted");
        assert!(!ok(&mut c, &sigs[..64]), "a 64-byte signature accepted");
    }

    #[test]
    fn calldata_layout() {
        let d = [7u8; 32];
        let c = calldata(&d, &[1u8; 65]);
        assert_eq!(c.len(), 4 + 32 * 3 + 96);
        assert_eq!(&c[4..36], &d);
        assert_eq!(c[67], 64);
        assert_eq!(c[99], 65);
    }
}
