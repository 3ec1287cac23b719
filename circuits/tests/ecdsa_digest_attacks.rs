//! Adversarial review of the digest statement (`ecdsa::digest`) and of the Keccak rows that
//! now overlap the main work's rows of lane 0 (`Builder::new_keccak_rows`).
//!
//! Every attack writes values through the adversarial prover (`layout::adversary`): any advice
//! cell, assigned or not, without changing fixed cells, selectors, copies or the instance.
//! Each test passes on the current code and fails if the constraint it names is removed.

use batch_ecdsa_circuits::plan::FitOptions;
use std::collections::{HashMap, HashSet};

use batch_ecdsa_circuits::config::LaidOutCircuit;
use batch_ecdsa_circuits::ecdsa::batch::{
    raw_cells_per_signature, BatchEcdsaCircuit, DEFAULT_BATCH_WINDOW, RAW_CELLS_PER_SIGNATURE,
};
use batch_ecdsa_circuits::ecdsa::naive::NaiveEcdsaCircuit;
use batch_ecdsa_circuits::ecdsa::Statement;
use batch_ecdsa_circuits::keccak::gates::{col, ColumnKind, SV, SW};
use batch_ecdsa_circuits::layout::adversary::Adversary;
use batch_ecdsa_circuits::layout::{
    lane_of, local_row, Builder, CellRef, LayoutParams, Native, MAIN_COLS,
};
use batch_ecdsa_circuits::test_utils::{ecdsa_witness, mock_only, mock_verify, Mutable, Tampered};
use ff::{Field, PrimeField};
use halo2_proofs::dev::{MockProver, VerifyFailure};
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;

/// The small digest circuit of the brief: naive, B = 1, window 5, planner's k.
fn naive1() -> (NaiveEcdsaCircuit, u32) {
    let t = std::time::Instant::now();
    let (c, k) = NaiveEcdsaCircuit::fitted(
        vec![ecdsa_witness(1)],
        &FitOptions::default().window(5).statement(Statement::Digest),
    );
    println!(
        "naive digest B=1: k={k}, d={}, lookup_cols={}, {:?} ({:?} to plan)",
        c.params().keccak_digits,
        c.params().lookup_cols,
        c.stats(),
        t.elapsed()
    );
    (c, k)
}

fn kcol_of(p: &LayoutParams, kind: ColumnKind, i: usize) -> u16 {
    col(p, kind, i) as u16
}

/// The message-byte copies into the Keccak blocks, in absorb order: `(source, SV copy)` for
/// every copy whose destination is an `SV` column on a row tagged `BYTE`.
/// For one signature: the 64 key bytes (address hash), then the D hash's 32 h bytes and 20
/// address bytes (interleaved per signature).
fn byte_copies(b: &Builder) -> Vec<(CellRef, CellRef)> {
    let p = &b.params;
    let sv = [kcol_of(p, SV, 0), kcol_of(p, SV, 1)];
    b.copy_constraints()
        .iter()
        .copied()
        .filter(|(_, d)| sv.contains(&d.col))
        .collect()
}

fn values(b: &Builder) -> HashMap<CellRef, Native> {
    b.advice_cells().iter().copied().collect()
}

fn failures<C: Mutable>(k: u32, c: &C) -> Vec<VerifyFailure> {
    match MockProver::run(k, c, c.instances())
        .expect("synthesis")
        .verify()
    {
        Ok(()) => Vec::new(),
        Err(f) => f,
    }
}

/// Attack 1: a `limb_bytes` byte ≥ 256. In the chain `t₁ = 256·c₀ + c₁` the prover writes
/// `c₀ − 1` and `c₁ + 256` (the linear row still holds: `t₁` is unchanged, so is the limb)
/// and copies them into the Keccak block's `SV` cells (the copies hold). The only thing left
/// to reject it is the Keccak `BYTE` lookup: the test checks that MockProver fails, and that
/// **every** failure is a `keccak second piece` lookup (no gate, no copy): remove the `BYTE`
/// tag of message bytes and this attack has nothing left against it.
/// Done for the top limb of x(Q) (address hash) and of h (the D hash), and for a byte deep in
/// a chain (`c_{j−1} − 1`, `c_j + 256`, `t_{j−1} − 1` and its copy).
#[test]
fn limb_byte_above_255_is_caught_only_by_the_byte_lookup() {
    let (c, k) = naive1();
    let b = c.build().0;
    let vals = values(&b);
    let copies = byte_copies(&b);
    let main_copies: Vec<_> = copies
        .iter()
        .copied()
        .filter(|(s, _)| (s.col as usize) < MAIN_COLS)
        .collect();
    assert_eq!(main_copies.len(), 96, "64 key bytes and 32 hash bytes");
    // Byte positions (in the 96) of: x's top limb c0,c1; h's top limb c0,c1; x limb 1 c4,c5.
    let cases: [(&str, usize, usize); 3] =
        [("x(Q) top", 0, 1), ("h top", 64, 65), ("x(Q) mid", 14, 15)];
    let t = std::time::Instant::now();
    let honest = failures(k, &c);
    assert!(honest.is_empty(), "honest circuit: {honest:?}");
    println!("honest MockProver {:?}", t.elapsed());
    for (what, hi, lo) in cases {
        let (hi_src, hi_sv) = main_copies[hi];
        let (lo_src, lo_sv) = main_copies[lo];
        // Same linear row (x0 / x1) for the top pair; consecutive rows otherwise.
        let mut adv = Adversary::default();
        let set = |adv: &mut Adversary, cell: CellRef, delta: Native| {
            adv.cells.insert(cell, vals[&cell] + delta);
        };
        let m256 = Native::from(256u64);
        set(&mut adv, hi_src, -Native::ONE);
        set(&mut adv, hi_sv, -Native::ONE);
        set(&mut adv, lo_src, m256);
        set(&mut adv, lo_sv, m256);
        if hi_src.col == 1 {
            // c_{j−1} is x1 of its row: its output t_{j−1} (x2) and the copy of t_{j−1} (x0 of
            // c_j's row) drop by one too.
            let t_prev = CellRef { col: 2, ..hi_src };
            let t_copy = CellRef { col: 0, ..lo_src };
            assert_eq!(lo_src.col, 1);
            assert_eq!(vals[&t_prev], vals[&t_copy], "t_(j-1) and its copy");
            set(&mut adv, t_prev, -Native::ONE);
            set(&mut adv, t_copy, -Native::ONE);
        } else {
            assert_eq!((hi_src.row, hi_src.col, lo_src.col), (lo_src.row, 0, 1));
        }
        let bad = Tampered {
            inner: c.clone(),
            adversary: adv,
        };
        let f = failures(k, &bad);
        println!("{what}: {} failure(s): {:?}", f.len(), f.first());
        assert!(!f.is_empty(), "{what}: a byte ≥ 256 was accepted");
        for x in &f {
            match x {
                VerifyFailure::Lookup { name, .. } if name == "keccak second piece" => {}
                other => panic!("{what}: not only the BYTE lookup failed: {other:?}"),
            }
        }
    }
}

/// Attack 1b (controls): with `c₀ − 1` given its own sparse form (a real `BYTE` entry), the
/// +256 byte still has no entry (and the absorbed lane no longer matches); the same byte
/// shift without the `SV` copies changed fails on the copy constraints. No permutation
/// failure in the first case: the copies and the linear row accept the shifted bytes.
#[test]
fn limb_byte_shift_with_consistent_sparse_forms_still_needs_a_byte_entry() {
    let (c, k) = naive1();
    let b = c.build().0;
    let vals = values(&b);
    let main_copies: Vec<_> = byte_copies(&b)
        .into_iter()
        .filter(|(s, _)| (s.col as usize) < MAIN_COLS)
        .collect();
    // Find a top pair with c₀ ≥ 1 (so c₀ − 1 is a byte) among the 5 limbs' first pairs.
    let starts = [0usize, 10, 21, 32, 42, 53, 64, 74, 85];
    let (hi, lo) = starts
        .iter()
        .map(|&s| (s, s + 1))
        .find(|&(h, _)| vals[&main_copies[h].0] != Native::ZERO)
        .expect("a limb whose top byte is not 0");
    let (hi_src, hi_sv) = main_copies[hi];
    let (lo_src, lo_sv) = main_copies[lo];
    let sw_of = |sv: CellRef| CellRef {
        col: sv.col + 1,
        ..sv
    };
    let p = c.params();
    assert!([kcol_of(p, SW, 0), kcol_of(p, SW, 1)].contains(&sw_of(hi_sv).col));
    let byte = |v: Native| -> u64 {
        let r = v.to_repr();
        u64::from(r[0]) + 256 * u64::from(r[1])
    };
    let c0 = byte(vals[&hi_src]);
    let sparse = |v: u64| batch_ecdsa_circuits::keccak::spec::sparse(v, 0, 8);
    assert_eq!(vals[&sw_of(hi_sv)], Native::from(sparse(c0)));
    let mut adv = Adversary::default();
    adv.cells.insert(hi_src, vals[&hi_src] - Native::ONE);
    adv.cells.insert(hi_sv, vals[&hi_sv] - Native::ONE);
    adv.cells.insert(sw_of(hi_sv), Native::from(sparse(c0 - 1)));
    adv.cells
        .insert(lo_src, vals[&lo_src] + Native::from(256u64));
    adv.cells.insert(lo_sv, vals[&lo_sv] + Native::from(256u64));
    let f = failures(
        k,
        &Tampered {
            inner: c.clone(),
            adversary: adv.clone(),
        },
    );
    println!("consistent shift: {} failure(s): {:?}", f.len(), f);
    // The BYTE lookup of the +256 byte, and the absorb gate (the sparse form of c₀ − 1 changes
    // the absorbed lane) are what catch it; the linear row and the copies hold.
    assert!(f
        .iter()
        .any(|x| matches!(x, VerifyFailure::Lookup { name, .. } if name == "keccak second piece")));
    assert!(f
        .iter()
        .all(|x| !matches!(x, VerifyFailure::Permutation { .. })));
    // Without touching the SV copies: the copies break.
    let mut adv2 = Adversary::default();
    adv2.cells.insert(hi_src, vals[&hi_src] - Native::ONE);
    adv2.cells
        .insert(lo_src, vals[&lo_src] + Native::from(256u64));
    let f2 = failures(
        k,
        &Tampered {
            inner: c.clone(),
            adversary: adv2,
        },
    );
    assert!(f2
        .iter()
        .any(|x| matches!(x, VerifyFailure::Permutation { .. })));
}

/// Rows where both the Keccak blocks and the main work live (lane 0, below both counters):
/// junk written into every **unassigned** main (non-looked-up) and Keccak cell of sampled
/// overlap rows changes nothing (nothing reads them), so the proof stays valid; and the
/// footprint check passes (every cell a gate / strict lookup reads there is assigned).
/// A gate reading across the two halves on these rows (e.g. a Keccak tag left on a main row)
/// would read the junk and fail.
#[test]
fn overlap_rows_unassigned_cells_are_unread() {
    let (c, k) = naive1();
    mock_verify(k, &c).expect("valid");
    let b = c.build().0;
    let p = c.params();
    let kbase = (MAIN_COLS + p.lookup_cols) as u16;
    let mut main_rows = 0u32;
    let mut keccak_rows = 0u32;
    let mut assigned: HashSet<(u32, u16)> = HashSet::new();
    for (cell, _) in b.advice_cells() {
        assert_eq!(lane_of(cell.row), 0);
        let r = local_row(cell.row);
        assigned.insert((r, cell.col));
        if cell.col >= kbase {
            keccak_rows = keccak_rows.max(r + 1);
        } else {
            main_rows = main_rows.max(r + 1);
        }
    }
    let overlap = main_rows.min(keccak_rows);
    println!("main rows {main_rows}, keccak rows {keccak_rows}, overlap {overlap}, k {k}");
    assert!(overlap > 0, "the Keccak rows overlap the main rows");
    let mut rng = ChaCha20Rng::seed_from_u64(7);
    let mut adv = Adversary::default();
    let cols: Vec<u16> = (0..MAIN_COLS as u16)
        .chain(kbase..kbase + batch_ecdsa_circuits::layout::KECCAK_COLS as u16)
        .collect();
    for _ in 0..600 {
        let r = (rng.next_u64() % overlap as u64) as u32;
        for &cc in &cols {
            if !assigned.contains(&(r, cc)) {
                adv.cells.insert(
                    CellRef {
                        phase: 0,
                        row: r,
                        col: cc,
                    },
                    Native::from(rng.next_u64()) + Native::ONE,
                );
            }
        }
    }
    println!("junk cells written: {}", adv.cells.len());
    assert!(adv.cells.len() > 1000);
    let t = Tampered {
        inner: c.clone(),
        adversary: adv,
    };
    mock_only(k, &t).expect("junk in unread cells changes nothing");
}

/// Footprint mutations concentrated on the new cells: every footprint cell of the Keccak
/// columns and of the `limb_bytes` rows is a candidate, a sample of them is changed one at a
/// time (+1 or a random value), every change must be caught.
#[test]
fn digest_footprint_mutations_on_keccak_and_byte_rows() {
    let (c, k) = naive1();
    mock_verify(k, &c).expect("valid");
    let b = c.build().0;
    let p = c.params();
    let kbase = (MAIN_COLS + p.lookup_cols) as u16;
    // The limb_bytes rows: rows of the byte cells' sources in main columns.
    let byte_rows: HashSet<u32> = byte_copies(&b)
        .iter()
        .filter(|(s, _)| (s.col as usize) < MAIN_COLS)
        .map(|(s, _)| s.row)
        .collect();
    let fp = c.footprint();
    fp.result().expect("footprint");
    let mut keccak: Vec<_> = fp
        .footprint
        .iter()
        .filter(|x| x.cell.col >= kbase && !x.free)
        .copied()
        .collect();
    let mut bytes: Vec<_> = fp
        .footprint
        .iter()
        .filter(|x| x.cell.col < MAIN_COLS as u16 && byte_rows.contains(&x.cell.row) && !x.free)
        .copied()
        .collect();
    println!(
        "footprint: {} cells, {} in Keccak columns, {} on limb_bytes rows",
        fp.footprint.len(),
        keccak.len(),
        bytes.len()
    );
    assert_eq!(
        bytes.len(),
        3 * byte_rows.len(),
        "x0, x1, x2 of every byte row"
    );
    assert!(keccak.iter().all(|x| x.value.is_some()));
    let mut rng = ChaCha20Rng::seed_from_u64(23);
    let mut pick = |v: &mut Vec<batch_ecdsa_circuits::footprint::FootprintCell>, n: usize| {
        let mut out = Vec::new();
        for _ in 0..n.min(v.len()) {
            let i = (rng.next_u64() as usize) % v.len();
            out.push(v.swap_remove(i));
        }
        out
    };
    let samples: Vec<_> = pick(&mut keccak, 10)
        .into_iter()
        .chain(pick(&mut bytes, 6))
        .collect();
    let t = std::time::Instant::now();
    let mut escaped = Vec::new();
    for (i, x) in samples.iter().enumerate() {
        let delta = if i % 2 == 0 {
            Native::ONE
        } else {
            Native::from(0x1234_5678_9abc_def1u64)
        };
        let v = x.value.unwrap_or(Native::ZERO) + delta;
        let bad = Tampered::cell(c.clone(), &Adversary::default(), x.cell, v);
        if mock_only(k, &bad).is_ok() {
            escaped.push(x.cell);
        }
    }
    println!("{} mutations in {:?}", samples.len(), t.elapsed());
    assert!(escaped.is_empty(), "escaped: {escaped:?}");
}

/// Attack 4: under the digest every limb of h, x(Q), y(Q) that phase 1 uses is copy-bound to
/// the phase-0 commitment. Structurally: each of the 18 committed cells of a signature is in
/// a copy with a phase-1 cell, the phase-1 cells of h, x(Q), y(Q) are exactly the cells whose
/// bytes the Keccak blocks absorb (limb_bytes ends), and changing the phase-1 side alone
/// (each limb of h, x(Q), y(Q), with the same delta on the byte chain end that copies it) is
/// rejected.
#[test]
fn batch_digest_statement_limbs_bound_to_phase0() {
    let (c, k) = BatchEcdsaCircuit::fitted(
        vec![ecdsa_witness(131)],
        &FitOptions::default()
            .window(DEFAULT_BATCH_WINDOW)
            .statement(Statement::Digest),
    );
    mock_verify(k, &c).expect("valid");
    let bs = c.layout_builders();
    let (b0, b1) = (&bs[0], &bs[1]);
    let per = raw_cells_per_signature(Statement::Digest);
    assert_eq!(b0.advice_cells().len(), per);
    let raw: Vec<CellRef> = b0.advice_cells().iter().map(|(c, _)| *c).collect();
    // Phase-1 partner of each raw cell.
    let mut partner: HashMap<CellRef, CellRef> = HashMap::new();
    for (x, y) in b1.copy_constraints() {
        if x.phase == 0 {
            partner.insert(*x, *y);
        }
        if y.phase == 0 {
            partner.insert(*y, *x);
        }
    }
    for (i, r) in raw.iter().enumerate() {
        assert!(partner.contains_key(r), "raw cell {i} bound to nothing");
    }
    // The statement limbs (h, x(Q), y(Q)) are the raw cells after R, s.
    let stmt: Vec<CellRef> = raw[RAW_CELLS_PER_SIGNATURE..]
        .iter()
        .map(|r| partner[r])
        .collect();
    // Each statement limb is copied to the last x2 of a limb_bytes chain: find, through the
    // copy classes of phase 1, that every statement limb shares a class with some linear row
    // output whose bytes are absorbed.
    let mut class: HashMap<CellRef, usize> = HashMap::new();
    let mut parent: Vec<usize> = Vec::new();
    fn root(p: &mut [usize], mut i: usize) -> usize {
        while p[i] != i {
            p[i] = p[p[i]];
            i = p[i];
        }
        i
    }
    let id = |c: CellRef, class: &mut HashMap<CellRef, usize>, p: &mut Vec<usize>| {
        *class.entry(c).or_insert_with(|| {
            p.push(p.len());
            p.len() - 1
        })
    };
    for (x, y) in b0.copy_constraints().iter().chain(b1.copy_constraints()) {
        let (a, b) = (
            id(*x, &mut class, &mut parent),
            id(*y, &mut class, &mut parent),
        );
        let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
        parent[ra] = rb;
    }
    let byte_sources: HashSet<u32> = byte_copies(b1)
        .iter()
        .filter(|(s, _)| (s.col as usize) < MAIN_COLS)
        .map(|(s, _)| s.row)
        .collect();
    for (i, l) in stmt.iter().enumerate() {
        let rl = root(&mut parent, class[l]);
        let chain_end = class.iter().any(|(cell, &ci)| {
            cell.phase == 1
                && cell.col == 2
                && byte_sources.contains(&cell.row)
                && root(&mut parent, ci) == rl
        });
        assert!(
            chain_end,
            "statement limb {i} is not the end of a byte chain"
        );
    }
    // "h, Q changed after the challenges": phase 1 is the honest witness of ANOTHER valid
    // signature (its own hash and key, its own D in the instance) while phase 0 keeps this
    // one's committed h, x(Q), y(Q) limbs. Only the phase-0 ↔ phase-1 copies can object, and
    // they must: every failure is a permutation failure.
    let (c2, k2) = BatchEcdsaCircuit::fitted(
        vec![ecdsa_witness(132)],
        &FitOptions::default()
            .window(DEFAULT_BATCH_WINDOW)
            .statement(Statement::Digest),
    );
    assert_eq!(k2, k);
    mock_verify(k2, &c2).expect("valid");
    let b0_mine: HashMap<CellRef, Native> = b0.advice_cells().iter().copied().collect();
    let other = c2.layout_builders();
    let mut adv = Adversary::default();
    let mut changed = 0;
    for (cell, v) in other[0].advice_cells().iter().skip(RAW_CELLS_PER_SIGNATURE) {
        if b0_mine[cell] != *v {
            changed += 1;
        }
        adv.cells.insert(*cell, b0_mine[cell]);
    }
    assert!(changed >= 8, "the two statements differ in their limbs");
    let f = failures(
        k2,
        &Tampered {
            inner: c2.clone(),
            adversary: adv,
        },
    );
    println!("phase-1 statement swapped: {} failure(s)", f.len());
    assert!(
        !f.is_empty(),
        "h, Q of phase 1 differ from phase 0: accepted"
    );
    for x in &f {
        assert!(
            matches!(x, VerifyFailure::Permutation { .. }),
            "not a copy failure: {x:?}"
        );
    }
}
