//! The comparison of the naive and the batch circuit (`cargo bench --bench compare`): what is
//! measured ([`record`]), the cell counts from the layouts ([`cells`]), the statistics of
//! repeated runs ([`stats`]), the machine ([`machine`]), the options ([`options`]) and the
//! writers of `results/` ([`markdown`], [`csv`], [`svg`]); keys and proofs are timed through the
//! prover library ([`timing`]).

pub mod cells;
pub mod csv;
pub mod machine;
pub mod markdown;
pub mod options;
pub mod record;
pub mod stats;
pub mod svg;
pub mod timing;
