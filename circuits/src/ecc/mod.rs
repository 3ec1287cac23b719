//! secp256k1 points on the non-native field chip: loading with an on-curve check, constants,
//! strict (incomplete) addition with a proven `x₁ ≢ x₂`, chained additions, doubling,
//! negation, selection, window tables of odd multiples with selection by the point-table
//! lookup, and the shared-doubling Straus multi-scalar multiplication (fixed-base and
//! variable-base multiplication are special cases).
//!
//! **The invariant.** Every [`AssignedPoint`] holds canonical coordinates (`Reduced<Fp>`) of an
//! affine point on the curve `y² = x³ + 7`; every [`AccPoint`] holds coordinates of an on-curve
//! point *mod p* (x proper, `< 2^256`; y bounded). Loaded points prove it directly
//! ([`EccChip::load_point`]); constants are checked natively when the circuit is built (they
//! are fixed cells); every other point is the output of an addition, a doubling, a negation, a
//! selection or a table lookup, whose constraints determine the output uniquely mod p from
//! on-curve inputs (see each gadget), so the invariant holds by induction. secp256k1 has no
//! point with `y = 0` (its order n is odd, so there is no 2-torsion), hence the identity is never
//! represented and a doubling never divides by zero.
//!
//! **Selections.** A window entry is chosen by a proven digit from a table laid out for the
//! point-table lookup ([`EccChip::select_lookup`]); the gate and why a wrong entry cannot pass
//! are in [`gates`]. Tables hold the odd multiples `(2e − (2^w − 1))·P` (`table`; `2e − 15`
//! at w = 4), scalars are recoded into signed odd digits (`mul`), so no selection is ever the
//! identity.
//!
//! **Offsets.** Multiplications start from the constant point `A` (`Secp256k1::hash_to_curve`
//! of a fixed string, see [`mul::offset_point`]); the accumulated `2^(o_top)·A` is a constant
//! computed when the circuit is built and removed with one constant addition (or compared
//! against, by the batch circuit). An intermediate addition with equal x coordinates makes the
//! circuit unsatisfiable (its distinctness constraint fails): a prover can only lose completeness that
//! way, never soundness. For honest points it needs a linear relation with known small
//! coefficients between `A` and the inputs, i.e. a discrete logarithm of a hashed point.

pub mod gates;
mod mul;
mod point;
mod table;

pub(crate) use mul::assert_window;
pub use mul::{
    full_windows, odd_windows, odd_windows_short, windows_value, MsmTerm, ScalarWindow, WINDOW,
    WINDOWS,
};
pub use point::{AccPoint, AddWitness, AssignedPoint, EccChip};
pub use table::{odd_digit, PointLookupTable};
