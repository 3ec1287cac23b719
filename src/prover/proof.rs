//! Proofs (SHPLONK multi-open KZG over BN254, Blake2b or EVM transcript:
//! [`super::transcript`]) and the proof file.
//!
//! The proof file (README, *Commands*) is JSON:
//!
//! ```json
//! { "version": 1, "circuit": "batch", "batch_size": 2, "k": 17, "window": 5,
//!   "transcript": "blake2b" | "evm", "multiopen": "shplonk", "insecure_dev_params": true,
//!   "public_inputs": [ { "msg_hash": "0x…32 bytes", "pubkey": "0x04…65 bytes" } ],
//!   "vk_hash": "0x…32 bytes", "proof": "0x…" }
//! ```
//!
//! `msg_hash` is the message hash as the circuit takes it: the 32-byte big-endian hash reduced
//! mod n (the hash itself for all hashes below n, i.e. all but a 2^-128 fraction). `pubkey` is
//! the uncompressed SEC1 key. The verifier rebuilds the instance column from these and the
//! verifying key from `circuit`, `batch_size` and `k`; `vk_hash` ([`super::proving_key::vk_hash`])
//! must equal that key's hash, so a proof made under another circuit build is reported as
//! such. What the proof establishes: every signature i is a valid ECDSA signature on
//! `msg_hash[i]` under `pubkey[i]` (see `batch_ecdsa_circuits::ecdsa`).

use std::path::Path;

use batch_ecdsa_circuits::layout::{LayoutParams, Native};
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
use super::transcript::{KeccakRead, KeccakWrite, TranscriptKind};
use crate::hexfmt::{decode_hex, decode_hex_fixed, encode_hex};
use crate::native::encoding::{fq_from_be_bytes, fq_to_be_bytes};
use crate::native::public_key::PublicKey;

/// Version of the proof-file format written by this crate. 2 since the absent-operand fix of
/// the relation block (README, security note): a version-1 file was made by a circuit whose
/// proofs prove nothing, so it is refused rather than checked against a new key.
pub const PROOF_FILE_VERSION: u32 = 2;

/// Largest batch size a proof file may name (a verifier lays the circuit out for it: 4096
/// signatures need about k = 28, far beyond any params in use).
pub const MAX_BATCH_SIZE: usize = 4096;

/// Why a proof could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ProveError {
    #[error("halo2 create_proof failed: {0}")]
    Halo2(String),
}

/// Why a proof file could not be read or written (bad input, exit code 2).
#[derive(Debug, thiserror::Error)]
pub enum ProofFileError {
    #[error("cannot read proof file {path}: {reason}")]
    Io { path: String, reason: String },
    #[error("proof file is not valid JSON for the proof format: {0}")]
    NotJson(String),
    #[error(
        "proof file version {0} is not supported (this build reads version {PROOF_FILE_VERSION})"
    )]
    Version(u32),
    #[error(
        "proof file version 1 was made before the relation-block soundness fix: such a proof \
         proves nothing (see the README's security note); prove the batch again"
    )]
    BeforeSoundnessFix,
    #[error("proof file: {0}")]
    Field(String),
    #[error("cannot write proof file {path}: {reason}")]
    Write { path: String, reason: String },
}

/// One signature's public inputs as the proof file holds them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PublicInputRecord {
    /// The message hash mod n, 32 bytes big-endian hex.
    pub msg_hash: String,
    /// The public key, SEC1 hex (written uncompressed; compressed is accepted).
    pub pubkey: String,
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
#[serde(deny_unknown_fields)]
pub struct ProofFile {
    pub version: u32,
    #[serde(with = "kind_name")]
    pub circuit: CircuitKind,
    pub batch_size: usize,
    pub k: u32,
    /// The MSM window the circuit was laid out with (informational; the verifier uses its own
    /// layout for `circuit`, `batch_size`, `k`, and the vk hash must match).
    pub window: u32,
    pub transcript: String,
    pub multiopen: String,
    /// Whether the proof was made under the insecure development setup.
    pub insecure_dev_params: bool,
    pub public_inputs: Vec<PublicInputRecord>,
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
        pubkey: match key {
            Ok(k) => encode_hex(&k.to_sec1_uncompressed()),
            // Unreachable for points from a parsed batch (never the identity); written as
            // the empty key, which no reader accepts.
            Err(_) => "0x".into(),
        },
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
            Some(v) => return Err(ProofFileError::Version(v.min(u64::from(u32::MAX)) as u32)),
            None => {
                return Err(ProofFileError::Field(
                    "no numeric `version` field: not a batch-ecdsa proof file".into(),
                ))
            }
        }
        let file: ProofFile =
            serde_json::from_value(value).map_err(|e| ProofFileError::NotJson(e.to_string()))?;
        file.check_form()?;
        Ok(file)
    }

    /// Reads and parses a proof file.
    pub fn load(path: &Path) -> Result<Self, ProofFileError> {
        let text = std::fs::read_to_string(path).map_err(|e| ProofFileError::Io {
            path: path.display().to_string(),
            reason: e.to_string(),
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

    fn check_form(&self) -> Result<(), ProofFileError> {
        self.transcript_kind()?;
        if self.multiopen != "shplonk" {
            return Err(ProofFileError::Field(format!(
                "multiopen {:?} not supported (expected shplonk)",
                self.multiopen
            )));
        }
        if self.batch_size > MAX_BATCH_SIZE {
            return Err(ProofFileError::Field(format!(
                "batch_size {} is above the largest supported ({MAX_BATCH_SIZE})",
                self.batch_size
            )));
        }
        if self.batch_size == 0 || self.public_inputs.len() != self.batch_size {
            return Err(ProofFileError::Field(format!(
                "batch_size is {} but there are {} public inputs",
                self.batch_size,
                self.public_inputs.len()
            )));
        }
        if self.k == 0 || self.k > super::params::MAX_K {
            return Err(ProofFileError::Field(format!(
                "k = {} is out of range",
                self.k
            )));
        }
        self.vk_hash_bytes()?;
        self.proof_bytes()?;
        self.public_inputs()?;
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

    /// The public inputs `(h, Q)` of every signature, in order.
    pub fn public_inputs(&self) -> Result<Vec<PublicInput>, ProofFileError> {
        self.public_inputs
            .iter()
            .enumerate()
            .map(|(i, rec)| {
                let bad = |what: &str, e: String| {
                    ProofFileError::Field(format!("public input {i}: {what}: {e}"))
                };
                let hb: [u8; 32] =
                    decode_hex_fixed(&rec.msg_hash).map_err(|e| bad("msg_hash", e))?;
                let h = fq_from_be_bytes(&hb)
                    .ok_or_else(|| bad("msg_hash", "not below the group order n".into()))?;
                let kb = decode_hex(&rec.pubkey).map_err(|e| bad("pubkey", e))?;
                let q = PublicKey::from_sec1(&kb).map_err(|e| bad("pubkey", e.to_string()))?;
                Ok((h, q.point()))
            })
            .collect()
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
            circuit: CircuitKind::Batch,
            batch_size: 2,
            k: 17,
            window: 4,
            transcript: "blake2b".into(),
            multiopen: "shplonk".into(),
            insecure_dev_params: true,
            public_inputs: items
                .iter()
                .map(|i| public_input_record(&i.h, &i.q))
                .collect(),
            vk_hash: encode_hex(&[7u8; 32]),
            proof: "0x0102".into(),
        }
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
                f.to_json().replace("\"version\": 2", "\"version\": 9"),
                "version 9",
            ),
            (
                f.to_json().replace("\"version\": 2", "\"version\": 1"),
                "before the relation-block soundness fix",
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
                f.to_json()
                    .replace(&f.public_inputs[1].pubkey[4..10], "000000"),
                "public input 1: pubkey",
            ),
        ];
        for (text, want) in cases {
            let err = ProofFile::parse(&text).unwrap_err().to_string();
            assert!(err.contains(want), "{err:?} should mention {want:?}");
        }
    }
}
