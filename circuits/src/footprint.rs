//! The footprint check: every cell a gate reads is assigned and constrained.
//!
//! A Halo2 verifier checks gates, copies, lookups and fixed values, never what the honest
//! prover happens to write. A cell that an enabled gate reads but the layout leaves unassigned
//! is therefore a free variable of the attacker (MockProver reads it as 0 and says nothing).
//! This check makes that class of bug impossible to bring back silently: after a circuit is
//! laid out it walks **every row of every gate polynomial and every lookup** of the configured
//! constraint system, with the fixed values and selectors the builders set, and computes which
//! advice cells each one really reads:
//!
//! * an advice query is *live* at a row unless the evaluation there multiplies it by zero
//!   (a disabled selector, a fixed coefficient that is 0 at that row, e.g. `α` of a relation
//!   without a second product, `next` of the last range row, `shift` of a row without a
//!   shifted chunk); sums are never assumed to cancel, so the check only errs towards
//!   reporting a read;
//! * **rule 1**: each live read must hit a cell the builders assign. A violation names the gate
//!   (and polynomial), the row, the column and the rotation;
//! * **rule 2**: each assigned cell must be constrained by something the verifier checks:
//!   itself or a cell of its copy class (copy constraints) is read live by a gate or a strict
//!   lookup. Cells marked free by their gadget (`Builder::mark_free`, with the reason in the
//!   gadget's doc) are exempt;
//! * a polynomial that is a non-zero constant at an enabled row can never hold: reported.
//!
//! Reads that are free by design, each with its reason in the gadget's doc:
//!
//! * `range chunk` lookups read every looked-up cell of every row. A looked-up cell that no
//!   gate reads (rows without a range row, unused chunk slots) only has to lie in the table
//!   section of its row's tag: it constrains nothing else, so it may stay unassigned (rule 1
//!   covers every such cell a gate does read). See `range::gates::configure_lookups`.
//! * The `ecc point table` lookup's table side reads columns 1–3 of the table group on every
//!   row. On a row whose fixed key is 0 those cells can only match an input whose key is 0,
//!   i.e. a row that is not a query (its whole input is multiplied by `lookup_in = 0`), so
//!   they select nothing and may hold anything. See `ecc::gates::configure`.
//!
//! Together with the mutation tests (each assigned cell changed alone must be caught, see
//! `test_utils`) and the adversarial prover (`layout::adversary`), this is how the crate
//! shows that the verifier, not the honest witness, pins every cell.

use std::collections::{HashMap, HashSet};
use std::fmt;

use ff::Field;
use halo2_proofs::plonk::{ConstraintSystem, Expression};

use crate::config::{CircuitConfig, LaidOutCircuit};
use crate::layout::{lane_of, local_row, Builder, CellRef, GroupConfig, Native, LANE_SHIFT};

/// Most violations a report keeps (the count is always exact).
pub const MAX_REPORTED: usize = 64;

/// One way the layout fails the check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Violation {
    /// A gate or lookup reads a cell no builder assigns.
    UnassignedRead {
        /// Gate name and polynomial index, or `lookup NAME input|table`.
        gate: String,
        /// The row the gate is evaluated at (absolute).
        row: usize,
        /// The column, in words.
        column: String,
        /// The rotation of the query.
        rotation: i32,
    },
    /// An assigned cell that nothing the verifier checks constrains.
    Unconstrained { cell: CellRef, column: String },
    /// A polynomial that is a non-zero constant at a row: unsatisfiable.
    AlwaysViolated { gate: String, row: usize },
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Violation::UnassignedRead {
                gate,
                row,
                column,
                rotation,
            } => write!(
                f,
                "{gate} at row {row} reads {column} at rotation {rotation} (row {}), which is not assigned",
                *row as i64 + *rotation as i64
            ),
            Violation::Unconstrained { cell, column } => write!(
                f,
                "{column}, row {} is assigned but no gate, lookup or copy constrains it",
                local_row(cell.row)
            ),
            Violation::AlwaysViolated { gate, row } => {
                write!(f, "{gate} is a non-zero constant at row {row}")
            }
        }
    }
}

/// What the check found.
#[derive(Clone, Debug, Default)]
pub struct FootprintReport {
    /// The first [`MAX_REPORTED`] violations.
    pub violations: Vec<Violation>,
    /// Number of violations in all.
    pub violation_count: usize,
    /// Live (gate or strict lookup) reads checked.
    pub reads: usize,
    /// Every cell read live by a gate or a strict lookup (assigned or not), sorted: the
    /// footprint an adversary would write into.
    pub footprint: Vec<FootprintCell>,
}

/// A cell of the footprint with what the builders hold there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FootprintCell {
    pub cell: CellRef,
    /// The honest value, `None` where no builder assigns the cell (a violation).
    pub value: Option<Native>,
    /// Marked free by its gadget (`Builder::mark_free`).
    pub free: bool,
}

impl FootprintReport {
    pub fn is_ok(&self) -> bool {
        self.violation_count == 0
    }

    /// `Ok` when there is no violation, else the violations in words.
    pub fn result(&self) -> Result<(), String> {
        if self.is_ok() {
            return Ok(());
        }
        let mut s = format!("{} footprint violation(s):", self.violation_count);
        for v in &self.violations {
            s.push_str("\n  ");
            s.push_str(&v.to_string());
        }
        Err(s)
    }
}

/// How a lookup's reads are checked (see the module doc for the two relaxed kinds).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LookupPolicy {
    /// The input only bounds its cells (`range chunk`): not checked here.
    InputBoundsOnly,
    /// Table rows whose first table expression (the key) is 0 select nothing
    /// (`ecc point table`): their table-side reads are free.
    KeyedTable,
    /// Every live read must be assigned.
    Strict,
}

fn lookup_policy(name: &str) -> LookupPolicy {
    match name {
        "range chunk" => LookupPolicy::InputBoundsOnly,
        "ecc point table" => LookupPolicy::KeyedTable,
        _ => LookupPolicy::Strict,
    }
}

/// The value of an expression at one row, as far as fixed values and selectors tell.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Sym {
    Zero,
    Const(Native),
    /// Depends on advice, instance, challenges or a fixed column the builders do not own.
    Var,
}

/// Where an advice column belongs: (phase, lane, builder column); `None` lane = commit column.
#[derive(Clone, Copy, Debug)]
struct AdviceHome {
    phase: u8,
    lane: usize,
    col: usize,
}

struct Tables {
    fixed: HashMap<(usize, usize), Native>,
    owned_fixed: HashSet<usize>,
    selectors: HashSet<(usize, usize)>,
    assigned: HashSet<(usize, usize)>,
    homes: HashMap<usize, AdviceHome>,
}

impl Tables {
    fn eval(&self, e: &Expression<Native>, row: usize, reads: &mut Vec<(usize, i32)>) -> Sym {
        let at = |rot: i32| -> Option<usize> {
            let r = row as i64 + rot as i64;
            (r >= 0).then_some(r as usize)
        };
        match e {
            Expression::Constant(c) => konst(*c),
            Expression::Selector(s) => {
                if self.selectors.contains(&(s.index(), row)) {
                    Sym::Const(Native::ONE)
                } else {
                    Sym::Zero
                }
            }
            Expression::Fixed(q) => {
                let col = q.column_index();
                match at(q.rotation().0) {
                    Some(r) if self.owned_fixed.contains(&col) => {
                        konst(self.fixed.get(&(col, r)).copied().unwrap_or(Native::ZERO))
                    }
                    _ => Sym::Var,
                }
            }
            Expression::Advice(q) => {
                reads.push((q.column_index(), q.rotation().0));
                Sym::Var
            }
            Expression::Instance(_) | Expression::Challenge(_) => Sym::Var,
            Expression::Negated(a) => match self.eval(a, row, reads) {
                Sym::Const(c) => Sym::Const(-c),
                x => x,
            },
            Expression::Sum(a, b) => {
                let (x, y) = (self.eval(a, row, reads), self.eval(b, row, reads));
                match (x, y) {
                    (Sym::Zero, y) => y,
                    (x, Sym::Zero) => x,
                    (Sym::Const(p), Sym::Const(q)) => konst(p + q),
                    _ => Sym::Var,
                }
            }
            Expression::Product(a, b) => {
                let mark = reads.len();
                let x = self.eval(a, row, reads);
                if x == Sym::Zero {
                    reads.truncate(mark);
                    return Sym::Zero;
                }
                let y = self.eval(b, row, reads);
                match (x, y) {
                    (_, Sym::Zero) => {
                        reads.truncate(mark);
                        Sym::Zero
                    }
                    (Sym::Const(p), Sym::Const(q)) => konst(p * q),
                    _ => Sym::Var,
                }
            }
            Expression::Scaled(a, f) => {
                let mark = reads.len();
                if *f == Native::ZERO {
                    return Sym::Zero;
                }
                match self.eval(a, row, reads) {
                    Sym::Zero => {
                        reads.truncate(mark);
                        Sym::Zero
                    }
                    Sym::Const(c) => konst(c * f),
                    Sym::Var => Sym::Var,
                }
            }
        }
    }

    fn cell_of(&self, col: usize, row: usize) -> Option<CellRef> {
        let h = self.homes.get(&col)?;
        let lane = if h.lane == usize::MAX {
            0
        } else {
            h.lane as u32
        };
        Some(CellRef {
            phase: h.phase,
            row: (lane << LANE_SHIFT) | row as u32,
            col: h.col as u16,
        })
    }

    fn column_name(&self, col: usize) -> String {
        match self.homes.get(&col) {
            Some(h) if h.lane == usize::MAX => format!("the phase-{} commit column", h.phase),
            Some(h) => format!(
                "phase {} lane {} column {} (advice #{col})",
                h.phase, h.lane, h.col
            ),
            None => format!("advice #{col} (not a column of this configuration)"),
        }
    }
}

fn konst(c: Native) -> Sym {
    if c == Native::ZERO {
        Sym::Zero
    } else {
        Sym::Const(c)
    }
}

fn group_homes(groups: &[GroupConfig]) -> HashMap<usize, AdviceHome> {
    let mut homes = HashMap::new();
    for g in groups {
        for col in 0..g.num_advice() {
            homes.insert(
                g.advice(col).index(),
                AdviceHome {
                    phase: g.phase,
                    lane: g.lane,
                    col,
                },
            );
        }
    }
    homes
}

/// [`check_footprint`] of a whole circuit: its configured constraint system and its builders.
pub fn check_circuit(circuit: &impl LaidOutCircuit) -> FootprintReport {
    let (cs, config) = circuit.configured();
    let builders = circuit.layout_builders();
    let refs: Vec<&Builder> = builders.iter().collect();
    check_footprint(&cs, &config, &refs)
}

/// Checks the layout of `builders` (one per phase, each assigned into `config` as the
/// circuits do: a phase-0 builder into the commit column when the configuration has one)
/// against the gates and lookups of `cs`, the constraint system `config` was configured in.
/// See the module doc for the rules.
pub fn check_footprint(
    cs: &ConstraintSystem<Native>,
    config: &CircuitConfig,
    builders: &[&Builder],
) -> FootprintReport {
    let mut homes = group_homes(&config.groups);
    if let Some(c) = config.commit {
        homes.insert(
            c.index(),
            AdviceHome {
                phase: 0,
                lane: usize::MAX,
                col: 0,
            },
        );
    }
    let group = |phase: u8, row: u32| {
        config
            .groups
            .iter()
            .find(|g| g.phase == phase && g.lane == lane_of(row))
    };
    let advice_index = |c: &CellRef| -> Option<usize> {
        if c.phase == 0 && config.commit.is_some() {
            return config.commit.map(|x| x.index());
        }
        group(c.phase, c.row).map(|g| g.advice(c.col as usize).index())
    };
    let mut t = Tables {
        fixed: HashMap::new(),
        owned_fixed: HashSet::new(),
        selectors: HashSet::new(),
        assigned: HashSet::new(),
        homes,
    };
    for g in &config.groups {
        for f in g.fixed_columns() {
            t.owned_fixed.insert(f.index());
        }
    }
    let mut rows = 0usize;
    let mut values: HashMap<CellRef, Native> = HashMap::new();
    let mut cells: Vec<CellRef> = Vec::new();
    let mut free: HashSet<CellRef> = HashSet::new();
    let mut copies: Vec<(CellRef, CellRef)> = Vec::new();
    let mut report = FootprintReport::default();
    let push = |report: &mut FootprintReport, v: Violation| {
        report.violation_count += 1;
        if report.violations.len() < MAX_REPORTED {
            report.violations.push(v);
        }
    };
    for b in builders {
        rows = rows.max(b.rows() as usize);
        let constrained: HashSet<usize> = b.constrained_cell_indices().into_iter().collect();
        for (i, (c, v)) in b.advice_cells().iter().enumerate() {
            values.insert(*c, *v);
            if let Some(col) = advice_index(c) {
                t.assigned.insert((col, local_row(c.row) as usize));
            }
            cells.push(*c);
            if !constrained.contains(&i) {
                free.insert(*c);
            }
        }
        for (f, row, v) in b.fixed_cells() {
            if let Some(g) = group(b.phase, *row) {
                t.fixed
                    .insert((g.fixed(*f).index(), local_row(*row) as usize), *v);
            }
        }
        for (k, row) in b.enabled_gates() {
            if let Some(s) = group(b.phase, *row).and_then(|g| g.try_selector(*k)) {
                t.selectors.insert((s.index(), local_row(*row) as usize));
            }
        }
        copies.extend_from_slice(b.copy_constraints());
    }
    let mut read: HashSet<(usize, usize)> = HashSet::new();
    let mut reads = Vec::new();
    let mut check_reads = |report: &mut FootprintReport,
                           reads: &[(usize, i32)],
                           name: &dyn Fn() -> String,
                           row: usize| {
        for &(col, rot) in reads {
            let r = row as i64 + rot as i64;
            report.reads += 1;
            if r >= 0 && t.assigned.contains(&(col, r as usize)) {
                read.insert((col, r as usize));
                continue;
            }
            if r >= 0 {
                read.insert((col, r as usize));
            }
            push(
                report,
                Violation::UnassignedRead {
                    gate: name(),
                    row,
                    column: t.column_name(col),
                    rotation: rot,
                },
            );
        }
    };
    for row in 0..rows {
        for gate in cs.gates() {
            for (pi, poly) in gate.polynomials().iter().enumerate() {
                reads.clear();
                match t.eval(poly, row, &mut reads) {
                    Sym::Zero => {}
                    Sym::Const(_) => push(
                        &mut report,
                        Violation::AlwaysViolated {
                            gate: format!("gate '{}' polynomial {pi}", gate.name()),
                            row,
                        },
                    ),
                    Sym::Var => check_reads(
                        &mut report,
                        &reads,
                        &|| format!("gate '{}' polynomial {pi}", gate.name()),
                        row,
                    ),
                }
            }
        }
        for lookup in cs.lookups() {
            let policy = lookup_policy(lookup.name());
            if policy == LookupPolicy::InputBoundsOnly {
                continue;
            }
            reads.clear();
            for e in lookup.input_expressions() {
                t.eval(e, row, &mut reads);
            }
            let name = || format!("lookup '{}' input", lookup.name());
            check_reads(&mut report, &reads, &name, row);
            reads.clear();
            let table = lookup.table_expressions();
            let keyed_off = policy == LookupPolicy::KeyedTable
                && table
                    .first()
                    .is_some_and(|k| t.eval(k, row, &mut Vec::new()) == Sym::Zero);
            if !keyed_off {
                for e in table {
                    t.eval(e, row, &mut reads);
                }
                let name = || format!("lookup '{}' table", lookup.name());
                check_reads(&mut report, &reads, &name, row);
            }
        }
    }
    // Rule 2: every assigned cell's copy class holds a cell read live.
    let index: HashMap<CellRef, usize> = cells.iter().enumerate().map(|(i, c)| (*c, i)).collect();
    let mut parent: Vec<usize> = (0..cells.len()).collect();
    fn root(p: &mut [usize], mut i: usize) -> usize {
        while p[i] != i {
            p[i] = p[p[i]];
            i = p[i];
        }
        i
    }
    for (x, y) in &copies {
        if let (Some(&a), Some(&b)) = (index.get(x), index.get(y)) {
            let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
            parent[ra] = rb;
        }
    }
    let mut live_class = vec![false; cells.len()];
    for (i, c) in cells.iter().enumerate() {
        let is_read =
            advice_index(c).is_some_and(|col| read.contains(&(col, local_row(c.row) as usize)));
        if is_read {
            let r = root(&mut parent, i);
            live_class[r] = true;
        }
    }
    for (i, c) in cells.iter().enumerate() {
        let r = root(&mut parent, i);
        if !live_class[r] && !free.contains(c) {
            let column = advice_index(c)
                .map_or_else(|| "an unknown column".into(), |col| t.column_name(col));
            push(&mut report, Violation::Unconstrained { cell: *c, column });
        }
    }
    let mut fp: Vec<FootprintCell> = read
        .iter()
        .filter_map(|&(col, row)| t.cell_of(col, row))
        .map(|cell| FootprintCell {
            cell,
            value: values.get(&cell).copied(),
            free: free.contains(&cell),
        })
        .collect();
    fp.sort_by_key(|c| c.cell);
    report.footprint = fp;
    report
}
