// Benchmarks and long studies of the slosh model (docs/slosh.md): grid-point updates per second of
// the distributed Stormer-Verlet step (N = 10^3..10^6), 10^6-step energy drift, frequency table vs N.
//   bench_slosh [--throughput] [--energy] [--frequencies]      (all three without flags)
//   mpirun -n 2 bench_slosh --throughput                         (2 ranks)
#include <petscsys.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "../slosh/SloshFixtures.hpp"
#include "../slosh/Spectrum.hpp"
#include "models/slosh/LinearFrequencies.hpp"
#include "models/slosh/LinearModes.hpp"
#include "models/slosh/SloshModel.hpp"

using namespace kirchhoff;
using namespace kirchhoff::slosh;
namespace st = kirchhoff::slosh::fixtures;

namespace {

int worldRank() {
  int r = 0;
  MPI_Comm_rank(PETSC_COMM_WORLD, &r);
  return r;
}

// Steps of SloshModel (all ranks); Model::step only, as the run loop calls it.
void throughput() {
  int size = 1;
  MPI_Comm_size(PETSC_COMM_WORLD, &size);
  if (worldRank() == 0)
    std::printf("\n# throughput: SloshModel::step on %d rank(s)\n#        N    steps   seconds   updates/s\n", size);
  for (int N : {1000, 10000, 100000, 1000000}) {
    Config cfg = st::baseConfig(N, 0.01);
    cfg.init.q0 = 0.01;
    SloshModel m(cfg, st::cflStep(cfg, 0.5), PETSC_COMM_WORLD);
    State s = m.initialState();
    const long steps = std::max(20L, static_cast<long>(6e7 / N));
    for (int k = 0; k < 5; ++k) m.step(s);  // warm-up
    MPI_Barrier(PETSC_COMM_WORLD);
    const double t0 = MPI_Wtime();
    for (long k = 0; k < steps; ++k) m.step(s);
    MPI_Barrier(PETSC_COMM_WORLD);
    const double sec = MPI_Wtime() - t0;
    if (worldRank() == 0)
      std::printf("%10d %8ld %9.3f %11.3e\n", N, steps, sec, static_cast<double>(N) * steps / sec);
  }
}

struct Drift {
  std::vector<double> windowMax;  ///< max |rel. error| per window
  double maxRel = 0.0;
};

// Relative energy error (E - E0)/(E0 - E_rest) over `steps`, measured every `every` steps.
Drift energyRun(const Config& cfg, double fraction, long steps, long every, int windows) {
  Discretization d(cfg.par, cfg.depth, st::cflStep(cfg, fraction));
  const SlabCoefficients c = d.slab(1, static_cast<std::size_t>(d.points()));
  SerialState<double> s = serialInitialState<double>(d, cfg.init);
  std::vector<double> xg;
  const double e0 = serialInvariants(s, d, c).energy;
  Drift r;
  r.windowMax.assign(static_cast<std::size_t>(windows), 0.0);
  for (long n = 1; n <= steps; ++n) {
    stormerVerletStep(s, d, c, xg);
    if (n % every) continue;
    const double rel = std::abs(serialInvariants(s, d, c).energy - e0) / e0;
    r.maxRel = std::max(r.maxRel, rel);
    auto& w = r.windowMax[static_cast<std::size_t>(std::min<long>(windows - 1, (n - 1) * windows / steps))];
    w = std::max(w, rel);
  }
  return r;
}

void energy() {
  if (worldRank() != 0) return;
  std::printf("\n# energy: 10^6 steps, N = 50, 0.1 %% bump, 0.5 CFL: max |E - E0|/(E0 - E_rest) per 10^5 steps\n");
  for (Quadrature q : {Quadrature::Trapezoid, Quadrature::Simpson}) {
    const Drift d = energyRun(st::baseConfig(50, 1e-3, q), 0.5, 1000000, 10, 10);
    std::printf("%-9s", quadratureName(q).c_str());
    for (double w : d.windowMax) std::printf(" %.3e", w);
    std::printf("\n");
  }
  std::printf("\n# energy vs dt (same T = 10^4 steps at 0.4 CFL, N = 50, 0.1 %% bump)\n#  dt/CFL   max rel. error   ratio\n");
  double prev = 0.0;
  for (double f : {0.4, 0.2, 0.1, 0.05}) {
    const long steps = std::lround(10000 * 0.4 / f);
    const Drift d = energyRun(st::baseConfig(50, 1e-3), f, steps, 1, 1);
    std::printf("%8.3f   %.4e   %s\n", f, d.maxRel, prev > 0 ? std::to_string(prev / d.maxRel).c_str() : "-");
    prev = d.maxRel;
  }
  std::printf("\n# large amplitude (20 %% mode 1, q0 = 5 mm, N = 200) to t = 1 s, before the bore\n#  dt/CFL   max rel. error\n");
  for (double f : {0.5, 0.25, 0.125}) {
    Config cfg = st::baseConfig(200, 0.0);
    cfg.depth.add(ProfileTerm::cosine(0.02, 1));
    cfg.init.q0 = 0.005;
    const long steps = std::lround(1.0 / st::cflStep(cfg, f));
    std::printf("%8.3f   %.4e\n", f, energyRun(cfg, f, steps, 1, 1).maxRel);
  }
}

void frequencies() {
  if (worldRank() != 0) return;
  std::printf("\n# frequencies: FFT of q(t), T = 400 s, 0.5 CFL, 0.1 %% bump; bin = 2 pi / T\n"
              "#   N  root      FFT bin   refined   |refined-root|/bin  discrete-mode rel. error\n");
  for (int N : {25, 50, 100, 200}) {
    Config cfg = st::baseConfig(N, 1e-3);
    const double dt = st::cflStep(cfg, 0.5);
    Discretization d(cfg.par, cfg.depth, dt);
    const SlabCoefficients c = d.slab(1, static_cast<std::size_t>(N));
    SerialState<double> s = serialInitialState<double>(d, cfg.init);
    std::vector<double> xg, q;
    const long steps = std::lround(400.0 / dt);
    for (long n = 1; n <= steps; ++n) {
      stormerVerletStep(s, d, c, xg);
      if (n % 4 == 0) q.push_back(s.q);
    }
    const double ts = 4 * dt, bin = spectrum::resolution(q, ts);
    const auto roots = coupledFrequencies(LinearProblem::of(d), 3);
    std::vector<double> modes;
    for (const auto& m : discreteLinearModes(d))
      if (m.vehicleAmplitude > 1e-3) modes.push_back(m.omega);
    for (int n = 0; n < 3; ++n) {
      const double r = roots[static_cast<std::size_t>(n)];
      const double peak = spectrum::refinedPeak(q, ts, r);
      std::printf("%5d  %.6f  %.6f  %.6f  %8.3f  %.3e\n", N, r, spectrum::binPeak(q, ts, r), peak,
                  std::abs(peak - r) / bin, std::abs(modes[static_cast<std::size_t>(n)] - r) / r);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  PetscCall(PetscInitialize(&argc, &argv, nullptr, nullptr));
  bool all = true, doT = false, doE = false, doF = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--throughput")) doT = true, all = false;
    if (!std::strcmp(argv[i], "--energy")) doE = true, all = false;
    if (!std::strcmp(argv[i], "--frequencies")) doF = true, all = false;
  }
  try {
    if (all || doT) throughput();
    if (all || doE) energy();
    if (all || doF) frequencies();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_slosh: %s\n", e.what());
    PetscFinalize();
    return 1;
  }
  PetscCall(PetscFinalize());
  return 0;
}
