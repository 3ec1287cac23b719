//! The bridge / committee segment: a contract that accepts a message once N ECDSA signatures
//! on it (or on N messages) check out, verifying them one by one with `ecrecover`, against the
//! same contract verifying one batch-ECDSA proof.
//!
//! With `sig = 65` bytes per signature (r, s, v: what `ecrecover` takes), `A` the per-signer
//! identity the proof path posts instead (`Sender`: the proof's public inputs must name the
//! signers), `loop` the per-signature overhead of the Solidity loop besides the precompile
//! (`Params::ecrecover_loop_gas`), `base` its call's fixed execution (dispatch, ABI decoding:
//! `Params::ecrecover_base_gas`), `P` the proof and `V` its verification gas (the verifier's
//! whole call, its own dispatch included), both paths one transaction priced under EIP-7623
//! (mainnet; such transactions execute enough to sit off the floor):
//!
//! - ecrecover: calldata `N·sig`, execution `base + N·(3,000 + loop)`;
//! - proof: calldata `P + N·A`, execution `V`; under the digest statement `V` includes the
//!   digest wrapper's `verifyHashes` at N (the hashes are what a bridge holds; fixed 32 bytes,
//!   so no length prefixes are posted).
//!
//! By default `loop` and `base` are the EVM bench's measurement of a Solidity loop
//! (`results/ecrecover.json`, `evm/src/ecrecover.rs`) that checks the signers' ordering only;
//! a bridge also looks each signer up in its committee (a cold `SLOAD`, 2,100 gas, or 32
//! calldata bytes and a hash), so the figures are a lower bound and the break-even below
//! favours `ecrecover`.
//!
//! Gas is `tx_gas − 21,000` (both pay the base). The message, its hash and the committee
//! lookup of each signer are the same on both paths and left out. Off the floor the saving per
//! signature is `3,000 + loop + 16·(sig − A)` gas against a fixed `16·P + V − base`, so the
//! break-even is `N > (16·P + V − base) / (3,000 + loop + 16·(sig − A))`, the same at every
//! gas price.

use super::limits::{ECRECOVER_GAS, ECRECOVER_SIGNATURE_BYTES};
use super::model::{break_even_by, BreakEven, Comparison, PathCost};
use super::params::{split_nonzero, Params};
use super::schedule::{tx_gas, EIP7623_FLOOR, TX_BASE_GAS};

/// N signatures verified with `ecrecover`.
pub fn ecrecover_path(params: &Params, n: u64) -> PathCost {
    let sigs = split_nonzero(
        n * ECRECOVER_SIGNATURE_BYTES,
        params.signature_nonzero_fraction,
    );
    let exec = params.ecrecover_base_gas + n * (ECRECOVER_GAS + params.ecrecover_loop_gas);
    let gas = tx_gas(sigs, exec, Some(EIP7623_FLOOR)) - TX_BASE_GAS;
    PathCost::new(params, sigs, 0, gas, 0)
}

/// One proof for N signatures, with the N signers' identities.
pub fn proof_path(params: &Params, n: u64) -> PathCost {
    let data = params.proof_payload(n).plus(params.sender_payload(n));
    let v = params.bridge_verification_gas(n);
    let gas = tx_gas(data, v, Some(EIP7623_FLOOR)) - TX_BASE_GAS;
    PathCost::new(params, data, 0, gas, 0)
}

/// Both at N signatures (`batch_size` is N; the per-day figures assume `batches_per_day`
/// verifications a day).
pub fn compare(params: &Params, n: u64) -> Comparison {
    Comparison::of(
        n,
        ecrecover_path(params, n),
        proof_path(params, n),
        params.batches_per_day,
    )
}

/// Smallest N from which one proof is cheaper than N `ecrecover`s.
pub fn break_even(params: &Params, bound: u64) -> BreakEven {
    break_even_by(bound, |n| compare(params, n).proof_cheaper())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Explicit inputs (not the measured defaults, which move when the bench is re-run).
    fn fixed() -> Params {
        Params::fixed_for_tests()
    }

    #[test]
    fn ecrecover_gas_per_signature() {
        let p = fixed();
        let e = ecrecover_path(&p, 10);
        assert_eq!(e.calldata_bytes, 650);
        assert_eq!(e.gas, 16 * 650 + 10 * 3_400);
        let pr = proof_path(&p, 10);
        assert_eq!(pr.gas, 16 * (4_896 + 200) + 350_000);
        // The call's fixed execution is paid once, whatever N.
        let based = Params {
            ecrecover_base_gas: 834,
            ..p
        };
        assert_eq!(ecrecover_path(&based, 10).gas, 16 * 650 + 834 + 10 * 3_400);
    }

    #[test]
    fn break_even_matches_closed_form() {
        // (16·4,896 + 350,000) / (3,000 + 400 + 16·45) = 428,336 / 4,120 = 103.97 → N = 104.
        let p = fixed();
        let be = break_even(&p, 100_000);
        assert_eq!(be.first, Some(104));
        assert_eq!(be.stable_from, Some(104));
        // A costlier loop brings it down; no verification gas brings it to a handful.
        let heavy = Params {
            ecrecover_loop_gas: 2_500,
            ..p.clone()
        };
        // 428,336 / (5,500 + 720) = 68.9 → 69.
        assert_eq!(break_even(&heavy, 100_000).first, Some(69));
        // A fixed cost of the ecrecover call lowers the fixed difference:
        // (428,336 − 20,000) / 4,120 = 99.1 → 100.
        let based = Params {
            ecrecover_base_gas: 20_000,
            ..p.clone()
        };
        assert_eq!(break_even(&based, 100_000).first, Some(100));
        let free = Params {
            verification_gas: 0,
            ..p
        };
        // The proof transaction then sits on the floor: 4,440·N > 40·(4,896 + 20·N) ⇔
        // N > 195,840 / 3,640 = 53.8 → 54.
        assert_eq!(break_even(&free, 100_000).first, Some(54));
    }

    #[test]
    fn default_break_even_is_the_closed_form_of_the_measured_inputs() {
        // One digest as the only public input: the proof transaction stays off the floor.
        let p = Params {
            public_input_words: 0,
            ..Params::default()
        };
        let fixed_cost = 16 * p.proof_bytes + p.verification_gas - p.ecrecover_base_gas;
        let per_signature = ECRECOVER_GAS + p.ecrecover_loop_gas + 16 * (65 - 20);
        let expect = fixed_cost / per_signature + 1;
        assert_eq!(break_even(&p, 100_000).first, Some(expect));
    }

    /// Today's statement puts 3 public-input words per signature in the verifier's calldata:
    /// 96 + 20 bytes a signature against 65, so the proof transaction sits on the EIP-7623
    /// floor and pays off only much later (if at all).
    #[test]
    fn public_inputs_per_signature_push_the_break_even_out() {
        let digest = Params {
            public_input_words: 0,
            ..Params::default()
        };
        let today = Params::default();
        assert_eq!(today.public_input_words, 3);
        let n_digest = break_even(&digest, 100_000).first.expect("digest pays");
        let n_today = break_even(&today, 100_000).first;
        assert!(
            !matches!(n_today, Some(n) if n <= 2 * n_digest),
            "{n_today:?} vs {n_digest}"
        );
        let pr = proof_path(&today, 10);
        assert_eq!(pr.calldata_bytes, today.proof_bytes + 10 * (96 + 20));
    }
}
