//! Range checks, decomposition and less-than on native cells, through the `(tag, value)` lookup
//! table (tag 0: `[0, 2^L)`, tag i: `[0, 2^w_i)` for configured window sizes).
//!
//! A *range row* is the one building block: column 0 holds a value `x`, the looked-up columns
//! hold chunks `d_j`, fixed columns hold their coefficients, and the gate
//! `x = Σ_j f_j·d_j + f_next·x[next row]` ties them; long values continue on the next rows
//! (running sum). A partial top chunk of `s < c` bits sits in lookup slot `K−2`. If the table
//! has a section for `s` bits (the field chip's sizes are configured by default), that slot's
//! lookup uses the tag `tag + ptag` of that section: one lookup proves `d < 2^s`. Otherwise its
//! shifted copy `d·2^(c−s)` goes in slot `K−1` with `shift·(d_(K−1) − shift·d_(K−2)) = 0`: both
//! are looked up, so `d < 2^c` and `d·2^(c−s) < 2^c` (no wrap: `2^(2c) < r`), hence `d < 2^s`.
//! On rows without a partial chunk `ptag = shift = 0`.

mod chip;
pub mod gates;

pub use chip::{AssignedBit, Chunking, RangeChecked, RangeChip, RangeRows};
