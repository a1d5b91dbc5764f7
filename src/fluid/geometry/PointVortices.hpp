// Point vortices in the plane (fluidbody.md conventions, K = circulation, counter-clockwise):
// Biot–Savart velocity u_gamma, the vortex–vortex part of the Kirchhoff–Routh function and its gradient.
#pragma once

#include <cmath>
#include <vector>

#include <Eigen/Dense>

#include "core/Constants.hpp"
#include "lie/SE2.hpp"

namespace kirchhoff::fluid {

using lie::Vec2;

/// Vortex positions gamma_i and circulations K_i.
struct Vortices {
  std::vector<Vec2> gamma;
  std::vector<double> K;
  int size() const { return static_cast<int>(gamma.size()); }
};

/// u_gamma(z) = sum_{i != skip} (K_i / 2 pi) J (z - gamma_i) / |z - gamma_i|^2.
inline Vec2 biotSavart(const Vortices& v, const Vec2& z, int skip = -1) {
  Vec2 u = Vec2::Zero();
  for (int i = 0; i < v.size(); ++i) {
    if (i == skip) continue;
    const Vec2 r = z - v.gamma[i];
    u += (v.K[i] / (kTwoPi * r.squaredNorm())) * lie::Jrot(r);
  }
  return u;
}

/// Stream function of the free vortices, psi_gamma(z) = sum_i (K_i / 2 pi) log|z - gamma_i|.
inline double vortexStreamFunction(const Vortices& v, const Vec2& z, int skip = -1) {
  double psi = 0.0;
  for (int i = 0; i < v.size(); ++i)
    if (i != skip) psi += v.K[i] / kTwoPi * std::log((z - v.gamma[i]).norm());
  return psi;
}

/// Vortex–vortex part of W_G for the pairs (i, j), i < j, with i in [begin, end):
///   W_vv = sum_{i<j} K_i K_j / (2 pi) log|gamma_i - gamma_j|.
/// The rows [begin, end) let the caller split the pair sum over ranks.
inline double vortexInteraction(const Vortices& v, int begin, int end) {
  double w = 0.0;
  for (int i = begin; i < end; ++i)
    for (int j = i + 1; j < v.size(); ++j)
      w += v.K[i] * v.K[j] / kTwoPi * std::log((v.gamma[i] - v.gamma[j]).norm());
  return w;
}

/// Adds d W_vv / d gamma for the pairs with i in [begin, end) to grad (2 entries per vortex):
///   d W_vv / d gamma_i = sum_{j != i} K_i K_j / (2 pi) (gamma_i - gamma_j) / |gamma_i - gamma_j|^2
///                      = -K_i J u_gamma(gamma_i)   (Weißmann 2014, eq. (52)).
inline void addVortexInteractionGradient(const Vortices& v, int begin, int end,
                                         Eigen::Ref<Eigen::VectorXd> grad) {
  for (int i = begin; i < end; ++i)
    for (int j = i + 1; j < v.size(); ++j) {
      const Vec2 r = v.gamma[i] - v.gamma[j];
      const Vec2 g = (v.K[i] * v.K[j] / (kTwoPi * r.squaredNorm())) * r;
      grad.segment<2>(2 * i) += g;
      grad.segment<2>(2 * j) -= g;
    }
}

}  // namespace kirchhoff::fluid
