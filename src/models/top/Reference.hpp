// High-accuracy reference solution of the heavy-top equations (1.1) of Ohsawa 2019 by the adaptive
// DOP853 integrator (integrators/Dop853.hpp), for the error columns and the convergence study.
#pragma once

#include <vector>

#include <Eigen/Dense>

#include "integrators/Dop853.hpp"
#include "models/top/HeavyTop.hpp"

namespace kirchhoff::top {

/// (Pi, Gamma) at each of the increasing times (>= t0), starting from y0 at t0.
inline std::vector<Vec6> heavyTopReference(const HeavyTopParameters& par, const Vec6& y0, double t0,
                                           const std::vector<double>& times,
                                           const integrators::Dop853Options& opt = {},
                                           integrators::Dop853Stats* stats = nullptr) {
  auto f = [&par](double, const Eigen::VectorXd& y) {
    return Eigen::VectorXd(heavyTopField<double>(par, Vec6(y)));
  };
  const auto ys = integrators::dop853(f, t0, Eigen::VectorXd(y0), times, opt, stats);
  std::vector<Vec6> out;
  out.reserve(ys.size());
  for (const auto& y : ys) out.emplace_back(y);
  return out;
}

}  // namespace kirchhoff::top
