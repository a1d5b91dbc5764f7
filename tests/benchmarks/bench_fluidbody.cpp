// Benchmark of the fluidbody DEL step (issues 3 and 4; docs/fluidbody.md "Reference results"):
// wall time per FluidBodyModel::step against the paper's Matlab figures, cost against the number of bodies,
// and the 2-rank parallel efficiency of the 16-body case. A timing main printing Markdown tables.
// Run: build/bin/bench_fluidbody [--quick]      mpirun -n 2 build/bin/bench_fluidbody
//      build/bin/bench_fluidbody --evaluations 16,32,64   (per-evaluation solves, (FB-22a) against 3n + 4)
#include <mpi.h>
#include <petscsys.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "fluid/PanelFluid.hpp"
#include "fluid/Shapes.hpp"
#include "models/fluidbody/FluidBodyModel.hpp"

using namespace kirchhoff;
using namespace kirchhoff::fluidbody;
using lie::Vec2;

namespace {

constexpr double kPi = 3.14159265358979323846;

BodyConfig body(fluid::Polygon shape, double density, Vec2 y) {
  BodyConfig b;
  b.mass = shape.mass(density);
  b.inertia = shape.inertia(density);
  b.shape = std::move(shape);
  b.pose = {0.0, y};
  return b;
}

/// input/fluidbody_disk_vortex.yaml: unit disk, 64 edges, one vortex K = 2 pi at (1.5, 0), dt 0.025.
FluidBodyConfig diskVortex() {
  FluidBodyConfig c;
  c.dt = 0.025;
  c.bodies.push_back(body(fluid::circle(1.0, 64), 1.0, Vec2::Zero()));
  c.vortices.push_back({Vec2(1.5, 0.0), 2 * kPi});
  return c;
}

/// input/fluidbody_channel.yaml: four plates (length 2, thickness 0.1, 64 edges), a vortex pair, dt 0.01.
FluidBodyConfig channel() {
  FluidBodyConfig c;
  c.dt = 0.01;
  for (double x : {-1.1, 1.1})
    for (double y : {0.8, -0.8}) c.bodies.push_back(body(fluid::plate(2.0, 0.1, 64), 1.0, Vec2(x, y)));
  c.vortices.push_back({Vec2(-5.0, 0.25), 2 * kPi});
  c.vortices.push_back({Vec2(-5.0, -0.25), -2 * kPi});
  return c;
}

/// n free disks (radius 0.5, 32 edges, density 1) on a square grid of spacing 2, four vortices
/// (K = +-1) at the centres of the grid cells around the first body; dt 0.01.
FluidBodyConfig grid(int n) {
  FluidBodyConfig c;
  c.dt = 0.01;
  const int side = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(n))));
  for (int j = 0; j < n; ++j)
    c.bodies.push_back(body(fluid::circle(0.5, 32), 1.0, Vec2(2.0 * (j % side), 2.0 * (j / side))));
  const double K[] = {1.0, -1.0, 1.0, -1.0};
  const Vec2 at[] = {Vec2(1, 1), Vec2(-1, 1), Vec2(-1, -1), Vec2(1, -1)};
  for (int i = 0; i < 4; ++i) c.vortices.push_back({at[i], K[i]});
  return c;
}

struct Timing {
  double step = 0.0;        ///< seconds per step (best block mean)
  double withLog = 0.0;     ///< seconds per step + invariants (the driver at log_interval 1)
  double evaluations = 0.0; ///< residual evaluations per step
  double iterations = 0.0;  ///< SNES iterations per step
  int panels = 0, unknowns = 0;
};

/// Mean time per step over blocks of `block` steps (a multiple of the Jacobian lag, so refresh steps
/// are counted at their true frequency); the best of `blocks` blocks, slowest rank.
Timing measure(MPI_Comm comm, const FluidBodyConfig& cfg, int block, int blocks) {
  std::vector<fluid::Polygon> shapes;
  for (const auto& b : cfg.bodies) shapes.push_back(b.shape);
  auto f = std::make_unique<fluid::PanelFluid>(comm, shapes, cfg.fluidDensity);
  Timing t;
  t.panels = f->panelCount();
  FluidBodyModel m(cfg, std::move(f), comm);
  State s = m.initialState();
  t.unknowns = static_cast<int>(s["q"].size());
  auto advance = [&](bool log) {
    const StepReport r = m.step(s);
    s.step += 1;
    s.time += cfg.dt;
    if (log) m.invariants(s, r);
    return r;
  };
  advance(false);  // warm-up (first Jacobian)
  t.step = t.withLog = 1e300;
  long evals = 0, its = 0, counted = 0;
  for (int b = 0; b < 2 * blocks; ++b) {
    const bool log = b % 2 == 1;
    MPI_Barrier(comm);
    const double t0 = MPI_Wtime();
    for (int k = 0; k < block; ++k) {
      const StepReport r = advance(log);
      if (!log) evals += r.evaluations, its += r.iterations, ++counted;
    }
    double dt = (MPI_Wtime() - t0) / block;
    MPI_Allreduce(MPI_IN_PLACE, &dt, 1, MPI_DOUBLE, MPI_MAX, comm);
    (log ? t.withLog : t.step) = std::min(log ? t.withLog : t.step, dt);
  }
  t.evaluations = static_cast<double>(evals) / counted;
  t.iterations = static_cast<double>(its) / counted;
  return t;
}

int rankOf(MPI_Comm c) {
  int r = 0;
  MPI_Comm_rank(c, &r);
  return r;
}

double loadAverage() {
  double l = -1.0;
  if (FILE* f = std::fopen("/proc/loadavg", "r")) {
    if (std::fscanf(f, "%lf", &l) != 1) l = -1.0;
    std::fclose(f);
  }
  return l;
}

/// One DEL evaluation of the fluid at a moved configuration, side by side: the (FB-22a) path (F, A Xi,
/// M_C, dF/dq: four solves) and the same quantities through the full tensor (3n + 4 solves, the
/// path before (FB-22a)). Best of `reps`, slowest rank; prints the ratio.
void evaluationCost(MPI_Comm comm, int n, int reps) {
  const FluidBodyConfig cfg = grid(n);
  std::vector<fluid::Polygon> shapes;
  std::vector<lie::Pose> poses;
  for (const auto& b : cfg.bodies) shapes.push_back(b.shape), poses.push_back(b.pose);
  fluid::Vortices v;
  for (const auto& x : cfg.vortices) v.gamma.push_back(x.position), v.K.push_back(x.circulation);
  fluid::PanelFluid f(comm, shapes, cfg.fluidDensity);
  Eigen::VectorXd Xi(3 * n);
  for (int k = 0; k < 3 * n; ++k) Xi[k] = std::sin(1.0 + k);
  double best[2] = {1e300, 1e300};
  long cols[2] = {0, 0};
  for (int r = 0; r < reps; ++r)
    for (int full = 0; full < 2; ++full) {
      for (auto& p : poses) p.theta += 1e-3;  // a new configuration every evaluation
      MPI_Barrier(comm);
      const double t0 = MPI_Wtime();
      f.setConfiguration(poses, v);
      if (full) f.addedMass();
      f.lagrangianValue(Xi);
      f.addedMassAction(Xi);
      f.lagrangianGradient(Xi);
      double dt = MPI_Wtime() - t0;
      MPI_Allreduce(MPI_IN_PLACE, &dt, 1, MPI_DOUBLE, MPI_MAX, comm);
      best[full] = std::min(best[full], dt);
      cols[full] = f.solvedColumns();
    }
  if (rankOf(comm) == 0)
    std::printf("| %d | %d | %s | %ld | %.1f | %ld | %.1f | %.1f |\n", n, f.panelCount(),
                f.directSolver() ? "LU" : "GMRES", cols[0], 1e3 * best[0], cols[1], 1e3 * best[1],
                best[1] / best[0]);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  PetscCall(PetscInitialize(&argc, &argv, nullptr, nullptr));
  bool quick = false;
  for (int i = 1; i < argc; ++i) quick = quick || std::strcmp(argv[i], "--quick") == 0;
  const MPI_Comm world = PETSC_COMM_WORLD;
  int ranks = 1;
  MPI_Comm_size(world, &ranks);
  const bool root = rankOf(world) == 0;
  const int blocks = quick ? 1 : 3;
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "--evaluations") == 0) {
      if (rankOf(world) == 0)
        std::printf("# bench_fluidbody --evaluations: load average %.2f\n\n"
                    "| bodies | panels | solver | solves (FB-22a) | ms/eval | solves (full A) | ms/eval | ratio |\n"
                    "|---|---|---|---|---|---|---|---|\n", loadAverage());
      for (const char* p = argv[i + 1]; *p;) {
        char* end = nullptr;
        const long n = std::strtol(p, &end, 10);
        if (end == p || n < 1) break;
        evaluationCost(world, static_cast<int>(n), n > 32 ? 2 : 3);
        p = *end ? end + 1 : end;
      }
      PetscCall(PetscFinalize());
      return 0;
    }
  try {
    if (root)
      std::printf("# bench_fluidbody: %d rank(s), load average %.2f at start\n\n"
                  "Per-step wall time of FluidBodyModel::step (best mean over blocks of steps; "
                  "'+ log' adds the invariants the driver computes every step at log_interval 1).\n\n"
                  "| case | bodies | panels | unknowns | ms/step | ms/step + log | evals/step | its/step "
                  "| seed (Matlab) | target |\n|---|---|---|---|---|---|---|---|---|---|\n",
                  ranks, loadAverage());
    {
      const Timing t = measure(world, diskVortex(), 50, blocks);
      if (root)
        std::printf("| disk + vortex (64 edges, dt 0.025) | 1 | %d | %d | %.3f | %.3f | %.2f | %.2f | 500 ms | 1 ms |\n",
                    t.panels, t.unknowns, 1e3 * t.step, 1e3 * t.withLog, t.evaluations, t.iterations);
    }
    {
      const Timing t = measure(world, channel(), quick ? 10 : 30, blocks);
      if (root)
        std::printf("| channel (4 plates x 64 edges, dt 0.01) | 4 | %d | %d | %.3f | %.3f | %.2f | %.2f | 30000 ms | 10 ms |\n",
                    t.panels, t.unknowns, 1e3 * t.step, 1e3 * t.withLog, t.evaluations, t.iterations);
    }
    if (root)
      std::printf("\nCost against the number of bodies: disks of 32 edges (radius 0.5, grid spacing 2), "
                  "4 vortices, dt 0.01; exponent of ms/step against bodies.\n\n"
                  "| bodies | panels | unknowns | ms/step | evals/step | ms/eval | exponent |\n"
                  "|---|---|---|---|---|---|---|\n");
    double prevN = 0.0, prevT = 0.0, t16 = 0.0;
    for (int n : {1, 2, 4, 8, 16}) {
      const Timing t = measure(world, grid(n), n >= 8 ? 20 : 30, blocks);
      if (root) {
        std::printf("| %d | %d | %d | %.3f | %.2f | %.3f |", n, t.panels, t.unknowns, 1e3 * t.step,
                    t.evaluations, 1e3 * t.step / t.evaluations);
        if (prevN > 0) std::printf(" %.2f |\n", std::log(t.step / prevT) / std::log(n / prevN));
        else std::printf(" |\n");
        std::fflush(stdout);
      }
      prevN = n, prevT = t.step, t16 = t.step;
    }
    if (ranks > 1) {
      // The same 16-body case on rank 0 alone (the other ranks wait), for the parallel efficiency.
      MPI_Comm solo;
      MPI_Comm_split(world, root ? 0 : MPI_UNDEFINED, 0, &solo);
      double t1 = 0.0;
      if (root) {
        t1 = measure(solo, grid(16), 20, blocks).step;
        MPI_Comm_free(&solo);
      }
      MPI_Barrier(world);
      if (root)
        std::printf("\n16 bodies: %.3f ms/step on 1 rank, %.3f ms/step on %d ranks: speed-up %.2f, "
                    "parallel efficiency %.0f%%\n",
                    1e3 * t1, 1e3 * t16, ranks, t1 / t16, 100.0 * t1 / (ranks * t16));
    }
    if (root) std::printf("\n# load average %.2f at end\n", loadAverage());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_fluidbody: %s\n", e.what());
    MPI_Abort(world, 1);
  }
  PetscCall(PetscFinalize());
  return 0;
}
