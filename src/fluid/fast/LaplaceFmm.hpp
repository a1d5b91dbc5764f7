// A 2D Laplace fast multipole method for point sources (docs/fluidbody.md (FB-50)-(FB-54)): the complex
// log sums Phi(t) = sum_j q_j log(t - z_j) and Phi'(t) on a quadtree, cost O((M + T) p^2) for M sources.
//
// Used for the vortex sums of a configuration with many vortices (the Kirchhoff–Routh pair sum, its
// gradient and the Biot–Savart velocities, fluid/VortexSums) and checked against direct summation.
#pragma once

#include <complex>
#include <vector>

namespace kirchhoff::fluid {

struct FmmOptions {
  /// Terms p of the multipole and local expansions: the relative error decays like 0.55^p with the
  /// well-separated boxes below (p = 45: <= 1e-12 relative).
  int order = 45;
  /// Largest mean number of sources per leaf box (sets the uniform depth of the tree).
  int leafSize = 40;
};

/// Outputs of the sums at the targets (null: not wanted), for strengths q_j at the points z_j:
///   phi(t)   = Re sum_j q_j log(t - z_j)   (= sum_j q_j log|t - z_j| for real q; only asked for real q),
///   dPhi(t)  = sum_j q_j / (t - z_j)        (Phi' of the complex log),
///   d2Phi(t) = -sum_j q_j / (t - z_j)^2     (Phi'').
struct FmmOutputs {
  double* phi = nullptr;
  std::complex<double>* dPhi = nullptr;
  std::complex<double>* d2Phi = nullptr;
};

/// The sums at the targets t_k. selfOffset >= 0: target k is the source k + selfOffset (targets a
/// contiguous range of the sources), whose own term is left out; -1: targets apart from the sources.
/// Near pairs (the same or a neighbouring leaf) are summed directly, the rest through the expansions.
void laplaceFmm(const std::vector<std::complex<double>>& z, const std::vector<std::complex<double>>& q,
                const std::vector<std::complex<double>>& targets, int selfOffset, const FmmOutputs& out,
                const FmmOptions& options = FmmOptions());

/// The same sums by direct summation (O(M T)): the reference of the tests and the small-M path.
void laplaceDirect(const std::vector<std::complex<double>>& z, const std::vector<std::complex<double>>& q,
                   const std::vector<std::complex<double>>& targets, int selfOffset, const FmmOutputs& out);

}  // namespace kirchhoff::fluid
