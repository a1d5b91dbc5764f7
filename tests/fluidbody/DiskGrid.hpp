// Test scenes of many moving disks on a grid with four vortices (the fast-path and Newton-Krylov tests
// of docs/fluidbody.md "Many bodies"), the panel model built on them, and PETSc options set for a scope.
#pragma once

#include <petscsys.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "fluid/PanelFluid.hpp"
#include "fluid/geometry/Shapes.hpp"
#include "models/fluidbody/FluidBodyModel.hpp"

namespace kirchhoff::fluidbody::test {

/// A grid of disks of radius 0.5: body j at (spacing (j mod side), spacing (j div side)) moved by
/// jitter (sin j, cos 2j), turned by angleStep j, density 1 + densityStep (j mod 3), velocity
/// speed (sin(1 + j), cos(2 + j)), spin spin sin(3 + j); vortices +-K at (+-1, +-1) spacing / 2.
struct DiskGrid {
  double spacing = 2.0, jitter = 0.0, angleStep = 0.1, densityStep = 0.0;
  double speed = 0.3, spin = 0.5, K = 1.0, dt = 0.01;

  FluidBodyConfig config(int n, int edges) const {
    FluidBodyConfig c;
    c.dt = dt;
    const int side = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(n))));
    for (int j = 0; j < n; ++j) {
      BodyConfig b;
      const double density = 1.0 + densityStep * (j % 3);
      b.shape = fluid::circle(0.5, edges);
      b.mass = b.shape.mass(density);
      b.inertia = b.shape.inertia(density);
      b.pose = {angleStep * j, lie::Vec2(spacing * (j % side) + jitter * std::sin(j),
                                         spacing * (j / side) + jitter * std::cos(2.0 * j))};
      b.velocity = lie::Vec2(speed * std::sin(1.0 + j), speed * std::cos(2.0 + j));
      b.omega = spin * std::sin(3.0 + j);
      c.bodies.push_back(std::move(b));
    }
    const double h = 0.5 * spacing;
    const lie::Vec2 at[] = {lie::Vec2(h, h), lie::Vec2(-h, h), lie::Vec2(-h, -h), lie::Vec2(h, -h)};
    for (int i = 0; i < 4; ++i) c.vortices.push_back({at[i], i % 2 == 0 ? K : -K});
    return c;
  }
};

/// n moving and spinning disks (radius 0.5, `edges` edges) on a grid of spacing 2, four vortices K = +-1;
/// dt 0.01: the DiskGrid defaults.
inline FluidBodyConfig diskGrid(int n, int edges) { return DiskGrid{}.config(n, edges); }

/// The fluidbody model of `c` on the panel fluid (density 1), over MPI_COMM_WORLD.
inline std::unique_ptr<FluidBodyModel> panelModel(const FluidBodyConfig& c) {
  std::vector<fluid::Polygon> shapes;
  for (const auto& b : c.bodies) shapes.push_back(b.shape);
  return std::make_unique<FluidBodyModel>(c, std::make_unique<fluid::PanelFluid>(MPI_COMM_WORLD, shapes, 1.0),
                                          MPI_COMM_WORLD);
}

/// The largest change of the momentum maps (FB-27), relative to sum |J0|, over `steps` steps of m from
/// its initial state, sampled every 50 steps.
inline double momentumMapDrift(FluidBodyModel& m, int steps) {
  State s = m.initialState();
  const auto J0 = m.invariants(s, {});
  const double scale = std::abs(J0[1]) + std::abs(J0[2]) + std::abs(J0[3]);
  double drift = 0.0;
  for (int k = 0; k < steps; ++k, s.step += 1) {
    const StepReport r = m.step(s);
    if (k % 50 == 49) {
      const auto J = m.invariants(s, r);
      for (int i : {1, 2, 3}) drift = std::max(drift, std::abs(J[i] - J0[i]) / scale);
    }
  }
  return scale > 0.1 ? drift : NAN;  // a scene without momentum cannot test its conservation
}

/// The residual evaluations of each of the first `steps` steps of m from its initial state.
inline std::vector<int> stepEvaluations(FluidBodyModel& m, int steps) {
  State s = m.initialState();
  std::vector<int> evals;
  for (int i = 0; i < steps; ++i, s.step += 1) evals.push_back(m.step(s).evaluations);
  return evals;
}

/// One named field of a state as a vector.
inline Eigen::VectorXd stateField(const State& s, const char* name) {
  return Eigen::Map<const Eigen::VectorXd>(s[name].data(), static_cast<Eigen::Index>(s[name].size()));
}

/// PETSc options set for the models built in its scope, cleared at its end.
struct ScopedOptions {
  std::vector<std::string> names;
  ScopedOptions(std::initializer_list<std::pair<const char*, const char*>> o) {
    for (const auto& [k, v] : o) {
      PetscOptionsSetValue(nullptr, k, v);
      names.emplace_back(k);
    }
  }
  ~ScopedOptions() {
    for (const auto& k : names) PetscOptionsClearValue(nullptr, k.c_str());
  }
  ScopedOptions(const ScopedOptions&) = delete;
  ScopedOptions& operator=(const ScopedOptions&) = delete;
};

}  // namespace kirchhoff::fluidbody::test
