// The matrix-free Newton-Krylov DEL solve (-del_jacobian newton_krylov, docs/fluidbody.md (FB-29a)):
// residual evaluations per step bounded independently of the number of bodies, the same trajectory
// as the lagged and fd Newton matrices, and the discrete momentum map (FB-27) conserved.
#include <gtest/gtest.h>

#include <numeric>
#include <petscsys.h>

#include "DiskGrid.hpp"

using namespace kirchhoff;
using namespace kirchhoff::fluidbody;

namespace {

using test::diskGrid;
using test::momentumMapDrift;
using test::panelModel;
using test::stepEvaluations;
using test::stateField;

/// -del_jacobian for the models built in its scope.
struct JacobianOption : test::ScopedOptions {
  explicit JacobianOption(const char* mode) : test::ScopedOptions{{"-del_jacobian", mode}} {}
};

/// q after `steps` steps with -del_jacobian `mode`.
Eigen::VectorXd trajectoryEnd(const FluidBodyConfig& c, const char* mode, int steps) {
  const JacobianOption option(mode);
  auto m = panelModel(c);
  State s = m->initialState();
  for (int k = 0; k < steps; ++k, s.step += 1) EXPECT_TRUE(m->step(s).iterations > 0);
  return stateField(s, "q");
}

}  // namespace

TEST(NewtonKrylov, EvaluationsPerStepIndependentOfBodyCount) {
  // Bound: at most 3 Newton iterations (two to reach round-off from the extrapolated predictor, at
  // most one more that detects the stall), each one residual plus at most 6 GMRES products (the block-diagonal
  // preconditioned Jacobian is I + E with |E| set by the pair coupling (a / d)^2 of nearest
  // neighbours, not by n: 5 products reach rtol 1e-5), plus the first residual: 1 + 3 (1 + 6) = 22.
  // Measured 15.0 at 8 and 14.7 at 32 bodies (5-6 GMRES products per Newton iteration: the coupling
  // of a disk to its lattice neighbours saturates); lagged refreshes 3n + 2m = 32 and 104 columns
  // instead (every jacobian_lag steps).
  double mean[2];
  int k = 0;
  for (int n : {8, 32}) {
    const JacobianOption option("newton_krylov");
    auto m = panelModel(diskGrid(n, 8));
    const std::vector<int> evals = stepEvaluations(*m, 3);
    for (std::size_t i = 0; i < evals.size(); ++i) EXPECT_LE(evals[i], 22) << n << " bodies, step " << i;
    mean[k++] = std::accumulate(evals.begin(), evals.end(), 0.0) / static_cast<double>(evals.size());
  }
  std::printf("newton_krylov evaluations per step: %.1f at 8 bodies, %.1f at 32 bodies\n", mean[0], mean[1]);
}

TEST(NewtonKrylov, SameTrajectoryAsLaggedAndFd) {
  // Every Newton matrix solves the same DEL equations (FB-25) to round-off, so the trajectories agree
  // to round-off amplified by 20 steps (measured 1.8e-15 relative); required 1e-10.
  const FluidBodyConfig c = diskGrid(4, 16);
  const Eigen::VectorXd nk = trajectoryEnd(c, "newton_krylov", 20);
  for (const char* mode : {"lagged", "fd"}) {
    const Eigen::VectorXd q = trajectoryEnd(c, mode, 20);
    const double rel = (nk - q).norm() / q.norm();
    std::printf("|q_nk - q_%s| / |q| = %.2e after 20 steps\n", mode, rel);
    EXPECT_LT(rel, 1e-10) << mode;
  }
}

TEST(NewtonKrylov, MomentumMapConserved) {
  // (FB-27) is conserved by the DEL map to the solver tolerance: relative change over 300 steps
  // (measured 7.9e-13) below 1e-10, on 3 bodies with 4 vortices.
  const JacobianOption option("newton_krylov");
  const FluidBodyConfig c = diskGrid(3, 16);
  auto m = panelModel(c);
  EXPECT_EQ(m->name(), "fluidbody");
  const double drift = momentumMapDrift(*m, 300);
  std::printf("newton_krylov: momentum map drift %.2e relative over 300 steps\n", drift);
  EXPECT_LT(drift, 1e-10);
}

TEST(NewtonKrylov, OnlyTheLaggedModeKeepsTheJacobianCorrection) {
  // (3n + 2m)^2 values in lagged mode only (0.5 GB at 4096 vortices); a state of either mode restores
  // into the other (-del_jacobian may change at a restart), the lagged mode then refreshes E.
  const FluidBodyConfig c = diskGrid(4, 8);
  const std::size_t d = 3 * 4 + 2 * 4;
  State lagged, nk;
  {
    JacobianOption o("lagged");
    auto m = panelModel(c);
    lagged = m->initialState();
    m->step(lagged);
    EXPECT_EQ(lagged["jacobian_correction"].size(), d * d);
    EXPECT_EQ(lagged["jacobian_correction_valid"][0], 1.0);
  }
  {
    JacobianOption o("newton_krylov");
    auto m = panelModel(c);
    nk = m->initialState();
    EXPECT_TRUE(nk["jacobian_correction"].empty());
    State s = lagged;
    m->restore(s);
    EXPECT_TRUE(s["jacobian_correction"].empty());
    EXPECT_EQ(s["jacobian_correction_valid"][0], 0.0);
  }
  {
    JacobianOption o("lagged");
    auto m = panelModel(c);
    State s = nk;
    m->restore(s);
    EXPECT_EQ(s["jacobian_correction_valid"][0], 0.0);
    m->step(s);
    EXPECT_EQ(s["jacobian_correction"].size(), d * d);
  }
}

TEST(NewtonKrylov, RestartOnTheWarmStartedKspPathIsBitwise) {
  // The panel KSP starts every solve from the last solution of its right-hand sides within the step
  // (FB-47a, default) and forgets them at the next step: 6 steps straight equal 3 steps, the state
  // handed to a fresh model (restore), 3 more, bit for bit, on the dense and the fast operator; the
  // inverse Legendre map of the invariants (conjugate gradients from 12 bodies, (FB-29b)) between
  // steps must not change the bits either.
  for (const char* op : {"dense", "fast"}) {
    PetscOptionsSetValue(nullptr, "-panel_solver", "ksp");
    PetscOptionsSetValue(nullptr, "-panel_operator", op);
    const FluidBodyConfig c = diskGrid(12, 8);
    auto straight = panelModel(c);
    State a = straight->initialState();
    for (int k = 0; k < 6; ++k, a.step += 1) straight->step(a);
    auto first = panelModel(c);
    State b = first->initialState();
    for (int k = 0; k < 3; ++k, b.step += 1) {
      first->step(b);
      first->invariants(b, {});
    }
    auto second = panelModel(c);
    second->restore(b);
    for (int k = 0; k < 3; ++k, b.step += 1) second->step(b);
    PetscOptionsClearValue(nullptr, "-panel_solver");
    PetscOptionsClearValue(nullptr, "-panel_operator");
    for (const char* f : {"q", "p", "q_previous"}) EXPECT_EQ(a[f], b[f]) << op << " operator, field " << f;
  }
}

TEST(NewtonKrylov, IterativeInverseLegendreMapMatchesTheFullTensor) {
  // (FB-29b): from 12 bodies Xi = (M + A)^-1 (P - M_C) runs by preconditioned CG on A Xi (two solves per
  // iteration) instead of Cholesky of the full A(g) (3n solves); the two agree to 1e-12 relative, and
  // so does the energy of the invariant log.
  const FluidBodyConfig c = diskGrid(12, 16);
  auto m = panelModel(c);
  State s = m->initialState();
  m->step(s);
  const Eigen::VectorXd q = stateField(s, "q"), p = stateField(s, "p");
  MidpointLagrangian& L = m->lagrangian();
  const Eigen::VectorXd Xi = L.bodyVelocity(q, p);  // CG at 12 bodies
  const Eigen::VectorXd full = L.kirchhoffTensor().llt().solve(L.bodyMomenta(q, p) - m->fluid().vortexMomentum());
  const double rel = (Xi - full).norm() / full.norm();
  std::printf("inverse Legendre map, CG against Cholesky of M + A(g): %.2e relative\n", rel);
  EXPECT_LT(rel, 1e-12);
  // The velocities found are those whose Legendre transform is p.
  const Eigen::VectorXd back = L.legendre(q, Xi);
  EXPECT_LT((back - p).head(36).norm(), 1e-12 * p.head(36).norm());
}

TEST(NewtonKrylov, HamiltonianFromMomentaStopsAtTheEnergysAccuracy) {
  // (FB-29f): the invariant log's H(q, p) = 1/2 <x, P - M_C + r> - W_G is second order in the CG residual r
  // (error <= 1/2 r^T M^-1 r), so its CG stops long before |r| <= 1e-13 |P| and starts from the velocities
  // extrapolated from q_previous; H agrees with the Cholesky path of the full tensor to round-off.
  const FluidBodyConfig c = diskGrid(12, 16);
  auto m = panelModel(c);
  State s = m->initialState();
  for (int k = 0; k < 2; ++k, s.step += 1) m->step(s);
  const Eigen::VectorXd q = stateField(s, "q"), p = stateField(s, "p");
  MidpointLagrangian& L = m->lagrangian();
  L.bodyVelocity(q, p);  // CG to |r| <= 1e-13 |P|; leaves the fluid at q
  const int full = L.legendreIterations();
  const Eigen::VectorXd exact = L.kirchhoffTensor().llt().solve(L.bodyMomenta(q, p) - m->fluid().vortexMomentum());
  const double reference = L.energy(exact);
  const double cold = L.hamiltonian(q, p);
  const int coldIterations = L.legendreIterations();
  const Eigen::VectorXd guess = m->velocityGuess(s);
  ASSERT_EQ(guess.size(), 36);
  const double warm = L.hamiltonian(q, p, guess);
  const int warmIterations = L.legendreIterations();
  std::printf("H(q, p): CG iterations %d (|r| <= 1e-13 |P|), %d (energy bound), %d (energy bound, extrapolated "
              "start); H against the full tensor %.1e / %.1e; guess error %.1e\n",
              full, coldIterations, warmIterations, std::abs(cold - reference) / std::abs(reference),
              std::abs(warm - reference) / std::abs(reference), (guess - exact).norm() / exact.norm());
  EXPECT_LT(std::abs(cold - reference), 1e-13 * std::abs(reference));
  EXPECT_LT(std::abs(warm - reference), 1e-13 * std::abs(reference));
  EXPECT_LT((guess - exact).norm(), 1e-3 * exact.norm());  // O(dt^2) from the step velocities
  EXPECT_LT(coldIterations, full);
  EXPECT_LT(warmIterations, coldIterations);
}
