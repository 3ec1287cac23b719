//! Ceremony files: the two forms in which users hold BN254 powers of τ, read with every point
//! checked and only the powers a circuit of `2^k` rows needs.
//!
//! **snarkjs `.ptau`** (the Perpetual Powers of Tau / Hermez ceremony). A binary file:
//! the magic `ptau`, a u32 version, a u32 section count, then sections, each a u32 type, a
//! u64 byte length and its bytes (all integers little-endian). Section 1, the header: `n8`
//! (32 for BN254), the base field prime q as `n8` little-endian bytes, the power p and the
//! ceremony's power. Section 2, `tauG1`: the `2^(p+1) − 1` points `τ^i·G₁`; section 3,
//! `tauG2`: the `2^p` points `τ^i·G₂`. A G₁ point is x ‖ y, a G₂ point x.c0 ‖ x.c1 ‖ y.c0 ‖
//! y.c1, each coordinate 32 little-endian bytes in Montgomery form (`x·2^256 mod q`), which
//! is exactly halo2curves' raw (Montgomery) encoding. Section 7 counts the contributions.
//! A file of power p serves every `k ≤ p` (it holds `2^(p+1) − 1 ≥ 2^k` G₁ powers).
//!
//! **halo2 raw params** (PSE's and Axiom's `kzg_bn254_<k>.srs`, converted from the same
//! ceremony; `ParamsKZG::write`): a u32 k, the `2^k` powers `τ^i·G₁`, their Lagrange basis
//! (`2^k` points), `G₂` and `τ·G₂`, points in the same raw encoding. A file of k' serves
//! every `k ≤ k'`.
//!
//! The two are told apart by content (the magic), never by the file name. Reading is bounded:
//! the header and section table are checked against the file's length before any point is
//! read, and only the `2^k` G₁ powers (and, for a raw file of exactly k, its Lagrange basis)
//! are read. Every coordinate must be canonical and every point on its curve; the checks that
//! tie the points to one τ are in [`super::check`].

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use halo2_proofs::halo2curves::bn256::{G1Affine, G2Affine};
use halo2_proofs::halo2curves::serde::SerdeObject;
use rayon::prelude::*;

use super::super::params::MAX_K;

/// Bytes of a raw G₁ point (x ‖ y).
pub const G1_BYTES: usize = 64;
/// Bytes of a raw G₂ point (x.c0 ‖ x.c1 ‖ y.c0 ‖ y.c1).
pub const G2_BYTES: usize = 128;

/// The BN254 base field prime q, 32 bytes little-endian, as a `.ptau` header holds it.
const BN254_Q_LE: [u8; 32] = {
    // q = 0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47
    let be: [u8; 32] = [
        0x30, 0x64, 0x4e, 0x72, 0xe1, 0x31, 0xa0, 0x29, 0xb8, 0x50, 0x45, 0xb6, 0x81, 0x81, 0x58,
        0x5d, 0x97, 0x81, 0x6a, 0x91, 0x68, 0x71, 0xca, 0x8d, 0x3c, 0x20, 0x8c, 0x16, 0xd8, 0x7c,
        0xfd, 0x47,
    ];
    let mut le = [0u8; 32];
    let mut i = 0;
    while i < 32 {
        le[i] = be[31 - i];
        i += 1;
    }
    le
};

/// Which form a ceremony file is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileForm {
    /// snarkjs `.ptau`.
    Ptau,
    /// halo2's raw `ParamsKZG` format.
    Halo2Raw,
}

impl std::fmt::Display for FileForm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            FileForm::Ptau => "snarkjs .ptau",
            FileForm::Halo2Raw => "halo2 raw params",
        })
    }
}

/// The points read from a ceremony file for `2^k` rows (checked one by one, not yet against
/// each other: [`super::check`]).
#[derive(Clone, Debug)]
pub struct Powers {
    pub form: FileForm,
    /// The largest k the file serves.
    pub file_k: u32,
    /// `τ^i·G₁` for i < 2^k.
    pub g: Vec<G1Affine>,
    /// The Lagrange basis of a raw file read at its own k (else computed from `g`).
    pub g_lagrange: Option<Vec<G1Affine>>,
    /// `G₂`.
    pub g2: G2Affine,
    /// `τ·G₂`.
    pub s_g2: G2Affine,
    /// The ceremony's contribution count (`.ptau` section 7), when the file says.
    pub contributions: Option<u32>,
}

/// Why a ceremony file cannot be used: what is wrong, in words (the caller names the file).
pub type FileError = String;

struct Reader {
    file: File,
    len: u64,
}

impl Reader {
    fn open(path: &Path) -> Result<Self, FileError> {
        let file = File::open(path).map_err(|e| format!("cannot open: {e}"))?;
        let meta = file.metadata().map_err(|e| format!("cannot stat: {e}"))?;
        if !meta.is_file() {
            return Err("not a regular file".into());
        }
        Ok(Self {
            file,
            len: meta.len(),
        })
    }

    /// Exactly `n` bytes at `offset`, refused (before allocating) when they run past the end.
    fn bytes_at(&mut self, offset: u64, n: usize, what: &str) -> Result<Vec<u8>, FileError> {
        let end = offset.checked_add(n as u64);
        if end.is_none_or(|e| e > self.len) {
            return Err(format!(
                "truncated: {what} needs bytes {offset}..{} but the file has {}",
                offset.saturating_add(n as u64),
                self.len
            ));
        }
        self.file
            .seek(SeekFrom::Start(offset))
            .map_err(|e| format!("cannot seek to {what}: {e}"))?;
        let mut buf = vec![0u8; n];
        self.file
            .read_exact(&mut buf)
            .map_err(|e| format!("cannot read {what}: {e}"))?;
        Ok(buf)
    }

    fn u32_at(&mut self, offset: u64, what: &str) -> Result<u32, FileError> {
        let b = self.bytes_at(offset, 4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

/// `n` G₁ points from raw bytes, each checked (canonical coordinates, on the curve, not the
/// point at infinity); the first bad one is named as `what[index]`.
pub(super) fn g1_points(bytes: &[u8], what: &str) -> Result<Vec<G1Affine>, FileError> {
    bytes
        .par_chunks(G1_BYTES)
        .enumerate()
        .map(|(i, b)| {
            let p = G1Affine::from_raw_bytes(b).ok_or_else(|| {
                format!("{what}[{i}] is not a point of G1 (a coordinate ≥ q, or off the curve)")
            })?;
            if bool::from(group::prime::PrimeCurveAffine::is_identity(&p)) {
                return Err(format!("{what}[{i}] is the point at infinity"));
            }
            Ok(p)
        })
        .collect()
}

/// One G₂ point from raw bytes (canonical, on the curve; the subgroup is checked in
/// [`super::check`]).
fn g2_point(bytes: &[u8], what: &str) -> Result<G2Affine, FileError> {
    G2Affine::from_raw_bytes(bytes)
        .ok_or_else(|| format!("{what} is not a point of G2 (a coordinate ≥ q, or off the curve)"))
}

/// Reads the powers for `2^k` rows from a ceremony file of either form (told apart by its
/// first bytes).
pub fn read_powers(path: &Path, k: u32) -> Result<Powers, FileError> {
    if k == 0 || k > MAX_K {
        return Err(format!("k = {k} is out of range (1..={MAX_K})"));
    }
    let mut r = Reader::open(path)?;
    if r.len < 4 {
        return Err(format!("{} bytes: too short to be a ceremony file", r.len));
    }
    let magic = r.bytes_at(0, 4, "the header")?;
    if magic == b"ptau" {
        read_ptau(&mut r, k)
    } else {
        read_raw(&mut r, k)
    }
}

/// `G₂` and `τ·G₂` of a ceremony file of either form (each checked on its curve; the
/// subgroup and τ are the caller's), read without its G₁ powers.
pub fn read_g2_pair(path: &Path) -> Result<(G2Affine, G2Affine), FileError> {
    let mut r = Reader::open(path)?;
    if r.len < 4 {
        return Err(format!("{} bytes: too short to be a ceremony file", r.len));
    }
    let bytes = if r.bytes_at(0, 4, "the header")? == b"ptau" {
        let t = ptau_table(&mut r)?;
        r.bytes_at(t.tau_g2.0, 2 * G2_BYTES, "tauG2")?
    } else {
        let k = raw_k(&mut r)?;
        r.bytes_at(
            4 + 2 * (1u64 << k) * G1_BYTES as u64,
            2 * G2_BYTES,
            "the G2 points",
        )?
    };
    Ok((
        g2_point(&bytes[..G2_BYTES], "G2")?,
        g2_point(&bytes[G2_BYTES..], "τ·G2")?,
    ))
}

/// The form of a ceremony file and the largest k it serves, from its header alone.
pub fn probe(path: &Path) -> Result<(FileForm, u32), FileError> {
    let mut r = Reader::open(path)?;
    if r.len < 4 {
        return Err(format!("{} bytes: too short to be a ceremony file", r.len));
    }
    if r.bytes_at(0, 4, "the header")? == b"ptau" {
        let t = ptau_table(&mut r)?;
        Ok((FileForm::Ptau, t.power))
    } else {
        Ok((FileForm::Halo2Raw, raw_k(&mut r)?))
    }
}

/// Size of a raw params file for `k` (the k header, `2·2^k` G₁ and two G₂ points).
pub fn raw_len(k: u32) -> u64 {
    4 + 2 * (1u64 << k) * G1_BYTES as u64 + 2 * G2_BYTES as u64
}

fn raw_k(r: &mut Reader) -> Result<u32, FileError> {
    let k = r.u32_at(0, "the header")?;
    if k == 0 || k > MAX_K {
        return Err(format!(
            "neither a snarkjs .ptau file (no `ptau` magic) nor halo2 raw params (the header \
             says k = {k}, outside 1..={MAX_K})"
        ));
    }
    if r.len != raw_len(k) {
        return Err(format!(
            "halo2 raw params of k = {k} are {} bytes, this file is {} (truncated or not raw \
             params)",
            raw_len(k),
            r.len
        ));
    }
    Ok(k)
}

fn read_raw(r: &mut Reader, k: u32) -> Result<Powers, FileError> {
    let file_k = raw_k(r)?;
    if file_k < k {
        return Err(format!(
            "holds 2^{file_k} powers of τ, fewer than the 2^{k} this circuit needs"
        ));
    }
    let n = 1usize << k;
    let big_n = 1u64 << file_k;
    let g = g1_points(&r.bytes_at(4, n * G1_BYTES, "the G1 powers")?, "g")?;
    let lagrange_at = 4 + big_n * G1_BYTES as u64;
    let g_lagrange = if file_k == k {
        Some(g1_points(
            &r.bytes_at(lagrange_at, n * G1_BYTES, "the Lagrange basis")?,
            "g_lagrange",
        )?)
    } else {
        None
    };
    let g2_at = lagrange_at + big_n * G1_BYTES as u64;
    let g2 = g2_point(&r.bytes_at(g2_at, G2_BYTES, "G2")?, "g2")?;
    let s_g2 = g2_point(
        &r.bytes_at(g2_at + G2_BYTES as u64, G2_BYTES, "τ·G2")?,
        "s_g2",
    )?;
    Ok(Powers {
        form: FileForm::Halo2Raw,
        file_k,
        g,
        g_lagrange,
        g2,
        s_g2,
        contributions: None,
    })
}

/// Where the sections of a `.ptau` file lie, and its header.
struct PtauTable {
    power: u32,
    /// (offset, length) of sections 2 (tauG1) and 3 (tauG2).
    tau_g1: (u64, u64),
    tau_g2: (u64, u64),
    contributions: Option<(u64, u64)>,
}

fn ptau_table(r: &mut Reader) -> Result<PtauTable, FileError> {
    let version = r.u32_at(4, "the version")?;
    if version != 1 {
        return Err(format!(
            ".ptau version {version} (this reader knows version 1)"
        ));
    }
    let count = r.u32_at(8, "the section count")?;
    if count > 64 {
        return Err(format!(
            ".ptau file claims {count} sections (at most 64 expected)"
        ));
    }
    let mut sections: Vec<(u32, u64, u64)> = Vec::new();
    let mut pos = 12u64;
    for i in 0..count {
        let head = r.bytes_at(pos, 12, &format!("the header of section {i}"))?;
        let kind = u32::from_le_bytes([head[0], head[1], head[2], head[3]]);
        let size = u64::from_le_bytes(head[4..12].try_into().unwrap_or([0; 8]));
        let start = pos + 12;
        let end = start
            .checked_add(size)
            .filter(|e| *e <= r.len)
            .ok_or_else(|| {
                format!(
                "truncated: section {kind} claims {size} bytes from byte {start}, the file has {}",
                r.len
            )
            })?;
        if sections.iter().any(|s| s.0 == kind) {
            return Err(format!("section {kind} appears twice"));
        }
        sections.push((kind, start, size));
        pos = end;
    }
    let find = |kind: u32| sections.iter().find(|s| s.0 == kind).map(|s| (s.1, s.2));
    let (h_at, h_len) = find(1).ok_or("no header section (1)")?;
    if h_len != 4 + 32 + 4 + 4 {
        return Err(format!(
            "header section of {h_len} bytes (expected 44 for BN254)"
        ));
    }
    let n8 = r.u32_at(h_at, "n8")?;
    if n8 != 32 {
        return Err(format!("field elements of {n8} bytes: not BN254 (32)"));
    }
    if r.bytes_at(h_at + 4, 32, "q")? != BN254_Q_LE {
        return Err("the header's prime q is not BN254's base field: another curve".into());
    }
    let power = r.u32_at(h_at + 36, "the power")?;
    if power == 0 || power > MAX_K {
        return Err(format!("power {power} is outside 1..={MAX_K}"));
    }
    let tau_g1 = find(2).ok_or("no tauG1 section (2)")?;
    let tau_g2 = find(3).ok_or("no tauG2 section (3)")?;
    let want_g1 = ((1u64 << (power + 1)) - 1) * G1_BYTES as u64;
    let want_g2 = (1u64 << power) * G2_BYTES as u64;
    if tau_g1.1 != want_g1 {
        return Err(format!(
            "tauG1 section of {} bytes, expected {want_g1} for power {power}",
            tau_g1.1
        ));
    }
    if tau_g2.1 != want_g2 {
        return Err(format!(
            "tauG2 section of {} bytes, expected {want_g2} for power {power}",
            tau_g2.1
        ));
    }
    Ok(PtauTable {
        power,
        tau_g1,
        tau_g2,
        contributions: find(7),
    })
}

fn read_ptau(r: &mut Reader, k: u32) -> Result<Powers, FileError> {
    let t = ptau_table(r)?;
    if t.power < k {
        return Err(format!(
            "power {} holds too few powers of τ for k = {k} (a .ptau file of power p serves \
             k ≤ p)",
            t.power
        ));
    }
    let n = 1usize << k;
    let g = g1_points(&r.bytes_at(t.tau_g1.0, n * G1_BYTES, "tauG1")?, "tauG1")?;
    let g2s = r.bytes_at(t.tau_g2.0, 2 * G2_BYTES, "tauG2")?;
    let g2 = g2_point(&g2s[..G2_BYTES], "tauG2[0]")?;
    let s_g2 = g2_point(&g2s[G2_BYTES..], "tauG2[1]")?;
    let contributions = match t.contributions {
        Some((at, len)) if len >= 4 => Some(r.u32_at(at, "the contribution count")?),
        _ => None,
    };
    Ok(Powers {
        form: FileForm::Ptau,
        file_k: t.power,
        g,
        g_lagrange: None,
        g2,
        s_g2,
        contributions,
    })
}

/// Writes `2^k` powers (with `g2`, `s_g2`) as a `.ptau` file of power k in the layout above
/// (header, tauG1 with `2^(k+1) − 1` points, tauG2 with `2^k` points): for tests, which need
/// a file of the ceremony form at sizes a ceremony cannot be run for in CI. `g` must hold
/// `2^(k+1) − 1` powers and `g2s` `2^k`.
pub fn write_ptau(path: &Path, k: u32, g: &[G1Affine], g2s: &[G2Affine]) -> std::io::Result<()> {
    let mut out = Vec::new();
    out.extend_from_slice(b"ptau");
    out.extend_from_slice(&1u32.to_le_bytes());
    out.extend_from_slice(&3u32.to_le_bytes());
    let mut section = |kind: u32, body: &[u8]| {
        out.extend_from_slice(&kind.to_le_bytes());
        out.extend_from_slice(&(body.len() as u64).to_le_bytes());
        out.extend_from_slice(body);
    };
    let mut header = Vec::new();
    header.extend_from_slice(&32u32.to_le_bytes());
    header.extend_from_slice(&BN254_Q_LE);
    header.extend_from_slice(&k.to_le_bytes());
    header.extend_from_slice(&k.to_le_bytes());
    section(1, &header);
    let g1: Vec<u8> = g.iter().flat_map(|p| p.to_raw_bytes()).collect();
    section(2, &g1);
    let g2: Vec<u8> = g2s.iter().flat_map(|p| p.to_raw_bytes()).collect();
    section(3, &g2);
    crate::fsutil::write_atomic(path, &out)
}
