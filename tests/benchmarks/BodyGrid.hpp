// The benchmarks' many-body configurations (how the step cost grows with the bodies): n free disks (radius 0.5, 32 edges, density 1)
// on a square grid of spacing 2 with point vortices between them, dt 0.01 (docs/fluidbody.md).
#pragma once

#include <cmath>
#include <utility>
#include <vector>

#include "fluid/geometry/Shapes.hpp"
#include "models/fluidbody/FluidBodyConfig.hpp"

namespace kirchhoff::bench {

inline fluidbody::BodyConfig body(fluid::Polygon shape, double density, lie::Vec2 y) {
  fluidbody::BodyConfig b;
  b.mass = shape.mass(density);
  b.inertia = shape.inertia(density);
  b.shape = std::move(shape);
  b.pose = {0.0, y};
  return b;
}

/// n disks on the grid (spacing 2 unless given; 1.1 leaves gaps of 0.1 between neighbours); four vortices (K = +-1) at the centres of the cells around the first body,
/// then (vortices > 4) further vortices of circulation +-0.01 on a lattice of spacing 0.1 over the
/// grid's box, at least 0.75 from every disk centre and 0.2 from the first four vortices (in the order of the lattice rows).
/// `speed` > 0 sets the bodies moving: disk j at velocity speed (sin(1 + j), cos(2 + j)) and spin speed sin(3 + j)
/// (at rest by default).
inline fluidbody::FluidBodyConfig grid(int n, int vortices = 4, int edges = 32, double spacing = 2.0,
                                       double speed = 0.0) {
  fluidbody::FluidBodyConfig c;
  c.dt = 0.01;
  const int side = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(n))));
  for (int j = 0; j < n; ++j) {
    c.bodies.push_back(body(fluid::circle(0.5, edges), 1.0, lie::Vec2(spacing * (j % side), spacing * (j / side))));
    c.bodies.back().velocity = speed * lie::Vec2(std::sin(1.0 + j), std::cos(2.0 + j));
    c.bodies.back().omega = speed * std::sin(3.0 + j);
  }
  const double K[] = {1.0, -1.0, 1.0, -1.0};
  const double h = 0.5 * spacing;  // cell centres around the first body
  const lie::Vec2 at[] = {lie::Vec2(h, h), lie::Vec2(-h, h), lie::Vec2(-h, -h), lie::Vec2(h, -h)};
  for (int i = 0; i < 4 && i < vortices; ++i) c.vortices.push_back({at[i], K[i]});
  const int rows = (n + side - 1) / side;
  for (int a = 0; static_cast<int>(c.vortices.size()) < vortices; ++a) {
    const double y = -0.95 + 0.1 * a;
    if (y > spacing * rows) break;  // the box is full: fewer vortices than asked
    for (int b = 0; static_cast<int>(c.vortices.size()) < vortices; ++b) {
      const lie::Vec2 z(-0.95 + 0.1 * b, y);
      if (z.x() > spacing * side) break;
      bool clear = true;
      for (const auto& bc : c.bodies) clear = clear && (z - bc.pose.y).norm() >= 0.75;
      for (int i = 0; i < 4; ++i) clear = clear && (z - at[i]).norm() >= 0.2;
      if (clear) c.vortices.push_back({z, c.vortices.size() % 2 ? -0.01 : 0.01});
    }
  }
  return c;
}

}  // namespace kirchhoff::bench
