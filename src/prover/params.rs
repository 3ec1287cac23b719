//! KZG parameters (the structured reference string) over BN254 that this machine makes, and
//! their cache: the **local setup** (τ from the operating system, never stored) and the
//! **insecure development setup** (τ from a fixed public seed). Ceremony files are read by
//! [`super::srs`], which also says which kind is for what.
//!
//! **The development setup is insecure.** τ is drawn from ChaCha20 seeded with [`DEV_SEED`], so
//! anyone can recompute it and forge proofs. It exists only for reproducible test fixtures
//! (`--insecure-dev-setup`); every command that uses it says so.
//!
//! [`dev_setup`] produces exactly what `ParamsKZG::setup(k, ChaCha20Rng::seed_from_u64(DEV_SEED))`
//! produces (a test compares the serialised bytes), but fast: halo2's `setup` computes each of the
//! 2·2^k points `τ^i·G₁` and `L_i(τ)·G₁` by a generic double-and-add scalar multiplication and
//! inverts each `τ − ω^i` on its own. Here every point is a sum of 32 precomputed multiples from a
//! fixed-base table (one per byte of the scalar: `T[j][d] = d·2^(8j)·G₁`), the `τ − ω^i` are
//! inverted together (Montgomery's trick), and the work is spread over threads with rayon.
//!
//! The Lagrange basis: with ω a primitive 2^k-th root of unity and n = 2^k,
//! `L_i(τ) = (τ^n − 1)/n · ω^i/(τ − ω^i)` (as in halo2's `setup`; τ is never a root of unity
//! except with probability n/r).

use std::path::{Path, PathBuf};

use ff::{BatchInvert, Field, PrimeField};
use group::{prime::PrimeCurveAffine, Curve, Group};
use halo2_proofs::halo2curves::bn256::{Bn256, Fr, G1Affine, G2Affine, G1};
use halo2_proofs::poly::kzg::commitment::ParamsKZG;
use halo2_proofs::SerdeFormat;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;
use rayon::prelude::*;
use std::collections::BTreeSet;

/// Seed of the insecure development setup.
pub const DEV_SEED: u64 = 0x6261_7463_685f_6563; // "batch_ec"

/// Largest k the BN254 scalar field's 2-adicity allows for FFTs.
pub const MAX_K: u32 = Fr::S;

/// Errors of loading or creating parameters.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ParamsError {
    #[error("k = {0} is out of range (1..={MAX_K})")]
    BadK(u32),
    #[error("cannot read params file {path}: {reason}")]
    Read { path: String, reason: String },
    #[error("cannot write params file {path}: {reason}")]
    Write { path: String, reason: String },
    /// Parameters with the fixed-seed setup's τ, asked for as anything else.
    #[error(
        "{path}: these are the fixed-seed development parameters, whose τ is public (anyone can \
         forge proofs under them); pass --insecure-dev-setup to use them for a test fixture"
    )]
    FixedSeed { path: String },
    #[error("params file {path} has k = {found}, expected {expected}")]
    WrongK {
        path: String,
        found: u32,
        expected: u32,
    },
}

/// Fixed-base table for G₁: `rows[j][d] = d·2^(8j)·G₁` for the 32 bytes j of a scalar.
struct G1Table {
    rows: Vec<Vec<G1Affine>>,
}

impl G1Table {
    fn new() -> Self {
        let mut base = G1::generator();
        let mut rows = Vec::with_capacity(32);
        for _ in 0..32 {
            let mut proj = Vec::with_capacity(256);
            let mut acc = G1::identity();
            for _ in 0..256 {
                proj.push(acc);
                acc += base;
            }
            let mut row = vec![G1Affine::identity(); 256];
            G1::batch_normalize(&proj, &mut row);
            rows.push(row);
            base = acc; // 256·base
        }
        Self { rows }
    }

    /// `k·G₁`: at most 32 mixed additions, no doublings.
    fn mul(&self, k: &Fr) -> G1 {
        let repr = k.to_repr(); // little-endian bytes
        let mut acc = G1::identity();
        for (j, byte) in repr.as_ref().iter().enumerate() {
            if *byte != 0 {
                acc += self.rows[j][*byte as usize];
            }
        }
        acc
    }

    /// `[s·G₁ for s in scalars]` in affine form, in parallel.
    fn mul_many(&self, scalars: &[Fr]) -> Vec<G1Affine> {
        const CHUNK: usize = 1 << 12;
        let mut out = vec![G1Affine::identity(); scalars.len()];
        out.par_chunks_mut(CHUNK)
            .zip(scalars.par_chunks(CHUNK))
            .for_each(|(out, scalars)| {
                let proj: Vec<G1> = scalars.iter().map(|s| self.mul(s)).collect();
                G1::batch_normalize(&proj, out);
            });
        out
    }
}

/// `[1, x, x², …, x^(n−1)]`, in parallel chunks.
fn powers(x: Fr, n: usize) -> Vec<Fr> {
    const CHUNK: usize = 1 << 12;
    let mut out = vec![Fr::ZERO; n];
    out.par_chunks_mut(CHUNK)
        .enumerate()
        .for_each(|(c, chunk)| {
            let mut acc = x.pow_vartime([(c * CHUNK) as u64]);
            for v in chunk.iter_mut() {
                *v = acc;
                acc *= x;
            }
        });
    out
}

/// The parameters of `ParamsKZG::setup(k, rng)` for τ drawn from `rng` as `setup` draws it,
/// computed fast (see the module doc).
pub fn setup_from_rng(k: u32, mut rng: ChaCha20Rng) -> Result<ParamsKZG<Bn256>, ParamsError> {
    if k == 0 || k > MAX_K {
        return Err(ParamsError::BadK(k));
    }
    let tau = Fr::random(&mut rng);
    Ok(setup_with_tau(k, tau, &G1Table::new()))
}

/// The parameters of `2^k` rows for τ (`k` in range: checked by the callers).
fn setup_with_tau(k: u32, tau: Fr, table: &G1Table) -> ParamsKZG<Bn256> {
    let n = 1usize << k;

    // g[i] = τ^i·G₁
    let g = table.mul_many(&powers(tau, n));

    // g_lagrange[i] = L_i(τ)·G₁ with L_i(τ) = (τ^n − 1)/n · ω^i/(τ − ω^i).
    let mut omega = Fr::ROOT_OF_UNITY_INV.invert().unwrap_or(Fr::ONE);
    for _ in k..Fr::S {
        omega = omega.square();
    }
    let omega_pows = powers(omega, n);
    let mut denominators: Vec<Fr> = omega_pows.par_iter().map(|w| tau - w).collect();
    denominators.par_chunks_mut(1 << 12).for_each(|c| {
        c.batch_invert();
    });
    let n_inv = Fr::from(n as u64).invert().unwrap_or(Fr::ZERO);
    let multiplier = (tau.pow_vartime([n as u64]) - Fr::ONE) * n_inv;
    let lagrange: Vec<Fr> = omega_pows
        .par_iter()
        .zip(denominators.par_iter())
        .map(|(w, d)| multiplier * w * d)
        .collect();
    let g_lagrange = table.mul_many(&lagrange);

    let g2 = G2Affine::generator();
    let s_g2 = (g2 * tau).to_affine();
    from_parts(k, g, Some(g_lagrange), g2, s_g2)
}

/// halo2's `ParamsKZG::from_parts` (the Lagrange basis computed from `g` with a G₁ FFT when
/// not given).
pub fn from_parts(
    k: u32,
    g: Vec<G1Affine>,
    g_lagrange: Option<Vec<G1Affine>>,
    g2: G2Affine,
    s_g2: G2Affine,
) -> ParamsKZG<Bn256> {
    // halo2-axiom's `from_parts` is a method on an existing value but reads none of its fields:
    // a k = 1 value (two points) serves as the receiver.
    let receiver = ParamsKZG::<Bn256>::setup(1, ChaCha20Rng::seed_from_u64(0));
    receiver.from_parts(k, g, g_lagrange, g2, s_g2)
}

/// A new local setup for each k of `ks`, all from one τ drawn from the operating system's
/// randomness, which is dropped when this returns (never written anywhere).
pub fn local_setup(ks: &[u32]) -> Result<Vec<ParamsKZG<Bn256>>, ParamsError> {
    if let Some(&k) = ks.iter().find(|&&k| k == 0 || k > MAX_K) {
        return Err(ParamsError::BadK(k));
    }
    let mut rng = ChaCha20Rng::from_entropy();
    let tau = Fr::random(&mut rng);
    let table = G1Table::new();
    Ok(ks.iter().map(|&k| setup_with_tau(k, tau, &table)).collect())
}

/// The insecure development parameters for `2^k` rows (see the module doc).
pub fn dev_setup(k: u32) -> Result<ParamsKZG<Bn256>, ParamsError> {
    setup_from_rng(k, ChaCha20Rng::seed_from_u64(DEV_SEED))
}

/// Where the development parameters for `k` are cached under `dir`.
pub fn dev_params_path(dir: &Path, k: u32) -> PathBuf {
    dir.join(format!("kzg-bn254-dev-INSECURE-k{k}.params"))
}

/// Size of a raw-format params file for `k`: the k header, `2·2^k` G₁ points (g and the
/// Lagrange basis, 64 bytes each) and two G₂ points (128 bytes each).
pub fn raw_params_len(k: u32) -> u64 {
    super::srs::file::raw_len(k)
}

/// Reads a params file in halo2's raw format of exactly `expected_k`, with every check a
/// ceremony file gets ([`super::srs::read_ceremony`]: each point, one τ, the Lagrange basis).
/// The caches are files too: a changed cache is refused, not used.
pub fn read_params(path: &Path, expected_k: u32) -> Result<ParamsKZG<Bn256>, ParamsError> {
    let (form, found) = super::srs::file::probe(path).map_err(|reason| ParamsError::Read {
        path: path.display().to_string(),
        reason,
    })?;
    if form != super::srs::file::FileForm::Halo2Raw || found != expected_k {
        return Err(ParamsError::WrongK {
            path: path.display().to_string(),
            found,
            expected: expected_k,
        });
    }
    super::srs::read_ceremony(path, expected_k)
}

/// Writes params in halo2's raw format, atomically.
pub fn write_params(path: &Path, params: &ParamsKZG<Bn256>) -> Result<(), ParamsError> {
    let mut bytes = Vec::new();
    params
        .write_custom(&mut bytes, SerdeFormat::RawBytes)
        .map_err(|e| ParamsError::Write {
            path: path.display().to_string(),
            reason: e.to_string(),
        })?;
    crate::fsutil::write_atomic(path, &bytes).map_err(|e| ParamsError::Write {
        path: path.display().to_string(),
        reason: e.to_string(),
    })
}

/// The file name prefix of the local setup's cached params.
const LOCAL_PREFIX: &str = "kzg-bn254-local-";

/// Where the local setup whose `[τ]₂` hash begins with `tau` (16 hex digits) is cached for
/// `k` under `dir`.
pub fn local_params_path(dir: &Path, tau: &str, k: u32) -> PathBuf {
    dir.join(format!("{LOCAL_PREFIX}{tau}-k{k}.params"))
}

/// The 16-hex-digit name of a local setup: the start of its `keccak256([τ]₂)`.
fn local_name(params: &ParamsKZG<Bn256>) -> String {
    hex::encode(&super::srs::tau_g2_hash(params)[..8])
}

/// The names of the local setups cached under `dir` that hold every k of `ks`, sorted.
fn local_names_with(dir: &Path, ks: &[u32]) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let names: BTreeSet<String> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let rest = name.strip_prefix(LOCAL_PREFIX)?;
            let (tau, _) = rest.split_once("-k")?;
            (tau.len() == 16 && tau.bytes().all(|b| b.is_ascii_hexdigit())).then(|| tau.to_string())
        })
        .collect();
    names
        .into_iter()
        .filter(|tau| ks.iter().all(|&k| local_params_path(dir, tau, k).is_file()))
        .collect()
}

/// Params for several k from one τ, their cache paths, and whether they were generated now.
pub type LocalFamily = (Vec<ParamsKZG<Bn256>>, Vec<PathBuf>, bool);

/// The local setup for each k of `ks` (one τ for all), cached under `dir`: with `want_tau`
/// (a full `keccak256([τ]₂)` hex, as a proof file names it) that setup or an error; else the
/// first cached setup holding every k; else, when `create`, a new one ([`local_setup`])
/// written there. Returns the params (in the order of `ks`), their paths, and whether they
/// were generated now. Each cached file read is checked as a ceremony file is, and must have
/// the τ its name says.
pub fn load_local_family(
    dir: &Path,
    ks: &[u32],
    want_tau: Option<&str>,
    create: bool,
) -> Result<LocalFamily, ParamsError> {
    let wanted = match want_tau {
        Some(t) => {
            let bytes: [u8; 32] =
                crate::hexfmt::decode_hex_fixed(t).map_err(|e| ParamsError::Read {
                    path: dir.display().to_string(),
                    reason: format!("the local setup's τ hash {t:?}: {e}"),
                })?;
            Some(hex::encode(&bytes[..8]))
        }
        None => None,
    };
    let found = match &wanted {
        Some(name) => local_names_with(dir, ks).into_iter().find(|n| n == name),
        None => local_names_with(dir, ks).into_iter().next(),
    };
    if let Some(name) = found {
        let mut out = Vec::new();
        let mut paths = Vec::new();
        for &k in ks {
            let path = local_params_path(dir, &name, k);
            let params = read_params(&path, k)?;
            if local_name(&params) != name {
                return Err(ParamsError::Read {
                    path: path.display().to_string(),
                    reason: "its τ is not the one its name says: the cache was altered".into(),
                });
            }
            out.push(params);
            paths.push(path);
        }
        return Ok((out, paths, false));
    }
    if let Some(name) = wanted {
        return Err(ParamsError::Read {
            path: dir.display().to_string(),
            reason: format!(
                "no local setup {name} for k = {ks:?} here: a local setup is kept only on the \
                 machine that made it, and a proof under it is checked there (to check a proof \
                 elsewhere, prove it under a ceremony file)"
            ),
        });
    }
    if !create {
        return Err(ParamsError::Read {
            path: dir.display().to_string(),
            reason: format!("no local setup for k = {ks:?}"),
        });
    }
    let all = local_setup(ks)?;
    std::fs::create_dir_all(dir).map_err(|e| ParamsError::Write {
        path: dir.display().to_string(),
        reason: e.to_string(),
    })?;
    let name = local_name(&all[0]);
    let mut paths = Vec::new();
    for (params, &k) in all.iter().zip(ks) {
        let path = local_params_path(dir, &name, k);
        write_params(&path, params)?;
        paths.push(path);
    }
    Ok((all, paths, true))
}

/// The cached files of the local setup whose `keccak256([τ]₂)` is `tau` (hex), any k.
pub fn local_setup_files(dir: &Path, tau: &str) -> Result<Vec<PathBuf>, ParamsError> {
    let bytes: [u8; 32] = crate::hexfmt::decode_hex_fixed(tau).map_err(|e| ParamsError::Read {
        path: dir.display().to_string(),
        reason: format!("the local setup's τ hash: {e}"),
    })?;
    let name = format!("{LOCAL_PREFIX}{}-k", hex::encode(&bytes[..8]));
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(Vec::new());
    };
    let mut out: Vec<PathBuf> = entries
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with(&name))
        .map(|e| e.path())
        .collect();
    out.sort();
    Ok(out)
}

/// [`load_local_family`] for one k.
pub fn load_local(
    dir: &Path,
    k: u32,
    want_tau: Option<&str>,
    create: bool,
) -> Result<(ParamsKZG<Bn256>, PathBuf, bool), ParamsError> {
    let (mut params, mut paths, generated) = load_local_family(dir, &[k], want_tau, create)?;
    match (params.pop(), paths.pop()) {
        (Some(p), Some(path)) => Ok((p, path, generated)),
        _ => Err(ParamsError::BadK(k)),
    }
}

/// The development parameters for `k`, read from `dir` when cached there, else generated and
/// cached. Returns whether they were generated.
pub fn load_or_create_dev(dir: &Path, k: u32) -> Result<(ParamsKZG<Bn256>, bool), ParamsError> {
    let path = dev_params_path(dir, k);
    if path.exists() {
        return Ok((read_params(&path, k)?, false));
    }
    let params = dev_setup(k)?;
    std::fs::create_dir_all(dir).map_err(|e| ParamsError::Write {
        path: dir.display().to_string(),
        reason: e.to_string(),
    })?;
    write_params(&path, &params)?;
    Ok((params, true))
}

#[cfg(test)]
mod tests {
    use super::*;
    use halo2_proofs::poly::commitment::ParamsProver;

    fn raw(params: &ParamsKZG<Bn256>) -> Vec<u8> {
        let mut v = Vec::new();
        params
            .write_custom(&mut v, SerdeFormat::RawBytes)
            .expect("write to a Vec");
        v
    }

    #[test]
    fn fast_setup_equals_halo2_setup() {
        for k in [1u32, 2, 5, 9] {
            let seed = 1000 + u64::from(k);
            let ours = setup_from_rng(k, ChaCha20Rng::seed_from_u64(seed)).unwrap();
            let theirs = ParamsKZG::<Bn256>::setup(k, ChaCha20Rng::seed_from_u64(seed));
            assert_eq!(raw(&ours), raw(&theirs), "k = {k}");
        }
    }

    #[test]
    fn table_mul_matches_scalar_mul() {
        let table = G1Table::new();
        let mut rng = ChaCha20Rng::seed_from_u64(7);
        for s in [Fr::ZERO, Fr::ONE, -Fr::ONE, Fr::random(&mut rng)] {
            assert_eq!(table.mul(&s), G1::generator() * s);
        }
    }

    #[test]
    fn local_setup_is_fresh_cached_and_found_by_its_tau() {
        let dir = std::env::temp_dir().join(format!("batch-ecdsa-local-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        assert!(
            load_local(&dir, 4, None, false).is_err(),
            "nothing cached, nothing made"
        );
        let (a, path, made) = load_local(&dir, 4, None, true).unwrap();
        assert!(made && path.is_file());
        // Not the development setup, and a second fresh setup has another τ.
        assert_ne!(a.s_g2(), dev_setup(4).unwrap().s_g2());
        assert_ne!(a.s_g2(), local_setup(&[4]).unwrap()[0].s_g2());
        let (b, _, made) = load_local(&dir, 4, None, true).unwrap();
        assert!(!made);
        assert_eq!(raw(&a), raw(&b));
        // Found by the hash a proof names; another hash is a clear error.
        let tau = crate::hexfmt::encode_hex(&super::super::srs::tau_g2_hash(&a));
        assert!(load_local(&dir, 4, Some(&tau), false).is_ok());
        let other = crate::hexfmt::encode_hex(&[7u8; 32]);
        let e = load_local(&dir, 4, Some(&other), true)
            .unwrap_err()
            .to_string();
        assert!(e.contains("no local setup 0707070707070707"), "{e}");
        // A family shares one τ, and is found whole.
        let (fam, _, made) = load_local_family(&dir, &[3, 5], None, true).unwrap();
        assert!(made);
        assert_eq!(fam[0].s_g2(), fam[1].s_g2());
        assert_eq!(fam[0].get_g()[..8], fam[1].get_g()[..8]);
        // A cache file altered (a point changed) is refused.
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[4 + 64 * 3 + 5] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        assert!(load_local(&dir, 4, Some(&tau), false).is_err());
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn cache_round_trip_and_errors() {
        let dir = std::env::temp_dir().join(format!("batch-ecdsa-params-{}", std::process::id()));
        let (a, created) = load_or_create_dev(&dir, 4).unwrap();
        assert!(created);
        let (b, created) = load_or_create_dev(&dir, 4).unwrap();
        assert!(!created);
        assert_eq!(raw(&a), raw(&b));
        assert!(matches!(
            read_params(&dev_params_path(&dir, 4), 5),
            Err(ParamsError::WrongK { .. })
        ));
        let junk = dir.join("junk.params");
        std::fs::write(&junk, b"not params").unwrap();
        assert!(matches!(
            read_params(&junk, 4),
            Err(ParamsError::Read { .. })
        ));
        let good = std::fs::read(dev_params_path(&dir, 4)).unwrap();
        assert_eq!(good.len() as u64, raw_params_len(4));
        let cut = dir.join("cut.params");
        std::fs::write(&cut, &good[..good.len() - 1]).unwrap();
        assert!(matches!(
            read_params(&cut, 4),
            Err(ParamsError::Read { .. })
        ));
        assert!(matches!(dev_setup(0), Err(ParamsError::BadK(0))));
        // A larger file cut down to k is the setup for k with the same τ.
        let (five, _) = load_or_create_dev(&dir, 5).unwrap();
        let read_cut = |path: &Path, k| super::super::srs::read_ceremony(path, k);
        let cut = read_cut(&dev_params_path(&dir, 5), 4).unwrap();
        assert_eq!(raw(&cut), raw(&a));
        assert_eq!(
            raw(&read_cut(&dev_params_path(&dir, 5), 5).unwrap()),
            raw(&five)
        );
        assert!(read_cut(&dev_params_path(&dir, 4), 5)
            .unwrap_err()
            .to_string()
            .contains("fewer than the 2^5"));
        assert!(matches!(read_cut(&junk, 4), Err(ParamsError::Read { .. })));
        std::fs::remove_dir_all(&dir).ok();
    }
}
