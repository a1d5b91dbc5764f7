// Two-body added mass (docs/fluidbody.md (FB-7), (FB-21)): A(g) symmetric positive
// definite, invariant under a common rigid motion, tending to the single-body values with distance.
#include <gtest/gtest.h>

#include <cmath>

#include "FluidTestUtil.hpp"

namespace kirchhoff::fluid {
namespace {

Eigen::MatrixXd twoBodyAddedMass(const std::vector<Polygon>& b, const std::vector<lie::Pose>& g,
                                 double* asym = nullptr) {
  PanelFluid f(PETSC_COMM_SELF, b, 1.0);
  f.setConfiguration(g, Vortices{});
  if (asym) *asym = f.addedMassAsymmetry();
  return f.addedMass();
}

TEST(TwoBodies, AddedMassIsSymmetricPositiveDefinite) {
  const std::vector<Polygon> b = {ellipse(1.0, 0.4, 64), plate(1.5, 0.15, 64)};
  const std::vector<lie::Pose> g = {lie::Pose{0.3, Vec2(0, 0)}, lie::Pose{-0.4, Vec2(0.6, 1.1)}};
  double asym = 0.0;
  const Eigen::MatrixXd A = twoBodyAddedMass(b, g, &asym);
  EXPECT_LT((A - A.transpose()).cwiseAbs().maxCoeff(), 1e-15);
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(A);
  // Eigenvalues measured 3.2e-2 .. 3.63 (smallest: the plate's rotation).
  EXPECT_GT(es.eigenvalues().minCoeff(), 1e-4 * es.eigenvalues().maxCoeff());
  // The raw discrete tensor is symmetric only up to discretization error: measured 9.7e-5.
  EXPECT_LT(asym, 1e-2);
}

TEST(TwoBodies, InvariantUnderCommonRigidMotion) {
  const std::vector<Polygon> b = {ellipse(1.0, 0.4, 64), plate(1.5, 0.15, 64)};
  const std::vector<lie::Pose> g = {lie::Pose{0.3, Vec2(0, 0)}, lie::Pose{-0.4, Vec2(0.6, 1.4)}};
  const Eigen::MatrixXd A = twoBodyAddedMass(b, g);
  const lie::Pose h{1.9, Vec2(-3.0, 7.5)};
  const Eigen::MatrixXd Ah = twoBodyAddedMass(b, {h * g[0], h * g[1]});
  // Body-frame tensor: identical up to the round-off of the moved geometry.
  EXPECT_LT((Ah - A).cwiseAbs().maxCoeff(), 1e-12 * A.cwiseAbs().maxCoeff());
}

TEST(TwoBodies, TendsToSingleBodyValuesWithSeparation) {
  // Two unit circles at centre distance D: the coupling block decays like D^-2 (dipole-dipole)
  // and the change of the own block like D^-4 (image of the image). Measured exponents from
  // D = 8 to 16: 2.000 and 4.03 (16 to 32: 2.000, 4.008). Leading coupling along the line of centres: body 2 doubles the
  // incident gradient R^2 U / D^2 on its surface, A_12(V1, V1) = -2 pi R^4 / D^2 (measured
  // -1.0027 of it at D = 8, 64 edges).
  const std::vector<Polygon> b = {circle(1.0, 64), circle(1.0, 64)};
  const Eigen::MatrixXd single = twoBodyAddedMass({b[0]}, {lie::Pose{}});
  double coupling[2], self[2];
  for (int k = 0; k < 2; ++k) {
    const double D = 8.0 * (1 << k);
    const Eigen::MatrixXd A = twoBodyAddedMass(b, {lie::Pose{}, lie::Pose{0.0, Vec2(D, 0.0)}});
    coupling[k] = A.block<3, 3>(0, 3).cwiseAbs().maxCoeff();
    self[k] = (A.block<3, 3>(0, 0) - single).cwiseAbs().maxCoeff();
    if (k == 0) {
      EXPECT_NEAR(A(1, 4) * D * D / (2 * kPi), -1.0, 0.01);
    }
  }
  EXPECT_NEAR(std::log2(coupling[0] / coupling[1]), 2.0, 0.05);
  EXPECT_NEAR(std::log2(self[0] / self[1]), 4.0, 0.1);
}

}  // namespace
}  // namespace kirchhoff::fluid
