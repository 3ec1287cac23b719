//! The Keccak chip (`batch_ecdsa_circuits::keccak`): Keccak-256 against the `sha3` crate on
//! the padding edge lengths and random lengths up to 600 bytes, the footprint check, witness
//! mutations over a whole permutation's footprint, an adversarial prover that claims a wrong
//! digest, and the cell counts per permutation.

use std::sync::{Arc, Mutex};

use batch_ecdsa_circuits::config::LaidOutCircuit;
use batch_ecdsa_circuits::keccak::gates::{col, ColumnKind, B, H, O, U};
use batch_ecdsa_circuits::keccak::spec::{digits_of, pack, RC};
use batch_ecdsa_circuits::keccak::{KeccakChip, KeccakDigest};
use batch_ecdsa_circuits::layout::adversary::Adversary;
use batch_ecdsa_circuits::layout::{Builder, CellRef, LayoutParams, Native};
use batch_ecdsa_circuits::range::RangeChip;
use batch_ecdsa_circuits::test_utils::{
    footprint_mutation_test, mock_only, mock_verify, BuilderCircuit, Mutable, Tampered,
};
use ff::Field;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;
use sha3::{Digest, Keccak256};

/// Small tables for the MockProver tests: 4-digit chunks, range table of 2^10.
fn params(d: u32) -> LayoutParams {
    let mut p = LayoutParams::new(10);
    p.keccak_digits = d;
    p
}

fn reference(msg: &[u8]) -> [u8; 32] {
    Keccak256::digest(msg).into()
}

/// A circuit hashing each message of `msgs` (bytes loaded as free witness cells: the chip's
/// byte lookups range-check them), recording the digests it laid out.
fn hash_circuit(d: u32, msgs: Vec<Vec<u8>>) -> (BuilderCircuit, Arc<Mutex<Vec<KeccakDigest>>>) {
    let out = Arc::new(Mutex::new(Vec::new()));
    let rec = out.clone();
    let c = BuilderCircuit::new(params(d), move |b: &mut Builder| {
        let range = RangeChip::new(b.params.clone());
        let chip = KeccakChip::new(b.params.clone());
        let mut ds = Vec::new();
        for msg in &msgs {
            let cells: Vec<_> = msg
                .iter()
                .map(|v| range.load_witness(b, Native::from(*v as u64)))
                .collect();
            ds.push(chip.keccak256(b, &cells));
        }
        *rec.lock().unwrap() = ds;
    });
    (c, out)
}

fn digest_bytes(d: &KeccakDigest) -> Vec<u8> {
    d.bytes.iter().map(|c| c.value.to_repr_byte()).collect()
}

trait ByteOf {
    fn to_repr_byte(&self) -> u8;
}
impl ByteOf for Native {
    fn to_repr_byte(&self) -> u8 {
        use ff::PrimeField;
        let r = self.to_repr();
        assert!(r[1..].iter().all(|b| *b == 0), "not a byte");
        r[0]
    }
}

fn halves(expected: &[u8; 32]) -> (Native, Native) {
    let h = |bs: &[u8]| {
        bs.iter().fold(Native::ZERO, |a, b| {
            a * Native::from(256u64) + Native::from(*b as u64)
        })
    };
    (h(&expected[..16]), h(&expected[16..]))
}

/// Lays out, checks the digests against `sha3`, then the footprint and MockProver.
fn check_lengths(d: u32, lens: &[usize], seed: u64) {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let msgs: Vec<Vec<u8>> = lens
        .iter()
        .map(|&n| (0..n).map(|_| rng.next_u32() as u8).collect())
        .collect();
    let (c, out) = hash_circuit(d, msgs.clone());
    let b = c.builder();
    for (msg, dg) in msgs.iter().zip(out.lock().unwrap().iter()) {
        let want = reference(msg);
        assert_eq!(digest_bytes(dg), want.to_vec(), "length {}", msg.len());
        let (hi, lo) = halves(&want);
        assert_eq!((dg.hi.value, dg.lo.value), (hi, lo));
    }
    let k = c.min_k();
    println!("d={d} lengths {lens:?}: {} rows, k={k}", b.rows());
    mock_verify(k, &c).unwrap_or_else(|e| panic!("lengths {lens:?}: {e}"));
}

#[test]
fn keccak256_padding_edges_match_sha3() {
    // 0 and 135: one block (135 puts 0x01|0x80 = 0x81 in the last byte); 136, 137: two
    // blocks (136: a whole padding block); 64: the address hash.
    check_lengths(4, &[0, 135, 136, 137, 64], 1);
}

#[test]
fn keccak256_random_lengths_match_sha3() {
    // Five random lengths in 0..600 (fixed seed), up to five blocks each.
    let mut rng = ChaCha20Rng::seed_from_u64(7);
    let lens: Vec<usize> = (0..5).map(|_| (rng.next_u32() % 600) as usize).collect();
    check_lengths(4, &lens, 8);
}

#[test]
fn keccak256_other_chunk_widths() {
    // The chunk widths the planner uses at larger k: 5 (k ≥ 14), 6 (k ≥ 16: absorb blocks
    // with byte rows in front of the state, two blocks so the second absorb reads the state
    // across them) and 3 (a very small table).
    check_lengths(5, &[64], 2);
    check_lengths(6, &[137], 4);
    check_lengths(3, &[52], 3);
}

/// d = 7 (k ≥ 19: too large a table for MockProver here): the digests against `sha3` and the
/// footprint check, which needs no table.
#[test]
fn keccak256_seven_digit_chunks_layout() {
    let msgs = vec![vec![7u8; 64], vec![9u8; 300]];
    let (c, out) = hash_circuit(7, msgs.clone());
    c.builder();
    for (msg, dg) in msgs.iter().zip(out.lock().unwrap().iter()) {
        assert_eq!(digest_bytes(dg), reference(msg).to_vec());
    }
    c.footprint().result().unwrap();
}

/// Without Keccak the configuration has no Keccak column, table, gate or fixed column.
#[test]
fn keccak_knob_off_adds_nothing() {
    use halo2_proofs::plonk::ConstraintSystem;
    let count = |d: u32| {
        let (cs, _) = {
            let c = BuilderCircuit::new(params(d), |_b| {});
            c.configured()
        };
        let cs: ConstraintSystem<Native> = cs;
        println!(
            "d={d}: degree {}, advice queries {}, fixed queries {}, blinding {}",
            cs.degree(),
            cs.advice_queries().len(),
            cs.fixed_queries().len(),
            cs.blinding_factors()
        );
        (
            cs.num_advice_columns(),
            cs.num_fixed_columns(),
            cs.gates().len(),
            cs.lookups().len(),
        )
    };
    let (off, on) = (count(0), count(4));
    count(6);
    println!("(advice, fixed, gates, lookups) without keccak {off:?}, with {on:?}");
    assert_eq!(on.0, off.0 + 20);
    // 5 piece, 2 second-piece, 5 χ, θ, θ top (d = 4: a 4-digit last part).
    assert_eq!(on.3, off.3 + 14);
}

/// The footprint check on a two-block hash (absorb with and without a previous state, rounds,
/// squeeze), and every cell of one permutation's footprint mutated (sampled).
#[test]
fn keccak_footprint_and_mutations() {
    let (c, _) = hash_circuit(4, vec![vec![0x5a; 140]]);
    let k = c.min_k();
    let r = c.footprint();
    println!("{} reads, {} footprint cells", r.reads, r.footprint.len());
    r.result().unwrap();
    let (c1, _) = hash_circuit(3, vec![vec![0xa5; 20]]);
    let k1 = c1.min_k();
    let fp = c1.footprint().footprint.len();
    let samples: usize = std::env::var("KECCAK_MUTATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let rep = footprint_mutation_test(k1, &c1, samples, 11, &Adversary::default());
    println!("footprint of one permutation: {fp} cells, k={k1} (two-block check at k={k})");
    rep.assert_all_caught("keccak footprint mutations (random)", samples.min(fp) - 1);
}

/// Stratified mutations: in each block kind (absorb, first round, last round, squeeze) and
/// each advice column, the first two footprint cells, each changed by +1 alone (so the rare
/// cells, straddle pieces, message and padding bytes, digest bytes and halves, are all hit).
#[test]
fn keccak_stratified_mutations() {
    let (c, out) = hash_circuit(3, vec![vec![0xa5; 20]]);
    c.builder();
    let k = c.min_k();
    mock_verify(k, &c).unwrap();
    let g = batch_ecdsa_circuits::keccak::Geometry::new(3);
    let s0 = out.lock().unwrap()[0].bytes[0].cell.row as usize;
    let br = g.block_rows();
    let first = s0 - 24 * br - g.absorb_rows();
    let kinds = [
        ("absorb", first, first + g.absorb_rows()),
        (
            "round 0",
            first + g.absorb_rows(),
            first + g.absorb_rows() + br,
        ),
        ("round 23", s0 - br, s0),
        ("squeeze", s0, s0 + 16),
    ];
    let fp = c.footprint().footprint;
    let mut picked = Vec::new();
    for (name, lo, hi) in kinds {
        let mut per_col = std::collections::HashMap::<u16, usize>::new();
        for cell in &fp {
            let row = cell.cell.row as usize;
            if row < lo || row >= hi || cell.free {
                continue;
            }
            let n = per_col.entry(cell.cell.col).or_default();
            if *n < 2 {
                *n += 1;
                picked.push((name, *cell));
            }
        }
    }
    let escaped: Vec<_> = picked
        .iter()
        .filter(|(_, cell)| {
            let v = cell.value.map_or(Native::ONE, |v| v + Native::ONE);
            let t = Tampered::cell(c.clone(), &Adversary::default(), cell.cell, v);
            mock_only(k, &t).is_ok()
        })
        .collect();
    println!(
        "stratified mutations: {} cells, {} escaped",
        picked.len(),
        escaped.len()
    );
    assert!(picked.len() > 100);
    assert!(escaped.is_empty(), "escaped: {escaped:?}");
}

/// The adversary writes a wrong digest into the squeeze block, consistently (nibble pieces,
/// nibbles, bytes, halves all recomputed for the wrong lanes): the squeeze gate, which ties
/// the pieces to the last round's state, rejects it. The same writes with the honest lanes
/// pass (so the test can fail), and a wrong digest byte alone is caught. Every digest bit is
/// tried (256 wrong digests, one flipped bit each).
#[test]
fn wrong_digest_cannot_be_proven() {
    let msg = vec![0x42u8; 64];
    let (c, out) = hash_circuit(3, vec![msg.clone()]);
    c.builder();
    let dg = out.lock().unwrap()[0].clone();
    let k = c.min_k();
    mock_verify(k, &c).unwrap();
    let want = reference(&msg);
    let s0 = dg.bytes[0].cell.row;
    let p = params(3);
    let cell = |row: u32, kind: ColumnKind, x: usize| CellRef {
        phase: 0,
        row,
        col: col(&p, kind, x) as u16,
    };
    let squeeze_for = |digest: &[u8; 32]| {
        let mut a = Adversary::default();
        for x in 0..4 {
            let v = u64::from_le_bytes(digest[8 * x..8 * x + 8].try_into().unwrap());
            // Lane 0 still carries the last round's ι as a digit sum: bit(v ⊕ RC) + bit(RC).
            let rc = if x == 0 { RC[23] } else { 0 };
            let (vd, rd) = (digits_of(v ^ rc), digits_of(rc));
            let dgt: [u8; 64] = std::array::from_fn(|i| vd[i] + rd[i]);
            for i in 0..16u32 {
                a.cells.insert(
                    cell(s0 + i, U, x),
                    Native::from(pack(&dgt, 4 * i as usize, 4)),
                );
                a.cells
                    .insert(cell(s0 + i, O, x), Native::from((v >> (4 * i)) & 15));
            }
            for i in 0..8u32 {
                a.cells.insert(
                    cell(s0 + i, H, x),
                    Native::from(digest[8 * x + i as usize] as u64),
                );
            }
        }
        let (hi, lo) = halves(digest);
        a.cells.insert(cell(s0, B, 0), hi);
        a.cells.insert(cell(s0 + 1, B, 0), lo);
        Tampered {
            inner: c.clone(),
            adversary: a,
        }
    };
    // Control: the honest digest written the same way is accepted (the rewrite itself is
    // consistent, so a rejection below is the squeeze gate's binding, not a broken rewrite).
    let ctrl = squeeze_for(&want);
    mock_only(k, &ctrl).expect("the honest digest rewritten must pass");
    for bit in 0..256 {
        let mut wrong = want;
        wrong[bit / 8] ^= 1 << (bit % 8);
        let bad = squeeze_for(&wrong);
        assert!(
            mock_only(k, &bad).is_err(),
            "a wrong digest (bit {bit}) was accepted"
        );
    }
    // A wrong digest byte alone (nothing else rewritten).
    let mut one = Adversary::default();
    one.cells
        .insert(dg.bytes[31].cell, dg.bytes[31].value + Native::ONE);
    let t = Tampered {
        inner: c.clone(),
        adversary: one,
    };
    assert!(mock_only(k, &t).is_err());
}

/// Cells, lookup cells and rows per permutation and per hash, for each chunk width.
#[test]
fn keccak_cells_per_permutation() {
    use batch_ecdsa_circuits::layout::KECCAK_COLS;
    println!("| d | parts m | straddles/round | largest table (rows) | rows/perm | advice cells/perm | area/perm ({KECCAK_COLS} cols × rows) | fill | cells 64-byte hash | rows 64-byte hash |");
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for d in 3..=7u32 {
        let stats = |n: usize| {
            let p = params(d);
            let mut b = Builder::new(0, p.clone());
            let range = RangeChip::new(p.clone());
            let cells: Vec<_> = (0..n)
                .map(|i| range.load_witness(&mut b, Native::from(i as u64 % 256)))
                .collect();
            let before = b.stats();
            KeccakChip::new(p).keccak256(&mut b, &cells);
            b.stats() - before
        };
        let (one, two) = (stats(64), stats(200));
        let perm = two - one;
        let g = batch_ecdsa_circuits::keccak::Geometry::new(d);
        // Every Keccak cell is in a Keccak column (the byte cells the test loads are outside
        // the measured span): advice cells = Keccak cells.
        assert_eq!(perm.advice_cells, perm.lookup_cells);
        let area = KECCAK_COLS * perm.rows;
        println!(
            "| {d} | {} | {} | {} | {} | {} | {} | {:.0}% | {} | {} |",
            g.m(),
            g.straddles(),
            batch_ecdsa_circuits::keccak::gates::table_rows(d),
            perm.rows,
            perm.advice_cells,
            area,
            100.0 * perm.advice_cells as f64 / area as f64,
            one.advice_cells,
            one.rows
        );
    }
}

mod common;

/// A real KZG proof (SHPLONK) of a Keccak-256 of 52 bytes verifies; the same circuit with one
/// digest half changed by the adversarial prover (same verifying key) does not.
#[test]
fn keccak_real_proof_and_wrong_digest_proof() {
    let (c, out) = hash_circuit(3, vec![vec![0x33; 52]]);
    c.builder();
    let lo = out.lock().unwrap()[0].lo;
    let k = c.min_k();
    assert!(common::prove_and_verify(k, &c, c.clone()), "honest proof");
    let mut adv = Adversary::default();
    adv.cells.insert(lo.cell, lo.value + Native::ONE);
    let bad = Tampered {
        inner: c.clone(),
        adversary: adv,
    };
    let keygen = Tampered {
        inner: c.clone(),
        adversary: Adversary::default(),
    };
    assert!(
        !common::prove_and_verify(k, &keygen, bad),
        "a proof of a wrong digest verified"
    );
}

/// The chip range-checks its input bytes: a cell holding 256 (or −1) as a "byte" makes the
/// circuit unsatisfiable, whatever the rest of the witness.
#[test]
fn non_byte_input_is_rejected() {
    for bad in [Native::from(256u64), -Native::ONE] {
        let c = BuilderCircuit::new(params(3), move |b: &mut Builder| {
            let range = RangeChip::new(b.params.clone());
            let chip = KeccakChip::new(b.params.clone());
            let mut cells: Vec<_> = (0..10u64)
                .map(|v| range.load_witness(b, Native::from(v)))
                .collect();
            cells.push(range.load_witness(b, bad));
            chip.keccak256(b, &cells);
        });
        assert!(
            mock_verify(c.min_k(), &c).is_err(),
            "a non-byte input passed"
        );
    }
}

/// The planner's chunk width for a k: the largest whose tables fit.
#[test]
fn digits_for_k_fits_the_tables() {
    use batch_ecdsa_circuits::keccak::digits_for_k;
    for (k, digits) in [(12, 4), (13, 4), (14, 5), (15, 5), (16, 6), (19, 7)] {
        assert_eq!(digits_for_k(k, 100), digits, "k = {k}");
    }
}

/// The batch circuit's Keccak work per signature (issue goal ≤ ~1.4 permutations): one
/// 64-byte address hash per signature and one digest over 52 bytes per signature
/// (32-byte hash ‖ 20-byte address), laid out at d = 6; permutations, cells and rows per
/// signature.
#[test]
fn keccak_cells_per_signature() {
    use batch_ecdsa_circuits::keccak::spec::RATE;
    let d = 6;
    println!("| B | permutations | per signature | cells/signature | rows/signature |");
    println!("|---|---|---|---|---|");
    for n in [1usize, 4, 16, 64] {
        let p = params(d);
        let mut b = Builder::new(0, p.clone());
        let range = RangeChip::new(p.clone());
        let chip = KeccakChip::new(p);
        let load = |b: &mut Builder, len: usize| -> Vec<_> {
            (0..len)
                .map(|i| range.load_witness(b, Native::from(i as u64 % 256)))
                .collect()
        };
        let mut cells = 0;
        let mut rows = 0;
        for _ in 0..n {
            let key = load(&mut b, 64);
            let before = b.stats();
            chip.keccak256(&mut b, &key);
            let s = b.stats() - before;
            cells += s.advice_cells;
            rows += s.rows;
        }
        let digest_in = load(&mut b, 52 * n);
        let before = b.stats();
        chip.keccak256(&mut b, &digest_in);
        let s = b.stats() - before;
        cells += s.advice_cells;
        rows += s.rows;
        let perms = n + (52 * n) / RATE + 1;
        println!(
            "| {n} | {perms} | {:.2} | {} | {} |",
            perms as f64 / n as f64,
            cells / n,
            rows / n
        );
    }
}
