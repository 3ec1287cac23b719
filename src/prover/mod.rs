//! The prover side: KZG parameters now; keys, proofs and proof files arrive with the prover
//! issue (DESIGN §2, §5).

pub mod params;
