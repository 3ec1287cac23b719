//! Where a proof's KZG parameters come from, and which: the **three kinds of setup**, never
//! confused.
//!
//! - [`SetupKind::Ceremony`]: powers of τ from a ceremony file ([`file`](mod@file): a snarkjs `.ptau`
//!   of the Perpetual Powers of Tau, or halo2 raw params such as PSE's / Axiom's
//!   `kzg_bn254_<k>.srs`), every point checked and the powers checked to be one τ's
//!   ([`check`]). A proof under it is sound unless every contributor to that ceremony
//!   colluded (one honest contributor suffices). **The only kind to deploy on Ethereum.**
//! - [`SetupKind::Local`]: the default when no file is given. τ is drawn from the operating
//!   system's randomness on this machine, used, and dropped (never written); the parameters
//!   are cached in the params folder. Nobody else can forge proofs under them, but whoever
//!   checks such a proof trusts the machine that made the setup: fine for a sequencer
//!   proving for itself and for the quick start, not for a bridge.
//! - [`SetupKind::InsecureDev`]: the fixed-seed development setup (`--insecure-dev-setup`),
//!   kept only for reproducible test fixtures: its τ is public, so **anyone can forge any
//!   proof** under it. Verifying commands refuse it unless asked, and every line they print
//!   about such a proof says INSECURE.
//!
//! A proof file, an aggregated folder and a generated verifier record a [`SetupIdentity`]:
//! the kind, the ceremony file's name, `keccak256([τ]₂)` (τ·G₂ determines τ: one hash names
//! the setup at every k) and `keccak256` of the G₁ powers used. The kind a verifier reports is
//! that of the parameters it loaded itself (from the user's flags), never a file's claim.

pub mod check;
pub mod file;

use std::path::{Path, PathBuf};

use halo2_proofs::halo2curves::bn256::{Bn256, G1Affine};
use halo2_proofs::halo2curves::serde::SerdeObject;
use halo2_proofs::poly::commitment::{Params, ParamsProver};
use halo2_proofs::poly::kzg::commitment::ParamsKZG;
use serde::{Deserialize, Serialize};
use sha3::{Digest, Keccak256};

use super::params::{self, ParamsError};
use crate::hexfmt::{decode_hex_fixed, encode_hex};

/// Which kind of setup (module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SetupKind {
    Ceremony,
    Local,
    InsecureDev,
}

impl SetupKind {
    /// The name files use: `ceremony`, `local`, `insecure-dev`.
    pub fn as_str(self) -> &'static str {
        match self {
            SetupKind::Ceremony => "ceremony",
            SetupKind::Local => "local",
            SetupKind::InsecureDev => "insecure-dev",
        }
    }

    /// Whether anyone can forge proofs under it.
    pub fn is_insecure(self) -> bool {
        self == SetupKind::InsecureDev
    }

    /// What it means for whoever checks a proof, in words.
    pub fn trust(self) -> &'static str {
        match self {
            SetupKind::Ceremony => "ceremony setup: sound unless every contributor to the ceremony colluded",
            SetupKind::Local => "local setup: its τ was drawn on the machine that made it and never stored; sound unless that machine kept it",
            SetupKind::InsecureDev => "INSECURE fixed-seed development setup: its τ is public and anyone can forge any proof under it",
        }
    }
}

impl std::fmt::Display for SetupKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for SetupKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "ceremony" => Ok(SetupKind::Ceremony),
            "local" => Ok(SetupKind::Local),
            "insecure-dev" => Ok(SetupKind::InsecureDev),
            other => Err(format!(
                "unknown setup kind {:?} (ceremony, local, insecure-dev)",
                crate::hexfmt::truncated(other)
            )),
        }
    }
}

impl Serialize for SetupKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for SetupKind {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// Which setup a proof was made under (module doc), as files record it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a setup: an object with kind, tau_g2, g1_powers and k"
)]
pub struct SetupIdentity {
    pub kind: SetupKind,
    /// The ceremony file's name (ceremony only; informational: the hashes identify it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// `keccak256` of `[τ]₂` in halo2's raw encoding, hex.
    pub tau_g2: String,
    /// `keccak256` of the `2^k` G₁ powers `τ^i·G₁` used (raw encoding, concatenated), hex.
    pub g1_powers: String,
    /// The k of those powers.
    pub k: u32,
}

impl SetupIdentity {
    /// The identity of `params` under `kind` (with the ceremony file's name).
    pub fn of(kind: SetupKind, file: Option<&Path>, params: &ParamsKZG<Bn256>) -> Self {
        Self {
            kind,
            file: file.map(|p| {
                p.file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_else(|| p.display().to_string())
            }),
            tau_g2: encode_hex(&tau_g2_hash(params)),
            g1_powers: encode_hex(&g1_powers_hash(params.get_g())),
            k: params.k(),
        }
    }

    /// `tau_g2` as bytes (checked form).
    pub fn tau_g2_bytes(&self) -> Result<[u8; 32], String> {
        decode_hex_fixed(&self.tau_g2).map_err(|e| format!("setup.tau_g2: {e}"))
    }

    /// `g1_powers` as bytes (checked form).
    pub fn g1_powers_bytes(&self) -> Result<[u8; 32], String> {
        decode_hex_fixed(&self.g1_powers).map_err(|e| format!("setup.g1_powers: {e}"))
    }

    /// Whether `other` is the same setup: the same τ and the same G₁ powers at the same k.
    /// (The kind is how each side came by the parameters; the fixed-seed setup is recognised by
    /// its τ wherever it comes from, [`load`].)
    pub fn same_setup(&self, other: &SetupIdentity) -> bool {
        self.tau_g2 == other.tau_g2 && self.g1_powers == other.g1_powers && self.k == other.k
    }

    /// One line for people: the kind (INSECURE in capitals where it is), the file, the hashes.
    pub fn describe(&self) -> String {
        let file = self
            .file
            .as_deref()
            .map(|f| format!(" {f}"))
            .unwrap_or_default();
        let kind = if self.kind.is_insecure() {
            "INSECURE fixed-seed development setup".to_string()
        } else {
            format!("{} setup", self.kind)
        };
        format!(
            "{kind}{file} (k = {}, keccak256([τ]₂) = {}, keccak256(G1 powers) = {})",
            self.k, self.tau_g2, self.g1_powers
        )
    }
}

/// `keccak256([τ]₂)`, raw encoding.
pub fn tau_g2_hash(params: &ParamsKZG<Bn256>) -> [u8; 32] {
    Keccak256::digest(params.s_g2().to_raw_bytes()).into()
}

/// `keccak256` of the G₁ powers, raw encoding, concatenated.
pub fn g1_powers_hash(g: &[G1Affine]) -> [u8; 32] {
    let mut h = Keccak256::new();
    for p in g {
        h.update(p.to_raw_bytes());
    }
    h.finalize().into()
}

/// Where the parameters come from, as the user chose (module doc).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum SetupSource {
    /// A ceremony file of either form.
    Ceremony(PathBuf),
    /// The local setup cached in the params folder (the default).
    #[default]
    Local,
    /// The fixed-seed development setup (`--insecure-dev-setup`).
    InsecureDev,
}

impl SetupSource {
    /// The source the two flags ask for: `--params FILE`, `--insecure-dev-setup`, or neither
    /// (the command lines declare the two flags exclusive).
    pub fn from_flags(params: Option<&Path>, insecure_dev_setup: bool) -> Self {
        match (params, insecure_dev_setup) {
            (Some(p), _) => SetupSource::Ceremony(p.to_path_buf()),
            (None, true) => SetupSource::InsecureDev,
            (None, false) => SetupSource::Local,
        }
    }

    /// The kind of setup this source gives.
    pub fn kind(&self) -> SetupKind {
        match self {
            SetupSource::Ceremony(_) => SetupKind::Ceremony,
            SetupSource::Local => SetupKind::Local,
            SetupSource::InsecureDev => SetupKind::InsecureDev,
        }
    }
}

/// Parameters and the identity of the setup they come from.
pub struct Srs {
    pub params: ParamsKZG<Bn256>,
    pub identity: SetupIdentity,
    /// Whether they were generated now (local or development setup) rather than read.
    pub generated: bool,
    /// Where they were read from or cached.
    pub path: PathBuf,
}

/// Reads a ceremony file of either form for `2^k` rows: every point checked, the powers
/// checked to be one τ's, the Lagrange basis computed (or, for a raw file of exactly k, read
/// and checked). Errors name the file and what is wrong.
pub fn read_ceremony(path: &Path, k: u32) -> Result<ParamsKZG<Bn256>, ParamsError> {
    read_ceremony_cached(path, k, None)
}

/// Where a Lagrange basis computed from a ceremony's powers is cached: by the hash of the
/// powers it is the basis of, so a cache file can only ever be used with those powers.
pub fn lagrange_cache_path(dir: &Path, g1_hash: &[u8; 32], k: u32) -> PathBuf {
    dir.join(format!("lagrange-{}-k{k}.bin", hex::encode(&g1_hash[..8])))
}

/// [`read_ceremony`] with a cache of the Lagrange basis: a file that carries none (a `.ptau`,
/// or halo2 raw params cut down to a smaller k) makes halo2 compute it from the powers with a
/// G₁ FFT, slow at large k. With `cache = Some((dir, write))` a cached basis for these powers
/// ([`lagrange_cache_path`]) is used when it passes the same RLC check a raw file's basis
/// passes ([`check::check_lagrange`]: a cache file is trusted no more than a ceremony file);
/// otherwise the basis is computed, and written there when `write` (a verifier writes nothing).
pub fn read_ceremony_cached(
    path: &Path,
    k: u32,
    cache: Option<(&Path, bool)>,
) -> Result<ParamsKZG<Bn256>, ParamsError> {
    let err = |reason: String| ParamsError::Read {
        path: path.display().to_string(),
        reason,
    };
    let mut powers = file::read_powers(path, k).map_err(err)?;
    check::check_powers(&powers.g, &powers.g2, &powers.s_g2).map_err(err)?;
    if let Some(lagrange) = &powers.g_lagrange {
        check::check_lagrange(k, &powers.g, lagrange).map_err(err)?;
    }
    let cache_file = cache.map(|(dir, _)| lagrange_cache_path(dir, &g1_powers_hash(&powers.g), k));
    if powers.g_lagrange.is_none() {
        if let Some(file) = &cache_file {
            powers.g_lagrange = cached_lagrange(file, k, &powers.g);
        }
    }
    let computed = powers.g_lagrange.is_none();
    let params = params::from_parts(k, powers.g, powers.g_lagrange, powers.g2, powers.s_g2);
    if let (true, Some(file), Some((_, true))) = (computed, &cache_file, cache) {
        // Best effort: failing to cache costs the FFT next time, nothing else.
        let _ = write_lagrange(file, &params);
    }
    Ok(params)
}

/// The cached basis at `file` if it is whole, every point valid, and the basis of `g`.
fn cached_lagrange(file: &Path, k: u32, g: &[G1Affine]) -> Option<Vec<G1Affine>> {
    use std::io::Read;
    let expected = (1usize << k) * file::G1_BYTES;
    // Only a regular file of exactly the basis' length is read, and never more than that: a
    // FIFO, a device or an outsized file put in the cache is passed over, not read.
    let meta = std::fs::metadata(file).ok()?;
    if !meta.is_file() || meta.len() != expected as u64 {
        return None;
    }
    let mut bytes = Vec::with_capacity(expected);
    std::fs::File::open(file)
        .ok()?
        .take(expected as u64 + 1)
        .read_to_end(&mut bytes)
        .ok()?;
    if bytes.len() != expected {
        return None;
    }
    let points = file::g1_points(&bytes, "cached Lagrange basis").ok()?;
    check::check_lagrange(k, g, &points).ok()?;
    Some(points)
}

/// Writes the Lagrange basis of `params` to `file` (raw points), atomically.
fn write_lagrange(file: &Path, params: &ParamsKZG<Bn256>) -> std::io::Result<()> {
    let mut raw = Vec::new();
    params.write_custom(&mut raw, halo2_proofs::SerdeFormat::RawBytes)?;
    let n = params.n() as usize;
    let lagrange = &raw[4 + n * file::G1_BYTES..4 + 2 * n * file::G1_BYTES];
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir)?;
    }
    crate::fsutil::write_atomic(file, lagrange)
}

/// The parameters for each k of `ks` from `source`, **one τ for all** (the aggregated route
/// proves its inner circuit and its outer circuit under one setup): a ceremony file read at
/// each k, the development setup at each k (one seed, one τ), or one local setup holding every
/// k ([`params::load_local_family`]). `want_tau` and `create` as for [`load`].
pub fn load_family(
    source: &SetupSource,
    params_dir: &Path,
    ks: &[u32],
    want_tau: Option<&str>,
    create: bool,
) -> Result<Vec<Srs>, ParamsError> {
    let out: Vec<Srs> = match source {
        SetupSource::Local => {
            let (all, paths, generated) =
                params::load_local_family(params_dir, ks, want_tau, create)?;
            all.into_iter()
                .zip(paths)
                .map(|(params, path)| {
                    Ok(Srs {
                        identity: loaded_identity(SetupKind::Local, None, &params, &path)?,
                        params,
                        generated,
                        path,
                    })
                })
                .collect::<Result<_, ParamsError>>()?
        }
        _ => ks
            .iter()
            .map(|&k| load(source, params_dir, k, want_tau, create))
            .collect::<Result<_, _>>()?,
    };
    if out
        .windows(2)
        .any(|w| w[0].identity.tau_g2 != w[1].identity.tau_g2)
    {
        return Err(ParamsError::Read {
            path: params_dir.display().to_string(),
            reason: "the parameters for the different k are not one τ".into(),
        });
    }
    Ok(out)
}

/// `[τ]₂` of the setup `source` names, read as cheaply as it can be (a verifier of a proof
/// needs only `[τ]₂`; the G₁ powers matter to the prover): a ceremony file's second G₂ point
/// (checked in the subgroup, τ ∉ {0, 1}), the development setup's, or the local setup of
/// `params_dir` whose τ hash is `want_tau`.
pub fn tau_g2_of(
    source: &SetupSource,
    params_dir: &Path,
    want_tau: &str,
) -> Result<halo2_proofs::halo2curves::bn256::G2Affine, ParamsError> {
    match source {
        SetupSource::Ceremony(path) => checked_tau_g2(path),
        SetupSource::InsecureDev => Ok(params::dev_setup(1)?.s_g2()),
        SetupSource::Local => {
            let found = params::local_setup_files(params_dir, want_tau)?;
            let path = found.first().ok_or_else(|| ParamsError::Read {
                path: params_dir.display().to_string(),
                reason: "no local setup with the τ the proof names here: a local setup is kept \
                         only on the machine that made it"
                    .into(),
            })?;
            checked_tau_g2(path)
        }
    }
}

/// `[τ]₂` of a params file of either form, with the G₂ checks ([`check::check_g2`]).
fn checked_tau_g2(path: &Path) -> Result<halo2_proofs::halo2curves::bn256::G2Affine, ParamsError> {
    let err = |reason: String| ParamsError::Read {
        path: path.display().to_string(),
        reason,
    };
    let (g2, s_g2) = file::read_g2_pair(path).map_err(err)?;
    check::check_g2(&g2, &s_g2).map_err(err)?;
    Ok(s_g2)
}

/// `keccak256([τ]₂)` of the fixed-seed development setup (the same τ at every k), hex.
pub fn insecure_dev_tau_hash() -> &'static str {
    static HASH: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    HASH.get_or_init(|| match params::dev_setup(1) {
        Ok(p) => encode_hex(&tau_g2_hash(&p)),
        Err(_) => String::new(),
    })
}

/// The identity of params loaded as `kind`, refused ([`ParamsError::FixedSeed`]) when their
/// τ is the fixed-seed setup's and they were not asked for as that: a copy of its params given
/// as a "ceremony" file, or put in the local cache, is still the public τ.
fn loaded_identity(
    kind: SetupKind,
    file: Option<&Path>,
    params: &ParamsKZG<Bn256>,
    path: &Path,
) -> Result<SetupIdentity, ParamsError> {
    let identity = SetupIdentity::of(kind, file, params);
    if identity.tau_g2 == insecure_dev_tau_hash() && !kind.is_insecure() {
        return Err(ParamsError::FixedSeed {
            path: path.display().to_string(),
        });
    }
    Ok(identity)
}

/// The parameters for `2^k` rows from `source` (module doc), with their identity. Parameters
/// whose τ is the fixed-seed setup's are refused unless `source` is
/// [`SetupSource::InsecureDev`] ([`ParamsError::FixedSeed`]), for every caller at once.
///
/// - Ceremony: read and checked ([`read_ceremony`]).
/// - Local: the cached local setup of k in `params_dir` whose τ hash is `want_tau` when one
///   is asked for (a verifier looks up the setup a proof names; a prover takes any), else, when
///   `create`, a new one (τ from the OS, never stored) written there.
/// - Insecure development: read from `params_dir`, or generated (always the same τ) when
///   `create`.
pub fn load(
    source: &SetupSource,
    params_dir: &Path,
    k: u32,
    want_tau: Option<&str>,
    create: bool,
) -> Result<Srs, ParamsError> {
    match source {
        SetupSource::Ceremony(path) => {
            let cache = params_dir.join("lagrange-cache");
            let params = read_ceremony_cached(path, k, Some((&cache, create)))?;
            Ok(Srs {
                identity: loaded_identity(SetupKind::Ceremony, Some(path), &params, path)?,
                params,
                generated: false,
                path: path.clone(),
            })
        }
        SetupSource::InsecureDev => {
            let path = params::dev_params_path(params_dir, k);
            let (params, generated) = if create {
                params::load_or_create_dev(params_dir, k)?
            } else {
                (params::read_params(&path, k)?, false)
            };
            Ok(Srs {
                identity: SetupIdentity::of(SetupKind::InsecureDev, None, &params),
                params,
                generated,
                path,
            })
        }
        SetupSource::Local => {
            let (params, path, generated) = params::load_local(params_dir, k, want_tau, create)?;
            Ok(Srs {
                identity: loaded_identity(SetupKind::Local, None, &params, &path)?,
                params,
                generated,
                path,
            })
        }
    }
}
