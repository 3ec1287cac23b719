//! Keys, proofs and their timings for one circuit and B, through the prover library
//! (`prover::{circuit, params, keys, proof}`): the same steps `Prover::new` and
//! `Prover::prove` take, split so that each is timed on its own and keygen can be repeated
//! (the prover caches keys; a benchmark must not).
//!
//! Per run: keygen (verifying key, then proving key, from the fitted layout); witness (the
//! native check of the demo batch and the circuit's advice values, as `Prover::prove` times
//! it); proving (SHPLONK, Blake2b, blinding from ChaCha20 seeded with the run number);
//! verification of the proof against the batch's public inputs, which must succeed (the
//! median of [`VERIFY_REPEATS`] verifications of that proof). The KZG
//! parameters (the insecure development setup) are read or generated once and not timed.

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use halo2_proofs::SerdeFormat;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;

use super::cells::DEMO_SEED;
use super::record::{Cells, Timings};
use super::stats::Summary;
use crate::batch_file::{BatchFile, Policy};
use crate::demo::demo_batch;
use crate::prover::circuit::{witnesses_from_batch, AnyCircuit, CircuitKind};
use crate::prover::params::load_or_create_dev;
use crate::prover::transcript::TranscriptKind;
use crate::prover::{proof, proving_key};
use batch_ecdsa_circuits::ecdsa::Statement;

/// Verifications per run; the run's verification time is their median.
pub const VERIFY_REPEATS: usize = 9;

/// Counts the bytes written to it.
struct ByteCounter(u64);
impl Write for ByteCounter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len() as u64;
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn secs(t: Instant) -> f64 {
    t.elapsed().as_secs_f64()
}

/// Lays `kind` out for `b` signatures, then `runs` times: keygen, witness, proof,
/// verification. Returns the prover's cell counts and the timings. `log` receives one line
/// per step (for stderr).
pub fn measure(
    kind: CircuitKind,
    b: usize,
    runs: u32,
    params_dir: &Path,
    log: &dyn Fn(&str),
) -> Result<(Cells, Timings), String> {
    let tag = format!("{} B={b}", kind.as_str());
    let t = Instant::now();
    let template =
        AnyCircuit::fitted_for_size(kind, b, Statement::Keys).map_err(|e| format!("{tag}: {e}"))?;
    let cells = super::cells::cells_of(&template);
    let k = cells.k;
    log(&format!(
        "[{tag}] layout: k = {k}, {} advice cells ({:.1} s)",
        cells.advice_cells,
        secs(t)
    ));
    let t = Instant::now();
    let (params, generated) =
        load_or_create_dev(params_dir, k).map_err(|e| format!("{tag}: params: {e}"))?;
    log(&format!(
        "[{tag}] INSECURE development params k = {k} {} ({:.1} s, not timed)",
        if generated { "generated" } else { "read" },
        secs(t)
    ));
    let records = demo_batch(b, DEMO_SEED, &[]).map_err(|e| format!("{tag}: {e}"))?;
    let batch = BatchFile::from_records(&records).map_err(|e| {
        let why: Vec<String> = e.iter().map(|x| x.to_string()).collect();
        format!("{tag}: demo batch: {}", why.join("; "))
    })?;

    let (mut keygen, mut witness, mut prove, mut verify) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (mut pk_bytes, mut proof_bytes) = (0u64, 0u64);
    for run in 0..runs {
        let (pk, kt) =
            proving_key::generate(&params, &template).map_err(|e| format!("{tag}: keygen: {e}"))?;
        keygen.push(kt.as_secs_f64());
        if run == 0 {
            // The size of the proving key as the key cache stores it (halo2's raw format).
            let mut n = ByteCounter(0);
            pk.write(&mut n, SerdeFormat::RawBytes)
                .map_err(|e| format!("{tag}: serializing the proving key: {e}"))?;
            pk_bytes = n.0;
        }

        let t = Instant::now();
        let ws = witnesses_from_batch(&batch, Policy::default(), true)
            .map_err(|e| format!("{tag}: witnesses: {e}"))?;
        let circuit = template
            .with_witnesses(ws)
            .map_err(|e| format!("{tag}: witnesses: {e}"))?;
        let _ = circuit.stats(); // the advice values: one layout run, as Prover::prove does
        witness.push(secs(t));

        let t = Instant::now();
        let pf = proof::create_proof(
            &params,
            &pk,
            &circuit,
            TranscriptKind::Blake2b,
            ChaCha20Rng::seed_from_u64(u64::from(run)),
        )
        .map_err(|e| format!("{tag}: proving: {e}"))?;
        prove.push(secs(t));
        proof_bytes = pf.len() as u64;

        // Verification takes milliseconds, so one timing is at the mercy of the scheduler on a
        // shared 2-core machine: verify VERIFY_REPEATS times and keep the median.
        let instance = circuit.instance();
        let mut times = Vec::with_capacity(VERIFY_REPEATS);
        for _ in 0..VERIFY_REPEATS {
            let t = Instant::now();
            let ok = proof::verify_proof(
                &params,
                pk.get_vk(),
                &instance,
                &pf,
                TranscriptKind::Blake2b,
            );
            times.push(secs(t));
            if !ok {
                return Err(format!(
                    "{tag}: the proof of run {} does not verify",
                    run + 1
                ));
            }
        }
        times.sort_by(f64::total_cmp);
        verify.push(times[VERIFY_REPEATS / 2]);
        log(&format!(
            "[{tag}] run {}/{runs}: keygen {:.2} s, witness {:.2} s, prove {:.2} s, verify {:.1} ms, \
             proof {proof_bytes} bytes, pk {pk_bytes} bytes",
            run + 1,
            keygen[keygen.len() - 1],
            witness[witness.len() - 1],
            prove[prove.len() - 1],
            verify[verify.len() - 1] * 1e3
        ));
    }
    let summary = |v: &[f64], what: &str| {
        Summary::of(v).ok_or_else(|| format!("{tag}: no {what} measurement"))
    };
    Ok((
        cells,
        Timings {
            witness_s: summary(&witness, "witness")?,
            keygen_s: summary(&keygen, "keygen")?,
            prove_s: summary(&prove, "proving")?,
            verify_s: summary(&verify, "verification")?,
            pk_bytes,
            proof_bytes,
        },
    ))
}
