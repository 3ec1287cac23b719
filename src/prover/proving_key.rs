//! Proving and verifying keys: generation, their hash, and a cache on disk.
//!
//! A halo2 key is a function of the KZG parameters and of the circuit's *shape*: the
//! constraint system (columns, gates, lookups, permutation columns), the fixed columns and
//! selectors the layout fills, and the copy constraints. Witness values never enter it. The
//! cache is keyed by [`cache_key`]: a Keccak-256 of the circuit's [`AnyCircuit::fingerprint`]
//! (which covers all of that shape, computed from the layout itself, so a change in the
//! circuit code that moves one fixed value or copy gives another key), the parameters' `τ·G₂`
//! (which identifies the SRS) and the crate versions.
//!
//! Files, under `params/keys/` (see [`keys_dir`]): `<stem>.pk` (halo2's raw format, which
//! starts with the verifying key), `<stem>.vk`, and `<stem>.json` (the key, the SHA-256 of
//! both files, and the [`vk_hash`]). A cached key is used only when the metadata names the
//! expected cache key, the file hashes match (so a truncated or altered file is never handed
//! to halo2's reader, which panics on malformed polynomials) and the [`vk_hash`] of the key
//! read back equals the recorded one; otherwise it is generated again and the cache rewritten.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use batch_ecdsa_circuits::layout::{LayoutParams, Native};
use ff::PrimeField;
use group::GroupEncoding;
use halo2_proofs::halo2curves::bn256::{Bn256, G1Affine};
use halo2_proofs::plonk::{keygen_pk2, keygen_vk_custom, Circuit, ProvingKey, VerifyingKey};
use halo2_proofs::poly::commitment::Params;
use halo2_proofs::poly::kzg::commitment::ParamsKZG;
use halo2_proofs::SerdeFormat;
use serde::{Deserialize, Serialize};
use sha2::Digest;

use super::circuit::{AnyCircuit, CircuitVisitor};
use super::key_files::{check_file, read_pk, read_vk, write_pk_atomic, KEY_FORMAT};
use crate::fsutil::write_atomic;
use crate::native::hash::keccak256;

/// Errors of key generation and of the key cache.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    #[error("key generation failed: {0}")]
    Keygen(String),
    /// The layout check found a cell a gate reads that nothing pins (or one assigned and never
    /// constrained): no key is made for such a circuit.
    #[error("the circuit's layout check failed, no key is made: {0}")]
    Layout(String),
    #[error("cannot write key cache {path}: {reason}")]
    Write { path: String, reason: String },
}

/// The hash of a verifying key that proof files carry: Keccak-256 of halo2's transcript
/// representative of the key (itself a Blake2b hash of the pinned key: constraint system,
/// domain, fixed and permutation commitments) followed by the key's serialised bytes.
pub fn vk_hash(vk: &VerifyingKey<G1Affine>) -> [u8; 32] {
    let mut data = vk.transcript_repr().to_repr().as_ref().to_vec();
    data.extend_from_slice(&vk.to_bytes(SerdeFormat::Processed));
    keccak256(&data)
}

/// The cache key of the keys of `circuit` under `params` (see the module doc).
pub fn cache_key(params: &ParamsKZG<Bn256>, circuit: &AnyCircuit) -> [u8; 32] {
    let mut data = b"batch-ecdsa keys v1\n".to_vec();
    data.extend_from_slice(&circuit.fingerprint());
    data.extend_from_slice(&params.k().to_le_bytes());
    data.extend_from_slice(params.s_g2().to_bytes().as_ref());
    data.extend_from_slice(
        format!(
            "\nbatch-ecdsa {}\nhalo2-axiom 0.5\n",
            env!("CARGO_PKG_VERSION")
        )
        .as_bytes(),
    );
    keccak256(&data)
}

/// Where cached keys live under a params folder.
pub fn keys_dir(params_dir: &Path) -> PathBuf {
    params_dir.join("keys")
}

/// The file stem of a circuit's cached keys (`batch-b2-k14-…`; `batch-digest-b2-k15-…` under
/// the digest statement: the cache key tells them apart anyway, the name says it to a reader).
fn stem(dir: &Path, circuit: &AnyCircuit, key: &[u8; 32]) -> PathBuf {
    let statement = match circuit.statement() {
        batch_ecdsa_circuits::ecdsa::Statement::Keys => String::new(),
        s => format!("-{s}"),
    };
    dir.join(format!(
        "{}{statement}-b{}-k{}-{}",
        circuit.kind(),
        circuit.batch_size(),
        circuit.k(),
        &hex::encode(key)[..16]
    ))
}

/// The metadata file next to cached keys.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
struct KeyMeta {
    cache_key: String,
    circuit: String,
    batch_size: usize,
    k: u32,
    vk_hash: String,
    vk_sha256: String,
    /// Absent when only the verifying key is cached (written by `verify`).
    pk_sha256: Option<String>,
}

/// Where keys came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeySource {
    /// Read from the cache.
    Cache,
    /// Generated; `rejected` says why a cached key was not used (None when there was none).
    Generated { rejected: Option<String> },
}

/// Keys with their hash and how they were obtained.
#[derive(Debug)]
pub struct Keys {
    pub pk: ProvingKey<G1Affine>,
    pub vk_hash: [u8; 32],
    pub source: KeySource,
    /// Time to generate (or to read and check) the keys.
    pub elapsed: Duration,
    /// Size of the serialised proving key in bytes.
    pub pk_bytes: u64,
}

/// Selector compression: the gates' selectors share fixed columns where the degree allows,
/// so the proof carries fewer fixed evaluations. Both keygen paths use it, so the verifying
/// key of [`generate_vk`] is the one inside [`generate`]'s proving key.
const COMPRESS_SELECTORS: bool = true;

struct KeygenVk<'a>(&'a ParamsKZG<Bn256>);
impl CircuitVisitor<Result<VerifyingKey<G1Affine>, KeyError>> for KeygenVk<'_> {
    fn visit<C: Circuit<Native, Params = LayoutParams> + Clone>(
        self,
        circuit: &C,
    ) -> Result<VerifyingKey<G1Affine>, KeyError> {
        keygen_vk_custom(self.0, circuit, COMPRESS_SELECTORS)
            .map_err(|e| KeyError::Keygen(format!("vk: {e:?}")))
    }
}

/// Both keys from one layout of the circuit (halo2's `keygen_pk2`): `keygen_vk` then
/// `keygen_pk` lays the circuit out twice (its fixed columns, copies and selectors built
/// twice; the permutation polynomials are computed for each key either way), for the same
/// verifying key (`tests::one_synthesis_makes_the_same_verifying_key`).
struct KeygenPk<'a>(&'a ParamsKZG<Bn256>);
impl CircuitVisitor<Result<ProvingKey<G1Affine>, KeyError>> for KeygenPk<'_> {
    fn visit<C: Circuit<Native, Params = LayoutParams> + Clone>(
        self,
        circuit: &C,
    ) -> Result<ProvingKey<G1Affine>, KeyError> {
        keygen_pk2(self.0, circuit, COMPRESS_SELECTORS)
            .map_err(|e| KeyError::Keygen(format!("pk: {e:?}")))
    }
}

struct ReadPk<'a>(&'a Path);
impl CircuitVisitor<Result<ProvingKey<G1Affine>, String>> for ReadPk<'_> {
    fn visit<C: Circuit<Native, Params = LayoutParams> + Clone>(
        self,
        circuit: &C,
    ) -> Result<ProvingKey<G1Affine>, String> {
        read_pk::<C>(self.0, circuit.params())
    }
}

struct ReadVk<'a>(&'a [u8]);
impl CircuitVisitor<Result<VerifyingKey<G1Affine>, String>> for ReadVk<'_> {
    fn visit<C: Circuit<Native, Params = LayoutParams> + Clone>(
        self,
        circuit: &C,
    ) -> Result<VerifyingKey<G1Affine>, String> {
        read_vk::<C>(self.0, circuit.params())
    }
}

/// Generates the verifying key of `circuit` (no proving key).
pub fn generate_vk(
    params: &ParamsKZG<Bn256>,
    circuit: &AnyCircuit,
) -> Result<VerifyingKey<G1Affine>, KeyError> {
    circuit.with_circuit(KeygenVk(params))
}

/// Generates both keys of `circuit`, timed (the layout check, [`AnyCircuit::footprint`], runs
/// first and is timed with them).
pub fn generate(
    params: &ParamsKZG<Bn256>,
    circuit: &AnyCircuit,
) -> Result<(ProvingKey<G1Affine>, Duration), KeyError> {
    let start = Instant::now();
    circuit.footprint().map_err(KeyError::Layout)?;
    let pk = circuit.with_circuit(KeygenPk(params))?;
    Ok((pk, start.elapsed()))
}

fn read_meta(path: &Path) -> Result<KeyMeta, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("no metadata: {e}"))?;
    serde_json::from_str(&text).map_err(|e| format!("metadata is malformed: {e}"))
}

/// The cached proving key, if the cache holds a sound one; `Err` says why not.
fn load_cached_pk(
    stem: &Path,
    circuit: &AnyCircuit,
    key: &[u8; 32],
) -> Result<(ProvingKey<G1Affine>, [u8; 32], u64), String> {
    let meta = read_meta(&stem.with_extension("json"))?;
    if meta.cache_key != hex::encode(key) {
        return Err("metadata is for another circuit configuration".into());
    }
    let pk_sha = meta.pk_sha256.as_deref().ok_or("no proving key cached")?;
    let path = stem.with_extension("pk");
    check_file(&path, pk_sha)?;
    let pk = circuit.with_circuit(ReadPk(&path))?;
    let hash = vk_hash(pk.get_vk());
    if hex::encode(hash) != meta.vk_hash {
        return Err("the cached key's vk hash differs from the recorded one".into());
    }
    let len = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    Ok((pk, hash, len))
}

/// The cached verifying key, if the cache holds a sound one; `Err` says why not.
fn load_cached_vk(
    stem: &Path,
    circuit: &AnyCircuit,
    key: &[u8; 32],
) -> Result<(VerifyingKey<G1Affine>, [u8; 32]), String> {
    let meta = read_meta(&stem.with_extension("json"))?;
    if meta.cache_key != hex::encode(key) {
        return Err("metadata is for another circuit configuration".into());
    }
    let path = stem.with_extension("vk");
    check_file(&path, &meta.vk_sha256)?;
    let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let vk = circuit.with_circuit(ReadVk(&bytes))?;
    let hash = vk_hash(&vk);
    if hex::encode(hash) != meta.vk_hash {
        return Err("the cached key's vk hash differs from the recorded one".into());
    }
    Ok((vk, hash))
}

fn write_err(path: &Path, e: impl std::fmt::Display) -> KeyError {
    KeyError::Write {
        path: path.display().to_string(),
        reason: e.to_string(),
    }
}

/// Writes keys (pk optional) and their metadata; the metadata goes last, so a crash leaves
/// files the next load rejects.
fn store(
    stem: &Path,
    circuit: &AnyCircuit,
    key: &[u8; 32],
    vk: &VerifyingKey<G1Affine>,
    pk: Option<&ProvingKey<G1Affine>>,
) -> Result<u64, KeyError> {
    if let Some(dir) = stem.parent() {
        std::fs::create_dir_all(dir).map_err(|e| write_err(dir, e))?;
    }
    let vk_bytes = vk.to_bytes(KEY_FORMAT);
    let vk_path = stem.with_extension("vk");
    write_atomic(&vk_path, &vk_bytes).map_err(|e| write_err(&vk_path, e))?;
    let mut pk_len = 0;
    let pk_sha256 = match pk {
        Some(pk) => {
            let path = stem.with_extension("pk");
            let (hash, len) = write_pk_atomic(&path, pk).map_err(|e| write_err(&path, e))?;
            pk_len = len;
            Some(hex::encode(hash))
        }
        // A verifier caching only the vk keeps a cached pk of the same configuration listed
        // (its hash is still checked whenever it is read).
        None => read_meta(&stem.with_extension("json"))
            .ok()
            .filter(|m| m.cache_key == hex::encode(key))
            .and_then(|m| m.pk_sha256),
    };
    let meta = KeyMeta {
        cache_key: hex::encode(key),
        circuit: circuit.kind().to_string(),
        batch_size: circuit.batch_size(),
        k: circuit.k(),
        vk_hash: hex::encode(vk_hash(vk)),
        vk_sha256: hex::encode(sha2::Sha256::digest(&vk_bytes)),
        pk_sha256,
    };
    let meta_path = stem.with_extension("json");
    let text = serde_json::to_string_pretty(&meta).map_err(|e| write_err(&meta_path, e))?;
    write_atomic(&meta_path, text.as_bytes()).map_err(|e| write_err(&meta_path, e))?;
    Ok(pk_len)
}

/// The keys of `circuit`: from the cache under `keys_dir` when it holds sound ones, else
/// generated and cached there (see the module doc).
pub fn load_or_generate(
    params: &ParamsKZG<Bn256>,
    circuit: &AnyCircuit,
    keys_dir: &Path,
) -> Result<Keys, KeyError> {
    let start = Instant::now();
    let key = cache_key(params, circuit);
    let stem = stem(keys_dir, circuit, &key);
    let rejected = match load_cached_pk(&stem, circuit, &key) {
        Ok((pk, vk_hash, pk_bytes)) => {
            return Ok(Keys {
                pk,
                vk_hash,
                source: KeySource::Cache,
                elapsed: start.elapsed(),
                pk_bytes,
            })
        }
        Err(reason) if stem.with_extension("json").exists() => Some(reason),
        Err(_) => None,
    };
    generate_and_store(params, circuit, keys_dir, rejected)
}

/// Generates the keys of `circuit` (ignoring any cached ones) and writes them to the cache.
/// `elapsed` is the keygen time alone (not the writing).
pub fn generate_and_store(
    params: &ParamsKZG<Bn256>,
    circuit: &AnyCircuit,
    keys_dir: &Path,
    rejected: Option<String>,
) -> Result<Keys, KeyError> {
    let key = cache_key(params, circuit);
    let stem = stem(keys_dir, circuit, &key);
    let (pk, elapsed) = generate(params, circuit)?;
    let vk_hash = vk_hash(pk.get_vk());
    let pk_bytes = store(&stem, circuit, &key, pk.get_vk(), Some(&pk))?;
    Ok(Keys {
        pk,
        vk_hash,
        source: KeySource::Generated { rejected },
        elapsed,
        pk_bytes,
    })
}

/// The verifying key of `circuit`: cached (from a prover's keygen, checked) or generated
/// (without the proving key), never stored: verification writes nothing. Returns the key, its
/// hash and its source.
pub fn load_or_generate_vk(
    params: &ParamsKZG<Bn256>,
    circuit: &AnyCircuit,
    keys_dir: &Path,
) -> Result<(VerifyingKey<G1Affine>, [u8; 32], KeySource), KeyError> {
    let key = cache_key(params, circuit);
    let stem = stem(keys_dir, circuit, &key);
    let rejected = match load_cached_vk(&stem, circuit, &key) {
        Ok((vk, hash)) => return Ok((vk, hash, KeySource::Cache)),
        Err(reason) if stem.with_extension("json").exists() => Some(reason),
        Err(_) => None,
    };
    // Generated, not stored: a verifier of files anyone may send writes nothing (only a
    // prover's keygen fills the cache).
    let vk = generate_vk(params, circuit)?;
    let hash = vk_hash(&vk);
    Ok((vk, hash, KeySource::Generated { rejected }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prover::circuit::CircuitKind;
    use batch_ecdsa_circuits::ecdsa::Statement;
    use rand_chacha::rand_core::SeedableRng;

    /// [`generate`] makes both keys from one synthesis; its verifying key must be the one a
    /// verifier makes alone with [`generate_vk`] (a proof file names it by [`vk_hash`]), under
    /// both statements (the digest statement has the Keccak layer's fixed columns and lookups).
    /// Fails if the two paths disagree on selector compression or on anything else in the key.
    #[test]
    fn one_synthesis_makes_the_same_verifying_key() {
        for statement in [Statement::Keys, Statement::Digest] {
            let circuit =
                AnyCircuit::fitted_for_size(CircuitKind::Batch, 1, statement).expect("B = 1 fits");
            let params =
                ParamsKZG::<Bn256>::setup(circuit.k(), rand_chacha::ChaCha20Rng::seed_from_u64(11));
            let alone = generate_vk(&params, &circuit).expect("vk");
            let (pk, _) = generate(&params, &circuit).expect("pk");
            assert_eq!(
                vk_hash(pk.get_vk()),
                vk_hash(&alone),
                "{statement}: the proving key's verifying key differs"
            );
        }
    }
}
