//! The library API for a sequencer: a [`Prover`] built once for a circuit and a batch size
//! (parameters and keys loaded or made, cached under a params folder), then
//! [`Prover::prove`] for every batch; [`Verifier`] checks proof files.
//!
//! ```no_run
//! use std::path::{Path, PathBuf};
//! use batch_ecdsa::batch_file::{BatchFile, Policy};
//! use batch_ecdsa::demo::demo_batch;
//! use batch_ecdsa::prover::api::{ProveOptions, Prover, Silent, Verifier};
//! use batch_ecdsa::prover::circuit::CircuitKind;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let params_dir = Path::new("params");
//! // Once: the development SRS (INSECURE) and the keys for batches of 2 signatures.
//! let prover = Prover::new(CircuitKind::Batch, 2, params_dir, &Silent)?;
//! // For every batch of 2:
//! let records = demo_batch(2, 1, &[]).expect("demo batch");
//! let batch = BatchFile::from_records(&records).expect("well formed");
//! let proved = prover.prove(&batch, ProveOptions::default(), &Silent)?;
//! assert!(proved.self_verified);
//! proved.file.save(Path::new("proof.json"))?;
//! // Anyone with the params folder:
//! let verifier = Verifier::for_proof_file(&proved.file, params_dir, &Silent)?;
//! verifier.verify(&proved.file)?;
//! # Ok(()) }
//! ```
//!
//! (`no_run`: a real proof takes tens of seconds; `tests/prover_api.rs` runs the same steps.)
//!
//! Progress goes through [`Progress`]: the library prints nothing; the command line shows
//! progress bars on stderr.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::native::digest::batch_digest;
use batch_ecdsa_circuits::ecdsa::digest::{address_of, be_bytes32};
use batch_ecdsa_circuits::ecdsa::{SignatureWitness, Statement};
use halo2_proofs::halo2curves::bn256::{Bn256, G1Affine};
use halo2_proofs::plonk::{ProvingKey, VerifyingKey};
use halo2_proofs::poly::kzg::commitment::ParamsKZG;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;

use super::circuit::{
    witnesses_from_batch, AnyCircuit, CircuitKind, CircuitStats, WitnessBuildError,
};
use super::memory;
use super::params::ParamsError;
use super::proof::{
    self, digest_record, DigestPair, ProofFile, ProofFileError, ProveError, PublicInputRecord,
    PROOF_FILE_VERSION,
};
use super::proving_key::{self, KeyError, KeySource};
use super::srs::{self, SetupIdentity, SetupKind, SetupSource};
use super::transcript::TranscriptKind;
use crate::batch_file::{BatchFile, Policy};
use crate::hexfmt::encode_hex;

/// A long phase of the prover.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Phase {
    /// Laying the circuit out for the batch size (fitting k).
    Layout,
    /// Reading or generating the KZG parameters.
    Setup,
    /// Reading or generating the keys.
    Keygen,
    /// Building the witness (native items and the circuit's advice values).
    Witness,
    /// `create_proof`.
    Prove,
    /// `verify_proof`.
    Verify,
}

impl Phase {
    pub fn label(self) -> &'static str {
        match self {
            Phase::Layout => "layout",
            Phase::Setup => "setup",
            Phase::Keygen => "keygen",
            Phase::Witness => "witness",
            Phase::Prove => "prove",
            Phase::Verify => "verify",
        }
    }
}

/// Receives progress reports. Every method has an empty default.
pub trait Progress {
    /// A phase begins.
    fn started(&self, _phase: Phase) {}
    /// A phase ended after `elapsed`.
    fn finished(&self, _phase: Phase, _elapsed: Duration) {}
    /// Something worth telling the user (e.g. "params generated", "keys from cache").
    fn note(&self, _text: &str) {}
}

/// Reports nothing.
pub struct Silent;
impl Progress for Silent {}

fn timed<T>(progress: &dyn Progress, phase: Phase, f: impl FnOnce() -> T) -> (T, Duration) {
    progress.started(phase);
    let start = Instant::now();
    let out = f();
    let elapsed = start.elapsed();
    progress.finished(phase, elapsed);
    (out, elapsed)
}

/// Errors of the prover. [`ProverError::exit_code`] maps them to the exit codes in the
/// docs/commands.md.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ProverError {
    /// This build's field arithmetic cannot run on this CPU ([`crate::cpu`]).
    #[error(transparent)]
    Cpu(#[from] crate::cpu::UnsupportedCpu),
    #[error(transparent)]
    Params(#[from] ParamsError),
    #[error(transparent)]
    Keys(#[from] KeyError),
    #[error("{0}")]
    Witness(#[from] WitnessBuildError),
    #[error(transparent)]
    Prove(#[from] ProveError),
    #[error(transparent)]
    Memory(#[from] super::memory::MemoryError),
    /// The proof was made but fails the prover's own check: the circuit is not satisfied by
    /// this batch (an invalid batch proven with `checked: false`). The proof is carried for a
    /// caller that wants to show it fails (`prove --unchecked` writes it).
    #[error(
        "the proof fails the prover's own check: the circuit is not satisfied by this batch \
         (an invalid batch)"
    )]
    Unverified(Box<Proved>),
}

impl ProverError {
    /// 1 for an invalid batch (a signature fails, or the circuit cannot be satisfied),
    /// 2 for bad input or an environment failure.
    pub fn exit_code(&self) -> u8 {
        match self {
            ProverError::Witness(WitnessBuildError::Invalid(_)) => 1,
            ProverError::Prove(_) | ProverError::Unverified(_) => 1,
            _ => 2,
        }
    }
}

/// How a batch is proven.
#[derive(Clone, Copy, Debug)]
pub struct ProveOptions {
    pub policy: Policy,
    /// Run the native check first and refuse an invalid batch (default). `false` is
    /// `prove --unchecked`: the circuit alone then decides, and its proof fails verification.
    pub checked: bool,
    /// Seed of the prover's blinding randomness; None draws it from the OS.
    pub seed: Option<u64>,
    /// The Fiat–Shamir transcript: Blake2b (default, the smaller proof) or the EVM one that
    /// the generated Solidity verifiers read.
    pub transcript: TranscriptKind,
}

impl Default for ProveOptions {
    fn default() -> Self {
        Self {
            policy: Policy::default(),
            checked: true,
            seed: None,
            transcript: TranscriptKind::default(),
        }
    }
}

/// Whether [`Prover::with_key_cache`] may use cached keys.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum KeyCache {
    /// Use sound cached keys; generate and cache them otherwise.
    #[default]
    Use,
    /// Always generate (and rewrite the cache).
    Regenerate,
}

/// How a [`Prover`] is set up.
#[derive(Clone, Debug, Default)]
pub struct SetupOptions {
    /// Where the KZG parameters come from ([`SetupSource`]: a ceremony file, the local setup
    /// (default), or the INSECURE fixed-seed one).
    pub params: SetupSource,
    pub key_cache: KeyCache,
    /// What the proofs state (part of the circuit, so of its keys): per signature the hash
    /// and key (default), or one digest of every (signing hash, address) pair.
    pub statement: Statement,
}

/// What setting a prover up cost.
#[derive(Clone, Debug)]
pub struct SetupReport {
    pub layout_s: f64,
    /// Whether the params were generated now (local or development setup; else read).
    pub params_generated: bool,
    pub params_s: f64,
    /// Keygen time (without writing the cache), or the time to read and check cached keys.
    pub keygen_s: f64,
    pub keys_from_cache: bool,
    /// Why a cached key was rejected, if one was.
    pub cache_rejected: Option<String>,
    pub pk_bytes: u64,
}

/// A prover for one circuit and batch size (see the module doc).
pub struct Prover {
    template: AnyCircuit,
    params: ParamsKZG<Bn256>,
    /// Which setup `params` come from (recorded in every proof file).
    setup_identity: SetupIdentity,
    pk: ProvingKey<G1Affine>,
    vk_hash: [u8; 32],
    stats: CircuitStats,
    setup: SetupReport,
}

/// A proof and what it cost.
#[derive(Clone, Debug)]
pub struct Proved {
    pub file: ProofFile,
    /// Native item building plus the circuit's advice values (measured apart from proving;
    /// `create_proof` computes them again inside `prove_s`).
    pub witness_s: f64,
    pub prove_s: f64,
    /// The prover's own check of the proof.
    pub verify_s: f64,
    pub self_verified: bool,
    pub proof_bytes: usize,
}

impl Prover {
    /// Lays the circuit out for `batch_size`, loads (or generates and caches) the local setup
    /// for its k under `params_dir` ([`SetupSource::Local`]), and loads (or generates and
    /// caches) its keys under `params_dir/keys`.
    pub fn new(
        kind: CircuitKind,
        batch_size: usize,
        params_dir: &Path,
        progress: &dyn Progress,
    ) -> Result<Self, ProverError> {
        Self::with_key_cache(kind, batch_size, params_dir, KeyCache::Use, progress)
    }

    /// [`Prover::new`] with a choice about cached keys ([`KeyCache::Regenerate`] times a real
    /// keygen, e.g. for benches, and rewrites the cache).
    pub fn with_key_cache(
        kind: CircuitKind,
        batch_size: usize,
        params_dir: &Path,
        key_cache: KeyCache,
        progress: &dyn Progress,
    ) -> Result<Self, ProverError> {
        let setup = SetupOptions {
            params: SetupSource::Local,
            key_cache,
            statement: Statement::Keys,
        };
        Self::with_setup(kind, batch_size, params_dir, &setup, progress)
    }

    /// [`Prover::new`] with the params source and key-cache choice given. Keys are cached
    /// under `params_dir/keys` whatever the params source (the cache key covers the SRS).
    pub fn with_setup(
        kind: CircuitKind,
        batch_size: usize,
        params_dir: &Path,
        setup: &SetupOptions,
        progress: &dyn Progress,
    ) -> Result<Self, ProverError> {
        crate::cpu::check()?;
        let key_cache = setup.key_cache;
        let (template, layout) = timed(progress, Phase::Layout, || {
            AnyCircuit::fitted_for_size(kind, batch_size, setup.statement)
        });
        let template = template?;
        let stats = template.stats();
        let k = template.k();
        // The least memory keys and a proof need, against what the machine has, before the
        // params or keys are allocated.
        let needed = memory::proving_bytes_lower_bound(&template.constraint_system(), k);
        memory::check(k, needed, memory::available_bytes())?;
        let (srs, params_t) = timed(progress, Phase::Setup, || {
            srs::load(&setup.params, params_dir, k, None, true)
        });
        let srs = srs?;
        let params_generated = srs.generated;
        if srs.identity.kind.is_insecure() {
            progress.note(&format!(
                "WARNING: INSECURE fixed-seed development setup (k = {k}): anyone can forge \
                 proofs under it; for test fixtures only ({})",
                srs.path.display()
            ));
        }
        progress.note(&format!(
            "{} {} {}",
            srs.identity.describe(),
            if params_generated {
                "generated and saved to"
            } else {
                "read from"
            },
            srs.path.display()
        ));
        let (params, setup_identity) = (srs.params, srs.identity);
        let (keys, _) = timed(progress, Phase::Keygen, || {
            let dir = proving_key::keys_dir(params_dir);
            match key_cache {
                KeyCache::Use => proving_key::load_or_generate(&params, &template, &dir),
                KeyCache::Regenerate => {
                    proving_key::generate_and_store(&params, &template, &dir, None)
                }
            }
        });
        let keys = keys?;
        let (keys_from_cache, cache_rejected) = match &keys.source {
            KeySource::Cache => (true, None),
            KeySource::Generated { rejected } => (false, rejected.clone()),
        };
        if let Some(why) = &cache_rejected {
            progress.note(&format!("cached keys rejected ({why}); generated again"));
        }
        progress.note(if keys_from_cache {
            "keys read from the cache"
        } else {
            "keys generated and cached"
        });
        Ok(Self {
            setup: SetupReport {
                layout_s: layout.as_secs_f64(),
                params_generated,
                params_s: params_t.as_secs_f64(),
                keygen_s: keys.elapsed.as_secs_f64(),
                keys_from_cache,
                cache_rejected,
                pk_bytes: keys.pk_bytes,
            },
            template,
            params,
            setup_identity,
            vk_hash: keys.vk_hash,
            pk: keys.pk,
            stats,
        })
    }

    pub fn kind(&self) -> CircuitKind {
        self.template.kind()
    }
    pub fn batch_size(&self) -> usize {
        self.template.batch_size()
    }
    /// What this prover's proofs state.
    pub fn statement(&self) -> Statement {
        self.template.statement()
    }
    /// Public inputs of a proof (the instance column's length): 3·B for keys, 2 for the
    /// digest.
    pub fn num_instance(&self) -> usize {
        match self.statement() {
            Statement::Keys => {
                batch_ecdsa_circuits::ecdsa::INSTANCE_CELLS_PER_SIGNATURE * self.batch_size()
            }
            Statement::Digest => batch_ecdsa_circuits::ecdsa::DIGEST_INSTANCE_CELLS,
        }
    }
    pub fn k(&self) -> u32 {
        self.template.k()
    }
    pub fn stats(&self) -> CircuitStats {
        self.stats
    }
    pub fn vk_hash(&self) -> [u8; 32] {
        self.vk_hash
    }
    pub fn setup_report(&self) -> &SetupReport {
        &self.setup
    }
    pub fn params(&self) -> &ParamsKZG<Bn256> {
        &self.params
    }
    /// Which setup the params come from.
    pub fn setup_identity(&self) -> &SetupIdentity {
        &self.setup_identity
    }
    pub fn verifying_key(&self) -> &VerifyingKey<G1Affine> {
        self.pk.get_vk()
    }

    /// Proves a batch of n ≤ [`Prover::batch_size`] signatures and checks the proof. A batch
    /// of fewer than B is padded with the canonical filler ([`crate::native::filler`]): the
    /// proof states B slots, the first n the batch's, and a verifier holding the n entries
    /// checks the rest are the filler ([`Verifier::verify_batch`]). An invalid batch is refused
    /// with every invalid signature named (indices are the batch's own), unless
    /// `options.checked` is false; a proof that fails the prover's own check is an error
    /// whatever the options ([`ProverError::Unverified`]).
    pub fn prove(
        &self,
        batch: &BatchFile,
        options: ProveOptions,
        progress: &dyn Progress,
    ) -> Result<Proved, ProverError> {
        if batch.len() > self.batch_size() {
            return Err(WitnessBuildError::WrongSize {
                expected: self.batch_size(),
                got: batch.len(),
            }
            .into());
        }
        let padded;
        let batch = if batch.len() < self.batch_size() {
            padded = batch.padded_to(self.batch_size());
            &padded
        } else {
            batch
        };
        progress.started(Phase::Witness);
        let start = Instant::now();
        let witnesses = witnesses_from_batch(batch, options.policy, options.checked);
        let witnesses = match witnesses {
            Ok(w) => w,
            Err(e) => {
                progress.finished(Phase::Witness, start.elapsed());
                return Err(e.into());
            }
        };
        self.prove_witnesses_from(witnesses, options, progress, start)
    }

    /// Proves given circuit witnesses (no native pre-check: the caller vouches for them, or
    /// wants to see the circuit reject them).
    pub fn prove_witnesses(
        &self,
        witnesses: Vec<SignatureWitness>,
        options: ProveOptions,
        progress: &dyn Progress,
    ) -> Result<Proved, ProverError> {
        progress.started(Phase::Witness);
        self.prove_witnesses_from(witnesses, options, progress, Instant::now())
    }

    fn prove_witnesses_from(
        &self,
        witnesses: Vec<SignatureWitness>,
        options: ProveOptions,
        progress: &dyn Progress,
        witness_start: Instant,
    ) -> Result<Proved, ProverError> {
        let circuit = match self.template.with_witnesses(witnesses) {
            Ok(c) => c,
            Err(e) => {
                progress.finished(Phase::Witness, witness_start.elapsed());
                return Err(e.into());
            }
        };
        // The advice values: one layout run with the real witnesses.
        let _ = circuit.stats();
        let witness_t = witness_start.elapsed();
        progress.finished(Phase::Witness, witness_t);

        let rng = match options.seed {
            Some(s) => ChaCha20Rng::seed_from_u64(s),
            None => ChaCha20Rng::from_entropy(),
        };
        let (proof, prove_t) = timed(progress, Phase::Prove, || {
            proof::create_proof(&self.params, &self.pk, &circuit, options.transcript, rng)
        });
        let proof = proof?;
        let instance = circuit.instance();
        let (ok, verify_t) = timed(progress, Phase::Verify, || {
            proof::verify_proof(
                &self.params,
                self.pk.get_vk(),
                &instance,
                &proof,
                options.transcript,
            )
        });
        let (public_inputs, digest) = match self.statement() {
            Statement::Keys => (
                circuit.witnesses().iter().map(public_input_of).collect(),
                None,
            ),
            Statement::Digest => {
                let pairs = digest_pairs_of(circuit.witnesses());
                let records = pairs.iter().map(digest_record).collect();
                (records, Some(encode_hex(&batch_digest(&pairs))))
            }
        };
        let file = ProofFile {
            version: PROOF_FILE_VERSION,
            statement: self.statement(),
            circuit: self.kind(),
            batch_size: self.batch_size(),
            k: self.k(),
            window: circuit.window(),
            transcript: options.transcript.as_str().into(),
            multiopen: "shplonk".into(),
            setup: self.setup_identity.clone(),
            public_inputs,
            digest,
            vk_hash: encode_hex(&self.vk_hash),
            proof: encode_hex(&proof),
        };
        let proved = Proved {
            file,
            witness_s: witness_t.as_secs_f64(),
            prove_s: prove_t.as_secs_f64(),
            verify_s: verify_t.as_secs_f64(),
            self_verified: ok,
            proof_bytes: proof.len(),
        };
        if ok {
            Ok(proved)
        } else {
            Err(ProverError::Unverified(Box::new(proved)))
        }
    }

    /// Verifies a proof file made for this prover's circuit and batch size.
    pub fn verify(&self, file: &ProofFile) -> Result<Duration, VerifyError> {
        check_against(
            file,
            self.statement(),
            self.kind(),
            self.batch_size(),
            self.k(),
            &self.vk_hash,
            &self.setup_identity,
        )?;
        verify_file(&self.params, self.pk.get_vk(), file)
    }
}

/// The proof-file record of a witness's public part: `h` and `Q` as 32-byte big-endian
/// integers (a witness built from a parsed batch holds them canonical).
fn public_input_of(w: &SignatureWitness) -> PublicInputRecord {
    fn be32(v: &num_bigint::BigUint) -> [u8; 32] {
        let bytes = v.to_bytes_be();
        let mut out = [0u8; 32];
        let n = bytes.len().min(32);
        out[32 - n..].copy_from_slice(&bytes[bytes.len() - n..]);
        out
    }
    let mut key = vec![4u8];
    key.extend_from_slice(&be32(&w.q().0));
    key.extend_from_slice(&be32(&w.q().1));
    PublicInputRecord {
        msg_hash: encode_hex(&be32(w.h())),
        pubkey: Some(encode_hex(&key)),
        address: None,
    }
}

/// The digest statement's (signing hash, address) pair of every witness: the raw 32-byte
/// hash the witness carries ([`SignatureWitness::hash`], set from the batch's `msg_hash`) and
/// the address of its key, as the circuit hashes them.
pub fn digest_pairs_of(ws: &[SignatureWitness]) -> Vec<DigestPair> {
    ws.iter()
        .map(|w| (be_bytes32(w.hash()), address_of(&w.q().0, &w.q().1)))
        .collect()
}

/// Why a proof file was not accepted. [`VerifyError::exit_code`]: 1 invalid, 2 bad input.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum VerifyError {
    /// This build's field arithmetic cannot run on this CPU ([`crate::cpu`]).
    #[error(transparent)]
    Cpu(#[from] crate::cpu::UnsupportedCpu),
    #[error(transparent)]
    File(#[from] ProofFileError),
    #[error("params for k = {k} are missing or unreadable: {reason}")]
    Params { k: u32, reason: String },
    #[error(transparent)]
    Keys(#[from] KeyError),
    #[error("{0}")]
    Layout(#[from] WitnessBuildError),
    /// The proof is not valid for the public inputs it carries (or was made for another
    /// circuit).
    #[error("invalid proof: {0}")]
    Invalid(String),
    /// The proof names the fixed-seed development setup and the caller did not ask to accept
    /// it: anyone can forge such a proof.
    #[error(
        "refused: the proof was made under the INSECURE fixed-seed development setup, whose τ \
         is public, so anyone can forge a proof of anything under it; pass \
         --insecure-dev-setup to check it anyway (test fixtures only)"
    )]
    InsecureSetup,
    /// The proof names another setup than the parameters the caller gave.
    #[error("refused: the proof names the {named}, but the parameters given are the {given}")]
    OtherSetup { named: String, given: String },
    /// The proof is not for the batch the caller holds ([`Verifier::verify_batch`]).
    #[error(transparent)]
    NotTheBatch(#[from] super::expected::NotTheBatch),
}

impl VerifyError {
    pub fn exit_code(&self) -> u8 {
        match self {
            VerifyError::Invalid(_)
            | VerifyError::InsecureSetup
            | VerifyError::OtherSetup { .. }
            | VerifyError::NotTheBatch(_) => 1,
            _ => 2,
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn check_against(
    file: &ProofFile,
    statement: Statement,
    kind: CircuitKind,
    batch_size: usize,
    k: u32,
    vk_hash: &[u8; 32],
    setup: &SetupIdentity,
) -> Result<(), VerifyError> {
    file.check_form()?;
    if file.setup.kind == SetupKind::InsecureDev && setup.kind != SetupKind::InsecureDev {
        return Err(VerifyError::InsecureSetup);
    }
    if !file.setup.same_setup(setup) {
        return Err(VerifyError::OtherSetup {
            named: file.setup.describe(),
            given: setup.describe(),
        });
    }
    if file.statement != statement {
        return Err(VerifyError::Invalid(format!(
            "the proof states {}, this verifier checks {}",
            file.statement, statement
        )));
    }
    if file.circuit != kind || file.batch_size != batch_size {
        return Err(VerifyError::Invalid(format!(
            "the proof is for the {} circuit with B = {}, this verifier for {} with B = {}",
            file.circuit, file.batch_size, kind, batch_size
        )));
    }
    if file.k != k {
        return Err(VerifyError::Invalid(format!(
            "the proof claims k = {}, but the {} circuit for B = {} has k = {k}",
            file.k, kind, batch_size
        )));
    }
    if file.vk_hash_bytes()? != *vk_hash {
        return Err(VerifyError::Invalid(format!(
            "verifying-key hash {} differs from this verifier's {} (proof made under other params or by another circuit build)",
            file.vk_hash,
            encode_hex(vk_hash)
        )));
    }
    Ok(())
}

fn verify_file(
    params: &ParamsKZG<Bn256>,
    vk: &VerifyingKey<G1Affine>,
    file: &ProofFile,
) -> Result<Duration, VerifyError> {
    // Under the digest statement this recomputes D from the records and refuses a file
    // whose `digest` is not theirs ([`ProofFile::statement_inputs`]).
    let instance = file.instance()?;
    let proof = file.proof_bytes()?;
    let transcript = file.transcript_kind()?;
    let start = Instant::now();
    if proof::verify_proof(params, vk, &instance, &proof, transcript) {
        Ok(start.elapsed())
    } else {
        Err(VerifyError::Invalid(
            "the proof does not verify for the public inputs it carries".into(),
        ))
    }
}

/// A verifier for the statement, circuit, batch size and k a proof file names, under the
/// parameters the caller chose.
pub struct Verifier {
    statement: Statement,
    kind: CircuitKind,
    batch_size: usize,
    k: u32,
    params: ParamsKZG<Bn256>,
    setup_identity: SetupIdentity,
    vk: VerifyingKey<G1Affine>,
    vk_hash: [u8; 32],
    /// Whether the verifying key came from the cache.
    pub vk_from_cache: bool,
}

impl Verifier {
    /// [`Verifier::for_proof_file_with`] under the local setup of `params_dir`.
    pub fn for_proof_file(
        file: &ProofFile,
        params_dir: &Path,
        progress: &dyn Progress,
    ) -> Result<Self, VerifyError> {
        Self::for_proof_file_with(file, params_dir, &SetupSource::Local, progress)
    }

    /// Lays the named circuit out, loads the parameters for its k from `source` (never
    /// generated here: missing params are bad input; the local setup is the one of
    /// `params_dir` with the τ the file names) and loads or generates its verifying key. Does
    /// not look at the proof itself.
    ///
    /// What is trusted is `source`, the caller's choice, never the file: a file naming the
    /// fixed-seed setup is refused ([`VerifyError::InsecureSetup`]) unless `source` is
    /// [`SetupSource::InsecureDev`], and one naming another setup than the parameters loaded
    /// is refused ([`VerifyError::OtherSetup`]). A file that lies about its setup gains
    /// nothing: the proof is checked under the parameters loaded.
    pub fn for_proof_file_with(
        file: &ProofFile,
        params_dir: &Path,
        source: &SetupSource,
        progress: &dyn Progress,
    ) -> Result<Self, VerifyError> {
        crate::cpu::check()?;
        file.check_form()?;
        if file.setup.kind == SetupKind::InsecureDev && *source != SetupSource::InsecureDev {
            return Err(VerifyError::InsecureSetup);
        }
        // `check_form` above compared B and k with the planner's table before anything is laid
        // out (a file built in memory never went through `ProofFile::parse`).
        let k = file.k;
        let (circuit, _) = timed(progress, Phase::Layout, || {
            AnyCircuit::fitted_for_size(file.circuit, file.batch_size, file.statement)
        });
        let circuit = circuit?;
        if circuit.k() != k {
            return Err(VerifyError::Invalid(format!(
                "the proof claims k = {k}, but the {} circuit for B = {} has k = {}",
                file.circuit,
                file.batch_size,
                circuit.k()
            )));
        }
        let (srs, _) = timed(progress, Phase::Setup, || {
            srs::load(source, params_dir, k, Some(&file.setup.tau_g2), false)
        });
        let srs = srs.map_err(|e| match e {
            ParamsError::FixedSeed { .. } => VerifyError::InsecureSetup,
            e => VerifyError::Params {
                k,
                reason: e.to_string(),
            },
        })?;
        if !file.setup.same_setup(&srs.identity) {
            return Err(VerifyError::OtherSetup {
                named: file.setup.describe(),
                given: srs.identity.describe(),
            });
        }
        progress.note(&format!(
            "{} read from {}",
            srs.identity.describe(),
            srs.path.display()
        ));
        if srs.identity.kind.is_insecure() {
            progress.note(
                "WARNING: INSECURE: checked under the fixed-seed development setup, whose τ is \
                 public: anyone can forge proofs under it",
            );
        }
        if file.setup.kind == SetupKind::Local && matches!(source, SetupSource::Ceremony(_)) {
            progress.note(
                "note: the proof was made under a local setup: the params file you gave is \
                 sound only as far as whoever made it never kept its τ",
            );
        }
        if circuit.window() != file.window {
            return Err(VerifyError::Invalid(format!(
                "the proof names MSM window {}, but the {} circuit for B = {} is laid out with \
                 window {}",
                file.window,
                file.circuit,
                file.batch_size,
                circuit.window()
            )));
        }
        let params = srs.params;
        // Reads a cached verifying key if one is there; never writes one for a file anyone
        // may have sent.
        let (vk, _) = timed(progress, Phase::Keygen, || {
            proving_key::load_or_generate_vk(&params, &circuit, &proving_key::keys_dir(params_dir))
        });
        let (vk, vk_hash, key_source) = vk?;
        Ok(Self {
            statement: file.statement,
            kind: file.circuit,
            batch_size: file.batch_size,
            k,
            params,
            setup_identity: srs.identity,
            vk,
            vk_hash,
            vk_from_cache: key_source == KeySource::Cache,
        })
    }

    /// The setup of the parameters this verifier loaded (what to report, never the file's
    /// claim).
    pub fn setup_identity(&self) -> &SetupIdentity {
        &self.setup_identity
    }

    pub fn vk_hash(&self) -> [u8; 32] {
        self.vk_hash
    }

    /// What the proofs this verifier checks state.
    pub fn statement(&self) -> Statement {
        self.statement
    }

    /// Checks that the proof is for **`batch`**, the batch the caller holds (its entries, in
    /// order, under the proof's statement: [`super::expected`]), then that it verifies. A
    /// proof for any other batch — one hash or key changed, two entries swapped, another B — is
    /// [`VerifyError::NotTheBatch`] naming each differing entry. Returns the verification
    /// time.
    pub fn verify_batch(
        &self,
        file: &ProofFile,
        batch: &crate::batch_file::BatchFile,
        policy: crate::batch_file::Policy,
        entries: super::expected::Entries,
    ) -> Result<Duration, VerifyError> {
        let mismatches = super::expected::mismatches(file, batch, policy, entries);
        if !mismatches.is_empty() {
            return Err(super::expected::NotTheBatch { mismatches }.into());
        }
        self.verify(file)
    }

    /// Checks that the file is for this verifier's circuit (statement, kind, B, k, vk hash)
    /// and that its proof verifies for **the public inputs it carries**. That says some batch
    /// with those inputs was signed, not that it is the caller's: a caller holding a batch
    /// uses [`Verifier::verify_batch`]. Returns the verification time.
    pub fn verify(&self, file: &ProofFile) -> Result<Duration, VerifyError> {
        check_against(
            file,
            self.statement,
            self.kind,
            self.batch_size,
            self.k,
            &self.vk_hash,
            &self.setup_identity,
        )?;
        verify_file(&self.params, &self.vk, file)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpu::tests::PRETEND_UNSUPPORTED;
    use crate::cpu::UnsupportedCpu;

    /// On a CPU the build cannot run on, both constructors stop at the CPU check, before
    /// the params or the keys (the params folder here does not exist: a check after loading
    /// them would never be reached), and say so.
    #[test]
    fn the_constructors_check_the_cpu_first() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/bad-input/proof-b2.json"
        ))
        .unwrap();
        let file = ProofFile::parse(&text).unwrap();
        let nowhere = Path::new("/nonexistent/batch-ecdsa-params");
        PRETEND_UNSUPPORTED.set(true);
        let prover = Prover::new(CircuitKind::Batch, 1, nowhere, &Silent);
        let verifier = Verifier::for_proof_file(&file, nowhere, &Silent);
        PRETEND_UNSUPPORTED.set(false);
        assert!(
            matches!(prover, Err(ProverError::Cpu(_))),
            "{:?}",
            prover.err()
        );
        assert!(
            matches!(verifier, Err(VerifyError::Cpu(_))),
            "{:?}",
            verifier.err()
        );
        // Without the pretence the same calls get past the check (and fail later, on the
        // missing params folder, for the verifier).
        let verifier = Verifier::for_proof_file(&file, nowhere, &Silent);
        assert!(!matches!(verifier, Err(VerifyError::Cpu(_))));
    }

    /// A CPU the build cannot run on is bad environment (exit 2) for the prover and the
    /// verifier alike, and the reason reaches the caller unchanged.
    #[test]
    fn an_unsupported_cpu_is_exit_2_with_its_reason() {
        let why = UnsupportedCpu("needs the ADX instruction this CPU lacks".into());
        let p = ProverError::from(why.clone());
        assert_eq!(p.exit_code(), 2);
        assert_eq!(p.to_string(), why.0);
        let v = VerifyError::from(why.clone());
        assert_eq!(v.exit_code(), 2);
        assert_eq!(v.to_string(), why.0);
    }
}
