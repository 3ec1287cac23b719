//! Command-line options of the comparison bench (`cargo bench --bench compare -- [options]`).

use std::path::PathBuf;

use clap::Parser;

use super::record::CircuitKind;

/// Batch sizes laid out by default.
pub const DEFAULT_SIZES: &str = "1,2,4,8,16,32,64,128,256";

/// Options of the comparison. Every B in `--sizes` is laid out; those up to `--max-prove-b`
/// also get keys and proofs, `--runs` times each.
#[derive(Clone, Debug, Parser)]
#[command(
    name = "compare",
    args_override_self = true,
    about = "Naive vs batch ECDSA circuit: cells, keygen, proving, verification; writes results/"
)]
pub struct Options {
    /// Batch sizes B, comma-separated.
    #[arg(long, default_value = DEFAULT_SIZES, value_parser = parse_sizes)]
    pub sizes: Sizes,
    /// Prove (keygen, prove, verify) only the B up to this one; larger B are laid out only.
    #[arg(long, default_value_t = 32)]
    pub max_prove_b: usize,
    /// Repetitions of witness generation, keygen, proving and verification per proved B.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub runs: u32,
    /// Circuits, comma-separated: naive, batch.
    #[arg(long, default_value = "naive,batch", value_parser = parse_kinds)]
    pub kinds: Kinds,
    /// Lay the naive circuit out only up to this B; above it its cells are extrapolated
    /// (`shared + B·per`, exact for B independent verifications) to save time and memory.
    #[arg(long, default_value_t = 32)]
    pub naive_layout_max_b: usize,
    /// No keys and no proofs: cells only.
    #[arg(long)]
    pub cells_only: bool,
    /// Where `compare.md`, `compare.csv` and `compare.svg` go.
    #[arg(long, default_value = "results")]
    pub out: PathBuf,
    /// Where the KZG parameters are cached.
    #[arg(long, default_value = "params")]
    pub params_dir: PathBuf,
    /// Passed by `cargo bench`; ignored.
    #[arg(long, hide = true)]
    pub bench: bool,
}

/// Ascending, distinct batch sizes, each ≥ 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sizes(pub Vec<usize>);

/// Distinct circuit kinds, in the order naive, batch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kinds(pub Vec<CircuitKind>);

fn parse_sizes(s: &str) -> Result<Sizes, String> {
    let mut v = Vec::new();
    for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let b: usize = part
            .parse()
            .map_err(|_| format!("'{part}' is not a batch size"))?;
        if b == 0 {
            return Err("batch size 0: a batch has at least one signature".into());
        }
        v.push(b);
    }
    if v.is_empty() {
        return Err("no batch size given".into());
    }
    v.sort_unstable();
    v.dedup();
    Ok(Sizes(v))
}

fn parse_kinds(s: &str) -> Result<Kinds, String> {
    let mut v = Vec::new();
    for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        v.push(
            part.parse::<CircuitKind>()
                .map_err(|_| format!("unknown circuit '{part}' (naive or batch)"))?,
        );
    }
    if v.is_empty() {
        return Err("no circuit given".into());
    }
    v.sort_unstable();
    v.dedup();
    Ok(Kinds(v))
}

impl Options {
    /// Whether B gets keys and proofs.
    pub fn proves(&self, b: usize) -> bool {
        !self.cells_only && b <= self.max_prove_b
    }

    /// The command line that reproduces these options (for the results' header).
    pub fn command(&self) -> String {
        let list = |v: &[usize]| {
            v.iter()
                .map(|b| b.to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        let kinds: Vec<&str> = self.kinds.0.iter().map(|k| k.as_str()).collect();
        let mut s = format!(
            "cargo bench --bench compare -- --sizes {} --max-prove-b {} --runs {} --kinds {} \
             --naive-layout-max-b {}",
            list(&self.sizes.0),
            self.max_prove_b,
            self.runs,
            kinds.join(","),
            self.naive_layout_max_b
        );
        if self.cells_only {
            s += " --cells-only";
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Options, clap::Error> {
        Options::try_parse_from(std::iter::once("compare").chain(args.iter().copied()))
    }

    #[test]
    fn defaults() {
        let o = parse(&["--bench"]).expect("defaults");
        assert_eq!(o.sizes.0, vec![1, 2, 4, 8, 16, 32, 64, 128, 256]);
        assert_eq!(o.max_prove_b, 32);
        assert_eq!(o.runs, 1);
        assert_eq!(o.kinds.0, vec![CircuitKind::Naive, CircuitKind::Batch]);
        assert!(o.proves(32) && !o.proves(64));
        assert_eq!(o.out, PathBuf::from("results"));
    }

    #[test]
    fn lists_are_sorted_and_deduplicated() {
        let o = parse(&[
            "--sizes",
            "4, 1,2,4",
            "--kinds",
            "batch,naive,batch",
            "--runs",
            "3",
        ])
        .expect("valid");
        assert_eq!(o.sizes.0, vec![1, 2, 4]);
        assert_eq!(o.kinds.0, vec![CircuitKind::Naive, CircuitKind::Batch]);
        assert_eq!(o.runs, 3);
        let o = parse(&["--cells-only"]).expect("valid");
        assert!(!o.proves(1));
        // A later occurrence overrides an earlier one (results/repro.sh relies on it).
        let o = parse(&["--runs", "3", "--runs", "1"]).expect("override");
        assert_eq!(o.runs, 1);
    }

    #[test]
    fn bad_values_are_errors_naming_the_reason() {
        let e = parse(&["--sizes", "1,x"]).expect_err("bad size");
        assert!(e.to_string().contains("'x' is not a batch size"), "{e}");
        let e = parse(&["--sizes", "0"]).expect_err("zero");
        assert!(e.to_string().contains("batch size 0"), "{e}");
        let e = parse(&["--kinds", "groth16"]).expect_err("kind");
        assert!(e.to_string().contains("unknown circuit 'groth16'"), "{e}");
        assert!(parse(&["--runs", "0"]).is_err());
        assert!(parse(&["--sizes", ""]).is_err());
    }

    #[test]
    fn command_reproduces_the_options() {
        let o = parse(&["--sizes", "1,2", "--max-prove-b", "2", "--kinds", "batch"]).expect("ok");
        let cmd = o.command();
        let again: Vec<&str> = cmd
            .split_whitespace()
            .skip_while(|a| *a != "--")
            .skip(1)
            .collect();
        let o2 = parse(&again).expect("round trip");
        assert_eq!(o2.sizes, o.sizes);
        assert_eq!(o2.kinds, o.kinds);
        assert_eq!(o2.max_prove_b, 2);
    }
}
