//! Layer 2: the validity rules a well-formed transaction must meet besides its signature, as
//! Ethereum's transaction checks make them before execution (no state: balances and account
//! nonces are the sequencer's business).
//!
//! - **chain** (EIP-155): with a chain id required ([`TxPolicy::chain_id`]), a transaction that
//!   names another chain is invalid; a legacy transaction without EIP-155 (v = 27/28) signs for
//!   every chain and is invalid only when [`TxPolicy::require_eip155`] says so (Ethereum
//!   mainnet still accepts it);
//! - **nonce** (EIP-2681): nonce < 2⁶⁴ − 1;
//! - **fees** (EIP-1559): max priority fee ≤ max fee, compared as the 256-bit integers they
//!   are, and gas_limit × max fee (or gas price) < 2²⁵⁶: the product is what the sender must
//!   hold, and Ethereum rejects it when it overflows (both reachable only through
//!   [`super::wide_fee`], alloy's fees being u128);
//! - **initcode** (EIP-3860): a creation's data is at most 49,152 bytes;
//! - **EIP-4844**: at least one blob hash; **EIP-7702**: at least one authorization;
//! - **intrinsic gas**: gas_limit ≥ g₀ with
//!
//! ```text
//! g₀ = 21000 + 32000·create + 4·zero(data) + 16·nonzero(data)       (EIP-2, EIP-2028)
//!      + 2·⌈|data|/32⌉·create                                       (EIP-3860)
//!      + 2400·addresses + 1900·storage keys                          (EIP-2930)
//!      + 25000·authorizations                                        (EIP-7702)
//! ```
//!
//! (Cancun's rules, with EIP-7702's per-authorization cost; EIP-7623's calldata floor, from
//! Prague, is not applied.) The signature rules (range of r and s, EIP-2's low s, recovery)
//! are in [`super::record`].

use super::decode::{DecodedTx, TxType};

/// What the chain demands of a transaction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TxPolicy {
    /// The chain the batch is for: a transaction carrying another chain id is invalid.
    /// `None`: any chain id is accepted.
    pub chain_id: Option<u64>,
    /// Reject legacy transactions without EIP-155 replay protection (v = 27/28).
    pub require_eip155: bool,
    /// Accept s > n/2. Ethereum rejects high s since Homestead (EIP-2); only a replay of
    /// Frontier-era transactions needs this.
    pub allow_high_s: bool,
    /// Apply the rules besides the chain's and the signature's (nonce, fees, initcode, blob
    /// and authorization lists, intrinsic gas). On by default; off for test vectors that are
    /// signed transactions but not executable ones (e.g. ethers.js', with gas limits below
    /// 21,000).
    pub static_rules: bool,
}

impl Default for TxPolicy {
    /// Any chain, legacy transactions without EIP-155 accepted, EIP-2's low s required, the
    /// static rules applied.
    fn default() -> Self {
        TxPolicy {
            chain_id: None,
            require_eip155: false,
            allow_high_s: false,
            static_rules: true,
        }
    }
}

impl TxPolicy {
    /// Ethereum's rules for the chain `chain_id` (pre-EIP-155 legacy transactions accepted).
    pub fn for_chain(chain_id: u64) -> Self {
        TxPolicy {
            chain_id: Some(chain_id),
            ..Self::default()
        }
    }
}

/// EIP-3860's limit on a creation's initcode: 2 × 24,576 bytes.
pub const MAX_INITCODE_BYTES: usize = 49_152;

/// Why a well-formed transaction is invalid (exit code 1).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TxInvalid {
    #[error("chain id {found} is not the batch's chain id {expected}")]
    WrongChain { expected: u64, found: u64 },
    #[error("legacy transaction without EIP-155 (v = 27/28): it names no chain, and --require-eip155 demands one")]
    NoChainId,
    #[error("nonce 2^64 - 1 is not allowed (EIP-2681)")]
    NonceMax,
    #[error("max priority fee per gas {priority} is above max fee per gas {max}")]
    PriorityAboveMax {
        priority: alloy_primitives::U256,
        max: alloy_primitives::U256,
    },
    #[error("gas limit {limit} × max fee per gas {max} is 2^256 or more")]
    GasPriceProductOverflow {
        limit: u64,
        max: alloy_primitives::U256,
    },
    #[error("initcode of {0} bytes is over EIP-3860's limit of 49152")]
    InitcodeTooLarge(usize),
    #[error("EIP-4844 transaction without blob hashes")]
    NoBlobs,
    #[error("EIP-7702 transaction with an empty authorization list")]
    NoAuthorizations,
    #[error("gas limit {limit} is below the intrinsic gas {intrinsic}")]
    IntrinsicGas { limit: u64, intrinsic: u64 },
    #[error("r and s: {0}")]
    SignatureRange(String),
    #[error("s > n/2 (high s): Ethereum rejects it since Homestead (EIP-2)")]
    HighS,
    #[error("signer recovery failed: {0}")]
    Recovery(String),
}

/// The intrinsic gas g₀ (module doc).
pub fn intrinsic_gas(tx: &DecodedTx) -> u64 {
    let f = &tx.facts;
    let (len, zero) = (f.input_len as u64, f.input_zero_bytes as u64);
    let create = u64::from(f.is_create);
    21_000
        + 32_000 * create
        + 4 * zero
        + 16 * (len - zero)
        + 2 * len.div_ceil(32) * create
        + 2_400 * f.access_list_addresses as u64
        + 1_900 * f.access_list_keys as u64
        + 25_000 * f.authorizations as u64
}

/// Checks every rule of the module doc, the chain first.
pub fn check_rules(tx: &DecodedTx, policy: &TxPolicy) -> Result<(), TxInvalid> {
    match (tx.chain_id, policy.chain_id) {
        (Some(found), Some(expected)) if found != expected => {
            return Err(TxInvalid::WrongChain { expected, found })
        }
        (None, _) if policy.require_eip155 => return Err(TxInvalid::NoChainId),
        _ => {}
    }
    if !policy.static_rules {
        return Ok(());
    }
    let f = &tx.facts;
    if f.nonce == u64::MAX {
        return Err(TxInvalid::NonceMax);
    }
    if let Some(priority) = f.max_priority_fee_per_gas {
        if priority > f.max_fee_per_gas {
            return Err(TxInvalid::PriorityAboveMax {
                priority,
                max: f.max_fee_per_gas,
            });
        }
    }
    if f.max_fee_per_gas
        .checked_mul(alloy_primitives::U256::from(f.gas_limit))
        .is_none()
    {
        return Err(TxInvalid::GasPriceProductOverflow {
            limit: f.gas_limit,
            max: f.max_fee_per_gas,
        });
    }
    if f.is_create && f.input_len > MAX_INITCODE_BYTES {
        return Err(TxInvalid::InitcodeTooLarge(f.input_len));
    }
    match tx.tx_type {
        TxType::Eip4844 if f.blob_hashes == 0 => return Err(TxInvalid::NoBlobs),
        TxType::Eip7702 if f.authorizations == 0 => return Err(TxInvalid::NoAuthorizations),
        _ => {}
    }
    let intrinsic = intrinsic_gas(tx);
    if f.gas_limit < intrinsic {
        return Err(TxInvalid::IntrinsicGas {
            limit: f.gas_limit,
            intrinsic,
        });
    }
    Ok(())
}
