//! Decomposition of a canonical element into w-bit windows (for the MSM) or bits.

use ff::PrimeField;

use super::chip::{FieldChip, PROPER_BITS};
use super::params::{to_limbs, LIMB_BITS, NUM_LIMBS};
use super::types::Reduced;
use crate::layout::{AssignedValue, Builder};
use crate::range::Chunking;

impl<P: PrimeField> FieldChip<P> {
    /// The `w`-bit windows of a canonical `x`, least significant first (`⌈256 / w⌉` of them).
    ///
    /// Each limb is decomposed on its own (range rows with the `w`-bit table section, running
    /// sum starting from a copy of the limb), which is exact because `w` divides 88 and 80: the
    /// windows of limb i are windows `88·i/w ..` of the 256-bit integer. Every window is looked
    /// up in `[0, 2^w)` and the rows prove `limb = Σ window_j·2^(w j)`, so the windows are the
    /// unique base-2^w digits of `x`. Panics (construction error) if `w` does not divide 88 and
    /// 80 or has no table section.
    #[allow(clippy::manual_is_multiple_of)] // keeps the crate buildable before Rust 1.87
    pub fn to_windows(&self, b: &mut Builder, x: &Reduced<P>, w: u32) -> Vec<AssignedValue> {
        assert!(
            LIMB_BITS % w == 0 && PROPER_BITS[NUM_LIMBS - 1] % w == 0,
            "window size must divide 88 and 80"
        );
        let tag = self
            .range
            .params
            .window_tag(w)
            .unwrap_or_else(|| panic!("no table section for {w}-bit windows"));
        let vals = to_limbs(&x.inner.value);
        let mut out = Vec::new();
        for i in 0..NUM_LIMBS {
            let rr = self
                .range
                .copyable_rows(b, &vals[i], Chunking::new(PROPER_BITS[i], w, tag));
            b.constrain_equal(&x.inner.limbs[i], &rr.x);
            out.extend(rr.chunks);
        }
        out
    }

    /// The 256 bits of a canonical `x`, least significant first (1-bit windows).
    pub fn to_bits(&self, b: &mut Builder, x: &Reduced<P>) -> Vec<AssignedValue> {
        self.to_windows(b, x, 1)
    }
}
