// Point vortices grouped into leaf clusters of the cluster tree (docs/fluidbody.md (FB-61)): spatial halving
// into groups of at most `leafSize`, and the point-level expansions of a group: P2M of point sources (FB-51),
// L2P of a local expansion and its derivative at the points, target contractions and the source-point gradient.
#pragma once

#include <complex>
#include <vector>

#include <Eigen/Dense>

#include "fluid/fast/ClusterTree.hpp"

namespace kirchhoff::fluid {

class VortexClusters {
 public:
  /// Groups the points z by halving their set at the median along the longer side of its box until a group
  /// holds at most leafSize points; every group's disk holds its points (radius > 0).
  VortexClusters(const std::vector<std::complex<double>>& z, int leafSize);

  int size() const { return static_cast<int>(clusters_.size()); }
  const Cluster& cluster(int g) const { return clusters_[static_cast<std::size_t>(g)]; }
  /// Points of group g (indices into z), and the group of point i.
  const std::vector<int>& members(int g) const { return members_[static_cast<std::size_t>(g)]; }
  int group(int i) const { return group_[static_cast<std::size_t>(i)]; }

  /// Scaled multipole of the sources q_i at the points of g about its centre (FB-51):
  ///   a_0 = sum q_i,  a_k = -sum q_i ((z_i - c) / r)^k / k.
  Eigen::VectorXcd multipole(int g, const std::vector<std::complex<double>>& q, int order) const;
  /// Target contraction c_l = sum_i w_i ((z_i - c) / r)^l over the points of g: Re c . L = Re sum_i w_i Omega(z_i).
  Eigen::VectorXcd contraction(int g, const std::vector<std::complex<double>>& w, int order) const;
  /// The local expansion L of group g at its points: Omega(z_i) and Omega'(z_i) (outputs indexed by point).
  void evaluate(int g, const Eigen::VectorXcd& L, std::vector<std::complex<double>>* value,
                std::vector<std::complex<double>>* derivative) const;
  /// d/dz_i of Re e . a(q) for the multipole a of multipole(): the holomorphic derivative
  /// -q_i sum_{k>=1} e_k ((z_i - c) / r)^(k-1) / r (dF/dx = Re, dF/dy = -Im), added to out[i] (FB-61).
  void addSourceDerivative(int g, const Eigen::VectorXcd& e, const std::vector<std::complex<double>>& q,
                           std::vector<std::complex<double>>& out) const;

 private:
  void split(std::vector<int>& index, int begin, int end, int leafSize);
  /// (z_i - c) / r of the points of g.
  std::vector<std::complex<double>> scaled(int g) const;

  std::vector<std::complex<double>> z_;
  std::vector<Cluster> clusters_;
  std::vector<std::vector<int>> members_;
  std::vector<int> group_;
};

}  // namespace kirchhoff::fluid
