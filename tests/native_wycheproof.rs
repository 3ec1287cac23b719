//! Wycheproof secp256k1 ECDSA verification vectors (C2SP/wycheproof, Apache-2.0), read from
//! the repository copies under tests/vectors/wycheproof/. Every case must give its expected
//! result, and the number of valid / invalid cases seen is asserted so that the test cannot
//! pass vacuously (counts from tests/vectors/README.md).

use batch_ecdsa::native::ecdsa::verify;
use batch_ecdsa::native::encoding::fq_from_be_bytes_reduced;
use batch_ecdsa::native::public_key::PublicKey;
use batch_ecdsa::native::signature::Signature;
use serde_json::Value;
use sha2::Sha256;
use sha3::{Digest, Sha3_256};

#[derive(Clone, Copy, Debug, PartialEq)]
enum Encoding {
    /// ASN.1 DER SEQUENCE of two INTEGERs.
    Der,
    /// IEEE P1363: r ‖ s, exactly 64 bytes.
    P1363,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum HashFn {
    Sha256,
    Sha3_256,
}

struct FileSpec {
    name: &'static str,
    encoding: Encoding,
    hash: HashFn,
    low_s_required: bool,
    tests: usize,
    valid: usize,
    invalid: usize,
}

fn read_json(rel: &str) -> Value {
    let path = format!(
        "{}/tests/vectors/wycheproof/{rel}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn digest(hash: HashFn, msg: &[u8]) -> [u8; 32] {
    match hash {
        HashFn::Sha256 => Sha256::digest(msg).into(),
        HashFn::Sha3_256 => Sha3_256::digest(msg).into(),
    }
}

/// Our verdict on one case, with the reason for a rejection.
fn check_case(
    spec: &FileSpec,
    key: &Result<PublicKey, String>,
    msg: &[u8],
    sig: &[u8],
) -> Result<(), String> {
    let key = key.as_ref().map_err(|e| e.clone())?;
    let sig = match spec.encoding {
        Encoding::Der => Signature::from_der_strict(sig).map_err(|e| e.to_string())?,
        Encoding::P1363 => {
            if sig.len() != 64 {
                return Err(format!(
                    "P1363 signature must be 64 bytes, got {}",
                    sig.len()
                ));
            }
            Signature::from_compact(sig).map_err(|e| e.to_string())?.0
        }
    };
    if spec.low_s_required && !sig.is_low_s() {
        return Err("high s".into());
    }
    let h = fq_from_be_bytes_reduced(&digest(spec.hash, msg));
    verify(key, &h, &sig).map_err(|e| e.to_string())
}

fn run_file(spec: &FileSpec) {
    let doc = read_json(spec.name);
    let expected_sha = match spec.hash {
        HashFn::Sha256 => "SHA-256",
        HashFn::Sha3_256 => "SHA3-256",
    };
    let (mut valid, mut invalid, mut total) = (0, 0, 0);
    let mut failures = Vec::new();
    for group in doc["testGroups"].as_array().expect("testGroups") {
        assert_eq!(group["sha"], expected_sha, "{}", spec.name);
        assert_eq!(group["publicKey"]["curve"], "secp256k1");
        let key_hex = group["publicKey"]["uncompressed"]
            .as_str()
            .expect("uncompressed");
        let key = hex::decode(key_hex)
            .map_err(|e| e.to_string())
            .and_then(|b| PublicKey::from_sec1(&b).map_err(|e| e.to_string()));
        for case in group["tests"].as_array().expect("tests") {
            total += 1;
            let tc_id = &case["tcId"];
            let msg = hex::decode(case["msg"].as_str().expect("msg")).expect("msg hex");
            let sig = hex::decode(case["sig"].as_str().expect("sig")).expect("sig hex");
            let expected_valid = match case["result"].as_str() {
                Some("valid") => {
                    valid += 1;
                    true
                }
                Some("invalid") => {
                    invalid += 1;
                    false
                }
                other => panic!("tcId {tc_id}: unexpected result {other:?}"),
            };
            let got = check_case(spec, &key, &msg, &sig);
            if got.is_ok() != expected_valid {
                failures.push(format!(
                    "tcId {tc_id} ({}): expected {}, got {:?}",
                    case["comment"], case["result"], got
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{}: {} failures:\n{}",
        spec.name,
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(
        (total, valid, invalid),
        (spec.tests, spec.valid, spec.invalid),
        "{}",
        spec.name
    );
}

#[test]
fn wycheproof_secp256k1_sha256_der() {
    run_file(&FileSpec {
        name: "ecdsa_secp256k1_sha256_test.json",
        encoding: Encoding::Der,
        hash: HashFn::Sha256,
        low_s_required: false,
        tests: 476,
        valid: 168,
        invalid: 308,
    });
}

#[test]
fn wycheproof_secp256k1_sha256_p1363() {
    run_file(&FileSpec {
        name: "ecdsa_secp256k1_sha256_p1363_test.json",
        encoding: Encoding::P1363,
        hash: HashFn::Sha256,
        low_s_required: false,
        tests: 252,
        valid: 167,
        invalid: 85,
    });
}

#[test]
fn wycheproof_secp256k1_sha256_bitcoin_low_s() {
    run_file(&FileSpec {
        name: "ecdsa_secp256k1_sha256_bitcoin_test.json",
        encoding: Encoding::Der,
        hash: HashFn::Sha256,
        low_s_required: true,
        tests: 463,
        valid: 162,
        invalid: 301,
    });
}

#[test]
fn wycheproof_secp256k1_sha3_256_der() {
    run_file(&FileSpec {
        name: "ecdsa_secp256k1_sha3_256_test.json",
        encoding: Encoding::Der,
        hash: HashFn::Sha3_256,
        low_s_required: false,
        tests: 474,
        valid: 172,
        invalid: 302,
    });
}
