//! What a user checks an aggregated proof against: **the verifier they trust** (pinned by the
//! code hash of the deployed contract, or by its source) and **the setup they trust** (its
//! `[τ]₂`). Never the folder's own claims: a folder that carries its own verifier could carry
//! a contract that accepts anything, and one under the fixed-seed setup can be forged by
//! anyone.
//!
//! - [`code_hash`]: `keccak256` of a contract's runtime code, what `cast codehash ADDRESS`
//!   prints for a deployed contract. solc appends the hash of the contract's metadata (which
//!   holds the source's hash) to the code, so the code hash pins the source, comments included.
//! - [`Header`]: the lines `// batch-ecdsa <key>: <value>` that `prove-aggregated` writes at
//!   the top of every verifier it generates: the statement, B, both k and the setup. Pinned with
//!   the source, they say what the deployed contract verifies; the folder must say the same.
//! - [`code_embeds_tau`]: the verifier's final pairing check uses `−[τ]₂` as a constant (EIP-197
//!   word order: x.c1, x.c0, y.c1, y.c0, right after the generator G₂), eight PUSH32 constants
//!   of its compiled code. The setup the user trusts must be the one in the code: a check of the
//!   code itself, independent of any comment ([`embeds_tau`] is the same on source text).

use batch_ecdsa::native::hash::keccak256;
use batch_ecdsa::prover::srs::SetupIdentity;
use ff::PrimeField;
use halo2_proofs::halo2curves::bn256::{Fq, G2Affine};

use crate::wrapper::ProofLayout;

/// The prefix of a header line.
pub const HEADER_PREFIX: &str = "// batch-ecdsa ";

/// `keccak256` of runtime code (as `cast codehash` prints it for a deployed contract).
pub fn code_hash(runtime: &[u8]) -> [u8; 32] {
    keccak256(runtime)
}

/// What a generated verifier says it verifies (module doc).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub statement: String,
    pub batch_size: usize,
    pub inner_k: u32,
    pub outer_k: u32,
    pub setup_kind: String,
    pub tau_g2: String,
    pub g1_powers: String,
    /// The layout of the outer proof this verifier reads (after the accumulator words), which
    /// the wrapper in front of it is deployed with; absent in verifiers generated before it
    /// was recorded, all of the 6-column outer circuit
    /// ([`crate::wrapper::AGGREGATED_PROOF_LAYOUT`], [`Header::wrapper_layout`]).
    pub proof_layout: Option<ProofLayout>,
}

impl Header {
    /// The header of a verifier for `statement`, B, both k, under `setup` (the outer k's).
    pub fn new(
        statement: &str,
        batch_size: usize,
        inner_k: u32,
        outer_k: u32,
        setup: &SetupIdentity,
        proof_layout: Option<ProofLayout>,
    ) -> Self {
        Self {
            statement: statement.into(),
            batch_size,
            inner_k,
            outer_k,
            setup_kind: setup.kind.as_str().into(),
            tau_g2: setup.tau_g2.clone(),
            g1_powers: setup.g1_powers.clone(),
            proof_layout,
        }
    }

    /// The proof layout the wrapper in front of this verifier checks: the one the header
    /// states, else the 6-column outer circuit's of every verifier generated before layouts
    /// were recorded.
    pub fn wrapper_layout(&self) -> ProofLayout {
        self.proof_layout
            .unwrap_or(crate::wrapper::AGGREGATED_PROOF_LAYOUT)
    }

    /// The header's lines (each ends with a newline).
    pub fn lines(&self) -> String {
        let mut out = String::new();
        let mut line = |k: &str, v: String| {
            out.push_str(&format!("{HEADER_PREFIX}{k}: {v}\n"));
        };
        line("statement", self.statement.clone());
        line("batch_size", self.batch_size.to_string());
        line("inner_k", self.inner_k.to_string());
        line("outer_k", self.outer_k.to_string());
        line("setup", self.setup_kind.clone());
        line("tau_g2", self.tau_g2.clone());
        line("g1_powers", self.g1_powers.clone());
        if let Some(l) = &self.proof_layout {
            line(
                "proof_layout",
                format!(
                    "rest_bytes={} scalars_offset={} scalars_count={}",
                    l.rest_bytes, l.scalars_offset, l.scalars_count
                ),
            );
        }
        if self.setup_kind == "insecure-dev" {
            out.push_str("// INSECURE: this verifier trusts the fixed-seed development setup, whose τ is public: anyone can forge proofs it accepts. Never deploy it.\n");
        }
        out
    }

    /// `source` with the header inserted before its `pragma` line (or at the top).
    pub fn insert_into(&self, source: &str) -> String {
        match source.find("pragma solidity") {
            Some(at) => format!("{}{}{}", &source[..at], self.lines(), &source[at..]),
            None => format!("{}{source}", self.lines()),
        }
    }

    /// The header of `source`, if it has a whole one (a verifier generated before headers has
    /// none). Each key must appear once.
    pub fn parse(source: &str) -> Result<Option<Self>, String> {
        let mut map = std::collections::BTreeMap::new();
        for line in source.lines() {
            if let Some(rest) = line.trim().strip_prefix(HEADER_PREFIX) {
                let (k, v) = rest
                    .split_once(": ")
                    .ok_or_else(|| format!("malformed header line {line:?}"))?;
                if map.insert(k.to_string(), v.trim().to_string()).is_some() {
                    return Err(format!("header key {k} appears twice"));
                }
            }
        }
        if map.is_empty() {
            return Ok(None);
        }
        let get = |k: &str| {
            map.get(k)
                .cloned()
                .ok_or_else(|| format!("the verifier's header has no {k}"))
        };
        let num = |k: &str| -> Result<u64, String> {
            get(k)?
                .parse::<u64>()
                .map_err(|e| format!("the verifier's header: {k}: {e}"))
        };
        Ok(Some(Self {
            statement: get("statement")?,
            batch_size: usize::try_from(num("batch_size")?)
                .map_err(|e| format!("the verifier's header: batch_size: {e}"))?,
            inner_k: u32::try_from(num("inner_k")?)
                .map_err(|e| format!("the verifier's header: inner_k: {e}"))?,
            outer_k: u32::try_from(num("outer_k")?)
                .map_err(|e| format!("the verifier's header: outer_k: {e}"))?,
            setup_kind: get("setup")?,
            tau_g2: get("tau_g2")?,
            g1_powers: get("g1_powers")?,
            proof_layout: map
                .get("proof_layout")
                .map(|v| parse_layout(v))
                .transpose()?,
        }))
    }
}

/// `rest_bytes=N scalars_offset=O scalars_count=C`, each once and in this order, consistent
/// (the scalars within the rest, whole words).
fn parse_layout(v: &str) -> Result<ProofLayout, String> {
    let bad = || {
        format!("the verifier's header: proof_layout: {v:?} is not `rest_bytes=N scalars_offset=O scalars_count=C`")
    };
    let mut nums = Vec::new();
    let parts: Vec<&str> = v.split(' ').collect();
    if parts.len() != 3 {
        return Err(bad());
    }
    for (part, key) in parts
        .iter()
        .zip(["rest_bytes", "scalars_offset", "scalars_count"])
    {
        let (k, n) = part.split_once('=').ok_or_else(bad)?;
        if k != key {
            return Err(bad());
        }
        nums.push(n.parse::<usize>().map_err(|_| bad())?);
    }
    let l = ProofLayout {
        rest_bytes: nums[0],
        scalars_offset: nums[1],
        scalars_count: nums[2],
    };
    let end = l
        .scalars_count
        .checked_mul(32)
        .and_then(|b| b.checked_add(l.scalars_offset));
    if !l.rest_bytes.is_multiple_of(32)
        || !l.scalars_offset.is_multiple_of(64)
        || l.scalars_count == 0
        || end.and_then(|e| e.checked_add(128)) != Some(l.rest_bytes)
    {
        return Err(format!(
            "the verifier's header: proof_layout: {v:?} is not points, scalars, then two points"
        ));
    }
    Ok(l)
}

/// The header of a direct (not aggregated) verifier: the statement, B, k and the setup, in
/// the lines [`Header`] uses (read by people; `verify-aggregated` checks aggregated ones).
pub fn direct_header(statement: &str, batch_size: usize, k: u32, setup: &SetupIdentity) -> String {
    let mut out = String::new();
    for (key, v) in [
        ("statement", statement.to_string()),
        ("batch_size", batch_size.to_string()),
        ("k", k.to_string()),
        ("setup", setup.kind.to_string()),
        ("tau_g2", setup.tau_g2.clone()),
        ("g1_powers", setup.g1_powers.clone()),
    ] {
        out.push_str(&format!("{HEADER_PREFIX}{key}: {v}\n"));
    }
    if setup.kind.is_insecure() {
        out.push_str("// INSECURE: this verifier trusts the fixed-seed development setup, whose τ is public: anyone can forge proofs it accepts. Never deploy it.\n");
    }
    out
}

fn fq_be(x: &Fq) -> [u8; 32] {
    let mut b: [u8; 32] = x.to_repr();
    b.reverse();
    b
}

/// `p` as the four words EIP-197's pairing precompile reads: x.c1, x.c0, y.c1, y.c0.
pub fn eip197_words(p: &G2Affine) -> [[u8; 32]; 4] {
    [
        fq_be(&p.x.c1),
        fq_be(&p.x.c0),
        fq_be(&p.y.c1),
        fq_be(&p.y.c0),
    ]
}

/// The 32-byte hex constants of `source`, in order.
fn constants(source: &str) -> Vec<[u8; 32]> {
    let bytes = source.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i + 66 <= bytes.len() {
        if bytes[i] == b'0' && bytes[i + 1] == b'x' {
            let digits = &source[i + 2..];
            let n = digits.bytes().take_while(|b| b.is_ascii_hexdigit()).count();
            if n == 64 {
                if let Ok(v) = hex::decode(&digits[..64]) {
                    let mut w = [0u8; 32];
                    w.copy_from_slice(&v);
                    out.push(w);
                }
            }
            i += 2 + n;
        } else {
            i += 1;
        }
    }
    out
}

/// Whether the verifier `source` checks its pairing against `s_g2` = `[τ]₂`: snark-verifier's
/// generated code checks `e(lhs, G₂)·e(rhs, −[τ]₂) = 1` and holds the generator G₂ followed
/// at once by `−[τ]₂`, each as four EIP-197 words (module doc).
pub fn embeds_tau(source: &str, s_g2: &G2Affine) -> bool {
    let mut want: Vec<[u8; 32]> = eip197_words(&G2Affine::generator()).to_vec();
    want.extend(eip197_words(&(-*s_g2)));
    constants(source).windows(8).any(|w| w == want.as_slice())
}

/// The PUSH32 immediates of EVM code, in order (PUSH1…PUSH32 are 0x60…0x7f, each followed by
/// its 1…32 immediate bytes, which are skipped as code).
fn push32_words(code: &[u8]) -> Vec<[u8; 32]> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < code.len() {
        let op = code[i];
        if (0x60..=0x7f).contains(&op) {
            let n = usize::from(op - 0x5f);
            if op == 0x7f && i + 33 <= code.len() {
                let mut w = [0u8; 32];
                w.copy_from_slice(&code[i + 1..i + 33]);
                out.push(w);
            }
            i += 1 + n;
        } else {
            i += 1;
        }
    }
    out
}

/// [`embeds_tau`] on the compiled runtime code rather than the source: the generator G₂ and
/// `−[τ]₂` as eight consecutive PUSH32 constants of the code itself, so a comment holding
/// those words cannot stand in for them.
pub fn code_embeds_tau(runtime: &[u8], s_g2: &G2Affine) -> bool {
    let mut want: Vec<[u8; 32]> = eip197_words(&G2Affine::generator()).to_vec();
    want.extend(eip197_words(&(-*s_g2)));
    push32_words(runtime)
        .windows(8)
        .any(|w| w == want.as_slice())
}

#[cfg(test)]
mod tests {
    use super::*;
    use batch_ecdsa::prover::srs::SetupKind;

    fn id() -> SetupIdentity {
        SetupIdentity {
            kind: SetupKind::Ceremony,
            file: Some("pot.ptau".into()),
            tau_g2: "0x11".into(),
            g1_powers: "0x22".into(),
            k: 22,
        }
    }

    #[test]
    fn the_header_round_trips_and_is_strict() {
        let h = Header::new("digest", 32, 19, 22, &id(), None);
        let src = h
            .insert_into("// SPDX-License-Identifier: MIT\npragma solidity 0.8.19;\ncontract V {}");
        assert!(src.starts_with("// SPDX"));
        assert_eq!(Header::parse(&src).unwrap(), Some(h.clone()));
        assert_eq!(Header::parse("contract V {}").unwrap(), None);
        let twice = format!("{}{}", h.lines(), h.lines());
        assert!(Header::parse(&twice).unwrap_err().contains("twice"));
        let missing = h.lines().replace("// batch-ecdsa inner_k: 19\n", "");
        assert!(Header::parse(&missing).unwrap_err().contains("no inner_k"));
        assert_eq!(h.wrapper_layout(), crate::wrapper::AGGREGATED_PROOF_LAYOUT);
    }

    /// A generated verifier states its proof layout; the wrapper is configured with it. A
    /// layout line that is not points, scalars, then two points, or out of order, is refused.
    #[test]
    fn the_proof_layout_line_round_trips_and_is_strict() {
        let layout = ProofLayout {
            rest_bytes: 2912,
            scalars_offset: 1152,
            scalars_count: 51,
        };
        let h = Header::new("digest", 256, 20, 22, &id(), Some(layout));
        let lines = h.lines();
        assert!(lines.contains(
            "// batch-ecdsa proof_layout: rest_bytes=2912 scalars_offset=1152 scalars_count=51\n"
        ));
        let parsed = Header::parse(&lines).unwrap().unwrap();
        assert_eq!(parsed, h);
        assert_eq!(parsed.wrapper_layout(), layout);
        for bad in [
            "rest_bytes=2912 scalars_offset=1152 scalars_count=50",
            "rest_bytes=2912 scalars_offset=1152",
            "scalars_offset=1152 rest_bytes=2912 scalars_count=51",
            "rest_bytes=2912 scalars_offset=1120 scalars_count=52",
            "rest_bytes=2912 scalars_offset=1152 scalars_count=x",
            "rest_bytes=18446744073709551615 scalars_offset=1152 scalars_count=576460752303423487",
        ] {
            let text = lines.replace("rest_bytes=2912 scalars_offset=1152 scalars_count=51", bad);
            assert!(
                Header::parse(&text).unwrap_err().contains("proof_layout"),
                "{bad}"
            );
        }
    }

    #[test]
    fn tau_is_found_only_where_it_is() {
        let dev = batch_ecdsa::prover::params::dev_setup(1).unwrap();
        let hexw = |w: &[u8; 32]| format!("0x{}", hex::encode(w));
        let mut src = String::new();
        for w in eip197_words(&G2Affine::generator())
            .iter()
            .chain(&eip197_words(&(-dev.s_g2())))
        {
            src.push_str(&format!("mstore(0x00, {})\n", hexw(w)));
        }
        assert!(embeds_tau(&src, &dev.s_g2()));
        let other = batch_ecdsa::prover::params::local_setup(&[1]).unwrap();
        assert!(!embeds_tau(&src, &other[0].s_g2()));
        assert!(!embeds_tau(&src, &(-dev.s_g2())));
    }

    #[test]
    fn the_committed_fixed_seed_verifier_embeds_the_fixed_seed_tau() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let dev = batch_ecdsa::prover::params::dev_setup(1).unwrap().s_g2();
        let other = batch_ecdsa::prover::params::local_setup(&[1]).unwrap()[0].s_g2();
        for f in [
            "aggregate-digest-b32/AggregationVerifier.sol",
            "aggregated-txs-b8/AggregationVerifier.sol",
        ] {
            let src = std::fs::read_to_string(dir.join(f)).unwrap();
            assert!(embeds_tau(&src, &dev), "{f}");
            assert!(!embeds_tau(&src, &other), "{f}");
            let solc = crate::solc::Solc::locate_or_install().unwrap();
            let runtime = solc.compile(&src).unwrap().runtime;
            assert!(code_embeds_tau(&runtime, &dev), "{f}: the code holds −[τ]₂");
            assert!(!code_embeds_tau(&runtime, &other), "{f}");
        }
    }
}
