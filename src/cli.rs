//! Command-line arguments that `prove` and `verify` share.

use std::path::PathBuf;

use crate::batch_file::Policy;

/// A batch size flag: 1 to the largest batch any circuit proves
/// ([`batch_ecdsa_circuits::limits::largest_batch`]), refused before any work; the circuit's
/// own limit is checked when the circuit is known.
pub fn batch_size(s: &str) -> Result<usize, String> {
    let max = batch_ecdsa_circuits::limits::largest_batch();
    match s.parse::<usize>() {
        Ok(b) if (1..=max).contains(&b) => Ok(b),
        Ok(b) => Err(format!(
            "{b}: a batch holds at least 1 and at most {max} signatures (the sizes this build proves)"
        )),
        Err(e) => Err(e.to_string()),
    }
}

/// The signature policy and the KZG setup, as `prove` and `verify` take them.
#[derive(clap::Args, Debug, Clone)]
pub struct SetupArgs {
    /// Reject high s (s > n/2), as Ethereum does since EIP-2.
    #[arg(long)]
    pub low_s: bool,
    /// Folder of the cached params and keys (`prove` writes them, `verify` reads them).
    #[arg(long, default_value = "params")]
    pub params_dir: PathBuf,
    /// A ceremony file: a snarkjs .ptau (the Perpetual Powers of Tau) or halo2 raw params
    /// (PSE's / Axiom's `kzg_bn254_<k>.srs`), of any power at least the circuit's k (told apart
    /// by content; every point checked). Without it: the local setup cached in --params-dir
    /// (τ from this machine's randomness, never stored).
    #[arg(long, conflicts_with = "insecure_dev_setup")]
    pub params: Option<PathBuf>,
    /// Use (or accept) the fixed-seed development setup: its τ is public, so ANYONE CAN FORGE
    /// PROOFS under it. For reproducible test fixtures only.
    #[arg(long)]
    pub insecure_dev_setup: bool,
}

impl SetupArgs {
    /// The signature policy these arguments ask for.
    pub fn policy(&self) -> Policy {
        Policy { low_s: self.low_s }
    }

    /// The setup these arguments ask for: `--params FILE`, `--insecure-dev-setup`, or the
    /// local setup.
    pub fn source(&self) -> crate::prover::srs::SetupSource {
        crate::prover::srs::SetupSource::from_flags(self.params.as_deref(), self.insecure_dev_setup)
    }
}

/// Raw signed Ethereum transactions as the batch (`prove --txs`, `verify --native --txs`,
/// `verify --proof --txs`): the file, the chain's rules and the stripped output.
#[derive(clap::Args, Debug, Clone)]
pub struct TxArgs {
    /// Raw signed Ethereum transactions, one hex a line (`0x` optional; `#` comments) or a
    /// JSON array of hex strings; each becomes a batch record (signing hash, r, s, recovery
    /// id, recovered key, sender).
    #[arg(long, conflicts_with = "batch")]
    pub txs: Option<PathBuf>,
    /// The chain: a transaction signed for another chain id is invalid.
    #[arg(long, requires = "txs")]
    pub chain_id: Option<u64>,
    /// Reject legacy transactions without EIP-155 (v = 27/28: valid on every chain).
    #[arg(long, requires = "txs")]
    pub require_eip155: bool,
    /// Accept s > n/2 (Frontier-era transactions; Ethereum rejects them since EIP-2).
    #[arg(long, requires = "txs")]
    pub allow_high_s: bool,
    /// Write what a rollup posts instead of the signed transactions (unsigned transactions and
    /// senders, with the byte counts; docs/formats.md, *Stripped transactions*), atomically.
    #[arg(long, requires = "txs")]
    pub strip_out: Option<PathBuf>,
}

impl TxArgs {
    /// The chain's rules these arguments ask for.
    pub fn policy(&self) -> crate::txs::TxPolicy {
        crate::txs::TxPolicy {
            chain_id: self.chain_id,
            require_eip155: self.require_eip155,
            allow_high_s: self.allow_high_s,
            ..Default::default()
        }
    }
}

/// The batch a proving command takes (`prove`, `prove-aggregated`): a batch file, raw signed
/// transactions, or a deterministic demo batch.
#[derive(clap::Args, Debug, Clone)]
pub struct BatchArgs {
    /// The batch file (JSON, format in docs/formats.md, *Batch file*); without it (and without
    /// --txs) a demo batch is generated.
    #[arg(long, conflicts_with = "count")]
    pub batch: Option<PathBuf>,
    #[command(flatten)]
    pub txs: TxArgs,
    /// Size of the demo batch (at most the largest batch a proof file may name).
    #[arg(long, conflicts_with = "txs", value_parser = batch_size)]
    pub count: Option<usize>,
    /// Seed of the demo batch.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

impl BatchArgs {
    /// The batch: `txs` (the transactions of `--txs`, already loaded and checked by the
    /// caller), else the batch file, else the demo batch of `--count` (default
    /// `default_count`) signatures. On bad input prints every `error: ...` line on stderr and
    /// returns exit code 2.
    pub fn load(
        &self,
        txs: Option<&crate::txs::SignedTxs>,
        default_count: usize,
    ) -> Result<crate::batch_file::BatchFile, u8> {
        use crate::batch_file::BatchFile;
        let bad = |lines: Vec<String>| {
            for l in lines {
                eprintln!("error: {l}");
            }
            2u8
        };
        if let Some(t) = txs {
            eprintln!("{} signed transactions: all valid", t.records.len());
            return Ok(t.batch_file());
        }
        match &self.batch {
            Some(path) => BatchFile::load(path)
                .map_err(|errs| bad(errs.iter().map(|e| e.to_string()).collect())),
            None => {
                let count = self.count.unwrap_or(default_count);
                let records = crate::demo::demo_batch(count, self.seed, &[])
                    .map_err(|e| bad(vec![e.to_string()]))?;
                eprintln!("demo batch: {count} signatures from seed {}", self.seed);
                BatchFile::from_records(&records)
                    .map_err(|errs| bad(errs.iter().map(|e| e.to_string()).collect()))
            }
        }
    }
}

/// Reads and checks a transactions file. On failure prints every `error: transaction I:
/// <reason>` line (or the file's error) on stderr and returns the exit code: 2 when the file
/// or any transaction is malformed, 1 when all decode but some are invalid.
pub fn load_signed_txs(
    path: &std::path::Path,
    policy: &crate::txs::TxPolicy,
) -> Result<crate::txs::SignedTxs, u8> {
    let raw = crate::txs::file::load_txs_file(path).map_err(|errors| {
        for e in errors {
            eprintln!("error: {e}");
        }
        2u8
    })?;
    crate::txs::SignedTxs::decode(&raw, policy).map_err(|errors| {
        for e in &errors {
            eprintln!("error: {e}");
        }
        let code = crate::txs::exit_code(&errors);
        eprintln!(
            "error: {} of {} transactions {}; nothing is proved or written",
            errors.len(),
            raw.len(),
            if code == 2 { "rejected" } else { "invalid" }
        );
        code
    })
}

/// Prints a batch's byte counts (signed vs stripped, raw and compressed) on stdout.
pub fn print_byte_counts(b: &crate::txs::strip::ByteCounts) {
    let pct = |x: u64, of: u64| 100.0 * (of as f64 - x as f64) / of as f64;
    println!("bytes for {} transactions   raw    zlib  brotli", b.count);
    for (name, s) in [
        ("signed (posted today)", b.signed),
        ("unsigned", b.unsigned),
        ("stripped (unsigned + senders)", b.stripped),
    ] {
        println!("  {name:<30} {:>6} {:>7} {:>7}", s.raw, s.zlib, s.brotli);
    }
    println!(
        "  saved by stripping             {:>5.1}% {:>6.1}% {:>6.1}%",
        pct(b.stripped.raw, b.signed.raw),
        pct(b.stripped.zlib, b.signed.zlib),
        pct(b.stripped.brotli, b.signed.brotli)
    );
}

/// Writes the stripped file of `txs` to `path` (atomically) and prints the byte counts.
/// Returns the exit code on failure (2).
pub fn write_stripped(txs: &crate::txs::SignedTxs, path: &std::path::Path) -> Result<(), u8> {
    let file = txs.stripped();
    file.save(path).map_err(|e| {
        eprintln!("error: cannot write {}: {e}", path.display());
        2u8
    })?;
    print_byte_counts(&file.bytes);
    println!("stripped transactions written to {}", path.display());
    Ok(())
}
