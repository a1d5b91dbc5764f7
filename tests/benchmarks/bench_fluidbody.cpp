// Benchmark of the fluidbody DEL step (the panel solve and the SNES step; docs/fluidbody.md "Reference results"):
// wall time per FluidBodyModel::step against the paper's Matlab figures, cost against the number of bodies,
// and the 2-rank parallel efficiency of the 16-body case. A timing main printing Markdown tables.
// Run: build/bin/bench_fluidbody [--quick]      mpirun -n 2 build/bin/bench_fluidbody
//      build/bin/bench_fluidbody --evaluations 16,32,64   (per-evaluation solves, (FB-22a) against 3n + 4)
//      build/bin/bench_fluidbody --jacobian 16,32,64 [--jacobian-steps K] [-panel_solver ksp]   (lagged
//      against newton_krylov, K steps from the initial state, default 10)
//      build/bin/bench_fluidbody --operators 16,32,64     (dense KSP against -panel_operator fast, (FB-41)-(FB-46))
#include <mpi.h>
#include <petscsys.h>
#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "BodyGrid.hpp"
#include "core/Constants.hpp"
#include "fluid/PanelFluid.hpp"
#include "fluid/geometry/Shapes.hpp"
#include "models/fluidbody/FluidBodyModel.hpp"

using namespace kirchhoff;
using namespace kirchhoff::fluidbody;
using lie::Vec2;

namespace {

using kirchhoff::kPi;

using bench::body;
using bench::grid;

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

/// grid(n) as the fluid sees it: shapes, poses, vortices and a body velocity Xi_k = sin(1 + k).
struct FluidScene {
  explicit FluidScene(int n) : cfg(grid(n)), Xi(3 * n) {
    for (const auto& b : cfg.bodies) shapes.push_back(b.shape), poses.push_back(b.pose);
    for (const auto& x : cfg.vortices) vortices.gamma.push_back(x.position), vortices.K.push_back(x.circulation);
    for (int k = 0; k < 3 * n; ++k) Xi[k] = std::sin(1.0 + k);
  }
  FluidBodyConfig cfg;
  std::vector<fluid::Polygon> shapes;
  std::vector<lie::Pose> poses;
  fluid::Vortices vortices;
  Eigen::VectorXd Xi;
};

/// One DEL evaluation of the fluid at a moved configuration, side by side: the (FB-22a) path (F, A Xi,
/// M_C, dF/dq: four solves) and the same quantities through the full tensor (3n + 4 solves, the
/// path before (FB-22a)). Best of `reps`, slowest rank; prints the ratio.
void evaluationCost(MPI_Comm comm, int n, int reps) {
  const FluidScene scene(n);
  const FluidBodyConfig& cfg = scene.cfg;
  const std::vector<fluid::Polygon>& shapes = scene.shapes;
  std::vector<lie::Pose> poses = scene.poses;
  const fluid::Vortices& v = scene.vortices;
  fluid::PanelFluid f(comm, shapes, cfg.fluidDensity);
  const Eigen::VectorXd& Xi = scene.Xi;
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

/// --jacobian: lagged against newton_krylov (docs/fluidbody.md (FB-29a)) on grid(n), one process, from
/// the initial state: the first step (lagged: its finite-difference refresh) and the mean of the
/// next `steps` - 1, each with its evaluations; the mean over 10 steps (one lagged refresh, its true
/// frequency at jacobian_lag 10) is (first + 9 later) / 10.
void jacobianComparison(MPI_Comm comm, int n, int steps) {
  double first[2], later[2], e1[2], eLater[2], drift[2] = {0.0, 0.0};
  Eigen::VectorXd q[2];
  const char* modes[] = {"lagged", "newton_krylov"};
  for (int k = 0; k < 2; ++k) {
    PetscOptionsSetValue(nullptr, "-del_jacobian", modes[k]);
    const FluidBodyConfig cfg = grid(n);
    std::vector<fluid::Polygon> shapes;
    for (const auto& b : cfg.bodies) shapes.push_back(b.shape);
    FluidBodyModel m(cfg, std::make_unique<fluid::PanelFluid>(comm, shapes, cfg.fluidDensity), comm);
    State s = m.initialState();
    const std::vector<double> J0 = m.invariants(s, {});
    long e = 0;
    for (int i = 0; i < steps; ++i, s.step += 1) {
      MPI_Barrier(comm);
      const double t0 = MPI_Wtime();
      const long ei = m.step(s).evaluations;
      const double ti = MPI_Wtime() - t0;
      if (i == 0) first[k] = ti, e1[k] = static_cast<double>(ei), later[k] = 0.0;
      else later[k] += ti / (steps - 1), e += ei;
    }
    eLater[k] = steps > 1 ? static_cast<double>(e) / (steps - 1) : 0.0;
    const std::vector<double> J = m.invariants(s, {});
    for (int c : {1, 2, 3}) drift[k] = std::max(drift[k], std::abs(J[c] - J0[c]));
    q[k] = Eigen::Map<const Eigen::VectorXd>(s["q"].data(), static_cast<Eigen::Index>(s["q"].size()));
  }
  PetscOptionsClearValue(nullptr, "-del_jacobian");
  auto mean10 = [](double a, double b) { return (a + 9.0 * b) / 10.0; };
  if (rankOf(comm) == 0)
    std::printf("| %d | %d | %.3f (%.0f) | %.3f (%.1f) | %.3f / %.1f | %.3f (%.0f) | %.3f (%.1f) | %.3f / %.1f "
                "| %.2f | %.1e | %.1e |\n",
                n, 32 * n, first[0], e1[0], later[0], eLater[0], mean10(first[0], later[0]), mean10(e1[0], eLater[0]),
                first[1], e1[1], later[1], eLater[1], mean10(first[1], later[1]), mean10(e1[1], eLater[1]),
                mean10(first[0], later[0]) / mean10(first[1], later[1]), (q[1] - q[0]).norm() / q[0].norm(),
                drift[1]);
}

long peakKiB() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

/// One DEL evaluation (moved configuration; F, A Xi, dF/dq: four solves, (FB-22a)) on dense-KSP and on the
/// matrix-free body-cluster operator (FB-41)-(FB-46), same process, fast first: ms/eval (best of `reps`,
/// slowest rank), KSP iterations per solve, the stored inter-body doubles per rank and the process peak RSS
/// after each (getrusage; the dense peak includes the fast case's), and the gradients' relative difference.
void operatorCost(MPI_Comm comm, int n, int reps) {
  const FluidScene scene(n);
  const FluidBodyConfig& cfg = scene.cfg;
  const std::vector<fluid::Polygon>& shapes = scene.shapes;
  std::vector<lie::Pose> poses = scene.poses;
  const fluid::Vortices& v = scene.vortices;
  const Eigen::VectorXd& Xi = scene.Xi;
  double ms[2] = {0.0, 0.0}, stored[2] = {0.0, 0.0};
  long peak[2] = {0, 0};
  int its[2] = {0, 0};
  Eigen::VectorXd grad[2];
  for (int dense = 0; dense < 2; ++dense) {
    fluid::PanelOptions o = fluid::PanelOptions::fromOptions(comm, "panel_");  // -panel_multipole_*
    o.solver = fluid::PanelSolver::Ksp;
    o.op = dense ? fluid::PanelOperator::Dense : fluid::PanelOperator::Fast;
    fluid::PanelFluid f(comm, shapes, cfg.fluidDensity, o);
    std::vector<lie::Pose> g = poses;
    double best = 1e300;
    for (int r = 0; r < reps; ++r) {
      for (auto& p : g) p.theta += 1e-3;
      MPI_Barrier(comm);
      const double t0 = MPI_Wtime();
      f.setConfiguration(g, v);
      f.lagrangianValue(Xi);
      f.addedMassAction(Xi);
      grad[dense] = f.lagrangianGradient(Xi);
      double dt = MPI_Wtime() - t0;
      MPI_Allreduce(MPI_IN_PLACE, &dt, 1, MPI_DOUBLE, MPI_MAX, comm);
      best = std::min(best, dt);
    }
    ms[dense] = 1e3 * best;
    its[dense] = f.lastIterations();
    const int N = f.panelCount();
    int ranks = 1;
    MPI_Comm_size(comm, &ranks);
    // Dense: the rows of M (N + n wide) and of S over the ranks; fast: the near blocks of this rank.
    stored[dense] = dense ? (static_cast<double>(N + n) * (N + n) + static_cast<double>(N) * N) / ranks
                          : static_cast<double>(f.clusterOperator()->storedDoubles());
    peak[dense] = peakKiB();
  }
  const double diff = (grad[0] - grad[1]).cwiseAbs().maxCoeff() / grad[1].cwiseAbs().maxCoeff();
  if (rankOf(comm) == 0)
    std::printf("| %d | %d | %.1f | %d | %.1f MB | %.1f | %d | %.1f MB | %.2f | %.1f | %ld / %ld MB | %.1e |\n", n,
                n * 32, ms[1], its[1], 8e-6 * stored[1], ms[0], its[0], 8e-6 * stored[0], ms[1] / ms[0],
                stored[1] / std::max(stored[0], 1.0), peak[0] / 1024, peak[1] / 1024, diff);
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
  // Comma-separated body counts after a mode flag, each measured by f(n).
  auto eachCount = [](const char* p, auto&& f) {
    while (*p) {
      char* end = nullptr;
      const long n = std::strtol(p, &end, 10);
      if (end == p || n < 1) break;
      f(static_cast<int>(n));
      p = *end ? end + 1 : end;
    }
  };
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], "--jacobian") == 0) {
      int steps = 10;
      for (int j = 1; j + 1 < argc; ++j)
        if (std::strcmp(argv[j], "--jacobian-steps") == 0) steps = std::max(2, std::atoi(argv[j + 1]));
      if (rankOf(world) == 0)
        std::printf("# bench_fluidbody --jacobian: %d rank(s), %d steps, load average %.2f\n\n"
                    "s (evaluations): first step, mean of the later ones; per step over 10 steps = "
                    "(first + 9 later) / 10.\n\n"
                    "| bodies | panels | lagged first | later | per step s / evals | newton_krylov first | later "
                    "| per step s / evals | speed-up | |q_nk - q_lagged| / |q| | max abs momentum change (nk) |\n"
                    "|---|---|---|---|---|---|---|---|---|---|---|\n", ranks, steps, loadAverage());
      eachCount(argv[i + 1], [&](int n) { jacobianComparison(world, n, steps); });
    } else if (std::strcmp(argv[i], "--operators") == 0) {
      if (rankOf(world) == 0)
        std::printf("# bench_fluidbody --operators: %d rank(s), load average %.2f\n\n"
                    "| bodies | panels | dense ms/eval | its/solve | dense rows/rank | fast ms/eval | its/solve "
                    "| fast near blocks/rank | speed-up | memory ratio | peak RSS fast / then dense | grad diff |\n"
                    "|---|---|---|---|---|---|---|---|---|---|---|---|\n", ranks, loadAverage());
      eachCount(argv[i + 1], [&](int n) { operatorCost(world, n, n > 32 ? 2 : 3); });
    } else if (std::strcmp(argv[i], "--evaluations") == 0) {
      if (rankOf(world) == 0)
        std::printf("# bench_fluidbody --evaluations: load average %.2f\n\n"
                    "| bodies | panels | solver | solves (FB-22a) | ms/eval | solves (full A) | ms/eval | ratio |\n"
                    "|---|---|---|---|---|---|---|---|\n", loadAverage());
      eachCount(argv[i + 1], [&](int n) { evaluationCost(world, n, n > 32 ? 2 : 3); });
    } else {
      continue;
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
