//! Units of the model: wei, gwei and ether, and how numbers are printed.

/// Wei per gwei.
pub const WEI_PER_GWEI: u128 = 1_000_000_000;
/// Wei per ether.
pub const WEI_PER_ETH: u128 = 1_000_000_000_000_000_000;

/// Converts a gwei amount to wei, rejecting negative, NaN, infinite and absurd values.
pub fn gwei_to_wei(gwei: f64) -> Option<u128> {
    if !gwei.is_finite() || !(0.0..=1e12).contains(&gwei) {
        return None;
    }
    Some((gwei * WEI_PER_GWEI as f64).round() as u128)
}

/// Converts wei to ether for display (exact enough: f64 has 53 bits).
pub fn wei_to_eth(wei: i128) -> f64 {
    wei as f64 / WEI_PER_ETH as f64
}

/// `1234567` → `"1,234,567"`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    // Groups of three digits from the right; all ASCII, so byte chunks are whole characters.
    let mut groups: Vec<&str> = digits
        .as_bytes()
        .rchunks(3)
        .map(|g| std::str::from_utf8(g).unwrap_or(""))
        .collect();
    groups.reverse();
    groups.join(",")
}
