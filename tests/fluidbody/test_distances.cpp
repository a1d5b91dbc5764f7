// The invariant log's distance diagnostics (models/fluidbody/Distances.hpp): the pruned minima (bounding
// disks, nearest centres first) equal the exhaustive minima over every pair on random configurations.
#include <gtest/gtest.h>

#include <limits>
#include <random>

#include "fluid/geometry/Shapes.hpp"
#include "models/fluidbody/Distances.hpp"

using namespace kirchhoff;
using namespace kirchhoff::fluidbody;
using lie::Vec2;

namespace {

double exhaustiveBodyBody(const std::vector<fluid::Polygon>& shapes, const Configuration& c) {
  double d = std::numeric_limits<double>::infinity();
  for (std::size_t a = 0; a < shapes.size(); ++a)
    for (std::size_t b = 0; b < shapes.size(); ++b)
      if (a != b)
        for (const auto& Z : shapes[a].vertices)
          d = std::min(d, fluid::boundaryDistance(shapes[b], c.poses[b].applyInverse(c.poses[a].apply(Z))));
  return d;
}

double exhaustiveBodyVortex(const std::vector<fluid::Polygon>& shapes, const Configuration& c) {
  double d = std::numeric_limits<double>::infinity();
  for (std::size_t j = 0; j < shapes.size(); ++j)
    for (const auto& g : c.vortices.gamma) d = std::min(d, fluid::boundaryDistance(shapes[j], c.poses[j].applyInverse(g)));
  return d;
}

}  // namespace

TEST(Distances, PrunedMinimaEqualExhaustiveMinima) {
  std::mt19937 gen(11);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<fluid::Polygon> shapes;
    Configuration c;
    const int n = 2 + trial % 9;
    for (int j = 0; j < n; ++j) {
      shapes.push_back(j % 3 == 0 ? fluid::ellipse(0.6, 0.2, 24) : (j % 3 == 1 ? fluid::circle(0.4, 16) : fluid::plate(1.2, 0.1, 12)));
      const double x = 3.0 * (j % 4) + u(gen), y = 3.0 * (j / 4) + u(gen), theta = 6.0 * u(gen);
      c.poses.push_back(lie::Pose{theta, Vec2(x, y)});
    }
    for (int i = 0; i < 7; ++i) {
      const double x = 10.0 * u(gen), y = 7.0 * u(gen);
      c.vortices.gamma.push_back(Vec2(x, y));
      c.vortices.K.push_back(1.0);
    }
    EXPECT_EQ(minBodyBodyDistance(shapes, c), exhaustiveBodyBody(shapes, c)) << "trial " << trial;
    EXPECT_EQ(minBodyVortexDistance(shapes, c), exhaustiveBodyVortex(shapes, c)) << "trial " << trial;
  }
}
