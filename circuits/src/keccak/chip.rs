//! The Keccak chip: Keccak-256 of a fixed-length byte string, laid out as absorb, round and
//! squeeze blocks (see `super::gates` for the constraints and `super::geometry` for the
//! plan both follow).

use ff::{Field, PrimeField};

use super::gates::{
    chi_ones, col, sparse_native, tag_const, tag_n5, tag_shifted, ColumnKind, B, CHI_ABSORB,
    CHI_ONES, CHI_ROUND, CHI_STRADDLE, CONST_BYTES, H, O, RC_FIXED, RC_ROT, ROUND, SQUEEZE, SV, SW,
    TAG_BYTE, TAG_CHI, TAG_CHI_CHI, TAG_CHI_ID, TAG_N6, TAG_S, TAG_THETA, TAG_TOP, TAG_TOP_BIT,
    TAG_U, TAG_UNPACK, U,
};
use super::geometry::{Geometry, PartSource};
use super::spec::{
    digits_of, lane, pack, pack_parities, pi_source, sparse, RATE, RATE_LANES, RC, RHO, ROUNDS,
};
use crate::layout::{AssignedValue, Builder, LayoutParams, Native};

/// The digest of [`KeccakChip::keccak256`]: 32 byte cells (digest order) and the digest as
/// two 128-bit big-endian halves (`hi` = bytes 0–15), all proven equal to the hash of the
/// input cells.
#[derive(Clone, Debug)]
pub struct KeccakDigest {
    pub bytes: Vec<AssignedValue>,
    pub hi: AssignedValue,
    pub lo: AssignedValue,
}

/// Keccak-256 over cells of one builder whose configuration has Keccak columns
/// (`LayoutParams::keccak_digits > 0`).
#[derive(Clone, Debug)]
pub struct KeccakChip {
    pub params: LayoutParams,
    pub geometry: Geometry,
}

/// A byte of the padded input: the caller's cell, or a padding constant.
#[derive(Clone, Copy)]
enum PaddedByte {
    Message(AssignedValue, u8),
    Pad(u8),
}

impl PaddedByte {
    fn value(&self) -> u8 {
        match self {
            PaddedByte::Message(_, v) | PaddedByte::Pad(v) => *v,
        }
    }
}

fn lane_of_digits(digits: &[u8; 64]) -> u64 {
    (0..64).fold(0u64, |acc, i| acc | (((digits[i] % 2) as u64) << i))
}

impl KeccakChip {
    /// Panics if `params` has no Keccak columns (a construction error).
    pub fn new(params: LayoutParams) -> Self {
        assert!(
            params.keccak_digits > 0,
            "the Keccak chip needs LayoutParams::keccak_digits > 0"
        );
        let geometry = Geometry::new(params.keccak_digits);
        Self { params, geometry }
    }

    fn c(&self, kind: ColumnKind, x: usize) -> usize {
        col(&self.params, kind, x)
    }

    /// Rows of a Keccak-256 of `len` bytes.
    pub fn hash_rows(&self, len: usize) -> usize {
        self.geometry.hash_rows(len / RATE + 1)
    }

    /// Keccak-256 of the bytes `input` (cells with equality, e.g. main columns). The chip
    /// range-checks each byte (the `BYTE` lookup of its absorb block) and pads with the
    /// pad10*1 rule of Keccak-256 (0x01 … 0x80) for the length `input.len()`, fixed at layout
    /// time.
    pub fn keccak256(&self, b: &mut Builder, input: &[AssignedValue]) -> KeccakDigest {
        let blocks = input.len() / RATE + 1;
        let mut padded: Vec<PaddedByte> = input
            .iter()
            .map(|c| PaddedByte::Message(*c, c.value.to_repr()[0]))
            .collect();
        padded.resize(blocks * RATE, PaddedByte::Pad(0));
        let last = blocks * RATE - 1;
        let first_pad = input.len();
        padded[first_pad] = PaddedByte::Pad(0x01);
        padded[last] = PaddedByte::Pad(padded[last].value() | 0x80);
        let block_rows = self.geometry.block_rows() as u32;
        let mut row = b.new_keccak_rows(self.geometry.hash_rows(blocks) as u32);
        let mut h = [0u64; 25];
        let mut pend = 0u64;
        let pre = self.geometry.absorb_pre() as u32;
        for (k, chunk) in padded.chunks(RATE).enumerate() {
            self.absorb(b, row + pre, k > 0, chunk, &mut h, &mut pend);
            row += pre + block_rows;
            for (i, rc) in RC.iter().enumerate().take(ROUNDS) {
                self.round(b, row, i, &mut h, &mut pend);
                debug_assert_eq!(pend, *rc);
                row += block_rows;
            }
        }
        self.squeeze(b, row, &h, pend)
    }

    /// The absorb block whose state rows start at `a0` (its byte rows may start before): the
    /// new state `prev·(old state) ⊕ block` in the state
    /// columns, each lane normalised through exact `N5` pieces.
    fn absorb(
        &self,
        b: &mut Builder,
        a0: u32,
        prev: bool,
        bytes: &[PaddedByte],
        h: &mut [u64; 25],
        pend: &mut u64,
    ) {
        let m = self.geometry.m() as u32;
        let gate = if prev {
            super::gates::ABSORB_NEXT
        } else {
            super::gates::ABSORB
        };
        b.enable(gate, a0);
        let id_tag = Native::from(TAG_CHI_ID);
        for y in 0..5 {
            for j in 0..m {
                b.set_fixed(TAG_CHI, a0 + y * m + j, id_tag);
                b.set_fixed(CHI_ABSORB, a0 + y * m + j, id_tag);
            }
        }
        for y in 0..5usize {
            for x in 0..5usize {
                let idx = lane(x, y);
                let msg = if idx < RATE_LANES {
                    (0..8).fold(0u64, |acc, i| {
                        acc | (bytes[8 * idx + i].value() as u64) << (8 * i)
                    })
                } else {
                    0
                };
                let old = if prev { h[idx] } else { 0 };
                let pbits = if prev && idx == 0 { *pend } else { 0 };
                let (od, pd, md) = (digits_of(old), digits_of(pbits), digits_of(msg));
                let digits: [u8; 64] = std::array::from_fn(|i| od[i] + pd[i] + md[i]);
                for (j, &(q, len)) in self.geometry.parts.iter().enumerate() {
                    let row = a0 + y as u32 * m + j as u32;
                    let (q, len) = (q as usize, len as usize);
                    b.set_fixed(TAG_U.at(x), row, Native::from(tag_n5(len as u32)));
                    b.assign(row, self.c(U, x), Native::from(pack(&digits, q, len)));
                    let o = Native::from(pack_parities(&digits, q, len));
                    b.assign(row, self.c(O, x), o);
                    b.assign(row, self.c(H, x), o);
                }
                h[idx] = lane_of_digits(&digits);
            }
        }
        for (t, byte) in bytes.iter().enumerate() {
            let (rel, p) = self.geometry.byte_slot(t);
            let row = (a0 as i64 + rel as i64) as u32;
            match byte {
                PaddedByte::Message(cell, _) => {
                    b.set_fixed(TAG_S.at(p), row, Native::from(TAG_BYTE));
                    b.copy_of(cell, row, self.c(SV, p));
                }
                PaddedByte::Pad(c) => {
                    debug_assert!(CONST_BYTES.contains(c));
                    b.set_fixed(TAG_S.at(p), row, Native::from(tag_const(*c)));
                    b.assign(row, self.c(SV, p), Native::from(*c as u64));
                }
            }
            let v = byte.value() as u64;
            b.assign(row, self.c(SW, p), Native::from(sparse(v, 0, 8)));
        }
        *pend = 0;
    }

    /// Round `i` at `r0`: θ's column parities, the ρπ pieces and χ (ι stays pending: the
    /// next block adds it).
    fn round(&self, b: &mut Builder, r0: u32, i: usize, h: &mut [u64; 25], pend: &mut u64) {
        let g = &self.geometry;
        let m = g.m() as u32;
        b.enable(ROUND, r0);
        if *pend != 0 {
            b.set_fixed(RC_FIXED, r0, sparse_native(*pend, 0, 64));
            b.set_fixed(RC_ROT, r0, sparse_native(pend.rotate_left(1), 0, 64));
        }
        let bc: [u64; 5] = std::array::from_fn(|x| (0..5).fold(0, |a, y| a ^ h[lane(x, y)]));
        // Part j of C[x] on row x·m + j; bit 63 of C[x] beside the last part when that part
        // has more than one digit.
        for (x, c) in bc.iter().enumerate() {
            for (j, &(q, len)) in g.parts.iter().enumerate() {
                let row = r0 + x as u32 * m + j as u32;
                b.set_fixed(TAG_THETA.at(x), row, Native::from(TAG_N6));
                let v = Native::from(sparse(*c, q as usize, len as usize));
                b.assign(row, self.c(B, 0), v);
            }
            if g.top_len() > 1 {
                let row = r0 + x as u32 * m + m - 1;
                b.set_fixed(TAG_TOP.at(x), row, Native::from(TAG_TOP_BIT));
                b.assign(row, self.c(SV, 1), Native::from(c >> 63));
            }
        }
        // θ's output lanes as digit sums (each digit ≤ 4).
        let pd = digits_of(*pend);
        let digits: Vec<[u8; 64]> = (0..25)
            .map(|idx| {
                let (x, y) = (idx % 5, idx / 5);
                let (hd, l, r) = (
                    digits_of(h[idx]),
                    digits_of(bc[(x + 4) % 5]),
                    digits_of(bc[(x + 1) % 5].rotate_left(1)),
                );
                let rd = digits_of(pend.rotate_left(1));
                std::array::from_fn(|k| {
                    let mut d = hd[k] + l[k] + r[k];
                    if (x, y) == (0, 0) || x == 1 {
                        d += pd[k];
                    }
                    if x == 4 {
                        d += rd[k];
                    }
                    d
                })
            })
            .collect();
        let mut rotated = [0u64; 25];
        for xo in 0..5 {
            for yo in 0..5 {
                let (x, y) = pi_source(xo, yo);
                let dig = &digits[lane(x, y)];
                rotated[lane(xo, yo)] = lane_of_digits(dig).rotate_left(RHO[x][y]);
                for (j, src) in g.sources[xo][yo].iter().enumerate() {
                    let row = r0 + yo as u32 * m + j as u32;
                    match src {
                        PartSource::Whole(p) => {
                            let (pos, len) = (p.pos as usize, p.len as usize);
                            b.set_fixed(TAG_U.at(xo), row, Native::from(tag_n5(p.len)));
                            b.assign(row, self.c(U, xo), Native::from(pack(dig, pos, len)));
                            b.assign(
                                row,
                                self.c(O, xo),
                                Native::from(pack_parities(dig, pos, len)),
                            );
                        }
                        PartSource::Straddle { top, bottom, s } => {
                            let (tp, tl) = (top.pos as usize, top.len as usize);
                            let bl = bottom.len as usize;
                            b.set_fixed(TAG_U.at(xo), row, Native::from(tag_n5(top.len)));
                            b.assign(row, self.c(U, xo), Native::from(pack(dig, tp, tl)));
                            b.assign(row, self.c(O, xo), Native::from(pack_parities(dig, tp, tl)));
                            let p = g.pair[xo][yo].expect("a straddle has a pair");
                            let tag = Native::from(tag_shifted(bottom.len, *s));
                            b.set_fixed(TAG_S.at(p), row, tag);
                            b.assign(row, self.c(SV, p), Native::from(pack(dig, 0, bl)));
                            let w = pack_parities(dig, 0, bl) << (3 * s);
                            b.assign(row, self.c(SW, p), Native::from(w));
                            let chi = Native::from(TAG_CHI_CHI);
                            b.set_fixed(CHI_STRADDLE.at(5 * p + xo), row, chi);
                        }
                    }
                }
            }
        }
        for yo in 0..5 {
            for (j, &(q, len)) in g.parts.iter().enumerate() {
                let row = r0 + yo as u32 * m + j as u32;
                let tag = Native::from(TAG_CHI_CHI);
                b.set_fixed(TAG_CHI, row, tag);
                b.set_fixed(CHI_ROUND, row, tag);
                b.set_fixed(CHI_ONES, row, tag * Native::from(chi_ones(len)));
                for xo in 0..5 {
                    let a = rotated[lane(xo, yo)];
                    let bb = rotated[lane((xo + 1) % 5, yo)];
                    let c = rotated[lane((xo + 2) % 5, yo)];
                    let hn = a ^ (!bb & c);
                    h[lane(xo, yo)] = hn;
                    let _ = hn;
                    b.assign(
                        row,
                        self.c(H, xo),
                        Native::from(sparse(a ^ (!bb & c), q as usize, len as usize)),
                    );
                }
            }
        }
        *pend = RC[i];
    }

    /// The squeeze block at `s0`: lanes 0–3 (ι of the last round added) as nibbles, bytes and
    /// halves.
    fn squeeze(&self, b: &mut Builder, s0: u32, h: &[u64; 25], pend: u64) -> KeccakDigest {
        b.enable(SQUEEZE, s0);
        let mut bytes = Vec::with_capacity(32);
        for (x, hx) in h.iter().take(4).enumerate() {
            let extra = if x == 0 { pend } else { 0 };
            let (hd, pd) = (digits_of(*hx), digits_of(extra));
            let digits: [u8; 64] = std::array::from_fn(|i| hd[i] + pd[i]);
            let v = hx ^ extra;
            for i in 0..16u32 {
                let row = s0 + i;
                b.set_fixed(TAG_U.at(x), row, Native::from(TAG_UNPACK));
                b.assign(
                    row,
                    self.c(U, x),
                    Native::from(pack(&digits, 4 * i as usize, 4)),
                );
                b.assign(row, self.c(O, x), Native::from((v >> (4 * i)) & 15));
            }
            for i in 0..8u32 {
                let byte = (v >> (8 * i)) & 255;
                bytes.push(b.assign(s0 + i, self.c(H, x), Native::from(byte)));
            }
        }
        let half = |bs: &[AssignedValue]| {
            bs.iter()
                .fold(Native::ZERO, |acc, c| acc * Native::from(256u64) + c.value)
        };
        let hi = b.assign(s0, self.c(B, 0), half(&bytes[..16]));
        let lo = b.assign(s0 + 1, self.c(B, 0), half(&bytes[16..]));
        KeccakDigest { bytes, hi, lo }
    }
}
