//! Deterministic signed demo transactions of every type (`gen-batch --txs`).
//!
//! Transaction i of seed S cycles through the types: 0 legacy with EIP-155, 1 EIP-1559,
//! 2 EIP-4844 (one or two blob hashes, no sidecar), 3 EIP-7702 (one authorization, itself
//! signed), 4 EIP-2930, 5 legacy without EIP-155; so any B ≥ 4 mixes four types and B ≥ 6 has
//! all of them. Keys, nonces, recipients and amounts come from ChaCha20 seeded with S; every
//! other transaction is an ERC-20 `transfer(to, amount)` call (the data a rollup mostly
//! carries), the rest plain transfers. Each is signed by our native [`crate::native::ecdsa::sign`]
//! with s normalised to the low half (EIP-2), so every transaction is valid for
//! [`super::rules::TxPolicy::for_chain`]`(chain_id)`.

use alloy_consensus::{
    SignableTransaction, Signed, TxEip1559, TxEip2930, TxEip4844, TxEip7702, TxLegacy,
};
use alloy_eips::eip2718::Encodable2718;
use alloy_eips::eip2930::{AccessList, AccessListItem};
use alloy_eips::eip7702::{Authorization, SignedAuthorization};
use alloy_primitives::{Address, Bytes, TxKind, B256, U256};
use ff::Field;
use halo2curves::secp256k1::Fq;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;

use crate::native::ecdsa::sign;
use crate::native::encoding::{fq_from_be_bytes_reduced, fq_to_be_bytes};

use super::decode::Envelope;

/// Error of [`demo_txs`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DemoTxError {
    #[error("--count must be at least 1")]
    Empty,
}

fn scalar(rng: &mut ChaCha20Rng) -> Fq {
    loop {
        let x = Fq::random(&mut *rng);
        if !bool::from(x.is_zero()) {
            return x;
        }
    }
}

fn address(rng: &mut ChaCha20Rng) -> Address {
    let mut a = [0u8; 20];
    rng.fill_bytes(&mut a);
    Address::from(a)
}

/// Signs `hash` with `d` natively: (y-parity, r, s), s low (EIP-2), x(R) = r.
fn sign_hash(d: &Fq, hash: &B256, rng: &mut ChaCha20Rng) -> (bool, U256, U256) {
    let h = fq_from_be_bytes_reduced(&hash.0);
    loop {
        let k = scalar(rng);
        let Ok((sig, id, _)) = sign(d, &h, &k) else {
            continue;
        };
        if id.is_x_reduced() {
            continue; // x(R) ≥ n: Ethereum's v cannot say so (probability ~2^-128).
        }
        let (low, negated) = sig.normalize_s();
        let parity = id.is_y_odd() ^ negated;
        return (
            parity,
            U256::from_be_bytes(fq_to_be_bytes(&low.r())),
            U256::from_be_bytes(fq_to_be_bytes(&low.s())),
        );
    }
}

fn signed<T>(d: &Fq, rng: &mut ChaCha20Rng, tx: T) -> Envelope
where
    T: SignableTransaction<alloy_primitives::Signature>,
    Signed<T>: Into<Envelope>,
{
    let (parity, r, s) = sign_hash(d, &tx.signature_hash(), rng);
    tx.into_signed(alloy_primitives::Signature::new(r, s, parity))
        .into()
}

/// ERC-20 `transfer(to, amount)`: selector a9059cbb, then both arguments as 32-byte words.
fn erc20_transfer(to: &Address, amount: u64) -> Bytes {
    let mut d = vec![0xa9, 0x05, 0x9c, 0xbb];
    d.extend_from_slice(&[0u8; 12]);
    d.extend_from_slice(to.as_slice());
    d.extend_from_slice(&[0u8; 24]);
    d.extend_from_slice(&amount.to_be_bytes());
    Bytes::from(d)
}

/// `count` signed transactions for `chain_id` from `seed` (module doc), EIP-2718-encoded.
pub fn demo_txs(count: usize, seed: u64, chain_id: u64) -> Result<Vec<Vec<u8>>, DemoTxError> {
    if count == 0 {
        return Err(DemoTxError::Empty);
    }
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let token = address(&mut rng);
    let mut out = Vec::with_capacity(count);
    for i in 0..count {
        let d = scalar(&mut rng);
        let nonce = rng.next_u64() % 1000;
        let to = address(&mut rng);
        let amount = rng.next_u64() >> 8;
        let erc20 = i % 2 == 1;
        let (kind, value, input) = if erc20 {
            (TxKind::Call(token), U256::ZERO, erc20_transfer(&to, amount))
        } else {
            (TxKind::Call(to), U256::from(amount), Bytes::new())
        };
        let call_to = kind.to().copied().unwrap_or(to);
        let gas_limit = if erc20 { 65_000 } else { 21_000 } + 40_000 * u64::from(i % 6 == 3);
        let tip = 1_000_000_000u128 + u128::from(rng.next_u64() % 1_000_000_000);
        let max_fee = 20_000_000_000u128 + tip;
        let access_list = if erc20 {
            AccessList(vec![AccessListItem {
                address: token,
                storage_keys: vec![B256::from(U256::from(rng.next_u64()))],
            }])
        } else {
            AccessList::default()
        };
        let envelope: Envelope = match i % 6 {
            0 | 5 => signed(
                &d,
                &mut rng,
                TxLegacy {
                    chain_id: (i % 6 == 0).then_some(chain_id),
                    nonce,
                    gas_price: max_fee,
                    gas_limit,
                    to: kind,
                    value,
                    input,
                },
            ),
            1 => signed(
                &d,
                &mut rng,
                TxEip1559 {
                    chain_id,
                    nonce,
                    gas_limit,
                    max_fee_per_gas: max_fee,
                    max_priority_fee_per_gas: tip,
                    to: kind,
                    value,
                    access_list,
                    input,
                },
            ),
            2 => {
                let blobs = 1 + (rng.next_u32() % 2) as usize;
                let hashes = (0..blobs)
                    .map(|_| {
                        let mut h = [0u8; 32];
                        rng.fill_bytes(&mut h);
                        h[0] = 0x01; // EIP-4844's VERSIONED_HASH_VERSION_KZG
                        B256::from(h)
                    })
                    .collect();
                signed(
                    &d,
                    &mut rng,
                    TxEip4844 {
                        chain_id,
                        nonce,
                        gas_limit,
                        max_fee_per_gas: max_fee,
                        max_priority_fee_per_gas: tip,
                        to: call_to,
                        value,
                        access_list,
                        blob_versioned_hashes: hashes,
                        max_fee_per_blob_gas: 1_000_000_000,
                        input,
                    },
                )
            }
            3 => {
                // The authority (another key) delegates its code to `delegate`.
                let authority = scalar(&mut rng);
                let auth = Authorization {
                    chain_id: U256::from(chain_id),
                    address: address(&mut rng),
                    nonce: rng.next_u64() % 1000,
                };
                let (parity, r, s) = sign_hash(&authority, &auth.signature_hash(), &mut rng);
                let signed_auth = SignedAuthorization::new_unchecked(auth, u8::from(parity), r, s);
                signed(
                    &d,
                    &mut rng,
                    TxEip7702 {
                        chain_id,
                        to: call_to,
                        authorization_list: vec![signed_auth],
                        nonce,
                        gas_limit,
                        max_fee_per_gas: max_fee,
                        max_priority_fee_per_gas: tip,
                        value,
                        access_list,
                        input,
                    },
                )
            }
            _ => signed(
                &d,
                &mut rng,
                TxEip2930 {
                    chain_id,
                    nonce,
                    gas_price: max_fee,
                    gas_limit,
                    to: kind,
                    value,
                    access_list,
                    input,
                },
            ),
        };
        out.push(envelope.encoded_2718());
    }
    Ok(out)
}
