use batch_ecdsa_circuits::ecdsa::batch::{batch_params, BatchEcdsaCircuit};
use halo2_proofs::plonk::{Circuit, ConstraintSystem};
use halo2curves::bn256::Fr;
fn main() {
    let k: u32 = std::env::args()
        .nth(1)
        .map(|s| s.parse().unwrap())
        .unwrap_or(17);
    let mut p = batch_params(k - 1, 4);
    p.challenges = 16;
    let mut cs = ConstraintSystem::<Fr>::default();
    let _ = BatchEcdsaCircuit::configure_with_params(&mut cs, p);
    println!(
        "advice {} fixed {} selectors {} instance {} lookups {} degree {} blinding {}",
        cs.num_advice_columns(),
        cs.num_fixed_columns(),
        cs.num_selectors(),
        cs.num_instance_columns(),
        cs.lookups().len(),
        cs.degree(),
        cs.blinding_factors()
    );
    println!(
        "advice queries {} fixed queries {} perm cols {}",
        cs.advice_queries().len(),
        cs.fixed_queries().len(),
        cs.permutation().get_columns().len()
    );
    let mut fq: Vec<String> = cs
        .fixed_queries()
        .iter()
        .map(|(c, r)| format!("f{}@{}", c.index(), r.0))
        .collect();
    fq.sort();
    println!("{}", fq.join(" "));
    let mut aq: Vec<String> = cs
        .advice_queries()
        .iter()
        .map(|(c, r)| format!("a{}@{}", c.index(), r.0))
        .collect();
    aq.sort();
    println!("{}", aq.join(" "));
}
