//! An in-memory EVM (revm, Prague rules) to deploy a verifier and call it: the gas a real
//! transaction would use, EIP-7623 floor included. [`deploy`] puts one contract on a chain of
//! its own; a [`Chain`] holds several (a wrapper beside the verifier it calls) and returns
//! what a call returned.

use revm::context::result::{ExecutionResult, Output};
use revm::context::TxEnv;
use revm::database::InMemoryDB;
use revm::primitives::hardfork::SpecId;
use revm::primitives::{Address, TxKind};
use revm::{Context, ExecuteCommitEvm, MainBuilder, MainContext};

/// Gas limit of a verifying call: above any verifier here, and what a failing call may burn.
pub const CALL_GAS_LIMIT: u64 = 30_000_000;

/// An in-memory chain holding any number of contracts (a wrapper and the verifier it calls).
pub struct Chain {
    evm: revm::MainnetEvm<revm::handler::MainnetContext<InMemoryDB>>,
}

/// A contract deployed on a [`Chain`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Contract {
    pub address: Address,
    /// Gas of the deploying transaction.
    pub deploy_gas: u64,
    /// Bytes of the runtime code the deployment left.
    pub runtime_bytes: usize,
}

/// What a call did, with the bytes it returned (on success) or reverted with (on a revert;
/// empty for a halt).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Called {
    pub outcome: CallOutcome,
    pub output: Vec<u8>,
}

/// A deployed contract in its own in-memory chain.
pub struct Deployed {
    chain: Chain,
    address: Address,
    /// Gas of the deploying transaction.
    pub deploy_gas: u64,
    /// Bytes of the runtime code the deployment left.
    pub runtime_bytes: usize,
}

/// Gas of a verifying transaction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CallGas {
    /// The transaction's gas: `max(21,000 + calldata + execution, EIP-7623 floor)`.
    pub total: u64,
    /// Intrinsic gas: 21,000 plus 16 per non-zero and 4 per zero calldata byte.
    pub intrinsic: u64,
    /// The EIP-7623 floor of this calldata: 21,000 plus 10 per token (4 per non-zero byte, 1
    /// per zero byte).
    pub floor: u64,
}

impl CallGas {
    /// Whether the transaction paid its EIP-7623 floor rather than calldata plus execution.
    pub fn on_floor(&self) -> bool {
        self.total <= self.floor
    }

    /// The verifier's execution alone (the transaction's gas less 21,000 and the calldata).
    /// Only meaningful off the EIP-7623 floor ([`Self::on_floor`] false): on it the
    /// transaction pays the floor, whatever the execution.
    pub fn execution(&self) -> u64 {
        self.total.saturating_sub(self.intrinsic)
    }
}

/// What a call did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CallOutcome {
    /// The contract returned: the proof verifies.
    Accepted(CallGas),
    /// The contract reverted or halted: the proof does not verify (the gas it used).
    Rejected { gas_used: u64, reason: String },
}

/// Deploys `creation` code on a fresh chain. With `lift_code_limit`, EIP-170's 24,576-byte
/// runtime limit (and EIP-3860's initcode limit) is lifted, to measure a verifier too large
/// for mainnet.
pub fn deploy(creation: &[u8], lift_code_limit: bool) -> Result<Deployed, String> {
    let mut chain = Chain::new(lift_code_limit);
    let c = chain.deploy(creation)?;
    Ok(Deployed {
        chain,
        address: c.address,
        deploy_gas: c.deploy_gas,
        runtime_bytes: c.runtime_bytes,
    })
}

impl Chain {
    /// An empty chain (Prague rules); `lift_code_limit` as for [`deploy`].
    pub fn new(lift_code_limit: bool) -> Self {
        let evm = Context::mainnet()
            .with_db(InMemoryDB::default())
            .modify_cfg_chained(|cfg| {
                cfg.disable_nonce_check = true;
                if lift_code_limit {
                    cfg.limit_contract_code_size = Some(usize::MAX);
                }
            })
            .build_mainnet();
        Chain { evm }
    }

    /// Deploys `creation` code (constructor arguments appended, if any); each deployment gets
    /// a new address (the sender's nonce is bumped).
    pub fn deploy(&mut self, creation: &[u8]) -> Result<Contract, String> {
        let tx = TxEnv {
            gas_limit: u64::MAX / 2,
            kind: TxKind::Create,
            data: creation.to_vec().into(),
            ..Default::default()
        };
        match self.evm.transact_commit(tx) {
            Err(e) => Err(format!("the deploying transaction is invalid: {e:?}")),
            Ok(ExecutionResult::Success {
                gas_used,
                output: Output::Create(runtime, Some(address)),
                ..
            }) => Ok(Contract {
                address,
                deploy_gas: gas_used,
                runtime_bytes: runtime.len(),
            }),
            Ok(other) => Err(format!("deployment failed: {other:?}")),
        }
    }

    /// Calls `to` with `calldata` (gas limit [`CALL_GAS_LIMIT`]).
    pub fn call(&mut self, to: Address, calldata: &[u8]) -> Result<Called, String> {
        self.call_with_gas_limit(to, calldata, CALL_GAS_LIMIT)
    }

    /// Calls `to` with `calldata` in a transaction of this gas limit (an error when it is
    /// below the transaction's intrinsic gas or EIP-7623 floor).
    pub fn call_with_gas_limit(
        &mut self,
        to: Address,
        calldata: &[u8],
        gas_limit: u64,
    ) -> Result<Called, String> {
        let init = revm::interpreter::gas::calculate_initial_tx_gas(
            SpecId::PRAGUE,
            calldata,
            false,
            0,
            0,
            0,
        );
        let tx = TxEnv {
            gas_limit,
            kind: TxKind::Call(to),
            data: calldata.to_vec().into(),
            ..Default::default()
        };
        match self.evm.transact_commit(tx) {
            Err(e) => Err(format!("the calling transaction is invalid: {e:?}")),
            Ok(ExecutionResult::Success {
                gas_used, output, ..
            }) => Ok(Called {
                outcome: CallOutcome::Accepted(CallGas {
                    total: gas_used,
                    intrinsic: init.initial_gas,
                    floor: init.floor_gas,
                }),
                output: output.data().to_vec(),
            }),
            Ok(ExecutionResult::Revert { gas_used, output }) => Ok(Called {
                outcome: CallOutcome::Rejected {
                    gas_used,
                    reason: "revert".into(),
                },
                output: output.to_vec(),
            }),
            Ok(ExecutionResult::Halt { reason, gas_used }) => Ok(Called {
                outcome: CallOutcome::Rejected {
                    gas_used,
                    reason: format!("halt: {reason:?}"),
                },
                output: Vec::new(),
            }),
        }
    }
}

impl Deployed {
    /// Calls the contract with `calldata` (gas limit [`CALL_GAS_LIMIT`]).
    pub fn call(&mut self, calldata: &[u8]) -> Result<CallOutcome, String> {
        self.chain.call(self.address, calldata).map(|c| c.outcome)
    }
}
