// Helpers shared by the fluid tests: configurations from a q vector (fluidbody.md layout
// q = (theta_j, y_j)_j, (gamma_i)_i), central differences of F, common test scenes.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include <Eigen/Dense>

#include "fluid/PanelFluid.hpp"
#include "fluid/geometry/Shapes.hpp"

namespace kirchhoff::fluid::test {

/// max |a - b| / max |b|: the relative difference of two matrices (replicated or distributed results
/// against a serial reference).
inline double relDiff(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  return (a - b).cwiseAbs().maxCoeff() / std::max(b.cwiseAbs().maxCoeff(), 1e-300);
}

inline void unpack(const Eigen::VectorXd& q, int n, int m, std::vector<lie::Pose>& poses,
                   Vortices& v, const std::vector<double>& K) {
  poses.resize(n);
  for (int j = 0; j < n; ++j) poses[j] = lie::Pose{q[3 * j], Vec2(q[3 * j + 1], q[3 * j + 2])};
  v.gamma.resize(m);
  v.K = K;
  for (int i = 0; i < m; ++i) v.gamma[i] = Vec2(q[3 * n + 2 * i], q[3 * n + 2 * i + 1]);
}

inline Eigen::VectorXd pack(const std::vector<lie::Pose>& poses, const Vortices& v) {
  const int n = static_cast<int>(poses.size()), m = v.size();
  Eigen::VectorXd q(3 * n + 2 * m);
  for (int j = 0; j < n; ++j) q.segment<3>(3 * j) << poses[j].theta, poses[j].y.x(), poses[j].y.y();
  for (int i = 0; i < m; ++i) q.segment<2>(3 * n + 2 * i) = v.gamma[i];
  return q;
}

/// F(q) = 1/2 <A Xi, Xi> + W_G + <M_C, Xi> after setConfiguration(q).
inline double lagrangianAt(BoundaryFluid& f, const Eigen::VectorXd& q, const std::vector<double>& K,
                           const Eigen::VectorXd& Xi) {
  std::vector<lie::Pose> poses;
  Vortices v;
  unpack(q, f.bodyCount(), static_cast<int>(K.size()), poses, v, K);
  f.setConfiguration(poses, v);
  return f.lagrangianValue(Xi);
}

/// Central differences of F with step h on every coordinate.
inline Eigen::VectorXd centralDifferences(BoundaryFluid& f, const Eigen::VectorXd& q,
                                          const std::vector<double>& K, const Eigen::VectorXd& Xi,
                                          double h) {
  Eigen::VectorXd g(q.size());
  for (int k = 0; k < q.size(); ++k) {
    Eigen::VectorXd a = q, b = q;
    a[k] += h;
    b[k] -= h;
    g[k] = (lagrangianAt(f, a, K, Xi) - lagrangianAt(f, b, K, Xi)) / (2.0 * h);
  }
  lagrangianAt(f, q, K, Xi);
  return g;
}

/// Rotation by angle a about the origin and then translation by c, applied to every body and vortex.
inline Eigen::VectorXd rigidMotion(const Eigen::VectorXd& q, int n, int m, double a, const Vec2& c) {
  Eigen::VectorXd r = q;
  const lie::Mat2 R = lie::rotation(a);
  for (int j = 0; j < n; ++j) {
    r[3 * j] += a;
    r.segment<2>(3 * j + 1) = R * q.segment<2>(3 * j + 1) + c;
  }
  for (int i = 0; i < m; ++i) r.segment<2>(3 * n + 2 * i) = R * q.segment<2>(3 * n + 2 * i) + c;
  return r;
}

}  // namespace kirchhoff::fluid::test
