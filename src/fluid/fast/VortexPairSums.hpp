// The vortex–vortex sums of a configuration, split over the ranks: W_vv = sum_{i<j} K_i K_j / (2 pi)
// log|gamma_i - gamma_j| (docs/fluidbody.md (FB-10)), its gradient and the Biot–Savart velocities.
//
// Below kVortexFmmMin vortices the pair sums run directly over this rank's rows of the pair triangle
// (balanced by pair count); from kVortexFmmMin on through the FMM ((FB-50)-(FB-55)), this rank's targets.
#pragma once

#include <complex>
#include <vector>

#include <Eigen/Dense>

#include "fluid/fast/LaplaceFmm.hpp"
#include "fluid/geometry/PointVortices.hpp"

namespace kirchhoff::fluid {

/// Fewest vortices summed by the FMM (measured break-even ~500 against the direct i < j sums,
/// bench_fluid_fmm; twice that, so that every smaller configuration keeps the direct sums).
constexpr int kVortexFmmMin = 1024;

class VortexPairSums {
 public:
  /// This rank's share of the sums for `rank` of `ranks`: summed over the ranks they give W_vv and
  /// its gradient. The FMM, when used, is evaluated at once for both.
  void update(const Vortices& v, int rank, int ranks);
  /// This rank's share of W_vv.
  double routhShare() const { return routh_; }
  /// This rank's share of d W_vv / d gamma (2 m entries; computed on first use on the direct path).
  const Eigen::VectorXd& gradientShare();
  bool fast() const { return fast_; }

 private:
  /// Rows [begin, end) of the pair triangle of this rank, balanced by pair count.
  static void rows(int m, int rank, int ranks, int& begin, int& end);
  Vortices v_;
  int begin_ = 0, end_ = 0;
  bool fast_ = false, gradientValid_ = false;
  double routh_ = 0.0;
  Eigen::VectorXd gradient_;
};

/// u - i v of the free vortices at the points z (no vortex among them), all points: direct below
/// kVortexFmmMin vortices, else the FMM ((FB-55): u - i v = -i Phi' / (2 pi) with strengths K).
std::vector<std::complex<double>> vortexField(const Vortices& v, const std::vector<std::complex<double>>& z);

/// Biot–Savart velocities u_gamma(gamma_i), the self term left out, for every vortex.
std::vector<Vec2> vortexSelfVelocities(const Vortices& v);

}  // namespace kirchhoff::fluid
