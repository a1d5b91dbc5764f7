// Cost at equal accuracy for the channel (what graded Gauss panels buy at corners; docs/fluidbody.md "Graded Gauss-Legendre panels",
// (FB-56)): the added-mass error of one channel plate (length 2, thickness 0.1) against the plate
// resolution for panel and gauss_panels, and the DEL step of the four-plate channel of
// input/fluidbody_channel.yaml (two vortices, dt 0.01) at each resolution, side by side: ms/step (wall
// and CPU), evaluations and Newton iterations per step, GMRES iterations per evaluation, setup, first
// step, peak memory. Then least-squares fits error ~ E^a and ms/step ~ E^b over the panel rows from
// 1024 edges, the edges per plate for an error of 1e-6 (interpolated between measured errors when they
// bracket it, else extrapolated), the step time there (extrapolated from the largest timed channel with
// the fitted b, and pessimistically per evaluation with the local exponent), the measured lower bound
// (the most accurate timed panel channel still above 1e-6 against gauss_panels at <= 1e-6), and the
// same at 1e-8.
//
// Run: build/bin/bench_fluidbody_channel_accuracy [--quick] [--edges 512,1024,2048,4096]
//        [--error-edges 8192,16384] [--extra-time-edges 6144] [--levels 0,1,2,3] [--timed-levels 1,2]
//        [--steps 3] [--solver ksp|direct|auto] [--compare-direct 512,1024]   (prints Markdown tables)
//   --edges: panel edges per plate (ascending), error and channel step; --error-edges: error only (one
//   plate, GMRES); --extra-time-edges: like --edges, after the --error-edges rows (the largest channels
//   last); --levels: gauss_panels grading levels (ratio 10, order 16, max_panel 0.8), error;
//   --timed-levels: those whose channel step is timed (GMRES and LU; the cheaper is compared);
//   --solver: the panel channel's solver (default ksp: GMRES on the dense operator, body self-block LU
//   preconditioner); --compare-direct: also time the panel channel at these edges with dense LU per
//   evaluation. PETSc options -bench_* (PanelOptions: -bench_cache_max, -bench_ksp_rtol, ...) apply to
//   the panel rows.
//   Steps: one first step (it forms the lagged DEL Jacobian by finite differences, every 10 steps),
//   then --steps steps (at most 9: none refreshes it); ms/step is their mean, the best of up to 3
//   repeats while a repeat takes < 5 s. Memory: VmHWM of the process, reset before every row
//   (malloc_trim, /proc/self/clear_refs).
#include <mpi.h>
#include <petscsys.h>
#include <malloc.h>
#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "core/Constants.hpp"
#include "fluid/BoundaryFluid.hpp"
#include "fluid/discretization/GaussPanelDiscretization.hpp"
#include "fluid/PanelFluid.hpp"
#include "fluid/geometry/Shapes.hpp"
#include "models/fluidbody/FluidBodyModel.hpp"

using namespace kirchhoff;
using namespace kirchhoff::fluidbody;
using lie::Vec2;

namespace {

using kirchhoff::kPi;
constexpr double kTarget = 1e-6;
constexpr double kLength = 2.0, kThickness = 0.1;

struct Resolution {
  bool gauss = false;
  int value = 0;  ///< panel: edges per plate; gauss_panels: grading levels
};

fluid::GaussPanelOptions gaussOptions(int levels) {
  fluid::GaussPanelOptions o;
  o.order = 16, o.maxPanel = 0.8, o.levels = levels, o.ratio = 10.0;
  return o;
}

/// Panel plates of `r.value` edges, or gauss_panels with grading ratio 10 and `r.value` levels (order 16,
/// max_panel 0.8); GMRES with the body self-block LU preconditioner unless `solver` says otherwise.
std::unique_ptr<fluid::BoundaryFluid> makeFluid(Resolution r, const std::vector<fluid::Polygon>& outl,
                                                fluid::PanelSolver solver) {
  if (!r.gauss) {
    fluid::PanelOptions p = fluid::PanelOptions::fromOptions(PETSC_COMM_SELF, "bench_");  // -bench_cache_max etc.
    p.solver = solver;
    p.op = fluid::PanelOperator::Dense;
    return std::make_unique<fluid::PanelFluid>(PETSC_COMM_SELF, outl, 1.0, p, "bench_");
  }
  const std::vector<fluid::PiecewiseCurve> c(outl.size(), fluid::stadiumCurve(kLength, kThickness));
  fluid::SolverOptions s;
  s.solver = solver;
  s.op = fluid::PanelOperator::Dense;
  return std::make_unique<fluid::BoundaryFluid>(
      PETSC_COMM_SELF, outl, std::make_unique<fluid::GaussPanelDiscretization>(c, gaussOptions(r.value)), 1.0, s,
      "bench_");
}

fluid::Polygon outline(Resolution r) { return fluid::plate(kLength, kThickness, r.gauss ? 64 : r.value); }

Eigen::MatrixXd plateAddedMass(Resolution r, fluid::PanelSolver solver, int* nodes) {
  auto f = makeFluid(r, {outline(r)}, solver);
  f->setConfiguration({lie::Pose{}}, fluid::Vortices{});
  *nodes = f->nodeCount();
  return f->addedMass();
}

double relErr(const Eigen::MatrixXd& A, const Eigen::MatrixXd& R) {
  double e = 0.0;
  for (int k = 0; k < 3; ++k) e = std::max(e, std::abs(A(k, k) - R(k, k)) / std::abs(R(k, k)));
  return e;
}

/// Resets the peak resident set (Linux: VmHWM) so that the next peak is the next row's.
void resetPeak() {
  malloc_trim(0);  // return the freed heap of the last row first
  std::ofstream f("/proc/self/clear_refs");
  if (f) f << "5";
}

/// Peak resident memory since the last resetPeak in MB (VmHWM; ru_maxrss if /proc is missing).
double peakMegabytes() {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::atof(line.c_str() + 6) / 1024.0;
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;
}

/// CPU seconds of this process (all threads): less sensitive than wall time to other jobs on the cores.
double cpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

struct ChannelTiming {
  int nodes = 0;
  bool direct = false;
  double setup = 0.0, first = 0.0, ms = 0.0, cpu = 0.0, evals = 0.0, newton = 0.0, krylov = 0.0, peak = 0.0;
  int firstEvals = 0;
};

/// The channel deck (four plates, two vortices, dt 0.01): setup, the first step, then `steps` steps.
ChannelTiming timeChannel(Resolution r, fluid::PanelSolver solver, int steps) {
  resetPeak();
  ChannelTiming t;
  FluidBodyConfig c;
  c.dt = 0.01;
  const fluid::Polygon shape = outline(r);
  const fluid::PiecewiseCurve curve = fluid::stadiumCurve(kLength, kThickness);
  std::vector<fluid::Polygon> outl;
  for (const Vec2& y : {Vec2(-1.1, 0.8), Vec2(1.1, 0.8), Vec2(-1.1, -0.8), Vec2(1.1, -0.8)}) {
    BodyConfig b;
    b.shape = shape;
    b.mass = curve.area, b.inertia = curve.polarMoment;
    b.pose = {0.0, y};
    c.bodies.push_back(b);
    outl.push_back(shape);
  }
  c.vortices = {{Vec2(-5.0, 0.25), 2 * kPi}, {Vec2(-5.0, -0.25), -2 * kPi}};
  double t0 = MPI_Wtime();
  auto owned = makeFluid(r, outl, solver);
  const fluid::BoundaryFluid& f = *owned;
  t.nodes = f.nodeCount() / 4;
  t.direct = f.directSolver();
  FluidBodyModel m(c, std::move(owned), PETSC_COMM_SELF);
  t.setup = MPI_Wtime() - t0;
  t.ms = t.cpu = 1e300;
  for (int rep = 0; rep < 3; ++rep) {
    State s = m.initialState();
    t0 = MPI_Wtime();
    t.firstEvals = m.step(s).evaluations;
    s.step += 1;
    if (rep == 0) t.first = MPI_Wtime() - t0;
    long evals = 0, newton = 0, its = 0;
    t0 = MPI_Wtime();
    const double c0 = cpuSeconds();
    for (int k = 0; k < steps; ++k) {
      const long i0 = f.totalIterations();
      const StepReport rep1 = m.step(s);
      s.step += 1;
      evals += rep1.evaluations;
      newton += rep1.iterations;
      its += f.totalIterations() - i0;
    }
    const double wall = MPI_Wtime() - t0;
    t.ms = std::min(t.ms, 1e3 * wall / steps);
    t.cpu = std::min(t.cpu, 1e3 * (cpuSeconds() - c0) / steps);
    t.evals = static_cast<double>(evals) / steps;
    t.newton = static_cast<double>(newton) / steps;
    t.krylov = evals > 0 ? static_cast<double>(its) / static_cast<double>(evals) : 0.0;  // GMRES its per evaluation
    if (wall > 5.0) break;
  }
  t.peak = peakMegabytes();
  return t;
}

std::vector<int> intList(const char* s) {
  std::vector<int> v;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, ','))
    if (!item.empty()) v.push_back(std::atoi(item.c_str()));
  return v;
}

/// Least-squares slope and intercept of log y against log x.
std::pair<double, double> logFit(const std::vector<double>& x, const std::vector<double>& y) {
  const int n = static_cast<int>(x.size());
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (int i = 0; i < n; ++i) {
    const double a = std::log(x[i]), b = std::log(y[i]);
    sx += a, sy += b, sxx += a * a, sxy += a * b;
  }
  const double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
  return {slope, (sy - slope * sx) / n};
}

fluid::PanelSolver solverNamed(const char* s) {
  if (std::strcmp(s, "direct") == 0) return fluid::PanelSolver::Direct;
  if (std::strcmp(s, "auto") == 0) return fluid::PanelSolver::Auto;
  return fluid::PanelSolver::Ksp;
}

void printTiming(const char* disc, const char* res, const char* err, const ChannelTiming& t) {
  std::printf("| %s | %s | %d | %s | %s | %.1f | %.1f (%d) | %.1f | %.1f | %.1f | %.1f | %.1f | %.0f |\n", disc,
              res, t.nodes, err, t.direct ? "LU" : "GMRES", t.setup, t.first, t.firstEvals, t.ms, t.cpu, t.evals,
              t.newton, t.krylov, t.peak);
  std::fflush(stdout);
}

std::string sci(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2e", x);
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  PetscCall(PetscInitialize(&argc, &argv, nullptr, nullptr));
  bool quick = false;
  std::vector<int> edges = {512, 1024, 2048, 4096}, errorEdges, levels = {0, 1, 2, 3}, timedLevels = {0, 1, 2};
  std::vector<int> extraTime;
  int steps = 3;
  std::vector<int> compareDirect = {512};
  fluid::PanelSolver solver = fluid::PanelSolver::Ksp;
  for (int i = 1; i < argc; ++i) {
    const bool more = i + 1 < argc;
    if (std::strcmp(argv[i], "--quick") == 0) quick = true;
    else if (std::strcmp(argv[i], "--edges") == 0 && more) edges = intList(argv[++i]);
    else if (std::strcmp(argv[i], "--error-edges") == 0 && more) errorEdges = intList(argv[++i]);
    else if (std::strcmp(argv[i], "--extra-time-edges") == 0 && more) extraTime = intList(argv[++i]);
    else if (std::strcmp(argv[i], "--levels") == 0 && more) levels = intList(argv[++i]);
    else if (std::strcmp(argv[i], "--timed-levels") == 0 && more) timedLevels = intList(argv[++i]);
    else if (std::strcmp(argv[i], "--steps") == 0 && more) steps = std::max(1, std::min(9, std::atoi(argv[++i])));
    else if (std::strcmp(argv[i], "--solver") == 0 && more) solver = solverNamed(argv[++i]);
    else if (std::strcmp(argv[i], "--compare-direct") == 0 && more) compareDirect = intList(argv[++i]);
  }
  if (quick) edges = {128, 256}, errorEdges.clear(), levels = {0, 1}, timedLevels = {0}, steps = 1,
             compareDirect = {128}, extraTime.clear();
  try {
    int nref = 0, n = 0;
    // Reference: gauss_panels, ratio 10, 6 levels (3 levels are within 5e-11 of a 2464-node reference).
    const Eigen::MatrixXd R = plateAddedMass({true, 6}, fluid::PanelSolver::Auto, &nref);
    std::printf("# bench_fluidbody_channel_accuracy: plate length 2, thickness 0.1; reference gauss_panels "
                "6 levels, %d nodes\n\nError = max relative error of one plate's added-mass diagonal; "
                "target %.0e. Channel: four plates, two vortices, dt 0.01; ms/step: mean of %d steps after "
                "the first (wall and CPU time of the process).\n\n| discretization | resolution | nodes per "
                "plate | error | channel solver | setup s | first step s (evals) | ms/step wall | ms/step CPU | "
                "evals/step | Newton/step | GMRES its/eval | peak MB |\n"
                "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
                nref, kTarget, steps);
    std::fflush(stdout);
    struct Point {
      double edges, err, wall, cpu, evals;
    };
    std::vector<Point> gauss, errors, times;  // gauss_panels rows; panel errors; panel GMRES step times
    for (int l : levels) {
      const double e = relErr(plateAddedMass({true, l}, fluid::PanelSolver::Auto, &n), R);
      char res[32];
      std::snprintf(res, sizeof res, "%d levels", l);
      if (std::find(timedLevels.begin(), timedLevels.end(), l) == timedLevels.end()) {
        std::printf("| gauss_panels | %s | %d | %.2e | - | | | | | | | | |\n", res, n, e);
        continue;
      }
      // Both solvers; the cheaper (CPU) one is compared.
      const ChannelTiming t = timeChannel({true, l}, fluid::PanelSolver::Ksp, steps);
      printTiming("gauss_panels", res, sci(e).c_str(), t);
      const ChannelTiming d = timeChannel({true, l}, fluid::PanelSolver::Direct, steps);
      printTiming("gauss_panels", res, sci(e).c_str(), d);
      const ChannelTiming& best = d.cpu < t.cpu ? d : t;
      gauss.push_back({static_cast<double>(n), e, best.ms, best.cpu, best.evals});
    }
    auto timePanel = [&](int E, double e) {
      const std::string err = sci(e);
      char res[32];
      std::snprintf(res, sizeof res, "%d edges", E);
      const ChannelTiming t = timeChannel({false, E}, solver, steps);
      printTiming("panel", res, err.c_str(), t);
      if (!t.direct) times.push_back({static_cast<double>(E), e, t.ms, t.cpu, t.evals});
      if (std::find(compareDirect.begin(), compareDirect.end(), E) != compareDirect.end() &&
          solver != fluid::PanelSolver::Direct)
        printTiming("panel", res, err.c_str(), timeChannel({false, E}, fluid::PanelSolver::Direct, steps));
    };
    for (int E : edges) {
      const double e = relErr(plateAddedMass({false, E}, fluid::PanelSolver::Auto, &n), R);
      errors.push_back({static_cast<double>(E), e, 0.0, 0.0, 0.0});
      timePanel(E, e);
    }
    for (int E : errorEdges) {  // error only: one plate by GMRES (its self-block LU is the preconditioner)
      resetPeak();
      const double t0 = MPI_Wtime();
      const double e = relErr(plateAddedMass({false, E}, fluid::PanelSolver::Ksp, &n), R);
      errors.push_back({static_cast<double>(E), e, 0.0, 0.0, 0.0});
      std::printf("| panel | %d edges | %d | %.2e | (one plate only: %.0f s, peak %.0f MB) | | | | | | | | |\n", E,
                  n, e, MPI_Wtime() - t0, peakMegabytes());
      std::fflush(stdout);
    }

    for (int E : extraTime) {  // after the error-only rows: the largest channels last
      const double e = relErr(plateAddedMass({false, E}, fluid::PanelSolver::Auto, &n), R);
      errors.push_back({static_cast<double>(E), e, 0.0, 0.0, 0.0});
      timePanel(E, e);
    }

    // Fits over the panel rows from 1024 edges (below, the time is pre-asymptotic: the matrices fit the caches).
    std::vector<double> fN, fE, tN, tW, tC;
    for (const Point& p : errors)
      if (p.edges >= 1024 || quick) fN.push_back(p.edges), fE.push_back(p.err);
    for (const Point& p : times)
      if (p.edges >= 1024 || quick) tN.push_back(p.edges), tW.push_back(p.wall), tC.push_back(p.cpu);
    if (fN.size() < 2 || tN.size() < 2) {
      std::printf("\n(too few panel rows for the fits)\n");
    } else {
      const auto [a, ca] = logFit(fN, fE);
      // Plain variables, not structured bindings: a lambda below captures them (C++17 forbids that).
      const auto fitW = logFit(tN, tW), fitC = logFit(tN, tC);
      const double bw = fitW.first, bc = fitC.first;
      std::printf("\npanel error fit (%zu points%s): error ~ %.3g E^%.2f; step-time fits (%zu GMRES "
                  "points%s): wall ~ E^%.2f, CPU ~ E^%.2f\n",
                  fN.size(), quick ? "" : " from 1024 edges", std::exp(ca), a, tN.size(), quick ? "" : " from 1024 edges", bw, bc);
      // The step time at E: interpolated between the timed channels (log-log), beyond the largest one
      // extrapolated from it with the fitted exponent.
      auto stepAt = [&](double E, bool cpu, bool* extrapolated) {
        const std::vector<double>& T = cpu ? tC : tW;
        const double b = cpu ? bc : bw;
        std::size_t hi = 0;
        for (std::size_t i = 0; i < tN.size(); ++i)
          if (tN[i] > tN[hi]) hi = i;
        *extrapolated = E > tN[hi];
        if (*extrapolated) return T[hi] * std::pow(E / tN[hi], b);
        std::size_t i0 = hi, i1 = hi;  // largest timed point <= E, smallest >= E
        for (std::size_t i = 0; i < tN.size(); ++i) {
          if (tN[i] <= E && (tN[i0] > E || tN[i] > tN[i0])) i0 = i;
          if (tN[i] >= E && tN[i] < tN[i1]) i1 = i;
        }
        if (tN[i0] > E || i0 == i1) return T[i1] * std::pow(E / tN[i1], b);
        const double s = std::log(T[i1] / T[i0]) / std::log(tN[i1] / tN[i0]);
        return T[i0] * std::pow(E / tN[i0], s);
      };
      // Per evaluation (the DEL evaluations per step vary a little with the resolution): fit and the local
      // exponent between the two largest timed channels.
      std::vector<double> tE;
      for (const Point& p : times)
        if (p.edges >= 1024 || quick) tE.push_back(p.cpu / p.evals);
      const auto [be, ce] = logFit(tN, tE);
      const std::size_t last = tN.size() - 1;
      const double bLocal = std::log(tE[last] / tE[last - 1]) / std::log(tN[last] / tN[last - 1]);
      double maxEvals = 0.0;
      for (const Point& p : times) maxEvals = std::max(maxEvals, p.evals);
      std::printf("per DEL evaluation: CPU ~ E^%.2f (fit), E^%.2f between %.0f and %.0f edges\n", be, bLocal,
                  tN[last - 1], tN[last]);
      (void)ce;
      // Measured lower bound: the most accurate timed panel channel that is still above the target costs at
      // least as much as the panel channel at the target would, less than it in fact.
      const Point* worse = nullptr;
      for (const Point& p : times)
        if (p.err > kTarget && (!worse || p.edges > worse->edges)) worse = &p;
      for (const Point& g : gauss)
        if (worse && g.err <= kTarget) {
          std::printf("measured: panel at %.0f edges (error %.2e > %.0e) %.4g ms/step CPU = %.0fx gauss_panels at "
                      "%.0f nodes (error %.2e): a lower bound on the ratio at equal accuracy\n",
                      worse->edges, worse->err, kTarget, worse->cpu, worse->cpu / g.cpu, g.edges, g.err);
          break;
        }
      for (double goal : {kTarget, 1e-8}) {
        // Edges for the goal: between the measured errors that bracket it (log-log), else by the fit.
        double need = std::exp((std::log(goal) - ca) / a);
        const Point* lo = nullptr;  // largest resolution above the goal, smallest at or below it
        const Point* hi = nullptr;
        for (const Point& p : errors) {
          if (p.err > goal && (!lo || p.edges > lo->edges)) lo = &p;
          if (p.err <= goal && (!hi || p.edges < hi->edges)) hi = &p;
        }
        const bool bracketed = lo && hi && hi->edges > lo->edges;
        if (bracketed)
          need = lo->edges * std::pow(goal / lo->err, std::log(hi->edges / lo->edges) / std::log(hi->err / lo->err));
        bool extrapolated = false;
        const double wall = stepAt(need, false, &extrapolated), cpu = stepAt(need, true, &extrapolated);
        std::printf("panel at error %.0e: ~%.0f edges per plate (%s), ~%.3g ms/step wall, ~%.3g CPU (%s)\n", goal,
                    need, bracketed ? "interpolated between measured errors" : "extrapolated with the error fit",
                    wall, cpu, extrapolated ? "extrapolated with the step-time fit" : "interpolated between timed runs");
        if (extrapolated)  // the pessimistic variant: per evaluation with the local exponent, the most evaluations
          std::printf("  (per evaluation from %.0f edges with E^%.2f, %.1f evaluations per step: ~%.3g ms/step CPU)\n",
                      tN[last], bLocal, maxEvals, maxEvals * tE[last] * std::pow(need / tN[last], bLocal));
        for (const Point& g : gauss)
          if (g.err <= goal) {
            std::printf("  gauss_panels at error <= %.0e: %.0f nodes per plate (error %.2e), %.1f ms/step wall, %.1f "
                        "CPU (its cheaper solver): %.0fx cheaper per step (wall), %.0fx (CPU)\n",
                        goal, g.edges, g.err, g.wall, g.cpu, wall / g.wall, cpu / g.cpu);
            break;
          }
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_fluidbody_channel_accuracy: %s\n", e.what());
    MPI_Abort(PETSC_COMM_WORLD, 1);
  }
  PetscCall(PetscFinalize());
  return 0;
}
