//! Typed emulated field elements: the type says what has been proven about the limbs.
//!
//! * [`Reduced`]: limbs range-checked **and** the integer proven `< p` (canonical). Only these
//!   can be compared, tested for zero, or decomposed into windows.
//! * [`Proper`]: limbs range-checked to 88/88/80 bits, so the integer is in `[0, 2^256)`, maybe
//!   `≥ p` (what `mul` returns and `load_proper` accepts).
//! * [`Overflowing`]: lazy sums/differences of the above; limbs and value are only bounded by
//!   the tracked maxima. Accepted by `mul`/`reduce` while the bounds allow.
//!
//! A missing reduction is therefore a type error. `Reduced → Proper → Overflowing` are free.

use std::marker::PhantomData;

use ff::PrimeField;
use num_bigint::BigUint;

use super::params::{from_limbs, NUM_LIMBS};
use crate::bigint::big_to_fe;
use crate::layout::AssignedValue;

/// Limb cells plus the honest integer they encode and a proven bound on each limb.
///
/// The fields are private to the crate: `max_limbs` is a claim the constraints must back (a
/// relation block sizes its carries and quotient from it), so only the chips that prove a
/// bound may make one.
#[derive(Clone, Debug)]
pub struct CrtInt {
    pub(crate) limbs: [AssignedValue; NUM_LIMBS],
    /// The integer `Σ limb_i·2^(88 i)` of the honest witness (used to compute new witnesses).
    pub(crate) value: BigUint,
    /// Inclusive upper bounds on the limbs that the constraints guarantee.
    pub(crate) max_limbs: [BigUint; NUM_LIMBS],
}

impl CrtInt {
    /// The limb cells, least significant first.
    pub fn limbs(&self) -> &[AssignedValue; NUM_LIMBS] {
        &self.limbs
    }

    /// The integer of the honest witness.
    pub fn value(&self) -> &BigUint {
        &self.value
    }

    /// The proven inclusive bounds on the limbs.
    pub fn max_limbs(&self) -> &[BigUint; NUM_LIMBS] {
        &self.max_limbs
    }

    /// Inclusive bound on the integer: `Σ max_limb_i·2^(88 i)`.
    pub(crate) fn max_value(&self) -> BigUint {
        from_limbs(&self.max_limbs)
    }
}

/// Access to the CRT integer behind any typed value.
pub trait FieldValue<P> {
    fn crt(&self) -> &CrtInt;
    /// The element of the emulated field (the integer mod p).
    fn fe(&self) -> P
    where
        P: PrimeField,
    {
        big_to_fe::<P>(&self.crt().value)
    }
}

macro_rules! typed {
    ($name:ident, $doc:literal) => {
        #[doc = $doc]
        #[derive(Clone, Debug)]
        pub struct $name<P> {
            pub(crate) inner: CrtInt,
            _p: PhantomData<P>,
        }
        impl<P> $name<P> {
            pub(crate) fn wrap(inner: CrtInt) -> Self {
                Self {
                    inner,
                    _p: PhantomData,
                }
            }
            pub fn limbs(&self) -> &[AssignedValue; NUM_LIMBS] {
                &self.inner.limbs
            }
        }
        impl<P> FieldValue<P> for $name<P> {
            fn crt(&self) -> &CrtInt {
                &self.inner
            }
        }
    };
}

typed!(
    Reduced,
    "Canonical: limbs range-checked and the integer proven `< p`."
);
typed!(
    Proper,
    "Limbs range-checked (88/88/80 bits): the integer is in `[0, 2^256)`."
);
typed!(
    Overflowing,
    "A lazy sum or difference; bounded only by its tracked limb maxima."
);

impl<P> From<Reduced<P>> for Proper<P> {
    fn from(x: Reduced<P>) -> Self {
        Proper::wrap(x.inner)
    }
}
impl<P> From<Proper<P>> for Overflowing<P> {
    fn from(x: Proper<P>) -> Self {
        Overflowing::wrap(x.inner)
    }
}
impl<P> From<Reduced<P>> for Overflowing<P> {
    fn from(x: Reduced<P>) -> Self {
        Overflowing::wrap(x.inner)
    }
}

/// Types whose invariant survives a limb-wise `select` between two values of the same type.
pub trait Selectable<P>: FieldValue<P> + Sized {
    fn rewrap(inner: CrtInt) -> Self;
}
impl<P> Selectable<P> for Reduced<P> {
    fn rewrap(inner: CrtInt) -> Self {
        Self::wrap(inner)
    }
}
impl<P> Selectable<P> for Proper<P> {
    fn rewrap(inner: CrtInt) -> Self {
        Self::wrap(inner)
    }
}
impl<P> Selectable<P> for Overflowing<P> {
    fn rewrap(inner: CrtInt) -> Self {
        Self::wrap(inner)
    }
}
