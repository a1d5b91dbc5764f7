// Close gaps (docs/fluidbody.md "Close gaps", (FB-80)-(FB-83)): the added mass of two disks against the
// exact image-dipole series (FB-80) from gap 1e-1 to 1e-3 of the radius, the unknowns against the gap,
// a vortex close to a disk against the circle theorem, the gradient at a close gap, the guard.
#include <gtest/gtest.h>

#include <cstdio>

#include "FluidTestUtil.hpp"
#include "TwoCylinders.hpp"
#include "core/Error.hpp"
#include "fluid/discretization/NystromDiscretization.hpp"

namespace kirchhoff::fluid {
namespace {

constexpr double kPi = 3.14159265358979323846264338327950288;

std::unique_ptr<BoundaryFluid> disks(const std::vector<double>& radii, int nodes, double tolerance = 1e-8,
                                     PanelOperator op = PanelOperator::Dense) {
  std::vector<SmoothCurve> curves;
  std::vector<Polygon> outlines;
  std::vector<RefinableShape> shapes;
  for (double r : radii) {
    curves.push_back(circleCurve(r));
    outlines.push_back(curveOutline(curves.back(), nodes));
    shapes.push_back(refinableShape(curves.back()));
  }
  SolverOptions o;
  o.solver = op == PanelOperator::Fast ? PanelSolver::Ksp : PanelSolver::Direct;
  o.op = op;
  auto f = std::make_unique<BoundaryFluid>(PETSC_COMM_SELF, outlines,
                                           std::make_unique<NystromDiscretization>(
                                               curves, std::vector<int>(radii.size(), nodes)),
                                           1.0, o, "close_test_");
  f->enableRefinement(shapes, GaussPanelOptions{}, tolerance);
  return f;
}

/// Largest error of the translational entries of A against (FB-80), relative to the largest entry.
double twoDiskError(BoundaryFluid& f, double a1, double a2, double gap, Resolution* res = nullptr) {
  const std::vector<lie::Pose> poses{lie::Pose{0.3, Vec2(0.1, -0.2)}, lie::Pose{-1.1, Vec2(0.1 + a1 + a2 + gap, -0.2)}};
  f.refineFor(poses, Vortices{}, 0.0);
  if (res) *res = f.resolution();
  f.setConfiguration(poses, Vortices{});
  const Eigen::MatrixXd A = f.addedMass();
  const Eigen::Matrix4d R = test::twoCylinderAddedMass({0.1, -0.2}, a1, {0.1 + a1 + a2 + gap, -0.2}, a2, 1.0);
  // Body-frame velocities: V_spatial = R(theta) V_body, so A_body = blockdiag(R^T) A_spatial blockdiag(R).
  Eigen::Matrix4d Rot = Eigen::Matrix4d::Zero();
  Rot.topLeftCorner<2, 2>() = lie::rotation(poses[0].theta);
  Rot.bottomRightCorner<2, 2>() = lie::rotation(poses[1].theta);
  const Eigen::Matrix4d Rb = Rot.transpose() * R * Rot;
  const int idx[4] = {1, 2, 4, 5};
  double e = 0.0;
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b) e = std::max(e, std::abs(A(idx[a], idx[b]) - Rb(a, b)));
  return e / Rb.cwiseAbs().maxCoeff();
}

TEST(CloseGaps, ImageSeriesReference) {
  // Far apart: each disk's own added mass pi a^2 (rho = 1); symmetric; against uniform Nystrom at gap 0.5.
  const Eigen::Matrix4d far = test::twoCylinderAddedMass({0.0, 0.0}, 0.5, {1e4, 0.0}, 0.3, 1.0);
  EXPECT_NEAR(far(0, 0), kPi * 0.25, 1e-8);
  EXPECT_NEAR(far(3, 3), kPi * 0.09, 1e-8);
  const Eigen::Matrix4d R = test::twoCylinderAddedMass({0.0, 0.0}, 0.5, {1.0 + 1e-3, 0.0}, 0.5, 1.0);
  EXPECT_LT((R - R.transpose()).cwiseAbs().maxCoeff(), 1e-13);
  std::printf("two disks gap 1e-3: A_xx %.15f A_x1x2 %.15f A_yy %.15f A_y1y2 %.15f\n", R(0, 0), R(0, 2), R(1, 1), R(1, 3));
  auto f = disks({0.5, 0.5}, 512, 1e-8);
  const double e = twoDiskError(*f, 0.5, 0.5, 0.5);
  std::printf("uniform Nystrom 512 nodes, gap 0.5: %.2e\n", e);
  EXPECT_LT(e, 1e-12);
}

TEST(CloseGaps, TwoEqualDisksAgainstExactSeries) {
  for (double g : {4e-1, 2e-1, 1e-1, 3e-2, 1e-2, 3e-3, 1e-3}) {
    auto f = disks({0.5, 0.5}, 64);
    Resolution r;
    const double gap = g * 0.5;
    const double e = twoDiskError(*f, 0.5, 0.5, gap, &r);
    std::printf("gap %.0e R: error %.2e, unknowns %ld, refined %d, estimate %.2e\n", g, e, r.unknowns, r.refinedBodies,
                r.errorEstimate);
    EXPECT_LT(e, 1e-8) << "gap " << gap;
  }
}

}  // namespace
}  // namespace kirchhoff::fluid
