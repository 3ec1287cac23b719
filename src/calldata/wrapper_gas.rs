//! The digest wrapper's own execution gas at any B, from its measurement.
//!
//! Under the digest statement ([`super::statement`]) L1 runs, besides the verifier, the digest
//! wrapper: it parses the batch, hashes each payload, builds the 52·B-byte preimage
//! `h₀ ‖ a₀ ‖ …`, hashes it to D and calls the verifier. `evm-wrapper-gas` measured that gas
//! (the transaction's execution less a stand-in verifier's, in revm) at B = 1, 2, 4, …, 32 on
//! demo transactions and committed it as `results/wrapper-gas.json` ([`WRAPPER_GAS_JSON`],
//! embedded at build time; rows as [`WrapperGasRow`]), for both entry
//! points: `verifyTransactions` (payloads, what a rollup posts) and `verifyHashes` (hashes,
//! what a bridge holds).
//!
//! The gas at B ([`GasCurve::at`]):
//!
//! - at a measured B, the measurement; between two measured B, the straight line between them
//!   (every step in the contract is a per-signature loop or a one-off, so the gas is close to
//!   linear in B);
//! - beyond the largest measured B, the straight line through the **two largest rows**, not a
//!   least-squares line over all rows: it continues the measured curve without a jump at the
//!   last measurement, and its slope is the one least affected by the fixed costs (the cold
//!   call, the proof's copy) that dominate small B; the measured slopes still vary with the
//!   demo payloads' lengths (keccak and the copy cost 6 + 3 gas per 32-byte word of payload);
//! - plus what the EVM charges for the memory the measured rows did not pay for: the preimage
//!   grows by 52 bytes a signature from Solidity's free-memory pointer (0x80), and memory of
//!   w words costs `3·w + ⌊w²/512⌋` gas, quadratic in B. Up to B = 32 the wrapper's largest
//!   memory is the proof's copy (64 + the stand-in's proof bytes), so the rows show none of
//!   this growth; at B = 16,384 it adds about 1.5 M gas, all but 80,000 of it the quadratic
//!   term. The model
//!   counts `C(max(w_pre(B), w_proof)) − C(max(w_pre(B_max), w_proof))` with `C` that cost,
//!   `w_pre(B) = ⌈(0x80 + 52·B) / 32⌉` and `w_proof` the proof copy's words in the
//!   measurement.
//!
//! **A batch of B on a key for K > B** (the wrapper appends K − B canonical filler pairs):
//! each filler slot costs [`WrapperGas::filler_slot_gas`], measured as `verifyHashes` with one
//! pair posted on a wrapper for the largest measured K (`hashes_one_of_b_wrapper_gas`) less
//! the B = 1 row's, over K − 1: its two stores and its 52 bytes of keccak (at K = 32 the
//! preimage lies inside the memory the proof's copy already paid for). Beyond that, the K-slot
//! preimage's memory growth is charged as for any B (above): `C(w(K)) − C(w(max(B, B_max)))`.
//!
//! The slope is the demo transactions' (122-byte signing payloads on average at B = 32):
//! larger transactions cost the wrapper a little more per signature.

use super::bounds::MAX_GAS_INPUT;
use super::rows::WrapperGasRow;
use super::statement::PAYLOAD_LENGTH_PREFIX_BYTES;
use serde::Serialize;

/// The wrapper's measured gas (`results/wrapper-gas.json`), embedded at build time.
pub const WRAPPER_GAS_JSON: &str = include_str!("measured/wrapper-gas.json");
/// Where [`WRAPPER_GAS_JSON`] comes from, as the output names it.
pub const WRAPPER_GAS_PATH: &str = "results/wrapper-gas.json";

/// Solidity's free-memory pointer at the start of a call: where the preimage begins.
const FREE_MEMORY_START: u64 = 0x80;
/// Bytes of one (hash, address) pair of D's preimage.
const PREIMAGE_PAIR_BYTES: u64 = crate::native::digest::PAIR_BYTES as u64;
/// Bytes of the two words the wrapper writes before the proof in the verifier's calldata.
const DIGEST_WORDS_BYTES: u64 = 64;
/// Bytes of a sender in `senders`.
const SENDER_BYTES: u64 = crate::native::digest::ADDRESS_BYTES as u64;

/// The most a filler slot may cost in a measurement that is accepted (it costs about 124).
const MAX_FILLER_SLOT_GAS: u64 = 1_000;

/// Measured (B, gas) points, B strictly increasing, at least two.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GasCurve {
    pub points: Vec<(u64, u64)>,
    /// Words of memory the largest measured call used (the larger of the preimage and the
    /// proof's copy), the base of the memory-growth term.
    proof_copy_words: u64,
}

/// EVM memory cost of `words` 32-byte words (Yellow Paper: `3·w + ⌊w² / 512⌋`).
fn memory_cost(words: u64) -> u64 {
    3 * words + words * words / 512
}

/// Words of memory of D's preimage at B.
fn preimage_words(b: u64) -> u64 {
    (FREE_MEMORY_START + PREIMAGE_PAIR_BYTES * b).div_ceil(32)
}

impl GasCurve {
    /// The largest measured B.
    pub fn max_measured(&self) -> u64 {
        self.points.last().map_or(0, |p| p.0)
    }

    /// Whether B lies beyond the measurements (the gas is extrapolated).
    pub fn extrapolated(&self, b: u64) -> bool {
        b > self.max_measured()
    }

    /// Gas per signature of the line beyond the measurements, for display.
    pub fn slope(&self) -> f64 {
        let n = self.points.len();
        let ((b0, g0), (b1, g1)) = (self.points[n - 2], self.points[n - 1]);
        (g1 as f64 - g0 as f64) / (b1 - b0) as f64
    }

    /// The wrapper's gas at B (see the module doc).
    pub fn at(&self, b: u64) -> u64 {
        let pts = &self.points;
        // The segment that holds B; the first below the range, the last beyond it.
        let i = pts
            .windows(2)
            .position(|w| b <= w[1].0)
            .unwrap_or(pts.len() - 2);
        let ((b0, g0), (b1, g1)) = (pts[i], pts[i + 1]);
        let (b0, g0, b1, g1, bb) = (
            i128::from(b0),
            i128::from(g0),
            i128::from(b1),
            i128::from(g1),
            i128::from(b),
        );
        // Rounded to the nearest gas.
        let num = (g1 - g0) * (bb - b0);
        let den = b1 - b0;
        let line = g0 + (2 * num + den.signum() * den).div_euclid(2 * den);
        let line = u64::try_from(line.max(0)).unwrap_or(u64::MAX);
        let b_max = self.max_measured();
        if b <= b_max {
            return line;
        }
        let words = |b: u64| preimage_words(b).max(self.proof_copy_words);
        line.saturating_add(memory_cost(words(b)) - memory_cost(words(b_max)))
    }
}

/// The wrapper's measurement, checked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WrapperGas {
    /// `verifyTransactions` (a rollup: payloads and senders).
    pub transactions: GasCurve,
    /// `verifyHashes` (a bridge: hashes and senders).
    pub hashes: GasCurve,
    /// Average signing payload of the demo transactions at the largest B, bytes.
    pub payload_bytes_per_tx: u64,
    pub runtime_code_bytes: u64,
    pub deploy_gas: u64,
    /// Gas of one filler slot (module doc), rounded up; `None` for a measurement without the
    /// one-of-B row.
    pub filler_slot_gas: Option<u64>,
}

impl WrapperGas {
    /// Parses and checks a measurement file (`path` names it in errors).
    pub fn parse(text: &str, path: &str) -> Result<Self, String> {
        let mut rows: Vec<WrapperGasRow> =
            serde_json::from_str(text).map_err(|e| format!("{path}: {e}"))?;
        rows.sort_by_key(|r| r.batch_size);
        if rows.len() < 2 {
            return Err(format!("{path}: fewer than two rows, no line to extend"));
        }
        for (i, r) in rows.iter().enumerate() {
            let bad = |what: String| Err(format!("{path}: row B = {}: {what}", r.batch_size));
            if r.batch_size == 0 || (i > 0 && rows[i - 1].batch_size == r.batch_size) {
                return bad("B is 0 or repeated".to_string());
            }
            if r.transactions_wrapper_gas > MAX_GAS_INPUT || r.hashes_wrapper_gas > MAX_GAS_INPUT {
                return bad(format!("gas above {MAX_GAS_INPUT}"));
            }
            // The batch's bytes per transaction are payload + length prefix + sender: the
            // framing the model counts is the one measured.
            let framing = r.batch_bytes_per_tx * r.batch_size as f64 - r.payload_bytes as f64;
            let expect = ((PAYLOAD_LENGTH_PREFIX_BYTES + SENDER_BYTES) * r.batch_size) as f64;
            if (framing - expect).abs() > 0.5 {
                return bad(format!(
                    "batch_bytes_per_tx is not payload + {PAYLOAD_LENGTH_PREFIX_BYTES} + \
                     {SENDER_BYTES} bytes a transaction"
                ));
            }
        }
        let last = &rows[rows.len() - 1];
        let proof_copy_words = (FREE_MEMORY_START + DIGEST_WORDS_BYTES + last.proof_bytes)
            .div_ceil(32)
            .max(preimage_words(last.batch_size));
        let first = &rows[0];
        // Every one-of-B figure is at least the B = 1 row's verifyHashes, and its filler
        // slots cost at most MAX_FILLER_SLOT_GAS each (two stores and 52 bytes of keccak).
        for r in &rows {
            if let Some(g) = r.hashes_one_of_b_wrapper_gas {
                let ok = first.batch_size == 1
                    && g >= first.hashes_wrapper_gas
                    && g - first.hashes_wrapper_gas <= MAX_FILLER_SLOT_GAS * (r.batch_size - 1);
                if !ok {
                    return Err(format!(
                        "{path}: row B = {}: hashes_one_of_b_wrapper_gas {g} is not the B = 1 \
                         row's verifyHashes plus at most {MAX_FILLER_SLOT_GAS} gas a filler slot",
                        r.batch_size
                    ));
                }
            }
        }
        let filler_slot_gas = match last.hashes_one_of_b_wrapper_gas {
            Some(g) if last.batch_size > 1 => {
                Some((g - first.hashes_wrapper_gas).div_ceil(last.batch_size - 1))
            }
            _ => None,
        };
        let curve = |gas: fn(&WrapperGasRow) -> u64| GasCurve {
            points: rows.iter().map(|r| (r.batch_size, gas(r))).collect(),
            proof_copy_words,
        };
        Ok(WrapperGas {
            transactions: curve(|r| r.transactions_wrapper_gas),
            hashes: curve(|r| r.hashes_wrapper_gas),
            payload_bytes_per_tx: last.payload_bytes / last.batch_size,
            runtime_code_bytes: last.runtime_code_bytes,
            deploy_gas: last.deploy_gas,
            filler_slot_gas,
        })
    }

    /// Gas of the `k − b` filler slots a batch of `b` pays on a key for `k` (module doc): the
    /// measured slot gas each, and the memory the `k`-slot preimage grows by beyond what
    /// [`GasCurve::at`] charges at `b`; 0 when `b ≥ k` or without the measurement (which
    /// [`super::params::Params::validate`] refuses for a key size).
    pub fn filler_gas(&self, b: u64, k: u64) -> u64 {
        let Some(slot) = self.filler_slot_gas.filter(|_| k > b) else {
            return 0;
        };
        let c = &self.hashes;
        let words = |x: u64| preimage_words(x).max(c.proof_copy_words);
        let charged = words(b.max(c.max_measured()));
        let memory = memory_cost(words(k)).saturating_sub(memory_cost(charged));
        slot.saturating_mul(k - b).saturating_add(memory)
    }

    /// The measured B, as the output lists them (`"1, 2, 4"`).
    pub fn measured_sizes(&self) -> String {
        let sizes: Vec<String> = self
            .transactions
            .points
            .iter()
            .map(|p| p.0.to_string())
            .collect();
        sizes.join(", ")
    }

    /// Where the figures come from, for the output.
    pub fn origin_note(&self) -> String {
        format!(
            "digest wrapper's own gas in revm, {WRAPPER_GAS_PATH}: measured at B = {} (demo \
             transactions, {}-byte signing payloads on average at B = {}), linear between; \
             beyond, the line through the two largest rows ({:.1} gas a signature for \
             verifyTransactions, {:.1} for verifyHashes) plus the EVM's memory growth of the \
             52·B-byte preimage",
            self.measured_sizes(),
            self.payload_bytes_per_tx,
            self.transactions.max_measured(),
            self.transactions.slope(),
            self.hashes.slope()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIXTURE: &str = r#"[
      {"batch_size":2,"payload_bytes":200,"batch_bytes_per_tx":123.0,"proof_bytes":1000,
       "transactions_calldata_bytes":1500,"transactions_intrinsic_gas":40000,
       "hashes_calldata_bytes":1300,"hashes_intrinsic_gas":38000,"mock_verifier_gas":860000,
       "transactions_wrapper_gas":6000,"hashes_wrapper_gas":5000,
       "runtime_code_bytes":1351,"deploy_gas":350667},
      {"batch_size":4,"payload_bytes":400,"batch_bytes_per_tx":123.0,"proof_bytes":1000,
       "transactions_calldata_bytes":1900,"transactions_intrinsic_gas":46000,
       "hashes_calldata_bytes":1500,"hashes_intrinsic_gas":41000,"mock_verifier_gas":860000,
       "transactions_wrapper_gas":6601,"hashes_wrapper_gas":5200,
       "runtime_code_bytes":1351,"deploy_gas":350667}
    ]"#;

    #[test]
    fn measured_points_interpolate_and_the_last_line_extends() {
        let w = WrapperGas::parse(FIXTURE, "t").unwrap();
        let c = &w.transactions;
        assert_eq!((c.at(2), c.at(4)), (6_000, 6_601));
        // 6,000 + 601 / 2 = 6,300.5, rounded half up.
        assert_eq!(c.at(3), 6_301);
        // Below the range: the first segment, continued.
        assert_eq!(c.at(1), 5_700);
        assert!(!c.extrapolated(4) && c.extrapolated(5));
        // Beyond: the line (300.5 a signature) plus the memory the rows did not pay. At B = 4
        // the proof's copy (0x80 + 64 + 1,000 bytes: 38 words) is the largest memory; at
        // B = 100 the preimage's 0x80 + 5,200 bytes are 167 words.
        let line = 6_000 + 601 * 98 / 2;
        let mem = (3 * 167 + 167 * 167 / 512) - (3 * 38 + 38 * 38 / 512);
        assert_eq!(c.at(100), line + mem);
        assert_eq!(w.hashes.at(4), 5_200);
        assert_eq!(w.payload_bytes_per_tx, 100);
        assert!(w.origin_note().contains("B = 2, 4"));
    }

    #[test]
    fn memory_grows_quadratically_far_out() {
        let w = WrapperGas::parse(WRAPPER_GAS_JSON, WRAPPER_GAS_PATH).unwrap();
        let c = &w.transactions;
        let b = c.max_measured();
        let line = |n: u64| {
            let (b0, g0) = c.points[c.points.len() - 2];
            let (b1, g1) = c.points[c.points.len() - 1];
            g1 as f64 + (g1 - g0) as f64 / (b1 - b0) as f64 * (n - b) as f64
        };
        // Within 1 gas of the line up to where the preimage outgrows the proof's copy, well
        // above it at B = 65,536 (a 3.4 MB preimage: about 22 M gas of quadratic memory).
        assert!((c.at(64) as f64 - line(64)).abs() <= 1.0);
        assert!(c.at(65_536) as f64 > line(65_536) + 20e6);
        // Monotone over the table's sizes.
        let sizes = [1u64, 16, 64, 128, 256, 1_024, 4_096, 16_384, 65_536];
        assert!(sizes.windows(2).all(|s| c.at(s[0]) < c.at(s[1])));
    }

    #[test]
    fn the_embedded_measurement_parses_and_matches_its_rows() {
        let w = WrapperGas::parse(WRAPPER_GAS_JSON, WRAPPER_GAS_PATH).unwrap();
        let raw: Vec<serde_json::Value> = serde_json::from_str(WRAPPER_GAS_JSON).unwrap();
        for r in &raw {
            let b = r["batch_size"].as_u64().unwrap();
            assert_eq!(
                Some(w.transactions.at(b)),
                r["transactions_wrapper_gas"].as_u64()
            );
            assert_eq!(Some(w.hashes.at(b)), r["hashes_wrapper_gas"].as_u64());
        }
    }

    #[test]
    fn a_filler_slot_costs_the_one_of_b_row_less_the_b_1_row_over_b_minus_1() {
        let w = WrapperGas::parse(WRAPPER_GAS_JSON, WRAPPER_GAS_PATH).unwrap();
        let rows: Vec<WrapperGasRow> = serde_json::from_str(WRAPPER_GAS_JSON).unwrap();
        let (first, last) = (&rows[0], &rows[rows.len() - 1]);
        let g = last.hashes_one_of_b_wrapper_gas.expect("measured");
        let slot = (g - first.hashes_wrapper_gas).div_ceil(last.batch_size - 1);
        assert_eq!(w.filler_slot_gas, Some(slot));
        // Two stores, 52 bytes of keccak and memory, the loop: tens of gas, not thousands.
        assert!((20..=200).contains(&slot), "{slot}");
        assert_eq!(w.filler_gas(3, 4), slot);
        assert_eq!(w.filler_gas(4, 4), 0);
        assert_eq!(w.filler_gas(5, 4), 0);
        // A large key: the slots and the memory its preimage grows by beyond what the curve
        // charges at b (at b = 1, what it charges at the largest measured B).
        let c = &w.hashes;
        let words = |x: u64| preimage_words(x).max(c.proof_copy_words);
        let mem = memory_cost(words(1_313)) - memory_cost(words(c.max_measured()));
        assert!(mem > 10_000, "{mem}");
        assert_eq!(w.filler_gas(1, 1_313), slot * 1_312 + mem);
        // Beyond the measurements the curve already charges the memory up to b.
        let mem = memory_cost(words(4_096)) - memory_cost(words(2_048));
        assert_eq!(w.filler_gas(2_048, 4_096), slot * 2_048 + mem);
        // Without the one-of-B row there is no figure; a row below the B = 1 one is refused.
        let none = WrapperGas::parse(FIXTURE, "t").unwrap();
        assert_eq!((none.filler_slot_gas, none.filler_gas(1, 4)), (None, 0));
        let below = WRAPPER_GAS_JSON.replacen(
            &format!("\"hashes_one_of_b_wrapper_gas\": {g}"),
            "\"hashes_one_of_b_wrapper_gas\": 1",
            1,
        );
        assert_ne!(below, WRAPPER_GAS_JSON, "the field's text as written");
        assert!(WrapperGas::parse(&below, "t").is_err());
    }

    #[test]
    fn bad_measurements_are_rejected() {
        for bad in [
            "[]".to_string(),
            "{}".to_string(),
            FIXTURE.replace("\"batch_size\":4", "\"batch_size\":2"),
            FIXTURE.replace("\"batch_size\":2", "\"batch_size\":0"),
            FIXTURE.replacen("123.0", "124.0", 1),
            FIXTURE.replace("6601", "99999999999"),
        ] {
            assert!(WrapperGas::parse(&bad, "t").is_err(), "{bad}");
        }
    }
}
