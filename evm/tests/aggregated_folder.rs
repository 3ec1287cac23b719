//! The aggregated proof folder (`batch_ecdsa_evm::aggregated_folder`) and `verify-aggregated`, on the
//! committed B = 32 aggregation of the digest statement (`evm/tests/fixtures/aggregate-digest-b32`: the
//! real outer verifier, 20,764 bytes, and its honest calldata for the demo batch of 32
//! signatures). Making a new aggregation takes 20 minutes and 17 GiB (feature `aggregate`,
//! `prove-aggregated`); checking one is what a chain does, and what runs here: the verifier
//! compiled with solc-js, deployed in revm with EIP-170 enforced, called directly and through
//! the digest wrapper. A changed pair, swapped pairs, a changed accumulator word, a changed
//! proof byte and another batch are each rejected.
//!
//! Both committed folders were proven under the fixed-seed development setup (INSECURE:
//! anyone can forge proofs under it): `verify-aggregated` checks them only with
//! `--insecure-dev-setup` and a pinned verifier, and refuses them otherwise
//! ([`trust_comes_from_the_user_not_the_folder`]).
//!
//! Needs solc-js (`npm ci --prefix evm/solc`; `.ci/run` installs it).

mod committed;
use committed::{b32_dir as committed_dir, compiled, verifier_sol};

use std::path::{Path, PathBuf};
use std::process::Command;

use batch_ecdsa::demo::demo_batch;
use batch_ecdsa::hexfmt::encode_hex;
use batch_ecdsa::native::digest::{batch_digest, digest_words};
use batch_ecdsa_circuits::ecdsa::Statement;
use batch_ecdsa_evm::aggregated_folder::{
    verify_compiled, write_folder, AggregatedError, AggregatedProofFile, Decoded, PROOF_FILE,
    VERIFIER_CALLDATA_FILE, WRAPPER_CALLDATA_FILE,
};
use batch_ecdsa_evm::solc::Solc;
use batch_ecdsa_evm::wrapper::{demo_file_pairs, split_verifier_calldata, AGGREGATED_PREFIX_WORDS};

const B: usize = 32;

/// The committed aggregation as an aggregated proof file: the calldata split into the
/// accumulator, D's words and the outer proof; the demo batch's pairs.
fn committed_file() -> AggregatedProofFile {
    let text = std::fs::read_to_string(committed_dir().join("calldata.hex")).expect("committed");
    let calldata = hex::decode(text.trim()).expect("hex");
    let split = split_verifier_calldata(&calldata, AGGREGATED_PREFIX_WORDS).expect("long enough");
    let pairs = demo_file_pairs(B).expect("demo batch");
    AggregatedProofFile::new(
        Statement::Digest,
        B,
        17,
        22,
        &dev_setup_identity(),
        &pairs,
        &split.digest_words,
        &split.prefix,
        &split.proof,
    )
}

/// The fixed-seed development setup at the outer k = 22, as the committed transactions folder
/// records it (both committed aggregations were proven under it).
fn dev_setup_identity() -> batch_ecdsa::prover::srs::SetupIdentity {
    let setup = AggregatedProofFile::load(&txs_dir())
        .expect("committed")
        .setup;
    assert!(setup.kind.is_insecure() && setup.k == 22);
    setup
}

/// The code hash of the committed B = 32 verifier, as `cast codehash` would print it for it
/// deployed.
fn committed_code_hash() -> String {
    encode_hex(&batch_ecdsa_evm::pinning::code_hash(&compiled().0.runtime))
}

fn check(
    decoded: &Decoded,
) -> Result<batch_ecdsa_evm::aggregated_folder::OnChain, AggregatedError> {
    let (verifier, code) = compiled();
    verify_compiled(
        decoded,
        verifier,
        batch_ecdsa_evm::wrapper::AGGREGATED_PROOF_LAYOUT,
        &code.wrapper,
        None,
    )
}

fn assert_invalid(decoded: &Decoded, what: &str) {
    match check(decoded) {
        Err(AggregatedError::Invalid(reason)) => {
            assert!(reason.contains("rejects"), "{what}: {reason}")
        }
        other => panic!("{what}: expected a rejection, got {other:?}"),
    }
}

/// `decoded` stating `pairs` instead (D and its words recomputed, the proof unchanged).
fn stating(decoded: &Decoded, pairs: Vec<([u8; 32], [u8; 20])>) -> Decoded {
    let d = batch_digest(&pairs);
    Decoded {
        pairs,
        digest: Some(d),
        inner_public_inputs: digest_words(&d).to_vec(),
        ..decoded.clone()
    }
}

#[test]
fn committed_aggregation_verifies_on_chain_and_through_the_wrapper() {
    let decoded = committed_file().decode().expect("a consistent file");
    let on_chain = check(&decoded).expect("accepted");
    println!("{on_chain:?}");
    assert!(on_chain.verifier_runtime_code_bytes <= 24_576);
    assert_eq!(on_chain.wrapper_call.as_deref(), Some("verifyHashes"));
    assert!(on_chain.wrapper_total_gas.unwrap() > on_chain.verifier_total_gas);
}

#[test]
fn a_changed_statement_or_proof_is_rejected_on_chain() {
    let decoded = committed_file().decode().expect("a consistent file");
    let mut pairs = decoded.pairs.clone();
    pairs[5].0[31] ^= 1;
    assert_invalid(&stating(&decoded, pairs), "a changed signing hash");
    let mut pairs = decoded.pairs.clone();
    pairs[B - 1].1[0] ^= 0x80;
    assert_invalid(&stating(&decoded, pairs), "a changed address");
    let mut pairs = decoded.pairs.clone();
    pairs.swap(0, 1);
    assert_invalid(&stating(&decoded, pairs), "two swapped pairs");
    assert_invalid(
        &stating(&decoded, decoded.pairs[..B - 1].to_vec()),
        "a prefix",
    );
    let mut d = decoded.clone();
    d.accumulator[3][31] ^= 1;
    assert_invalid(&d, "a changed accumulator word");
    let mut d = decoded.clone();
    let mid = d.proof.len() / 2;
    d.proof[mid] ^= 1;
    assert_invalid(&d, "a changed proof byte");
}

fn verify_cli(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_verify-aggregated"))
        .args(args)
        .output()
        .expect("runs");
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("panicked"),
        "{out:?}"
    );
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn write_batch(dir: &Path, name: &str, seed: u64) -> PathBuf {
    let path = dir.join(name);
    let records = demo_batch(B, seed, &[]).expect("demo batch");
    std::fs::write(&path, serde_json::to_string(&records).unwrap()).unwrap();
    path
}

/// The folder as `prove-aggregated` writes it, checked by the command: alone, against the
/// proven batch (exit 0), against another batch (exit 1, each signature named), with a file
/// whose digest was changed (exit 1), and a folder that is not there (exit 2).
#[test]
fn verify_aggregated_command() {
    let base = std::env::temp_dir().join(format!("verify-aggregated-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    std::fs::create_dir_all(&base).unwrap();
    let dir = base.join("proof");
    let file = committed_file();
    write_folder(&dir, &file, &verifier_sol(), None).expect("written");
    for f in [PROOF_FILE, VERIFIER_CALLDATA_FILE] {
        assert!(dir.join(f).exists(), "{f}");
    }
    assert!(!dir.join(WRAPPER_CALLDATA_FILE).exists());
    let d = dir.to_str().unwrap();
    let hash = committed_code_hash();
    let trust = [
        "--insecure-dev-setup",
        "--verifier-code-hash",
        hash.as_str(),
    ];
    let verify_cli = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend(trust);
        verify_cli(&all)
    };

    let (code, out, err) = verify_cli(&["--dir", d, "--json"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("wrapper: verifyHashes accepted"), "{out}");
    for line in out.lines() {
        assert!(
            line.contains("INSECURE") || line.starts_with('{'),
            "{line:?}"
        );
    }
    let last: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(last["valid"], true);

    let proven = write_batch(&base, "proven.json", 1);
    let (code, out, err) = verify_cli(&["--dir", d, "--batch", proven.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");

    let other = write_batch(&base, "other.json", 2);
    let (code, _, err) = verify_cli(&["--dir", d, "--batch", other.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("signature 0 differs from the proof: signing hash 0x")
            && err.contains("; address 0x"),
        "{err}"
    );

    let mut bad = file.clone();
    bad.digest = Some(encode_hex(&[0x11; 32]));
    let bad_dir = base.join("bad");
    std::fs::create_dir_all(&bad_dir).unwrap();
    std::fs::write(
        bad_dir.join(PROOF_FILE),
        serde_json::to_string(&bad).unwrap(),
    )
    .unwrap();
    let (code, _, err) = verify_cli(&["--dir", bad_dir.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("is not its pairs' D"), "{err}");

    let (code, _, err) = verify_cli(&["--dir", base.join("missing").to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("cannot read"), "{err}");
    std::fs::remove_dir_all(&base).unwrap();
}

/// The folder `prove-aggregated --txs t8.txt --chain-id 1 --strip-out s8.json` wrote for 8
/// demo transactions of every type (`evm/tests/fixtures/aggregated-txs-b8`, with its inputs).
fn txs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/aggregated-txs-b8")
}

/// What a rollup posts (the stripped transactions) and the signed transactions both verify
/// through `verifyTransactions`; the committed wrapper and verifier calldata are accepted as
/// they are; a stripped file with one payload byte or one sender changed is refused, naming
/// the transaction; and the chain itself rejects a changed payload (the wrapper called
/// without the command's own comparison).
#[test]
fn committed_transactions_proof_verifies_with_what_a_rollup_posts() {
    use batch_ecdsa::txs::strip::StrippedFile;
    use batch_ecdsa_evm::wrapper::{verify_transactions_calldata, WrapperChain, WrapperRevert};
    let dir = txs_dir();
    let d = dir.to_str().unwrap();
    let stripped_path = dir.join("s8.json");
    let s8 = stripped_path.to_str().unwrap();
    let t8 = dir.join("t8.txt");
    let sol_path = dir.join("AggregationVerifier.sol");
    let trust = [
        "--insecure-dev-setup",
        "--verifier",
        sol_path.to_str().unwrap(),
    ];
    let verify_cli = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend(trust);
        verify_cli(&all)
    };
    let (code, out, err) = verify_cli(&["--dir", d, "--stripped", s8]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("wrapper: verifyTransactions accepted"),
        "{out}"
    );
    let (code, out, err) =
        verify_cli(&["--dir", d, "--txs", t8.to_str().unwrap(), "--chain-id", "1"]);
    assert_eq!(code, 0, "{out}{err}");

    let stripped = StrippedFile::parse(&std::fs::read_to_string(&stripped_path).unwrap()).unwrap();
    let base = std::env::temp_dir().join(format!("verify-aggregated-txs-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    std::fs::create_dir_all(&base).unwrap();
    let mut changed_payload = stripped.clone();
    let u = &mut changed_payload.transactions[3].unsigned;
    let last = u.pop().unwrap();
    u.push(if last == '0' { '1' } else { '0' });
    let mut changed_sender = stripped.clone();
    changed_sender.transactions[6].sender = format!("0x{}", "ab".repeat(20));
    for (name, f, expected) in [
        (
            "payload.json",
            &changed_payload,
            "transaction 3 differs from the proof: signing hash 0x",
        ),
        (
            "sender.json",
            &changed_sender,
            "transaction 6 differs from the proof: address 0xabab",
        ),
    ] {
        let path = base.join(name);
        f.save(&path).unwrap();
        let (code, _, err) = verify_cli(&["--dir", d, "--stripped", path.to_str().unwrap()]);
        assert_eq!(code, 1, "{name}: {err}");
        assert!(err.contains(expected), "{name}: {err}");
    }

    // The committed calldata, as a rollup would send it.
    let file = AggregatedProofFile::load(&dir).unwrap();
    let decoded = file.decode().unwrap();
    let solc = Solc::locate_or_install().expect("solc-js");
    let sol = std::fs::read_to_string(dir.join("AggregationVerifier.sol")).unwrap();
    let verifier = solc.compile(&sol).expect("compiles");
    assert!(verifier.runtime.len() <= 24_576);
    let (_, code) = compiled();
    let mut chain = WrapperChain::deploy(
        &code.wrapper,
        &verifier.creation,
        false,
        &batch_ecdsa_evm::wrapper::aggregated_wrapper_config(
            decoded.batch_size,
            batch_ecdsa_evm::wrapper::AGGREGATED_PROOF_LAYOUT,
        ),
    )
    .unwrap();
    let read_hex = |f: &str| hex::decode(std::fs::read_to_string(dir.join(f)).unwrap().trim());
    let direct = chain
        .call_verifier(&read_hex(VERIFIER_CALLDATA_FILE).unwrap())
        .unwrap();
    assert!(
        matches!(
            direct.outcome,
            batch_ecdsa_evm::chain::CallOutcome::Accepted(_)
        ),
        "{direct:?}"
    );
    let (returned, _) = chain
        .verify(&read_hex(WRAPPER_CALLDATA_FILE).unwrap())
        .expect("the committed wrapper call is accepted");
    assert_eq!(Some(returned), decoded.digest);

    // The chain alone: a changed payload byte gives another D, which the proof does not prove.
    let mut payloads: Vec<Vec<u8>> = stripped
        .transactions
        .iter()
        .map(|t| hex::decode(t.unsigned.trim_start_matches("0x")).unwrap())
        .collect();
    let senders: Vec<[u8; 20]> = decoded.pairs.iter().map(|p| p.1).collect();
    let honest =
        verify_transactions_calldata(&payloads, &senders, &decoded.wrapper_proof()).unwrap();
    assert!(chain.verify(&honest).is_ok());
    payloads[5][1] ^= 1;
    let tampered =
        verify_transactions_calldata(&payloads, &senders, &decoded.wrapper_proof()).unwrap();
    assert!(matches!(
        chain.verify(&tampered),
        Err(WrapperRevert::ProofRejected)
    ));
    std::fs::remove_dir_all(&base).unwrap();
}

/// `verify-aggregated` trusts what the user gives, never the folder: a verifier pinned by
/// code hash or source, the setup chosen by flags. Each way around it is refused: no pin, the
/// fixed-seed setup without the flag, another contract's code hash, a contract that accepts
/// anything, a verifier for another setup's τ, a verifier whose header states another B; a
/// verifier with the right header is accepted.
#[test]
fn trust_comes_from_the_user_not_the_folder() {
    let base = std::env::temp_dir().join(format!("verify-aggregated-trust-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    std::fs::create_dir_all(&base).unwrap();
    let dir = base.join("proof");
    write_folder(&dir, &committed_file(), &verifier_sol(), None).expect("written");
    let d = dir.to_str().unwrap();
    let hash = committed_code_hash();

    // No pin: refused before anything is compiled.
    let (code, _, err) = verify_cli(&["--dir", d, "--insecure-dev-setup"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("refusing to trust the folder's own verifier"),
        "{err}"
    );
    // The fixed-seed setup without the flag.
    let (code, _, err) = verify_cli(&["--dir", d, "--verifier-code-hash", &hash]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("INSECURE fixed-seed development setup"),
        "{err}"
    );
    // Another contract's code hash.
    let other = encode_hex(&[0xab; 32]);
    let (code, _, err) = verify_cli(&[
        "--dir",
        d,
        "--verifier-code-hash",
        &other,
        "--insecure-dev-setup",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("is not the deployed contract"), "{err}");
    // A contract that accepts anything, given as the trusted source.
    let yes = base.join("Yes.sol");
    std::fs::write(
        &yes,
        "// SPDX-License-Identifier: MIT\npragma solidity 0.8.19;\ncontract Yes { fallback() external {} }\n",
    )
    .unwrap();
    let (code, _, err) = verify_cli(&[
        "--dir",
        d,
        "--verifier",
        yes.to_str().unwrap(),
        "--insecure-dev-setup",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("does not use the [τ]₂ of the setup you trust"),
        "{err}"
    );
    // The folder relabelled as another setup (a ceremony): its τ is not the one the user
    // trusts (here a ceremony file of another τ), whatever the folder says.
    let ceremony = base.join("other.ptau");
    let local = batch_ecdsa::prover::params::local_setup(&[3])
        .unwrap()
        .remove(0);
    use halo2_proofs::poly::commitment::ParamsProver;
    let g: Vec<_> = local.get_g()[..3].to_vec();
    batch_ecdsa::prover::srs::file::write_ptau(&ceremony, 1, &g, &[local.g2(), local.s_g2()])
        .unwrap();
    let mut relabelled = committed_file();
    relabelled.setup.kind = batch_ecdsa::prover::srs::SetupKind::Ceremony;
    let rdir = base.join("relabelled");
    write_folder(&rdir, &relabelled, &verifier_sol(), None).unwrap();
    let (code, _, err) = verify_cli(&[
        "--dir",
        rdir.to_str().unwrap(),
        "--verifier-code-hash",
        &hash,
        "--params",
        ceremony.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("the setup you trust has keccak256([τ]₂)"),
        "{err}"
    );
    // The fixed-seed params themselves given as the trusted "ceremony" file, with the folder
    // and a verifier header relabelled "ceremony": recognised by τ and refused.
    let dev_ptau = base.join("dev.ptau");
    let dev = batch_ecdsa::prover::params::dev_setup(2).unwrap();
    batch_ecdsa::prover::srs::file::write_ptau(
        &dev_ptau,
        1,
        &dev.get_g()[..3],
        &[dev.g2(), dev.s_g2()],
    )
    .unwrap();
    let mut as_ceremony = committed_file();
    as_ceremony.setup.kind = batch_ecdsa::prover::srs::SetupKind::Ceremony;
    let cdir = base.join("as-ceremony");
    let relabelled_sol =
        batch_ecdsa_evm::pinning::Header::new("digest", B, 17, 22, &as_ceremony.setup, None)
            .insert_into(&verifier_sol());
    write_folder(&cdir, &as_ceremony, &relabelled_sol, None).unwrap();
    let (code, _, err) = verify_cli(&[
        "--dir",
        cdir.to_str().unwrap(),
        "--verifier",
        cdir.join("AggregationVerifier.sol").to_str().unwrap(),
        "--params",
        dev_ptau.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("the parameters you trust are the INSECURE fixed-seed"),
        "{err}"
    );
    // A verifier whose header says another B (the right τ, the user's own source).
    let file = committed_file();
    let header = |b: usize| {
        batch_ecdsa_evm::pinning::Header::new("digest", b, 17, 22, &file.setup, None)
            .insert_into(&verifier_sol())
    };
    let wrong = base.join("WrongB.sol");
    std::fs::write(&wrong, header(16)).unwrap();
    let (code, _, err) = verify_cli(&[
        "--dir",
        d,
        "--verifier",
        wrong.to_str().unwrap(),
        "--insecure-dev-setup",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("B: the folder says 32, the verifier 16"),
        "{err}"
    );
    // The same with the right header: accepted.
    let right = base.join("Right.sol");
    std::fs::write(&right, header(B)).unwrap();
    let (code, out, err) = verify_cli(&[
        "--dir",
        d,
        "--verifier",
        right.to_str().unwrap(),
        "--insecure-dev-setup",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    std::fs::remove_dir_all(&base).unwrap();
}

/// The bad-input suite's share for `aggregated.json`: every field of the committed file removed
/// and replaced by hostile values, and the text truncated: each is refused on reading or
/// decoding, with a short message (values clipped), never a panic.
#[test]
fn aggregated_file_mutants_are_refused_with_short_messages() {
    let text = std::fs::read_to_string(txs_dir().join("aggregated.json")).unwrap();
    let root: serde_json::Value = serde_json::from_str(&text).unwrap();
    let serde_json::Value::Object(fields) = &root else {
        panic!("an object")
    };
    let hostile = [
        serde_json::Value::Null,
        serde_json::json!(-1),
        serde_json::json!(u64::MAX),
        serde_json::json!("z".repeat(100_000)),
        serde_json::json!("0x".to_string() + &"ff".repeat(50_000)),
        serde_json::json!([]),
        serde_json::json!({}),
    ];
    let mut mutants = Vec::new();
    for key in fields.keys() {
        let mut removed = root.clone();
        removed.as_object_mut().unwrap().remove(key);
        mutants.push(removed.to_string());
        for v in &hostile {
            let mut replaced = root.clone();
            replaced[key.as_str()] = v.clone();
            mutants.push(replaced.to_string());
        }
    }
    for i in 1..20 {
        mutants.push(text[..text.len() * i / 20].to_string());
    }
    let dir = std::env::temp_dir().join(format!("batch-ecdsa-agg-mutants-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for m in &mutants {
        std::fs::write(dir.join("aggregated.json"), m).unwrap();
        let err = match AggregatedProofFile::load(&dir) {
            Err(e) => e.to_string(),
            Ok(f) => match f.decode() {
                Err(e) => e.to_string(),
                // A value equal to the original's is no mutant of interest.
                Ok(_) => continue,
            },
        };
        assert!(err.len() <= 600, "{} bytes: {}", err.len(), &err[..300]);
    }
    // A proof far longer than an aggregation proof: refused before any EVM call.
    let mut long = root.clone();
    long["proof"] = serde_json::json!("0x".to_string() + &"01".repeat(100_000));
    std::fs::write(dir.join("aggregated.json"), long.to_string()).unwrap();
    let err = AggregatedProofFile::load(&dir)
        .unwrap()
        .decode()
        .expect_err("refused")
        .to_string();
    assert!(err.contains("proof too long: 100000 bytes"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
    // An empty verifier source: our refusal, not the compiler script's.
    let err = Solc::locate_or_install()
        .unwrap()
        .compile(" \n")
        .expect_err("refused")
        .to_string();
    assert!(err.contains("the Solidity source is empty"), "{err}");
}

/// The folder `prove-aggregated --txs t3.txt --chain-id 1 --strip-out s3.json --pad-to 4`
/// wrote (`evm/tests/fixtures/aggregated-txs-n3-b4`): 3 transactions proven on the key for
/// B = 4, the fourth slot the canonical filler. `verify-aggregated` accepts it with what a
/// rollup posts (the 3 stripped transactions, through `verifyTransactions`, the wrapper
/// appending the filler) and with the signed transactions; 2 of the 3 are refused; the
/// committed wrapper call posts 3 senders and returns D; a folder that claims B = 3 (D of the
/// records unpadded) is refused, naming the digest.
#[test]
fn three_transactions_on_a_key_for_four_verify_with_what_a_rollup_posts() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/aggregated-txs-n3-b4");
    let d = dir.to_str().unwrap();
    let s3 = dir.join("s3.json");
    let t3 = dir.join("t3.txt");
    let sol_path = dir.join("AggregationVerifier.sol");
    let trust = [
        "--insecure-dev-setup",
        "--verifier",
        sol_path.to_str().unwrap(),
    ];
    let verify_cli = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend(trust);
        verify_cli(&all)
    };
    let (code, out, err) = verify_cli(&["--dir", d, "--stripped", s3.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("valid: 3 signatures (digest), on a key for B = 4"),
        "{out}"
    );
    assert!(
        out.contains("wrapper: verifyTransactions accepted"),
        "{out}"
    );
    let (code, out, err) = verify_cli(&[
        "--dir",
        d,
        "--txs",
        t3.to_str().unwrap(),
        "--chain-id",
        "1",
        "--json",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let last: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(
        (last["signatures"].as_u64(), last["batch_size"].as_u64()),
        (Some(3), Some(4))
    );
    assert!(!err.contains("filler's address"), "{err}");

    let base = std::env::temp_dir().join(format!("verify-aggregated-n3-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    std::fs::create_dir_all(&base).unwrap();
    let two = base.join("t2.txt");
    let text = std::fs::read_to_string(&t3).unwrap();
    std::fs::write(&two, text.lines().take(2).collect::<Vec<_>>().join("\n")).unwrap();
    let (code, _, err) = verify_cli(&[
        "--dir",
        d,
        "--txs",
        two.to_str().unwrap(),
        "--chain-id",
        "1",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("the proof is of 3 signatures, the batch has 2"),
        "{err}"
    );

    // The committed calldata: the wrapper call posts the 3 senders and returns D.
    let file = AggregatedProofFile::load(&dir).unwrap();
    let decoded = file.decode().unwrap();
    assert_eq!((decoded.pairs.len(), decoded.batch_size), (3, 4));
    let solc = Solc::locate_or_install().expect("solc-js");
    let verifier = solc
        .compile(&std::fs::read_to_string(&sol_path).unwrap())
        .expect("compiles");
    let (_, code) = compiled();
    let mut chain = batch_ecdsa_evm::wrapper::WrapperChain::deploy(
        &code.wrapper,
        &verifier.creation,
        false,
        &batch_ecdsa_evm::wrapper::aggregated_wrapper_config(
            decoded.batch_size,
            batch_ecdsa_evm::wrapper::AGGREGATED_PROOF_LAYOUT,
        ),
    )
    .unwrap();
    let read_hex = |f: &str| hex::decode(std::fs::read_to_string(dir.join(f)).unwrap().trim());
    let (returned, _) = chain
        .verify(&read_hex(WRAPPER_CALLDATA_FILE).unwrap())
        .expect("the committed wrapper call is accepted");
    assert_eq!(Some(returned), decoded.digest);

    // The filler pair written out as a fourth record: the same D (a true statement, the
    // filler's key is public), accepted on its own with a warning naming it, refused against
    // the 3 transactions held.
    let f = batch_ecdsa::native::filler::filler();
    let mut explicit = file.clone();
    explicit
        .records
        .push(batch_ecdsa_evm::aggregated_folder::PairRecord {
            msg_hash: encode_hex(&f.hash),
            address: encode_hex(&f.address),
        });
    let explicit_dir = base.join("explicit");
    std::fs::create_dir_all(&explicit_dir).unwrap();
    std::fs::write(
        explicit_dir.join(PROOF_FILE),
        serde_json::to_string(&explicit).unwrap(),
    )
    .unwrap();
    let e = explicit_dir.to_str().unwrap();
    let (code, out, err) = verify_cli(&["--dir", e]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        err.contains("warning: signature 3 is from the canonical filler's address"),
        "{err}"
    );
    let (code, _, err) = verify_cli(&["--dir", e, "--stripped", s3.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("the proof is of 4 signatures, the batch has 3"),
        "{err}"
    );

    // The same folder claiming B = 3: D of the three records unpadded is not the proof's.
    let mut three = file.clone();
    three.batch_size = 3;
    let bad_dir = base.join("b3");
    std::fs::create_dir_all(&bad_dir).unwrap();
    std::fs::write(
        bad_dir.join(PROOF_FILE),
        serde_json::to_string(&three).unwrap(),
    )
    .unwrap();
    let (code, _, err) = verify_cli(&["--dir", bad_dir.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("is not its pairs' D"), "{err}");
    std::fs::remove_dir_all(&base).unwrap();
}

/// The folders of the measured runs at the sizes that pay (`results/aggregated/b64`, `b128`,
/// `b256`: `prove-aggregated --txs` on 64, 128 and 256 signed transactions,
/// `results/prove-aggregated-b*.json`) verify as a chain would, with what a rollup posts (the
/// stripped transactions, through `verifyTransactions`), at the gas their runs recorded; the
/// B = 128 folder checked with the B = 256 folder's stripped transactions is refused.
#[test]
fn the_measured_folders_at_the_sizes_that_pay_verify() {
    let results = Path::new(env!("CARGO_MANIFEST_DIR")).join("../results");
    for b in [64usize, 128, 256] {
        let dir = results.join(format!("aggregated/b{b}"));
        let sol = dir.join("AggregationVerifier.sol");
        let stripped = dir.join("stripped.json");
        let (code, out, err) = verify_cli(&[
            "--dir",
            dir.to_str().unwrap(),
            "--stripped",
            stripped.to_str().unwrap(),
            "--insecure-dev-setup",
            "--verifier",
            sol.to_str().unwrap(),
            "--json",
        ]);
        assert_eq!(code, 0, "B = {b}: {out}{err}");
        let row: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
        assert_eq!(row["batch_size"], b, "{row}");
        assert_eq!(row["signatures"], b, "{row}");
        let measured: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(results.join(format!("prove-aggregated-b{b}.json"))).unwrap(),
        )
        .unwrap();
        for gas in ["verifier_execution_gas", "wrapper_execution_gas"] {
            assert_eq!(
                row["on_chain"][gas], measured["on_chain"][gas],
                "B = {b}: {gas}"
            );
        }
    }
    let (code, out, err) = verify_cli(&[
        "--dir",
        results.join("aggregated/b128").to_str().unwrap(),
        "--stripped",
        results
            .join("aggregated/b256/stripped.json")
            .to_str()
            .unwrap(),
        "--insecure-dev-setup",
        "--verifier",
        results
            .join("aggregated/b128/AggregationVerifier.sol")
            .to_str()
            .unwrap(),
    ]);
    assert_eq!(code, 1, "{out}{err}");
}
