//! Signed-transaction vectors: ethereum/tests `TransactionTests` (every valid case gives the
//! expected sender and hash, every invalid case is rejected) and the ethers.js signed
//! transactions (every one decodes to its signing payload, signature and sender). Vectors in
//! `tests/vectors/ethereum/` (licences beside them).

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use alloy_primitives::U256;
use batch_ecdsa::hexfmt::decode_hex;
use batch_ecdsa::native::hash::keccak256;
use batch_ecdsa::native::public_key::PublicKey;
use batch_ecdsa::txs::wide_fee::decode_wide_fee;
use batch_ecdsa::txs::{decode_and_check, decode_signed_tx, TxError, TxPolicy};
use serde_json::Value;

fn vectors() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors/ethereum")
}

/// The forks the files name, latest first: a test's expectation is its latest fork's.
const FORKS: [&str; 4] = ["Cancun", "Shanghai", "Paris", "London"];

struct Case {
    file: String,
    txbytes: String,
    /// `Ok((sender, hash))` or `Err(exception)`.
    expected: Result<(String, String), String>,
}

fn transaction_tests() -> Vec<Case> {
    let mut files = Vec::new();
    for dir in std::fs::read_dir(vectors().join("TransactionTests")).unwrap() {
        for f in std::fs::read_dir(dir.unwrap().path()).unwrap() {
            files.push(f.unwrap().path());
        }
    }
    files.sort();
    let mut cases = Vec::new();
    for path in files {
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        for (_name, t) in v.as_object().unwrap() {
            let result = &t["result"];
            let fork = FORKS
                .iter()
                .find(|f| result.get(**f).is_some())
                .unwrap_or_else(|| panic!("{path:?}: no known fork"));
            let r = &result[*fork];
            let expected = match r.get("exception") {
                Some(e) => Err(e.as_str().unwrap().to_string()),
                None => Ok((
                    r["sender"].as_str().unwrap().to_lowercase(),
                    r["hash"].as_str().unwrap().to_lowercase(),
                )),
            };
            cases.push(Case {
                file: path.strip_prefix(vectors()).unwrap().display().to_string(),
                txbytes: t["txbytes"].as_str().unwrap().to_string(),
                expected,
            });
        }
    }
    cases
}

/// ethereum/tests: 50 valid and 160 invalid under the latest fork, chain id 1. Every valid
/// transaction gives the expected sender and transaction hash; every invalid one is rejected
/// (malformed or invalid), and the split is asserted. `txs::wide_fee` alone, on every case,
/// gives the same transaction or a rejection: as strict as alloy.
#[test]
fn ethereum_transaction_tests() {
    let cases = transaction_tests();
    let policy = TxPolicy::for_chain(1);
    let (mut valid, mut malformed, mut invalid, mut fee_over_u128) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    for c in &cases {
        // A few txbytes are not even hex of whole bytes: malformed input before any RLP.
        let raw = decode_hex(&c.txbytes).expect("every txbytes is hex");
        let got = decode_and_check(&raw, &policy, 0).map(|r| (raw.clone(), r));
        // Our fee ≥ 2^128 decoder, on every case: exactly the decoding's result where it
        // decodes (alloy's, or ours after alloy's overflow), and a rejection wherever it
        // rejects: as strict as alloy.
        let ours = decode_wide_fee(&raw);
        match decode_signed_tx(&raw) {
            Ok(tx) if ours.as_ref() != Ok(&tx) => {
                failures.push(format!("{}: wide_fee differs", c.file))
            }
            Err(e) if ours.is_ok() => failures.push(format!("{}: {e}, wide_fee accepts", c.file)),
            _ => {}
        }
        match (&c.expected, got) {
            (Ok((sender, hash)), Ok((raw, rec))) => {
                let s = format!("0x{}", hex::encode(rec.sender));
                let h = format!("0x{}", hex::encode(keccak256(&raw)));
                if &s != sender || &h != hash || rec.tx.tx_hash != keccak256(&raw) {
                    failures.push(format!(
                        "{}: sender {s} hash {h}, expected {sender} {hash}",
                        c.file
                    ));
                }
                if FEE_OVER_U128.iter().any(|f| c.file.ends_with(f)) {
                    // alloy's fee fields are u128: these go through our own decoder.
                    assert!(
                        rec.tx.facts.max_fee_per_gas >> 128 != U256::ZERO,
                        "{}",
                        c.file
                    );
                    fee_over_u128 += 1;
                }
                valid += 1;
            }
            (Ok(_), Err(e)) => failures.push(format!("{}: valid, rejected: {e}", c.file)),
            (Err(ex), Ok(_)) => failures.push(format!("{}: {ex} accepted", c.file)),
            (Err(ex), Err(e)) => {
                // The fee rules that only 256-bit fees reach: the vectors' own reason.
                for (name, variant) in [
                    ("GASLIMIT_PRICE_PRODUCT_OVERFLOW", "GasPriceProductOverflow"),
                    ("PRIORITY_GREATER_THAN_MAX_FEE", "PriorityAboveMax"),
                ] {
                    if ex.contains(name) && !format!("{e:?}").contains(variant) {
                        failures.push(format!("{}: {ex} rejected as {e}", c.file));
                    }
                }
                // The kind of rejection: the error's variant name.
                let kind = match &e {
                    TxError::Malformed { reason, .. } => {
                        malformed += 1;
                        format!("malformed: {reason:?}")
                    }
                    TxError::Invalid { reason, .. } => {
                        invalid += 1;
                        format!("invalid: {reason:?}")
                    }
                };
                let kind = kind
                    .split(['(', ' ', '{'])
                    .take(2)
                    .collect::<Vec<_>>()
                    .join(" ");
                *reasons.entry(kind).or_default() += 1;
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    println!(
        "TransactionTests: {valid} valid accepted ({fee_over_u128} with a fee ≥ 2^128, by our \
         own decoder); {malformed} malformed + {invalid} invalid rejected"
    );
    for (r, n) in &reasons {
        println!("  {n:3} {r}");
    }
    assert_eq!(cases.len(), 210);
    assert_eq!((valid, fee_over_u128), (50, 3));
    assert_eq!(malformed + invalid, 160);
    assert_eq!(
        (malformed, invalid),
        (EXPECTED_MALFORMED, 160 - EXPECTED_MALFORMED)
    );
}

/// Valid under Ethereum's rules, with a gas price (or max fee) of 2^128 wei or more, which
/// alloy's u128 fee fields cannot hold: alloy reports an RLP overflow and our own decoder
/// (`txs::wide_fee`, 256-bit fees) decodes them.
const FEE_OVER_U128: [&str; 3] = [
    "ttEIP1559/GasLimitPriceProductOverflowtMinusOne.json",
    "ttGasPrice/TransactionWithHighGasPrice.json",
    "ttVValue/V_equals38.json",
];

/// Of the 160 invalid TransactionTests, how many fail to decode (the rest decode and break a
/// rule or their signature).
/// Five of them have a fee of 2^128 wei or more and so decode only through `txs::wide_fee`:
/// they are invalid, not malformed, for the reason the vectors give (four
/// `GASLIMIT_PRICE_PRODUCT_OVERFLOW`, one `PRIORITY_GREATER_THAN_MAX_FEE_PER_GAS`).
const EXPECTED_MALFORMED: usize = 109;

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct EthersTx {
    name: String,
    private_key: String,
    #[serde(flatten)]
    kinds: BTreeMap<String, Value>,
}

/// ethers.js: 12,928 signed transactions (legacy, EIP-155, EIP-2930, EIP-1559, EIP-4844),
/// every one valid: our decoding gives the unsigned transaction ethers signed (so the signing
/// hash is keccak256 of it), its r, s, v, and our recovery gives the address of the private
/// key; `txs::wide_fee` decodes each to the same transaction. One in 64 is also recovered by
/// alloy (k256, tests only) as a cross-check.
#[test]
fn ethers_signed_transactions() {
    let mut gz = Vec::new();
    flate2::read::GzDecoder::new(
        std::fs::File::open(vectors().join("ethers/transactions.json.gz")).unwrap(),
    )
    .read_to_end(&mut gz)
    .unwrap();
    let all: Vec<EthersTx> = serde_json::from_slice(&gz).unwrap();
    assert_eq!(all.len(), 3200);
    // ethers.js' transactions are signed, not executable (random gas limits and fees): only
    // the signature is checked.
    let policy = TxPolicy {
        static_rules: false,
        ..TxPolicy::default()
    };
    let mut count: BTreeMap<&str, usize> = BTreeMap::new();
    let mut cross_checked = 0;
    for (n, t) in all.iter().enumerate() {
        let d = decode_hex(&t.private_key).unwrap();
        let key = PublicKey::from_secret(
            &batch_ecdsa::native::encoding::fq_from_be_bytes(&d.try_into().unwrap()).unwrap(),
        )
        .unwrap();
        for kind in ["Legacy", "Eip155", "Berlin", "London", "Cancun"] {
            let signed = t.kinds[&format!("signed{kind}")].as_str().unwrap();
            if signed.is_empty() {
                continue;
            }
            let raw = decode_hex(signed).unwrap();
            let unsigned =
                decode_hex(t.kinds[&format!("unsigned{kind}")].as_str().unwrap()).unwrap();
            let sig = &t.kinds[&format!("signature{kind}")];
            let rec = decode_and_check(&raw, &policy, n)
                .unwrap_or_else(|e| panic!("{} {kind}: {e}", t.name));
            assert_eq!(rec.tx.signing_payload, unsigned, "{} {kind}", t.name);
            // Our fee ≥ 2^128 decoder reads the same transaction.
            assert_eq!(
                decode_wide_fee(&raw).as_ref(),
                Ok(&rec.tx),
                "{} {kind}",
                t.name
            );
            assert_eq!(rec.tx.signing_hash, keccak256(&unsigned));
            let word = |f: &str| {
                let b = decode_hex(sig[f].as_str().unwrap()).unwrap();
                let mut w = [0u8; 32];
                w[32 - b.len()..].copy_from_slice(&b);
                w
            };
            assert_eq!(
                (rec.tx.r, rec.tx.s),
                (word("r"), word("s")),
                "{} {kind}",
                t.name
            );
            assert_eq!(rec.pubkey, key, "{} {kind}", t.name);
            assert_eq!(rec.sender, key.address());
            if n % 64 == 0 {
                use alloy_consensus::transaction::SignerRecoverable;
                use alloy_eips::eip2718::Decodable2718;
                let env = alloy_consensus::TxEnvelope::decode_2718(&mut raw.as_slice()).unwrap();
                assert_eq!(env.recover_signer().unwrap().0 .0, rec.sender);
                cross_checked += 1;
            }
            *count.entry(kind).or_default() += 1;
        }
    }
    println!("ethers.js: {count:?}, {cross_checked} cross-checked with alloy's k256 recovery");
    assert_eq!(count.values().sum::<usize>(), 12_928);
    assert_eq!(count["Eip155"], 1664);
    assert_eq!(count["Cancun"], 1664);
    assert_eq!(cross_checked, 178);
}

/// Every rejection names its transaction; malformed is exit code 2, invalid 1.
#[test]
fn errors_name_the_transaction() {
    let e = decode_and_check(&[0x05, 0xc0], &TxPolicy::default(), 7).unwrap_err();
    assert!(matches!(e, TxError::Malformed { index: 7, .. }));
    assert_eq!(e.exit_code(), 2);
    assert_eq!(e.to_string(), "transaction 7: unknown transaction type 0x05 (known: legacy, 0x01 EIP-2930, 0x02 EIP-1559, 0x03 EIP-4844, 0x04 EIP-7702)");
}
