//! The two Fiat–Shamir transcripts a proof can be made with, and the EVM one implemented here.
//!
//! * [`TranscriptKind::Blake2b`]: halo2's own `Blake2bWrite` / `Blake2bRead` (compressed
//!   points, 32 bytes each; challenges from 512-bit Blake2b outputs reduced mod r). The
//!   smaller proof, for verification in Rust.
//! * [`TranscriptKind::Evm`]: [`KeccakWrite`] / [`KeccakRead`], byte for byte the layout the
//!   EVM verifiers that `snark-verifier` generates read (its `EvmTranscript`): points
//!   uncompressed as `x ‖ y`, each coordinate a 32-byte big-endian word (64 bytes a point),
//!   scalars as 32-byte big-endian words. The hashed state starts empty; every absorbed point or
//!   scalar appends its words; a challenge is `keccak256(state)` read as a big-endian integer
//!   and reduced mod r, after which the state is that 32-byte hash alone (and a squeeze with
//!   nothing absorbed since hashes `hash ‖ 0x01`). halo2's verifier first absorbs the
//!   verifying key's digest and every public input as scalars, so the contract reads the
//!   instance words before the proof, as the calldata `instances ‖ proof`.
//!
//! Soundness of the EVM challenges: a 256-bit hash reduced mod r (r ≈ 2^253.6, 2^256/r ≈ 5.3)
//! is not uniform on `Fr`; each residue is hit by 5 or 6 of the 2^256 hash values, so any
//! event has at most `6·r/2^256 < 1.14` times its probability under a uniform challenge. The
//! batch circuit's error bound per attempt (`2^-125` with Blake2b) becomes `< 2^-124.8`.
//!
//! Malleability: [`KeccakRead`] refuses non-canonical scalars and points, but the generated
//! contract reads every word (instances and proof scalars) mod r, so `s + r` in place of a
//! scalar `s` also verifies on chain: a proof's bytes are not unique there, and their hash
//! must not serve as the proof's identity.

use std::io::{self, Read, Write};
use std::str::FromStr;

use ff::{FromUniformBytes, PrimeField};
use halo2_proofs::halo2curves::bn256::{Fq as Base, Fr, G1Affine};
use halo2_proofs::halo2curves::group::prime::PrimeCurveAffine;
use halo2_proofs::halo2curves::CurveAffine;
use halo2_proofs::transcript::{
    EncodedChallenge, Transcript, TranscriptRead, TranscriptReadBuffer, TranscriptWrite,
    TranscriptWriterBuffer,
};
use sha3::{Digest, Keccak256};

/// Which Fiat–Shamir transcript a proof uses (the proof file's `transcript`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TranscriptKind {
    /// halo2's Blake2b transcript, compressed points (the default: the smaller proof).
    #[default]
    Blake2b,
    /// The Keccak transcript of the generated EVM verifiers, uncompressed points.
    Evm,
}

impl TranscriptKind {
    /// `"blake2b"` or `"evm"` (command line and proof file).
    pub fn as_str(self) -> &'static str {
        match self {
            TranscriptKind::Blake2b => "blake2b",
            TranscriptKind::Evm => "evm",
        }
    }
}

impl std::fmt::Display for TranscriptKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The name is not a transcript.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown transcript {0:?}: expected \"blake2b\" or \"evm\"")]
pub struct UnknownTranscript(pub String);

impl FromStr for TranscriptKind {
    type Err = UnknownTranscript;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "blake2b" => Ok(TranscriptKind::Blake2b),
            "evm" => Ok(TranscriptKind::Evm),
            other => Err(UnknownTranscript(other.to_string())),
        }
    }
}

/// The calldata of a generated EVM verifier: every public input as a 32-byte big-endian word
/// (canonical, below r), then the proof bytes (EVM transcript). The contract reduces each
/// word mod r (instances and proof scalars) and does not check the calldata's length, so a
/// caller that accepts calldata from others must build the instance words itself, as here.
pub fn evm_calldata(instance: &[Fr], proof: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(32 * instance.len() + proof.len());
    for v in instance {
        out.extend_from_slice(&scalar_word(v));
    }
    out.extend_from_slice(proof);
    out
}

/// A challenge of the Keccak transcript: the 32-byte hash read big-endian, reduced mod r.
#[derive(Clone, Copy, Debug)]
pub struct KeccakChallenge(Fr);

impl EncodedChallenge<G1Affine> for KeccakChallenge {
    type Input = [u8; 32];

    fn new(hash: &[u8; 32]) -> Self {
        // Little-endian, zero-extended to 64 bytes: the exact reduction mod r.
        let mut wide = [0u8; 64];
        for (w, h) in wide.iter_mut().zip(hash.iter().rev()) {
            *w = *h;
        }
        KeccakChallenge(Fr::from_uniform_bytes(&wide))
    }

    fn get_scalar(&self) -> Fr {
        self.0
    }
}

/// The hashed state shared by the reading and the writing transcript.
#[derive(Clone, Debug, Default)]
struct KeccakState {
    buf: Vec<u8>,
}

impl KeccakState {
    fn squeeze(&mut self) -> KeccakChallenge {
        let mut h = Keccak256::new();
        h.update(&self.buf);
        if self.buf.len() == 32 {
            // Nothing absorbed since the last challenge: the EVM verifier hashes `hash ‖ 1`.
            h.update([1u8]);
        }
        let hash: [u8; 32] = h.finalize().into();
        self.buf = hash.to_vec();
        KeccakChallenge::new(&hash)
    }

    fn absorb_point(&mut self, p: &G1Affine) -> io::Result<()> {
        let words = point_words(p)?;
        self.buf.extend_from_slice(&words);
        Ok(())
    }

    fn absorb_scalar(&mut self, s: &Fr) {
        self.buf.extend_from_slice(&scalar_word(s));
    }
}

/// A scalar as one 32-byte big-endian word.
pub fn scalar_word(s: &Fr) -> [u8; 32] {
    let mut w = s.to_repr();
    w.reverse();
    w
}

/// A point as `x ‖ y`, 32-byte big-endian words. The identity has no affine coordinates and
/// is refused (an honest proof commits to it with negligible probability).
fn point_words(p: &G1Affine) -> io::Result<[u8; 64]> {
    let c: Option<halo2_proofs::halo2curves::Coordinates<G1Affine>> = p.coordinates().into();
    let c = c.ok_or_else(|| invalid("the point at infinity has no EVM encoding"))?;
    let mut out = [0u8; 64];
    for (i, coord) in [c.x(), c.y()].into_iter().enumerate() {
        let mut w = coord.to_repr();
        w.reverse();
        out[32 * i..32 * i + 32].copy_from_slice(w.as_ref());
    }
    Ok(out)
}

fn invalid(msg: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, msg.to_string())
}

/// Writes a proof with the Keccak transcript (see the module doc).
#[derive(Debug)]
pub struct KeccakWrite<W: Write> {
    state: KeccakState,
    writer: W,
}

/// Reads a proof written by [`KeccakWrite`]: canonical scalars below r, points with
/// canonical coordinates on the curve; anything else is an error (the proof fails).
#[derive(Debug)]
pub struct KeccakRead<R: Read> {
    state: KeccakState,
    reader: R,
}

/// halo2's `Transcript` over a type with a `state: KeccakState` field: the reading and the
/// writing transcript hash the same way.
macro_rules! keccak_transcript {
    ($t:ident, $io:ident) => {
        impl<S: $io> Transcript<G1Affine, KeccakChallenge> for $t<S> {
            fn squeeze_challenge(&mut self) -> KeccakChallenge {
                self.state.squeeze()
            }
            fn common_point(&mut self, point: G1Affine) -> io::Result<()> {
                self.state.absorb_point(&point)
            }
            fn common_scalar(&mut self, scalar: Fr) -> io::Result<()> {
                self.state.absorb_scalar(&scalar);
                Ok(())
            }
        }
    };
}
keccak_transcript!(KeccakWrite, Write);
keccak_transcript!(KeccakRead, Read);

impl<W: Write> TranscriptWrite<G1Affine, KeccakChallenge> for KeccakWrite<W> {
    fn write_point(&mut self, point: G1Affine) -> io::Result<()> {
        self.common_point(point)?;
        self.writer.write_all(&point_words(&point)?)
    }
    fn write_scalar(&mut self, scalar: Fr) -> io::Result<()> {
        self.common_scalar(scalar)?;
        self.writer.write_all(&scalar_word(&scalar))
    }
}

impl<W: Write> TranscriptWriterBuffer<W, G1Affine, KeccakChallenge> for KeccakWrite<W> {
    fn init(writer: W) -> Self {
        Self {
            state: KeccakState::default(),
            writer,
        }
    }
    fn finalize(self) -> W {
        self.writer
    }
}

impl<R: Read> KeccakRead<R> {
    fn read_word(&mut self) -> io::Result<[u8; 32]> {
        let mut w = [0u8; 32];
        self.reader.read_exact(&mut w)?;
        w.reverse();
        Ok(w)
    }
}

impl<R: Read> TranscriptRead<G1Affine, KeccakChallenge> for KeccakRead<R> {
    fn read_point(&mut self) -> io::Result<G1Affine> {
        let x: Option<Base> = Base::from_repr(self.read_word()?).into();
        let y: Option<Base> = Base::from_repr(self.read_word()?).into();
        let p = x
            .zip(y)
            .and_then(|(x, y)| Option::from(G1Affine::from_xy(x, y)))
            .filter(|p: &G1Affine| !bool::from(p.is_identity()))
            .ok_or_else(|| invalid("invalid point encoding in proof"))?;
        self.common_point(p)?;
        Ok(p)
    }
    fn read_scalar(&mut self) -> io::Result<Fr> {
        let s: Option<Fr> = Fr::from_repr(self.read_word()?).into();
        let s = s.ok_or_else(|| invalid("scalar in proof is not below r"))?;
        self.common_scalar(s)?;
        Ok(s)
    }
}

impl<R: Read> TranscriptReadBuffer<R, G1Affine, KeccakChallenge> for KeccakRead<R> {
    fn init(reader: R) -> Self {
        Self {
            state: KeccakState::default(),
            reader,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ff::Field;
    use halo2_proofs::halo2curves::group::Curve;

    #[test]
    fn kind_names_round_trip() {
        for k in [TranscriptKind::Blake2b, TranscriptKind::Evm] {
            assert_eq!(k.as_str().parse::<TranscriptKind>(), Ok(k));
        }
        assert!("keccak".parse::<TranscriptKind>().is_err());
    }

    #[test]
    fn written_proof_reads_back_with_the_same_challenges() {
        let p = (G1Affine::generator() * Fr::from(7)).to_affine();
        let s = Fr::from(123_456_789u64);
        let mut w = KeccakWrite::init(Vec::new());
        w.common_scalar(Fr::ONE).unwrap();
        w.write_point(p).unwrap();
        let c1 = w.squeeze_challenge().get_scalar();
        let c2 = w.squeeze_challenge().get_scalar();
        w.write_scalar(s).unwrap();
        let c3 = w.squeeze_challenge().get_scalar();
        let bytes = w.finalize();
        assert_eq!(bytes.len(), 64 + 32, "uncompressed point and one word");
        assert_eq!(bytes[95], 0x15, "big-endian words");
        let mut r = KeccakRead::init(&bytes[..]);
        r.common_scalar(Fr::ONE).unwrap();
        assert_eq!(r.read_point().unwrap(), p);
        assert_eq!(r.squeeze_challenge().get_scalar(), c1);
        assert_eq!(r.squeeze_challenge().get_scalar(), c2);
        assert_ne!(
            c1, c2,
            "an empty squeeze hashes hash ‖ 1, not the hash again"
        );
        assert_eq!(r.read_scalar().unwrap(), s);
        assert_eq!(r.squeeze_challenge().get_scalar(), c3);
    }

    #[test]
    fn challenge_is_the_hash_mod_r() {
        // keccak256("") read big-endian, reduced mod r (computed independently with BigUint).
        let hash: [u8; 32] = Keccak256::digest([]).into();
        let n = num_bigint::BigUint::from_bytes_be(&hash);
        let r = num_bigint::BigUint::from_bytes_le(&(-Fr::ONE).to_repr()) + 1u32;
        let want = (n % r).to_bytes_le();
        let mut repr = [0u8; 32];
        repr[..want.len()].copy_from_slice(&want);
        let c = KeccakState::default().squeeze().get_scalar();
        assert_eq!(c.to_repr(), repr);
    }

    #[test]
    fn non_canonical_words_are_refused() {
        let mut r = KeccakRead::init(&[0xffu8; 64][..]);
        assert!(r.read_scalar().is_err(), "2^256 − 1 is not below r");
        let mut r = KeccakRead::init(&[0u8; 64][..]);
        assert!(
            r.read_point().is_err(),
            "(0, 0), halo2's identity, is refused"
        );
    }
}
