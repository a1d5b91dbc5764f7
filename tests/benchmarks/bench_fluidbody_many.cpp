// Many-body benchmark of the fluidbody step (cost against bodies and ranks; docs/fluidbody.md "Many bodies"):
// one configuration of tests/benchmarks/BodyGrid.hpp per process (at rest, or moving with --speed); prints
// s/step (wall and CPU), the deterministic counts per step (residual evaluations, Newton iterations, boundary
// solves, their Krylov iterations and operator applications) and peak memory.
// Run: build/bin/bench_fluidbody_many --bodies 64 [--vortices 4] [--spacing 2] [--speed 0.1] [--steps 10] [PETSc options]
//      (tests/benchmarks/many_bodies.py runs the many-body table on 1 and 2 ranks and fits the exponent)
#include <mpi.h>
#include <petscsys.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "BodyGrid.hpp"
#include "fluid/PanelFluid.hpp"
#include "models/fluidbody/FluidBodyModel.hpp"

using namespace kirchhoff;

namespace {

double numberArg(int argc, char** argv, const char* name, double fallback) {
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], name) == 0) return std::atof(argv[i + 1]);
  return fallback;
}

int intArg(int argc, char** argv, const char* name, int fallback) {
  return static_cast<int>(numberArg(argc, argv, name, fallback));
}

/// Peak resident memory of this process in MB (Linux: ru_maxrss in KiB).
double peakMegabytes() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;
}

/// CPU seconds (user + system) of this process: on a loaded machine nearer to the idle wall time than the
/// wall time itself (on several ranks it includes MPI's busy waiting).
double cpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

/// The cost counts of the fluid since its construction (KSP path; zero on the direct path).
struct Counts {
  long solves = 0, iterations = 0, applications = 0, kirchhoff = 0, kirchhoffIterations = 0, relaxed = 0;
  explicit Counts(const fluid::BoundaryFluid& f)
      : solves(f.totalSolves()), iterations(f.totalIterations()),
        applications(f.operatorApplications() + f.kirchhoffApplications()), kirchhoff(f.kirchhoffSolves()),
        kirchhoffIterations(f.kirchhoffIterations()), relaxed(f.relaxedApplications()) {}
};

}  // namespace

int main(int argc, char** argv) {
  PetscCall(PetscInitialize(&argc, &argv, nullptr, nullptr));
  const MPI_Comm world = PETSC_COMM_WORLD;
  int ranks = 1, rank = 0;
  MPI_Comm_size(world, &ranks);
  MPI_Comm_rank(world, &rank);
  const int n = intArg(argc, argv, "--bodies", 16), m = intArg(argc, argv, "--vortices", 4);
  const int steps = std::max(1, intArg(argc, argv, "--steps", 10));
  const double spacing = numberArg(argc, argv, "--spacing", 2.0), speed = numberArg(argc, argv, "--speed", 0.0);
  try {
    const fluidbody::FluidBodyConfig cfg = bench::grid(n, m, 32, spacing, speed);
    std::vector<fluid::Polygon> shapes;
    for (const auto& b : cfg.bodies) shapes.push_back(b.shape);
    double t0 = MPI_Wtime();
    auto owned = std::make_unique<fluid::PanelFluid>(world, shapes, cfg.fluidDensity);
    const fluid::BoundaryFluid& fluid = *owned;
    fluidbody::FluidBodyModel model(cfg, std::move(owned), world);
    State s = model.initialState();
    const double setup = MPI_Wtime() - t0;
    auto advance = [&]() {
      const StepReport r = model.step(s);
      s.step += 1;
      s.time += cfg.dt;
      return r;
    };
    t0 = MPI_Wtime();
    const StepReport first = advance();  // the first step forms the first Newton matrix
    const double firstStep = MPI_Wtime() - t0;
    long evals = 0, its = 0;
    MPI_Barrier(world);
    const Counts c0(fluid);
    const double cpu0 = cpuSeconds();
    t0 = MPI_Wtime();
    for (int k = 0; k < steps; ++k) {
      const StepReport r = advance();
      evals += r.evaluations;
      its += r.iterations;
    }
    double perStep = (MPI_Wtime() - t0) / steps, cpuPerStep = (cpuSeconds() - cpu0) / steps;
    const Counts c1(fluid);
    MPI_Allreduce(MPI_IN_PLACE, &perStep, 1, MPI_DOUBLE, MPI_MAX, world);
    MPI_Allreduce(MPI_IN_PLACE, &cpuPerStep, 1, MPI_DOUBLE, MPI_MAX, world);
    double peak = peakMegabytes();
    MPI_Allreduce(MPI_IN_PLACE, &peak, 1, MPI_DOUBLE, MPI_MAX, world);
    const double solves = static_cast<double>(c1.solves - c0.solves);
    if (rank == 0)
      std::printf("{\"bodies\": %d, \"spacing\": %g, \"vortices\": %d, \"speed\": %g, \"panels\": %d, \"ranks\": %d, "
                  "\"jacobian\": \"%s\", \"setup_s\": %.4g, \"first_step_s\": %.4g, \"first_step_evaluations\": %d, "
                  "\"s_per_step\": %.4g, \"cpu_s_per_step\": %.4g, \"evaluations_per_step\": %.3g, "
                  "\"newton_per_step\": %.3g, \"boundary_solves_per_step\": %.4g, \"krylov_per_solve\": %.3g, "
                  "\"kirchhoff_solves_per_step\": %.3g, \"kirchhoff_krylov_per_solve\": %.3g, "
                  "\"operator_applications_per_step\": %.4g, \"relaxed_applications_per_step\": %.4g, \"solver\": \"%s\", "
                  "\"peak_mb_per_rank\": %.1f}\n",
                  n, spacing, static_cast<int>(cfg.vortices.size()), speed, fluid.panelCount(), ranks,
                  model.delSolver().modeName(), setup, firstStep, first.evaluations, perStep, cpuPerStep,
                  static_cast<double>(evals) / steps, static_cast<double>(its) / steps, solves / steps,
                  solves > 0 ? static_cast<double>(c1.iterations - c0.iterations) / solves : 0.0,
                  static_cast<double>(c1.kirchhoff - c0.kirchhoff) / steps,
                  c1.kirchhoff > c0.kirchhoff ? static_cast<double>(c1.kirchhoffIterations - c0.kirchhoffIterations) /
                                                    static_cast<double>(c1.kirchhoff - c0.kirchhoff)
                                              : 0.0,
                  static_cast<double>(c1.applications - c0.applications) / steps,
                  static_cast<double>(c1.relaxed - c0.relaxed) / steps, fluid.directSolver() ? "LU" : "GMRES", peak);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_fluidbody_many: %s\n", e.what());
    MPI_Abort(world, 1);
  }
  PetscCall(PetscFinalize());
  return 0;
}
