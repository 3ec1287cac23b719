//! The Keccak chip's gates, fixed columns, lookups and tables.
//!
//! ## Columns
//! A column group configured with `LayoutParams::keccak_digits = d > 0` has 20 Keccak advice
//! columns after its looked-up ones ([`col`], [`kcol`]): `U0..4` (piece inputs), `O0..4`
//! (piece outputs), `H0..4` (the state: χ outputs; digest bytes), `B` (θ's column parities;
//! digest halves) and two pairs `SV_p`, `SW_p` (straddles' bottom pieces and their shifted
//! outputs; message bytes and their sparse forms). `H`, `B` and `SV` have equality.
//!
//! ## Tables
//! Three `(tag, tag·in, tag·out)` tables, each with a `(0, 0, 0)` row for the rows where the
//! lookup is off: every lookup input below is `(t, t·in, t·out)` with its row's fixed tag `t`
//! (the fixed coefficients of an input expression already carry the factor t), so a row with
//! `t = 0` reads no advice cell and must match that row. Values are sparse base 8: one digit
//! per Keccak bit, so a sum of up to seven bits never carries.
//! * **piece** ([`piece_entries`]): `N5[ℓ]` (tag ℓ): every ℓ-digit number with digits 0..=4 →
//!   its digit parities (`ℓ = 1..=d`); `SH[ℓ, s]` (tag `100 + 10ℓ + s`): the same, output
//!   shifted by `8^s`; `BYTE` (tag 200): byte → its 8 bits as digits; `UNPACK` (tag 201): 4
//!   digits 0..=2 → the nibble of their parities; `CONST[c]` (tag `300 + c`): the single entry
//!   (c, sparse c) for the padding bytes 0x00, 0x01, 0x80, 0x81.
//! * **chi** ([`chi_entries`]): `CHI` (tag 1): d digits 0..=4 → digit-wise `[0,1,1,0,0]`,
//!   i.e. `3 − 2a + b − c ↦ a ⊕ (¬b ∧ c)`; `ID` (tag 2): d digits 0..=1 → themselves.
//! * **theta** ([`theta_entries`]): `N6` (tag 1): d digits 0..=5 → their parities; `TOP`
//!   (tag 2, when the last part has L > 1 digits): L digits 0..=5 → the parity of digit L − 1.
//!
//! A looked-up *input cell* is therefore a proven digit string: exactly ℓ digits for `N5[ℓ]`
//! and `SH[ℓ, s]` (every entry is below `8^ℓ`), digits in the section's range; and its output
//! cell is the function of it that the section names (the tag column binds the section).
//!
//! ## Blocks, gates, lookups, and what pins each cell they read
//! With `m = ⌈64/d⌉` parts per lane (`Geometry::parts`: `d` digits each from position 0, the
//! last one the rest, at positions `q_j`), absorb and round blocks have five planes of `m`
//! rows: row `y·m + j` holds part j of the five lanes (x, y) of plane y in slots x. Rotations
//! are relative to the block's first state row, where the selector is. The state `H` of a
//! round block is χ's output with ι **pending**: the next block adds the round constant
//! (sparse, fixed) as a gate term, so ι costs no cell.
//! * **keccak round** ([`ROUND`]), one polynomial per output lane (x', y') = π(x, y):
//!   `Σ_pieces 8^pos·(U or SV) = Σ_j 8^{q_j}(H_x[prev block, y, j] + C_{x−1}[j]) +
//!   Σ_j 8^{(q_j+1) mod 64}·C_{x+1}[j] + ι` where `C_x[j]` is `B` on row `x·m + j` (θ's
//!   column parity, part j), `8^{(q_j+1) mod 64}` rotates C by one: for the last part (L
//!   digits, L > 1), whose top digit wraps, the term is `8^{q_last+1}·(C[last] − t·8^{L−1}) +
//!   t` with `t` its top digit from the **keccak theta top** lookup (`TOP`, in `SV_1` on the
//!   last row of plane x), and `ι` the previous round's constant `RC` (fixed, lanes (0,0)
//!   and x = 1) or its rotation `RC1` (x = 4), 0 in round 0. The right side is θ's output
//!   lane as digit sums (each ≤ 4); the left side the lane's ρπ pieces at their unrotated
//!   positions: whole parts (`U`, in `N5[len]`) and, where ρ's offset r falls inside part j
//!   ("straddle"), its top `s = r − q_j` digits (`U`, `N5[s]`) and bottom digits (`SV_p`,
//!   `SH[ℓ, s]`). Every cell read is pinned: `U`, `SV` by their exact-length lookups, `H`
//!   by the previous block's χ / ID lookup, `B` by the θ lookup. Both sides are integers
//!   below `8^64 < r` (no wrap), so the equation holds over the integers, and with digits
//!   below 8 on both sides, digit by digit: each piece holds exactly θ's output digits at its
//!   position, and its output (`O`, or `SW` already shifted by `8^s`) is part j of the
//!   rotated, normalised lane. A dishonest piece either leaves its table (wrong length or
//!   digit), or changes the integer sum (the equation fails).
//! * **keccak chi** lookup (round rows, slot x; [`TAG_CHI`]): input `3·(1…1) − 2a + b − c`
//!   with `a, b, c` part j of rotated lanes x, x + 1, x + 2 (`O`, plus `SW_p` where the fixed
//!   `CHI_STRADDLE.at(5p + x)` marks the straddle), output `H_x` = part j of χ's lane (x, y).
//!   Each digit `3 − 2a + b − c ∈ [0, 4]` (a, b, c bits), so the input is a d-digit entry and
//!   `H` its χ. In absorb rows the same lookup (tag `ID`, weight `CHI_ABSORB`) reads `O_x`
//!   alone: `H_x = O_x`.
//! * **keccak theta** lookup (plane-x rows of a round block, fixed `TAG_THETA.at(x)`): input
//!   `Σ_y H_x[prev block, y, j]` (digits ≤ 5), output `B` = part j of `C[x]`'s parities; the
//!   **keccak theta top** lookup (the last row of plane x, `TAG_TOP.at(x)`) maps the same
//!   input of the last part to its top digit's parity (bit 63 of `C[x]`) in `SV_1`.
//! * **keccak absorb** ([`ABSORB`] for a hash's first block, [`ABSORB_NEXT`] after a
//!   permutation), one polynomial per lane (x, y): `Σ_j 8^{q_j} U_x[y, j] = [next]·(Σ_j 8^{q_j}
//!   H_x[prev block, y, j] + [x=y=0]·RC₂₃) + [x + 5y < 17]·Σ_{i<8} 8^{8i} SW[byte 8(x+5y)+i]`,
//!   `U` in `N5[len]`, `SW` the sparse bytes: `BYTE` for message bytes, whose `SV` is a copy
//!   of the caller's byte cell (this is the chip's range check of the input), `CONST[c]` for
//!   padding bytes (pins both cells to the constant). Digits ≤ 3, so again each `U` piece is
//!   exactly the new state's digit sums, `O` its parities and `H = O` (ID). Bytes sit two per
//!   row ([`Geometry::byte_slot`]), in rows before the state when 5m rows hold fewer than 68.
//!   The first block's gate reads no row before the hash.
//! * **keccak squeeze** ([`SQUEEZE`]), 16 rows after the last round: for lanes x < 4,
//!   `Σ_j 8^{q_j} H_x[prev block, 0, j] + [x=0]·RC₂₃ = Σ_{i<16} 8^{4i} U_x[i]` with `U` in
//!   `UNPACK` (exact 4-digit strings, digits ≤ 2; digits below 8 again make the split exact),
//!   `O_x[i]` the nibbles; the digest bytes `H_x[i] = O_x[2i] + 16·O_x[2i+1]` (i < 8) and the
//!   halves `B[0] = Σ_{b<16} 256^{15−b}·byte_b`, `B[1]` the same over bytes 16..31.
//!
//! Every cell any of these reads is assigned by [`super::KeccakChip`] (the footprint check of
//! `crate::footprint` passes on every Keccak layout in `tests/keccak.rs`).
//!
//! ## Prover cost
//! halo2 evaluates every gate on every row of the extended domain, and its evaluator computes
//! an identical sub-expression once per row. So each polynomial is built from shared parts:
//! the round gate's `C[z]` lane and its rotation once per z (not once per lane that reads
//! them), the two absorb gates' `lane − bytes` once for both. The polynomials, the queries and
//! the proof are what they would be written term by term; only the prover's arithmetic shrinks
//! (`prove --count 8 --public digest`: custom gates 7.5 → 6.4 s per quarter of the extended
//! domain, the proof 92.3 → 87.6 s, on the project's 2-core machine). What remains is mostly
//! memory traffic of the ~940 advice queries, which only a layout with fewer rotations cuts.

use ff::Field;
use halo2_proofs::circuit::{Layouter, Value};
use halo2_proofs::plonk::{ConstraintSystem, Error, Expression, TableColumn, VirtualCells};
use halo2_proofs::poly::Rotation;

use super::geometry::{Geometry, PartSource, PAIRS};
use super::spec::{
    all_digit_strings, lane, pack, pack_parities, pi_source, sparse, RATE_LANES, RC,
};
use crate::layout::{FixedId, GateId, GroupConfig, LayoutParams, Native, MAIN_COLS};

/// The round gate (θ, ρ, π of one round; see the module doc).
pub const ROUND: GateId = GateId::new("keccak round");
/// The absorb gate of a hash's first block (the state before it is zero).
pub const ABSORB: GateId = GateId::new("keccak absorb");
/// The absorb gate of a later block (XOR into the state the previous permutation left).
pub const ABSORB_NEXT: GateId = GateId::new("keccak absorb next");
/// The squeeze gate.
pub const SQUEEZE: GateId = GateId::new("keccak squeeze");

/// `TAG_U.at(x)`: tag of slot x's `(U, O)` piece lookup.
pub const TAG_U: FixedId = FixedId::new("keccak piece tag");
/// `TAG_S.at(p)`: tag of pair p's `(SV, SW)` second-piece lookup.
pub const TAG_S: FixedId = FixedId::new("keccak second piece tag");
/// Tag of the χ lookup (CHI in round rows, ID in absorb rows).
pub const TAG_CHI: FixedId = FixedId::new("keccak chi tag");
/// `tag·1` on round rows: weight of the χ combination of `O`.
pub const CHI_ROUND: FixedId = FixedId::new("keccak chi round");
/// `tag·1` on absorb rows: weight of `O_x` alone.
pub const CHI_ABSORB: FixedId = FixedId::new("keccak chi absorb");
/// `tag·3·(1…1)` of the row's part length.
pub const CHI_ONES: FixedId = FixedId::new("keccak chi ones");
/// `CHI_STRADDLE.at(5p + x)`: `tag` on the straddle row of slot x whose bottom piece is in
/// pair p (its `SW_p` joins its `O`).
pub const CHI_STRADDLE: FixedId = FixedId::new("keccak chi straddle");
/// `TAG_THETA.at(x)`: tag of the θ lookup on the plane-x rows of round blocks (N6), whose
/// `B` is part j of column parity `C[x]`.
pub const TAG_THETA: FixedId = FixedId::new("keccak theta tag");
/// `TAG_TOP.at(x)`: tag of the θ top-bit lookup on the last row of plane x.
pub const TAG_TOP: FixedId = FixedId::new("keccak theta top tag");
/// The previous round's constant, sparse (first row of a round block).
pub const RC_FIXED: FixedId = FixedId::new("keccak rc");
/// That constant rotated by one, sparse.
pub const RC_ROT: FixedId = FixedId::new("keccak rc rot1");

/// Column kinds (see the module doc): `U` piece inputs, `O` piece outputs, `H` the state
/// (five slots each), `B` θ's column parities (one column), `SV`, `SW` the second pieces and
/// their outputs (one per pair).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColumnKind {
    U,
    O,
    H,
    B,
    SV,
    SW,
}
pub use ColumnKind::{B, H, O, SV, SW, U};

/// Piece-table tags.
pub const fn tag_n5(len: u32) -> u64 {
    len as u64
}
pub const fn tag_shifted(len: u32, s: u32) -> u64 {
    100 + 10 * len as u64 + s as u64
}
pub const TAG_BYTE: u64 = 200;
pub const TAG_UNPACK: u64 = 201;
pub const fn tag_const(c: u8) -> u64 {
    300 + c as u64
}
/// The padding bytes with a `CONST` section.
pub const CONST_BYTES: [u8; 4] = [0x00, 0x01, 0x80, 0x81];
/// Chi-table tags.
pub const TAG_CHI_CHI: u64 = 1;
pub const TAG_CHI_ID: u64 = 2;
/// Theta-table tags.
pub const TAG_N6: u64 = 1;
pub const TAG_TOP_BIT: u64 = 2;

/// Index of kind `kind`, slot or pair `i`, among the group's Keccak columns:
/// `U0..4, O0..4, H0..4, B, SV0, SW0, SV1, SW1` (equality on `H`, `B`, `SV`:
/// `layout::KECCAK_EQUALITY`).
pub const fn kcol(kind: ColumnKind, i: usize) -> usize {
    match kind {
        U => i,
        O => 5 + i,
        H => 10 + i,
        B => 15,
        SV => 16 + 2 * i,
        SW => 17 + 2 * i,
    }
}

/// The builder column of kind `kind`, slot or pair `i`.
pub fn col(params: &LayoutParams, kind: ColumnKind, i: usize) -> usize {
    MAIN_COLS + params.lookup_cols + kcol(kind, i)
}

/// The fixed columns of the Keccak layer, in allocation order (none without Keccak).
pub fn fixed_columns(params: &LayoutParams) -> Vec<FixedId> {
    if params.keccak_digits == 0 {
        return Vec::new();
    }
    let mut v: Vec<FixedId> = (0..5).map(|x| TAG_U.at(x)).collect();
    v.extend((0..PAIRS).map(|p| TAG_S.at(p)));
    v.extend([TAG_CHI, CHI_ROUND, CHI_ABSORB, CHI_ONES]);
    v.extend((0..5 * PAIRS).map(|i| CHI_STRADDLE.at(i)));
    v.extend((0..5).map(|x| TAG_THETA.at(x)));
    v.extend((0..5).map(|x| TAG_TOP.at(x)));
    v.extend([RC_FIXED, RC_ROT]);
    v
}

/// The gates of the Keccak layer, in selector order (none without Keccak).
pub fn gates(params: &LayoutParams) -> Vec<GateId> {
    if params.keccak_digits == 0 {
        Vec::new()
    } else {
        vec![ROUND, ABSORB, ABSORB_NEXT, SQUEEZE]
    }
}

/// `8^e` in the native field.
pub fn pow8(e: u32) -> Native {
    Native::from(8u64).pow_vartime([e as u64])
}

/// `Σ_{i<len} bit_{start+i}(v)·8^i` in the field (a whole lane does not fit a `u64`).
pub fn sparse_native(v: u64, start: u32, len: u32) -> Native {
    (0..len)
        .filter(|i| (v >> (start + i)) & 1 == 1)
        .map(pow8)
        .fold(Native::ZERO, |a, b| a + b)
}

/// `3·Σ_{i<len} 8^i`: the constant of χ's lookup input for a part of `len` digits.
pub fn chi_ones(len: u32) -> u64 {
    3 * (0..len).map(|i| 8u64.pow(i)).sum::<u64>()
}

/// The three Keccak tables (see the module doc).
#[derive(Clone, Debug)]
pub struct KeccakTables {
    pub geometry: Geometry,
    pub piece: [TableColumn; 3],
    pub chi: [TableColumn; 3],
    pub theta: [TableColumn; 3],
}

type Entry = (u64, u64, u64);

fn parity(digits: &[u8]) -> u64 {
    pack_parities(digits, 0, digits.len())
}

fn packed(digits: &[u8]) -> u64 {
    pack(digits, 0, digits.len())
}

/// The piece table's entries (without the zero row).
pub fn piece_entries(g: &Geometry) -> Vec<Entry> {
    let mut v = Vec::new();
    for len in 1..=g.d {
        for ds in all_digit_strings(5, len as usize) {
            v.push((tag_n5(len), packed(&ds), parity(&ds)));
        }
    }
    for (len, s) in g.shifted_sections() {
        for ds in all_digit_strings(5, len as usize) {
            v.push((tag_shifted(len, s), packed(&ds), parity(&ds) << (3 * s)));
        }
    }
    for byte in 0..=255u64 {
        v.push((TAG_BYTE, byte, sparse(byte, 0, 8)));
    }
    for ds in all_digit_strings(3, 4) {
        let nibble = ds
            .iter()
            .rev()
            .fold(0u64, |acc, d| acc * 2 + (d % 2) as u64);
        v.push((TAG_UNPACK, packed(&ds), nibble));
    }
    for c in CONST_BYTES {
        v.push((tag_const(c), c as u64, sparse(c as u64, 0, 8)));
    }
    v
}

/// The chi table's entries (without the zero row).
pub fn chi_entries(g: &Geometry) -> Vec<Entry> {
    const CHI: [u8; 5] = [0, 1, 1, 0, 0];
    let mut v = Vec::new();
    for ds in all_digit_strings(5, g.d as usize) {
        let out: Vec<u8> = ds.iter().map(|d| CHI[*d as usize]).collect();
        v.push((TAG_CHI_CHI, packed(&ds), packed(&out)));
    }
    for ds in all_digit_strings(2, g.d as usize) {
        v.push((TAG_CHI_ID, packed(&ds), packed(&ds)));
    }
    v
}

/// The theta table's entries (without the zero row).
pub fn theta_entries(g: &Geometry) -> Vec<Entry> {
    let mut v: Vec<Entry> = all_digit_strings(6, g.d as usize)
        .map(|ds| (TAG_N6, packed(&ds), parity(&ds)))
        .collect();
    let l = g.top_len() as usize;
    if l > 1 {
        for ds in all_digit_strings(6, l) {
            v.push((TAG_TOP_BIT, packed(&ds), (ds[l - 1] % 2) as u64));
        }
    }
    v
}

/// Rows of the largest Keccak table for `d` digits (zero row included); 0 for `d = 0`.
pub fn table_rows(d: u32) -> usize {
    if d == 0 {
        return 0;
    }
    let g = Geometry::new(d);
    1 + piece_entries(&g)
        .len()
        .max(chi_entries(&g).len())
        .max(theta_entries(&g).len())
}

impl KeccakTables {
    /// Allocates the nine table columns.
    pub fn configure(meta: &mut ConstraintSystem<Native>, params: &LayoutParams) -> Self {
        let mut t = || {
            [
                meta.lookup_table_column(),
                meta.lookup_table_column(),
                meta.lookup_table_column(),
            ]
        };
        Self {
            geometry: Geometry::new(params.keccak_digits),
            piece: t(),
            chi: t(),
            theta: t(),
        }
    }

    /// Fills the three tables.
    pub fn load(&self, layouter: &mut impl Layouter<Native>) -> Result<(), Error> {
        let g = &self.geometry;
        for (name, cols, entries) in [
            ("keccak piece table", self.piece, piece_entries(g)),
            ("keccak chi table", self.chi, chi_entries(g)),
            ("keccak theta table", self.theta, theta_entries(g)),
        ] {
            layouter.assign_table(
                || name,
                |mut t| {
                    for (row, (tag, i, o)) in std::iter::once((0, 0, 0))
                        .chain(entries.iter().copied())
                        .enumerate()
                    {
                        let tag = Native::from(tag);
                        for (c, v) in
                            cols.iter()
                                .zip([tag, tag * Native::from(i), tag * Native::from(o)])
                        {
                            t.assign_cell(|| name, *c, row, || Value::known(v))?;
                        }
                    }
                    Ok(())
                },
            )?;
        }
        Ok(())
    }
}

fn q(
    m: &mut VirtualCells<'_, Native>,
    g: &GroupConfig,
    kind: ColumnKind,
    x: usize,
    rot: i32,
) -> Expression<Native> {
    m.query_advice(g.keccak[kcol(kind, x)], Rotation(rot))
}

fn fx(m: &mut VirtualCells<'_, Native>, g: &GroupConfig, f: FixedId) -> Expression<Native> {
    m.query_fixed(g.fixed(f), Rotation::cur())
}

fn zero() -> Expression<Native> {
    Expression::Constant(Native::ZERO)
}

/// Adds the Keccak gates and lookups of one column group (nothing if it has no Keccak
/// columns). See the module doc for each polynomial and what pins the cells it reads.
pub fn configure(meta: &mut ConstraintSystem<Native>, g: &GroupConfig, t: &KeccakTables) {
    if g.keccak.is_empty() {
        return;
    }
    let geo = t.geometry.clone();
    let mm = geo.m() as i32;
    let prev_block = -5 * mm;
    let rc23 = sparse_native(RC[23], 0, 64);
    let c = g.clone();
    let gm = geo.clone();
    meta.create_gate("keccak round", move |m| {
        let s = m.query_selector(c.selector(ROUND));
        let krc = fx(m, &c, RC_FIXED);
        let krc1 = fx(m, &c, RC_ROT);
        // θ's column parity C[z] as a lane, `Σ_j 8^{q_j}·B[z·m + j]`, and rotated by one,
        // each built once per z: halo2's evaluator shares identical sub-expressions, so every
        // row computes them five times, not once per lane that reads them (25 times).
        let top = gm.top_len();
        let mut c_lane = Vec::new();
        let mut c_rot = Vec::new();
        for z in 0..5i32 {
            let (mut lane_sum, mut rot_sum) = (zero(), zero());
            for (j, &(qj, _)) in gm.parts.iter().enumerate() {
                let last = j + 1 == gm.parts.len();
                let b = q(m, &c, B, 0, z * mm + j as i32);
                lane_sum = lane_sum + b.clone() * pow8(qj);
                if last && top > 1 {
                    // rot1 of the last part: its top digit t wraps to position 0.
                    let t = q(m, &c, SV, 1, z * mm + j as i32);
                    rot_sum = rot_sum + b * pow8(qj + 1) + t * (Native::ONE - pow8(qj + top));
                } else {
                    rot_sum = rot_sum + b * pow8((qj + 1) % 64);
                }
            }
            c_lane.push(lane_sum);
            c_rot.push(rot_sum);
        }
        let mut polys = Vec::new();
        for xo in 0..5 {
            for yo in 0..5 {
                let (x, y) = pi_source(xo, yo);
                let mut pieces = zero();
                for (j, src) in gm.sources[xo][yo].iter().enumerate() {
                    let row = yo as i32 * mm + j as i32;
                    match src {
                        PartSource::Whole(p) => {
                            pieces = pieces + q(m, &c, U, xo, row) * pow8(p.pos)
                        }
                        PartSource::Straddle { top, bottom, .. } => {
                            let p = gm.pair[xo][yo].expect("a straddle has a pair");
                            pieces = pieces
                                + q(m, &c, U, xo, row) * pow8(top.pos)
                                + q(m, &c, SV, p, row) * pow8(bottom.pos)
                        }
                    }
                }
                // The lane (x, y) of the previous block's state.
                let mut state = zero();
                for (j, &(qj, _)) in gm.parts.iter().enumerate() {
                    let h = q(m, &c, H, x, prev_block + y as i32 * mm + j as i32);
                    state = state + h * pow8(qj);
                }
                // θ: lane + C[x − 1] + rot1(C[x + 1]); part j of C[x'] is `B` on row
                // x'·m + j of this block.
                let (xl, xr) = ((x + 4) % 5, (x + 1) % 5);
                let mut e = pieces - state - c_lane[xl].clone() - c_rot[xr].clone();
                if (x, y) == (0, 0) || x == 1 {
                    e = e - krc.clone();
                }
                if x == 4 {
                    e = e - krc1.clone();
                }
                polys.push(s.clone() * e);
            }
        }
        polys
    });
    for next in [false, true] {
        let c = g.clone();
        let gm = geo.clone();
        let (name, gate) = if next {
            ("keccak absorb next", ABSORB_NEXT)
        } else {
            ("keccak absorb", ABSORB)
        };
        meta.create_gate(name, move |m| {
            let s = m.query_selector(c.selector(gate));
            // The previous block (a round block) ends where this block's byte rows begin. The
            // first block's gate reads nothing before the hash.
            let prev_state = prev_block - gm.absorb_pre() as i32;
            let mut polys = Vec::new();
            for y in 0..5 {
                for x in 0..5 {
                    // The new lane and the message bytes, built the same way in both absorb
                    // gates so that halo2's evaluator computes `lane − bytes` once per row.
                    let mut lane_sum = zero();
                    for (j, &(qj, _)) in gm.parts.iter().enumerate() {
                        let row = y as i32 * mm + j as i32;
                        lane_sum = lane_sum + q(m, &c, U, x, row) * pow8(qj);
                    }
                    let mut bytes = zero();
                    if lane(x, y) < RATE_LANES {
                        for i in 0..8 {
                            let (row, p) = gm.byte_slot(8 * lane(x, y) + i);
                            bytes = bytes + q(m, &c, SW, p, row) * pow8(8 * i as u32);
                        }
                    }
                    let mut e = lane_sum - bytes;
                    if next {
                        let mut state = zero();
                        for (j, &(qj, _)) in gm.parts.iter().enumerate() {
                            let row = y as i32 * mm + j as i32;
                            state = state + q(m, &c, H, x, prev_state + row) * pow8(qj);
                        }
                        e = e - state;
                        if (x, y) == (0, 0) {
                            e = e - Expression::Constant(rc23);
                        }
                    }
                    polys.push(s.clone() * e);
                }
            }
            polys
        });
    }
    let c = g.clone();
    let gm = geo.clone();
    meta.create_gate("keccak squeeze", move |m| {
        let s = m.query_selector(c.selector(SQUEEZE));
        let mut polys = Vec::new();
        for x in 0..4 {
            let mut e = zero();
            for (j, &(qj, _)) in gm.parts.iter().enumerate() {
                e = e + q(m, &c, H, x, prev_block + j as i32) * pow8(qj);
            }
            if x == 0 {
                e = e + Expression::Constant(rc23);
            }
            for i in 0..16 {
                e = e - q(m, &c, U, x, i) * pow8(4 * i as u32);
            }
            polys.push(s.clone() * e);
            for i in 0..8 {
                let byte = q(m, &c, H, x, i)
                    - q(m, &c, O, x, 2 * i)
                    - q(m, &c, O, x, 2 * i + 1) * Native::from(16u64);
                polys.push(s.clone() * byte);
            }
        }
        for half in 0..2 {
            let mut e = q(m, &c, B, 0, half as i32);
            for b in 0..16usize {
                let byte = q(m, &c, H, 2 * half + b / 8, (b % 8) as i32);
                e = e - byte * Native::from(256u64).pow_vartime([(15 - b) as u64]);
            }
            polys.push(s.clone() * e);
        }
        polys
    });
    for x in 0..5 {
        piece_lookup(meta, "keccak piece", g, t, TAG_U.at(x), (U, O, x));
    }
    for p in 0..PAIRS {
        piece_lookup(meta, "keccak second piece", g, t, TAG_S.at(p), (SV, SW, p));
    }
    for x in 0..5 {
        let c = g.clone();
        meta.lookup("keccak chi", move |m| {
            let tag = fx(m, &c, TAG_CHI);
            let rnd = fx(m, &c, CHI_ROUND);
            let abs = fx(m, &c, CHI_ABSORB);
            let ones = fx(m, &c, CHI_ONES);
            // Part j of rotated lane x + k: its `O`, plus the bottom piece of its straddle
            // (`SW_p` where the fixed `CHI_STRADDLE.at(5p + x + k)` says so).
            let lane_part = |m: &mut VirtualCells<'_, Native>, k: usize| {
                let xk = (x + k) % 5;
                let mut w = zero();
                for p in 0..PAIRS {
                    let ft = m.query_fixed(c.fixed(CHI_STRADDLE.at(5 * p + xk)), Rotation::cur());
                    w = w + ft * q(m, &c, SW, p, 0);
                }
                (q(m, &c, O, xk, 0), w)
            };
            let (a, aw) = lane_part(m, 0);
            let (b, bw) = lane_part(m, 1);
            let (cc, cw) = lane_part(m, 2);
            let input = ones + rnd * (b - a.clone() * Native::from(2u64) - cc) + abs * a
                - aw * Native::from(2u64)
                + bw
                - cw;
            let out = tag.clone() * q(m, &c, H, x, 0);
            vec![(tag, t.chi[0]), (input, t.chi[1]), (out, t.chi[2])]
        });
    }
    // On the plane-x rows (row x·m + j) of a round block: Σ_y H_x[previous block, y, j] →
    // part j of C[x]'s parities in `B`.
    theta_lookup(
        meta,
        "keccak theta",
        g,
        t,
        TAG_THETA,
        (B, 0),
        prev_block,
        mm,
    );
    if geo.top_len() > 1 {
        // The last row of plane x: the top digit's parity of C[x]'s last part, in `SV_1`.
        theta_lookup(
            meta,
            "keccak theta top",
            g,
            t,
            TAG_TOP,
            (SV, 1),
            prev_block,
            mm,
        );
    }
}

/// A piece lookup: `(t, t·in, t·out)` in the piece table, with `t` the fixed `tag` of the row
/// and `in`, `out` the cells of column kinds `cols.0`, `cols.1`, slot or pair `cols.2`.
fn piece_lookup(
    meta: &mut ConstraintSystem<Native>,
    name: &'static str,
    g: &GroupConfig,
    t: &KeccakTables,
    tag: FixedId,
    cols: (ColumnKind, ColumnKind, usize),
) {
    let c = g.clone();
    let piece = t.piece;
    meta.lookup(name, move |m| {
        let tag = fx(m, &c, tag);
        let (i, o) = (q(m, &c, cols.0, cols.2, 0), q(m, &c, cols.1, cols.2, 0));
        vec![
            (tag.clone(), piece[0]),
            (tag.clone() * i, piece[1]),
            (tag * o, piece[2]),
        ]
    });
}

/// A θ lookup: on a row whose fixed `tags.at(x)` is the tag `t_x` (at most one x per row),
/// input `Σ_x t_x·Σ_y H_x[prev_block + (y − x)·mm]` (the column sum of plane x's rows),
/// output `(Σ_x t_x)·out`, where `out` is the cell of column kind `out.0`, slot `out.1`.
#[allow(clippy::too_many_arguments)]
fn theta_lookup(
    meta: &mut ConstraintSystem<Native>,
    name: &'static str,
    g: &GroupConfig,
    t: &KeccakTables,
    tags: FixedId,
    out: (ColumnKind, usize),
    prev_block: i32,
    mm: i32,
) {
    let c = g.clone();
    let t = t.clone();
    meta.lookup(name, move |m| {
        let mut tag = zero();
        let mut sum = zero();
        for x in 0..5 {
            let tx = m.query_fixed(c.fixed(tags.at(x)), Rotation::cur());
            let mut sx = zero();
            for y in 0..5 {
                sx = sx + q(m, &c, H, x, prev_block + (y - x as i32) * mm);
            }
            tag = tag + tx.clone();
            sum = sum + tx * sx;
        }
        let out = tag.clone() * q(m, &c, out.0, out.1, 0);
        vec![(tag, t.theta[0]), (sum, t.theta[1]), (out, t.theta[2])]
    });
}
