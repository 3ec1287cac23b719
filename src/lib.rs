pub mod calldata;
pub mod native;
