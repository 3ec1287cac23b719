//! Proofs (SHPLONK multi-open KZG over BN254, Blake2b or EVM transcript:
//! [`super::transcript`]) and the proof file.
//!
//! The proof file (docs/commands.md) is JSON, in one of two forms, after the statement the
//! proof makes (`batch_ecdsa_circuits::ecdsa::Statement`). **Keys** (the field `statement`
//! absent, or `"keys"`):
//!
//! ```json
//! { "version": 3, "circuit": "batch", "batch_size": 2, "k": 17, "window": 5,
//!   "transcript": "blake2b" | "evm", "multiopen": "shplonk",
//!   "setup": { "kind": "ceremony" | "local" | "insecure-dev", "file": "…", "tau_g2": "0x…",
//!              "g1_powers": "0x…", "k": 17 },
//!   "public_inputs": [ { "msg_hash": "0x…32 bytes", "pubkey": "0x04…65 bytes" } ],
//!   "vk_hash": "0x…32 bytes", "proof": "0x…" }
//! ```
//!
//! `msg_hash` is the message hash as the circuit takes it: the 32-byte big-endian hash reduced
//! mod n (the hash itself for all hashes below n, i.e. all but a 2^-128 fraction). `pubkey` is
//! the uncompressed SEC1 key. The instance column is rebuilt from these (three values a
//! signature). What the proof establishes: every signature i is a valid ECDSA signature on
//! `msg_hash[i]` under `pubkey[i]` (see `batch_ecdsa_circuits::ecdsa`).
//!
//! **Digest** (`"statement": "digest"`):
//!
//! ```json
//! { "version": 3, "statement": "digest", "circuit": "batch", …,
//!   "public_inputs": [ { "msg_hash": "0x…32 bytes", "address": "0x…20 bytes" } ],
//!   "digest": "0x…32 bytes", "vk_hash": "0x…", "proof": "0x…" }
//! ```
//!
//! `msg_hash` is the raw 32-byte signing hash (not reduced), `address` the signer's Ethereum
//! address, `digest` = `D = keccak256(msg_hash₀ ‖ address₀ ‖ … )`. The instance column is
//! `[D_hi, D_lo]` (D's two 16-byte halves), and D is recomputed from the records: a file
//! whose `digest` is not theirs is refused before any proof is checked. What the proof
//! establishes: for every i there is a key with address `address[i]` under which signature i
//! is a valid ECDSA signature on `msg_hash[i]` mod n (`batch_ecdsa_circuits::ecdsa::digest`).
//!
//! Both: the verifying key is rebuilt from `statement`, `circuit`, `batch_size` and `k`;
//! `vk_hash` ([`super::proving_key::vk_hash`]) must equal that key's hash, so a proof made
//! under another circuit build is reported as such.
//!
//! `setup` ([`SetupIdentity`]) names the setup the proof was made under: its kind, the
//! ceremony file's name, `keccak256([τ]₂)` and `keccak256` of the G₁ powers. It is a claim:
//! a verifier loads the parameters its user chose, refuses a file naming the fixed-seed
//! development setup unless asked, refuses one naming another setup than those parameters,
//! and reports the setup of the parameters it loaded (`super::api::Verifier`).
//!
//! **Version 3** replaced version 2's `insecure_dev_params` flag with `setup`. Version 2 files
//! were made without a setup identity, almost all under the fixed-seed development setup
//! whose τ is public: they are refused with that reason (prove again).

use std::path::Path;

use crate::native::digest::batch_digest;
use batch_ecdsa_circuits::ecdsa::digest::digest_instance;
use batch_ecdsa_circuits::ecdsa::Statement;
use batch_ecdsa_circuits::layout::{LayoutParams, Native};
use batch_ecdsa_circuits::limits;
use halo2_proofs::halo2curves::bn256::{Bn256, G1Affine};
use halo2_proofs::plonk::{Circuit, ProvingKey, VerifyingKey};
use halo2_proofs::poly::commitment::ParamsProver;
use halo2_proofs::poly::kzg::commitment::{KZGCommitmentScheme, ParamsKZG};
use halo2_proofs::poly::kzg::multiopen::{ProverSHPLONK, VerifierSHPLONK};
use halo2_proofs::poly::kzg::strategy::SingleStrategy;
use halo2_proofs::transcript::{
    Blake2bRead, Blake2bWrite, Challenge255, EncodedChallenge, TranscriptRead,
    TranscriptReadBuffer, TranscriptWriterBuffer,
};
use halo2curves::secp256k1::{Fq, Secp256k1Affine};
use rand_core::RngCore;
use serde::{Deserialize, Serialize};

use super::circuit::{AnyCircuit, CircuitKind, CircuitVisitor};
use super::srs::SetupIdentity;
use super::transcript::{KeccakRead, KeccakWrite, TranscriptKind};
use crate::hexfmt::{decode_hex, decode_hex_fixed, encode_hex};
use crate::native::encoding::{fq_from_be_bytes, fq_to_be_bytes};
use crate::native::public_key::PublicKey;

/// Version of the proof-file format written by this crate. 2 since the absent-operand fix of
/// the relation block (CHANGELOG.md, relation-block fix): a version-1 file was made by a circuit whose
/// proofs prove nothing, so it is refused rather than checked against a new key. 3 since the
/// setup identity (module doc).
pub const PROOF_FILE_VERSION: u32 = 3;

/// Largest proof file read, in bytes: a proof file of the largest batch any circuit proves
/// ([`batch_ecdsa_circuits::limits::largest_batch`], about a thousand signatures) is under
/// 0.3 MB (per signature ~150 bytes of records in pretty JSON, plus a proof of at most tens
/// of KB).
pub const MAX_PROOF_FILE_BYTES: u64 = 4 << 20;

/// Why a proof could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ProveError {
    #[error("halo2 create_proof failed: {0}")]
    Halo2(String),
}

/// Why a proof file could not be read or written (bad input, exit code 2).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ProofFileError {
    #[error("cannot read proof file {path}: {reason}")]
    Io { path: String, reason: String },
    #[error("proof file is not valid JSON for the proof format: {0}")]
    NotJson(String),
    #[error(
        "proof file version {0} is not supported (this build reads version {PROOF_FILE_VERSION})"
    )]
    Version(u64),
    #[error(
        "proof file version 1 was made before the relation-block soundness fix: such a proof \
         proves nothing (see CHANGELOG.md); prove the batch again"
    )]
    BeforeSoundnessFix,
    #[error(
        "proof file version 2 names no setup, and such files were made under the fixed-seed \
         development setup whose τ is public (anyone can forge them): prove the batch again"
    )]
    BeforeSetupIdentity,
    /// A field's fault (the message clipped: a field's value may be megabytes long).
    #[error("proof file: {}", crate::json::clip(.0))]
    Field(String),
    #[error("cannot write proof file {path}: {reason}")]
    Write { path: String, reason: String },
}

/// One signature's public inputs as the proof file holds them: `msg_hash` and `pubkey` under
/// the keys statement, `msg_hash` and `address` under the digest (the module doc).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a public input: an object with msg_hash and pubkey (keys) or address (digest)"
)]
pub struct PublicInputRecord {
    /// 32 bytes big-endian hex: the message hash mod n (keys) or the raw signing hash
    /// (digest).
    pub msg_hash: String,
    /// The public key, SEC1 hex (written uncompressed; compressed is accepted). Keys only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pubkey: Option<String>,
    /// The signer's 20-byte Ethereum address, hex. Digest only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
}

/// One signature's (signing hash, address) pair of the digest statement.
pub type DigestPair = ([u8; 32], [u8; 20]);

/// What a proof file states, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PublicStatement {
    /// Per signature `h mod n` and Q.
    Keys(Vec<PublicInput>),
    /// The (signing hash, address) pairs and their digest D (checked to be theirs).
    Digest {
        pairs: Vec<DigestPair>,
        digest: [u8; 32],
    },
}

impl PublicStatement {
    /// The instance column the proof is checked against.
    pub fn instance(&self) -> Vec<Native> {
        match self {
            PublicStatement::Keys(inputs) => instance_of(inputs),
            PublicStatement::Digest { digest, .. } => digest_instance(digest).to_vec(),
        }
    }
}

/// A statement written by its name (`"keys"`, `"digest"`); absent reads as keys.
mod statement_name {
    use super::Statement;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(st: &Statement, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(st.as_str())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Statement, D::Error> {
        let name = String::deserialize(d)?;
        name.parse().map_err(serde::de::Error::custom)
    }

    /// Keys files do not write the field (they stay byte for byte what they were).
    pub fn is_keys(st: &Statement) -> bool {
        *st == Statement::Keys
    }
}

/// A circuit kind written by its name (`"batch"`, `"naive"`).
mod kind_name {
    use super::CircuitKind;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(kind: &CircuitKind, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(kind.as_str())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<CircuitKind, D::Error> {
        let name = String::deserialize(d)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

/// The proof file (see the module doc).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a proof file: a JSON object")]
pub struct ProofFile {
    pub version: u32,
    /// What the public input states (absent: keys).
    #[serde(
        default,
        with = "statement_name",
        skip_serializing_if = "statement_name::is_keys"
    )]
    pub statement: Statement,
    #[serde(with = "kind_name")]
    pub circuit: CircuitKind,
    pub batch_size: usize,
    pub k: u32,
    /// The MSM window the circuit was laid out with: the circuit's default window, checked on
    /// reading (the verifier lays `circuit` out for `batch_size` itself, and the vk hash must
    /// match).
    pub window: u32,
    pub transcript: String,
    pub multiopen: String,
    /// The setup the proof names (a claim: the module doc).
    pub setup: SetupIdentity,
    pub public_inputs: Vec<PublicInputRecord>,
    /// The digest D of the public inputs, hex (digest statement only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
    /// [`super::proving_key::vk_hash`] of the verifying key, hex.
    pub vk_hash: String,
    /// The proof bytes, hex.
    pub proof: String,
}

/// The public inputs of one signature, parsed.
pub type PublicInput = (Fq, Secp256k1Affine);

/// The proof-file record of one signature's public inputs.
pub fn public_input_record(h: &Fq, q: &Secp256k1Affine) -> PublicInputRecord {
    let key = PublicKey::from_affine(*q);
    PublicInputRecord {
        msg_hash: encode_hex(&fq_to_be_bytes(h)),
        pubkey: Some(match key {
            Ok(k) => encode_hex(&k.to_sec1_uncompressed()),
            // Unreachable for points from a parsed batch (never the identity); written as
            // the empty key, which no reader accepts.
            Err(_) => "0x".into(),
        }),
        address: None,
    }
}

/// The proof-file record of one signature under the digest statement: the raw signing hash
/// and the address.
pub fn digest_record(pair: &DigestPair) -> PublicInputRecord {
    PublicInputRecord {
        msg_hash: encode_hex(&pair.0),
        pubkey: None,
        address: Some(encode_hex(&pair.1)),
    }
}

impl ProofFile {
    /// Parses proof-file JSON and checks every field's form (not the proof).
    pub fn parse(text: &str) -> Result<Self, ProofFileError> {
        // Read the version first, so an old or new format gets a clear message.
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| ProofFileError::NotJson(e.to_string()))?;
        match value.get("version").and_then(|v| v.as_u64()) {
            Some(v) if v == u64::from(PROOF_FILE_VERSION) => {}
            Some(1) => return Err(ProofFileError::BeforeSoundnessFix),
            Some(2) => return Err(ProofFileError::BeforeSetupIdentity),
            Some(v) => return Err(ProofFileError::Version(v)),
            None => {
                return Err(ProofFileError::Field(
                    "no numeric `version` field: not a batch-ecdsa proof file".into(),
                ))
            }
        }
        // Parsed again from the text, not from `value`: a JSON object with a key twice would
        // have kept its last value there, while the derived reader refuses a duplicate field.
        let file: ProofFile = crate::json::parse(text).map_err(ProofFileError::NotJson)?;
        file.check_form()?;
        Ok(file)
    }

    /// Reads and parses a proof file.
    pub fn load(path: &Path) -> Result<Self, ProofFileError> {
        let text = crate::fsutil::read_text_bounded(path, MAX_PROOF_FILE_BYTES).map_err(|e| {
            ProofFileError::Io {
                path: path.display().to_string(),
                reason: e.to_string(),
            }
        })?;
        Self::parse(&text)
    }

    /// The file as pretty JSON.
    pub fn to_json(&self) -> String {
        // Serialising plain strings and numbers cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Writes the file atomically (a reader sees the old file or the whole new one).
    pub fn save(&self, path: &Path) -> Result<(), ProofFileError> {
        let mut text = self.to_json();
        text.push('\n');
        crate::fsutil::write_atomic(path, text.as_bytes()).map_err(|e| ProofFileError::Write {
            path: path.display().to_string(),
            reason: e.to_string(),
        })
    }

    /// The form checks [`ProofFile::parse`] runs (transcript, multi-open, one public input per
    /// slot, the planner's k and window for the claimed circuit and B). Every verification
    /// runs them again ([`crate::prover::api::Verifier::verify`]): a `ProofFile` deserialized
    /// or built in memory never went through `parse`, and a file with more public inputs than
    /// slots would otherwise have the extra ones absorbed by the transcript without being
    /// proven.
    pub fn check_form(&self) -> Result<(), ProofFileError> {
        self.transcript_kind()?;
        if self.multiopen != "shplonk" {
            return Err(ProofFileError::Field(format!(
                "multiopen {:?} not supported (expected shplonk)",
                self.multiopen
            )));
        }
        if self.public_inputs.len() != self.batch_size {
            return Err(ProofFileError::Field(format!(
                "batch_size is {} but there are {} public inputs",
                self.batch_size,
                self.public_inputs.len()
            )));
        }
        // The planner's k for the claimed circuit, statement and B, from its table: a claim
        // beyond what the circuit proves, or a k the planner would not choose, is refused
        // here, before any verifier lays a circuit out for it.
        let planned = limits::planned_k(self.circuit, self.statement, self.batch_size)
            .map_err(|e| ProofFileError::Field(format!("batch_size: {e}")))?;
        if self.k != planned {
            return Err(ProofFileError::Field(format!(
                "k = {} but the {} circuit for B = {} has k = {planned}",
                self.k, self.circuit, self.batch_size
            )));
        }
        if self.window != self.circuit.default_window() {
            return Err(ProofFileError::Field(format!(
                "window = {} but the {} circuit is laid out with window {}",
                self.window,
                self.circuit,
                self.circuit.default_window()
            )));
        }
        if self.setup.k != self.k {
            return Err(ProofFileError::Field(format!(
                "setup.k = {} but the proof's k = {}",
                self.setup.k, self.k
            )));
        }
        self.setup.tau_g2_bytes().map_err(ProofFileError::Field)?;
        self.setup
            .g1_powers_bytes()
            .map_err(ProofFileError::Field)?;
        self.vk_hash_bytes()?;
        self.proof_bytes()?;
        self.statement_inputs()?;
        Ok(())
    }

    /// The transcript the proof was made with.
    pub fn transcript_kind(&self) -> Result<TranscriptKind, ProofFileError> {
        self.transcript
            .parse()
            .map_err(|e: super::transcript::UnknownTranscript| ProofFileError::Field(e.to_string()))
    }

    /// The proof bytes.
    pub fn proof_bytes(&self) -> Result<Vec<u8>, ProofFileError> {
        decode_hex(&self.proof).map_err(|e| ProofFileError::Field(format!("proof: {e}")))
    }

    /// The verifying-key hash.
    pub fn vk_hash_bytes(&self) -> Result<[u8; 32], ProofFileError> {
        decode_hex_fixed(&self.vk_hash).map_err(|e| ProofFileError::Field(format!("vk_hash: {e}")))
    }

    /// The public inputs `(h, Q)` of every signature, in order (keys statement; a digest
    /// file names no keys and is refused here).
    pub fn public_inputs(&self) -> Result<Vec<PublicInput>, ProofFileError> {
        self.parse_records(Statement::Keys, "public keys", |rec, bad| {
            if rec.address.is_some() {
                return Err(bad(
                    "address",
                    "only a digest proof names addresses (this one states keys)".into(),
                ));
            }
            let hb: [u8; 32] = decode_hex_fixed(&rec.msg_hash).map_err(|e| bad("msg_hash", e))?;
            let h = fq_from_be_bytes(&hb)
                .ok_or_else(|| bad("msg_hash", "not below the group order n".into()))?;
            let key = rec
                .pubkey
                .as_deref()
                .ok_or_else(|| bad("pubkey", "missing".into()))?;
            let kb = decode_hex(key).map_err(|e| bad("pubkey", e))?;
            let q = PublicKey::from_sec1(&kb).map_err(|e| bad("pubkey", e.to_string()))?;
            Ok((h, q.point()))
        })
    }

    /// The (signing hash, address) pairs of every signature, in order (digest statement;
    /// refused for a keys file). Checks only their form, not the `digest` field.
    pub fn digest_pairs(&self) -> Result<Vec<DigestPair>, ProofFileError> {
        self.parse_records(Statement::Digest, "a digest of addresses", |rec, bad| {
            if rec.pubkey.is_some() {
                return Err(bad(
                    "pubkey",
                    "a digest proof names addresses, not keys".into(),
                ));
            }
            let h: [u8; 32] = decode_hex_fixed(&rec.msg_hash).map_err(|e| bad("msg_hash", e))?;
            let address = rec
                .address
                .as_deref()
                .ok_or_else(|| bad("address", "missing".into()))?;
            let a: [u8; 20] = decode_hex_fixed(address).map_err(|e| bad("address", e))?;
            Ok((h, a))
        })
    }

    /// Parses every record with `parse` when the file states `want` (else the error "the proof
    /// states X, not `what`"); `parse` gets a maker of errors that name the record and field.
    fn parse_records<T>(
        &self,
        want: Statement,
        what: &str,
        parse: impl Fn(
            &PublicInputRecord,
            &dyn Fn(&str, String) -> ProofFileError,
        ) -> Result<T, ProofFileError>,
    ) -> Result<Vec<T>, ProofFileError> {
        if self.statement != want {
            return Err(ProofFileError::Field(format!(
                "the proof states the {} statement, not {what}",
                self.statement
            )));
        }
        self.public_inputs
            .iter()
            .enumerate()
            .map(|(i, rec)| {
                let bad = |field: &str, e: String| {
                    ProofFileError::Field(format!("public input {i}: {field}: {e}"))
                };
                parse(rec, &bad)
            })
            .collect()
    }

    /// What the file states, with its form checked: under the digest statement the `digest`
    /// field must be there, 32 bytes, and equal to D recomputed from the records (a file
    /// whose records and digest disagree was altered and is refused, naming both values);
    /// under keys it must be absent.
    pub fn statement_inputs(&self) -> Result<PublicStatement, ProofFileError> {
        match self.statement {
            Statement::Keys => {
                if self.digest.is_some() {
                    return Err(ProofFileError::Field(
                        "digest: only a digest proof has one (this one states keys)".into(),
                    ));
                }
                Ok(PublicStatement::Keys(self.public_inputs()?))
            }
            Statement::Digest => {
                let pairs = self.digest_pairs()?;
                let given: [u8; 32] =
                    decode_hex_fixed(self.digest.as_deref().ok_or_else(|| {
                        ProofFileError::Field("digest: missing (a digest proof needs it)".into())
                    })?)
                    .map_err(|e| ProofFileError::Field(format!("digest: {e}")))?;
                let digest = batch_digest(&pairs);
                if given != digest {
                    return Err(ProofFileError::Field(format!(
                        "digest {} is not the digest of the public inputs, {}: the file was \
                         altered",
                        encode_hex(&given),
                        encode_hex(&digest)
                    )));
                }
                Ok(PublicStatement::Digest { pairs, digest })
            }
        }
    }

    /// The instance column the proof is checked against ([`PublicStatement::instance`]).
    pub fn instance(&self) -> Result<Vec<Native>, ProofFileError> {
        Ok(self.statement_inputs()?.instance())
    }
}

/// The instance column of a list of public inputs (per signature h, x(Q), y(Q) as limbs).
pub fn instance_of(inputs: &[PublicInput]) -> Vec<Native> {
    batch_ecdsa_circuits::ecdsa::batch_instance(inputs)
}

struct Prove<'a, R: RngCore> {
    params: &'a ParamsKZG<Bn256>,
    pk: &'a ProvingKey<G1Affine>,
    instance: &'a [Native],
    transcript: TranscriptKind,
    rng: R,
}

impl<R: RngCore> CircuitVisitor<Result<Vec<u8>, ProveError>> for Prove<'_, R> {
    fn visit<C: Circuit<Native, Params = LayoutParams> + Clone>(
        self,
        circuit: &C,
    ) -> Result<Vec<u8>, ProveError> {
        match self.transcript {
            TranscriptKind::Blake2b => self.run(
                circuit,
                Blake2bWrite::<_, G1Affine, Challenge255<_>>::init(vec![]),
            ),
            TranscriptKind::Evm => self.run(circuit, KeccakWrite::init(vec![])),
        }
    }
}

impl<R: RngCore> Prove<'_, R> {
    fn run<C, E, T>(self, circuit: &C, mut transcript: T) -> Result<Vec<u8>, ProveError>
    where
        C: Circuit<Native> + Clone,
        E: EncodedChallenge<G1Affine>,
        T: TranscriptWriterBuffer<Vec<u8>, G1Affine, E>,
    {
        let circuit = circuit.clone();
        let (params, pk, instance, rng) = (self.params, self.pk, self.instance, self.rng);
        // halo2's prover unwraps internally in a few places (e.g. lookup permutations); a
        // panic there becomes an error here instead of ending the process.
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            halo2_proofs::plonk::create_proof::<
                KZGCommitmentScheme<Bn256>,
                ProverSHPLONK<'_, Bn256>,
                _,
                _,
                _,
                _,
            >(params, pk, &[circuit], &[&[instance]], rng, &mut transcript)
        }));
        match result {
            Ok(Ok(())) => Ok(transcript.finalize()),
            Ok(Err(e)) => Err(ProveError::Halo2(format!("{e:?}"))),
            Err(panic) => Err(ProveError::Halo2(panic_message(&panic))),
        }
    }
}

fn panic_message(panic: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        format!("internal panic: {s}")
    } else if let Some(s) = panic.downcast_ref::<String>() {
        format!("internal panic: {s}")
    } else {
        "internal panic".into()
    }
}

/// Runs `f` on a worker of rayon's global pool and waits for it. halo2 parallelises with the
/// global pool, whose idle workers spin for a while before they sleep; a caller outside the
/// pool then competes with them for the cores during every sequential stretch (on this
/// 2-core machine verification took ~35 % longer that way: median 10.9–11.3 ms against
/// 6.8–8.1 ms on a worker). On a worker, the sequential parts run with the pool, not against
/// it. From a worker (nested use) the job simply runs there.
pub fn on_pool<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    let mut out = None;
    rayon::scope(|s| s.spawn(|_| out = Some(f())));
    out.expect("rayon::scope waits for its jobs")
}

/// A SHPLONK proof of `circuit` with its own instance column, in `transcript` (computed on a
/// worker of rayon's pool, see [`on_pool`]).
pub fn create_proof(
    params: &ParamsKZG<Bn256>,
    pk: &ProvingKey<G1Affine>,
    circuit: &AnyCircuit,
    transcript: TranscriptKind,
    rng: impl RngCore + Send,
) -> Result<Vec<u8>, ProveError> {
    let instance = circuit.instance();
    on_pool(|| {
        circuit.with_circuit(Prove {
            params,
            pk,
            instance: &instance,
            transcript,
            rng,
        })
    })
}

/// Whether `proof` (made with `transcript`) verifies for `instance` under `vk` (SHPLONK),
/// checked on a worker of rayon's pool ([`on_pool`]). Malformed proof bytes simply fail, and
/// so do bytes left over after the proof (one proof has one encoding here).
pub fn verify_proof(
    params: &ParamsKZG<Bn256>,
    vk: &VerifyingKey<G1Affine>,
    instance: &[Native],
    proof: &[u8],
    transcript: TranscriptKind,
) -> bool {
    on_pool(|| {
        let mut rest: &[u8] = proof;
        let ok = match transcript {
            TranscriptKind::Blake2b => verify_with(
                params,
                vk,
                instance,
                Blake2bRead::<_, G1Affine, Challenge255<_>>::init(&mut rest),
            ),
            TranscriptKind::Evm => verify_with(params, vk, instance, KeccakRead::init(&mut rest)),
        };
        ok && rest.is_empty()
    })
}

fn verify_with<E, T>(
    params: &ParamsKZG<Bn256>,
    vk: &VerifyingKey<G1Affine>,
    instance: &[Native],
    mut transcript: T,
) -> bool
where
    E: EncodedChallenge<G1Affine>,
    T: TranscriptRead<G1Affine, E>,
{
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        halo2_proofs::plonk::verify_proof::<
            KZGCommitmentScheme<Bn256>,
            VerifierSHPLONK<'_, Bn256>,
            _,
            _,
            _,
        >(
            params.verifier_params(),
            vk,
            SingleStrategy::new(params),
            &[&[instance]],
            &mut transcript,
        )
    }));
    matches!(result, Ok(Ok(())))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> ProofFile {
        let records = crate::demo::demo_batch(2, 3, &[]).unwrap();
        let file = crate::batch_file::BatchFile::from_records(&records).unwrap();
        let items = file.items(crate::batch_file::Policy::default()).unwrap();
        ProofFile {
            version: PROOF_FILE_VERSION,
            statement: Statement::Keys,
            circuit: CircuitKind::Batch,
            batch_size: 2,
            k: 14,
            window: 5,
            transcript: "blake2b".into(),
            multiopen: "shplonk".into(),
            setup: SetupIdentity {
                kind: crate::prover::srs::SetupKind::InsecureDev,
                file: None,
                tau_g2: encode_hex(&[1u8; 32]),
                g1_powers: encode_hex(&[2u8; 32]),
                k: 14,
            },
            public_inputs: items
                .iter()
                .map(|i| public_input_record(&i.h, &i.q))
                .collect(),
            digest: None,
            vk_hash: encode_hex(&[7u8; 32]),
            proof: "0x0102".into(),
        }
    }

    /// The same batch under the digest statement.
    fn sample_digest() -> ProofFile {
        let pairs: Vec<DigestPair> = vec![([0xaa; 32], [0x11; 20]), ([0xff; 32], [0x22; 20])];
        ProofFile {
            statement: Statement::Digest,
            public_inputs: pairs.iter().map(digest_record).collect(),
            digest: Some(encode_hex(&batch_digest(&pairs))),
            ..sample()
        }
    }

    #[test]
    fn keys_files_do_not_name_the_statement() {
        let json = sample().to_json();
        assert!(
            !json.contains("statement") && !json.contains("digest") && !json.contains("address")
        );
        // Written as "keys" explicitly, it reads the same.
        let explicit = json.replace(
            "\"version\": 3,",
            "\"version\": 3, \"statement\": \"keys\",",
        );
        assert_eq!(ProofFile::parse(&explicit).unwrap(), sample());
    }

    #[test]
    fn digest_file_round_trips_and_gives_the_digest_instance() {
        let f = sample_digest();
        let json = f.to_json();
        assert!(json.contains("\"statement\": \"digest\""), "{json}");
        let back = ProofFile::parse(&json).unwrap();
        assert_eq!(back, f);
        let PublicStatement::Digest { pairs, digest } = back.statement_inputs().unwrap() else {
            panic!("a digest statement");
        };
        // A raw hash ≥ n (0xff…) is kept as it is, not reduced.
        assert_eq!(pairs[1].0, [0xff; 32]);
        assert_eq!(back.instance().unwrap(), digest_instance(&digest).to_vec());
        assert!(back
            .public_inputs()
            .unwrap_err()
            .to_string()
            .contains("states the digest statement"));
        assert!(sample().digest_pairs().is_err());
    }

    #[test]
    fn digest_file_form_is_checked_strictly() {
        let f = sample_digest();
        let json = f.to_json();
        let addr0 = f.public_inputs[0].address.clone().unwrap();
        let hash1 = f.public_inputs[1].msg_hash.clone();
        let d = f.digest.clone().unwrap();
        let flip = |h: &str| {
            format!(
                "{}{}",
                &h[..h.len() - 1],
                if h.ends_with('0') { '1' } else { '0' }
            )
        };
        let cases: Vec<(String, &str)> = vec![
            (
                json.replace(&addr0, &flip(&addr0)),
                "is not the digest of the public inputs",
            ),
            (
                json.replace(&hash1, &flip(&hash1)),
                "is not the digest of the public inputs",
            ),
            (
                json.replace(&d, &flip(&d)),
                "is not the digest of the public inputs",
            ),
            (
                json.replace(&addr0, &addr0[..40]),
                "public input 0: address: expected 20 bytes, got 19",
            ),
            (
                json.replace(&hash1, &format!("{hash1}00")),
                "public input 1: msg_hash: expected 32 bytes",
            ),
            (
                json.replace(&d, &d[..d.len() - 2]),
                "digest: expected 32 bytes",
            ),
            (
                json.replace(&addr0, "0x11zz"),
                "public input 0: address: bad hex",
            ),
            (
                json.replace(&format!(",\n  \"digest\": \"{d}\""), ""),
                "digest: missing",
            ),
            (
                json.replace(&format!("\"address\": \"{addr0}\""), "\"pubkey\": \"0x04\""),
                "public input 0: pubkey: a digest proof names addresses",
            ),
            (
                json.replace("\"digest\",", "\"Digest\","),
                "unknown statement",
            ),
        ];
        for (text, want) in cases {
            assert_ne!(text, json, "the case {want:?} changes the file");
            let err = ProofFile::parse(&text).unwrap_err().to_string();
            assert!(err.contains(want), "{err:?} should mention {want:?}");
        }
        // A keys file with a digest or an address is refused too.
        let mut keys = sample();
        keys.digest = Some(d.clone());
        assert!(ProofFile::parse(&keys.to_json())
            .unwrap_err()
            .to_string()
            .contains("digest"));
        let mut keys = sample();
        keys.public_inputs[0].address = Some(addr0);
        assert!(ProofFile::parse(&keys.to_json())
            .unwrap_err()
            .to_string()
            .contains("address"));
    }

    #[test]
    fn round_trips_and_parses_public_inputs() {
        let f = sample();
        let back = ProofFile::parse(&f.to_json()).unwrap();
        assert_eq!(back, f);
        let evm = ProofFile {
            transcript: TranscriptKind::Evm.as_str().into(),
            ..f.clone()
        };
        let back_evm = ProofFile::parse(&evm.to_json()).unwrap();
        assert_eq!(back_evm.transcript_kind().unwrap(), TranscriptKind::Evm);
        let inputs = back.public_inputs().unwrap();
        assert_eq!(inputs.len(), 2);
        assert_eq!(instance_of(&inputs).len(), 6);
        assert_eq!(back.proof_bytes().unwrap(), vec![1, 2]);
    }

    #[test]
    fn rejects_malformed_files_with_reasons() {
        let f = sample();
        let cases: Vec<(String, &str)> = vec![
            ("not json".into(), "not valid JSON"),
            (
                f.to_json().replace("\"version\": 3", "\"version\": 9"),
                "version 9",
            ),
            (
                f.to_json().replace("\"version\": 3", "\"version\": 1"),
                "before the relation-block soundness fix",
            ),
            (
                f.to_json().replace("\"version\": 3", "\"version\": 2"),
                "version 2 names no setup",
            ),
            (
                f.to_json()
                    .replace("\"kind\": \"insecure-dev\"", "\"kind\": \"trusted\""),
                "unknown setup kind",
            ),
            (
                f.to_json().replace("\"k\": 14\n  }", "\"k\": 16\n  }"),
                "setup.k = 16",
            ),
            (
                f.to_json()
                    .replace("\"circuit\": \"batch\"", "\"circuit\": \"fast\""),
                "unknown circuit",
            ),
            (
                f.to_json()
                    .replace("\"batch_size\": 2", "\"batch_size\": 3"),
                "batch_size is 3",
            ),
            (f.to_json().replace("0x0102", "0x01z2"), "proof"),
            (
                f.to_json().replace(
                    "\"transcript\": \"blake2b\"",
                    "\"transcript\": \"poseidon\"",
                ),
                "unknown transcript \"poseidon\"",
            ),
            (
                f.to_json().replace(
                    &f.public_inputs[1].pubkey.as_ref().unwrap()[4..10],
                    "000000",
                ),
                "public input 1: pubkey",
            ),
            (
                f.to_json().replace("\"k\": 14,", "\"k\": 14, \"k\": 16,"),
                "duplicate field `k`",
            ),
            // Claims checked against the planner's table before any layout.
            (
                f.to_json().replace("\"k\": 14,", "\"k\": 15,"),
                "k = 15 but the batch circuit for B = 2 has k = 14",
            ),
            (
                f.to_json().replace("\"window\": 5", "\"window\": 64"),
                "window = 64 but the batch circuit is laid out with window 5",
            ),
            (
                f.to_json()
                    .replace("\"version\": 3", "\"version\": 18446744073709551615"),
                "version 18446744073709551615 is not supported",
            ),
            (
                f.to_json().replace("\"k\": 14,", "\"k\": null,"),
                "k: invalid type: null",
            ),
        ];
        for (text, want) in cases {
            let err = ProofFile::parse(&text).unwrap_err().to_string();
            assert!(err.contains(want), "{err:?} should mention {want:?}");
        }
    }
}
