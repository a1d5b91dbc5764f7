// The isolated added mass A_j^iso of docs/fluidbody.md (FB-29a) (fluid/IsolatedAddedMass): equal to the
// one-body A(g) of the same discretization, to the closed forms of an ellipse, and the limit of the
// diagonal blocks of the coupled A(g) when the bodies move apart.
#include <gtest/gtest.h>

#include <cmath>

#include "FluidTestUtil.hpp"
#include "fluid/IsolatedAddedMass.hpp"

namespace kirchhoff::fluid {
namespace {

TEST(IsolatedAddedMass, EqualsTheOneBodyTensorAndTheClosedForm) {
  // Same discrete functional (FB-21) on the same self-blocks: equal to round-off (measured 5e-16).
  // Against the ellipse's closed forms at 128 edges: measured 2e-5, 3.5e-4, 5.0e-4 (panel accuracy).
  const Polygon e = ellipse(1.0, 0.5, 128);
  PanelFluid f(PETSC_COMM_SELF, {e}, 1.7);
  f.setConfiguration({lie::Pose{0.3, lie::Vec2(1.0, -2.0)}}, Vortices{});
  const Eigen::Matrix3d iso = isolatedAddedMass(f.discretization(), 1.7)[0];
  const double same = (iso - f.addedMass()).cwiseAbs().maxCoeff() / iso.cwiseAbs().maxCoeff();
  EXPECT_LT(same, 1e-13);
  for (int k = 0; k < 3; ++k) {
    std::printf("entry %d: %.2e against the closed form; %.1e against A(g)\n", k,
                std::abs(iso(k, k) / (1.7 * e.exactAddedMass[k]) - 1.0), same);
    EXPECT_LT(std::abs(iso(k, k) - 1.7 * e.exactAddedMass[k]), 2e-3 * 1.7 * e.exactAddedMass[k]) << k;
  }
}

TEST(IsolatedAddedMass, LimitOfTheCoupledDiagonalBlocks) {
  // Two disks (radius 0.5) at distance D: A_jj(g) - A_j^iso decays like D^-4 (the image of the
  // image dipole); measured 9.1e-3 at D = 2 and 3.1e-5 at D = 8 relative to |A_j^iso| (ratio 294).
  const Polygon c = circle(0.5, 32), s = ellipse(0.6, 0.3, 32);
  double err[2];
  int k = 0;
  for (double D : {2.0, 8.0}) {
    PanelFluid f(PETSC_COMM_SELF, {c, s}, 1.0);
    f.setConfiguration({lie::Pose{}, lie::Pose{0.4, lie::Vec2(D, 0.0)}}, Vortices{});
    const auto iso = isolatedAddedMass(f.discretization(), 1.0);
    const Eigen::MatrixXd A = f.addedMass();
    err[k] = 0.0;
    for (int j = 0; j < 2; ++j)
      err[k] = std::max(err[k], (A.block<3, 3>(3 * j, 3 * j) - iso[j]).cwiseAbs().maxCoeff() /
                                    iso[j].cwiseAbs().maxCoeff());
    ++k;
  }
  std::printf("A_jj(g) - A^iso: %.2e at D = 2, %.2e at D = 8\n", err[0], err[1]);
  EXPECT_LT(err[1], err[0] / 64.0);  // at least D^-3 (D^-4 expected: ratio 256)
  EXPECT_LT(err[1], 1e-4);
}

}  // namespace
}  // namespace kirchhoff::fluid
