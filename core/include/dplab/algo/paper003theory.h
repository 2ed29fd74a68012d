// SPDX-License-Identifier: GPL-3.0-or-later
//
// Paper 003's constant-step theory (Xuan & Wang, Theorems 3 and 4; γ_k = β_k = 1): the linear
// system (30) [U_k, X_k, Y_k]ᵀ ≤ A^k [U_0, X_0, Y_0]ᵀ + Σ_l A^l B with A and B of (31), its
// steady state (I − A)⁻¹B = [θ1, θ2, θ3]ᵀ when ρ(A) < 1, and θ = 2nθ1 + 2θ2, which bounds
// limsup_k E‖x_k − 1x*‖² (U = E‖x̄ − x*‖², X = E‖x − 1x̄‖², ‖x − 1x*‖² ≤ 2nU + 2X).
//
// Readings (docs/paper003-results.md §3): d_I² = ‖I − 11ᵀ/n‖_F² = n − 1; σ² is one agent's
// E‖η_{i,k}‖² = 2 r b² for i.i.d. Laplace(b) coordinates — every place the proof bounds
// E‖Mη‖² by ‖M‖²σ² holds with it, because E‖Mη‖_F² = ‖M‖_F² E‖η_i‖² for i.i.d. agents.
//
// Threading: pure functions.
#pragma once

#include <Eigen/Core>

#include <array>

namespace dplab {

/** The constants Theorem 3 is stated in. */
struct Paper003Constants {
    int n = 0;             ///< agents
    double mu = 0.0;       ///< strong convexity of every f_i
    double L = 0.0;        ///< gradient Lipschitz constant of every f_i
    double rhoW = 0.0;     ///< ρ_w = ρ(W − 11ᵀ/n)
    double rhoWo = 0.0;    ///< ρ(W_o), W with its diagonal set to zero
    double sigmaEta2 = 0.0; ///< σ_η² = E‖η_{i,k}‖² (the tracker's noise, one agent)
    double sigmaXi2 = 0.0;  ///< σ_ξ² = E‖ξ_{i,k}‖² (the decision's noise, one agent)
};

struct Paper003SteadyState {
    Eigen::Matrix3d A;
    Eigen::Vector3d B;
    double rhoA = 0.0;  ///< spectral radius of A; the bound contracts like ρ(A)^k
    double theta = 0.0; ///< 2nθ1 + 2θ2; +∞ when ρ(A) ≥ 1 (no finite steady state)
};

/** A and B of (31) at step α, ρ(A), and θ of Sec. 4.2. */
Paper003SteadyState paper003SteadyState(const Paper003Constants &c, double alpha);

/** Theorem 3's three sufficient step bounds {1/(μ+L), (1−ρ_w²)/(4√2 d_I L),
 *  √(2d3/(d2 + √(d2² + 4d1d3)))}; α below all three gives ρ(A) < 1. */
std::array<double, 3> paper003Theorem3StepBounds(const Paper003Constants &c);

/** Theorem 4's extra bound (1−ρ_w²)/(8 d_I L) under which θ increases in ρ_w and ρ(W_o). */
double paper003Theorem4StepBound(const Paper003Constants &c);

} // namespace dplab
