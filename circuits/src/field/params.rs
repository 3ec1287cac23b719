//! Limb layout of the emulated field elements and the bounds every gate relies on.
//!
//! **Choice: 3 limbs of 88 bits (T = 264), the top limb of a proper value 80 bits.**
//! * Three limbs keep the multiplication row small (9 limb products, 3 carries, 9 range-checked
//!   limbs per mul) while `2·88 + log2(3) + 3 ≈ 181 ≪ 253` leaves room for lazy sums.
//! * CRT: a product is checked mod 2^264 (carries) and mod r ≈ 2^253.6 (native values). Both
//!   give equality over the integers when `|a·b − q·p − r| < 2^264·r ≈ 2^517.6`. With inputs below
//!   2^258 (e.g. sums of four proper values) `a·b < 2^516`, so three limbs suffice; four 64-bit
//!   limbs (T = 256, bound 2^509.6) would not cover even two proper inputs (2^512).
//! * 88 = 22·4 = 11·8 so 4- and 8-bit windows of a scalar never straddle a limb.

use num_bigint::BigUint;
use num_traits::One;

/// Bits per limb.
pub const LIMB_BITS: u32 = 88;
/// Limbs per element.
pub const NUM_LIMBS: usize = 3;
/// Bits of the top limb of a proper value: 3 limbs hold `[0, 2^256)`.
pub const TOP_LIMB_BITS: u32 = 256 - 2 * LIMB_BITS;
/// Width of an offset carry cell of the relation block: carries are signed with
/// `|c| < 2^(CARRY_BITS − 1)`, stored as `c + 2^(CARRY_BITS − 1)` (one range row: at L = 16
/// exactly six 16-bit chunks). Each block checks its own carries fit (`field::relation::bounds`).
pub const CARRY_BITS: u32 = 96;

impl crate::layout::LayoutParams {
    /// The layout the field chip needs at table bits `lookup_bits`: every carry
    /// ([`CARRY_BITS`]) in one range row, so `⌈96 / L⌉` lookup columns, and table sections for
    /// the partial top chunks of 88-bit limbs, 80-bit top limbs and 96-bit carries (windows of
    /// 1 and 4 bits too). Every circuit of this crate starts from it.
    pub fn new(lookup_bits: u32) -> Self {
        Self::for_chunks(
            lookup_bits,
            CARRY_BITS,
            &[LIMB_BITS, TOP_LIMB_BITS, CARRY_BITS],
        )
    }
}

/// [`crate::layout::LayoutParams::new`] at table bits 17 (k = 18).
impl Default for crate::layout::LayoutParams {
    fn default() -> Self {
        Self::new(17)
    }
}

/// Splits an integer into `NUM_LIMBS` limbs of `LIMB_BITS` (the top limb takes the rest).
pub fn to_limbs(x: &BigUint) -> [BigUint; NUM_LIMBS] {
    let mask = (BigUint::one() << LIMB_BITS) - 1u32;
    [x & &mask, (x >> LIMB_BITS) & &mask, x >> (2 * LIMB_BITS)]
}

/// `Σ limbs_i·2^(88 i)`.
pub fn from_limbs(l: &[BigUint; NUM_LIMBS]) -> BigUint {
    l.iter()
        .rev()
        .fold(BigUint::from(0u8), |acc, x| (acc << LIMB_BITS) + x)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn limbs_round_trip() {
        let x = BigUint::parse_bytes(
            b"123456789012345678901234567890123456789012345678901234567890",
            10,
        )
        .unwrap();
        assert_eq!(from_limbs(&to_limbs(&x)), x);
    }
}
