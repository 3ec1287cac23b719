//! Command-line arguments that `prove` and `verify` share.

use std::path::PathBuf;

use crate::batch_file::Policy;

/// The signature policy and the KZG setup, as `prove` and `verify` take them.
#[derive(clap::Args, Debug, Clone)]
pub struct SetupArgs {
    /// Reject high s (s > n/2), as Ethereum does since EIP-2.
    #[arg(long)]
    pub low_s: bool,
    /// Folder of the cached params and keys (`prove` writes them, `verify` reads them).
    #[arg(long, default_value = "params")]
    pub params_dir: PathBuf,
    /// A KZG params file in halo2's raw format (e.g. from a ceremony), of any k at least the
    /// circuit's; without it the INSECURE development setup in --params-dir is used.
    #[arg(long)]
    pub params: Option<PathBuf>,
}

impl SetupArgs {
    /// The signature policy these arguments ask for.
    pub fn policy(&self) -> Policy {
        Policy { low_s: self.low_s }
    }
}
