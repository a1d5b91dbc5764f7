// The progress line printed on rank 0: step, time, the running maximum of the relative change of
// the monitored invariant (docs/running.md, "Running a driver"), nonlinear iterations, steps per
// second (since the start or restart) and the estimated time to the final step.
#pragma once

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

namespace kirchhoff::run {

class Progress {
 public:
  /// `monitored`: name of the invariant shown as a relative change ("energy" -> |dE/E0|).
  void start(std::int64_t step, std::int64_t finalStep, const std::string& monitored = "energy") {
    label_ = monitored == "energy" ? "E/E0" : monitored;
    first_ = step;
    final_ = finalStep;
    t0_ = std::chrono::steady_clock::now();
  }

  /// `maxRelChange`: max over the logged rows so far of |E - E0| / |E0| (a sample would rise and
  /// fall with the oscillation of E and look like drift).
  std::string line(std::int64_t step, double time, double maxRelChange, int iterations) const {
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
    const double rate = secs > 0 ? static_cast<double>(step - first_) / secs : 0.0;
    const double eta = rate > 0 ? static_cast<double>(final_ - step) / rate : 0.0;
    char b[256];
    std::snprintf(b, sizeof b, "step %lld/%lld  t %.6g  max|d%s| %s  its %d  %.4g steps/s  ETA %s",
                  static_cast<long long>(step), static_cast<long long>(final_), time, label_.c_str(),
                  std::isfinite(maxRelChange) ? fmt(maxRelChange).c_str() : "-", iterations,
                  rate, clock(eta).c_str());
    return b;
  }

 private:
  static std::string fmt(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.3e", v);
    return b;
  }
  static std::string clock(double s) {
    const long t = static_cast<long>(s + 0.5);
    char b[32];
    if (t >= 3600) std::snprintf(b, sizeof b, "%ldh%02ldm", t / 3600, (t / 60) % 60);
    else std::snprintf(b, sizeof b, "%ldm%02lds", t / 60, t % 60);
    return b;
  }
  std::string label_ = "E/E0";
  std::int64_t first_ = 0, final_ = 0;
  std::chrono::steady_clock::time_point t0_;
};

}  // namespace kirchhoff::run
