//! The figures this project measured that the model starts from: the EVM benches' verifier rows,
//! the `ecrecover` loop, the digest wrapper's gas and the aggregated digest verifier, embedded
//! at build time from the snapshot in `src/calldata/measured/` (its README gives the
//! provenance; `tools/refresh-calculator-inputs` refreshes it), parsed and checked once
//! ([`Measured::embedded`]), each figure labelled with its [`Origin`].

use super::bounds::MAX_GAS_INPUT;
use super::limits::{ECRECOVER_GAS, ECRECOVER_SIGNATURE_BYTES};
use super::proof_file::{bench_rows_from_json, pick_row, ProofInputError};
use super::rows::{BenchRow, EcrecoverBench, ProveAggregatedRow};
use super::statement::Statement;
use super::units::thousands;
use super::wrapper_gas::{WrapperGas, WRAPPER_GAS_JSON, WRAPPER_GAS_PATH};
use serde::Serialize;
use std::fmt;
use std::sync::OnceLock;

/// The EVM bench's verifier rows (`results/evm.json`), embedded at build time.
pub const EVM_BENCH_JSON: &str = include_str!("measured/evm.json");
/// Where [`EVM_BENCH_JSON`] comes from, as the output names it.
pub const EVM_BENCH_PATH: &str = "results/evm.json";

/// The digest statement's aggregated verifier at the largest batch proved end to end:
/// `prove-aggregated --txs` on 256 signed transactions, its folder checked by
/// `verify-aggregated` (`results/aggregated/b256`; the only digest verifier that is measured
/// and fits EIP-170 today: the direct one does not compile, see docs/ethereum.md), embedded at
/// build time.
pub const AGGREGATED_DIGEST_JSON: &str = include_str!("measured/prove-aggregated-b256.json");
/// Where [`AGGREGATED_DIGEST_JSON`] comes from.
pub const AGGREGATED_DIGEST_PATH: &str = "results/prove-aggregated-b256.json";

/// The EIP-170 limit on runtime code (the calculator's copy: this crate does not depend on
/// the EVM one).
const EIP170_CODE_LIMIT: u64 = 24_576;

/// The aggregated digest verifier as a bench row: the outer verifier's calldata is
/// `accumulator ‖ D_hi ‖ D_lo ‖ proof`; the wrapper computes the two D words, so what the
/// rollup posts is the outer proof **plus the accumulator words** (`proof_bytes` counts them),
/// and the row's `public_inputs` is D's 2. Checked: a digest row whose public inputs are the
/// accumulator's 12 and D's 2, and whose verifier calldata is exactly those words and the
/// outer proof.
pub fn aggregated_digest_row(json: &str, path: &str) -> Result<BenchRow, String> {
    let a: ProveAggregatedRow = serde_json::from_str(json).map_err(|e| format!("{path}: {e}"))?;
    let words = a.outer.num_instance as u64;
    let accumulator = words.saturating_sub(2);
    if a.statement != "digest" || accumulator != 12 {
        return Err(format!(
            "{path}: not the digest statement aggregated (12 accumulator words and D's 2)"
        ));
    }
    let c = &a.on_chain;
    if c.verifier_calldata_bytes != 32 * words + a.outer_proof_bytes {
        return Err(format!(
            "{path}: the verifier's calldata ({} bytes) is not {words} words and the {}-byte \
             outer proof",
            c.verifier_calldata_bytes, a.outer_proof_bytes
        ));
    }
    if c.verifier_execution_gas > MAX_GAS_INPUT
        || c.verifier_total_gas > MAX_GAS_INPUT
        || a.batch_size == 0
        || a.signatures != a.batch_size
    {
        return Err(format!("{path}: figure out of range"));
    }
    Ok(BenchRow {
        circuit: "batch".to_string(),
        statement: Some(a.statement),
        batch_size: a.batch_size,
        k: Some(a.outer.shape.k),
        transcript: Some("evm".to_string()),
        proof_bytes: a.outer_proof_bytes + 32 * accumulator,
        public_inputs: 2,
        verify_gas: Some(c.verifier_total_gas),
        verify_gas_execution: c.verifier_execution_gas,
        deploy_gas: Some(c.verifier_deploy_gas),
        runtime_code_bytes: Some(c.verifier_runtime_code_bytes),
        proof_bytes_blake2b: None,
        verify_gas_floor: None,
        creation_code_bytes: None,
        fits_eip170: Some(c.verifier_runtime_code_bytes <= EIP170_CODE_LIMIT),
        source: Some(path.to_string()),
    })
}

/// The EVM bench's `ecrecover` loop (`results/ecrecover.json`), embedded at build time.
pub const ECRECOVER_BENCH_JSON: &str = include_str!("measured/ecrecover.json");
/// Where [`ECRECOVER_BENCH_JSON`] comes from, as the output names it.
pub const ECRECOVER_BENCH_PATH: &str = "results/ecrecover.json";

/// Where an input's value comes from; the output says it next to the value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", content = "note", rename_all = "lowercase")]
pub enum Origin {
    /// Measured by this project (the note says what and where).
    Measured(String),
    /// Given on the command line.
    Given,
    /// Part of a named scenario.
    Scenario(String),
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Measured(n) => write!(f, "measured: {n}"),
            Origin::Given => write!(f, "given"),
            Origin::Scenario(n) => write!(f, "scenario {n}"),
        }
    }
}

/// Public-input words per signature of a bench row (`public_inputs / batch_size`).
pub fn words_per_signature(row: &BenchRow) -> u64 {
    row.public_inputs.checked_div(row.batch_size).unwrap_or(0)
}

/// Public-input words per signature the proof path posts with a bench row: the keys
/// statement's ([`words_per_signature`]); none for the digest statement, whose two words the
/// wrapper computes on chain.
pub fn posted_words_per_signature(row: &BenchRow) -> u64 {
    match row.statement() {
        Statement::Keys => words_per_signature(row),
        Statement::Digest => 0,
    }
}

/// The defaults the EVM benches measured, parsed from their output ([`Measured::embedded`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Measured {
    /// Every row of the EVM bench, checked.
    pub rows: Vec<BenchRow>,
    /// The keys-statement batch-circuit row with the largest B: the keys statement's verifier,
    /// and the base of [`Params::default`](super::params::Params::default). The file must have one.
    pub verifier: BenchRow,
    /// The `ecrecover` loop.
    pub ecrecover: EcrecoverBench,
    /// The digest wrapper's own gas.
    pub wrapper: WrapperGas,
    /// The aggregated digest verifier ([`aggregated_digest_row`]), the digest statement's
    /// verifier while the EVM bench has no digest row.
    pub aggregated_digest: Option<BenchRow>,
}

impl Measured {
    /// Parses and checks the benches' files (`evm_json` as [`EVM_BENCH_JSON`],
    /// `ecrecover_json` as [`ECRECOVER_BENCH_JSON`], `wrapper_json` as [`WRAPPER_GAS_JSON`]).
    /// A missing digest row is not an error here: it is one when the digest verifier is asked
    /// for ([`Measured::verifier_for`]).
    pub fn parse(evm_json: &str, ecrecover_json: &str, wrapper_json: &str) -> Result<Self, String> {
        let rows = bench_rows_from_json(evm_json, EVM_BENCH_PATH).map_err(|e| e.to_string())?;
        for row in &rows {
            if row.verify_gas_execution > MAX_GAS_INPUT {
                return Err(format!(
                    "{EVM_BENCH_PATH}: verify_gas_execution {} is above {MAX_GAS_INPUT}",
                    row.verify_gas_execution
                ));
            }
        }
        let verifier =
            pick_row(&rows, EVM_BENCH_PATH, None, Statement::Keys).map_err(|e| e.to_string())?;
        let ecrecover: EcrecoverBench = serde_json::from_str(ecrecover_json)
            .map_err(|e| format!("{ECRECOVER_BENCH_PATH}: {e}"))?;
        let e = &ecrecover;
        let bad = |what: &str| Err(format!("{ECRECOVER_BENCH_PATH}: {what}"));
        if e.per_signature_execution != ECRECOVER_GAS + e.loop_overhead {
            return bad("per_signature_execution is not 3,000 + loop_overhead");
        }
        if e.calldata_bytes_per_signature != ECRECOVER_SIGNATURE_BYTES {
            return bad("calldata_bytes_per_signature is not 65 (r, s, v)");
        }
        if e.n[0] >= e.n[1]
            || e.execution_gas[0] != e.base_execution + e.n[0] * e.per_signature_execution
        {
            return bad("base_execution + N · per_signature_execution does not fit execution_gas");
        }
        if e.loop_overhead > MAX_GAS_INPUT || e.base_execution > MAX_GAS_INPUT {
            return bad("gas figure out of range");
        }
        let wrapper = WrapperGas::parse(wrapper_json, WRAPPER_GAS_PATH)?;
        Ok(Measured {
            rows,
            verifier,
            ecrecover,
            wrapper,
            aggregated_digest: None,
        })
    }

    /// The bench output embedded in the binary, parsed once.
    ///
    /// # Panics
    ///
    /// If the embedded files do not parse or check; the unit tests parse them, so a bad bench
    /// file fails the tests instead of the tool.
    pub fn embedded() -> &'static Measured {
        static MEASURED: OnceLock<Measured> = OnceLock::new();
        MEASURED.get_or_init(|| {
            let mut m = Measured::parse(EVM_BENCH_JSON, ECRECOVER_BENCH_JSON, WRAPPER_GAS_JSON)
                .unwrap_or_else(|e| panic!("the embedded EVM bench output is malformed: {e}"));
            m.aggregated_digest = Some(
                aggregated_digest_row(AGGREGATED_DIGEST_JSON, AGGREGATED_DIGEST_PATH)
                    .unwrap_or_else(|e| panic!("the embedded aggregation row is malformed: {e}")),
            );
            m
        })
    }

    /// The default verifier of `statement`: its batch-circuit row with the largest B, or an
    /// error that names the file and says how to measure one.
    /// For the digest statement, while the EVM bench has no digest row, the aggregated digest
    /// verifier ([`Self::aggregated_digest`]) when there is one.
    pub fn verifier_for(&self, statement: Statement) -> Result<BenchRow, ProofInputError> {
        match (
            pick_row(&self.rows, EVM_BENCH_PATH, None, statement),
            statement,
        ) {
            (Err(_), Statement::Digest) if self.aggregated_digest.is_some() => {
                Ok(self.aggregated_digest.clone().expect("checked"))
            }
            (r, _) => r,
        }
    }

    /// Origin of the default proof bytes taken from `row` (one of [`Self::rows`]).
    pub fn proof_origin(row: &BenchRow) -> Origin {
        let transcript = match row.transcript.as_deref() {
            Some("evm") => "EVM-transcript ".to_string(),
            Some(t) => format!("{t}-transcript "),
            None => String::new(),
        };
        if let Some(src) = &row.source {
            return Origin::Measured(format!(
                "aggregated verifier of the digest statement, batch circuit B = {} (outer k = \
                 {}): {}-byte outer proof with its 12 accumulator words; D is computed by the \
                 wrapper, not posted ({src})",
                row.batch_size,
                row.k.unwrap_or(0),
                thousands(row.proof_bytes)
            ));
        }
        let head = format!("EVM bench, {} circuit B = {}", row.circuit, row.batch_size);
        let proof = format!("{}-byte {transcript}proof", thousands(row.proof_bytes));
        Origin::Measured(match row.statement() {
            Statement::Keys => format!(
                "{head}: {proof}; {} public-input words per signature ({} at B = {})",
                words_per_signature(row),
                thousands(row.public_inputs),
                row.batch_size
            ),
            Statement::Digest => format!(
                "{head}, digest statement: {proof}; its {} public inputs (D) are computed by the \
                 wrapper, not posted",
                row.public_inputs
            ),
        })
    }

    /// Public-input words per signature of the default (keys) verifier (its row's public
    /// inputs over its B).
    pub fn public_input_words(&self) -> u64 {
        words_per_signature(&self.verifier)
    }

    /// Origin of the default verification gas taken from `row`.
    pub fn verification_origin(row: &BenchRow) -> Origin {
        if let Some(src) = &row.source {
            return Origin::Measured(format!(
                "revm, the aggregated digest verifier ({} bytes of code, within EIP-170), batch \
                 circuit B = {}, {src}",
                thousands(row.runtime_code_bytes.unwrap_or(0)),
                row.batch_size
            ));
        }
        let statement = match row.statement() {
            Statement::Keys => "",
            Statement::Digest => ", digest statement",
        };
        Origin::Measured(format!(
            "EVM bench (revm), {} circuit B = {}{statement}, {EVM_BENCH_PATH}",
            row.circuit, row.batch_size
        ))
    }

    /// Origin of the default `ecrecover` loop and call overheads.
    pub fn ecrecover_origin(&self) -> Origin {
        Origin::Measured(format!(
            "EVM bench (revm), Solidity ecrecover loop, {ECRECOVER_BENCH_PATH}"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_files_that_do_not_add_up_are_rejected() {
        let ok_ecrecover = r#"{"n":[1,64],"execution_gas":[4610,242508],
            "per_signature_execution":3776,"loop_overhead":776,"base_execution":834,
            "calldata_bytes_per_signature":65}"#;
        let row = r#"[{"circuit":"batch","batch_size":4,"proof_bytes":100,"public_inputs":2,
            "verify_gas_execution":5}]"#;
        let m = Measured::parse(row, ok_ecrecover, WRAPPER_GAS_JSON).unwrap();
        assert_eq!(
            (m.verifier.calldata_bytes(), m.verifier.verify_gas_execution),
            (164, 5)
        );
        assert!(Measured::parse(row, ok_ecrecover, "[]").is_err());
        let digest = r#"[{"circuit":"batch","statement":"digest","batch_size":4,
            "proof_bytes":100,"public_inputs":2,"verify_gas_execution":5}]"#;
        assert!(
            Measured::parse(digest, ok_ecrecover, WRAPPER_GAS_JSON).is_err(),
            "the keys row is the base of the defaults"
        );
        for bad_ecrecover in [
            ok_ecrecover.replace("\"loop_overhead\":776", "\"loop_overhead\":700"),
            ok_ecrecover.replace("\"base_execution\":834", "\"base_execution\":800"),
            ok_ecrecover.replace(":65}", ":64}"),
            ok_ecrecover.replace("\"n\":[1,64]", "\"n\":[64,1]"),
            "{}".to_string(),
        ] {
            assert!(
                Measured::parse(row, &bad_ecrecover, WRAPPER_GAS_JSON).is_err(),
                "{bad_ecrecover}"
            );
        }
        for bad_evm in [
            "[]",
            r#"{"proof":"00"}"#,
            r#"[{"circuit":"naive","batch_size":4,"proof_bytes":1,"verify_gas_execution":1}]"#,
            r#"[{"circuit":"batch","batch_size":4,"proof_bytes":1,
                 "verify_gas_execution":99999999999}]"#,
        ] {
            assert!(
                Measured::parse(bad_evm, ok_ecrecover, WRAPPER_GAS_JSON).is_err(),
                "{bad_evm}"
            );
        }
    }
}
