//! The EVM bench: for the batch circuit at B = 1, 2, 4, 8, 16, 32 and the naive circuit at
//! B = 1, 2 under the keys statement (3 public inputs a signature), or the
//! `circuit:B[:statement]` list given (statement `digest`: 2 public inputs in all) (e.g. `batch:1,naive:2,batch:4:digest`; keys when no
//! statement), proves the demo batch with the EVM transcript, generates and compiles the
//! verifier, deploys it in revm and verifies: gas (with and without 21,000 and the calldata),
//! deployment gas, code size against EIP-170, proof and calldata bytes; then the `ecrecover`
//! loop a proof replaces (N = 1 and 64). Writes `results/evm.json` (rows the `calldata`
//! calculator reads; it uses the keys rows), `results/ecrecover.json` and `results/evm.md` (the
//! README table).
//!
//! Run: `cargo bench -p batch-ecdsa-evm --bench evm_gas [-- LIST [--merge]]` (a LIST only
//! prints, unless `--merge`: its rows then replace those of the same circuit, statement and B
//! in results/evm.json, or join them, and evm.md is rewritten from all rows; the full default
//! run writes results/; needs solc-js: `npm ci --prefix evm/solc`). Params and keys are cached
//! in `params/`.

use std::fmt::Write;
use std::path::Path;
use std::time::Instant;

use batch_ecdsa::prover::circuit::CircuitKind;
use batch_ecdsa_circuits::ecdsa::Statement;
use batch_ecdsa_evm::measure::{measure, EvmRow};
use batch_ecdsa_evm::solc::Solc;
use batch_ecdsa_evm::EIP170_CODE_LIMIT;

/// Keys rows only: the digest verifiers (`batch:B:digest`) do not compile with solc-js 0.8.19
/// yet (it crashes on their 1.3 MB of Solidity; docs/results.md, *Verified on Ethereum*), and a failing
/// row stops the run.
const DEFAULT: &str = "batch:1,batch:2,batch:4,batch:8,batch:16,batch:32,naive:1,naive:2";

fn parse(list: &str) -> Result<Vec<(CircuitKind, usize, Statement)>, String> {
    list.split(',')
        .map(|item| {
            let mut parts = item.split(':');
            let (Some(kind), Some(b)) = (parts.next(), parts.next()) else {
                return Err(format!("{item:?}: expected circuit:B[:statement]"));
            };
            let kind: CircuitKind = kind.parse().map_err(|e| format!("{e}"))?;
            let b: usize = b
                .parse()
                .map_err(|_| format!("{item:?}: B is not a number"))?;
            let statement = match parts.next() {
                None => Statement::Keys,
                Some(s) => s.parse().map_err(|e| format!("{item:?}: {e}"))?,
            };
            if parts.next().is_some() {
                return Err(format!("{item:?}: expected circuit:B[:statement]"));
            }
            Ok((kind, b, statement))
        })
        .collect()
}

/// The statement a row names (`keys` when absent: rows from before the digest).
fn statement_of(r: &EvmRow) -> &str {
    r.statement.as_deref().unwrap_or("keys")
}

/// `old` with every row of `new` replacing the row of the same circuit, statement and B, or
/// appended when there is none.
fn merged(mut old: Vec<EvmRow>, new: Vec<EvmRow>) -> Vec<EvmRow> {
    for row in new {
        let same = |r: &EvmRow| {
            r.circuit == row.circuit
                && r.batch_size == row.batch_size
                && statement_of(r) == statement_of(&row)
        };
        match old.iter().position(same) {
            Some(i) => old[i] = row,
            None => old.push(row),
        }
    }
    old
}

fn thousands(n: u64) -> String {
    batch_ecdsa::calldata::units::thousands(n)
}

fn table(rows: &[EvmRow]) -> String {
    let mut out = String::from(
        "| circuit | statement | B | k | public inputs | proof (EVM / Blake2b bytes) \
         | calldata (bytes) | verify gas (tx) | verify gas (execution) | deploy gas \
         | runtime code (bytes) | fits EIP-170 |\n\
         | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n",
    );
    for r in rows {
        let opt = |v: Option<u64>| v.map_or("—".to_string(), thousands);
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} / {} | {} | {} | {} | {} | {} | {} |",
            r.circuit,
            statement_of(r),
            r.batch_size,
            r.k.map_or("—".to_string(), |k| k.to_string()),
            r.public_inputs,
            thousands(r.proof_bytes),
            opt(r.proof_bytes_blake2b),
            thousands(r.calldata_bytes()),
            opt(r.verify_gas),
            thousands(r.verify_gas_execution),
            opt(r.deploy_gas),
            opt(r.runtime_code_bytes),
            if r.fits_eip170 == Some(true) {
                "yes"
            } else {
                "**no**"
            }
        );
    }
    let _ = writeln!(
        out,
        "\nEIP-170 limit: {} bytes of runtime code; rows marked **no** were deployed with the \
         limit lifted to measure them. Gas in revm (Prague rules); proofs of the deterministic \
         demo batches (seed 1). Statement `keys`: per signature h mod n and the key, 3 public \
         inputs each; `digest`: `D = keccak256(h₀ ‖ a₀ ‖ …)` of the raw signing hashes and \
         signer addresses as 2 public inputs (the contract computes D itself, not measured \
         here).",
        thousands(EIP170_CODE_LIMIT as u64)
    );
    out
}

fn main() {
    let given = std::env::args().skip(1).find(|a| a.contains(':'));
    let merge = std::env::args().any(|a| a == "--merge");
    // Only the full default run writes results/ as it is: the calculator embeds
    // results/evm.json and takes its largest batch row as its default, so a partial run must
    // not replace it (`--merge` replaces only the rows it measured).
    let partial = given.is_some();
    let write_results = !partial || merge;
    let list = given.unwrap_or_else(|| DEFAULT.to_string());
    let items = match parse(&list) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let solc = match Solc::locate_or_install() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut rows = Vec::new();
    for (kind, b, statement) in items {
        let t = Instant::now();
        match measure(kind, b, statement, &root.join("params"), &solc) {
            Ok(m) => {
                let r = &m.row;
                eprintln!(
                    "[{kind} {statement} B={b}] k = {}, verify {} gas ({} execution), code {} bytes, proof {} bytes ({:.0} s)",
                    r.k.unwrap_or(0),
                    r.verify_gas.unwrap_or(0),
                    r.verify_gas_execution,
                    r.runtime_code_bytes.unwrap_or(0),
                    r.proof_bytes,
                    t.elapsed().as_secs_f64()
                );
                rows.push(m.row);
            }
            Err(e) => {
                eprintln!("error: {e}");
                std::process::exit(1);
            }
        }
    }
    let ecrecover = match batch_ecdsa_evm::ecrecover::measure(&solc, 1, 64) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    let results = root.join("results");
    if merge && partial {
        let old: Vec<EvmRow> = match std::fs::read_to_string(results.join("evm.json"))
            .map_err(|e| e.to_string())
            .and_then(|t| serde_json::from_str(&t).map_err(|e| e.to_string()))
        {
            Ok(v) => v,
            Err(e) => {
                eprintln!("error: --merge: cannot read results/evm.json: {e}");
                std::process::exit(2);
            }
        };
        rows = merged(old, rows);
    }
    let json = serde_json::to_string_pretty(&rows).expect("rows serialize");
    let mut md = table(&rows);
    let _ = writeln!(
        md,
        "\nThe `ecrecover` path a proof replaces (N signatures on one digest, recovered in a \
         Solidity loop with a strictly increasing signer check; `evm/src/ecrecover.rs`): \
         {} execution gas per signature ({} of them the precompile, {} the loop), plus {} \
         for the call; {} calldata bytes per signature (measured at N = {} and {}).",
        thousands(ecrecover.per_signature_execution),
        thousands(batch_ecdsa_evm::ecrecover::ECRECOVER_GAS),
        thousands(ecrecover.loop_overhead),
        thousands(ecrecover.base_execution),
        ecrecover.calldata_bytes_per_signature,
        ecrecover.n[0],
        ecrecover.n[1]
    );
    let ecrecover_json = serde_json::to_string_pretty(&ecrecover).expect("serializes");
    // The calculator reads both files back (include_str!): check they parse as it reads them
    // (with the wrapper's committed measurement, which this bench does not write).
    if let Err(e) = batch_ecdsa::calldata::measured::Measured::parse(
        &json,
        &ecrecover_json,
        batch_ecdsa::calldata::wrapper_gas::WRAPPER_GAS_JSON,
    ) {
        eprintln!("error: the bench output does not parse as the calculator reads it: {e}");
        std::process::exit(1);
    }
    if !write_results {
        print!("{md}");
        eprintln!("(a partial list: results/ left as it is)");
        return;
    }
    for (name, text) in [
        ("evm.json", json + "\n"),
        ("evm.md", md.clone()),
        ("ecrecover.json", ecrecover_json + "\n"),
    ] {
        if let Err(e) = batch_ecdsa::fsutil::write_atomic(&results.join(name), text.as_bytes()) {
            eprintln!("error: cannot write results/{name}: {e}");
            std::process::exit(2);
        }
    }
    print!("{md}");
}
