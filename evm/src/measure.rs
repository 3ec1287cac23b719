//! One circuit, statement and batch size on Ethereum, end to end: the demo batch proven with
//! the EVM transcript (and with Blake2b, for the size difference), the verifier generated for
//! the circuit's verifying key and compiled, deployed in revm (EIP-170 lifted when the code is
//! larger, and said so) and called with the proof. The [`EvmRow`] is what `results/evm.json`
//! holds and what `calldata --proof results/evm.json` reads.
//!
//! The statement sets the verifier's public inputs: `3·B` words under keys (`h`, `x(Q)`,
//! `y(Q)` as packed limbs per signature), 2 under the digest (`D_hi`, `D_lo`; a contract
//! computes D itself from the hashes and senders it holds).

use std::path::Path;

use batch_ecdsa::batch_file::BatchFile;
use batch_ecdsa::calldata::proof_file::BenchRow;
use batch_ecdsa::demo::demo_batch;
use batch_ecdsa::prover::api::{ProveOptions, Prover, SetupOptions, Silent};
use batch_ecdsa::prover::circuit::CircuitKind;
use batch_ecdsa::prover::transcript::{evm_calldata, TranscriptKind};
use batch_ecdsa_circuits::ecdsa::Statement;

use crate::chain::{deploy, CallOutcome};
use crate::generate::verifier_solidity;
use crate::solc::{Compiled, Solc};
use crate::EIP170_CODE_LIMIT;
use batch_ecdsa::prover::srs::SetupSource;

/// Seed of the demo batches measured.
pub const DEMO_SEED: u64 = 1;

/// The measured figures of one circuit and B: the calculator's bench row
/// (`batch_ecdsa::calldata::proof_file::BenchRow`, one format for writer and reader), every
/// optional field filled.
pub type EvmRow = BenchRow;

/// A measured verifier with what it was measured on.
pub struct Measured {
    pub row: EvmRow,
    pub solidity: String,
    pub compiled: Compiled,
    /// The honest verifying call's calldata.
    pub calldata: Vec<u8>,
}

/// The prover of `kind` at `b` signatures stating `statement` under the setup `source`
/// (params and keys cached under `params_dir`).
pub fn prover_for(
    kind: CircuitKind,
    b: usize,
    statement: Statement,
    params_dir: &Path,
    source: &SetupSource,
) -> Result<Prover, String> {
    let setup = SetupOptions {
        statement,
        params: source.clone(),
        ..SetupOptions::default()
    };
    Prover::with_setup(kind, b, params_dir, &setup, &Silent).map_err(|e| e.to_string())
}

/// The verifier of `prover`'s circuit: its Solidity (with a header naming the statement, B,
/// k and the setup, [`crate::pinning::direct_header`]) and bytecode (with as many public
/// inputs as the prover's statement has: [`Prover::num_instance`]).
pub fn verifier_of(prover: &Prover, solc: &Solc) -> Result<(String, Compiled), String> {
    let sol = verifier_solidity(
        prover.params(),
        prover.verifying_key(),
        prover.num_instance(),
    );
    let header = crate::pinning::direct_header(
        prover.statement().as_str(),
        prover.batch_size(),
        prover.k(),
        prover.setup_identity(),
    );
    let sol = match sol.find("pragma solidity") {
        Some(at) => format!("{}{header}{}", &sol[..at], &sol[at..]),
        None => format!("{header}{sol}"),
    };
    let compiled = solc.compile(&sol).map_err(|e| e.to_string())?;
    Ok((sol, compiled))
}

/// The deterministic demo batch of `b` valid signatures.
pub fn demo_file(b: usize) -> Result<BatchFile, String> {
    let records = demo_batch(b, DEMO_SEED, &[]).map_err(|e| e.to_string())?;
    BatchFile::from_records(&records).map_err(|e| format!("{e:?}"))
}

/// A proof of `batch` in `transcript` and its verifier calldata (instances ‖ proof).
pub fn prove(
    prover: &Prover,
    batch: &BatchFile,
    transcript: TranscriptKind,
) -> Result<(Vec<u8>, Vec<u8>), String> {
    let options = ProveOptions {
        transcript,
        seed: Some(DEMO_SEED),
        ..ProveOptions::default()
    };
    let proved = prover
        .prove(batch, options, &Silent)
        .map_err(|e| e.to_string())?;
    if !proved.self_verified {
        return Err("the proof fails the prover's own check".into());
    }
    let proof = proved.file.proof_bytes().map_err(|e| e.to_string())?;
    let instance = proved.file.instance().map_err(|e| e.to_string())?;
    let calldata = evm_calldata(&instance, &proof);
    Ok((proof, calldata))
}

/// Measures `kind` at `b` signatures stating `statement` (params and keys cached under
/// `params_dir`).
pub fn measure(
    kind: CircuitKind,
    b: usize,
    statement: Statement,
    params_dir: &Path,
    solc: &Solc,
) -> Result<Measured, String> {
    let tag = format!("{kind} ({statement}) B = {b}");
    let prover = prover_for(kind, b, statement, params_dir, &SetupSource::InsecureDev)
        .map_err(|e| format!("{tag}: {e}"))?;
    let batch = demo_file(b)?;
    let (proof, calldata) = prove(&prover, &batch, TranscriptKind::Evm)?;
    let (blake, _) = prove(&prover, &batch, TranscriptKind::Blake2b)?;
    let (solidity, compiled) = verifier_of(&prover, solc).map_err(|e| format!("{tag}: {e}"))?;
    let mut contract = deploy(&compiled.creation, true).map_err(|e| format!("{tag}: {e}"))?;
    let gas = match contract
        .call(&calldata)
        .map_err(|e| format!("{tag}: {e}"))?
    {
        CallOutcome::Accepted(g) => g,
        CallOutcome::Rejected { reason, .. } => {
            return Err(format!(
                "{tag}: the generated verifier rejects an honest proof ({reason})"
            ))
        }
    };
    if gas.on_floor() {
        return Err(format!(
            "{tag}: the call paid its EIP-7623 floor: the execution gas cannot be read off"
        ));
    }
    let public_inputs = (calldata.len() - proof.len()) / 32;
    if public_inputs != prover.num_instance() {
        return Err(format!(
            "{tag}: {public_inputs} public inputs in the calldata, the statement has {}",
            prover.num_instance()
        ));
    }
    let row = EvmRow {
        circuit: kind.to_string(),
        statement: Some(statement.to_string()),
        batch_size: b as u64,
        k: Some(prover.k()),
        transcript: Some(TranscriptKind::Evm.to_string()),
        proof_bytes: proof.len() as u64,
        public_inputs: public_inputs as u64,
        verify_gas: Some(gas.total),
        verify_gas_execution: gas.execution(),
        deploy_gas: Some(contract.deploy_gas),
        runtime_code_bytes: Some(contract.runtime_bytes as u64),
        proof_bytes_blake2b: Some(blake.len() as u64),
        verify_gas_floor: Some(gas.floor),
        creation_code_bytes: Some(compiled.creation.len() as u64),
        fits_eip170: Some(contract.runtime_bytes <= EIP170_CODE_LIMIT),
        source: None,
    };
    Ok(Measured {
        row,
        solidity,
        compiled,
        calldata,
    })
}
