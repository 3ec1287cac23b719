//! secp256k1 points on the non-native field chip: loading with an on-curve check, constants,
//! strict (incomplete) addition with a proven `x₁ ≠ x₂`, doubling, negation, selection,
//! table selection, fixed-base and variable-base scalar multiplication, and the
//! shared-doubling Straus multi-scalar multiplication used by the batch circuit.
//!
//! **The invariant.** Every [`AssignedPoint`] holds canonical coordinates (`Reduced<Fp>`, limbs
//! range-checked and `< p`) of an affine point **on the curve** `y² = x³ + 7`. Loaded points
//! prove it directly ([`EccChip::load_point`]); constants are checked natively when the circuit
//! is built (they are fixed cells); every other point is the output of `add_strict`, `double`,
//! `neg`, `select` or a table selection, whose constraints determine the output uniquely from
//! on-curve inputs (see each gadget), so the invariant holds by induction. secp256k1 has no
//! point with `y = 0` (its order n is odd, so there is no 2-torsion), hence the identity is never
//! represented and `double` never divides by zero.
//!
//! **Selections.** A table entry is chosen by a proven window digit: from a witness table by the
//! point-table lookup (`select_lookup`, used by the MSM) or the one-hot indicator block
//! (`select_from_table`), from a constant table by the one-hot block with the constants in fixed
//! columns (`select_constant`). The gates and why a wrong entry cannot pass are in [`gates`].
//!
//! **Offsets.** Multiplications never add the identity: accumulators start at the constant
//! point `A` and table entries are `C + d·P`, where `A` and `C` are nothing-up-my-sleeve points
//! (`Secp256k1::hash_to_curve` of fixed strings, see [`offsets`]); the accumulated offset is a
//! constant computed when the circuit is built and removed with one constant addition. An
//! intermediate addition with equal x coordinates makes the circuit unsatisfiable (its
//! `x₁ ≠ x₂` proof fails): a prover can only lose completeness that way, never soundness. For
//! honest points it needs a linear relation with known small coefficients between `A`, `C` and
//! the inputs, i.e. a discrete logarithm of a hashed point.

pub mod gates;
mod mul;
mod point;
mod table;

pub use mul::{native_windows, offsets, scalar_windows, ScalarWindow};
pub use point::{AccPoint, AssignedPoint, EccChip};
pub use table::PointLookupTable;
