//! `BatchEcdsaCircuit`: B ECDSA* signatures proven valid by ONE random linear combination,
//!
//! ```text
//!   Σᵢ zᵢ·Rᵢ + Σᵢ zᵢ·(−vᵢ)·Qᵢ + (Σᵢ zᵢ·(−uᵢ))·G = O,   uᵢ = hᵢ/sᵢ, vᵢ = rᵢ/sᵢ, rᵢ = x(Rᵢ) mod n,
//! ```
//!
//! with coefficients `zᵢ` derived from proof-system challenges drawn after every `Rᵢ`, `sᵢ`,
//! `hᵢ`, `Qᵢ` is committed: by default ([`Coefficients::Short`]) `z₀ = 1` and short independent
//! coefficients (Bellare–Garay–Rabin's small-exponent test), or ([`Coefficients::Powers`])
//! `zᵢ = tⁱ` for one challenge t. Same public inputs (per signature `h`, `Q`:
//! [`super::instance`]) and witness ([`SignatureWitness`]) as [`super::NaiveEcdsaCircuit`].
//!
//! **Phase 0** (first-phase advice, committed before any challenge exists) is ONE *commit
//! column* (`LayoutParams::commit_phase0`: equality enabled, no gates, no lookups) holding, per
//! signature i, the raw limbs of `x(Rᵢ)`, `y(Rᵢ)` and `sᵢ` ([`RAW_CELLS_PER_SIGNATURE`] cells,
//! one per row). Nothing is checked there. (`hᵢ`, `Qᵢ` are public inputs, bound to the
//! instance column, which the transcript absorbs first, so they need no commitment here.)
//! Under [`Statement::Digest`] the instance is only the digest D of the `(hᵢ, addressᵢ)` pairs
//! ([`super::digest`]), which binds a key only through its 160-bit address: the commit column
//! then also holds the limbs of `hᵢ` (the 256-bit signing hash), `x(Qᵢ)`, `y(Qᵢ)`
//! ([`raw_cells_per_signature`]: 18 per signature), copy-constrained to what phase 1 loads, so
//! every input of the batch equation is again fixed before the challenges. Phase 1 then also
//! lays out the statement's bytes and its Keccak blocks (in the lane's Keccak columns, beside
//! the curve work) and binds `[D_hi, D_lo]` to the instance.
//!
//! **Phase 1** (after the challenges; one column group by default, more with
//! [`crate::plan::LayoutGoal::FastProver`]): the challenge cells, pinned 16 to a `Challenge(k)` gate
//! ([`super::challenge`]); the coefficients `zᵢ` (Short: `z₀ = 1`, then `2·lo(c_j) + 1` and
//! `2·hi(c_j) + 1` with `lo(c_j) = c_j mod 2^127`, `hi(c_j) = ⌊c_j / 2^127⌋`, cut canonically by
//! [`super::challenge::cut_challenge`], with their signed-odd windows: 32 windows instead of
//! 65 for the `Rᵢ` terms); then per signature: `Qᵢ`, `Rᵢ` loaded canonical and on the curve
//! (affine: never the identity), the limbs of `Rᵢ` copy-constrained to the raw phase-0 cells;
//! `hᵢ` canonical; `1 ≤ sᵢ < n`, its limbs copy-constrained to the raw cells; `rᵢ = x(Rᵢ) mod
//! n ≠ 0` with `x ∈ [n, p)` handled; the window tables `(2e − 15)·Rᵢ` (`e < 16`, window 4) and
//! `(2e − (2^w − 1))·Qᵢ` (`e < 2^w`, w the circuit's window, 5 by default;
//! [`EccChip::odd_table`]) laid out for the point-table lookup (lane 0 of phase 1);
//! the packed public values of `hᵢ`, `Qᵢ` bound to the instance column ([`super::instance`]).
//! Then the
//! scalars `kᵢ ≡ −zᵢ·rᵢ/sᵢ` (one relation block `kᵢ·sᵢ + zᵢ·rᵢ ≡ 0 mod n` each, `sᵢ ≢ 0`
//! proven, so `kᵢ` is unique mod n) and `g ≡ Σ −zᵢ·hᵢ/sᵢ`, their signed-odd recodings
//! ([`crate::ecc::odd_windows`]: 52 windows at w = 5 of an integer `≡` the scalar mod n),
//! and ONE
//! Straus MSM over the 2B window tables plus the constant window table of G with one shared
//! chain of doublings ([`EccChip::msm_tables`], selections by the point-table lookup). The
//! accumulator starts at the hashed constant `A`, so the MSM equals `Σ + 2^o·A` (o the top
//! window offset: 255 at w = 5, 256 at w = 4); the circuit asserts `acc = 2^o·A` (canonical
//! limbs, copy constraints to constant cells), i.e. `Σ = O`.
//!
//! **Soundness.** Write `Eᵢ = Rᵢ − uᵢ·G − vᵢ·Qᵢ = eᵢ·G` (the group is cyclic of prime order n).
//! Signature i is valid (ECDSA*, see [`super`]) iff `Eᵢ = O` given the per-signature checks.
//! The circuit proves `Σ zᵢ·eᵢ ≡ 0 (mod n)` for the integers `zᵢ` it derives (every point
//! operation is exact mod p: additions prove `x₁ ≢ x₂`, doublings act on on-curve points, a
//! lookup selection returns exactly the entry of its proven index; see [`crate::ecc`]; the
//! windows of `zᵢ` represent the same integer `zᵢ` as the `Fq` operand used in `kᵢ` and `g`,
//! and each recoding represents an integer `≡` its scalar mod n).
//!
//! *What is fixed before the challenges.* `eᵢ` is a function of `Rᵢ`, `sᵢ`, `hᵢ`, `Qᵢ` only:
//! `uᵢ`, `vᵢ`, `rᵢ` and the tables are determined by them (each phase-1 witness is pinned by
//! its checks: `q` canonical and unique, tables by their additions). The transcript absorbs
//! the instance (`hᵢ`, `Qᵢ`) and then the phase-0 commitment (binding KZG) holding the limbs
//! of `Rᵢ`, `sᵢ` before it squeezes any challenge; the copy constraints (the permutation
//! argument, checked over all phases) force the limbs phase 1 loads and checks to equal those
//! committed raw cells. So the `eᵢ` are fixed before the challenges are drawn, even though
//! every *check* on them (range, on-curve, `s ≠ 0`, `r = x mod n`, u/v, tables) runs in phase
//! 1: the checks only accept or reject values already fixed, and a failing check fails
//! whatever the challenges are. The raw `Rᵢ`, `sᵢ` limbs must be in phase 0: a phase-1-only
//! `Rᵢ` could be chosen after the challenges. Each challenge `c_j` is a Blake2b
//! (random-oracle) output of 512 bits reduced into Fr (statistical distance from uniform
//! ≤ 2^-256), successive squeezes are independent oracle outputs, and the cell holding `c_j`
//! is pinned by its gate.
//!
//! * Short coefficients (default). The cut is canonical (`lo + 2^127·hi = c_j < r` as
//!   integers, proven), so each `zᵢ` is a function of the challenges with no prover choice.
//!   Suppose some `eₖ ≠ 0`. If only `e₀ ≠ 0`, the sum is `e₀ ≠ 0` (z₀ = 1): rejected. Else
//!   take `k ≥ 1` with `eₖ ≠ 0` and fix every challenge except the one `c` that `zₖ` is cut
//!   from (and, given `c`, its partner half): `zₖ ↦ zₖ·eₖ` is injective mod n on
//!   `[0, 2^128]` (n prime > 2^128), and `zₖ = 2h + 1` is injective in the half `h`, so at most
//!   one value of that half satisfies the equation given the partner. If `zₖ = 2·lo(c) + 1`:
//!   given `hi(c) < r_hi`, `lo(c)` is uniform on `[0, 2^127)`, and `hi(c) = r_hi` has
//!   probability `< 2^127/r < 2^-126.6`: error `≤ 2^-127 + 2^-126.6`. If `zₖ = 2·hi(c) + 1`:
//!   given `lo(c)`, `hi(c)` is uniform on a set of at least `⌊r/2^127⌋ ≥ 2^126.6` values: error
//!   `≤ 2^-126.6`. Adding the sampling distance, **one attempt passes with probability
//!   `≤ 2^-125`**, whatever B; grinding q transcripts (re-committing phase 0) gives
//!   `≤ q·2^-125` (e.g. 2^-61 after 2^64 tries). Without the canonical cut the prover could
//!   pick `c_j + r` for each challenge, 2^(B/2) combinations: that is why it is proven.
//!   Independence matters: cutting one challenge (or powers of one t) into many short pieces
//!   would not give independent coefficients, hence `⌈(B−1)/2⌉` challenges. (The coefficients
//!   are odd so that their signed-odd recoding needs no correction: `2h + 1` has the windows
//!   of `h` with 8 added to the top index.)
//! * Powers of t. `T ≡ c (mod r)` with at most 6 choices of the integer `T`
//!   ([`super::challenge`]); if some `eⱼ ≠ 0`, `P(X) = Σ eᵢ·Xⁱ` is a non-zero polynomial over
//!   `Z_n` of degree `≤ B − 1` with at most `B − 1` roots: one attempt passes with probability
//!   `≤ 6·(B − 1)/r ≈ 2^-251·(B − 1)`, q grinding attempts `≤ q·6·(B − 1)/r`.
//!
//! Coefficients known before the `Rᵢ`, `sᵢ` are fixed would be fatal: one own signature can
//! absorb any victim's error (the "known-t forgery": with t known, one signature of the
//! forger's own key is chosen so that its term cancels the victim's), which is why they are never
//! computed from the public inputs.
//!
//! **Completeness limits** (never soundness): as in the naive circuit, an intermediate
//! addition with equal x coordinates (which for honest inputs needs a discrete logarithm of
//! the hashed offset `A`) or a distinctness difference `≡ 0, ±p (mod r)` without being
//! `0, ±p` (about 2^-250 per addition) makes an honest batch unprovable. Zero scalars are
//! fine (recoded as n). Free cells: as in the naive circuit (none for a valid batch); the
//! raw phase-0 cells are not free (each is copy-constrained to a checked limb).

use std::collections::HashMap;

use ff::Field;
use group::Curve;

use halo2_proofs::plonk::{ConstraintSystem, Error};
use halo2curves::secp256k1::Secp256k1;
use halo2curves::secp256k1::{Fp, Fq};
use num_bigint::BigUint;

use super::challenge::{
    challenge_as_scalar, challenges_for, cut_challenge, load_challenge_cells,
    load_challenge_scalar, powers, short_coefficients_native, unit_coefficient,
};
use super::digest::{
    bind_public, committed_statement, params_for_statement, statement_instance, PublicCells,
};
use super::scalar::{self, NonZeroScalar};
use super::witness::SignatureWitness;
use super::Statement;
use crate::config::{impl_layout_circuit, CircuitConfig, InstanceConfig, LaidOutCircuit};
use crate::ecc::{
    assert_window, odd_windows, EccChip, MsmTerm, PointLookupTable, ScalarWindow, WINDOW,
};
use crate::field::params::{to_limbs, NUM_LIMBS};
use crate::field::{FieldChip, FieldValue, Overflowing, Proper, Relation};
use crate::layout::{AssignedValue, Builder, LayoutParams, LayoutStats, Native};

/// The Straus window of the `Qᵢ` and G terms: 5 (32-entry tables of `Qᵢ`, 52 windows of each
/// full-width scalar). Measured for w = 3, 4, 5 at every B from 1 to 256 (`cargo bench -p
/// batch-ecdsa-circuits --bench batch_cells`): w = 5 is the cheapest at every B (the figures:
/// that bench's output and `tests/snapshots/cells.txt`); the `Rᵢ` terms keep 4-bit windows,
/// whose 127-bit coefficients cut evenly.
pub const DEFAULT_BATCH_WINDOW: u32 = 5;

/// Layout parameters of the batch circuit: phase 0 a commit column, phase 1 one column group
/// (set `lanes[1]` for more), lookup bits `lookup_bits`, the table section of window `w`
/// (every circuit has the 1- and 4-bit sections).
pub fn batch_params(lookup_bits: u32, w: u32) -> LayoutParams {
    let mut p = LayoutParams::new(lookup_bits);
    if !p.window_bits.contains(&w) {
        p.window_bits.push(w);
    }
    p.phases = 2;
    p.commit_phase0 = true;
    p
}

/// Columns: the shared chip configuration (the phase-0 commit column, the phase-1 column
/// groups and the challenges) plus one instance column.
pub type BatchConfig = InstanceConfig;

/// The batch circuit (see the module doc).
#[derive(Clone, Debug)]
///
/// The fields are private: the layout parameters are made for the window, the statement and
/// the coefficients' challenges ([`BatchEcdsaCircuit::new`], `with_statement`, the planner), and
/// a field changed alone would describe another circuit than the one laid out.
pub struct BatchEcdsaCircuit {
    params: LayoutParams,
    signatures: Vec<SignatureWitness>,
    /// Straus window w of the `Qᵢ` and G terms (3, 4 or 5).
    window: u32,
    /// How the batch coefficients are derived from the challenges (default
    /// [`Coefficients::Short`]).
    pub(crate) coefficients: Coefficients,
    /// What the public input states (default [`Statement::Keys`]).
    statement: Statement,
    /// The challenge values the last synthesis saw (feature `testing`: tests compare them with
    /// a forger's guess, and rebuild the phase-1 witness MockProver checked).
    #[cfg(feature = "testing")]
    probe: std::sync::Arc<std::sync::Mutex<Option<Vec<Native>>>>,
}

/// The batch coefficients `zᵢ` of `Σ zᵢ·Eᵢ = O` (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coefficients {
    /// `zᵢ = tⁱ` for one challenge t (full-width coefficients; error `6(B−1)/r` per try).
    Powers,
    /// `z₀ = 1` and independent short coefficients (126/128 bits) cut canonically from
    /// `⌈(B−1)/2⌉` challenges (Bellare–Garay–Rabin; error `≤ 2^-125` per try).
    Short,
}

/// What the checks of one signature leave for the MSM.
struct SigChecked {
    r_table: PointLookupTable,
    q_table: PointLookupTable,
    h: Proper<Fq>,
    r: NonZeroScalar,
    s: NonZeroScalar,
}

/// Raw values committed in phase 0 per signature: the limbs of `x(R)`, `y(R)`, `s`; under
/// [`Statement::Digest`] also those of `h`, `x(Q)`, `y(Q)` ([`raw_cells_per_signature`]).
pub const RAW_CELLS_PER_SIGNATURE: usize = 3 * NUM_LIMBS;

/// Raw phase-0 cells per signature under `statement`.
pub fn raw_cells_per_signature(statement: Statement) -> usize {
    match statement {
        Statement::Keys => RAW_CELLS_PER_SIGNATURE,
        Statement::Digest => 2 * RAW_CELLS_PER_SIGNATURE,
    }
}

/// The raw phase-0 values of one signature under `statement`, in commit order: limbs (low
/// first) of `x(R)`, `y(R)`, `s`, then for the digest those of `h` (the signing hash), `x(Q)`,
/// `y(Q)` ([`committed_statement`]). A value `≥ 2^256` (which `SignatureWitness` rules out) is
/// replaced as the phase-1 loads replace it (`p` for coordinates, `n` for scalars), so both
/// sides agree; a disagreement could only make the copy constraints fail, never pass a wrong
/// value.
fn raw_values(w: &SignatureWitness, statement: Statement) -> Vec<Native> {
    let mut out = raw_signature_values(w).to_vec();
    if statement == Statement::Digest {
        for v in committed_statement(w) {
            out.extend(to_limbs(&v).iter().map(crate::bigint::native));
        }
    }
    out
}

/// `v` if it fits in 256 bits (three limbs), else `repl`: a raw phase-0 value replaced as
/// the phase-1 load of it is replaced ([`raw_values`]).
pub(crate) fn fit_256(v: &BigUint, repl: BigUint) -> BigUint {
    if v.bits() <= 256 {
        v.clone()
    } else {
        repl
    }
}

/// The limbs of `x(R)`, `y(R)`, `s` ([`raw_values`]).
fn raw_signature_values(w: &SignatureWitness) -> [Native; RAW_CELLS_PER_SIGNATURE] {
    let p = crate::bigint::modulus::<Fp>();
    let n = crate::bigint::modulus::<Fq>();
    let vals = [
        fit_256(&w.r_point().0, p.clone()),
        fit_256(&w.r_point().1, p),
        fit_256(w.s(), n),
    ];
    let mut out = [Native::ZERO; RAW_CELLS_PER_SIGNATURE];
    for (i, v) in vals.iter().enumerate() {
        for (j, l) in to_limbs(v).iter().enumerate() {
            out[NUM_LIMBS * i + j] = crate::bigint::native(l);
        }
    }
    out
}

/// Binds the limbs of a value loaded in phase 1 to its raw phase-0 cells (copy constraints).
fn bind_raw(b: &mut Builder, raw: &[AssignedValue], loaded: &[AssignedValue; NUM_LIMBS]) {
    for (r, l) in raw.iter().zip(loaded.iter()) {
        b.constrain_equal(r, l);
    }
}

/// `−z·num/den mod n` (proper) in one relation block: `q·den + z·num ≡ 0`, `q` the new value
/// (a factor). `den ≢ 0` (its type) and n prime make `q ≡ −z·num·den⁻¹` the only solution mod
/// n.
fn neg_scaled_div(
    fq: &FieldChip<Fq>,
    b: &mut Builder,
    z: &Overflowing<Fq>,
    num: &impl FieldValue<Fq>,
    den: &NonZeroScalar,
) -> Proper<Fq> {
    fq.new_value(
        b,
        &Relation::factor_times(den.value(), None).plus_product(1, z, num, None),
    )
}

/// The checks of one signature (phase 1, see the module doc): loads bound to the raw phase-0
/// cells `raw` ([`raw_values`] order); returns what the MSM needs (the `Rᵢ` table at window
/// 4, the `Qᵢ` table at `window`) and the public cells under `statement`. Never panics on
/// witness values.
fn check_signature(
    ecc: &EccChip,
    b: &mut Builder,
    w: &SignatureWitness,
    raw: &[AssignedValue],
    window: u32,
    statement: Statement,
) -> (SigChecked, PublicCells) {
    let fq = &ecc.fq;
    let super::LoadedSignature { q, r_point, h, s } = super::load_signature(ecc, b, w, statement);
    let limbs = |i: usize| &raw[i * NUM_LIMBS..(i + 1) * NUM_LIMBS];
    bind_raw(b, limbs(0), r_point.x.limbs());
    bind_raw(b, limbs(1), r_point.y.limbs());
    bind_raw(b, limbs(2), s.value().limbs());
    if statement == Statement::Digest {
        bind_raw(b, limbs(3), h.limbs());
        bind_raw(b, limbs(4), q.x.limbs());
        bind_raw(b, limbs(5), q.y.limbs());
    }
    let r = scalar::x_mod_n(fq, b, &r_point.x);
    let r_table = ecc.odd_table(b, &r_point.clone().into(), WINDOW);
    let r_table = ecc.load_lookup_table(b, r_table);
    let q_table = ecc.odd_table(b, &q.clone().into(), window);
    let q_table = ecc.load_lookup_table(b, q_table);
    let public = PublicCells::of(statement, &fq.range, b, &h, &q);
    (
        SigChecked {
            r_table,
            q_table,
            h,
            r,
            s,
        },
        public,
    )
}

impl BatchEcdsaCircuit {
    /// The circuit with short coefficients; `params.challenges` is set to what B needs.
    /// `window` (3, 4 or 5) is the window of the `Qᵢ` and G terms; the `Rᵢ` terms always
    /// use 4-bit windows (their table and coefficient windows). `params` must have the
    /// window's table section ([`batch_params`]).
    pub fn new(params: LayoutParams, signatures: Vec<SignatureWitness>, window: u32) -> Self {
        assert_window(window);
        assert!(
            params.window_tag(window).is_some(),
            "the layout parameters lack the {window}-bit table section"
        );
        Self {
            params,
            signatures,
            window,
            coefficients: Coefficients::Short,
            statement: Statement::Keys,
            #[cfg(feature = "testing")]
            probe: Default::default(),
        }
        .with_coefficients(Coefficients::Short)
    }

    /// The same circuit with coefficients `mode` (and the matching number of challenges).
    pub(crate) fn with_coefficients(mut self, mode: Coefficients) -> Self {
        self.coefficients = mode;
        self.params.challenges = match mode {
            Coefficients::Powers => 1,
            Coefficients::Short => challenges_for(self.signatures.len()),
        };
        self
    }

    /// The same circuit stating `statement` (Keccak columns added for the digest; the digest
    /// also commits `hᵢ`, `Qᵢ` in phase 0).
    pub fn with_statement(mut self, statement: Statement) -> Self {
        self.params = params_for_statement(self.params, statement);
        self.statement = statement;
        self
    }

    /// The layout parameters.
    pub fn params(&self) -> &LayoutParams {
        &self.params
    }

    /// The witnesses, one per signature.
    pub fn signatures(&self) -> &[SignatureWitness] {
        &self.signatures
    }

    /// The Straus window of the `Qᵢ` and G terms.
    pub fn window(&self) -> u32 {
        self.window
    }

    /// What the public input states.
    pub fn statement(&self) -> Statement {
        self.statement
    }

    /// The chips of this circuit's parameters.
    pub fn chip(&self) -> EccChip {
        EccChip::for_params(&self.params)
    }

    /// Phase 0: the commit builder (one column, one raw value per row, no gates) and the raw
    /// cells in commit order ([`raw_cells_per_signature`] per signature).
    fn build_phase0(&self) -> (Builder, Vec<AssignedValue>) {
        let mut b = Builder::new(0, self.params.clone());
        let per = raw_cells_per_signature(self.statement);
        let mut raw = Vec::with_capacity(per * self.signatures.len());
        for w in &self.signatures {
            for v in raw_values(w, self.statement) {
                let row = b.new_rows(1);
                raw.push(b.assign(row, 0, v));
            }
        }
        (b, raw)
    }

    /// The coefficients `zᵢ` for the challenge values `cs` (phase 1): the signed-odd windows
    /// of `zᵢ` (for the `Rᵢ` terms) and `zᵢ` as an `Fq` operand.
    fn coefficient_cells(
        &self,
        fq: &FieldChip<Fq>,
        b: &mut Builder,
        cs: &[Native],
    ) -> (Vec<Vec<ScalarWindow>>, Vec<Overflowing<Fq>>) {
        let n = self.signatures.len();
        let c = |j: usize| cs.get(j).copied().unwrap_or(Native::ONE);
        match self.coefficients {
            Coefficients::Powers => {
                let ch = load_challenge_scalar(fq, b, c(0));
                let pw = powers(fq, b, &ch.t, n);
                let wins = pw
                    .iter()
                    .map(|p| odd_windows(fq, b, &p.clone().into(), WINDOW))
                    .collect();
                (wins, pw.into_iter().map(Overflowing::from).collect())
            }
            Coefficients::Short => {
                let vals: Vec<Native> = (0..self.params.num_challenges()).map(c).collect();
                let cells = load_challenge_cells(b, &vals);
                let mut z = vec![unit_coefficient(fq, b)];
                for cell in &cells {
                    z.extend(cut_challenge(fq, b, cell));
                }
                z.truncate(n);
                z.into_iter().map(|x| (x.windows, x.scalar)).unzip()
            }
        }
    }

    /// Phase 1 for challenge values `cs`: the challenge cells and coefficients first, then
    /// every signature's checks (bound to the raw cells `raw`), then the MSM. Returns the
    /// builder and the public cells in instance order.
    fn build_phase1(
        &self,
        ecc: &EccChip,
        raw: &[AssignedValue],
        cs: &[Native],
    ) -> (Builder, Vec<AssignedValue>) {
        let fq = &ecc.fq;
        let mut b = Builder::new(1, self.params.clone());
        if self.signatures.is_empty() {
            return (b, Vec::new());
        }
        let mirror = b.mirror_instance(&self.instance());
        let (z_wins, z) = self.coefficient_cells(fq, &mut b, cs);
        let mut sigs = Vec::with_capacity(self.signatures.len());
        let mut public = Vec::with_capacity(self.signatures.len());
        let per = raw_cells_per_signature(self.statement);
        for (w, raw) in self.signatures.iter().zip(raw.chunks(per)) {
            let (s, p) = check_signature(ecc, &mut b, w, raw, self.window, self.statement);
            sigs.push(s);
            public.push(p);
        }
        // Scalars: Qᵢ gets −zᵢ·rᵢ/sᵢ, G gets Σ −zᵢ·hᵢ/sᵢ (one block per term, one to add).
        let mut q_scalars = Vec::with_capacity(sigs.len());
        let mut g_scalar: Option<Proper<Fq>> = None;
        for (s, zi) in sigs.iter().zip(z.iter()) {
            q_scalars.push(neg_scaled_div(fq, &mut b, zi, s.r.value(), &s.s));
            let wu = neg_scaled_div(fq, &mut b, zi, &s.h, &s.s);
            g_scalar = Some(match g_scalar {
                None => wu,
                Some(g) => fq.new_value(
                    &mut b,
                    &Relation::linear()
                        .plus_term(1, &g)
                        .plus_term(1, &wu)
                        .remainder(),
                ),
            });
        }
        let g_scalar = g_scalar.expect("a batch has a signature");
        let q_wins: Vec<Vec<ScalarWindow>> = q_scalars
            .iter()
            .map(|k| odd_windows(fq, &mut b, k, self.window))
            .collect();
        let g_wins = odd_windows(fq, &mut b, &g_scalar, self.window);
        let g_table =
            ecc.constant_odd_table(&mut b, Secp256k1::generator().to_affine(), self.window);
        let mut terms: Vec<MsmTerm<'_>> = Vec::with_capacity(2 * sigs.len() + 1);
        for ((s, zw), qw) in sigs.iter().zip(z_wins.iter()).zip(q_wins.iter()) {
            terms.push((&s.r_table, zw.as_slice()));
            terms.push((&s.q_table, qw.as_slice()));
        }
        terms.push((&g_table, g_wins.as_slice()));
        let (acc, off) = ecc.msm_tables(&mut b, &terms);
        let acc = acc.finish(ecc, &mut b);
        let expect = ecc.constant_point(&mut b, off.to_affine());
        ecc.assert_equal(&mut b, &acc, &expect);
        bind_public(&mut b, public, &mirror);
        (b, mirror)
    }

    /// Both builders with every challenge equal to `c`, and the public cells (layout and
    /// counts do not depend on the challenge values).
    pub fn build(&self, c: Native) -> (Builder, Builder, Vec<AssignedValue>) {
        self.build_with(&vec![c; self.params.num_challenges()])
    }

    /// Both builders for challenge values `cs` (one per configured challenge) and the public
    /// cells.
    pub(crate) fn build_with(&self, cs: &[Native]) -> (Builder, Builder, Vec<AssignedValue>) {
        let ecc = self.chip();
        let (b0, raw) = self.build_phase0();
        let (b1, public) = self.build_phase1(&ecc, &raw, cs);
        (b0, b1, public)
    }

    /// Cell counts of each phase (no keys, no proof; the layout does not depend on t).
    pub fn phase_stats(&self) -> [LayoutStats; 2] {
        let (b0, b1, _) = self.build(Native::ONE);
        [b0.stats(), b1.stats()]
    }

    /// Total cell counts over both phases (rows: the taller phase).
    pub fn stats(&self) -> LayoutStats {
        let [s0, s1] = self.phase_stats();
        LayoutStats {
            advice_cells: s0.advice_cells + s1.advice_cells,
            lookup_cells: s0.lookup_cells + s1.lookup_cells,
            rows: s0.rows.max(s1.rows),
            copies: s0.copies + s1.copies,
        }
    }

    /// The instance column for these signatures under the circuit's statement.
    pub fn instance(&self) -> Vec<Native> {
        statement_instance(self.statement, &self.signatures)
    }

    /// The challenge value the last synthesis read (None before any, or when it was unknown,
    /// e.g. at keygen). For tests (feature `testing`): MockProver's challenge is a fixed hash
    /// chain, a real prover's comes from the transcript.
    #[cfg(feature = "testing")]
    pub fn last_challenge(&self) -> Option<Native> {
        self.last_challenges().and_then(|v| v.first().copied())
    }

    /// All challenge values the last synthesis read (see [`Self::last_challenge`]).
    #[cfg(feature = "testing")]
    pub fn last_challenges(&self) -> Option<Vec<Native>> {
        self.probe.lock().ok().and_then(|g| g.clone())
    }

    /// The batch coefficients `zᵢ` natively for challenge values `cs`, as the circuit derives
    /// them (tests: e.g. a forgery for known coefficients).
    pub fn coefficients_for(&self, cs: &[Native]) -> Vec<Fq> {
        let n = self.signatures.len();
        match self.coefficients {
            Coefficients::Powers => {
                let t = challenge_as_scalar(cs.first().copied().unwrap_or(Native::ONE));
                let mut out = Vec::with_capacity(n);
                let mut p = Fq::ONE;
                for _ in 0..n {
                    out.push(p);
                    p *= t;
                }
                out
            }
            Coefficients::Short => short_coefficients_native(cs, n),
        }
    }
}

impl_layout_circuit!(
    BatchEcdsaCircuit,
    BatchConfig,
    InstanceConfig::configure,
    batch_params(17, DEFAULT_BATCH_WINDOW),
    |self, config, layouter| {
        if config.base.challenges.len() != self.params.num_challenges() {
            return Err(Error::Synthesis);
        }
        config.base.load_table(&mut layouter)?;
        let ecc = self.chip();
        let (b0, raw) = self.build_phase0();
        let mut cells = HashMap::new();
        config.base.assign_phase(&mut layouter, &b0, &mut cells)?;
        layouter.next_phase();
        // Unknown at keygen (and in the first pass of a real prover): any value lays out the
        // same cells; the phase-1 advice is only used once the challenges are known.
        let mut cs: Vec<Option<Native>> = vec![None; config.base.challenges.len()];
        for (ch, slot) in config.base.challenges.iter().zip(cs.iter_mut()) {
            layouter.get_challenge(*ch).map(|v| *slot = Some(v));
        }
        #[cfg(feature = "testing")]
        if let Ok(mut g) = self.probe.lock() {
            *g = cs.iter().copied().collect();
        }
        let vals: Vec<Native> = cs.iter().map(|c| c.unwrap_or(Native::ONE)).collect();
        // The public cells are copied to the instance mirror rows (`Builder::mirror_instance`)
        // inside the phase-1 builder; the instance gate ties those rows to the instance column.
        let (b1, _public) = self.build_phase1(&ecc, &raw, &vals);
        config.base.assign_phase(&mut layouter, &b1, &mut cells)
    }
);

impl LaidOutCircuit for BatchEcdsaCircuit {
    fn configured(&self) -> (ConstraintSystem<Native>, CircuitConfig) {
        crate::config::configured::<Self>(&self.params, |c| c.base)
    }
    /// Phase 0 and phase 1, built with the last seen challenges (feature `testing`), else 1.
    fn layout_builders(&self) -> Vec<Builder> {
        #[cfg(feature = "testing")]
        let seen = self.last_challenges();
        #[cfg(not(feature = "testing"))]
        let seen: Option<Vec<Native>> = None;
        let (b0, b1, _) = match seen {
            Some(c) => self.build_with(&c),
            None => self.build(Native::ONE),
        };
        vec![b0, b1]
    }
    fn instance_values(&self) -> Vec<Native> {
        self.instance()
    }
}
