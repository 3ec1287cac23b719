//! The generic proving-key cache (`batch_ecdsa::prover::key_files`), on a toy circuit whose
//! configuration (its number of advice columns) is a circuit parameter, as the aggregation
//! circuit's is: a key is read back only with the configuration it was made for, and every
//! altered file, metadata field or cache key is refused with its reason and the key made again.

use std::path::{Path, PathBuf};

use batch_ecdsa::prover::key_files::{load_or_generate, CachedKey};
use batch_ecdsa::prover::proving_key::{vk_hash, KeySource};
use halo2_proofs::circuit::{Layouter, SimpleFloorPlanner, Value};
use halo2_proofs::halo2curves::bn256::{Bn256, Fr, G1Affine};
use halo2_proofs::plonk::{
    keygen_pk, keygen_vk, Advice, Circuit, Column, ConstraintSystem, Error, ProvingKey, Selector,
};
use halo2_proofs::poly::kzg::commitment::ParamsKZG;
use halo2_proofs::poly::Rotation;
use rand_chacha::rand_core::SeedableRng;
use serde::{Deserialize, Serialize};

/// The toy circuit's configuration: how many advice columns, each squared into the next.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
struct Toy {
    columns: usize,
}

#[derive(Clone)]
struct ToyConfig {
    advice: Vec<Column<Advice>>,
    q: Selector,
}

#[derive(Clone, Default)]
struct ToyCircuit(Toy);

impl Circuit<Fr> for ToyCircuit {
    type Config = ToyConfig;
    type FloorPlanner = SimpleFloorPlanner;
    type Params = Toy;

    fn without_witnesses(&self) -> Self {
        self.clone()
    }
    fn params(&self) -> Toy {
        self.0
    }
    fn configure_with_params(meta: &mut ConstraintSystem<Fr>, p: Toy) -> ToyConfig {
        let advice: Vec<_> = (0..p.columns).map(|_| meta.advice_column()).collect();
        let q = meta.selector();
        for w in advice.windows(2) {
            let (a, b) = (w[0], w[1]);
            meta.create_gate("square", |m| {
                let q = m.query_selector(q);
                let a = m.query_advice(a, Rotation::cur());
                let b = m.query_advice(b, Rotation::cur());
                vec![q * (a.clone() * a - b)]
            });
        }
        ToyConfig { advice, q }
    }
    fn configure(_: &mut ConstraintSystem<Fr>) -> ToyConfig {
        unreachable!("configured with its parameters")
    }
    fn synthesize(&self, config: ToyConfig, mut layouter: impl Layouter<Fr>) -> Result<(), Error> {
        layouter.assign_region(
            || "squares",
            |mut region| {
                config.q.enable(&mut region, 0)?;
                let mut v = Fr::from(3);
                for &col in &config.advice {
                    region.assign_advice(col, 0, Value::known(v));
                    v = v * v;
                }
                Ok(())
            },
        )
    }
}

fn params() -> ParamsKZG<Bn256> {
    ParamsKZG::setup(4, rand_chacha::ChaCha20Rng::seed_from_u64(7))
}

fn keygen(params: &ParamsKZG<Bn256>, toy: Toy) -> ProvingKey<G1Affine> {
    let c = ToyCircuit(toy);
    let vk = keygen_vk(params, &c).unwrap();
    keygen_pk(params, vk, &c).unwrap()
}

fn dir(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("key-files")
        .join(name);
    let _ = std::fs::remove_dir_all(&d);
    d
}

type Loaded = CachedKey<Toy, Vec<Vec<usize>>>;

/// Loads (or makes, counting the calls) the toy key for `toy` at `stem` under `key`.
fn load(
    stem: &Path,
    key: [u8; 32],
    toy: Toy,
    params: &ParamsKZG<Bn256>,
    made: &mut usize,
) -> Loaded {
    load_or_generate::<ToyCircuit, Vec<Vec<usize>>>(stem, &key, || {
        *made += 1;
        Ok((keygen(params, toy), toy, vec![vec![1, 2], vec![]]))
    })
    .unwrap()
}

fn rejected(k: &Loaded) -> String {
    match &k.source {
        KeySource::Generated {
            rejected: Some(reason),
        } => reason.clone(),
        other => panic!("expected a rejected cache, got {other:?}"),
    }
}

#[test]
fn a_cached_key_round_trips_with_its_configuration() {
    let params = params();
    let stem = dir("round-trip").join("toy");
    let toy = Toy { columns: 3 };
    let mut made = 0;
    let first = load(&stem, [1; 32], toy, &params, &mut made);
    assert_eq!(first.source, KeySource::Generated { rejected: None });
    let second = load(&stem, [1; 32], toy, &params, &mut made);
    assert_eq!(made, 1, "the second load generated again");
    assert_eq!(second.source, KeySource::Cache);
    assert_eq!(second.config, toy);
    assert_eq!(second.extra, vec![vec![1, 2], vec![]]);
    assert_eq!(second.vk_hash, first.vk_hash);
    assert_eq!(vk_hash(second.pk.get_vk()), vk_hash(first.pk.get_vk()));
    assert!(second.pk_bytes > 0);
}

#[test]
fn another_cache_key_is_refused() {
    let params = params();
    let stem = dir("other-key").join("toy");
    let toy = Toy { columns: 2 };
    let mut made = 0;
    load(&stem, [1; 32], toy, &params, &mut made);
    let again = load(&stem, [2; 32], toy, &params, &mut made);
    assert_eq!(made, 2);
    assert!(rejected(&again).contains("another circuit configuration"));
}

/// Edits a cached file (`ext`) in place.
fn edit(stem: &Path, ext: &str, f: impl FnOnce(&mut Vec<u8>)) {
    let path = stem.with_extension(ext);
    let mut bytes = std::fs::read(&path).unwrap();
    f(&mut bytes);
    std::fs::write(&path, bytes).unwrap();
}

/// Rewrites one field of the metadata.
fn edit_meta(stem: &Path, f: impl FnOnce(&mut serde_json::Value)) {
    edit(stem, "json", |bytes| {
        let mut v: serde_json::Value = serde_json::from_slice(bytes).unwrap();
        f(&mut v);
        *bytes = serde_json::to_vec(&v).unwrap();
    });
}

fn sha256_hex(path: &Path) -> String {
    hex::encode(batch_ecdsa::prover::key_files::file_sha256(path).unwrap())
}

#[test]
fn every_altered_cache_file_is_refused_and_the_key_made_again() {
    let params = params();
    let toy = Toy { columns: 3 };
    type Tamper = (&'static str, fn(&Path), &'static str);
    let cases: [Tamper; 6] = [
        (
            "a flipped key byte",
            |s| edit(s, "pk", |b| b[100] ^= 1),
            "is corrupted",
        ),
        (
            "a truncated key, its hash updated",
            |s| {
                edit(s, "pk", |b| b.truncate(b.len() / 2));
                let sha = sha256_hex(&s.with_extension("pk"));
                edit_meta(s, |m| m["pk_sha256"] = sha.into());
            },
            "does not parse",
        ),
        (
            "another vk hash recorded",
            |s| edit_meta(s, |m| m["vk_hash"] = hex::encode([0u8; 32]).into()),
            "vk hash differs",
        ),
        (
            "another configuration recorded",
            |s| edit_meta(s, |m| m["config"]["columns"] = 4.into()),
            // Read as a 4-column circuit, the key runs out of bytes or hashes otherwise.
            "the",
        ),
        (
            "an unknown metadata field",
            |s| edit_meta(s, |m| m["trusted"] = true.into()),
            "metadata is malformed",
        ),
        (
            "the key file removed",
            |s| std::fs::remove_file(s.with_extension("pk")).unwrap(),
            "toy.pk",
        ),
    ];
    for (name, tamper, reason) in cases {
        let stem = dir(&name.replace(' ', "-")).join("toy");
        let mut made = 0;
        let honest = load(&stem, [9; 32], toy, &params, &mut made);
        tamper(&stem);
        let again = load(&stem, [9; 32], toy, &params, &mut made);
        assert_eq!(made, 2, "{name}: the altered cache was used");
        let why = rejected(&again);
        assert!(why.contains(reason), "{name}: {why}");
        if name == "another configuration recorded" {
            assert!(
                why.contains("does not parse") || why.contains("vk hash differs"),
                "{name}: {why}"
            );
        }
        assert_eq!(again.vk_hash, honest.vk_hash, "{name}");
        // The cache was rewritten: the next load reads it.
        let third = load(&stem, [9; 32], toy, &params, &mut made);
        assert_eq!((made, third.source), (2, KeySource::Cache), "{name}");
    }
}

/// A failed keygen writes nothing.
#[test]
fn a_failed_keygen_writes_nothing() {
    let stem = dir("failed").join("toy");
    let r = load_or_generate::<ToyCircuit, ()>(&stem, &[3; 32], || Err("no memory".into()));
    let Err(e) = r else {
        panic!("a failed keygen was accepted")
    };
    assert!(e.to_string().contains("no memory"), "{e}");
    assert!(!stem.with_extension("json").exists() && !stem.with_extension("pk").exists());
}
