// Benchmark of close gaps (docs/fluidbody.md "Close gaps", (FB-63)-(FB-66)): two disks of radius 0.5 at
// gaps 2e-1 .. 1e-3 of the radius, the adaptive discretization (64 Nystrom nodes per disk, graded panels
// where close) against uniform Nystrom with the fewest nodes (powers of 2 up to `max_nodes` per disk) that
// reach 1e-8 against the exact series: unknowns, error, seconds per evaluation (setConfiguration +
// lagrangianGradient at a new configuration, dense LU), and their ratios, side by side in one process.
// Run: build/bin/bench_fluid_close_gaps [max_nodes (default 2048)]
#include <mpi.h>
#include <petscsys.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include "fluid/BoundaryFluid.hpp"
#include "fluid/discretization/NystromDiscretization.hpp"
#include "fluid/geometry/Shapes.hpp"
#include "fluid/TwoCylinders.hpp"

using namespace kirchhoff;
using namespace kirchhoff::fluid;

namespace {

constexpr double kR = 0.5;

std::unique_ptr<BoundaryFluid> disks(int nodes, bool refine) {
  const std::vector<SmoothCurve> curves{circleCurve(kR), circleCurve(kR)};
  std::vector<Polygon> outlines;
  std::vector<RefinableShape> shapes;
  for (const SmoothCurve& c : curves) outlines.push_back(curveOutline(c, nodes)), shapes.push_back(refinableShape(c));
  SolverOptions o;
  o.solver = PanelSolver::Direct;
  o.directMax = 1 << 20;
  auto f = std::make_unique<BoundaryFluid>(PETSC_COMM_SELF, outlines,
                                           std::make_unique<NystromDiscretization>(curves, std::vector<int>{nodes, nodes}),
                                           1.0, o, "bench_close_");
  if (refine) f->enableRefinement(shapes, GaussPanelOptions{}, 1e-8);
  return f;
}

std::vector<lie::Pose> poses(double gap, double shift) {
  return {lie::Pose{0.0, Vec2(shift, 0.0)}, lie::Pose{0.0, Vec2(2 * kR + gap, shift)}};
}

struct Result {
  long unknowns;
  double error, seconds;
};

Result measure(BoundaryFluid& f, double gap) {
  const std::vector<lie::Pose> g = poses(gap, 0.0);
  f.refineFor(g, Vortices{}, 0.0);
  f.setConfiguration(g, Vortices{});
  const Eigen::MatrixXd A = f.addedMass();
  const Eigen::Matrix4d R = test::twoCylinderAddedMass({0.0, 0.0}, kR, {2 * kR + gap, 0.0}, kR, 1.0);
  const int idx[4] = {1, 2, 4, 5};
  double e = 0.0;
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b) e = std::max(e, std::abs(A(idx[a], idx[b]) - R(a, b)));
  Eigen::VectorXd Xi(6);
  Xi << 0.1, 1.0, 0.0, -0.3, -1.0, 0.2;
  const int reps = 4;
  const double t0 = MPI_Wtime();
  for (int r = 1; r <= reps; ++r) {  // a new configuration each time (as the Newton iterations of a step)
    f.setConfiguration(poses(gap, 1e-9 * r), Vortices{});
    f.lagrangianGradient(Xi);
  }
  return {static_cast<long>(f.nodeCount() + 2), e / R.cwiseAbs().maxCoeff(), (MPI_Wtime() - t0) / reps};
}

}  // namespace

int main(int argc, char** argv) {
  PetscCall(PetscInitialize(&argc, &argv, nullptr, nullptr));
  const int maxNodes = argc > 1 ? std::atoi(argv[1]) : 2048;
  std::printf("two disks R = 0.5, tolerance 1e-8; adaptive: 64 Nystrom nodes per disk + graded panels; uniform:\n"
              "the fewest Nystrom nodes per disk (64 .. %d) within 1e-8 of the exact series (FB-63)\n", maxNodes);
  std::printf("%8s | %8s %9s %10s | %8s %9s %10s | %9s %9s\n", "gap/R", "adapt N", "error", "s/eval", "unif N",
              "error", "s/eval", "N ratio", "s ratio");
  for (double g : {2e-1, 1e-1, 3e-2, 1e-2, 3e-3, 1e-3}) {
    auto a = disks(64, true);
    const Result ra = measure(*a, g * kR);
    Result ru{0, 1.0, 0.0};
    for (int n = 64; n <= maxNodes && ru.error > 1e-8; n *= 2) {
      auto u = disks(n, false);
      ru = measure(*u, g * kR);
    }
    const bool reached = ru.error <= 1e-8;
    std::printf("%8.0e | %8ld %9.2e %10.2e | %8ld %9.2e %10.2e | %9.2f %9.2f%s\n", g, ra.unknowns, ra.error, ra.seconds,
                ru.unknowns, ru.error, ru.seconds, static_cast<double>(ru.unknowns) / ra.unknowns,
                ru.seconds / ra.seconds, reached ? "" : "  (uniform not reached: ratios are lower bounds)");
    std::fflush(stdout);
  }
  PetscCall(PetscFinalize());
  return 0;
}
