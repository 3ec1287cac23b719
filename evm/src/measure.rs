//! One circuit and batch size on Ethereum, end to end: the demo batch proven with the EVM
//! transcript (and with Blake2b, for the size difference), the verifier generated for the
//! circuit's verifying key and compiled, deployed in revm (EIP-170 lifted when the code is
//! larger, and said so) and called with the proof. The [`EvmRow`] is what `results/evm.json`
//! holds and what `calldata --proof results/evm.json` reads.

use std::path::Path;

use batch_ecdsa::batch_file::BatchFile;
use batch_ecdsa::calldata::proof_file::BenchRow;
use batch_ecdsa::demo::demo_batch;
use batch_ecdsa::prover::api::{ProveOptions, Prover, Silent};
use batch_ecdsa::prover::circuit::CircuitKind;
use batch_ecdsa::prover::proof::instance_of;
use batch_ecdsa::prover::transcript::{evm_calldata, TranscriptKind};

use crate::chain::{deploy, CallOutcome};
use crate::generate::verifier_solidity;
use crate::solc::{Compiled, Solc};
use crate::EIP170_CODE_LIMIT;

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

/// The verifier of `prover`'s circuit: its Solidity and bytecode.
pub fn verifier_of(prover: &Prover, solc: &Solc) -> Result<(String, Compiled), String> {
    let instances = batch_ecdsa_circuits::ecdsa::INSTANCE_CELLS_PER_SIGNATURE * prover.batch_size();
    let sol = verifier_solidity(prover.params(), prover.verifying_key(), instances);
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
    let instance = instance_of(&proved.file.public_inputs().map_err(|e| e.to_string())?);
    let calldata = evm_calldata(&instance, &proof);
    Ok((proof, calldata))
}

/// Measures `kind` at `b` signatures (params and keys cached under `params_dir`).
pub fn measure(
    kind: CircuitKind,
    b: usize,
    params_dir: &Path,
    solc: &Solc,
) -> Result<Measured, String> {
    let tag = format!("{kind} B = {b}");
    let prover = Prover::new(kind, b, params_dir, &Silent).map_err(|e| format!("{tag}: {e}"))?;
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
    let row = EvmRow {
        circuit: kind.to_string(),
        // The keys statement, written as before (no field); a digest-statement row says
        // `Some("digest")`.
        statement: None,
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
    };
    Ok(Measured {
        row,
        solidity,
        compiled,
        calldata,
    })
}
