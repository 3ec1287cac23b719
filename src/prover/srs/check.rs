//! The checks that make points read from a file a structured reference string: the standard
//! generators, `τ·G₂` in the prime-order subgroup, a τ other than 0 and 1, and every power
//! consistent with one τ; a Lagrange basis taken from a file is checked against the powers.
//!
//! **Powers of one τ.** With `gᵢ` the G₁ points (g₀ = G₁) and `[τ]₂ = τ·G₂`, the points are
//! `τ^i·G₁` for one τ exactly when `e(g_{i+1}, G₂) = e(gᵢ, [τ]₂)` for every i < n − 1 (given
//! g₀ = G₁ this fixes `g₁ = τ·G₁`, then each next power). All n − 1 equations are checked at
//! once with random ρᵢ drawn from the operating system after the file is read:
//!
//! ```text
//! e(Σ ρᵢ·g_{i+1}, G₂) = e(Σ ρᵢ·gᵢ, [τ]₂)
//! ```
//!
//! If some equation fails, the two sides differ by `Σ ρᵢ·Δᵢ` with some `Δᵢ ≠ 0` in the group
//! of prime order r, which is the identity for at most a 1/r fraction of the ρ (Schwartz–Zippel
//! in one variable): a file that is not one τ's powers passes with probability ≤ 1/r.
//!
//! **The Lagrange basis.** halo2 commits to a column's values with `ℓᵢ = Lᵢ(τ)·G₁`, where
//! `Lᵢ(X) = (1/n) Σⱼ ω^(−ij) X^j`. So for random ρ, `Σᵢ ρᵢ·ℓᵢ = Σⱼ cⱼ·gⱼ` with
//! `cⱼ = (1/n) Σᵢ ρᵢ ω^(−ij)`, the inverse FFT of ρ: one scalar FFT and two MSMs instead of a
//! group FFT, with the same ≤ 1/r error.

use ff::FromUniformBytes;
use group::Group;
use group::{cofactor::CofactorGroup, prime::PrimeCurveAffine, Curve};
use halo2_proofs::arithmetic::best_multiexp;
use halo2_proofs::halo2curves::bn256::{multi_miller_loop, Fr, G1Affine, G2Affine, G2Prepared, G2};
use halo2_proofs::halo2curves::pairing::MillerLoopResult;
use halo2_proofs::poly::EvaluationDomain;
use rand_chacha::rand_core::{OsRng, RngCore};

/// A failed check, in words.
pub type CheckError = String;

fn random_scalars(n: usize) -> Vec<Fr> {
    let mut rng = OsRng;
    (0..n)
        .map(|_| {
            let mut wide = [0u8; 64];
            rng.fill_bytes(&mut wide);
            Fr::from_uniform_bytes(&wide)
        })
        .collect()
}

/// The G₂ side of a setup, all a verifier uses: `G₂` the standard generator, `[τ]₂` in G₂'s
/// prime-order subgroup, τ ∉ {0, 1}.
pub fn check_g2(g2: &G2Affine, s_g2: &G2Affine) -> Result<(), CheckError> {
    if *g2 != G2Affine::generator() {
        return Err("the G2 point is not the generator G2".into());
    }
    if bool::from(s_g2.is_identity()) || *s_g2 == *g2 {
        return Err("τ is 0 or 1: a setup no ceremony ever made (a fresh .ptau file before any contribution?)".into());
    }
    if !bool::from(G2::from(*s_g2).is_torsion_free()) {
        return Err("τ·G2 is not in the prime-order subgroup of G2".into());
    }
    Ok(())
}

/// The generators, the G₂ side ([`check_g2`]), and the powers of one τ (module doc).
pub fn check_powers(g: &[G1Affine], g2: &G2Affine, s_g2: &G2Affine) -> Result<(), CheckError> {
    if g.len() < 2 {
        return Err("fewer than two G1 powers".into());
    }
    if g[0] != G1Affine::generator() {
        return Err(
            "the first G1 power is not the generator G1 (another curve's or a foreign file)".into(),
        );
    }
    check_g2(g2, s_g2)?;
    if g[1] == g[0] {
        return Err(
            "τ is 1: a setup no ceremony ever made (a fresh .ptau file before any contribution?)"
                .into(),
        );
    }
    let rho = random_scalars(g.len() - 1);
    let lhs = best_multiexp(&rho, &g[1..]).to_affine();
    let rhs = best_multiexp(&rho, &g[..g.len() - 1]).to_affine();
    let g2p = G2Prepared::from(*g2);
    let s_g2p = G2Prepared::from(*s_g2);
    let neg_rhs = -rhs;
    let ok = multi_miller_loop(&[(&lhs, &g2p), (&neg_rhs, &s_g2p)])
        .final_exponentiation()
        .is_identity();
    // (`Gt` is written multiplicatively; its `Group` identity is 1.)
    if bool::from(ok) {
        Ok(())
    } else {
        Err("the G1 powers are not the powers of the τ in τ·G2 (e(Σρᵢ·τ^(i+1)G1, G2) ≠ e(Σρᵢ·τ^iG1, τG2)): corrupt or forged".into())
    }
}

/// The Lagrange basis `lagrange` (for `2^k` rows) against the powers `g` (module doc).
pub fn check_lagrange(k: u32, g: &[G1Affine], lagrange: &[G1Affine]) -> Result<(), CheckError> {
    let n = 1usize << k;
    if g.len() != n || lagrange.len() != n {
        return Err(format!(
            "{} powers and {} Lagrange points for 2^{k} rows",
            g.len(),
            lagrange.len()
        ));
    }
    let rho = random_scalars(n);
    let domain = EvaluationDomain::<Fr>::new(1, k);
    let mut evals = domain.empty_lagrange();
    for (e, r) in evals.iter_mut().zip(&rho) {
        *e = *r;
    }
    let c = domain.lagrange_to_coeff(evals);
    let lhs = best_multiexp(&rho, lagrange);
    let rhs = best_multiexp(&c[..], g);
    if lhs == rhs {
        Ok(())
    } else {
        Err("the Lagrange basis is not that of the G1 powers: corrupt or forged".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prover::params::setup_from_rng;
    use halo2_proofs::poly::commitment::ParamsProver;
    use rand_chacha::rand_core::SeedableRng;
    use rand_chacha::ChaCha20Rng;

    /// The Lagrange basis of `p` (halo2-axiom has no getter: read from its raw encoding).
    fn lagrange_of(
        p: &halo2_proofs::poly::kzg::commitment::ParamsKZG<halo2_proofs::halo2curves::bn256::Bn256>,
    ) -> Vec<G1Affine> {
        use halo2_proofs::halo2curves::serde::SerdeObject;
        let mut raw = Vec::new();
        p.write_custom(&mut raw, halo2_proofs::SerdeFormat::RawBytes)
            .unwrap();
        let n = p.get_g().len();
        raw[4 + 64 * n..4 + 128 * n]
            .chunks(64)
            .map(|c| G1Affine::from_raw_bytes(c).unwrap())
            .collect()
    }

    fn sample(
        k: u32,
    ) -> halo2_proofs::poly::kzg::commitment::ParamsKZG<halo2_proofs::halo2curves::bn256::Bn256>
    {
        setup_from_rng(k, ChaCha20Rng::seed_from_u64(99)).unwrap()
    }

    #[test]
    fn honest_powers_and_lagrange_pass() {
        let p = sample(6);
        check_powers(p.get_g(), &p.g2(), &p.s_g2()).unwrap();
        check_lagrange(6, p.get_g(), &lagrange_of(&p)).unwrap();
    }

    #[test]
    fn each_forgery_is_caught() {
        let p = sample(6);
        let (g, g2, s) = (p.get_g().to_vec(), p.g2(), p.s_g2());
        // One power replaced by another point of G1 (a consistent-looking file except there).
        for i in [1usize, 17, 63] {
            let mut bad = g.clone();
            bad[i] = (bad[i] + G1Affine::generator()).to_affine();
            let e = check_powers(&bad, &g2, &s).unwrap_err();
            assert!(e.contains("not the powers"), "{i}: {e}");
        }
        // Another τ's G2 point.
        let other = sample(1);
        let other_s = setup_from_rng(6, ChaCha20Rng::seed_from_u64(5))
            .unwrap()
            .s_g2();
        assert!(check_powers(&g, &g2, &other_s).is_err());
        let _ = other;
        // Degenerate τ = 1: every power the generator.
        let ones = vec![G1Affine::generator(); 64];
        assert!(check_powers(&ones, &g2, &g2)
            .unwrap_err()
            .contains("τ is 0 or 1"));
        // A first power that is not the generator.
        let mut bad = g.clone();
        bad.swap(0, 1);
        assert!(check_powers(&bad, &g2, &s)
            .unwrap_err()
            .contains("generator"));
        // One Lagrange point changed.
        let mut lag = lagrange_of(&p);
        lag[5] = (lag[5] + G1Affine::generator()).to_affine();
        assert!(check_lagrange(6, &g, &lag).is_err());
        // Two Lagrange points swapped.
        let mut lag = lagrange_of(&p);
        lag.swap(2, 3);
        assert!(check_lagrange(6, &g, &lag).is_err());
    }
}
