//! `evm-outer-cells [--k K] [--json FILE]` (feature `aggregate`): **where the outer circuit's
//! cells go.** Lays out snark-verifier-sdk's aggregation circuit (no keys, no proof) over small
//! synthetic inner proofs that differ in one feature at a time: advice columns, rotations of one
//! column, lookup arguments, fixed columns; and prints, per inner proof, its shape as
//! snark-verifier compiles it (witness commitments, preprocessed commitments, evaluations in the
//! proof, queries) beside the outer advice and lookup cells, then what one more of each feature
//! costs (the difference to the base, per unit). The outer cell count does not depend on the
//! inner k or B, only on this shape, so these unit costs explain the batch circuit's figures:
//! `docs/results.md`, *Where the outer cells go*. With `--statements` it then proves the
//! batch circuit at B = 1 under each statement (keys, digest), lays out the outer circuit over
//! those real proofs, and prints their shape, their outer cells and what the unit costs
//! predict for them (the model: base + per commitment × commitments + per evaluation ×
//! evaluations, fitted on the advice and rotation rows).
//!
//! Uses the setup `--params-dir` holds or makes (`SetupArgs`: a ceremony file, the local setup
//! or the insecure development one; k = K, default 22, the inner proofs at their k under the
//! same τ). About a minute per shape on 2 cores.

use std::path::PathBuf;
use std::process::ExitCode;

use batch_ecdsa::calldata::rows::OuterShape;
use batch_ecdsa::cli::SetupArgs;
use batch_ecdsa::prover::phases::Phases;
use batch_ecdsa_circuits::ecdsa::Statement;
use batch_ecdsa_evm::aggregation_prover::{inner_k, inner_snark, load_setup};
use batch_ecdsa_evm::outer_keys::outer_layout;
use clap::Parser;
use halo2_proofs::circuit::{Layouter, SimpleFloorPlanner, Value};
use halo2_proofs::halo2curves::bn256::{Bn256, Fr};
use halo2_proofs::plonk::{
    keygen_pk, keygen_vk, Advice, Circuit, Column, ConstraintSystem, Error, Fixed, Instance,
    Selector, TableColumn,
};
use halo2_proofs::poly::kzg::commitment::ParamsKZG;
use halo2_proofs::poly::Rotation;
use serde::{Deserialize, Serialize};
use snark_verifier_sdk::halo2::gen_proof_shplonk;
use snark_verifier_sdk::snark_verifier::system::halo2::{compile, Config};
use snark_verifier_sdk::Snark;

/// The synthetic inner circuit's features.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
struct Features {
    /// Advice columns (besides the one copied to the public input).
    advice: usize,
    /// Rotations at which the first advice column is queried (1: the current row only).
    rotations: usize,
    /// Lookup arguments (each one advice column into one table).
    lookups: usize,
    /// Fixed columns read by the gate.
    fixed: usize,
}

#[derive(Clone)]
struct SynthConfig {
    advice: Vec<Column<Advice>>,
    public: Column<Advice>,
    instance: Column<Instance>,
    fixed: Vec<Column<Fixed>>,
    table: TableColumn,
    q: Selector,
}

#[derive(Clone, Default)]
struct Synth(Features);

impl Circuit<Fr> for Synth {
    type Config = SynthConfig;
    type FloorPlanner = SimpleFloorPlanner;
    type Params = Features;

    fn without_witnesses(&self) -> Self {
        self.clone()
    }
    fn params(&self) -> Features {
        self.0
    }
    fn configure_with_params(meta: &mut ConstraintSystem<Fr>, f: Features) -> SynthConfig {
        let advice: Vec<_> = (0..f.advice).map(|_| meta.advice_column()).collect();
        let public = meta.advice_column();
        let instance = meta.instance_column();
        meta.enable_equality(public);
        meta.enable_equality(instance);
        let fixed: Vec<_> = (0..f.fixed).map(|_| meta.fixed_column()).collect();
        let table = meta.lookup_table_column();
        let q = meta.complex_selector();
        meta.create_gate("reads everything", |m| {
            let q = m.query_selector(q);
            let mut sum = m.query_advice(public, Rotation::cur());
            for (i, &a) in advice.iter().enumerate() {
                let rots = if i == 0 { f.rotations.max(1) } else { 1 };
                for r in 0..rots {
                    sum = sum + m.query_advice(a, Rotation(r as i32));
                }
            }
            for &c in &fixed {
                sum = sum
                    + m.query_fixed(c, Rotation::cur()) * m.query_advice(public, Rotation::cur());
            }
            vec![q * sum]
        });
        for l in 0..f.lookups {
            let a = advice[l % advice.len().max(1)];
            meta.lookup("synthetic", |m| {
                let q = m.query_selector(q);
                vec![(q * m.query_advice(a, Rotation::cur()), table)]
            });
        }
        SynthConfig {
            advice,
            public,
            instance,
            fixed,
            table,
            q,
        }
    }
    fn configure(_: &mut ConstraintSystem<Fr>) -> SynthConfig {
        unreachable!("configured with its features")
    }
    fn synthesize(&self, c: SynthConfig, mut layouter: impl Layouter<Fr>) -> Result<(), Error> {
        layouter.assign_table(
            || "table",
            |mut t| {
                for i in 0..16 {
                    t.assign_cell(|| "entry", c.table, i, || Value::known(Fr::from(i as u64)))?;
                }
                Ok(())
            },
        )?;
        let cell = layouter.assign_region(
            || "all zero",
            |mut region| {
                c.q.enable(&mut region, 0)?;
                for &a in &c.advice {
                    for row in 0..self.0.rotations.max(1) {
                        region.assign_advice(a, row, Value::known(Fr::zero()));
                    }
                }
                for &f in &c.fixed {
                    region.assign_fixed(f, 0, Fr::from(1));
                }
                Ok(region.assign_advice(c.public, 0, Value::known(Fr::zero())))
            },
        )?;
        layouter.constrain_instance(cell.cell(), c.instance, 0);
        Ok(())
    }
}

/// Measures the outer circuit's cells over synthetic inner proofs.
#[derive(Parser, Debug)]
#[command(name = "evm-outer-cells", version)]
struct Args {
    /// The outer k (lookup bits k − 1), as the aggregated route uses it.
    #[arg(long, default_value_t = 22)]
    k: u32,
    #[command(flatten)]
    setup: SetupArgs,
    /// Also write the rows (JSON lines) here.
    #[arg(long)]
    json: Option<PathBuf>,
    /// Also lay out the outer circuit over the batch circuit's own proofs (B = 1, keys and
    /// digest statements) and check the unit-cost model against them.
    #[arg(long)]
    statements: bool,
}

/// One inner proof's shape and its outer cells.
#[derive(Debug, Serialize)]
struct Row {
    /// The synthetic circuit's features (absent for the batch circuit's proofs).
    #[serde(skip_serializing_if = "Option::is_none")]
    features: Option<Features>,
    /// The batch circuit's statement (absent for synthetic proofs).
    #[serde(skip_serializing_if = "Option::is_none")]
    statement: Option<String>,
    witness_commitments: usize,
    preprocessed_commitments: usize,
    evaluations: usize,
    queries: usize,
    quotient_chunks: usize,
    outer_advice_cells: usize,
    outer_lookup_cells: usize,
    /// What the unit-cost model predicts (statement rows only).
    #[serde(skip_serializing_if = "Option::is_none")]
    model_advice_cells: Option<usize>,
}

impl Row {
    fn of(snark: &Snark, outer_params: &ParamsKZG<Bn256>, shape: OuterShape) -> Row {
        let (layout, _, _) = outer_layout(outer_params, snark, shape);
        let p = &snark.protocol;
        Row {
            features: None,
            statement: None,
            witness_commitments: p.num_witness.iter().sum(),
            preprocessed_commitments: p.preprocessed.len(),
            evaluations: p.evaluations.len(),
            queries: p.queries.len(),
            quotient_chunks: p.quotient.num_chunk(),
            outer_advice_cells: layout.advice_cells,
            outer_lookup_cells: layout.lookup_cells,
            model_advice_cells: None,
        }
    }

    /// Commitments the outer circuit takes into its MSM: witness, preprocessed, quotient.
    fn commitments(&self) -> usize {
        self.witness_commitments + self.preprocessed_commitments + self.quotient_chunks
    }
}

/// The unit-cost model of the outer advice cells, fitted on the synthetic rows: one evaluation
/// from the rotation row (a query of a column already committed), one commitment from the
/// advice row less its evaluation.
struct Model {
    base_cells: f64,
    base_commitments: f64,
    base_evaluations: f64,
    per_commitment: f64,
    per_evaluation: f64,
}

impl Model {
    fn fit(base: &Row, advice: &Row, rotations: &Row) -> Model {
        let d = |a: usize, b: usize| a as f64 - b as f64;
        let per_evaluation = d(rotations.outer_advice_cells, base.outer_advice_cells)
            / d(rotations.evaluations, base.evaluations);
        let per_commitment = (d(advice.outer_advice_cells, base.outer_advice_cells)
            - per_evaluation * d(advice.evaluations, base.evaluations))
            / d(advice.commitments(), base.commitments());
        Model {
            base_cells: base.outer_advice_cells as f64,
            base_commitments: base.commitments() as f64,
            base_evaluations: base.evaluations as f64,
            per_commitment,
            per_evaluation,
        }
    }

    fn predict(&self, r: &Row) -> usize {
        (self.base_cells
            + self.per_commitment * (r.commitments() as f64 - self.base_commitments)
            + self.per_evaluation * (r.evaluations as f64 - self.base_evaluations))
            .round() as usize
    }
}

fn snark(params: &ParamsKZG<Bn256>, f: Features) -> Snark {
    let circuit = Synth(f);
    let vk = keygen_vk(params, &circuit).expect("synthetic keygen_vk");
    let pk = keygen_pk(params, vk, &circuit).expect("synthetic keygen_pk");
    let instances = vec![vec![Fr::zero()]];
    let protocol = compile(
        params,
        pk.get_vk(),
        Config::kzg().with_num_instance(vec![1]),
    );
    let proof = gen_proof_shplonk(params, &pk, circuit, instances.clone(), None);
    Snark::new(protocol, instances, proof)
}

fn run(args: &Args) -> Result<(), String> {
    let (inner, outer) = load_setup(&args.setup.source(), &args.setup.params_dir, 8, args.k)?;
    let shape = OuterShape {
        k: args.k,
        lookup_bits: args.k as usize - 1,
    };
    let base = Features {
        advice: 1,
        rotations: 1,
        lookups: 0,
        fixed: 0,
    };
    let variants = [
        ("base", base, 0),
        ("advice +10", Features { advice: 11, ..base }, 10),
        (
            "rotations +10",
            Features {
                rotations: 11,
                ..base
            },
            10,
        ),
        ("lookups +4", Features { lookups: 4, ..base }, 4),
        ("fixed +10", Features { fixed: 10, ..base }, 10),
    ];
    let mut rows = Vec::new();
    for (name, f, _) in &variants {
        let s = snark(&inner.params, *f);
        let row = Row {
            features: Some(*f),
            ..Row::of(&s, &outer.params, shape)
        };
        eprintln!("{name}: {row:?}");
        rows.push(row);
    }
    let model = Model::fit(&rows[0], &rows[1], &rows[2]);
    if args.statements {
        for statement in [Statement::Keys, Statement::Digest] {
            let k = inner_k(1, statement).map_err(|e| e.to_string())?;
            let (inner, _) = load_setup(&args.setup.source(), &args.setup.params_dir, k, args.k)?;
            let keys_dir = args.setup.params_dir.join("keys");
            let proof = inner_snark(
                1,
                statement,
                &inner.params,
                &keys_dir,
                &mut Phases::silent(),
            )?;
            let mut row = Row {
                statement: Some(statement.to_string()),
                ..Row::of(&proof.snark, &outer.params, shape)
            };
            row.model_advice_cells = Some(model.predict(&row));
            eprintln!("{statement} (B = 1, k = {k}): {row:?}");
            rows.push(row);
        }
    }
    for row in &rows {
        println!("{}", serde_json::to_string(row).map_err(|e| e.to_string())?);
    }
    if let Some(path) = &args.json {
        let text: String = rows
            .iter()
            .map(|r| serde_json::to_string(r).map(|s| s + "\n"))
            .collect::<Result<_, _>>()
            .map_err(|e| e.to_string())?;
        std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    let b = &rows[0];
    println!("| one more | witness commitments | preprocessed | evaluations | outer advice cells | outer lookup cells |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: |");
    for ((name, _, units), r) in variants.iter().zip(&rows).skip(1) {
        let per = |x: usize, y: usize| (x as f64 - y as f64) / *units as f64;
        println!(
            "| {} | {:.2} | {:.2} | {:.2} | {:.0} | {:.0} |",
            name.split(' ').next().unwrap_or(name),
            per(r.witness_commitments, b.witness_commitments),
            per(r.preprocessed_commitments, b.preprocessed_commitments),
            per(r.evaluations, b.evaluations),
            per(r.outer_advice_cells, b.outer_advice_cells),
            per(r.outer_lookup_cells, b.outer_lookup_cells),
        );
    }
    println!(
        "model: {:.0} cells + {:.0} per commitment (witness, preprocessed, quotient) + {:.0} per evaluation beyond the base's {} and {}",
        model.base_cells, model.per_commitment, model.per_evaluation, model.base_commitments, model.base_evaluations
    );
    for r in rows.iter().filter(|r| r.statement.is_some()) {
        println!(
            "{}: {} commitments ({} witness, {} preprocessed, {} quotient), {} evaluations: {} outer advice cells, model {}",
            r.statement.as_deref().unwrap_or(""),
            r.commitments(),
            r.witness_commitments,
            r.preprocessed_commitments,
            r.quotient_chunks,
            r.evaluations,
            r.outer_advice_cells,
            r.model_advice_cells.unwrap_or(0)
        );
    }
    Ok(())
}

fn main() -> ExitCode {
    if let Some(code) = batch_ecdsa::cpu::refusal() {
        return code;
    }
    match run(&Args::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
