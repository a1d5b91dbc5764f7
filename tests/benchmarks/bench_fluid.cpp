// Benchmark of the panel Neumann solver (fluidbody.md "Panel method"): per configuration, the
// influence assembly, the factorization + 3n + 1 forward solves, and the adjoint gradient, for
// 64..4096 panels on 1, 4 and 16 bodies; cost exponents. Target: 4 bodies x 64 panels, solve <= 1 ms.
// Run: build/bin/bench_fluid [max_panels]   or   mpirun -n 2 build/bin/bench_fluid
#include <mpi.h>
#include <petscsys.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "fluid/PanelFluid.hpp"
#include "fluid/geometry/Shapes.hpp"

using namespace kirchhoff;
using namespace kirchhoff::fluid;

namespace {

struct Row {
  int panels, bodies;
  double assembly, solve, gradient;
  int its;
  bool direct;
};

Row measure(MPI_Comm comm, int panels, int bodies) {
  const int per = panels / bodies;
  std::vector<Polygon> b;
  std::vector<lie::Pose> g;
  const int side = static_cast<int>(std::ceil(std::sqrt(bodies)));
  for (int j = 0; j < bodies; ++j) {
    b.push_back(j % 2 ? circle(1.0, per) : ellipse(1.0, 0.5, per));
    g.push_back(lie::Pose{0.1 * j, Vec2(3.0 * (j % side), 3.0 * (j / side))});
  }
  Vortices v;
  v.gamma = {Vec2(1.5, 1.5), Vec2(-1.6, 0.2)};
  v.K = {1.0, -0.5};
  PanelFluid f(comm, b, 1.0);
  Eigen::VectorXd Xi = Eigen::VectorXd::Constant(3 * bodies, 0.3);
  Row r{panels, bodies, 1e300, 1e300, 1e300, 0, f.directSolver()};
  const double budget = 0.3;  // seconds per case
  const double start = MPI_Wtime();
  int reps = 0;
  do {
    g[0].theta += 1e-3;  // a new configuration each time
    f.setConfiguration(g, v);
    f.lagrangianGradient(Xi);
    r.assembly = std::min(r.assembly, f.timings().assembly);
    r.solve = std::min(r.solve, f.timings().solve);
    r.gradient = std::min(r.gradient, f.timings().gradient);
    r.its = std::max(r.its, f.lastIterations());
    ++reps;
    double elapsed = MPI_Wtime() - start;
    MPI_Bcast(&elapsed, 1, MPI_DOUBLE, 0, comm);
    if (elapsed > budget && reps >= 3) break;
  } while (reps < 1000);
  // Report the slowest rank's minimum.
  MPI_Allreduce(MPI_IN_PLACE, &r.assembly, 1, MPI_DOUBLE, MPI_MAX, comm);
  MPI_Allreduce(MPI_IN_PLACE, &r.solve, 1, MPI_DOUBLE, MPI_MAX, comm);
  MPI_Allreduce(MPI_IN_PLACE, &r.gradient, 1, MPI_DOUBLE, MPI_MAX, comm);
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  PetscCall(PetscInitialize(&argc, &argv, nullptr, nullptr));
  int maxPanels = argc > 1 ? std::atoi(argv[1]) : 4096;
  int rank = 0, ranks = 1;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  MPI_Comm_size(PETSC_COMM_WORLD, &ranks);
  if (rank == 0)
    std::printf("bench_fluid: %d rank(s); times in ms (best of repeats), exponent vs previous N\n"
                "%7s %6s %7s %10s %10s %10s %5s %10s\n",
                ranks, "panels", "bodies", "path", "assembly", "solve", "gradient", "its", "exp(a+s)");
  for (int bodies : {1, 4, 16}) {
    double prevN = 0, prevT = 0;
    for (int panels = 64; panels <= maxPanels; panels *= 2) {
      if (panels / bodies < 16) continue;
      try {
        const Row r = measure(PETSC_COMM_WORLD, panels, bodies);
        const double t = r.assembly + r.solve;
        if (rank == 0) {
          std::printf("%7d %6d %7s %10.3f %10.3f %10.3f %5d", r.panels, r.bodies,
                      r.direct ? "LU" : "KSP", 1e3 * r.assembly, 1e3 * r.solve, 1e3 * r.gradient, r.its);
          if (prevN > 0) std::printf(" %10.2f", std::log(t / prevT) / std::log(panels / prevN));
          std::printf("\n");
          std::fflush(stdout);
        }
        prevN = panels;
        prevT = t;
      } catch (const std::exception& e) {
        if (rank == 0) std::printf("%7d %6d failed: %s\n", panels, bodies, e.what());
      }
    }
  }
  PetscCall(PetscFinalize());
  return 0;
}
