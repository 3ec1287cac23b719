//! Conversions between `BigUint` and field elements (little-endian representations).

use ff::PrimeField;
use num_bigint::BigUint;
use num_traits::Num;

use crate::layout::Native;

/// The modulus of a prime field, parsed from `PrimeField::MODULUS` (a `0x` hex string).
pub fn modulus<P: PrimeField>() -> BigUint {
    let s = P::MODULUS.trim_start_matches("0x");
    BigUint::from_str_radix(s, 16).expect("PrimeField::MODULUS is a hex string")
}

/// The canonical integer of a field element whose `Repr` is little-endian (true for BN254 Fr
/// and the secp256k1 fields of halo2curves).
pub fn fe_to_big<P: PrimeField>(x: &P) -> BigUint {
    BigUint::from_bytes_le(x.to_repr().as_ref())
}

/// `x mod |P|` as a field element.
pub fn big_to_fe<P: PrimeField>(x: &BigUint) -> P {
    let m = x % modulus::<P>();
    let mut repr = P::Repr::default();
    let bytes = m.to_bytes_le();
    repr.as_mut()[..bytes.len()].copy_from_slice(&bytes);
    P::from_repr(repr).expect("a value reduced below the modulus is canonical")
}

/// The native field element of an integer (reduced mod the BN254 scalar modulus).
pub fn native(x: &BigUint) -> Native {
    big_to_fe::<Native>(x)
}

/// `2^e` as a native field element.
pub fn pow2(e: u32) -> Native {
    native(&(BigUint::from(1u8) << e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use halo2curves::secp256k1::{Fp, Fq};

    #[test]
    fn round_trips_and_little_endian() {
        let x = Fp::from(0x0102_0304u64);
        assert_eq!(fe_to_big(&x), BigUint::from(0x0102_0304u64));
        let m = modulus::<Fq>();
        let y: Fq = big_to_fe(&(&m - 5u32));
        assert_eq!(y, -Fq::from(5u64));
        assert_eq!(native(&(modulus::<Native>() + 7u32)), Native::from(7u64));
        assert_eq!(pow2(10), Native::from(1024u64));
    }
}
