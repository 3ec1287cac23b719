//! Where every Keccak cell goes: the uniform partition of a lane into parts and the pieces ρ
//! cuts them into. The gates (`super::gates`) and the witness (`super::chip`) both read this
//! one plan, so the layout and the constraints cannot drift apart.

use super::spec::{pi_source, RHO};

/// One piece of a ρπ input lane: `len` digits at unrotated position `pos`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    pub pos: u32,
    pub len: u32,
}

/// How part `j` of a ρπ output lane is read from its (unrotated) input lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartSource {
    /// One piece (`U`, output `O`).
    Whole(Piece),
    /// The rotation offset falls inside the part: the top `s` digits of the input lane (piece
    /// in `U`, output `O` at relative position 0) and its bottom `len` digits (piece in `V`,
    /// output `W`, which its table section already shifts by `8^s`).
    Straddle { top: Piece, bottom: Piece, s: u32 },
}

/// The plan of the chip for `d` digits per lookup chunk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Geometry {
    /// Digits per chunk (the widest table input).
    pub d: u32,
    /// The uniform partition Q of a lane: (start, len), parts of `d` digits from 0, the last
    /// one the rest (`m = ⌈64 / d⌉` parts). θ's rotation by one relabels every part but the
    /// last, whose top digit (digit 63) a lookup of its own splits off ([`Self::top_len`]).
    pub parts: Vec<(u32, u32)>,
    /// `sources[x'][y'][j]`: part j of ρπ output lane (x', y').
    pub sources: Vec<Vec<Vec<PartSource>>>,
    /// `pair[x'][y']`: the second-piece column pair (`SV_p`, `SW_p`) of the lane's straddle,
    /// if it has one: two straddles on one row (same plane, same part) get different pairs.
    pub pair: Vec<Vec<Option<usize>>>,
}

/// Second-piece column pairs (enough for every `d`: at most two straddles share a row).
pub const PAIRS: usize = 2;

impl Geometry {
    /// The plan for `d` digits per chunk (`2 ≤ d ≤ 8`).
    pub fn new(d: u32) -> Self {
        assert!(
            (2..=8).contains(&d),
            "Keccak chunks of 2..=8 digits, not {d}"
        );
        let mut parts = Vec::new();
        let mut q = 0;
        while q < 64 {
            let len = d.min(64 - q);
            parts.push((q, len));
            q += len;
        }
        let sources = (0..5)
            .map(|xo| {
                (0..5)
                    .map(|yo| {
                        let (x, y) = pi_source(xo, yo);
                        let r = RHO[x][y];
                        parts
                            .iter()
                            .map(|&(q, len)| {
                                if r > q && r < q + len {
                                    let s = r - q;
                                    PartSource::Straddle {
                                        top: Piece {
                                            pos: 64 - s,
                                            len: s,
                                        },
                                        bottom: Piece {
                                            pos: 0,
                                            len: q + len - r,
                                        },
                                        s,
                                    }
                                } else {
                                    PartSource::Whole(Piece {
                                        pos: (q + 64 - r) % 64,
                                        len,
                                    })
                                }
                            })
                            .collect()
                    })
                    .collect()
            })
            .collect::<Vec<Vec<Vec<PartSource>>>>();
        let mut pair = vec![vec![None; 5]; 5];
        for yo in 0..5 {
            let mut used = vec![0usize; parts.len()];
            for xo in 0..5 {
                if let Some(j) = sources[xo][yo]
                    .iter()
                    .position(|p| matches!(p, PartSource::Straddle { .. }))
                {
                    assert!(used[j] < PAIRS, "more than {PAIRS} straddles on one row");
                    // The last part's rows keep `SV_1` for θ's top bit.
                    assert!(
                        j + 1 < parts.len() || used[j] == 0,
                        "two straddles on a last-part row"
                    );
                    pair[xo][yo] = Some(used[j]);
                    used[j] += 1;
                }
            }
        }
        Self {
            d,
            parts,
            sources,
            pair,
        }
    }

    /// Rows of an absorb block before its state rows, holding the bytes that do not fit two
    /// per row beside the state (`⌈136 / 2⌉ − 5m`, or 0).
    pub fn absorb_pre(&self) -> usize {
        (super::spec::RATE.div_ceil(PAIRS)).saturating_sub(self.block_rows())
    }

    /// Rows of an absorb block: [`Self::absorb_pre`] byte rows, then five planes.
    pub fn absorb_rows(&self) -> usize {
        self.absorb_pre() + self.block_rows()
    }

    /// The row of message byte `t` of a block (relative to the absorb block's first state
    /// row, so negative for the rows before it) and its column pair.
    pub fn byte_slot(&self, t: usize) -> (i32, usize) {
        ((t / PAIRS) as i32 - self.absorb_pre() as i32, t % PAIRS)
    }

    /// Digits of the last part. When it has more than one, θ's rotation by one needs its top
    /// digit apart: the `TOP` lookup (`super::gates`) gives it, in `SV_1`.
    pub fn top_len(&self) -> u32 {
        self.parts.last().map_or(0, |p| p.1)
    }

    /// Number of parts of a lane (`m`): rows of one plane.
    pub fn m(&self) -> usize {
        self.parts.len()
    }

    /// Rows of an absorb or round block: five planes of `m` rows.
    pub fn block_rows(&self) -> usize {
        5 * self.m()
    }

    /// Rows of the squeeze block (16 nibbles of a lane).
    pub const SQUEEZE_ROWS: usize = 16;

    /// Rows of one Keccak-256 hash of `blocks` absorbed blocks.
    pub fn hash_rows(&self, blocks: usize) -> usize {
        blocks * (self.absorb_rows() + 24 * self.block_rows()) + Self::SQUEEZE_ROWS
    }

    /// The (length, shift) of every straddle's bottom piece: the shifted table sections.
    pub fn shifted_sections(&self) -> Vec<(u32, u32)> {
        let mut v: Vec<(u32, u32)> = self
            .sources
            .iter()
            .flatten()
            .flatten()
            .filter_map(|p| match p {
                PartSource::Straddle { bottom, s, .. } => Some((bottom.len, *s)),
                PartSource::Whole(_) => None,
            })
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// Number of straddling parts in a round.
    pub fn straddles(&self) -> usize {
        self.sources
            .iter()
            .flatten()
            .flatten()
            .filter(|p| matches!(p, PartSource::Straddle { .. }))
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every output lane's pieces cover the 64 input digits exactly once, and map to the
    /// rotated positions of their part.
    #[test]
    fn pieces_tile_every_lane() {
        for d in 2..=8 {
            let g = Geometry::new(d);
            assert_eq!(g.parts.iter().map(|p| p.1).sum::<u32>(), 64);
            for xo in 0..5 {
                for yo in 0..5 {
                    let (x, y) = pi_source(xo, yo);
                    let r = RHO[x][y];
                    let mut seen = [false; 64];
                    for (j, src) in g.sources[xo][yo].iter().enumerate() {
                        let (q, _) = g.parts[j];
                        let pieces = match src {
                            PartSource::Whole(p) => vec![(*p, 0)],
                            PartSource::Straddle { top, bottom, s } => {
                                vec![(*top, 0), (*bottom, *s)]
                            }
                        };
                        for (p, off) in pieces {
                            for i in 0..p.len {
                                let u = p.pos + i;
                                assert!(u < 64 && !seen[u as usize]);
                                seen[u as usize] = true;
                                assert_eq!((u + r) % 64, q + off + i);
                            }
                        }
                    }
                    assert!(seen.iter().all(|&b| b));
                }
            }
        }
    }
}
