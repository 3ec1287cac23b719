//! Proving keys on disk, for any halo2 circuit: written whole or not at all, hashed as they are
//! written, checked against their recorded SHA-256 before anything parses them, parsed without
//! a panic, and a cached key with its circuit's configuration and the caller's metadata
//! ([`load_or_generate`]).
//!
//! Two caches use this layer: the batch and naive circuits' keys ([`super::proving_key`]) and
//! the aggregation circuit's (`batch_ecdsa_evm::outer_keys`, feature `aggregate`).
//!
//! **What a cached key is checked against.** Its metadata must name the cache key the caller
//! computed from everything the key is a function of (the caller's duty: circuit shape,
//! parameters' `τ·G₂`, crate versions); the file's SHA-256 must be the recorded one (so a
//! truncated or altered file never reaches halo2's reader); the [`vk_hash`] of the key read back
//! must be the recorded one. A key failing any check is generated again and the cache
//! rewritten, and the reason is returned. The caller's metadata (`extra`) is stored as it was
//! given and read back unchecked: a caller that relies on it checks it against what it
//! recomputes (the outer keys compare the layout they record with the prover's). A cache is a speed-up, never a root of trust: a
//! verifier pins its own verifying key or contract (`docs/trusted-setup.md`), so a key altered
//! together with its metadata gives proofs that the pinned verifier refuses.

use std::path::Path;
use std::time::{Duration, Instant};

use halo2_proofs::halo2curves::bn256::G1Affine;
use halo2_proofs::plonk::{Circuit, ProvingKey, VerifyingKey};
use halo2_proofs::SerdeFormat;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use sha2::Digest;

use super::proving_key::{vk_hash, KeyError, KeySource};
use crate::fsutil::{read_text_bounded, write_atomic, write_atomic_with};
use batch_ecdsa_circuits::layout::Native;

/// The largest metadata file read (its break points and layout are a few kilobytes).
const META_LIMIT: u64 = 16 << 20;

/// Serialisation of cached keys: halo2's raw (Montgomery) form, the fastest to read back.
pub const KEY_FORMAT: SerdeFormat = SerdeFormat::RawBytes;

/// SHA-256 of a file, streamed (proving keys reach gigabytes at large k).
pub fn file_sha256(path: &Path) -> std::io::Result<[u8; 32]> {
    use std::io::Read;
    let mut file = std::fs::File::open(path)?;
    let mut hasher = sha2::Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(hasher.finalize().into())
}

/// Checks a cached file against its recorded SHA-256 before anything parses it.
pub fn check_file(path: &Path, sha256_hex: &str) -> Result<(), String> {
    let hash = file_sha256(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if hex::encode(hash) != sha256_hex {
        return Err(format!(
            "{} is corrupted (its hash differs from the recorded one)",
            path.display()
        ));
    }
    Ok(())
}

/// A writer that hashes what it writes.
struct HashingWriter<W: std::io::Write> {
    inner: W,
    hasher: sha2::Sha256,
    len: u64,
}

impl<W: std::io::Write> std::io::Write for HashingWriter<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hasher.update(&buf[..n]);
        self.len += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// Streams a proving key to `path` through a temporary file and a rename (never half
/// written); returns its SHA-256 and length.
pub fn write_pk_atomic(path: &Path, pk: &ProvingKey<G1Affine>) -> std::io::Result<([u8; 32], u64)> {
    use std::io::Write;
    write_atomic_with(path, |file| {
        let mut w = HashingWriter {
            inner: std::io::BufWriter::with_capacity(1 << 22, file),
            hasher: sha2::Sha256::new(),
            len: 0,
        };
        pk.write(&mut w, KEY_FORMAT)?;
        w.flush()?;
        let HashingWriter { hasher, len, .. } = w;
        Ok((hasher.finalize().into(), len))
    })
}

/// Reads the proving key of circuit type `C` configured by `params` from `path` (whose hash
/// the caller has checked). halo2's polynomial reader panics on short input; the panic is
/// caught and reported, for a file altered together with its recorded hash.
pub fn read_pk<C: Circuit<Native>>(
    path: &Path,
    params: C::Params,
) -> Result<ProvingKey<G1Affine>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut reader = std::io::BufReader::with_capacity(1 << 22, file);
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        ProvingKey::<G1Affine>::read::<_, C>(&mut reader, KEY_FORMAT, params)
    }))
    .map_err(|_| "the proving key does not parse".to_string())?
    .map_err(|e| format!("the proving key does not parse: {e}"))
}

/// Reads the verifying key of circuit type `C` configured by `params` from `bytes`, without a
/// panic (as [`read_pk`]).
pub fn read_vk<C: Circuit<Native>>(
    bytes: &[u8],
    params: C::Params,
) -> Result<VerifyingKey<G1Affine>, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        VerifyingKey::<G1Affine>::from_bytes::<C>(bytes, KEY_FORMAT, params)
    }))
    .map_err(|_| "the verifying key does not parse".to_string())?
    .map_err(|e| format!("the verifying key does not parse: {e}"))
}

/// The metadata beside a cached proving key (`<stem>.json`): what it was made for, the
/// circuit's configuration `P` (what halo2 needs to read the key back), the caller's `X`
/// (e.g. the thread break points a halo2-base circuit needs to prove), and the checks.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct CachedMeta<P, X> {
    cache_key: String,
    vk_hash: String,
    pk_sha256: String,
    config: P,
    extra: X,
}

/// A proving key from [`load_or_generate`], with the circuit configuration and the caller's
/// metadata it was stored with.
pub struct CachedKey<P, X> {
    pub pk: ProvingKey<G1Affine>,
    pub config: P,
    pub extra: X,
    pub vk_hash: [u8; 32],
    pub source: KeySource,
    /// Time to generate the key, or to read and check it.
    pub elapsed: Duration,
    /// Size of the serialised proving key in bytes (0 when it could not be stored).
    pub pk_bytes: u64,
    /// Why a generated key could not be stored (a full disk, a read-only folder): the key is
    /// still returned, so the work it took is not lost; the next run makes it again.
    pub not_stored: Option<String>,
}

fn load_cached<C, X>(stem: &Path, key: &[u8; 32]) -> Result<CachedKey<C::Params, X>, String>
where
    C: Circuit<Native>,
    C::Params: Serialize + DeserializeOwned + Clone,
    X: Serialize + DeserializeOwned,
{
    let start = Instant::now();
    let meta_path = stem.with_extension("json");
    let text =
        read_text_bounded(&meta_path, META_LIMIT).map_err(|e| format!("no metadata: {e}"))?;
    let meta: CachedMeta<C::Params, X> =
        serde_json::from_str(&text).map_err(|e| format!("metadata is malformed: {e}"))?;
    if meta.cache_key != hex::encode(key) {
        return Err("metadata is for another circuit configuration".into());
    }
    let path = stem.with_extension("pk");
    check_file(&path, &meta.pk_sha256)?;
    let pk = read_pk::<C>(&path, meta.config.clone())?;
    let hash = vk_hash(pk.get_vk());
    if hex::encode(hash) != meta.vk_hash {
        return Err("the cached key's vk hash differs from the recorded one".into());
    }
    let pk_bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    Ok(CachedKey {
        pk,
        config: meta.config,
        extra: meta.extra,
        vk_hash: hash,
        source: KeySource::Cache,
        elapsed: start.elapsed(),
        pk_bytes,
        not_stored: None,
    })
}

fn write_err(path: &Path, e: impl std::fmt::Display) -> KeyError {
    KeyError::Write {
        path: path.display().to_string(),
        reason: e.to_string(),
    }
}

/// Stores `pk` with its configuration and `extra` under `stem` (`.pk`, then `.json` last, so a
/// crash leaves files the next load rejects); returns the key's size in bytes.
fn store<P: Serialize, X: Serialize>(
    stem: &Path,
    key: &[u8; 32],
    pk: &ProvingKey<G1Affine>,
    config: &P,
    extra: &X,
) -> Result<u64, KeyError> {
    if let Some(dir) = stem.parent() {
        std::fs::create_dir_all(dir).map_err(|e| write_err(dir, e))?;
    }
    let path = stem.with_extension("pk");
    let (sha, len) = write_pk_atomic(&path, pk).map_err(|e| write_err(&path, e))?;
    let meta = CachedMeta {
        cache_key: hex::encode(key),
        vk_hash: hex::encode(vk_hash(pk.get_vk())),
        pk_sha256: hex::encode(sha),
        config,
        extra,
    };
    let meta_path = stem.with_extension("json");
    let text = serde_json::to_string_pretty(&meta).map_err(|e| write_err(&meta_path, e))?;
    write_atomic(&meta_path, text.as_bytes()).map_err(|e| write_err(&meta_path, e))?;
    Ok(len)
}

/// The proving key of circuit type `C` cached at `stem` under the cache key `key`: read and
/// checked (module doc) when the cache holds a sound one, else made by `generate` (which returns
/// the key, the circuit's configuration and the caller's metadata) and stored
/// ([`generate_and_store`]). `elapsed` is the read-and-check time, or `generate`'s alone.
pub fn load_or_generate<C, X>(
    stem: &Path,
    key: &[u8; 32],
    generate: impl FnOnce() -> Result<(ProvingKey<G1Affine>, C::Params, X), String>,
) -> Result<CachedKey<C::Params, X>, KeyError>
where
    C: Circuit<Native>,
    C::Params: Serialize + DeserializeOwned + Clone,
    X: Serialize + DeserializeOwned,
{
    let rejected = match load_cached::<C, X>(stem, key) {
        Ok(cached) => return Ok(cached),
        Err(reason) if stem.with_extension("json").exists() => Some(reason),
        Err(_) => None,
    };
    generate_and_store::<C, X>(stem, key, generate, rejected)
}

/// Makes the key with `generate` whatever the cache holds and stores it at `stem` (replacing
/// what was there); `rejected` says why the cached key was not used. A key that cannot be
/// stored is returned all the same, with the reason in [`CachedKey::not_stored`].
pub fn generate_and_store<C, X>(
    stem: &Path,
    key: &[u8; 32],
    generate: impl FnOnce() -> Result<(ProvingKey<G1Affine>, C::Params, X), String>,
    rejected: Option<String>,
) -> Result<CachedKey<C::Params, X>, KeyError>
where
    C: Circuit<Native>,
    C::Params: Serialize + DeserializeOwned + Clone,
    X: Serialize + DeserializeOwned,
{
    let start = Instant::now();
    let (pk, config, extra) = generate().map_err(KeyError::Keygen)?;
    let elapsed = start.elapsed();
    let (pk_bytes, not_stored) = match store(stem, key, &pk, &config, &extra) {
        Ok(len) => (len, None),
        Err(e) => (0, Some(e.to_string())),
    };
    Ok(CachedKey {
        vk_hash: vk_hash(pk.get_vk()),
        pk,
        config,
        extra,
        source: KeySource::Generated { rejected },
        elapsed,
        pk_bytes,
        not_stored,
    })
}
