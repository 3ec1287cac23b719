//! Native (out-of-circuit) secp256k1 arithmetic.

pub mod batch;
pub mod msm;
