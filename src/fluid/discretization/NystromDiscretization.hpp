// The Nystrom discretization of smooth analytic bodies, docs/fluidbody.md (FB-34)-(FB-38) in
// "High-order boundary integrals": periodic trapezoidal nodes, the adjoint double layer with its
// curvature diagonal, the Kress-corrected log kernel, trapezoidal interactions, upsampled near fields.
#pragma once

#include <map>
#include <vector>

#include "fluid/discretization/PointSourceDiscretization.hpp"
#include "fluid/geometry/SmoothCurve.hpp"

namespace kirchhoff::fluid {

class NystromDiscretization : public PointSourceDiscretization {
 public:
  /// Body j: curve j with nodes[j] (even, >= 8) equispaced parameter nodes s_q = 2 pi q / N.
  NystromDiscretization(std::vector<SmoothCurve> curves, const std::vector<int>& nodes);

  std::string name() const override { return "nystrom"; }
  /// Upsampled (FB-38) for points closer than kNearFactor fine spacings to the curve.
  void pointField(int Q, const lie::Pose& gQ, const Complex& z, int first, int count, double* psi,
                  Complex* dOmega, double* phi = nullptr) const override;

  const SmoothCurve& curve(int j) const { return curves_[static_cast<std::size_t>(j)]; }
  /// Distance from the body-frame point Z to curve j (Newton on the nearest node's parameter).
  double distanceToCurve(int j, const Vec2& Z) const;
  /// Upsampling level of a target at body-frame point Z: 0 = the nodes, l = N 2^l fine nodes, the
  /// smallest l with fine spacing max|x'| 2 pi / (N 2^l) <= distance / kNearFactor (capped: kMaxFine).
  int upsamplingLevel(int j, const Vec2& Z) const;

  /// Trapezoidal error of a kernel singular at distance d with spacing h ~ exp(-2 pi d / h): 5 spacings
  /// per distance give ~ 2e-14.
  static constexpr double kNearFactor = 5.0;
  /// Largest interpolation matrix N x N_fine kept per level (doubles).
  static constexpr long kMaxFine = 1L << 23;

 private:
  struct Fine {
    int size = 0;
    std::vector<Complex> x;  // body-frame fine nodes
    Eigen::MatrixXd T;       // N x N_fine: T(q, f) = |x'_q| (2 pi / N_fine) D_N(s_f - s_q)
  };
  const Fine& fine(int j, int level) const;

  std::vector<SmoothCurve> curves_;
  std::vector<std::vector<double>> speed_;
  std::vector<double> maxSpeed_;
  mutable std::vector<std::map<int, Fine>> fine_;
};

}  // namespace kirchhoff::fluid
