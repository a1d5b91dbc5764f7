// The gap phi and its gradient (docs/fluidbody.md (FB-80), (FB-81)): circles in closed form, ellipses and
// stars against a dense search, polygons against their exhaustive vertex-edge minimum; grad phi against
// central differences, its momentum maps (FB-27) zero to round-off; overlaps flagged.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "core/Constants.hpp"
#include "fluid/geometry/Shapes.hpp"
#include "models/fluidbody/ContactGeometry.hpp"

using namespace kirchhoff;
using namespace kirchhoff::fluidbody;
using lie::Pose;
using lie::Vec2;

namespace {

ContactShape curveShape(const fluid::SmoothCurve& c) { return ContactShape(fluid::curveOutline(c, 64), c); }

/// argmin of f over [lo, hi] from the best of n samples, refined by golden sections.
template <class F>
double minimize1d(F f, double lo, double hi, int n) {
  double best = INFINITY, x = lo;
  for (int i = 0; i < n; ++i)
    if (const double v = f(lo + (hi - lo) * i / n); v < best) best = v, x = lo + (hi - lo) * i / n;
  double a = x - (hi - lo) / n, b = x + (hi - lo) / n;
  const double r = 0.5 * (std::sqrt(5.0) - 1.0);
  for (int k = 0; k < 80; ++k) {
    const double m1 = b - r * (b - a), m2 = a + r * (b - a);
    (f(m1) < f(m2) ? b : a) = f(m1) < f(m2) ? m2 : m1;
  }
  return 0.5 * (a + b);
}

/// min over t of the distance from z_b(t) to curve a, each a sampled and golden-section 1-D minimum:
/// an independent (slow) reference for the Newton iteration on (s, t).
double nestedGap(const fluid::SmoothCurve& A, const Pose& ga, const fluid::SmoothCurve& B, const Pose& gb) {
  auto pointToA = [&](const Vec2& z) {
    auto d = [&](double s) { return (ga.apply(A.point(s)) - z).norm(); };
    return d(minimize1d(d, 0.0, kTwoPi, 400));
  };
  auto d = [&](double t) { return pointToA(gb.apply(B.point(t))); };
  return d(minimize1d(d, 0.0, kTwoPi, 400));
}

/// grad phi against central differences in the six pose coordinates of the pair; returns the max error.
double gradientError(const ContactShape& A, const ContactShape& B, const Pose& ga, const Pose& gb) {
  PairGap g = pairGap(A, ga, B, gb);
  g.a = 0, g.b = 1;
  Eigen::VectorXd grad = Eigen::VectorXd::Zero(6);
  addGapGradient(g, ga, gb, grad);
  double err = 0;
  const double h = 1e-6;
  for (int k = 0; k < 6; ++k) {
    auto moved = [&](double sgn) {
      Pose a = ga, b = gb;
      Pose& p = k < 3 ? a : b;
      const int c = k % 3;
      if (c == 0) p.theta += sgn * h;
      else p.y[c - 1] += sgn * h;
      return pairGap(A, a, B, b).gap;
    };
    err = std::max(err, std::abs((moved(1) - moved(-1)) / (2 * h) - grad[k]));
  }
  return err;
}

/// The momentum maps (FB-27) of the covector grad phi: sum p_y and sum p_theta + y x p_y.
Eigen::Vector3d momentumOf(const Eigen::VectorXd& g, const std::vector<Pose>& poses) {
  Eigen::Vector3d J = Eigen::Vector3d::Zero();
  for (std::size_t j = 0; j < poses.size(); ++j) {
    const Vec2 py = g.segment<2>(3 * static_cast<int>(j) + 1);
    J.head<2>() += py;
    J[2] += g[3 * static_cast<int>(j)] + lie::cross(poses[j].y, py);
  }
  return J;
}

}  // namespace

TEST(ContactGeometry, CirclesInClosedForm) {
  const ContactShape a = curveShape(fluid::circleCurve(0.5)), b = curveShape(fluid::circleCurve(0.3));
  const Pose ga{0.7, Vec2(0.1, -0.2)}, gb{-1.1, Vec2(1.0, 0.4)};
  const PairGap g = pairGap(a, ga, b, gb);
  EXPECT_NEAR(g.gap, (gb.y - ga.y).norm() - 0.8, 1e-15);
  EXPECT_FALSE(g.overlap);
  EXPECT_LT((g.normal - (gb.y - ga.y).normalized()).norm(), 1e-15);
  EXPECT_LT(gradientError(a, b, ga, gb), 1e-8);
  EXPECT_TRUE(pairGap(a, ga, b, {0.0, Vec2(0.5, -0.1)}).overlap);
}

TEST(ContactGeometry, SmoothCurvesAgainstADenseSearch) {
  // Ellipse - ellipse and star - ellipse at gaps from 0.3 down to 1e-3, random poses.
  const fluid::SmoothCurve e1 = fluid::ellipseCurve(0.6, 0.3), e2 = fluid::ellipseCurve(0.5, 0.35);
  const fluid::SmoothCurve star = fluid::starCurve(0.5, {0.0, 0.1}, {0.05});
  std::mt19937 gen(3);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (const auto* pair : {&e2, &star}) {
    const ContactShape A = curveShape(e1), B = curveShape(*pair);
    for (double target : {0.3, 1e-2, 1e-3}) {
      const Pose ga{kTwoPi * u(gen), Vec2(0.0, 0.0)};
      const double dir = kTwoPi * u(gen);
      Pose gb{kTwoPi * u(gen), Vec2(std::cos(dir), std::sin(dir)) * 1.5};
      // Slide b along the line of centres until the gap is the target (bisection on the exact gap).
      double lo = 0.3, hi = 3.0;
      for (int k = 0; k < 80; ++k) {
        const double m = 0.5 * (lo + hi);
        gb.y = Vec2(std::cos(dir), std::sin(dir)) * m;
        const PairGap g = pairGap(A, ga, B, gb);
        ((g.overlap || g.gap < target) ? lo : hi) = m;
      }
      gb.y = Vec2(std::cos(dir), std::sin(dir)) * hi;
      const PairGap g = pairGap(A, ga, B, gb);
      ASSERT_FALSE(g.overlap);
      EXPECT_NEAR(g.gap, nestedGap(e1, ga, *pair, gb), 1e-12) << "target " << target;
      EXPECT_LT(gradientError(A, B, ga, gb), 1e-7) << "target " << target;
      // Moved a little closer than zero gap: an overlap.
      gb.y = Vec2(std::cos(dir), std::sin(dir)) * (hi - 1.5 * g.gap - 1e-4);
      EXPECT_TRUE(pairGap(A, ga, B, gb).overlap) << "target " << target;
    }
  }
}

TEST(ContactGeometry, PolygonsAgainstTheExhaustiveMinimum) {
  const ContactShape A(fluid::plate(2.0, 0.1, 32), std::nullopt), B(fluid::circle(0.5, 24), std::nullopt);
  const Pose ga{0.4, Vec2(0.0, 0.0)}, gb{0.2, Vec2(0.3, 0.9)};
  const PairGap g = pairGap(A, ga, B, gb);
  double exhaustive = INFINITY;
  for (const auto& Z : B.outline.vertices)
    exhaustive = std::min(exhaustive, fluid::boundaryDistance(A.outline, ga.applyInverse(gb.apply(Z))));
  for (const auto& Z : A.outline.vertices)
    exhaustive = std::min(exhaustive, fluid::boundaryDistance(B.outline, gb.applyInverse(ga.apply(Z))));
  EXPECT_NEAR(g.gap, exhaustive, 1e-15);
  EXPECT_FALSE(g.overlap);
  EXPECT_LT(gradientError(A, B, ga, gb), 1e-7);
  // Crossing outlines with no vertex inside the other: the edge test finds them.
  const ContactShape C(fluid::plate(2.0, 0.1, 12), std::nullopt);
  EXPECT_TRUE(pairGap(C, {0.0, Vec2::Zero()}, C, {1.5707963267948966, Vec2::Zero()}).overlap);
}

TEST(ContactGeometry, GradientHasNoMomentum) {
  // (FB-81) built from one point c: its momentum maps (FB-27) vanish to round-off, so an impulse along
  // it keeps them exactly.
  std::vector<ContactShape> shapes = {curveShape(fluid::ellipseCurve(0.6, 0.3)), curveShape(fluid::circleCurve(0.4)),
                                      ContactShape(fluid::plate(1.0, 0.2, 16), std::nullopt)};
  const ContactGeometry geo(shapes);
  const std::vector<Pose> poses = {{0.3, Vec2(12.0, -7.0)}, {1.2, Vec2(12.5, -6.1)}, {-0.4, Vec2(13.2, -7.1)}};
  for (int a = 0; a < 3; ++a)
    for (int b = a + 1; b < 3; ++b) {
      if ((a == 2) != (b == 2)) continue;  // curves with curves, polygons with polygons (one discretization)
      const PairGap g = geo.gap(poses, a, b);
      Eigen::VectorXd grad = Eigen::VectorXd::Zero(9);
      addGapGradient(g, poses[static_cast<std::size_t>(a)], poses[static_cast<std::size_t>(b)], grad);
      EXPECT_LT(momentumOf(grad, poses).norm(), 1e-14 * (1.0 + 13.0)) << a << b;
    }
}

TEST(ContactGeometry, PairsBelowADistanceAndTheSmallestGap) {
  std::vector<ContactShape> shapes;
  std::vector<Pose> poses;
  for (int j = 0; j < 9; ++j) {
    shapes.push_back(curveShape(fluid::circleCurve(0.5)));
    poses.push_back({0.0, Vec2(1.1 * (j % 3) + 0.01 * j, 1.2 * (j / 3))});
  }
  const ContactGeometry geo(shapes);
  const auto below = geo.gapsBelow(poses, 0.15);
  int expected = 0;
  double smallest = INFINITY;
  for (int a = 0; a < 9; ++a)
    for (int b = a + 1; b < 9; ++b) {
      const double g = (poses[static_cast<std::size_t>(a)].y - poses[static_cast<std::size_t>(b)].y).norm() - 1.0;
      expected += g < 0.15;
      smallest = std::min(smallest, g);
    }
  EXPECT_EQ(static_cast<int>(below.size()), expected);
  EXPECT_NEAR(geo.smallest(poses).gap, smallest, 1e-15);
  EXPECT_NEAR(geo.defaultDistance(), 1e-3, 1e-15);  // 1e-3 of the diameter 1
}
