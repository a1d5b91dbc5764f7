// Tests of the body shapes and configuration checks (fluidbody.md "Conventions"): exact area and
// polar moment, counter-clockwise centred vertices, ConfigurationError messages, added-mass report.
#include <gtest/gtest.h>
#include <petscsys.h>

#include <cmath>

#include "core/Constants.hpp"
#include "core/Error.hpp"
#include "fluid/AddedMassReport.hpp"
#include "fluid/geometry/ConfigurationChecks.hpp"
#include "fluid/discretization/PanelGeometry.hpp"
#include "fluid/geometry/ShapeKinds.hpp"
#include "fluid/geometry/Shapes.hpp"

namespace kirchhoff::fluid {
namespace {

using kirchhoff::kPi;

TEST(Shapes, RegularPolygonAreaAndPolarMoment) {
  // Inscribed N-gon of radius R: area (N/2) R^2 sin(2pi/N), J = N R^4 sin(a)(2 + cos a)/12.
  for (auto s : {CurveSampling::Inscribed, CurveSampling::Tangent}) {
    const int N = 24;
    const double R = 1.7, a = 2 * kPi / N;
    const double rv = s == CurveSampling::Tangent ? R / std::cos(kPi / N) : R;
    const Polygon p = circle(R, N, s);
    EXPECT_NEAR(p.area, 0.5 * N * rv * rv * std::sin(a), 1e-14 * p.area);
    EXPECT_NEAR(p.polarMoment, N * std::pow(rv, 4) * std::sin(a) * (2 + std::cos(a)) / 12.0,
                1e-14 * p.polarMoment);
    for (const Vec2& v : p.vertices) EXPECT_NEAR(v.norm(), rv, 1e-14);
  }
}

TEST(Shapes, TangentSamplingPutsEdgeMidpointsOnTheCurve) {
  const double a = 1.3, b = 0.4;
  const Polygon p = ellipse(a, b, 40);
  for (int k = 0; k < p.size(); ++k) {
    const Vec2 m = 0.5 * (p.vertices[k] + p.vertices[(k + 1) % p.size()]);
    EXPECT_NEAR(std::pow(m.x() / a, 2) + std::pow(m.y() / b, 2), 1.0, 1e-14);
  }
}

TEST(Shapes, PolygonIsReorderedAndCentred) {
  // Clockwise rectangle [2, 5] x [1, 2]: area 3, J about its centroid w h (w^2 + h^2) / 12 = 2.5.
  const Polygon p = polygon({Vec2(2, 1), Vec2(2, 2), Vec2(5, 2), Vec2(5, 1)});
  EXPECT_NEAR(p.area, 3.0, 1e-14);
  EXPECT_NEAR(p.polarMoment, 3.0 * (9.0 + 1.0) / 12.0, 1e-14);
  EXPECT_GT(signedArea(p.vertices), 0.0);
  EXPECT_LT(centroid(p.vertices).norm(), 1e-15);
  EXPECT_FALSE(p.smooth);
  EXPECT_NEAR(p.mass(2.0), 6.0, 1e-14);
}

TEST(Shapes, PlateIsAStadium) {
  const double L = 2.0, t = 0.1;
  const Polygon p = plate(L, t, 64);
  EXPECT_EQ(p.size(), 64);
  EXPECT_TRUE(p.smooth);
  double xmax = 0, ymax = 0;
  for (const Vec2& v : p.vertices) xmax = std::max(xmax, v.x()), ymax = std::max(ymax, std::abs(v.y()));
  EXPECT_NEAR(xmax, 0.5 * L, 1e-14);
  EXPECT_NEAR(ymax, 0.5 * t, 1e-14);
  // Caps get max(4, round(64 * (pi t/2) / perimeter)) = 4 chords each: exact polygon area
  // (L - t) t + 2 * 4 * (1/2) r^2 sin(pi/4), r = t/2.
  const double r = 0.5 * t;
  EXPECT_NEAR(p.area, (L - t) * t + 4.0 * r * r * std::sin(kPi / 4), 1e-14);
}

TEST(Shapes, RigidDataHasZeroMeanOnEveryBody) {
  // int n ds = 0 and int Z x n ds = 0 on a closed polygon: the Neumann data of every rigid motion
  // carries no net flux (fluidbody.md: "data has zero mean: check it"), to round-off.
  PanelGeometry g({ellipse(1.0, 0.3, 50), plate(1.5, 0.1, 40), polygon({Vec2(0, 0), Vec2(2, 0), Vec2(0.5, 1)})});
  for (int j = 0; j < g.bodies; ++j)
    for (int k = 0; k < 3; ++k) {
      double s = 0.0;
      for (int p = g.offset[j]; p < g.offset[j + 1]; ++p) s += g.length[p] * g.rigidData[3 * p + k];
      EXPECT_LT(std::abs(s), 1e-14) << "body " << j << " dof " << k;
    }
}

void expectConfigurationError(const std::function<void()>& f, const std::string& fragment) {
  try {
    f();
    ADD_FAILURE() << "no ConfigurationError (expected one mentioning '" << fragment << "')";
  } catch (const ConfigurationError& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(Shapes, InvalidShapesThrowWithAClearMessage) {
  expectConfigurationError([] { polygon({Vec2(0, 0), Vec2(1, 1), Vec2(1, 0), Vec2(0, 1)}); },
                           "self-intersecting");
  expectConfigurationError([] { polygon({Vec2(0, 0), Vec2(1, 0)}); }, "at least 3");
  // An L-shape whose centroid is outside: not star-shaped about it.
  expectConfigurationError(
      [] {
        polygon({Vec2(0, 0), Vec2(3, 0), Vec2(3, 0.2), Vec2(0.2, 0.2), Vec2(0.2, 3), Vec2(0, 3)});
      },
      "star-shaped");
  expectConfigurationError([] { circle(-1.0, 16); }, "radius must be positive");
  expectConfigurationError([] { plate(1.0, 0.1, 13); }, "even");
  expectConfigurationError([] { shapeKind("hexagon"); }, "choices: circle, ellipse, star, plate, polygon");
}

// The registry: every kind builds its outline, smooth kinds their analytic curve (through the outline's
// vertices for circle, ellipse and star), piecewise kinds the curve of their outline.
TEST(Shapes, RegistryBuildersMatchTheirKind) {
  EXPECT_EQ(shapeKindNames(true), "circle, ellipse, star");
  EXPECT_EQ(shapeKindNames(false), "plate, polygon");
  ShapeSpec s;
  s.edges = 32;
  s.vertices = {Vec2(0, 0), Vec2(2, 0), Vec2(2, 1), Vec2(0, 1)};
  s.length = 2.0;
  s.thickness = 0.2;
  for (const ShapeKind& k : shapeKinds()) {
    s.kind = k.name;
    const Polygon p = k.outline(s);
    EXPECT_EQ(p.vertices.size(), k.vertices ? 4u : 32u) << k.name;
    EXPECT_EQ(k.curve != nullptr, k.smooth) << k.name;
    EXPECT_EQ(k.piecewise != nullptr, !k.smooth) << k.name;
    if (k.smooth) EXPECT_NEAR(k.curve(s).area, p.area, 0.02 * p.area) << k.name;
    else EXPECT_NEAR(k.piecewise(s, p).area, p.area, 0.02 * p.area) << k.name;
  }
  EXPECT_NEAR(shapeKind("circle").curve(s).area, kPi, 1e-14);  // R = 1
  EXPECT_NEAR(shapeKind("polygon").piecewise(s, shapeKind("polygon").outline(s)).area, 2.0, 1e-14);
}

// radius 1e300 overflowed the crossing tests (products of coordinates: inf - inf = NaN) and was
// reported as "self-intersecting"; the size is now what is said. 1e50 is far from any overflow:
// a disk of radius 1e50 and density 1 has polar moment pi/2 1e200.
TEST(Shapes, HugeShapesAreNamedAsTooLargeNotAsSelfIntersecting) {
  expectConfigurationError([] { circle(1e300, 64); }, "farther than 1e+50 from the origin");
  expectConfigurationError([] { ellipse(1.0, 1e60, 32); }, "would overflow");
  const Polygon p = circle(1e49, 64);
  EXPECT_TRUE(std::isfinite(p.inertia(1.0)));
  EXPECT_GT(p.inertia(1.0), 0.0);
}

TEST(Shapes, ConfigurationChecksNameBodiesAndVortices) {
  const std::vector<Polygon> b = {circle(1.0, 32), ellipse(1.0, 0.3, 32)};
  Vortices none;
  EXPECT_EQ(configurationProblem(b, {lie::Pose{0, Vec2(0, 0)}, lie::Pose{0, Vec2(3, 0)}}, none), "");
  expectConfigurationError(
      [&] { checkConfiguration(b, {lie::Pose{0, Vec2(0, 0)}, lie::Pose{0, Vec2(1.5, 0)}}, none); },
      "bodies 0 (circle) and 1 (ellipse) overlap");
  // Ellipse entirely inside the big circle: no edge crossing, still an overlap.
  const std::vector<Polygon> nested = {circle(3.0, 32), ellipse(1.0, 0.3, 32)};
  expectConfigurationError(
      [&] { checkConfiguration(nested, {lie::Pose{}, lie::Pose{0.3, Vec2(0.2, 0.1)}}, none); }, "overlap");
  Vortices v;
  v.gamma = {Vec2(5, 5), Vec2(3.1, 0.05)};
  v.K = {1, 1};
  const std::vector<lie::Pose> g = {lie::Pose{0, Vec2(0, 0)}, lie::Pose{0, Vec2(3, 0)}};
  expectConfigurationError([&] { checkConfiguration(b, g, v); }, "vortex 1 at (3.1, 0.05) is inside body 1");
  v.gamma[1] = Vec2(1.05, 0.0);  // panel length of the 32-gon ~0.196
  expectConfigurationError([&] { checkConfiguration(b, g, v); }, "closer than one panel length");
  v.gamma[1] = Vec2(1.5, 1.5);
  EXPECT_EQ(configurationProblem(b, g, v), "");
}

}  // namespace
}  // namespace kirchhoff::fluid

namespace kirchhoff::fluid {
namespace {

TEST(AddedMassReport, ListsTensorsAndClosedForms) {
  const std::string r = addedMassReport(PETSC_COMM_SELF, {ellipse(1.0, 0.5, 128)}, {lie::Pose{}},
                                        {2.0}, 1.0);
  EXPECT_NE(r.find("body 0: ellipse, 128 edges, correction flux"), std::string::npos) << r;
  EXPECT_NE(r.find("smooth-shape closed form 0.78539816339744828"), std::string::npos) << r;  // pi b^2, 17 digits
  EXPECT_NE(r.find("K = M + A(g)"), std::string::npos) << r;
}

}  // namespace
}  // namespace kirchhoff::fluid
