//! Names of the gates and fixed columns a block addresses.
//!
//! The layout layer does not know the chips' gates: each layer declares the ids of its own
//! gates and fixed columns next to their polynomials (`layout::gates`, `range::gates`,
//! `field::gates`, `ecc::gates`, `config`), and the circuit's configuration passes the ids each
//! column group needs to `GroupConfig::configure`, which allocates one selector or fixed column
//! per id, in the order given (the order is part of the verifying key).

use std::fmt;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;

/// An id of kind `K` ([`Gate`] or [`FixedColumn`]): the name its layer gives it and an index
/// for a family (one gate per emulated modulus or per 16 challenges, one coefficient column
/// per lookup column; 0 otherwise).
pub struct Id<K> {
    pub name: &'static str,
    pub index: usize,
    kind: PhantomData<K>,
}

/// Marker of gate ids: a selector.
pub enum Gate {}
/// Marker of fixed-column ids.
pub enum FixedColumn {}

/// A gate a block can switch on.
pub type GateId = Id<Gate>;
/// A fixed coefficient column a block sets.
pub type FixedId = Id<FixedColumn>;

impl<K> Id<K> {
    /// The id `name` (index 0).
    pub const fn new(name: &'static str) -> Self {
        Self {
            name,
            index: 0,
            kind: PhantomData,
        }
    }

    /// Member `index` of the family `self.name`.
    pub const fn at(self, index: usize) -> Self {
        Self {
            name: self.name,
            index,
            kind: PhantomData,
        }
    }
}

impl<K> Clone for Id<K> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<K> Copy for Id<K> {}

impl<K> PartialEq for Id<K> {
    fn eq(&self, o: &Self) -> bool {
        (self.name, self.index) == (o.name, o.index)
    }
}

impl<K> Eq for Id<K> {}

impl<K> Hash for Id<K> {
    fn hash<H: Hasher>(&self, h: &mut H) {
        (self.name, self.index).hash(h)
    }
}

impl<K> fmt::Debug for Id<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}[{}]", self.name, self.index)
    }
}
