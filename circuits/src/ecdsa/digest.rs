//! The digest statement: one Keccak digest of every (signing hash, sender address) pair as the
//! proof's only public input, instead of three values per signature ([`super::instance`]).
//!
//! ```text
//!   D = keccak256(h₀ ‖ a₀ ‖ h₁ ‖ a₁ ‖ … ‖ h_{B−1} ‖ a_{B−1}),   aᵢ = keccak256(x(Qᵢ) ‖ y(Qᵢ))[12..32],
//! ```
//!
//! with `hᵢ` the 32-byte signing hash (big-endian; the scalar the signature signs is `hᵢ mod
//! n`), `x(Qᵢ)`, `y(Qᵢ)` the canonical 32-byte big-endian coordinates of the key and `aᵢ` its
//! Ethereum address. The instance column holds two values, `D_hi = D[0..16]` and
//! `D_lo = D[16..32]`, each read as a big-endian integer (`< 2^128 < r`, so each names its
//! 16 bytes exactly).
//!
//! **What the proof states.** For every i there are a key `Qᵢ` on the curve with
//! `aᵢ = address(Qᵢ)` and a valid ECDSA signature of `hᵢ mod n` under `Qᵢ`, for the `(hᵢ, aᵢ)`
//! that D is the digest of. A verifier that recomputes D from the hashes and addresses it
//! holds (the wrapper contract does so from the posted transactions) learns exactly that:
//! finding a second list of pairs, or a key with a chosen address, with the same digest is a
//! Keccak collision or a 160-bit preimage.
//!
//! **What D binds: the raw hash, not `h mod n`.** D is computed over the raw 32 bytes of each
//! `hᵢ`, while the signature check uses `hᵢ mod n`. For `hᵢ ≥ n` (a 2^-128 fraction of
//! hashes) the proof shows a valid signature of `hᵢ mod n`, and D names the raw `hᵢ`: a
//! verifier must compare D with the raw hashes it holds (the wrapper does, from the posted
//! payloads), never with reduced ones, and the 32-byte string `hᵢ − n` has the same valid
//! signature but another D, so it is not what this proof states.
//!
//! **Where each byte comes from and what pins it.**
//! * The bytes of `hᵢ`, `x(Qᵢ)`, `y(Qᵢ)` are cells of [`limb_bytes`]: chains of linear rows
//!   equating each limb with its bytes in base 256, every byte then absorbed by a Keccak block,
//!   whose `BYTE` lookup range-checks it to `[0, 256)`. A limb of 11 (or 10) bytes below 256 is
//!   an integer `< 2^88 < r`, so the equation holds over the integers and the bytes are the
//!   limb's base-256 digits: unique. The limbs are those the signature checks use: `x(Qᵢ)`,
//!   `y(Qᵢ)` canonical and on the curve, `hᵢ` a proper integer `< 2^256` (not reduced: the
//!   relation blocks that use it work mod n, so `hᵢ ≥ n` is proven as the signature signs it).
//! * `aᵢ` is bytes 12–31 of the Keccak digest cells of the 64 key bytes; D's input is the byte
//!   cells of `hᵢ` and `aᵢ` (copies), in order; `D_hi`, `D_lo` are the squeeze gate's halves,
//!   bound to the instance by the mirror cells ([`crate::layout::Builder::mirror_instance`]).
//!
//! **Before the challenges** (the batch circuit). The statement's `hᵢ`, `Qᵢ` enter the batch
//! equation, whose coefficients are challenges: they must be fixed before those are drawn,
//! as `Rᵢ`, `sᵢ` are. D in the instance (absorbed first) binds `hᵢ` and the addresses, but a
//! key only through its 160-bit address; so the batch circuit also commits the limbs of `hᵢ`,
//! `x(Qᵢ)`, `y(Qᵢ)` in its phase-0 commit column and copy-constrains the phase-1 loads to
//! them (see [`super::batch`]): every input of the error terms `eᵢ` is committed before any
//! challenge exists, and the soundness argument of the batch equation applies unchanged.

use ff::Field;
use halo2curves::secp256k1::{Fp, Fq};
use num_bigint::BigUint;

use crate::bigint::{modulus, native};
use crate::field::params::NUM_LIMBS;
use crate::keccak::KeccakChip;
use crate::layout::{AssignedValue, Builder, Native, ALPHA, BETA, LINEAR_ROW};
use batch_ecdsa_native::digest::{address_of_coordinates, batch_digest};

use super::SignatureWitness;

/// What a proof's public input states.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Statement {
    /// Per signature the scalar `h mod n` and the key Q: three instance values each
    /// ([`super::instance`]).
    #[default]
    Keys,
    /// One digest of every (signing hash, address) pair: two instance values (this module).
    Digest,
}

impl Statement {
    /// Both statements, the per-signature one first.
    pub const ALL: [Statement; 2] = [Statement::Keys, Statement::Digest];

    /// `"keys"` or `"digest"` (the command-line and proof-file spelling).
    pub fn as_str(self) -> &'static str {
        match self {
            Statement::Keys => "keys",
            Statement::Digest => "digest",
        }
    }
}

impl std::fmt::Display for Statement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Statement {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Statement::ALL
            .into_iter()
            .find(|k| k.as_str() == s)
            .ok_or_else(|| format!("unknown statement {s:?}: expected \"keys\" or \"digest\""))
    }
}

/// Instance values of the digest statement: `D_hi`, `D_lo`.
pub const DIGEST_INSTANCE_CELLS: usize = 2;

/// Bytes per limb, least significant limb first (88, 88 and 80 bits).
const LIMB_BYTES: [usize; NUM_LIMBS] = [11, 11, 10];

/// The 32 big-endian bytes of an integer `< 2^256`.
pub fn be_bytes32(v: &BigUint) -> [u8; 32] {
    let b = v.to_bytes_be();
    assert!(b.len() <= 32, "a 256-bit value");
    let mut out = [0u8; 32];
    out[32 - b.len()..].copy_from_slice(&b);
    out
}

/// The Ethereum address of the key `(x, y)`, as the native reference defines it
/// ([`batch_ecdsa_native::digest::address_of_coordinates`]: `keccak256(x ‖ y)[12..32]`).
pub fn address_of(x: &BigUint, y: &BigUint) -> [u8; 20] {
    address_of_coordinates(&be_bytes32(x), &be_bytes32(y))
}

/// The instance `[D_hi, D_lo]` of a digest.
pub fn digest_instance(d: &[u8; 32]) -> [Native; DIGEST_INSTANCE_CELLS] {
    let half = |bs: &[u8]| native(&BigUint::from_bytes_be(bs));
    [half(&d[..16]), half(&d[16..])]
}

/// `D` of a batch of witnesses: their signing hashes ([`SignatureWitness::hash`]) and the
/// addresses of their keys.
pub fn witness_digest(ws: &[SignatureWitness]) -> [u8; 32] {
    let pairs: Vec<([u8; 32], [u8; 20])> = ws
        .iter()
        .map(|w| (be_bytes32(w.hash()), address_of(&w.q().0, &w.q().1)))
        .collect();
    batch_digest(&pairs)
}

/// The byte cells of one signature's statement, from the limb cells its checks loaded. Its
/// cells are sound only once they are absorbed by the Keccak chip (whose `BYTE` lookup
/// range-checks each byte): crate-private, so no caller can take the bytes and forget that.
pub(crate) struct StatementBytes {
    /// The 32 bytes of `h`, big-endian.
    pub hash: Vec<AssignedValue>,
    /// The 64 bytes of `x(Q) ‖ y(Q)`, big-endian.
    pub key: Vec<AssignedValue>,
}

impl StatementBytes {
    /// The byte cells of `h` and `Q` from their limb cells (unconstrained bytes until
    /// absorbed: the type doc).
    pub(crate) fn of(
        b: &mut Builder,
        h: &[AssignedValue; NUM_LIMBS],
        x: &[AssignedValue; NUM_LIMBS],
        y: &[AssignedValue; NUM_LIMBS],
    ) -> Self {
        let hash = limb_bytes(b, h);
        let mut key = limb_bytes(b, x);
        key.extend(limb_bytes(b, y));
        Self { hash, key }
    }
}

/// The 32 big-endian byte cells of the integer with limb cells `limbs` (88, 88, 80 bits,
/// least significant first).
///
/// **Rows.** Per limb of m bytes `c₀ … c_{m−1}` (most significant first), `m − 1` linear rows
/// ([`crate::layout::LINEAR_ROW`], `α = 256`, `β = 1`): the first reads `x0 = c₀`, `x1 = c₁`
/// (fresh cells) and outputs `t₁ = 256·c₀ + c₁`; row j reads `x0 = t_{j−1}` (a copy), `x1 = c_j`
/// (fresh) and outputs `t_j`; the last output is copy-constrained to the limb. Every cell the
/// gate reads is assigned, and nothing else pins the byte cells: **the caller must absorb
/// every returned byte in a Keccak block** ([`KeccakChip::keccak256`] range-checks each to
/// `[0, 256)`), which makes the bytes the limb's base-256 digits (the module doc).
pub(crate) fn limb_bytes(
    b: &mut Builder,
    limbs: &[AssignedValue; NUM_LIMBS],
) -> Vec<AssignedValue> {
    let mut out = Vec::with_capacity(32);
    for (limb, &m) in limbs.iter().zip(LIMB_BYTES.iter()).rev() {
        let le = crate::bigint::fe_to_big(&limb.value).to_bytes_le();
        let byte = |i: usize| Native::from(u64::from(le.get(m - 1 - i).copied().unwrap_or(0)));
        let mut acc: Option<AssignedValue> = None;
        let mut bytes = Vec::with_capacity(m);
        for i in 1..m {
            let row = b.new_rows(1);
            b.enable(LINEAR_ROW, row);
            b.set_fixed(ALPHA, row, Native::from(256u64));
            b.set_fixed(BETA, row, Native::ONE);
            let x0 = match acc {
                None => {
                    let c = b.assign(row, 0, byte(0));
                    bytes.push(c);
                    c
                }
                Some(t) => b.copy_of(&t, row, 0),
            };
            let x1 = b.assign(row, 1, byte(i));
            bytes.push(x1);
            acc = Some(b.assign(row, 2, Native::from(256u64) * x0.value + x1.value));
        }
        b.constrain_equal(&acc.expect("a limb has at least two bytes"), limb);
        out.extend(bytes);
    }
    out
}

/// Lays out the digest of the statements `sigs` (in batch order): one Keccak-256 of the key
/// bytes per signature for its address, one of all `hᵢ ‖ aᵢ` for D. Returns the cells of
/// `[D_hi, D_lo]`, to be bound to the instance.
pub(crate) fn lay_out_digest(
    keccak: &KeccakChip,
    b: &mut Builder,
    sigs: &[StatementBytes],
) -> [AssignedValue; DIGEST_INSTANCE_CELLS] {
    let mut input = Vec::with_capacity(52 * sigs.len());
    for s in sigs {
        let address = keccak.keccak256(b, &s.key);
        input.extend_from_slice(&s.hash);
        input.extend_from_slice(&address.bytes[12..]);
    }
    let d = keccak.keccak256(b, &input);
    [d.hi, d.lo]
}

/// The public cells of one signature under a statement: the packed instance cells of `h`, `Q`
/// ([`super::instance::pack_public`]) or the statement's byte cells.
pub(crate) enum PublicCells {
    Keys(Vec<AssignedValue>),
    Digest(StatementBytes),
}

impl PublicCells {
    /// Lays out the public cells of a signature whose checks loaded `h` and `q`.
    pub(crate) fn of(
        statement: Statement,
        range: &crate::range::RangeChip,
        b: &mut Builder,
        h: &crate::field::Proper<Fq>,
        q: &crate::ecc::AssignedPoint,
    ) -> Self {
        match statement {
            Statement::Keys => Self::Keys(
                super::instance::pack_public(range, b, h.limbs(), q.x.limbs(), q.y.limbs())
                    .to_vec(),
            ),
            Statement::Digest => {
                Self::Digest(StatementBytes::of(b, h.limbs(), q.x.limbs(), q.y.limbs()))
            }
        }
    }
}

/// Binds the public cells of every signature (batch order) to the instance `mirror` cells:
/// the packed cells one to one, or the digest of the statement bytes (laid out here) to
/// `[D_hi, D_lo]`. A mix of kinds is a construction error (panics).
pub(crate) fn bind_public(b: &mut Builder, cells: Vec<PublicCells>, mirror: &[AssignedValue]) {
    let mut packed = Vec::new();
    let mut bytes = Vec::new();
    for c in cells {
        match c {
            PublicCells::Keys(v) => packed.extend(v),
            PublicCells::Digest(s) => bytes.push(s),
        }
    }
    assert!(
        packed.is_empty() || bytes.is_empty(),
        "one statement per circuit"
    );
    if !bytes.is_empty() {
        let keccak = KeccakChip::new(b.params.clone());
        packed = lay_out_digest(&keccak, b, &bytes).to_vec();
    }
    assert_eq!(
        packed.len(),
        mirror.len(),
        "one public cell per instance row"
    );
    for (p, m) in packed.iter().zip(mirror) {
        b.constrain_equal(p, m);
    }
}

/// The instance column of `ws` under `statement`.
pub fn statement_instance(statement: Statement, ws: &[SignatureWitness]) -> Vec<Native> {
    match statement {
        Statement::Keys => ws.iter().flat_map(|w| w.instance()).collect(),
        Statement::Digest if ws.is_empty() => Vec::new(),
        Statement::Digest => digest_instance(&witness_digest(ws)).to_vec(),
    }
}

/// `params` ready for `statement`: with Keccak columns for [`Statement::Digest`] (chunks of
/// the widest width whose tables fit in `2^(lookup_bits + 1)` rows, the planner's k, unless
/// already set).
pub fn params_for_statement(
    mut params: crate::layout::LayoutParams,
    statement: Statement,
) -> crate::layout::LayoutParams {
    if statement == Statement::Digest && params.keccak_digits == 0 {
        params.keccak_digits = crate::keccak::digits_for_k(params.lookup_bits + 1, UNUSABLE_MARGIN);
    }
    params
}

/// Rows kept free below `2^k` when choosing the Keccak chunk width (above halo2's blinding
/// rows, which the planner then checks exactly).
const UNUSABLE_MARGIN: usize = 64;

/// The phase-0 values of the digest statement's inputs for the batch circuit: the limbs of
/// `h` (the signing hash), `x(Q)`, `y(Q)`, with values `≥ 2^256` replaced as the phase-1
/// loads replace them (`n`, `p`, `p`) so both sides agree.
pub(crate) fn committed_statement(w: &SignatureWitness) -> [BigUint; 3] {
    [
        super::batch::fit_256(w.hash(), modulus::<Fq>()),
        super::batch::fit_256(&w.q().0, modulus::<Fp>()),
        super::batch::fit_256(&w.q().1, modulus::<Fp>()),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statement_round_trips() {
        for s in Statement::ALL {
            assert_eq!(s.to_string().parse::<Statement>(), Ok(s));
        }
        assert!("Digest".parse::<Statement>().is_err());
    }

    #[test]
    fn address_of_the_generator() {
        // The address of private key 1 (G), as Ethereum gives it.
        let g =
            <halo2curves::secp256k1::Secp256k1Affine as group::prime::PrimeCurveAffine>::generator(
            );
        let a = address_of(
            &crate::bigint::fe_to_big(&g.x),
            &crate::bigint::fe_to_big(&g.y),
        );
        assert_eq!(
            a.iter().map(|b| format!("{b:02x}")).collect::<String>(),
            "7e5f4552091a69125d5dfcb7b8c2659029395bdf"
        );
    }

    #[test]
    fn digest_halves_are_big_endian() {
        let mut d = [0u8; 32];
        d[15] = 1;
        d[31] = 2;
        assert_eq!(digest_instance(&d), [Native::ONE, Native::from(2u64)]);
    }

    /// The chip's Keccak reference (`keccak::spec`, what the chip is tested against) is the
    /// native reference's Keccak at every length around the rate (136 bytes), and the
    /// instance halves are the native reference's words: the circuit's D is the native D.
    #[test]
    fn agrees_with_the_native_reference() {
        use batch_ecdsa_native::digest::digest_words;
        use batch_ecdsa_native::hash::keccak256 as native_keccak;
        use ff::PrimeField;
        for len in [0usize, 1, 52, 135, 136, 137, 271, 272, 273, 52 * 40] {
            let input: Vec<u8> = (0..len).map(|i| (i * 7 + 3) as u8).collect();
            assert_eq!(
                crate::keccak::spec::keccak256(&input),
                native_keccak(&input),
                "{len} bytes"
            );
        }
        let d = native_keccak(b"a digest");
        for (v, w) in digest_instance(&d).iter().zip(digest_words(&d).iter()) {
            let mut le = v.to_repr();
            le.reverse();
            assert_eq!(&le[..], &w[..]);
        }
    }
}
