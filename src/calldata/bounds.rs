//! The largest values the model accepts as input: every product of two of them stays far inside
//! u64 / u128, and a search bounded by them ends in well under a second.

use super::units::WEI_PER_GWEI;

/// Largest batch size the model accepts (keeps every product far inside u64 / u128).
pub const MAX_BATCH_SIZE: u64 = 1_000_000_000;
/// Largest break-even search bound: the search is a linear scan (a few hundred ms at 10^7).
pub const MAX_BREAK_EVEN_BOUND: u64 = 10_000_000;
/// Largest gas figure accepted for an input (verification, binding, `ecrecover` overheads).
pub const MAX_GAS_INPUT: u64 = 10_000_000_000;
/// Largest price accepted, wei (10^12 gwei).
pub const MAX_PRICE_WEI: u128 = 1_000_000_000_000 * WEI_PER_GWEI;
/// Largest extra calldata per transaction accepted by `--floor-headroom tx-bytes:N`.
pub const MAX_TX_BYTES: u64 = 100_000;
