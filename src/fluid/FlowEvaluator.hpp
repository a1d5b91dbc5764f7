// Fluid fields of a configured BoundaryFluid at arbitrary points (fluidbody.md "Fluid quantities"):
// potentials phi_I, Phi_B, stream functions psi_gamma, psi_I, Psi_B and velocities u_gamma, u_I,
// grad Phi_B; and a sampler over a rectangular grid (mask inside bodies) for io/FlowField.
#pragma once

#include <vector>

#include <Eigen/Dense>

#include "fluid/BoundaryFluid.hpp"

namespace kirchhoff::fluid {

/// All fields at one point z (fluid density not included: these are kinematic).
struct PointFields {
  double psiGamma = 0.0;   ///< stream function of the free vortices
  Vec2 uGamma = Vec2::Zero();
  double phiI = 0.0, psiI = 0.0;
  Vec2 uI = Vec2::Zero();
  Eigen::VectorXd phiB, psiB;  ///< 3n: per body dof (Omega_j, V_j1, V_j2), body-frame velocities
  Eigen::Matrix2Xd uB;         ///< 2 x 3n: grad Phi_B
};

/// Evaluates every field at z (z must lie in the fluid; inside a body psi has branch cuts).
PointFields evaluateFields(const BoundaryFluid& fluid, const Vec2& z);

/// Fields sampled on an nx x ny grid over [x0, x1] x [y0, y1], row-major (index iy * nx + ix),
/// for body velocities Xi: psi_B = <Psi_B, Xi>, (u, v) = u_gamma + u_I + <grad Phi_B, Xi>.
/// Points inside a body (or within `clearance` of its boundary) have mask 1 and zero values;
/// points within `clearance` of a vortex are masked 2.
struct FlowSample {
  std::vector<double> x, y;
  std::vector<double> psiGamma, psiI, psiB, u, v;
  std::vector<int> mask;
  std::vector<std::vector<Vec2>> outlines;  ///< spatial body outlines
  std::vector<Vec2> vortexPositions;
  std::vector<double> circulations;
};

/// Collective over the fluid's communicator (grid rows split over ranks); result on every rank.
FlowSample sampleFlow(const BoundaryFluid& fluid, const Eigen::VectorXd& Xi, double x0, double x1,
                      int nx, double y0, double y1, int ny, double clearance = 0.0);

}  // namespace kirchhoff::fluid
