//! Ethereum recovery vectors, read from the repository copies under tests/vectors/:
//! - ethers.js `transactions.json.gz`: every signed transaction (Legacy, EIP-155, Berlin,
//!   London, Cancun) recovers, via ecrecover(keccak256(unsigned payload), r, s, v), the
//!   address of its `privateKey`; `accounts.json.gz`: key → address.
//! - nimbus-eth1 `ecrecover.json`: the EVM ecrecover precompile (v exactly 27 or 28 in a
//!   32-byte word; failure returns no address).
//! - ethereum/tests `keyaddrtest.json`: key → address (see the test for why its
//!   signatures are not used).

use std::collections::HashMap;
use std::io::Read;

use batch_ecdsa::native::ecdsa::verify;
use batch_ecdsa::native::encoding::{fq_from_be_bytes, fq_from_be_bytes_reduced};
use batch_ecdsa::native::hash::keccak256;
use batch_ecdsa::native::public_key::PublicKey;
use batch_ecdsa::native::recover::ecrecover;
use batch_ecdsa::native::signature::{RecoveryId, Signature};
use serde_json::Value;

fn vector_path(rel: &str) -> String {
    format!("{}/tests/vectors/{rel}", env!("CARGO_MANIFEST_DIR"))
}

fn read_gz_json(rel: &str) -> Value {
    let path = vector_path(rel);
    let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut text = String::new();
    flate2::read::GzDecoder::new(file)
        .read_to_string(&mut text)
        .unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn read_json(rel: &str) -> Value {
    let path = vector_path(rel);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn unhex(s: &str) -> Vec<u8> {
    let s = s.strip_prefix("0x").unwrap_or(s);
    let s = if s.len() % 2 == 1 {
        format!("0{s}")
    } else {
        s.to_string()
    };
    hex::decode(&s).unwrap_or_else(|e| panic!("bad hex {s:?}: {e}"))
}

/// Left-pads a big-endian quantity of at most 32 bytes.
fn be32(bytes: &[u8]) -> [u8; 32] {
    assert!(bytes.len() <= 32, "quantity longer than 32 bytes");
    let mut out = [0u8; 32];
    out[32 - bytes.len()..].copy_from_slice(bytes);
    out
}

fn hex_u64(s: &str) -> u64 {
    u64::from_str_radix(s.strip_prefix("0x").unwrap_or(s), 16).expect("u64 hex")
}

fn address_of_secret(hex_key: &str) -> [u8; 20] {
    let d = fq_from_be_bytes(&be32(&unhex(hex_key))).expect("private key < n");
    PublicKey::from_secret(&d)
        .expect("private key != 0")
        .address()
}

#[test]
fn ethers_transactions_recover_sender() {
    let doc = read_gz_json("ethereum/ethers/transactions.json.gz");
    let entries = doc.as_array().expect("array");
    assert_eq!(entries.len(), 3200);
    let mut addresses: HashMap<String, [u8; 20]> = HashMap::new();
    let mut per_kind: HashMap<&str, usize> = HashMap::new();
    let mut chain_ids_checked = 0;
    for e in entries {
        let name = e["name"].as_str().expect("name");
        let key = e["privateKey"].as_str().expect("privateKey");
        let expected = *addresses
            .entry(key.to_string())
            .or_insert_with(|| address_of_secret(key));
        for kind in ["Legacy", "Eip155", "Berlin", "London", "Cancun"] {
            let unsigned = e[format!("unsigned{kind}")].as_str().unwrap_or("");
            let sig = &e[format!("signature{kind}")];
            if unsigned.is_empty() {
                assert_eq!(sig["r"], "", "{name} {kind}: signature without payload");
                continue;
            }
            let h = fq_from_be_bytes_reduced(&keccak256(&unhex(unsigned)));
            let r = be32(&unhex(sig["r"].as_str().expect("r")));
            let s = be32(&unhex(sig["s"].as_str().expect("s")));
            let v = hex_u64(sig["v"].as_str().expect("v"));
            let signature = Signature::from_be_bytes(&r, &s)
                .unwrap_or_else(|err| panic!("{name} {kind}: {err}"));
            let (id, chain) =
                RecoveryId::from_v(v).unwrap_or_else(|err| panic!("{name} {kind}: {err}"));
            match kind {
                "Legacy" => assert!(v == 27 || v == 28, "{name}: legacy v = {v}"),
                "Eip155" => {
                    let want = hex_u64(e["transaction"]["chainId"].as_str().expect("chainId"));
                    assert_eq!(chain, Some(want), "{name}: EIP-155 chain id");
                    chain_ids_checked += 1;
                }
                _ => assert!(v <= 1, "{name} {kind}: typed v = {v}"),
            }
            // ethers.js signs canonically (EIP-2).
            assert!(signature.is_low_s(), "{name} {kind}: high s");
            let q =
                ecrecover(&h, &signature, id).unwrap_or_else(|err| panic!("{name} {kind}: {err}"));
            assert_eq!(q.address(), expected, "{name} {kind}: recovered address");
            assert_eq!(verify(&q, &h, &signature), Ok(()), "{name} {kind}: verify");
            *per_kind.entry(kind).or_default() += 1;
        }
    }
    assert_eq!(addresses.len(), 129, "distinct private keys");
    assert_eq!(per_kind["Legacy"], 3200);
    assert_eq!(per_kind["Berlin"], 3200);
    assert_eq!(per_kind["London"], 3200);
    assert_eq!(per_kind["Eip155"], 1664);
    assert_eq!(per_kind["Cancun"], 1664);
    assert_eq!(per_kind.values().sum::<usize>(), 12_928);
    assert_eq!(chain_ids_checked, 1664);
}

#[test]
fn ethers_accounts_key_to_address() {
    let doc = read_gz_json("ethereum/ethers/accounts.json.gz");
    let entries = doc.as_array().expect("array");
    assert_eq!(entries.len(), 259);
    for e in entries {
        let got = address_of_secret(e["privateKey"].as_str().expect("privateKey"));
        let want = e["address"].as_str().expect("address").to_lowercase();
        assert_eq!(format!("0x{}", hex::encode(got)), want, "{}", e["name"]);
    }
}

/// The ecrecover precompile (address 0x01): input hash ‖ v ‖ r ‖ s, 32-byte words,
/// right-padded with zeros to 128 bytes (extra bytes ignored); v must be exactly 27 or 28;
/// r, s in [1, n). Output: 12 zero bytes ‖ address, or nothing on failure.
fn ecrecover_precompile(input: &[u8]) -> Vec<u8> {
    let mut words = [0u8; 128];
    let len = input.len().min(128);
    words[..len].copy_from_slice(&input[..len]);
    let word = |i: usize| -> [u8; 32] {
        let mut w = [0u8; 32];
        w.copy_from_slice(&words[32 * i..32 * (i + 1)]);
        w
    };
    let (hash, v, r, s) = (word(0), word(1), word(2), word(3));
    if v[..31].iter().any(|&b| b != 0) || !(v[31] == 27 || v[31] == 28) {
        return Vec::new();
    }
    let Ok(sig) = Signature::from_be_bytes(&r, &s) else {
        return Vec::new();
    };
    let Ok((id, _)) = RecoveryId::from_v(u64::from(v[31])) else {
        return Vec::new();
    };
    match ecrecover(&fq_from_be_bytes_reduced(&hash), &sig, id) {
        Ok(q) => {
            let mut out = vec![0u8; 12];
            out.extend_from_slice(&q.address());
            out
        }
        Err(_) => Vec::new(),
    }
}

#[test]
fn nimbus_ecrecover_precompile() {
    let doc = read_json("recovery/nimbus-eth1/ecrecover.json");
    assert_eq!(doc["func"], "ecrecover");
    let (mut ok, mut fail) = (0, 0);
    for case in doc["data"].as_array().expect("data") {
        let name = &case["Name"];
        let input = unhex(case["Input"].as_str().expect("Input"));
        let expected = unhex(case["Expected"].as_str().expect("Expected"));
        assert_eq!(ecrecover_precompile(&input), expected, "{name}");
        if expected.is_empty() {
            fail += 1;
        } else {
            ok += 1;
        }
    }
    assert_eq!((ok, fail), (3, 4));
}

/// Only key → address is tested. The file's `sig_of_emptystring` does not say which hash
/// was signed, and no recovery id recovers the listed address for keccak256(""),
/// sha256(""), SHA3-256(""), the zero hash, the EIP-191 hash of the empty message or
/// keccak256(keccak256("")), so that signature cannot be used as a recovery vector.
#[test]
fn keyaddrtest_key_to_address() {
    let doc = read_json("recovery/ethereum-tests/keyaddrtest.json");
    let cases = doc.as_array().expect("array");
    assert_eq!(cases.len(), 2);
    for case in cases {
        let want = unhex(case["addr"].as_str().expect("addr"));
        let addr = address_of_secret(case["key"].as_str().expect("key"));
        assert_eq!(addr.to_vec(), want, "{}: key → address", case["seed"]);
    }
}
