// Cost at equal time-stepping accuracy (what the higher-order compositions buy; docs/composition.md (CM-1)-(CM-7)): the disk + vortex of
// input/fluidbody_disk_vortex.yaml (panel, 64 edges, fixed) to T, error against a fine kahan_li8 run.
// Run: build/bin/bench_fluidbody_composition [--quick]   (a timing main printing Markdown tables)
#include <mpi.h>
#include <petscsys.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "core/Constants.hpp"
#include "fluid/PanelFluid.hpp"
#include "fluid/geometry/Shapes.hpp"
#include "models/fluidbody/FluidBodyModel.hpp"

using namespace kirchhoff;
using namespace kirchhoff::fluidbody;
using integrators::Composition;
using lie::Vec2;

namespace {

using kirchhoff::kPi;
constexpr double kTarget = 1e-8;

struct Point {
  double dt, error, seconds;  // seconds of wall time per unit simulated time
};

/// q(T) of the deck's disk + vortex stepped by `c` with step dt; *seconds = wall time of the steps / T.
Eigen::VectorXd run(Composition comp, double dt, double T, double* seconds) {
  FluidBodyConfig c;
  c.dt = dt;
  c.composition = comp;
  BodyConfig b;
  b.name = "disk";
  b.shape = fluid::circle(1.0, 64);
  b.mass = b.shape.mass(1.0);
  b.inertia = b.shape.inertia(1.0);
  b.velocity = Vec2(0.0, 0.15);
  c.bodies.push_back(b);
  c.vortices.push_back({Vec2(2.0, 0.0), 2 * kPi});
  fluid::PanelOptions p;
  p.solver = fluid::PanelSolver::Direct;
  auto f = std::make_unique<fluid::PanelFluid>(PETSC_COMM_SELF, std::vector<fluid::Polygon>{b.shape}, 1.0, p, "bench_");
  FluidBodyModel m(c, std::move(f), PETSC_COMM_SELF);
  State s = m.initialState();
  const int n = static_cast<int>(std::lround(T / dt));
  const double t0 = MPI_Wtime();
  for (int k = 0; k < n; ++k) {
    m.step(s);
    s.step += 1;
  }
  *seconds = (MPI_Wtime() - t0) / T;
  return Eigen::Map<const Eigen::VectorXd>(s["q"].data(), static_cast<Eigen::Index>(s["q"].size()));
}

/// Wall time per unit time at error kTarget: log-log interpolation between the bracketing points,
/// else extrapolation along the last two (flagged). Points are ordered by decreasing dt. (none stops at
/// dt = 0.0003125: below it the DEL residual floor, ~9e-12, exceeds the SNES tolerance.)
double costAt(const std::vector<Point>& pts, bool* extrapolated) {
  *extrapolated = true;
  std::size_t i = pts.size() - 2;
  for (std::size_t k = 0; k + 1 < pts.size(); ++k)
    if (pts[k].error >= kTarget && pts[k + 1].error <= kTarget) {
      i = k;
      *extrapolated = false;
      break;
    }
  const Point &a = pts[i], &b = pts[i + 1];
  const double s = (std::log(kTarget) - std::log(a.error)) / (std::log(b.error) - std::log(a.error));
  return std::exp(std::log(a.seconds) + s * (std::log(b.seconds) - std::log(a.seconds)));
}

}  // namespace

int main(int argc, char** argv) {
  PetscCall(PetscInitialize(&argc, &argv, nullptr, nullptr));
  bool quick = false;
  for (int i = 1; i < argc; ++i) quick = quick || std::strcmp(argv[i], "--quick") == 0;
  try {
    const double T = quick ? 2.0 : 10.0;
    double sec = 0.0;
    const Eigen::VectorXd ref = run(Composition::KahanLi8, 0.025, T, &sec);
    const Eigen::VectorXd ref2 = run(Composition::KahanLi8, 0.05, T, &sec);
    std::printf("# bench_fluidbody_composition: disk + vortex deck (panel, 64 edges), T = %g\n\n"
                "Reference: kahan_li8 at dt 0.025 (differs from dt 0.05 by %.1e). Error = max |q(T) - q_ref(T)|;\n"
                "cost = wall seconds per unit simulated time.\n\n"
                "| composition | order | dt | error | s / unit time |\n|---|---|---|---|---|\n",
                T, (ref - ref2).lpNorm<Eigen::Infinity>());
    struct Method {
      Composition c;
      std::vector<double> dts;
    };
    const std::vector<Method> methods = {
        {Composition::None, {0.01, 0.005, 0.0025, 0.00125, 0.000625, 0.0003125}},
        {Composition::TripleJump, {0.1, 0.05, 0.025, 0.0125, 0.00625}},
        {Composition::Suzuki5, {0.2, 0.1, 0.05, 0.025}},
        {Composition::KahanLi6, {0.8, 0.4, 0.2, 0.1}},
        {Composition::KahanLi8, {1.0, 0.5, 0.25, 0.125}}};
    std::vector<double> cost;
    std::vector<bool> extra;
    for (const Method& m : methods) {
      std::vector<Point> pts;
      for (const double dt : m.dts) {
        const Eigen::VectorXd q = run(m.c, dt, T, &sec);
        pts.push_back({dt, (q - ref).lpNorm<Eigen::Infinity>(), sec});
        std::printf("| %s | %d | %.5g | %.2e | %.4f |\n", integrators::compositionName(m.c).c_str(),
                    integrators::compositionOrder(m.c), dt, pts.back().error, sec);
        std::fflush(stdout);
      }
      bool e = false;
      cost.push_back(costAt(pts, &e));
      extra.push_back(e);
    }
    std::printf("\n| composition | s / unit time at error %.0e | cheaper than none |\n|---|---|---|\n", kTarget);
    double best = 0.0;
    for (std::size_t i = 0; i < methods.size(); ++i) {
      std::printf("| %s | %.4f%s | %.1fx |\n", integrators::compositionName(methods[i].c).c_str(), cost[i],
                  extra[i] ? " (extrapolated)" : "", cost[0] / cost[i]);
      if (i > 0) best = std::max(best, cost[0] / cost[i]);
    }
    std::printf("\nbest composition is %.1fx cheaper than the second-order map at error %.0e (target >= 10x)\n", best,
                kTarget);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_fluidbody_composition: %s\n", e.what());
    MPI_Abort(PETSC_COMM_WORLD, 1);
  }
  PetscCall(PetscFinalize());
  return 0;
}
