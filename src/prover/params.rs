//! KZG parameters (the structured reference string) over BN254.
//!
//! **The development setup is insecure.** τ is drawn from ChaCha20 seeded with [`DEV_SEED`], so
//! anyone can recompute it and forge proofs. It exists so that a fresh clone can prove without a
//! ceremony file; every command that uses it says so.
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

/// Seed of the insecure development setup.
pub const DEV_SEED: u64 = 0x6261_7463_685f_6563; // "batch_ec"

/// Largest k the BN254 scalar field's 2-adicity allows for FFTs.
pub const MAX_K: u32 = Fr::S;

/// Errors of loading or creating parameters.
#[derive(Debug, thiserror::Error)]
pub enum ParamsError {
    #[error("k = {0} is out of range (1..={MAX_K})")]
    BadK(u32),
    #[error("cannot read params file {path}: {reason}")]
    Read { path: String, reason: String },
    #[error("cannot write params file {path}: {reason}")]
    Write { path: String, reason: String },
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
    let n = 1usize << k;
    let tau = Fr::random(&mut rng);
    let table = G1Table::new();

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
    // halo2-axiom's `from_parts` is a method on an existing value but reads none of its fields:
    // a k = 1 value (two points) serves as the receiver.
    let receiver = ParamsKZG::<Bn256>::setup(1, ChaCha20Rng::seed_from_u64(0));
    Ok(receiver.from_parts(k, g, Some(g_lagrange), g2, s_g2))
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
    4 + 2 * (1u64 << k) * 64 + 2 * 128
}

/// Reads a params file in halo2's raw format (`ParamsKZG::write`), checking every point and k.
pub fn read_params(path: &Path, expected_k: u32) -> Result<ParamsKZG<Bn256>, ParamsError> {
    let err = |reason: String| ParamsError::Read {
        path: path.display().to_string(),
        reason,
    };
    // Check the header and the size before halo2's reader sees the file: it computes `1 << k`
    // from the first 4 bytes unchecked (a junk file would make it panic or allocate wildly).
    let found = params_file_k(path)?;
    if found != expected_k {
        return Err(ParamsError::WrongK {
            path: path.display().to_string(),
            found,
            expected: expected_k,
        });
    }
    let len = std::fs::metadata(path)
        .map_err(|e| err(e.to_string()))?
        .len();
    if len != raw_params_len(found) {
        return Err(err(format!(
            "size {len} bytes, expected {} for k = {found} (truncated or not raw-format params)",
            raw_params_len(found)
        )));
    }
    let file = std::fs::File::open(path).map_err(|e| err(e.to_string()))?;
    let mut reader = std::io::BufReader::with_capacity(1 << 20, file);
    ParamsKZG::<Bn256>::read_custom(&mut reader, SerdeFormat::RawBytes)
        .map_err(|e| err(e.to_string()))
}

/// The k a raw-format params file declares in its header (checked to be in range).
pub fn params_file_k(path: &Path) -> Result<u32, ParamsError> {
    use std::io::Read;
    let err = |reason: String| ParamsError::Read {
        path: path.display().to_string(),
        reason,
    };
    let mut file = std::fs::File::open(path).map_err(|e| err(e.to_string()))?;
    let mut header = [0u8; 4];
    file.read_exact(&mut header)
        .map_err(|e| err(format!("no header: {e}")))?;
    let k = u32::from_le_bytes(header);
    if k == 0 || k > MAX_K {
        return Err(err(format!(
            "not a KZG params file (its header says k = {k})"
        )));
    }
    Ok(k)
}

/// Reads a params file in halo2's raw format for any k' ≥ `k` (e.g. a ceremony's powers of
/// τ converted to halo2's format) and cuts it down to `2^k` rows: the first `2^k` powers
/// `τ^i·G₁` are kept and the Lagrange basis recomputed (halo2's `downsize`), which gives the
/// params a setup for `k` with the same τ would give.
pub fn read_params_at_least(path: &Path, k: u32) -> Result<ParamsKZG<Bn256>, ParamsError> {
    let found = params_file_k(path)?;
    if found < k {
        return Err(ParamsError::WrongK {
            path: path.display().to_string(),
            found,
            expected: k,
        });
    }
    let mut params = read_params(path, found)?;
    if found > k {
        use halo2_proofs::poly::commitment::Params;
        params.downsize(k);
    }
    Ok(params)
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
        let cut = read_params_at_least(&dev_params_path(&dir, 5), 4).unwrap();
        assert_eq!(raw(&cut), raw(&a));
        assert_eq!(
            raw(&read_params_at_least(&dev_params_path(&dir, 5), 5).unwrap()),
            raw(&five)
        );
        assert!(matches!(
            read_params_at_least(&dev_params_path(&dir, 4), 5),
            Err(ParamsError::WrongK { .. })
        ));
        assert!(matches!(
            read_params_at_least(&junk, 4),
            Err(ParamsError::Read { .. })
        ));
        std::fs::remove_dir_all(&dir).ok();
    }
}
