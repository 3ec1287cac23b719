//! The configuration that every circuit built on these chips uses: one column group per phase,
//! the shared `(tag, value)` range table, and the gates of the range and field layers.

use halo2_proofs::circuit::Layouter;
use std::collections::HashMap;

use halo2_proofs::circuit::{Cell, Value};
use halo2_proofs::plonk::{
    Advice, Challenge, Circuit, Column, ConstraintSystem, Error, FirstPhase, TableColumn,
};
use num_bigint::BigUint;

use crate::bigint::modulus;
use crate::layout::{
    assign_builder, configure_instance_gate, configure_linear_row, lane_of, load_range_table,
    local_row, Builder, CellRef, FixedId, GateId, GroupConfig, LayoutParams, Native,
    CHALLENGES_PER_GATE, INSTANCE, LINEAR_ROW, LINEAR_ROW_COLUMNS, MAIN_COLS,
};

/// `CHALLENGE.at(k)`: the gate pinning challenges `16k .. 16k + 15` (see
/// [`configure_challenge_gate`]).
pub const CHALLENGE: GateId = GateId::new("challenges");

use halo2curves::secp256k1::{Fp, Fq};

/// Column groups (index = phase), the range table, and the registered emulated moduli.
#[derive(Clone, Debug)]
pub struct CircuitConfig {
    /// Column groups, phase-major: phase 0's lanes, then phase 1's. `groups[0]` (lane 0 of the
    /// first phase with groups) holds the point tables.
    pub groups: Vec<GroupConfig>,
    /// The phase-0 commit column when `params.commit_phase0` (then phase 0 has no groups): a
    /// first-phase advice column with equality, no gates, no lookups.
    pub commit: Option<Column<Advice>>,
    pub table: (TableColumn, TableColumn),
    pub params: LayoutParams,
    pub moduli: Vec<BigUint>,
    /// A challenge drawn after the first-phase advice is committed (when `phases ≥ 2`): the
    /// first of `challenges`.
    pub challenge: Option<Challenge>,
    /// All `params.num_challenges()` challenges drawn after the first-phase advice is
    /// committed (empty when `phases < 2`); challenge j is pinned by the gate `CHALLENGE.at(j / 16)`.
    pub challenges: Vec<Challenge>,
    /// The Keccak tables, when `params.keccak_digits > 0`.
    pub keccak: Option<crate::keccak::gates::KeccakTables>,
}

impl CircuitConfig {
    /// Configures `params.phases` column groups with the gates, fixed columns and lookups of
    /// every layer; `moduli[i]` gets the relation gates `field::gates::RELATION.at(i)` and
    /// `RELATION_FACTOR.at(i)`.
    pub fn configure(
        meta: &mut ConstraintSystem<Native>,
        params: LayoutParams,
        moduli: Vec<BigUint>,
    ) -> Self {
        let table = (meta.lookup_table_column(), meta.lookup_table_column());
        let first = params.first_group_phase();
        let commit = (first == 1).then(|| {
            let c = meta.advice_column_in(FirstPhase);
            meta.enable_equality(c);
            c
        });
        // The fixed columns and selectors each layer declares, in allocation order (part of the
        // verifying key): range, the layout's linear row, field, ecc; the challenge gates on
        // lane 0 of the later phases.
        // The Keccak layer's are on lane 0 only, where its columns are.
        let fixed_of = |lane: usize| -> Vec<FixedId> {
            let mut v = [
                crate::range::gates::fixed_columns(&params),
                LINEAR_ROW_COLUMNS.to_vec(),
                crate::ecc::gates::FIXED_COLUMNS.to_vec(),
            ]
            .concat();
            if lane == 0 {
                v.extend(crate::keccak::gates::fixed_columns(&params));
            }
            v
        };
        let gates_of = |phase: u8, lane: usize| -> Vec<GateId> {
            let mut v = crate::range::gates::GATES.to_vec();
            v.push(LINEAR_ROW);
            v.extend(crate::field::gates::gates(&params, moduli.len()));
            if phase >= 1 && lane == 0 {
                v.extend((0..params.challenge_gates()).map(|k| CHALLENGE.at(k)));
            }
            if lane == 0 {
                v.extend(crate::keccak::gates::gates(&params));
            }
            v
        };
        let groups: Vec<GroupConfig> = (first..params.phases)
            .flat_map(|ph| (0..params.lanes_of(ph)).map(move |lane| (ph, lane)))
            .map(|(ph, lane)| {
                GroupConfig::configure(
                    meta,
                    ph,
                    lane,
                    &params,
                    &fixed_of(lane),
                    &gates_of(ph, lane),
                )
            })
            .collect();
        for g in &groups {
            crate::range::gates::configure_lookups(meta, g, table);
        }
        // Point tables live in groups[0]; every group's queries look them up there.
        for g in &groups {
            crate::range::gates::configure(meta, g);
            configure_linear_row(meta, g);
            crate::field::gates::configure(meta, g, &moduli);
            crate::ecc::gates::configure(meta, g, &groups[0]);
        }
        let challenges: Vec<Challenge> = if params.phases >= 2 {
            (0..params.num_challenges())
                .map(|_| meta.challenge_usable_after(FirstPhase))
                .collect()
        } else {
            Vec::new()
        };
        let challenge = challenges.first().copied();
        // Keccak last (tables, gates, lookups), and only when configured: the keys of circuits
        // without Keccak do not change.
        let keccak = (params.keccak_digits > 0).then(|| {
            let t = crate::keccak::gates::KeccakTables::configure(meta, &params);
            for g in &groups {
                crate::keccak::gates::configure(meta, g, &t);
            }
            t
        });
        for g in groups.iter().filter(|g| g.phase >= 1 && g.lane == 0) {
            for (k, block) in challenges.chunks(CHALLENGES_PER_GATE).enumerate() {
                configure_challenge_gate(meta, g, k, block.to_vec());
            }
        }
        Self {
            groups,
            commit,
            table,
            params,
            moduli,
            challenge,
            challenges,
            keccak,
        }
    }

    /// Creates the instance column and its gate on lane 0 of the last phase: with the
    /// `Instance` selector on row `i`, `s·(col0[i] − instance[i]) = 0`. The instance column has
    /// no equality (one permutation column less: a smaller proof); public cells are copied
    /// to the mirror cells of [`Builder::mirror_instance`] instead.
    pub(crate) fn configure_instance(
        &mut self,
        meta: &mut ConstraintSystem<Native>,
    ) -> Column<halo2_proofs::plonk::Instance> {
        let instance = meta.instance_column();
        let last = self.params.phases - 1;
        let g = self
            .groups
            .iter_mut()
            .find(|g| g.phase == last && g.lane == 0)
            .expect("the last phase has a column group");
        let s = meta.selector();
        g.selectors.push((INSTANCE, s));
        configure_instance_gate(meta, g, s, instance);
        instance
    }

    /// The configuration with secp256k1 `Fp` as modulus 0 and `Fq` as modulus 1.
    pub fn configure_secp256k1(meta: &mut ConstraintSystem<Native>, params: LayoutParams) -> Self {
        Self::configure(meta, params, vec![modulus::<Fp>(), modulus::<Fq>()])
    }

    /// Assigns the range table (once per circuit).
    pub fn load_table(&self, layouter: &mut impl Layouter<Native>) -> Result<(), Error> {
        load_range_table(layouter, self.table, &self.params)?;
        if let Some(t) = &self.keccak {
            t.load(layouter)?;
        }
        Ok(())
    }

    /// Assigns the builder of one phase into that phase's column groups, or, for phase 0 of a
    /// configuration with a commit column, into the commit column ([`Self::assign_commit`]).
    /// `cells` must be the same map for every phase of a synthesis: it lets a later phase copy
    /// earlier cells. Call `layouter.next_phase()` between phases, and build a later phase's
    /// builder only after reading the challenge (`layouter.get_challenge`).
    pub fn assign_phase(
        &self,
        layouter: &mut impl Layouter<Native>,
        b: &Builder,
        cells: &mut HashMap<CellRef, Cell>,
    ) -> Result<(), Error> {
        if let (0, Some(col)) = (b.phase, self.commit) {
            return Self::assign_commit(layouter, col, b, cells);
        }
        let lanes = self.lanes(b.phase);
        layouter.assign_region(
            || "phase",
            |mut region| assign_builder(&mut region, &lanes, b, cells),
        )
    }

    /// Assigns a phase-0 builder into the commit column `col`: every advice cell at its row
    /// (the builder must use only column 0 and have no gates, fixed values or copies: the
    /// commit column has none). Registers the cells in `cells` so later phases can copy them.
    fn assign_commit(
        layouter: &mut impl Layouter<Native>,
        col: Column<Advice>,
        b: &Builder,
        cells: &mut HashMap<CellRef, Cell>,
    ) -> Result<(), Error> {
        let plain = b.phase == 0
            && b.fixed_cells().is_empty()
            && b.enabled_gates().is_empty()
            && b.copy_constraints().is_empty()
            && b.advice_cells()
                .iter()
                .all(|(c, _)| c.col == 0 && lane_of(c.row) == 0);
        if !plain {
            return Err(Error::Synthesis);
        }
        layouter.assign_region(
            || "phase 0 commit",
            |mut region| {
                for (c, v) in b.advice_cells() {
                    #[cfg(feature = "testing")]
                    let v = &crate::layout::adversary::cell_override(c).unwrap_or(*v);
                    let a = region.assign_advice(col, local_row(c.row) as usize, Value::known(*v));
                    cells.insert(*c, a.cell());
                }
                #[cfg(feature = "testing")]
                for (c, v) in crate::layout::adversary::phase_overrides(0) {
                    if !cells.contains_key(&c) && c.col == 0 && lane_of(c.row) == 0 {
                        region.assign_advice(col, local_row(c.row) as usize, Value::known(v));
                    }
                }
                Ok(())
            },
        )
    }

    /// The column groups of phase `phase`, index = lane.
    pub fn lanes(&self, phase: u8) -> Vec<&GroupConfig> {
        self.groups.iter().filter(|g| g.phase == phase).collect()
    }

    /// Assigns the table and a single first-phase builder (the test harness's circuits).
    #[cfg(feature = "testing")]
    pub(crate) fn assign_single_phase(
        &self,
        layouter: &mut impl Layouter<Native>,
        b: &Builder,
    ) -> Result<(), Error> {
        self.load_table(layouter)?;
        let lanes = self.lanes(0);
        layouter.assign_region(
            || "phase 0",
            |mut region| {
                let mut cells = std::collections::HashMap::new();
                assign_builder(&mut region, &lanes, b, &mut cells)
            },
        )
    }
}

/// The gate of challenges `16k .. 16k + 15` on lane 0 of a later phase: with its selector on
/// row `r`, challenge `16k + j` must equal the cell at main column `j mod 4`, row `r + j / 4`
/// (`s·(cell − c) = 0`), where each `c` is a challenge of the proof system drawn after the
/// first-phase advice is committed (`meta.query_challenge`). A cell under this gate is
/// therefore not a free witness: it equals the transcript's challenge, which the prover cannot
/// choose once phase 0 is committed. One selector per 16 challenges keeps the proof small.
/// Reads: exactly the cells of this gate's challenges (the last gate's block may be shorter
/// than 16 and reads only its own), all assigned by `ecdsa::challenge::load_challenge_cells`.
fn configure_challenge_gate(
    meta: &mut ConstraintSystem<Native>,
    g: &GroupConfig,
    k: usize,
    challenges: Vec<Challenge>,
) {
    let g = g.clone();
    meta.create_gate("challenges", move |m| {
        let s = m.query_selector(g.selector(CHALLENGE.at(k)));
        challenges
            .iter()
            .enumerate()
            .map(|(j, ch)| {
                let x = m.query_advice(
                    g.main[j % MAIN_COLS],
                    halo2_proofs::poly::Rotation((j / MAIN_COLS) as i32),
                );
                s.clone() * (x - m.query_challenge(*ch))
            })
            .collect::<Vec<_>>()
    });
}

/// The configuration of a circuit with one instance column: the chip configuration plus the
/// instance column and its gate ([`CircuitConfig::configure_instance`]). Both ECDSA circuits
/// use it.
#[derive(Clone, Debug)]
pub struct InstanceConfig {
    pub base: CircuitConfig,
    pub instance: Column<halo2_proofs::plonk::Instance>,
}

impl InstanceConfig {
    /// secp256k1's moduli (`CircuitConfig::configure_secp256k1`) and one instance column.
    pub fn configure(meta: &mut ConstraintSystem<Native>, params: LayoutParams) -> Self {
        let mut base = CircuitConfig::configure_secp256k1(meta, params);
        let instance = base.configure_instance(meta);
        Self { base, instance }
    }
}

/// `impl Circuit<Native> for $circuit`, with what every circuit on these chips shares: the
/// simple floor planner and [`LayoutParams`] as the circuit parameters; the layout depends
/// only on the circuit's `params` field, never on witness values, so `without_witnesses` is a
/// clone (keygen reads only fixed columns and selectors); `configure_with_params` is
/// `$configure(meta, params)` and `configure` uses `$default`. The circuit's own part is the
/// body of `synthesize`, written as `|self, config, layouter| { .. }`.
macro_rules! impl_layout_circuit {
    (
        $circuit:ty,
        $config:ty,
        $configure:path,
        $default:expr,
        |$self:ident, $cfg:ident, $layouter:ident| $body:block
    ) => {
        impl ::halo2_proofs::plonk::Circuit<$crate::layout::Native> for $circuit {
            type Config = $config;
            type FloorPlanner = ::halo2_proofs::circuit::SimpleFloorPlanner;
            type Params = $crate::layout::LayoutParams;

            fn without_witnesses(&self) -> Self {
                self.clone()
            }

            fn params(&self) -> $crate::layout::LayoutParams {
                self.params.clone()
            }

            fn configure_with_params(
                meta: &mut ::halo2_proofs::plonk::ConstraintSystem<$crate::layout::Native>,
                params: $crate::layout::LayoutParams,
            ) -> $config {
                $configure(meta, params)
            }

            fn configure(
                meta: &mut ::halo2_proofs::plonk::ConstraintSystem<$crate::layout::Native>,
            ) -> $config {
                $configure(meta, $default)
            }

            fn synthesize(
                &$self,
                $cfg: $config,
                #[allow(unused_mut)] mut $layouter: impl ::halo2_proofs::circuit::Layouter<
                    $crate::layout::Native,
                >,
            ) -> Result<(), ::halo2_proofs::plonk::Error> {
                $body
            }
        }
    };
}
pub(crate) use impl_layout_circuit;

/// A fresh constraint system configured by the circuit type `C` for `params`, and the chip
/// configuration inside `C`'s configuration (`base`).
pub fn configured<C: Circuit<Native, Params = LayoutParams>>(
    params: &LayoutParams,
    base: impl FnOnce(C::Config) -> CircuitConfig,
) -> (ConstraintSystem<Native>, CircuitConfig) {
    let mut cs = ConstraintSystem::default();
    let config = C::configure_with_params(&mut cs, params.clone());
    (cs, base(config))
}

/// What the harnesses need of a circuit built on these chips — the footprint check, the
/// mutation tests, the cell counts: its configured constraint system and chip configuration,
/// its builders (one per phase) and its instance column. Both ECDSA circuits implement it, so
/// one harness serves both.
pub trait LaidOutCircuit {
    /// A fresh constraint system configured as this circuit configures it, and the chip
    /// configuration inside it.
    fn configured(&self) -> (ConstraintSystem<Native>, CircuitConfig);
    /// The builders of every phase, in phase order. A later phase is built with the challenge
    /// values the last synthesis saw where the circuit records them (feature `testing`), else
    /// with 1: the layout does not depend on them.
    fn layout_builders(&self) -> Vec<Builder>;
    /// The values of the instance column (empty if the circuit has none).
    fn instance_values(&self) -> Vec<Native>;
}
