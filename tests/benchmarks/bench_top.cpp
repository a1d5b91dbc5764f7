// Benchmark of the heavy-top schemes (docs/heavytop.md "Integrators"; Ohsawa 2019, Sec. 5): steps
// per second of the four schemes, and error-vs-time curves (Kovalevskaya top, T = 10) of the four
// schemes and of the C++ DOP853 for comparison with scipy's solve_ivp DOP853
// (postprocess/top_bench_scipy.py runs scipy and this binary with --csv and prints the speed-ups).
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

using namespace kirchhoff::top;

namespace {

HeavyTopParameters kovalevskayaTop() {
  HeavyTopParameters p;
  p.inertia = Vec3(2.0, 2.0, 1.0);
  p.c = Vec3(1.0, 0.0, 0.0);
  p.mgl = 1.0;
  return p;
}

Vec6 y0() {
  Vec6 y;
  y << 2.0, 0.0, 4.0, 0.5, 0.0, std::sqrt(3.0) / 2.0;
  return y;
}

Eigen::VectorXd start(TopScheme s) {
  const Vec6 y = y0();
  if (!isCollective(s)) return y;
  const Vec3 Pi = y.head<3>(), Gamma = y.tail<3>();
  return Vec8(collectiveLift(Pi, Gamma, 0.0, collectiveShiftForQ1(Pi, Gamma, 0.0, 1.0)));
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
  kirchhoff::integrators::Dop853Options ro;
  ro.rtol = ro.atol = 1e-14;
  const Vec6 ref = heavyTopReference(par, y0(), 0.0, {T}, ro)[0];
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
  for (int k = 3; k <= 13; ++k) {
    kirchhoff::integrators::Dop853Options o;
    o.rtol = o.atol = std::pow(10.0, -k);
    kirchhoff::integrators::Dop853Stats stats;
    const double err = (heavyTopReference(par, y0(), 0.0, {T}, o, &stats)[0] - ref).norm();
    const double t = bestSeconds([&] { heavyTopReference(par, y0(), 0.0, {T}, o); }, minSeconds);
    std::printf(csv ? "%s,%.6g,%ld,%.6e,%.6e\n" : "| %s | %.6g | %ld | %.3e | %.3e |\n",
                "dop853_cpp", o.rtol, stats.steps, err, t);
  }
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
  return 0;
}
