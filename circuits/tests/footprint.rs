//! The footprint check (`batch_ecdsa_circuits::footprint`) on both circuits at several B and
//! every window, and on a deliberately broken gate: every cell a gate reads is assigned and
//! constrained.

use batch_ecdsa_circuits::ecdsa::batch::{batch_params, BatchEcdsaCircuit};
use batch_ecdsa_circuits::ecdsa::naive::NaiveEcdsaCircuit;
use batch_ecdsa_circuits::test_utils::{ecdsa_witness, Mutable};

#[test]
fn batch_circuit_footprint_every_window() {
    for w in [3u32, 4, 5] {
        for n in [1usize, 2, 3] {
            let sigs = (0..n as u64).map(|i| ecdsa_witness(100 + i)).collect();
            let c = BatchEcdsaCircuit::new(batch_params(16, w), sigs, w);
            let r = c.footprint();
            println!(
                "batch B={n} w={w}: {} reads, {} footprint cells",
                r.reads,
                r.footprint.len()
            );
            r.result()
                .unwrap_or_else(|e| panic!("batch B={n} w={w}: {e}"));
        }
    }
}

#[test]
fn naive_circuit_footprint_every_window() {
    for w in [3u32, 4, 5] {
        let sigs = vec![ecdsa_witness(7), ecdsa_witness(8)];
        let c =
            NaiveEcdsaCircuit::new(batch_ecdsa_circuits::layout::LayoutParams::new(16), sigs, w);
        let r = c.footprint();
        println!("naive B=2 w={w}: {} reads", r.reads);
        r.result().unwrap_or_else(|e| panic!("naive w={w}: {e}"));
    }
}

/// The layout before the fix (relation blocks leave absent operand slots unassigned) fails
/// the check, and the violation names the gate, row, column and rotation.
#[test]
fn unpinned_relation_blocks_fail_the_check() {
    use batch_ecdsa_circuits::layout::adversary::{with_adversary, Adversary};
    let c = BatchEcdsaCircuit::new(batch_params(16, 5), vec![ecdsa_witness(3)], 5);
    let adv = Adversary {
        unpinned: true,
        ..Adversary::default()
    };
    let r = with_adversary(adv, || c.footprint());
    let e = r.result().expect_err("the unpinned layout must fail");
    println!("{e}");
    assert!(e.contains("gate 'field relation'"), "{e}");
    assert!(e.contains("rotation"), "{e}");
}
