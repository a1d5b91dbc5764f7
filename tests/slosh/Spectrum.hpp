// Hann-windowed Fourier amplitude of a sampled signal at any frequency, its values on the FFT bins
// omega_k = 2 pi k / T, and peak location (bin and refined) near a predicted frequency (docs/slosh.md).
#pragma once

#include <cmath>
#include <complex>
#include <vector>

namespace kirchhoff::slosh::spectrum {

/// |sum_n hann_n (y_n - mean) e^{-i omega n dt}| (the DFT amplitude when omega is a bin frequency).
inline double amplitude(const std::vector<double>& y, double dt, double omega) {
  const std::size_t M = y.size();
  double mean = 0.0;
  for (double v : y) mean += v / static_cast<double>(M);
  const std::complex<double> step = std::polar(1.0, -omega * dt);
  std::complex<double> phase = 1.0, sum = 0.0;
  for (std::size_t n = 0; n < M; ++n) {
    const double hann = 0.5 - 0.5 * std::cos(2.0 * M_PI * static_cast<double>(n) / static_cast<double>(M - 1));
    sum += hann * (y[n] - mean) * phase;
    phase *= step;
    if (n % 1024 == 1023) phase /= std::abs(phase);  // keep |phase| = 1
  }
  return std::abs(sum);
}

/// Bin spacing 2 pi / T of a record of y.size() samples dt apart.
inline double resolution(const std::vector<double>& y, double dt) {
  return 2.0 * M_PI / (static_cast<double>(y.size()) * dt);
}

/// The FFT bin with the largest amplitude within +-halfWidth bins of `guess`.
inline double binPeak(const std::vector<double>& y, double dt, double guess, int halfWidth = 5) {
  const double d = resolution(y, dt);
  const long k0 = std::lround(guess / d);
  double best = -1.0, where = guess;
  for (long k = k0 - halfWidth; k <= k0 + halfWidth; ++k) {
    const double a = amplitude(y, dt, static_cast<double>(k) * d);
    if (a > best) {
      best = a;
      where = static_cast<double>(k) * d;
    }
  }
  return where;
}

/// The local maximum of the amplitude next to the bin peak (golden section on +-1 bin).
inline double refinedPeak(const std::vector<double>& y, double dt, double guess) {
  const double d = resolution(y, dt);
  double a = binPeak(y, dt, guess) - d, b = a + 2.0 * d;
  const double g = 0.5 * (std::sqrt(5.0) - 1.0);
  double c = b - g * (b - a), e = a + g * (b - a);
  double fc = amplitude(y, dt, c), fe = amplitude(y, dt, e);
  while (b - a > 1e-7 * d) {
    if (fc > fe) {
      b = e;
      e = c;
      fe = fc;
      c = b - g * (b - a);
      fc = amplitude(y, dt, c);
    } else {
      a = c;
      c = e;
      fc = fe;
      e = a + g * (b - a);
      fe = amplitude(y, dt, e);
    }
  }
  return 0.5 * (a + b);
}

}  // namespace kirchhoff::slosh::spectrum
