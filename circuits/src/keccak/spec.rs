//! Keccak-f\[1600\] constants, the native permutation (witness generation only) and the sparse
//! base-8 encoding the chip computes in.

/// The round constants of ι, round 0 first.
pub const RC: [u64; 24] = [
    0x0000000000000001,
    0x0000000000008082,
    0x800000000000808a,
    0x8000000080008000,
    0x000000000000808b,
    0x0000000080000001,
    0x8000000080008081,
    0x8000000000008009,
    0x000000000000008a,
    0x0000000000000088,
    0x0000000080008009,
    0x000000008000000a,
    0x000000008000808b,
    0x800000000000008b,
    0x8000000000008089,
    0x8000000000008003,
    0x8000000000008002,
    0x8000000000000080,
    0x000000000000800a,
    0x800000008000000a,
    0x8000000080008081,
    0x8000000000008080,
    0x0000000080000001,
    0x8000000080008008,
];

/// ρ rotation offsets, `RHO[x][y]` for lane (x, y) (lane index `x + 5y` of the state).
pub const RHO: [[u32; 5]; 5] = [
    [0, 36, 3, 41, 18],
    [1, 44, 10, 45, 2],
    [62, 6, 43, 15, 61],
    [28, 55, 25, 21, 56],
    [27, 20, 39, 8, 14],
];

/// Rate of Keccak-256 in bytes (17 lanes).
pub const RATE: usize = 136;
/// Lanes absorbed per block.
pub const RATE_LANES: usize = 17;
/// Rounds of Keccak-f\[1600\].
pub const ROUNDS: usize = 24;

/// The base of the sparse representation: each Keccak bit is one base-8 digit, so sums of up
/// to 7 bits never carry into the next digit.
pub const BASE: u64 = 8;

/// Lane index of (x, y).
pub const fn lane(x: usize, y: usize) -> usize {
    x + 5 * y
}

/// The source lane (x, y) of ρπ's output lane (x', y'): π sends (x, y) to (y, 2x + 3y).
pub const fn pi_source(xo: usize, yo: usize) -> (usize, usize) {
    // y = x', 2x = y' − 3x' (mod 5), 2⁻¹ = 3.
    ((3 * (yo + 15 - 3 * xo)) % 5, xo)
}

/// Keccak-f\[1600\] on 25 lanes (the textbook definition; reference for the witness).
pub fn keccak_f(a: &mut [u64; 25]) {
    for rc in RC {
        let mut c = [0u64; 5];
        for (x, cx) in c.iter_mut().enumerate() {
            *cx = (0..5).fold(0, |acc, y| acc ^ a[lane(x, y)]);
        }
        for x in 0..5 {
            let d = c[(x + 4) % 5] ^ c[(x + 1) % 5].rotate_left(1);
            for y in 0..5 {
                a[lane(x, y)] ^= d;
            }
        }
        let mut b = [0u64; 25];
        for x in 0..5 {
            for y in 0..5 {
                b[lane(y, (2 * x + 3 * y) % 5)] = a[lane(x, y)].rotate_left(RHO[x][y]);
            }
        }
        for y in 0..5 {
            for x in 0..5 {
                a[lane(x, y)] =
                    b[lane(x, y)] ^ (!b[lane((x + 1) % 5, y)] & b[lane((x + 2) % 5, y)]);
            }
        }
        a[0] ^= rc;
    }
}

/// Keccak-256 of `data` natively (the sponge over [`keccak_f`] with Ethereum's pad10*1,
/// `0x01 … 0x80`): the reference the circuits' instance values are computed with.
pub fn keccak256(data: &[u8]) -> [u8; 32] {
    let mut a = [0u64; 25];
    let mut padded = data.to_vec();
    padded.push(0x01);
    padded.resize(padded.len().div_ceil(RATE) * RATE, 0);
    let last = padded.len() - 1;
    padded[last] |= 0x80;
    for block in padded.chunks(RATE) {
        for (i, w) in block.chunks(8).enumerate() {
            a[i] ^= u64::from_le_bytes(w.try_into().expect("8-byte words"));
        }
        keccak_f(&mut a);
    }
    let mut out = [0u8; 32];
    for (i, w) in out.chunks_mut(8).enumerate() {
        w.copy_from_slice(&a[i].to_le_bytes());
    }
    out
}

/// The digits `digits[start .. start + len]` packed in base 8, least significant first.
pub fn pack(digits: &[u8], start: usize, len: usize) -> u64 {
    (0..len)
        .rev()
        .fold(0u64, |acc, i| acc * BASE + digits[start + i] as u64)
}

/// The parities of `digits[start .. start + len]` packed in base 8, least significant first
/// (the normalised form of a digit string whose digits are sums of bits).
pub fn pack_parities(digits: &[u8], start: usize, len: usize) -> u64 {
    (0..len)
        .rev()
        .fold(0u64, |acc, i| acc * BASE + (digits[start + i] % 2) as u64)
}

/// The bits of `v` as 64 digits.
pub fn digits_of(v: u64) -> [u8; 64] {
    std::array::from_fn(|i| ((v >> i) & 1) as u8)
}

/// `Σ_{i<len} bit_{start+i}(v)·8^i`: the sparse form of bits `start .. start + len` of `v`.
pub fn sparse(v: u64, start: usize, len: usize) -> u64 {
    pack(&digits_of(v), start, len)
}

/// Every `len`-digit base-8 number whose digits are below `range`, in increasing order of the
/// digits read as a base-`range` number, with its digits (least significant first).
pub fn all_digit_strings(range: u8, len: usize) -> impl Iterator<Item = Vec<u8>> {
    let n = (range as u64).pow(len as u32);
    (0..n).map(move |mut v| {
        (0..len)
            .map(|_| {
                let d = (v % range as u64) as u8;
                v /= range as u64;
                d
            })
            .collect()
    })
}
