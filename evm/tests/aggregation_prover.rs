//! The aggregation prototype (feature `aggregate`).
//!
//! `inner_proof_for_aggregation` is cheap (k = 14, seconds). `aggregated_verifier_fits_eip170`
//! runs the whole prototype for the digest statement at outer k = 22, the smallest whose
//! verifier fits EIP-170 for it (`results/aggregate-sweep.jsonl`: 29,097 bytes at k = 21): it
//! needs the k = 22 local setup (generated once into `params/`, 512 MiB), about 20
//! minutes on 2 cores (keygen 6, proof 13) and 17 GiB of memory, so it is ignored by default:
//! `cargo test --release -p batch-ecdsa-evm --features aggregate --test aggregation_prover -- --ignored`.
#![cfg(feature = "aggregate")]

use std::path::PathBuf;

use batch_ecdsa::prover::phases::Phases;
use batch_ecdsa::prover::proving_key::KeySource;
use batch_ecdsa::prover::srs::{SetupKind, SetupSource};
use batch_ecdsa_circuits::ecdsa::{Statement, DIGEST_INSTANCE_CELLS};
use batch_ecdsa_evm::aggregation_prover::{
    inner_snark, load_setup, measure_aggregation, outer_memory_floor, OuterShape, ACCUMULATOR_LIMBS,
};
use batch_ecdsa_evm::outer_keys::outer_cache_key;
use batch_ecdsa_evm::solc::Solc;
use batch_ecdsa_evm::EIP170_CODE_LIMIT;

fn params_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../params")
}

fn scratch() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("aggregate-params")
}

/// One setup for both circuits, of the kind asked for; the fixed-seed params are refused
/// unless asked for, also when given as a ceremony file.
#[test]
fn the_inner_and_outer_params_are_one_setup() {
    let dir = scratch();
    let (inner, outer) = load_setup(&SetupSource::Local, &dir, 5, 7).unwrap();
    assert_eq!(inner.identity.tau_g2, outer.identity.tau_g2);
    assert_eq!(outer.identity.kind, SetupKind::Local);
    assert!(
        load_setup(&SetupSource::Local, &dir, 8, 7).is_err(),
        "inner k > outer k"
    );
    let (_, dev) = load_setup(&SetupSource::InsecureDev, &dir, 5, 7).unwrap();
    assert_eq!(dev.identity.kind, SetupKind::InsecureDev);
    let Err(e) = load_setup(&SetupSource::Ceremony(dev.path.clone()), &dir, 5, 7) else {
        panic!("the fixed-seed params given as a ceremony file were accepted");
    };
    assert!(e.contains("--insecure-dev-setup"), "{e}");
}

/// An outer k whose proof needs more memory than this machine has is refused before any params
/// are read or made, with the figure; the floor stays below the peaks measured.
#[test]
fn outer_k_beyond_the_machine_is_refused_first() {
    let gib = |b: u64| b as f64 / f64::from(1u32 << 30);
    assert!(gib(outer_memory_floor(21)) <= 7.9 && gib(outer_memory_floor(22)) <= 16.8);
    assert_eq!(outer_memory_floor(23), 2 * outer_memory_floor(22));
    let dir = scratch().join("memory");
    let Err(e) = load_setup(&SetupSource::Local, &dir, 14, 40) else {
        panic!("outer k = 40 accepted");
    };
    assert!(
        e.contains("not enough memory: proving at k = 40 needs at least"),
        "{e}"
    );
    assert!(!dir.exists(), "params made before the refusal");
}

/// The inner proof for the aggregation circuit, in snark-verifier's Poseidon transcript, with
/// keys made once: a second batch of the same statement and size reads them from the prover's
/// key cache, and its protocol (what the outer circuit and its cached keys are made for) is the
/// first one's, while another statement's is not.
#[test]
fn inner_proof_for_aggregation() {
    let keys_dir = scratch().join("inner-keys");
    let _ = std::fs::remove_dir_all(&keys_dir);
    let (inner_srs, outer_srs) = load_setup(&SetupSource::Local, &scratch(), 14, 15).unwrap();
    let shape = OuterShape {
        k: 15,
        lookup_bits: 14,
    };
    let outer_key = |inner: &batch_ecdsa_evm::aggregation_prover::Inner, shape| {
        outer_cache_key(&outer_srs.params, &inner.snark, shape).unwrap()
    };
    let mut protocols = Vec::new();
    let mut outer_keys = Vec::new();
    for (statement, n) in [
        (
            Statement::Keys,
            batch_ecdsa_circuits::ecdsa::INSTANCE_CELLS_PER_SIGNATURE,
        ),
        (Statement::Digest, DIGEST_INSTANCE_CELLS),
    ] {
        // `inner_snark` asserts the proof verifies natively in the Poseidon transcript.
        let prove = || {
            inner_snark(
                1,
                statement,
                &inner_srs.params,
                &keys_dir,
                &mut Phases::silent(),
            )
        };
        let first = prove().unwrap();
        assert_eq!(first.k, 14, "{statement}");
        assert_eq!(first.snark.instances.len(), 1, "one instance column");
        assert_eq!(first.snark.instances[0].len(), n, "{statement}");
        assert_eq!(first.snark.protocol.num_instance, vec![n]);
        assert_eq!(
            first.keys_source,
            KeySource::Generated { rejected: None },
            "{statement}"
        );
        let second = prove().unwrap();
        assert_eq!(second.keys_source, KeySource::Cache, "{statement}");
        let json = |s: &batch_ecdsa_evm::aggregation_prover::Inner| {
            serde_json::to_string(&s.snark.protocol).unwrap()
        };
        assert_eq!(json(&first), json(&second), "{statement}");
        protocols.push(json(&first));
        // The outer keys of the first batch serve the second (another batch of the same
        // statement and B), never another outer shape.
        assert_eq!(outer_key(&first, shape), outer_key(&second, shape));
        let other = OuterShape {
            lookup_bits: 13,
            ..shape
        };
        assert_ne!(outer_key(&first, shape), outer_key(&first, other));
        outer_keys.push(outer_key(&first, shape));
    }
    assert_ne!(
        protocols[0], protocols[1],
        "keys and digest share a protocol"
    );
    assert_ne!(
        outer_keys[0], outer_keys[1],
        "keys and digest share outer keys"
    );
}

#[test]
#[ignore = "about 20 minutes and 17 GiB on 2 cores: run with --ignored"]
fn aggregated_verifier_fits_eip170() {
    let solc = Solc::locate_or_install().unwrap();
    let shape = OuterShape {
        k: 22,
        lookup_bits: 21,
    };
    // Checks inside: honest calldata accepted, a flipped proof byte and a changed inner
    // public input rejected.
    let m = measure_aggregation(
        1,
        Statement::Digest,
        shape,
        &SetupSource::Local,
        &params_dir(),
        &solc,
        &|line| eprintln!("{line}"),
    )
    .unwrap();
    assert_eq!(m.setup.kind, SetupKind::Local);
    assert!(m.row.fits_eip170);
    assert!((m.row.runtime_code_bytes as usize) <= EIP170_CODE_LIMIT);
    assert_eq!(
        m.row.outer_public_inputs as usize,
        ACCUMULATOR_LIMBS + DIGEST_INSTANCE_CELLS
    );
}

/// `prove-aggregated --pad-to B` smaller than the batch, or with the keys statement (whose
/// folder records no pairs), is refused before any work: exit 2, nothing written.
#[test]
fn prove_aggregated_pad_to_is_checked_first() {
    let out = scratch().join("pad-to-refused");
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_prove-aggregated"))
            .args(args)
            .arg("--out-dir")
            .arg(&out)
            .output()
            .expect("runs")
    };
    for (args, expected) in [
        (
            &["--count", "3", "--pad-to", "2"][..],
            "--pad-to 2 is smaller than the batch (3 signatures)",
        ),
        (
            &["--count", "3", "--pad-to", "4", "--public", "keys"][..],
            "--pad-to is for the digest statement",
        ),
    ] {
        let o = run(args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(expected), "{args:?}: {err}");
        assert!(
            std::fs::read_dir(&out).map_or(true, |mut d| d.next().is_none()),
            "{args:?}: something was written"
        );
    }
}
