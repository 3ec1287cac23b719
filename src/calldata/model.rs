//! The rollup cost model: what a rollup posts per batch on each path, and what that costs.
//!
//! Two ways to let L1 (or anyone reading L1) trust that B transactions were signed:
//!
//! - **signature path** ("without proof"): post every signature (`SignatureFormat`: 64 bytes
//!   plus a y-parity bit by default). Signatures are close to uniformly random bytes, so they
//!   are treated as incompressible; their share of non-zero bytes is an input (default 1.0).
//!   L1 runs no verification.
//! - **proof path** ("with proof"): post one proof plus, per transaction, the sender it
//!   attests to (a 20-byte address, or an N-byte index into a registry), and verify the proof
//!   on L1 (`verification_gas` of execution). Proof, address and index bytes count as non-zero.
//!   What else it posts and runs depends on the statement ([`super::statement`]): under keys,
//!   `public_input_words` 32-byte words per signature; under digest, the wrapper's 3-byte
//!   length prefix per payload (`framing_bytes`; a signed transaction's RLP is
//!   self-delimiting, so the signature path has none) and the wrapper's execution at B
//!   (`Params::rollup_verification_gas`), so `V` below grows with B.
//!
//! Everything else a batch posts (transaction bodies, the 21,000 intrinsic gas, the rollup's
//! own bookkeeping) is the same on both paths and left out, so `gas` is the *marginal* gas the
//! payload adds to its transaction: data plus verification, without the 21,000 base. Fees are
//! `gas × (base fee + priority fee) + blob_gas × blob base fee`.
//!
//! Schedules, with `S` the signatures, `P` the proof, `A` the senders, `V` the verification
//! gas, `std(x) = 16·nonzero + 4·zero` and `floor(x)` the schedule's floor gas:
//!
//! - `calldata` (EIP-2028): without `std(S)`; with `std(P + A) + V`.
//! - `floor` (EIP-7623, 10 / 40 per zero / non-zero byte) and `eip7976` (64 per byte): with
//!   other calldata `O` in the same transaction (see `Headroom`), the marginal gas of a payload
//!   `X` with execution `E` is `max(std(O + X) + E, floor(O + X)) − max(std(O), floor(O))`;
//!   with no `O` that is `max(std(X) + E, floor(X))`. Without proof: `floor(S)` (no execution).
//!   With proof: the verifier's execution lifts the transaction off the floor once
//!   `V > floor(P + A) − std(P + A)` (plus the headroom of `O`); with full headroom the proof
//!   path pays `floor(P + A)` and its verification is absorbed.
//! - `blob` (EIP-4844): without: `S` in blobs, `blob_gas(S)`, no execution gas. With: `A` in
//!   blobs; the proof stays in calldata (the EVM cannot read blob contents), EIP-7623-priced,
//!   with execution `V + binding_gas × blobs(A)`: binding the proof to the senders in a blob
//!   needs one point evaluation (50,000 gas, EIP-4844's precompile) per blob. The circuit would
//!   also have to open the blob (prove the evaluation of the blob's polynomial at the challenge
//!   point in BLS12-381's scalar field), which this project's circuit does not do: that cost
//!   (constraints, a larger proof) is not counted. Under the digest statement the wrapper's
//!   `verifyTransactions` gas is counted here too, although a blob poster's payloads are not in
//!   calldata for the wrapper to hash: it stands in for whatever recomputes D against the blob,
//!   which this project has not built.
//!
//! Limits ([`super::limits`]): each path is one transaction; [`Fit`] says whether it stays
//! under the 2^24-gas cap (EIP-7825) and 6 blobs (EIP-7594), and whether its blobs fit one
//! block (21, BPO2). Under `Headroom::Full` the other calldata's own gas is unknown and not
//! counted in the transaction's gas.

use super::limits::{largest_fitting, Fit};
use super::params::{Headroom, Params, Schedule};
use super::schedule::{
    blobs_needed, eip2028_data_gas, floor_data_gas, tx_gas, ByteCounts, CalldataFloor,
    EIP7623_FLOOR, TX_BASE_GAS,
};
use super::units::wei_to_eth;
use serde::Serialize;

/// What one path posts and pays per batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PathCost {
    /// Bytes posted as calldata.
    pub calldata_bytes: u64,
    /// Bytes posted in blobs.
    pub blob_bytes: u64,
    /// Marginal execution-market gas: data and execution gas, without the 21,000 base.
    pub gas: u64,
    /// Blob gas (0 outside the `blob` schedule).
    pub blob_gas: u64,
    /// `gas × gas_price + blob_gas × blob_base_fee`, in wei.
    pub fee_wei: u128,
    /// Whether the transaction stays within the L1 limits.
    pub fit: Fit,
}

impl PathCost {
    /// `other_gas`: gas of the other calldata in the same transaction (counted for the limits
    /// only).
    pub fn new(
        params: &Params,
        calldata: ByteCounts,
        blob_bytes: u64,
        gas: u64,
        other_gas: u64,
    ) -> Self {
        let blob_gas = if blob_bytes == 0 {
            0
        } else {
            params.blob_gas(blob_bytes)
        };
        let fee_wei = u128::from(gas) * params.gas_price_wei()
            + u128::from(blob_gas) * params.blob_base_fee_wei();
        let blobs = blobs_needed(blob_bytes, params.blob_usable_bytes);
        PathCost {
            calldata_bytes: calldata.total(),
            blob_bytes,
            gas,
            blob_gas,
            fee_wei,
            fit: Fit::new(TX_BASE_GAS + other_gas + gas, blobs),
        }
    }

    /// Total bytes posted, calldata and blobs.
    pub fn bytes(&self) -> u64 {
        self.calldata_bytes + self.blob_bytes
    }
}

/// Marginal gas of `payload` with `exec` execution in a transaction that also carries the
/// batch's other calldata (`headroom`, for a batch of `b`), and that other calldata's own gas:
/// `(tx(O + X, E) − tx(O, 0), tx(O, 0) − 21000)` with `tx` the schedule's transaction gas.
pub fn marginal_gas(
    headroom: Headroom,
    b: u64,
    payload: ByteCounts,
    exec: u64,
    floor: Option<CalldataFloor>,
) -> (u64, u64) {
    match headroom {
        Headroom::None => (tx_gas(payload, exec, floor) - TX_BASE_GAS, 0),
        Headroom::TxBytes(n) => {
            let other = ByteCounts::nonzero(n * b);
            let alone = tx_gas(other, 0, floor);
            (
                tx_gas(other.plus(payload), exec, floor) - alone,
                alone - TX_BASE_GAS,
            )
        }
        Headroom::Full => match floor {
            Some(f) => (floor_data_gas(payload, f), 0),
            None => (eip2028_data_gas(payload) + exec, 0),
        },
    }
}

/// Cost of posting `b` signatures under `schedule`.
pub fn signature_path(params: &Params, schedule: Schedule, b: u64) -> PathCost {
    let sigs = params.signature_payload(b);
    match schedule {
        Schedule::Calldata | Schedule::Floor | Schedule::Eip7976 => {
            let (gas, other) = marginal_gas(params.headroom, b, sigs, 0, schedule.floor());
            PathCost::new(params, sigs, 0, gas, other)
        }
        Schedule::Blob => PathCost::new(params, ByteCounts::default(), sigs.total(), 0, 0),
    }
}

/// Cost of posting one proof and `b` senders (with their payloads' framing), and verifying
/// the proof, under `schedule`.
pub fn proof_path(params: &Params, schedule: Schedule, b: u64) -> PathCost {
    let proof = params.proof_payload(b);
    let senders = params.sender_payload(b).plus(params.framing_payload(b));
    let v = params.rollup_verification_gas(b);
    match schedule {
        Schedule::Calldata | Schedule::Floor | Schedule::Eip7976 => {
            let data = proof.plus(senders);
            let (gas, other) = marginal_gas(params.headroom, b, data, v, schedule.floor());
            PathCost::new(params, data, 0, gas, other)
        }
        Schedule::Blob => {
            let blobs = blobs_needed(senders.total(), params.blob_usable_bytes);
            let exec = v + params.blob_binding_gas * blobs;
            let gas = tx_gas(proof, exec, Some(EIP7623_FLOOR)) - TX_BASE_GAS;
            PathCost::new(params, proof, senders.total(), gas, 0)
        }
    }
}

/// Both paths at one batch size.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Comparison {
    pub batch_size: u64,
    pub without_proof: PathCost,
    pub with_proof: PathCost,
    /// `without_proof.fee − with_proof.fee`, wei (negative: the proof path costs more).
    pub saving_per_batch_wei: i128,
    pub saving_per_batch_eth: f64,
    pub saving_per_day_eth: f64,
}

impl Comparison {
    /// Compares two priced paths for `n` signatures at `per_day` batches a day.
    pub fn of(n: u64, without_proof: PathCost, with_proof: PathCost, per_day: u64) -> Self {
        // Fees stay far below 2^126 for validated inputs (B ≤ 10^9, prices ≤ 10^12 gwei).
        let a = i128::try_from(without_proof.fee_wei).unwrap_or(i128::MAX);
        let b = i128::try_from(with_proof.fee_wei).unwrap_or(i128::MAX);
        let saving = a.saturating_sub(b);
        Comparison {
            batch_size: n,
            without_proof,
            with_proof,
            saving_per_batch_wei: saving,
            saving_per_batch_eth: wei_to_eth(saving),
            saving_per_day_eth: wei_to_eth(saving.saturating_mul(i128::from(per_day))),
        }
    }

    /// Whether the proof path is strictly cheaper (at a zero price nothing is).
    pub fn proof_cheaper(&self) -> bool {
        self.saving_per_batch_wei > 0
    }
}

/// Compares the two paths at batch size `b`.
pub fn compare(params: &Params, schedule: Schedule, b: u64) -> Comparison {
    Comparison::of(
        b,
        signature_path(params, schedule, b),
        proof_path(params, schedule, b),
        params.batches_per_day,
    )
}

/// Where the proof path starts to pay, searched over `1..=bound`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct BreakEven {
    /// Smallest n in `1..=bound` where the proof path is strictly cheaper, if any.
    pub first: Option<u64>,
    /// Smallest n such that the proof path is strictly cheaper for every size from n to
    /// `bound`. Equals `first` when the saving grows with n (the calldata schedules); under
    /// whole-blob rounding the saving jumps with blob boundaries, so it can be larger.
    pub stable_from: Option<u64>,
    pub bound: u64,
}

/// Scans `1..=bound` for the first size where `cheaper` holds, then back from `bound` for the
/// size from which it always holds. Linear, because whole-blob rounding makes the saving
/// non-monotonic in n.
pub fn break_even_by(bound: u64, cheaper: impl Fn(u64) -> bool) -> BreakEven {
    let first = (1..=bound).find(|&n| cheaper(n));
    let stable_from = first.and_then(|first| {
        let mut from = None;
        let mut n = bound;
        while n >= first && cheaper(n) {
            from = Some(n);
            n -= 1;
        }
        from
    });
    BreakEven {
        first,
        stable_from,
        bound,
    }
}

/// Break-even batch size under `schedule`.
pub fn break_even(params: &Params, schedule: Schedule, bound: u64) -> BreakEven {
    break_even_by(bound, |b| compare(params, schedule, b).proof_cheaper())
}

/// Largest batch each path can post in one transaction (or, with `block`, whose blobs fit one
/// block), searched in `1..=bound`; `None` when not even one fits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Capacity {
    pub without_proof: Option<u64>,
    pub with_proof: Option<u64>,
}

/// [`Capacity`] of one transaction (`block = false`) or of one block's blobs (`block = true`).
pub fn capacity(params: &Params, schedule: Schedule, bound: u64, block: bool) -> Capacity {
    let fits = |c: PathCost| if block { c.fit.one_block } else { c.fit.one_tx };
    Capacity {
        without_proof: largest_fitting(bound, |b| fits(signature_path(params, schedule, b))),
        with_proof: largest_fitting(bound, |b| fits(proof_path(params, schedule, b))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::calldata::params::{Scenario, SignatureFormat, Statement};
    use crate::calldata::units::WEI_PER_GWEI;

    fn seed() -> Params {
        Scenario::Optimism2022.params()
    }

    /// Explicit proof-path inputs for the arithmetic below ([`Params::fixed_for_tests`]).
    fn fixed() -> Params {
        Params::fixed_for_tests()
    }

    #[test]
    fn seed_example_gas_and_daily_saving() {
        let p = seed();
        p.validate().unwrap();
        let c = compare(&p, Schedule::Calldata, 200);
        assert_eq!(c.without_proof.gas, 204_800);
        assert_eq!(c.with_proof.gas, 66_096);
        assert_eq!(c.without_proof.calldata_bytes, 12_800);
        assert_eq!(c.with_proof.calldata_bytes, 4_131);
        // (204,800 − 66,096) gas × 30 gwei = 0.00416112 ETH per batch.
        assert_eq!(c.saving_per_batch_wei, 138_704 * 30 * WEI_PER_GWEI as i128);
        // × 288 batches = 1.19840256 ETH per day (the source says ≈1.1 from rounded figures).
        assert!((c.saving_per_day_eth - 1.198_402_56).abs() < 1e-9);
    }

    #[test]
    fn parity_bits_add_a_byte_per_eight_signatures() {
        let p = fixed();
        // 200 × 64 + 25 bytes at 40 gas on the EIP-7623 floor.
        assert_eq!(
            signature_path(&p, Schedule::Floor, 200).gas,
            40 * (12_800 + 25)
        );
        assert_eq!(signature_path(&p, Schedule::Calldata, 8).gas, 16 * 513);
    }

    #[test]
    fn floor_schedules_price_signatures_on_the_floor_and_let_the_verifier_lift_off() {
        let p = fixed(); // 4,896-byte proof, 350k verification
        let c = compare(&p, Schedule::Floor, 100);
        assert_eq!(c.without_proof.gas, 40 * (6_400 + 13));
        // Proof path: 4,896 + 2,000 bytes; 16·6,896 + 350k > 40·6,896.
        assert_eq!(c.with_proof.gas, 16 * 6_896 + 350_000);
        let c = compare(&p, Schedule::Eip7976, 100);
        assert_eq!(c.without_proof.gas, 64 * (6_400 + 13));
        // floor 64·6,896 = 441,344 < 16·6,896 + 350,000 = 460,336: off the floor.
        assert_eq!(c.with_proof.gas, 16 * 6_896 + 350_000);
        let c = compare(&p, Schedule::Eip7976, 200);
        // 8,896 bytes: floor 569,344 > standard 142,336 + 350,000: on the floor.
        assert_eq!(c.with_proof.gas, 64 * 8_896);
        // With no verification gas the proof path sits on the floor too.
        let p0 = Params {
            verification_gas: 0,
            ..p
        };
        assert_eq!(proof_path(&p0, Schedule::Floor, 100).gas, 40 * 6_896);
    }

    #[test]
    fn floor_headroom_absorbs_verification_gas() {
        let base = fixed();
        let b = 100;
        let none = proof_path(&base, Schedule::Floor, b).gas;
        let full = proof_path(
            &Params {
                headroom: Headroom::Full,
                ..base.clone()
            },
            Schedule::Floor,
            b,
        )
        .gas;
        assert_eq!(
            full,
            40 * 6_896,
            "full headroom: the proof pays the floor only"
        );
        // 100 transactions × 600 other bytes: O = 60,000 bytes, std(O + X) + V =
        // 16·66,896 + 350,000 < floor(O + X) = 40·66,896: fully absorbed.
        let big = Params {
            headroom: Headroom::TxBytes(600),
            ..base.clone()
        };
        assert_eq!(proof_path(&big, Schedule::Floor, b).gas, full);
        // 100 × 100 bytes: std(O + X) + V = 16·16,896 + 350,000 = 620,336 < floor(O + X) =
        // 675,840: still on the floor, marginal 675,840 − floor(O) 400,000 = floor(X).
        let mid = Params {
            headroom: Headroom::TxBytes(100),
            ..base.clone()
        };
        assert_eq!(proof_path(&mid, Schedule::Floor, b).gas, 40 * 6_896);
        // 100 × 40 bytes: O = 4,000 bytes, floor(O) = 160,000; std(O + X) + V =
        // 16·10,896 + 350,000 = 524,336 > floor(O + X) = 435,840 → marginal 364,336.
        let small = Params {
            headroom: Headroom::TxBytes(40),
            ..base.clone()
        };
        let got = proof_path(&small, Schedule::Floor, b);
        assert_eq!(got.gas, 524_336 - 160_000);
        assert!(full < got.gas && got.gas < none);
        // The other calldata counts toward the transaction's gas.
        assert_eq!(got.fit.tx_gas, 21_000 + 524_336);
        // Signatures sit on the floor whatever the headroom.
        assert_eq!(
            signature_path(&small, Schedule::Floor, b).gas,
            signature_path(&base, Schedule::Floor, b).gas
        );
    }

    #[test]
    fn blob_schedule_keeps_the_proof_in_calldata_and_pays_the_binding() {
        let p = fixed();
        let sig = signature_path(&p, Schedule::Blob, 200);
        assert_eq!(sig.blob_bytes, 12_825);
        assert_eq!(sig.blob_gas, 131_072);
        assert_eq!(sig.gas, 0);
        let pr = proof_path(&p, Schedule::Blob, 200);
        assert_eq!(pr.calldata_bytes, 4_896);
        assert_eq!(pr.blob_bytes, 4_000);
        assert_eq!(pr.blob_gas, 131_072);
        assert_eq!(pr.gas, 16 * 4_896 + 350_000 + 50_000);
        assert!(compare(&p, Schedule::Blob, 200).saving_per_batch_wei < 0);
        let unbound = Params {
            blob_binding_gas: 0,
            ..p
        };
        assert_eq!(
            proof_path(&unbound, Schedule::Blob, 200).gas,
            16 * 4_896 + 350_000
        );
    }

    #[test]
    fn blob_fee_defaults_to_the_reserve_and_prices_blob_gas() {
        let p = Params::default();
        let sig = signature_path(&p, Schedule::Blob, 1);
        assert_eq!(sig.fee_wei, 131_072 * (WEI_PER_GWEI / 16));
    }

    #[test]
    fn break_even_calldata_matches_closed_form() {
        // Calldata: saving(B) = 16·B·(sig − sender) − 16·proof − verification, linear in B,
        // so the smallest B with saving > 0 is floor((16·proof + v) / (16·44)) + 1.
        for (proof, verif) in [(131u64, 0u64), (1_376, 350_000), (4_896, 350_000)] {
            let p = Params {
                proof_bytes: proof,
                verification_gas: verif,
                signature: SignatureFormat::Rs,
                ..fixed()
            };
            let expect = (16 * proof + verif) / (16 * 44) + 1;
            let be = break_even(&p, Schedule::Calldata, 100_000);
            assert_eq!(be.first, Some(expect), "proof {proof} verif {verif}");
            assert_eq!(be.stable_from, Some(expect));
        }
    }

    #[test]
    fn floor_break_even_spans_the_headroom_range() {
        // No headroom: 2,560·B + 40·ceil(B/8) > 16·(4,896 + 20·B) + 350,000 from B = 192.
        let p = Params {
            signature: SignatureFormat::Rs,
            ..fixed()
        };
        assert_eq!(break_even(&p, Schedule::Floor, 10_000).first, Some(192));
        // Full headroom: 2,560·B > 40·(4,896 + 20·B) ⇔ B > 111.3.
        let full = Params {
            headroom: Headroom::Full,
            ..p
        };
        assert_eq!(break_even(&full, Schedule::Floor, 10_000).first, Some(112));
        assert_eq!(
            break_even(&full, Schedule::Eip7976, 10_000).first,
            Some(112)
        );
    }

    #[test]
    fn break_even_is_price_independent_at_the_reserve() {
        let cheap = Params::default();
        let dear = Params {
            base_fee_wei: 30 * WEI_PER_GWEI,
            ..Params::default()
        };
        for s in Schedule::ALL {
            let a = break_even(&cheap, s, 400_000);
            assert_eq!(a, break_even(&dear, s, 400_000), "{s:?}");
        }
    }

    #[test]
    fn break_even_never_within_the_bound() {
        let p = Params {
            signature: SignatureFormat::Rs,
            ..fixed()
        };
        // Calldata: (16·4,896 + 350,000) / 704 + 1 = 609.
        let be = break_even(&p, Schedule::Calldata, 608);
        assert_eq!((be.first, be.stable_from), (None, None));
        assert_eq!(break_even(&p, Schedule::Calldata, 609).first, Some(609));
        let free_blobs = Params {
            blob_base_fee_wei: Some(0),
            ..fixed()
        };
        let be = break_even(&free_blobs, Schedule::Blob, 1_000_000);
        assert_eq!((be.first, be.stable_from), (None, None));
    }

    #[test]
    fn whole_blob_break_even_is_stable_from_no_earlier_than_first() {
        // Without the binding cost the saving, 44 blob bytes per signature at 8,192 gas a
        // blob, overtakes the proof's 428,336 gas near B = 154,000, by blob-boundary jumps.
        let p = Params {
            blob_binding_gas: 0,
            ..fixed()
        };
        let be = break_even(&p, Schedule::Blob, 1_000_000);
        let first = be.first.expect("blobs pay off within 10^6 without binding");
        let stable = be.stable_from.unwrap();
        assert!(stable >= first);
        assert!(compare(&p, Schedule::Blob, stable).proof_cheaper());
        assert!(!compare(&p, Schedule::Blob, stable - 1).proof_cheaper());
        assert!(compare(&p, Schedule::Blob, first).proof_cheaper());
        assert!(!compare(&p, Schedule::Blob, first - 1).proof_cheaper());
    }

    #[test]
    fn blob_binding_per_blob_outweighs_what_the_blob_saves() {
        // At the reserve a blob costs 8,192 gas; binding each blob of senders costs 50,000,
        // more than the ~3.2 blobs of signatures each blob of senders replaces save: the
        // proof path falls further behind as B grows.
        let p = fixed();
        let be = break_even(&p, Schedule::Blob, 1_000_000);
        assert_eq!((be.first, be.stable_from), (None, None));
        let s = |b| compare(&p, Schedule::Blob, b).saving_per_batch_wei;
        assert!(s(1_000_000) < s(100_000));
    }

    #[test]
    fn digest_statement_posts_length_prefixes_and_runs_the_wrapper() {
        let keys = fixed(); // no public-input words: only the digest's additions differ
        let digest = fixed().with_statement(Statement::Digest);
        let w = digest
            .wrapper
            .clone()
            .expect("the digest statement runs the wrapper");
        assert_eq!((digest.public_input_words, digest.framing_bytes), (0, 3));
        for b in [1u64, 32, 200] {
            let (k, d) = (
                proof_path(&keys, Schedule::Calldata, b),
                proof_path(&digest, Schedule::Calldata, b),
            );
            assert_eq!(d.calldata_bytes, k.calldata_bytes + 3 * b);
            assert_eq!(d.gas, k.gas + 16 * 3 * b + w.transactions.at(b));
            // The signature path is the same: signed transactions frame themselves.
            assert_eq!(
                signature_path(&digest, Schedule::Floor, b),
                signature_path(&keys, Schedule::Floor, b)
            );
            // A bridge calls verifyHashes and posts no prefixes.
            let (kb, db) = (
                crate::calldata::bridge::proof_path(&keys, b),
                crate::calldata::bridge::proof_path(&digest, b),
            );
            assert_eq!(db.calldata_bytes, kb.calldata_bytes);
            assert_eq!(db.gas, kb.gas + w.hashes.at(b));
        }
        // Back to keys: nothing of the digest's is left.
        let back = digest.with_statement(Statement::Keys);
        assert_eq!((back.framing_bytes, back.wrapper), (0, None));
    }

    #[test]
    fn limits_say_when_a_batch_leaves_one_transaction() {
        let p = Params {
            signature: SignatureFormat::Rs,
            ..fixed()
        };
        // Floor: 21,000 + 2,560·B ≤ 16,777,216 ⇔ B ≤ 6,545.
        let cap = capacity(&p, Schedule::Floor, 1_000_000, false);
        assert_eq!(cap.without_proof, Some(6_545));
        assert!(signature_path(&p, Schedule::Floor, 6_545).fit.one_tx);
        assert!(!signature_path(&p, Schedule::Floor, 6_546).fit.one_tx);
        // Blobs: 6 blobs of 130,044 bytes hold 12,191 signatures of 64 bytes; 21 hold 42,670.
        let tx = capacity(&p, Schedule::Blob, 1_000_000, false);
        assert_eq!(tx.without_proof, Some(6 * 130_044 / 64));
        let block = capacity(&p, Schedule::Blob, 1_000_000, true);
        assert_eq!(block.without_proof, Some(21 * 130_044 / 64));
        // Senders: 20 bytes each, 6 blobs hold 39,013.
        assert_eq!(tx.with_proof, Some(6 * 130_044 / 20));
        // A verifier above the gas cap fits no transaction at all.
        let huge = Params {
            verification_gas: 17_000_000,
            ..p
        };
        assert_eq!(
            capacity(&huge, Schedule::Floor, 1_000, false).with_proof,
            None
        );
    }
}
