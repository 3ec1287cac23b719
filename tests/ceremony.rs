//! Ceremony parameters end to end (issue 24): snarkjs `.ptau` files made here by snarkjs 0.7.6
//! (pinned in `tools/snarkjs/`), halo2 raw params written from them, the three kinds of setup
//! never confused, and every bad file a named error.
//!
//! The ceremonies are small (power 14: B = 1 proves at k = 14) and made once per target
//! folder (`powersoftau new` plus one contribution, about 15 s each). Proofs are slow, so the
//! proving tests run one at a time.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Mutex, MutexGuard};

use batch_ecdsa::prover::params::{dev_setup, write_params};
use batch_ecdsa::prover::srs::{self, file, SetupKind, SetupSource};
use group::Curve;
use halo2_proofs::halo2curves::bn256::{Fr, G1Affine, G2Affine};
use halo2_proofs::poly::commitment::{Params, ParamsProver};
use halo2_proofs::SerdeFormat;

mod cli_support;
use cli_support::{assert_exit, run, text};

/// The power of the test ceremonies: B = 1 proves at k = 14.
const POWER: u32 = 14;

static LOCK: Mutex<()> = Mutex::new(());

fn lock() -> MutexGuard<'static, ()> {
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

fn fixtures() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("ceremony");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// snarkjs 0.7.6, installed from `tools/snarkjs/package-lock.json` when missing.
fn snarkjs() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/snarkjs");
    let bin = root.join("node_modules/snarkjs/build/cli.cjs");
    if !bin.exists() {
        let out = Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund", "--prefix"])
            .arg(&root)
            .output()
            .expect("npm (Node.js) is needed to install snarkjs");
        assert!(
            out.status.success(),
            "npm ci: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    bin
}

fn node(args: &[&str]) {
    let out = Command::new("node")
        .arg(snarkjs())
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "snarkjs {args:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A `.ptau` of power [`POWER`] before any contribution (τ = 1).
fn fresh_ptau() -> PathBuf {
    let path = fixtures().join(format!("pot{POWER}_0000.ptau"));
    if !path.exists() {
        let tmp = path.with_extension("tmp");
        node(&[
            "powersoftau",
            "new",
            "bn128",
            &POWER.to_string(),
            tmp.to_str().unwrap(),
        ]);
        std::fs::rename(&tmp, &path).unwrap();
    }
    path
}

/// A `.ptau` of power [`POWER`] with one contribution made from `entropy`: ceremony "a" or "b"
/// (two different τ).
fn ceremony(name: &str) -> PathBuf {
    let path = fixtures().join(format!("pot{POWER}_{name}.ptau"));
    if !path.exists() {
        let tmp = path.with_extension("tmp");
        node(&[
            "powersoftau",
            "contribute",
            fresh_ptau().to_str().unwrap(),
            tmp.to_str().unwrap(),
            &format!("--name=test ceremony {name}"),
            &format!("-e=batch-ecdsa test entropy {name}"),
        ]);
        std::fs::rename(&tmp, &path).unwrap();
    }
    path
}

fn raw(params: &impl Params<'static, G1Affine>) -> Vec<u8> {
    let mut v = Vec::new();
    params.write(&mut v).unwrap();
    v
}

fn raw_kzg(
    p: &halo2_proofs::poly::kzg::commitment::ParamsKZG<halo2_proofs::halo2curves::bn256::Bn256>,
) -> Vec<u8> {
    let mut v = Vec::new();
    p.write_custom(&mut v, SerdeFormat::RawBytes).unwrap();
    v
}

fn scratch(name: &str) -> PathBuf {
    cli_support::tmp_dir("ceremony", name)
}

/// The reader's error text for `path` at `k`.
fn read_err(path: &Path, k: u32) -> String {
    match srs::read_ceremony(path, k) {
        Ok(_) => panic!("{} read at k = {k} was accepted", path.display()),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_snarkjs_ceremony_is_read_checked_and_cut_down() {
    let _g = lock();
    let a = ceremony("a");
    let (form, power) = file::probe(&a).unwrap();
    assert_eq!((form, power), (file::FileForm::Ptau, POWER));
    let full = srs::read_ceremony(&a, POWER).unwrap();
    assert_eq!(full.k(), POWER);
    // Not τ = 1, and another contribution gives another τ.
    assert_ne!(full.s_g2(), G2Affine::generator());
    let b = srs::read_ceremony(&ceremony("b"), POWER).unwrap();
    assert_ne!(full.s_g2(), b.s_g2());
    // One file serves every smaller k: the first 2^k powers, the same τ.
    let small = srs::read_ceremony(&a, 10).unwrap();
    assert_eq!(small.k(), 10);
    assert_eq!(small.get_g()[..], full.get_g()[..1 << 10]);
    assert_eq!(small.s_g2(), full.s_g2());
    // The Lagrange basis computed is halo2's: committing to a column's values equals
    // committing to its coefficients.
    let domain = halo2_proofs::poly::EvaluationDomain::<Fr>::new(1, 10);
    let mut values = domain.empty_lagrange();
    for (i, v) in values.iter_mut().enumerate() {
        *v = Fr::from(i as u64 * 7 + 3);
    }
    let coeffs = domain.lagrange_to_coeff(values.clone());
    let blind = halo2_proofs::poly::commitment::Blind::default();
    assert_eq!(
        small.commit_lagrange(&values, blind).to_affine(),
        small.commit(&coeffs, blind).to_affine()
    );
    let _ = raw(&small);
}

/// The power of the prepared test ceremony (`prepare phase2` costs 4.5 minutes at power 14 on
/// two cores, 15 s at 10; the reading it tests does not depend on the size).
const PREPARED_POWER: u32 = 10;

/// A ceremony of power [`PREPARED_POWER`] with one contribution, before and after
/// `snarkjs powersoftau prepare phase2` (which adds the Lagrange bases, section 12).
fn prepared_ceremony() -> (PathBuf, PathBuf) {
    let p = PREPARED_POWER.to_string();
    let zero = fixtures().join(format!("pot{p}_0000.ptau"));
    let one = fixtures().join(format!("pot{p}_c.ptau"));
    let prepared = fixtures().join(format!("pot{p}_c_final.ptau"));
    for (path, args) in [
        (&zero, vec!["powersoftau", "new", "bn128", &p]),
        (
            &one,
            vec![
                "powersoftau",
                "contribute",
                zero.to_str().unwrap(),
                "--name=test ceremony c",
                "-e=batch-ecdsa test entropy c",
            ],
        ),
        (
            &prepared,
            vec!["powersoftau", "prepare", "phase2", one.to_str().unwrap()],
        ),
    ] {
        if !path.exists() {
            let tmp = path.with_extension("tmp");
            let mut args = args.clone();
            // The output file follows the input (after "new bn128 p" and "contribute IN").
            let at = if args[1] == "contribute" {
                3
            } else {
                args.len()
            };
            args.insert(at, tmp.to_str().unwrap());
            node(&args);
            std::fs::rename(&tmp, path).unwrap();
        }
    }
    (one, prepared)
}

#[test]
fn a_prepared_ptau_gives_its_lagrange_basis_in_halo2_order() {
    let _g = lock();
    let (plain, prepared) = prepared_ceremony();
    // At the file's own power (where snarkjs's and halo2's domains are ordered differently:
    // j mod 2^k ≠ 1) and below: the basis read from section 12 is the one halo2 computes from
    // the powers, so the parameters are byte for byte the same.
    for k in [PREPARED_POWER, 7, 3] {
        assert_eq!(
            file::read_powers(&prepared, k)
                .unwrap()
                .g_lagrange
                .map(|l| l.len()),
            Some(1 << k),
            "k = {k}: the basis is read, not computed"
        );
        assert_eq!(
            raw_kzg(&srs::read_ceremony(&prepared, k).unwrap()),
            raw_kzg(&srs::read_ceremony(&plain, k).unwrap()),
            "k = {k}"
        );
    }
    // Two points of the basis for 2^POWER rows swapped (each still on the curve): refused.
    let bytes = std::fs::read(&prepared).unwrap();
    let section = section_body(&bytes, 12);
    let at = section + ((1usize << PREPARED_POWER) - 1) * 64;
    let mut bad = bytes.clone();
    let (a, b) = (at + 5 * 64, at + 9 * 64);
    let (pa, pb) = (bytes[a..a + 64].to_vec(), bytes[b..b + 64].to_vec());
    bad[a..a + 64].copy_from_slice(&pb);
    bad[b..b + 64].copy_from_slice(&pa);
    let dir = scratch("prepared");
    let path = dir.join("swapped.ptau");
    std::fs::write(&path, &bad).unwrap();
    let e = read_err(&path, PREPARED_POWER);
    assert!(
        e.contains("Lagrange basis is not that of the G1 powers"),
        "{e}"
    );
    // The basis for a smaller k is elsewhere in the section: untouched, still read.
    srs::read_ceremony(&path, 8).unwrap();
    // A section 12 one point short (its length and body both cut): named.
    let len_at = section - 8;
    let len = u64::from_le_bytes(bytes[len_at..section].try_into().unwrap());
    let mut short = bytes[..section + len as usize - 64].to_vec();
    short[len_at..section].copy_from_slice(&(len - 64).to_le_bytes());
    short.extend_from_slice(&bytes[section + len as usize..]);
    let path = dir.join("short-section.ptau");
    std::fs::write(&path, &short).unwrap();
    let e = read_err(&path, 3);
    assert!(e.contains("lagrangeG1 section (12)"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Where the body of section `kind` of a `.ptau` file starts.
fn section_body(bytes: &[u8], kind: u32) -> usize {
    let count = u32::from_le_bytes(bytes[8..12].try_into().unwrap());
    let mut pos = 12;
    for _ in 0..count {
        let k = u32::from_le_bytes(bytes[pos..pos + 4].try_into().unwrap());
        let size = u64::from_le_bytes(bytes[pos + 4..pos + 12].try_into().unwrap()) as usize;
        if k == kind {
            return pos + 12;
        }
        pos += 12 + size;
    }
    panic!("no section {kind}")
}

#[test]
fn halo2_raw_params_written_from_the_ceremony_read_back_identical() {
    let _g = lock();
    let dir = scratch("raw");
    let a = srs::read_ceremony(&ceremony("a"), POWER).unwrap();
    let path = dir.join(format!("kzg_bn254_{POWER}.srs"));
    write_params(&path, &a).unwrap();
    assert_eq!(
        file::probe(&path).unwrap(),
        (file::FileForm::Halo2Raw, POWER)
    );
    // Read at its own k: its Lagrange basis read and checked, not recomputed.
    assert_eq!(
        raw_kzg(&srs::read_ceremony(&path, POWER).unwrap()),
        raw_kzg(&a)
    );
    // Cut down: the same as the .ptau cut down.
    assert_eq!(
        raw_kzg(&srs::read_ceremony(&path, 9).unwrap()),
        raw_kzg(&srs::read_ceremony(&ceremony("a"), 9).unwrap())
    );
    // One Lagrange point changed (still on the curve): refused.
    let mut bytes = std::fs::read(&path).unwrap();
    let lagrange = 4 + (64usize << POWER);
    let (p3, p4) = (lagrange + 3 * 64, lagrange + 4 * 64);
    let fourth = bytes[p4..p4 + 64].to_vec();
    bytes[p3..p3 + 64].copy_from_slice(&fourth);
    let bad = dir.join("bad-lagrange.srs");
    std::fs::write(&bad, &bytes).unwrap();
    assert!(read_err(&bad, POWER).contains("Lagrange basis is not that of the G1 powers"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn params_written_as_ptau_by_the_helper_read_back_identical() {
    // The 2^22 outer circuit's path cannot be run with a ceremony made in CI: the same reader
    // is checked on a file written in the .ptau layout from known powers.
    let dir = scratch("helper");
    let k = 8;
    let dev = dev_setup(k + 1).unwrap();
    let g: Vec<G1Affine> = dev.get_g()[..(1 << (k + 1)) - 1].to_vec();
    let mut g2s = vec![dev.g2(), dev.s_g2()];
    // τ^i·G2 for i ≥ 2 are not read; the section must still have 2^k points.
    g2s.resize(1 << k, dev.g2());
    let path = dir.join("helper.ptau");
    file::write_ptau(&path, k, &g, &g2s).unwrap();
    let read = srs::read_ceremony(&path, k).unwrap();
    assert_eq!(raw_kzg(&read), raw_kzg(&dev_setup(k).unwrap()));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_ceremony_files_are_named_errors() {
    let _g = lock();
    let dir = scratch("bad");
    let good = std::fs::read(ceremony("a")).unwrap();
    let write = |name: &str, bytes: &[u8]| {
        let p = dir.join(name);
        std::fs::write(&p, bytes).unwrap();
        p
    };
    // Where tauG1 begins: the header section (12 + 12 + 44 bytes) then section 2's head.
    let tau_g1 = 12 + 12 + 44 + 12;
    assert_eq!(&good[tau_g1 - 12..tau_g1 - 8], &2u32.to_le_bytes());

    // A corrupted point: one byte of tauG1[5].
    let mut b = good.clone();
    b[tau_g1 + 5 * 64 + 7] ^= 0x10;
    let e = read_err(&write("flip.ptau", &b), POWER);
    assert!(e.contains("tauG1[5] is not a point of G1"), "{e}");
    // A point replaced by another point of the curve: caught by the pairing check.
    let mut b = good.clone();
    b.copy_within(tau_g1 + 6 * 64..tau_g1 + 7 * 64, tau_g1 + 5 * 64);
    let e = read_err(&write("swap.ptau", &b), POWER);
    assert!(e.contains("not the powers of the τ"), "{e}");
    // Truncated.
    let e = read_err(&write("cut.ptau", &good[..good.len() / 3]), POWER);
    assert!(e.contains("truncated"), "{e}");
    // Too small a power for k.
    let e = read_err(&ceremony("a"), POWER + 1);
    assert!(
        e.contains("power 14 holds too few powers of τ for k = 15"),
        "{e}"
    );
    // Before any contribution: τ = 1.
    let e = read_err(&fresh_ptau(), POWER);
    assert!(e.contains("τ is 0 or 1"), "{e}");
    // Foreign files.
    let e = read_err(&write("junk.bin", &[0x42; 1000]), 4);
    assert!(e.contains("neither a snarkjs .ptau file"), "{e}");
    let e = read_err(&write("empty.ptau", b""), 4);
    assert!(e.contains("too short"), "{e}");
    let mut b = good.clone();
    b[12 + 12 + 4] ^= 1; // the prime q
    let e = read_err(&write("q.ptau", &b), POWER);
    assert!(e.contains("not BN254's base field"), "{e}");
    let e = read_err(&dir, 4);
    assert!(e.contains("not a regular file"), "{e}");
    // Every message names the file.
    assert!(read_err(&write("named.ptau", b"ptau"), 4).contains("named.ptau"));
    std::fs::remove_dir_all(&dir).ok();
}

fn prove(args: &[&str]) -> Output {
    run(env!("CARGO_BIN_EXE_prove"), args)
}

fn verify(args: &[&str]) -> Output {
    run(env!("CARGO_BIN_EXE_verify"), args)
}

/// `verify --proof PROOF --params PARAMS --params-dir DIR`.
fn verify_under(proof: &Path, params: &Path, dir: &Path) -> Output {
    verify(&[
        "--proof",
        s(proof),
        "--params",
        s(params),
        "--params-dir",
        s(dir),
    ])
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn a_proof_under_a_ceremony_verifies_with_it_and_fails_with_another() {
    let _g = lock();
    let dir = scratch("prove");
    let params_dir = dir.join("params");
    let proof = dir.join("proof.json");
    let (a, b) = (ceremony("a"), ceremony("b"));
    let out = prove(&[
        "--count",
        "1",
        "--params",
        s(&a),
        "--params-dir",
        s(&params_dir),
        "--out",
        s(&proof),
    ]);
    assert_exit(&out, 0, "prove --params a.ptau");
    assert!(
        text(&out).contains("setup: ceremony setup pot14_a.ptau"),
        "{}",
        text(&out)
    );
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&proof).unwrap()).unwrap();
    assert_eq!(file["setup"]["kind"], "ceremony");
    assert_eq!(file["setup"]["file"], "pot14_a.ptau");

    let ok = verify_under(&proof, &a, &params_dir);
    assert_exit(&ok, 0, "verify with the same ceremony");
    assert!(text(&ok).contains("setup: ceremony setup"), "{}", text(&ok));
    assert!(!text(&ok).contains("INSECURE"), "{}", text(&ok));

    // A verifier elsewhere (an empty params folder): verifies, and writes nothing there.
    let elsewhere = dir.join("elsewhere");
    let ok = verify_under(&proof, &a, &elsewhere);
    assert_exit(
        &ok,
        0,
        "verify with the ceremony from an empty params folder",
    );
    assert!(
        !elsewhere.exists(),
        "verify wrote into {}",
        elsewhere.display()
    );
    // The window the file names is checked, not ignored: against the circuit's, when the file
    // is read (a malformed claim, exit 2, before any layout).
    let mut other_window = file.clone();
    other_window["window"] = 1.into();
    let ow = dir.join("window.json");
    std::fs::write(&ow, other_window.to_string()).unwrap();
    let out = verify_under(&ow, &a, &params_dir);
    assert_exit(&out, 2, "a proof file naming another window");
    assert!(
        text(&out).contains("window = 1 but the batch circuit is laid out with window 5"),
        "{}",
        text(&out)
    );

    // The same ceremony as halo2 raw params: the same setup.
    let raw_path = dir.join("kzg_bn254_14.srs");
    write_params(&raw_path, &srs::read_ceremony(&a, POWER).unwrap()).unwrap();
    let ok = verify_under(&proof, &raw_path, &params_dir);
    assert_exit(&ok, 0, "verify with the raw form of the same ceremony");

    // Another ceremony: refused, naming both setups.
    let other = verify_under(&proof, &b, &params_dir);
    assert_exit(&other, 1, "verify with another ceremony");
    assert!(
        text(&other).contains("the proof names the ceremony setup"),
        "{}",
        text(&other)
    );
    // The file rewritten to name ceremony b: the label gains nothing, the proof fails under b.
    let b_id = srs::load(
        &SetupSource::Ceremony(b.clone()),
        &params_dir,
        POWER,
        None,
        false,
    )
    .unwrap()
    .identity;
    let mut relabelled = file.clone();
    relabelled["setup"] = serde_json::to_value(&b_id).unwrap();
    // ... with the verifying-key hash of the circuit under b, so that only the proof decides.
    let parsed = batch_ecdsa::prover::proof::ProofFile::parse(&relabelled.to_string()).unwrap();
    let under_b = batch_ecdsa::prover::api::Verifier::for_proof_file_with(
        &parsed,
        &params_dir,
        &SetupSource::Ceremony(b.clone()),
        &batch_ecdsa::prover::api::Silent,
    )
    .unwrap();
    relabelled["vk_hash"] = batch_ecdsa::hexfmt::encode_hex(&under_b.vk_hash()).into();
    let lie = dir.join("relabelled.json");
    std::fs::write(&lie, relabelled.to_string()).unwrap();
    let out = verify_under(&lie, &b, &params_dir);
    assert_exit(&out, 1, "a proof relabelled as ceremony b, checked under b");
    assert!(text(&out).contains("does not verify"), "{}", text(&out));
    // Without --params: the local setup is not this ceremony.
    let out = verify(&["--proof", s(&proof), "--params-dir", s(&params_dir)]);
    assert!(!out.status.success(), "{}", text(&out));

    // A bad params file: exit 2 naming it, no proof written.
    let junk = dir.join("junk.ptau");
    std::fs::write(&junk, b"ptau\x01\x00\x00\x00").unwrap();
    let none = dir.join("none.json");
    let out = prove(&[
        "--count",
        "1",
        "--params",
        s(&junk),
        "--params-dir",
        s(&params_dir),
        "--out",
        s(&none),
    ]);
    assert_exit(&out, 2, "prove with a bad params file");
    assert!(text(&out).contains("junk.ptau"), "{}", text(&out));
    assert!(!none.exists());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_three_setup_kinds_are_never_confused() {
    let _g = lock();
    let dir = scratch("kinds");
    let params_dir = dir.join("params");
    // The fixed-seed setup: proved only with the flag, refused by verify without it.
    let dev = dir.join("dev.json");
    let out = prove(&[
        "--count",
        "1",
        "--insecure-dev-setup",
        "--params-dir",
        s(&params_dir),
        "--out",
        s(&dev),
    ]);
    assert_exit(&out, 0, "prove --insecure-dev-setup");
    assert!(text(&out).contains("INSECURE"));
    let out = verify(&["--proof", s(&dev), "--params-dir", s(&params_dir)]);
    assert_exit(&out, 1, "verify of a fixed-seed proof without the flag");
    assert!(
        text(&out).contains("INSECURE fixed-seed development setup"),
        "{}",
        text(&out)
    );
    let out = verify(&[
        "--proof",
        s(&dev),
        "--params-dir",
        s(&params_dir),
        "--insecure-dev-setup",
    ]);
    assert_exit(&out, 0, "verify --insecure-dev-setup");
    let stdout = String::from_utf8_lossy(&out.stdout);
    for line in stdout.lines() {
        assert!(
            line.contains("INSECURE"),
            "every line about it says INSECURE: {line:?}"
        );
    }
    // The fixed-seed params given as if they were a ceremony file: recognised by their τ.
    let dev_file = params_dir.join(format!("kzg-bn254-dev-INSECURE-k{POWER}.params"));
    let out = verify_under(&dev, &dev_file, &params_dir);
    assert_exit(&out, 1, "the fixed-seed params passed as --params");
    assert!(
        text(&out).contains("INSECURE fixed-seed development setup"),
        "{}",
        text(&out)
    );
    let out = prove(&[
        "--count",
        "1",
        "--params",
        s(&dev_file),
        "--params-dir",
        s(&params_dir),
        "--out",
        s(&dir.join("x.json")),
    ]);
    assert_exit(
        &out,
        2,
        "prove with the fixed-seed params passed as --params",
    );
    assert!(
        text(&out).contains("--insecure-dev-setup"),
        "{}",
        text(&out)
    );
    // The file claiming a local setup instead: the label changes nothing (the local setup
    // here has another τ), and it is not reported as local.
    let mut lie: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&dev).unwrap()).unwrap();
    lie["setup"]["kind"] = "local".into();
    let lie_path = dir.join("lie.json");
    std::fs::write(&lie_path, lie.to_string()).unwrap();
    let out = verify(&["--proof", s(&lie_path), "--params-dir", s(&params_dir)]);
    assert!(!out.status.success(), "{}", text(&out));
    assert!(
        !String::from_utf8_lossy(&out.stdout).contains("ok:"),
        "{}",
        text(&out)
    );

    // The local setup (the default): verifies where it was made, not elsewhere, and is
    // not the fixed-seed one.
    let local = dir.join("local.json");
    let out = prove(&[
        "--count",
        "1",
        "--params-dir",
        s(&params_dir),
        "--out",
        s(&local),
    ]);
    assert_exit(&out, 0, "prove (local setup)");
    let f: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&local).unwrap()).unwrap();
    let d: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&dev).unwrap()).unwrap();
    assert_eq!(f["setup"]["kind"], "local");
    assert_ne!(f["setup"]["tau_g2"], d["setup"]["tau_g2"]);
    let out = verify(&["--proof", s(&local), "--params-dir", s(&params_dir)]);
    assert_exit(&out, 0, "verify (local setup, same machine)");
    assert!(!text(&out).contains("INSECURE"), "{}", text(&out));
    let elsewhere = dir.join("elsewhere");
    let out = verify(&["--proof", s(&local), "--params-dir", s(&elsewhere)]);
    assert_exit(&out, 2, "verify of a local proof without its setup");
    assert!(text(&out).contains("no local setup"), "{}", text(&out));
    // The local proof checked under the fixed-seed setup: refused.
    let out = verify(&[
        "--proof",
        s(&local),
        "--params-dir",
        s(&params_dir),
        "--insecure-dev-setup",
    ]);
    assert_exit(&out, 1, "a local proof under --insecure-dev-setup");
    assert_eq!(
        SetupSource::from_flags(None, false).kind(),
        SetupKind::Local
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// The Lagrange basis a `.ptau` lacks is computed once and cached by the hash of the powers:
/// a valid cache is used (not rewritten), a corrupted one is caught by the RLC check,
/// recomputed and (when writing is allowed) replaced; a verifier writes nothing.
#[test]
fn the_lagrange_basis_is_cached_and_checked() {
    let _g = lock();
    let dir = scratch("lagrange-cache");
    let a = ceremony("a");
    let k = 12;
    let fresh = srs::read_ceremony(&a, k).unwrap();
    // A verifier (no writing): nothing cached.
    let read_only = srs::read_ceremony_cached(&a, k, Some((&dir, false))).unwrap();
    assert_eq!(raw_kzg(&read_only), raw_kzg(&fresh));
    assert!(
        std::fs::read_dir(&dir).unwrap().next().is_none(),
        "a verifier wrote a cache"
    );
    // A prover: computed and cached.
    let first = srs::read_ceremony_cached(&a, k, Some((&dir, true))).unwrap();
    assert_eq!(raw_kzg(&first), raw_kzg(&fresh));
    let g1 = srs::g1_powers_hash(fresh.get_g());
    let cache = srs::lagrange_cache_path(&dir, &g1, k);
    let cached = std::fs::read(&cache).expect("the basis is cached");
    assert_eq!(cached.len(), 64 << k);
    // Used as it is: a valid cache is not rewritten.
    let before = std::fs::metadata(&cache).unwrap().modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    let again = srs::read_ceremony_cached(&a, k, Some((&dir, true))).unwrap();
    assert_eq!(raw_kzg(&again), raw_kzg(&fresh));
    assert_eq!(
        std::fs::metadata(&cache).unwrap().modified().unwrap(),
        before
    );
    // Two points swapped in the cache: caught, recomputed, and replaced by the right basis.
    let mut bad = cached.clone();
    let (p, q) = (bad[64..128].to_vec(), bad[128..192].to_vec());
    bad[64..128].copy_from_slice(&q);
    bad[128..192].copy_from_slice(&p);
    std::fs::write(&cache, &bad).unwrap();
    let recovered = srs::read_ceremony_cached(&a, k, Some((&dir, true))).unwrap();
    assert_eq!(raw_kzg(&recovered), raw_kzg(&fresh));
    assert_eq!(std::fs::read(&cache).unwrap(), cached);
    // A cache entry that is not a regular file of the basis' length (here a folder, and a
    // file one byte too long) is passed over without being read, and replaced.
    for junk in ["folder", "long"] {
        std::fs::remove_file(&cache).ok();
        if junk == "folder" {
            std::fs::create_dir_all(&cache).unwrap();
        } else {
            let mut long = cached.clone();
            long.push(0);
            std::fs::write(&cache, &long).unwrap();
        }
        let read = srs::read_ceremony_cached(&a, k, Some((&dir, junk == "long"))).unwrap();
        assert_eq!(raw_kzg(&read), raw_kzg(&fresh), "{junk}");
        if junk == "folder" {
            std::fs::remove_dir_all(&cache).unwrap();
        } else {
            assert_eq!(std::fs::read(&cache).unwrap(), cached, "{junk}: replaced");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}
