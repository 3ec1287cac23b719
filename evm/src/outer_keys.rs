//! The outer (aggregation) circuit and its keys, **made once** (feature `aggregate`).
//!
//! The outer circuit is snark-verifier-sdk 0.2.7's `AggregationCircuit` verifying one inner
//! batch proof (SHPLONK, the inner verifying key as constants: `VerifierUniversality::None`),
//! exposing the KZG accumulator then the inner proof's public inputs. Its proving key is a
//! function of the inner circuit's *protocol* (what snark-verifier compiles from the inner
//! verifying key: its commitments, domain, queries, number of public inputs and transcript
//! seed — never the inner proof or its witnesses), the outer shape (k, lookup bits), the
//! parameters (`τ·G₂` identifies the setup; the key uses its powers of `τ·G₁` of size 2^k) and the
//! crate versions. [`outer_cache_key`] hashes exactly those, so the key made for the first batch
//! of a statement, B, inner and outer k and setup is read back for every later one
//! ([`load_or_generate`]; the checks of `batch_ecdsa::prover::key_files`: the cache key, the
//! file's SHA-256, the verifying key's hash read back). halo2-base also needs the thread break
//! points its keygen layout chose to prove with the key: they are stored beside it.
//!
//! A cache is not a root of trust: a user checks the outer proof with the verifier they pinned
//! (`crate::pinning`), so a key altered together with its metadata yields a verifier or proofs
//! the pinned contract refuses.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use batch_ecdsa::calldata::rows::{OuterLayout, OuterShape};
use batch_ecdsa::native::hash::keccak256;
use batch_ecdsa::prover::key_files;
use batch_ecdsa::prover::proving_key::KeySource;
use batch_ecdsa_circuits::ecdsa::Statement;
use halo2_proofs::halo2curves::bn256::{Bn256, G1Affine};
use halo2_proofs::halo2curves::group::GroupEncoding;
use halo2_proofs::plonk::{keygen_pk2, ProvingKey};
use halo2_proofs::poly::commitment::{Params, ParamsProver};
use halo2_proofs::poly::kzg::commitment::ParamsKZG;
use serde::{Deserialize, Serialize};
use snark_verifier_sdk::halo2::aggregation::{
    AggregationCircuit, AggregationConfigParams, VerifierUniversality,
};
use snark_verifier_sdk::snark_verifier::halo2_base::gates::circuit::CircuitBuilderStage;
use snark_verifier_sdk::snark_verifier::halo2_base::gates::flex_gate::MultiPhaseThreadBreakPoints;
use snark_verifier_sdk::{CircuitExt, Snark, SHPLONK};

/// The outer circuit's proving key with what proving with it needs.
pub struct OuterKeys {
    pub layout: OuterLayout,
    pub config: AggregationConfigParams,
    pub break_points: MultiPhaseThreadBreakPoints,
    pub pk: ProvingKey<G1Affine>,
    /// The keygen time, or the time to read and check the cached key.
    pub keygen: Duration,
    /// Whether the key came from the cache (and, if made, why a cached one was refused).
    pub source: KeySource,
    /// Size of the serialised proving key.
    pub pk_bytes: u64,
    /// Why made keys could not be stored (they are used all the same).
    pub not_stored: Option<String>,
}

/// The aggregation circuit over `snark` at `stage` (module doc).
pub(crate) fn aggregation_circuit(
    stage: CircuitBuilderStage,
    config: AggregationConfigParams,
    params: &ParamsKZG<Bn256>,
    snark: &Snark,
) -> AggregationCircuit {
    let mut circuit = AggregationCircuit::new::<SHPLONK>(
        stage,
        config,
        params,
        [snark.clone()],
        VerifierUniversality::None,
    );
    // Public inputs: the accumulator, then the inner proof's (no previous accumulator).
    circuit.expose_previous_instances(false);
    circuit
}

/// Lays the outer circuit out for `shape` (no keys): its cells and the columns they need at
/// that k (halo2-base's auto-configuration, 20 rows kept for blinding).
pub fn outer_layout(
    params: &ParamsKZG<Bn256>,
    snark: &Snark,
    shape: OuterShape,
) -> (OuterLayout, AggregationConfigParams, AggregationCircuit) {
    let config = AggregationConfigParams {
        degree: shape.k,
        lookup_bits: shape.lookup_bits,
        ..Default::default()
    };
    let mut circuit = aggregation_circuit(CircuitBuilderStage::Keygen, config, params, snark);
    let config = circuit.calculate_params(Some(20));
    let stats = circuit.builder.statistics();
    let layout = OuterLayout {
        shape,
        advice_cells: stats.gate.total_advice_per_phase.iter().sum(),
        lookup_cells: stats.total_lookup_advice_per_phase.iter().sum(),
        fixed_cells: stats.gate.total_fixed,
        num_advice: config.num_advice,
        num_lookup_advice: config.num_lookup_advice,
        num_fixed: config.num_fixed,
        num_instance: circuit.num_instance().iter().sum(),
    };
    (layout, config, circuit)
}

/// Selector compression of the outer keys: off (snark-verifier-sdk's keys are made without
/// it). [`outer_keygen`] and `aggregation_prover::outer_vk` both use this, so their verifying
/// keys are the same.
pub const OUTER_COMPRESS_SELECTORS: bool = false;

/// Makes the outer circuit's proving key for `shape` (`params` of exactly `shape.k`), no cache.
pub fn outer_keygen(
    params: &ParamsKZG<Bn256>,
    snark: &Snark,
    shape: OuterShape,
) -> Result<OuterKeys, String> {
    let (layout, config, circuit) = outer_layout(params, snark, shape);
    let t = Instant::now();
    // Both keys from one layout of the circuit (halo2's `keygen_pk2`; the permutation
    // polynomials are still computed for each key): the verifying key is `outer_vk`'s
    // (`tests/outer_keys.rs`), made without laying the circuit out a second time.
    let pk = keygen_pk2(params, &circuit, OUTER_COMPRESS_SELECTORS)
        .map_err(|e| format!("outer keygen: {e:?}"))?;
    Ok(OuterKeys {
        layout,
        config,
        break_points: circuit.break_points(),
        pk,
        keygen: t.elapsed(),
        source: KeySource::Generated { rejected: None },
        pk_bytes: 0,
        not_stored: None,
    })
}

/// What the cache stores beside the outer key besides its configuration: the break points and
/// the layout, and what it is for (for a reader; the cache key decides).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct OuterExtra {
    statement: String,
    batch_size: usize,
    inner_k: u32,
    layout: OuterLayout,
    break_points: MultiPhaseThreadBreakPoints,
}

/// The crates whose code the outer circuit is, as `Cargo.lock` pins them (a unit test holds
/// this list to the lock file, so a version bump changes every outer cache key).
pub const OUTER_STACK: &[(&str, &str)] = &[
    ("halo2-axiom", "0.5.3"),
    ("halo2curves-axiom", "0.7.3"),
    ("halo2-base", "0.5.5"),
    ("halo2-ecc", "0.5.5"),
    ("snark-verifier", "0.2.7"),
    ("snark-verifier-sdk", "0.2.7"),
];

/// The cache key of the outer keys (module doc): Keccak-256 of a version tag, how the circuit
/// is built (SHPLONK, the inner key as constants, no previous instances, 20 blinding rows), the
/// inner protocol (serialised), the outer shape, the parameters' k, `τ·G₂` and `τ·G₁`, and
/// the crates' versions ([`OUTER_STACK`] and this crate's).
pub fn outer_cache_key(
    params: &ParamsKZG<Bn256>,
    snark: &Snark,
    shape: OuterShape,
) -> Result<[u8; 32], String> {
    let protocol = serde_json::to_vec(&snark.protocol)
        .map_err(|e| format!("the inner protocol does not serialise: {e}"))?;
    let mut data = b"batch-ecdsa outer keys v1\nSHPLONK, VerifierUniversality::None, expose_previous_instances(false), calculate_params(Some(20))\n"
        .to_vec();
    data.extend_from_slice(&keccak256(&protocol));
    data.extend_from_slice(&shape.k.to_le_bytes());
    data.extend_from_slice(&(shape.lookup_bits as u64).to_le_bytes());
    data.extend_from_slice(&params.k().to_le_bytes());
    data.extend_from_slice(params.s_g2().to_bytes().as_ref());
    if let Some(g1) = params.get_g().get(1) {
        data.extend_from_slice(g1.to_bytes().as_ref());
    }
    data.extend_from_slice(format!("\nbatch-ecdsa-evm {}\n", env!("CARGO_PKG_VERSION")).as_bytes());
    for (name, version) in OUTER_STACK {
        data.extend_from_slice(format!("{name} {version}\n").as_bytes());
    }
    Ok(keccak256(&data))
}

/// Where the outer keys of `statement`, B and both k live under `keys_dir`.
fn stem(
    keys_dir: &Path,
    statement: Statement,
    batch_size: usize,
    inner_k: u32,
    shape: OuterShape,
    key: &[u8; 32],
) -> PathBuf {
    keys_dir.join(format!(
        "aggregation-{statement}-b{batch_size}-ik{inner_k}-k{}-{}",
        shape.k,
        &hex::encode(key)[..16]
    ))
}

/// What the outer keys are for: the inner proof, its statement, B and k, the outer shape.
pub struct OuterTarget<'a> {
    pub snark: &'a Snark,
    pub statement: Statement,
    pub batch_size: usize,
    pub inner_k: u32,
    pub shape: OuterShape,
}

fn generator<'a>(
    params: &'a ParamsKZG<Bn256>,
    t: &'a OuterTarget<'a>,
) -> impl FnOnce() -> Result<(ProvingKey<G1Affine>, AggregationConfigParams, OuterExtra), String> + 'a
{
    move || {
        let keys = outer_keygen(params, t.snark, t.shape)?;
        let extra = OuterExtra {
            statement: t.statement.to_string(),
            batch_size: t.batch_size,
            inner_k: t.inner_k,
            layout: keys.layout,
            break_points: keys.break_points,
        };
        Ok((keys.pk, keys.config, extra))
    }
}

fn from_cached(cached: key_files::CachedKey<AggregationConfigParams, OuterExtra>) -> OuterKeys {
    OuterKeys {
        layout: cached.extra.layout,
        config: cached.config,
        break_points: cached.extra.break_points,
        pk: cached.pk,
        keygen: cached.elapsed,
        source: cached.source,
        pk_bytes: cached.pk_bytes,
        not_stored: cached.not_stored,
    }
}

fn checked_params(params: &ParamsKZG<Bn256>, t: &OuterTarget) -> Result<(), String> {
    if params.k() != t.shape.k {
        return Err(format!(
            "the outer params have k = {}, the outer circuit k = {}",
            params.k(),
            t.shape.k
        ));
    }
    Ok(())
}

/// The outer keys for `target`: read from `keys_dir` when it holds sound ones for exactly this
/// inner protocol, shape and setup, else made ([`outer_keygen`]) and stored there (module doc).
pub fn load_or_generate(
    params: &ParamsKZG<Bn256>,
    target: &OuterTarget,
    keys_dir: &Path,
) -> Result<OuterKeys, String> {
    checked_params(params, target)?;
    let key = outer_cache_key(params, target.snark, target.shape)?;
    let stem = stem(
        keys_dir,
        target.statement,
        target.batch_size,
        target.inner_k,
        target.shape,
        &key,
    );
    key_files::load_or_generate::<AggregationCircuit, OuterExtra>(
        &stem,
        &key,
        generator(params, target),
    )
    .map(from_cached)
    .map_err(|e| format!("outer keys: {e}"))
}

/// Makes the outer keys for `target` whatever the cache holds and stores them (`rejected`: why
/// the cached ones were not used).
pub fn regenerate(
    params: &ParamsKZG<Bn256>,
    target: &OuterTarget,
    keys_dir: &Path,
    rejected: String,
) -> Result<OuterKeys, String> {
    checked_params(params, target)?;
    let key = outer_cache_key(params, target.snark, target.shape)?;
    let stem = stem(
        keys_dir,
        target.statement,
        target.batch_size,
        target.inner_k,
        target.shape,
        &key,
    );
    key_files::generate_and_store::<AggregationCircuit, OuterExtra>(
        &stem,
        &key,
        generator(params, target),
        Some(rejected),
    )
    .map(from_cached)
    .map_err(|e| format!("outer keys: {e}"))
}

/// The outer circuit at the prover stage for `snark`, laid out with the keys' configuration and
/// break points, **checked against the layout the keys were made for**: the same advice, lookup
/// cells and public inputs (the prover stage does not count constants, so fixed cells are
/// not compared), one break point per advice column but the last. A key
/// made by another build of the outer circuit (the cache key names the crates, not every line
/// of their code) or metadata altered with it is refused here, before halo2-base would index
/// past its columns.
pub fn prover_circuit(
    params: &ParamsKZG<Bn256>,
    keys: &OuterKeys,
    snark: &Snark,
) -> Result<AggregationCircuit, String> {
    let circuit = aggregation_circuit(CircuitBuilderStage::Prover, keys.config, params, snark);
    let stats = circuit.builder.statistics();
    let now = (
        stats.gate.total_advice_per_phase.iter().sum::<usize>(),
        stats.total_lookup_advice_per_phase.iter().sum::<usize>(),
        circuit.num_instance().iter().sum::<usize>(),
    );
    let l = &keys.layout;
    let recorded = (l.advice_cells, l.lookup_cells, l.num_instance);
    if now != recorded {
        return Err(format!(
            "the outer circuit lays out (advice cells, lookup cells, public inputs) = {now:?}, its keys were made for {recorded:?}"
        ));
    }
    let shape_ok = keys.break_points.len() == 1
        && keys.break_points[0].len() + 1 == keys.config.num_advice
        && l.num_advice == keys.config.num_advice
        && l.num_lookup_advice == keys.config.num_lookup_advice
        && l.num_fixed == keys.config.num_fixed;
    if !shape_ok {
        return Err(format!(
            "the keys' break points ({:?} per phase) do not fit their {} advice columns",
            keys.break_points.iter().map(Vec::len).collect::<Vec<_>>(),
            keys.config.num_advice
        ));
    }
    Ok(circuit.use_break_points(keys.break_points.clone()))
}
