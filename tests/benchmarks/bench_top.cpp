// Benchmark of the heavy-top schemes (docs/heavytop.md "Integrators", "Composition methods";
// Ohsawa 2019, Sec. 5): steps per second of the four schemes, and error-vs-time curves
// (Kovalevskaya top, T = 10) of the four schemes, of their compositions of orders 4, 6, 8
// (docs/composition.md), of Gauss–Legendre s = 2, 3, 4 and of the C++ DOP853 for comparison with
// scipy's solve_ivp DOP853 (postprocess/top_bench_scipy.py runs scipy and this binary with --csv
// and prints the speed-ups). A long run (T = 1000) compares the invariants' errors of the best
// high-order method with DOP853 at about the same cost.
// Usage: bench_top [--csv] [--quick]. Times: best of 3 repetitions of process CPU time (single
// thread; robust to other jobs on a shared machine), this machine.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <ctime>
#include <string>
#include <vector>

#include "models/top/Reference.hpp"
#include "models/top/TopSchemes.hpp"
#include "top/KovalevskayaFixture.hpp"

using namespace kirchhoff::top;
using namespace kirchhoff::top::fixture;

namespace {

Eigen::VectorXd start(TopScheme s) {  // z(0) by the collective lift, or (Pi, Gamma)(0)
  if (!isCollective(s)) return kovalevskayaY0();
  return kovalevskayaZ0();
}

// Process CPU time in seconds.
double cpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// Best of 3 CPU times of fn, each repeated until it has run for at least minSeconds.
double bestSeconds(const std::function<void()>& fn, double minSeconds) {
  double best = 1e300;
  for (int rep = 0; rep < 3; ++rep) {
    int n = 0;
    const double t0 = cpuSeconds();
    double el = 0.0;
    do {
      fn();
      ++n;
      el = cpuSeconds() - t0;
    } while (el < minSeconds);
    best = std::min(best, el / n);
  }
  return best;
}

// Integrates scheme s over n steps of dt; returns the final (Pi, Gamma).
Vec6 run(const TopStepper& st, long n) {
  Eigen::VectorXd x = start(st.scheme());
  for (long k = 0; k < n; ++k)
    if (!st.step(x).converged) {
      std::fprintf(stderr, "%s: Newton failed at step %ld\n", st.name().c_str(), k + 1);
      std::exit(1);
    }
  return st.heavyTopState(x);
}

void stepsPerSecond(double minSeconds) {
  const HeavyTopParameters par = kovalevskayaTop();
  const long n = 5000;  // T = 100 at dt = 1/50, the paper's run
  std::printf("\n## Steps per second, Kovalevskaya top, dt = 1/50, %ld steps (T = 100)\n\n", n);
  std::printf("| scheme | ns/step | steps/s | Newton its/step |\n|---|---|---|---|\n");
  for (int si = 0; si < 4; ++si) {
    const TopStepper st(static_cast<TopScheme>(si), par, 0.02, NewtonOptions{});
    long its = 0;
    {
      Eigen::VectorXd x = start(st.scheme());
      for (long k = 0; k < n; ++k) its += st.step(x).iterations;
    }
    const double t = bestSeconds([&] { run(st, n); }, minSeconds);
    std::printf("| %s | %.0f | %.3g | %.2f |\n", st.name().c_str(), 1e9 * t / n, n / t,
                static_cast<double>(its) / n);
  }
}

// Error at T = 10 vs wall time: the schemes at dt = 0.04 / 2^k, DOP853 at tol = 10^-k.
void errorVsTime(bool csv, double minSeconds, bool quick) {
  const HeavyTopParameters par = kovalevskayaTop();
  const double T = 10.0;
  const Vec6 ref = kovalevskayaReference(T, 1e-14);
  if (csv) {
    std::printf("reference");
    for (int i = 0; i < 6; ++i) std::printf(",%.17g", ref[i]);
    std::printf("\nmethod,parameter,steps,error,seconds\n");
  } else {
    std::printf("\n## Error |(Pi, Gamma)(T) - ref| at T = %.0f vs wall time\n\n", T);
    std::printf("| method | dt or tol | steps | error | seconds |\n|---|---|---|---|---|\n");
  }
  const int kmax = quick ? 4 : 8;
  for (int si = 0; si < 4; ++si)
    for (int k = 0; k <= kmax; ++k) {
      const double dt = 0.04 / std::pow(2.0, k);
      const long n = std::lround(T / dt);
      const TopStepper st(static_cast<TopScheme>(si), par, dt, NewtonOptions{});
      const double err = (run(st, n) - ref).norm();
      const double t = bestSeconds([&] { run(st, n); }, minSeconds);
      std::printf(csv ? "%s,%.6g,%ld,%.6e,%.6e\n" : "| %s | %.6g | %ld | %.3e | %.3e |\n",
                  st.name().c_str(), dt, n, err, t);
    }
  // The high-order methods: n = n0 2^k steps until the error reaches the round-off floor.
  using kirchhoff::integrators::Composition;
  struct HighOrder {
    TopMethod m;
    long n0;
  };
  const TopScheme cim = TopScheme::CollectiveImplicitMidpoint, dim = TopScheme::DirectImplicitMidpoint,
                  gl = TopScheme::CollectiveGaussLegendre;
  const std::vector<HighOrder> high = {
      {{cim, 2, Composition::TripleJump}, 200}, {{cim, 2, Composition::Suzuki5}, 100},
      {{cim, 2, Composition::KahanLi6}, 50},    {{cim, 2, Composition::KahanLi8}, 25},
      {{dim, 2, Composition::TripleJump}, 200}, {{dim, 2, Composition::Suzuki5}, 100},
      {{dim, 2, Composition::KahanLi6}, 50},    {{dim, 2, Composition::KahanLi8}, 25},
      {{gl, 2, Composition::None}, 200},        {{gl, 3, Composition::None}, 50},
      {{gl, 4, Composition::None}, 25}};
  for (const HighOrder& h : high)
    for (int k = 0; k <= (quick ? 3 : 7); ++k) {
      const long n = h.n0 << k;
      const TopStepper st(h.m, par, T / static_cast<double>(n), NewtonOptions{});
      const double err = (run(st, n) - ref).norm();
      const double t = bestSeconds([&] { run(st, n); }, minSeconds);
      std::printf(csv ? "%s,%.6g,%ld,%.6e,%.6e\n" : "| %s | %.6g | %ld | %.3e | %.3e |\n",
                  st.name().c_str(), st.timeStep(), n, err, t);
      if (err < 1e-13) break;  // round-off floor of the reference comparison
    }
  for (int k = 3; k <= 13; ++k) {
    kirchhoff::integrators::Dop853Options o;
    o.rtol = o.atol = std::pow(10.0, -k);
    kirchhoff::integrators::Dop853Stats stats;
    const double err =
        (heavyTopReference(par, kovalevskayaY0(), 0.0, {T}, o, &stats)[0] - ref).norm();
    const double t =
        bestSeconds([&] { heavyTopReference(par, kovalevskayaY0(), 0.0, {T}, o); }, minSeconds);
    std::printf(csv ? "%s,%.6g,%ld,%.6e,%.6e\n" : "| %s | %.6g | %ld | %.3e | %.3e |\n",
                "dop853_cpp", o.rtol, stats.steps, err, t);
  }
}

// Relative deviations of h, K, f1, f2 from their initial values along sampled (Pi, Gamma).
struct Drift {
  double early[4] = {0, 0, 0, 0}, late[4] = {0, 0, 0, 0};
};

Drift drift(const HeavyTopParameters& par, const std::vector<Vec6>& ys) {
  const Vec6 a = kovalevskayaY0();
  const double q0[4] = {hamiltonian(par, a), kovalevskaya(par, a), casimirF1(a), casimirF2(a)};
  Drift d;
  const std::size_t n = ys.size();
  for (std::size_t i = 0; i < n; ++i) {
    const Vec6& y = ys[i];
    const double q[4] = {hamiltonian(par, y), kovalevskaya(par, y), casimirF1(y), casimirF2(y)};
    for (int j = 0; j < 4; ++j) {
      const double r = std::abs(q[j] - q0[j]) / std::abs(q0[j]);
      if (i < n / 10) d.early[j] = std::max(d.early[j], r);
      if (i >= n - n / 10) d.late[j] = std::max(d.late[j], r);
    }
  }
  return d;
}

// T = 1000: the order-8 composition of the collective midpoint at dt = 0.1 against DOP853 at
// the tolerance whose cost is closest (tol = 10^-k scanned), invariants sampled at t = 1, 2, ...
void longRun(double minSeconds) {
  const HeavyTopParameters par = kovalevskayaTop();
  const double T = 1000.0, dt = 0.1;
  const long n = std::lround(T / dt), per = std::lround(1.0 / dt);
  using kirchhoff::integrators::Composition;
  const TopStepper st({TopScheme::CollectiveImplicitMidpoint, 2, Composition::KahanLi8}, par, dt,
                      NewtonOptions{});
  std::vector<Vec6> ys;
  auto sampled = [&] {
    ys.clear();
    Eigen::VectorXd x = start(st.scheme());
    for (long k = 1; k <= n; ++k) {
      if (!st.step(x).converged) std::exit(1);
      if (k % per == 0) ys.push_back(st.heavyTopState(x));
    }
  };
  const double tc = bestSeconds(sampled, minSeconds);
  const Drift dc = drift(par, ys);
  std::vector<double> times;
  for (long k = 1; k <= std::lround(T); ++k) times.push_back(static_cast<double>(k));
  double bestGap = 1e300, td = 0.0, tol = 0.0;
  std::vector<Vec6> yd;
  for (int k = 6; k <= 13; ++k) {
    kirchhoff::integrators::Dop853Options o;
    o.rtol = o.atol = std::pow(10.0, -k);
    const double t =
        bestSeconds([&] { heavyTopReference(par, kovalevskayaY0(), 0.0, times, o); }, minSeconds);
    if (std::abs(std::log(t / tc)) < bestGap) {
      bestGap = std::abs(std::log(t / tc));
      td = t;
      tol = o.rtol;
      yd = heavyTopReference(par, kovalevskayaY0(), 0.0, times, o);
    }
  }
  const Drift dd = drift(par, yd);
  std::printf("\n## Long run, T = %.0f: max relative invariant errors over t in [0, 100] -> [900, 1000]\n\n", T);
  std::printf("| method | seconds | h | K | f1 | f2 |\n|---|---|---|---|---|---|\n");
  auto row = [](const char* name, double t, const Drift& d) {
    std::printf("| %s | %.3e |", name, t);
    for (int j = 0; j < 4; ++j) std::printf(" %.1e -> %.1e |", d.early[j], d.late[j]);
    std::printf("\n");
  };
  row((st.name() + " dt=0.1").c_str(), tc, dc);
  char name[64];
  std::snprintf(name, sizeof name, "dop853_cpp tol=%.0e", tol);
  row(name, td, dd);
}

}  // namespace

int main(int argc, char** argv) {
  bool csv = false, quick = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--csv")) csv = true;
    else if (!std::strcmp(argv[i], "--quick")) quick = true;
    else {
      std::fprintf(stderr, "usage: bench_top [--csv] [--quick]\n");
      return 64;
    }
  }
  const double minSeconds = quick ? 0.01 : 0.1;
  if (!csv) stepsPerSecond(minSeconds);
  errorVsTime(csv, minSeconds, quick);
  if (!csv) longRun(minSeconds);
  return 0;
}
