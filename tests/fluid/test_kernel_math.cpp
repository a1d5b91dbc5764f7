// Accuracy of the SIMD log and atan2 of the panel-influence loops (src/fluid/discretization/KernelMath.hpp)
// against std::log and std::atan2: the ulp bounds stated in the header, and atan2's sign conventions.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "fluid/discretization/KernelMath.hpp"

namespace k = kirchhoff::fluid::kernel;

namespace {

/// Distance from a to the reference b in units in the last place of b.
double ulps(double a, double b) {
  if (a == b) return 0.0;
  const double ulp = std::nextafter(std::abs(b), INFINITY) - std::abs(b);
  return std::abs(a - b) / ulp;
}

}  // namespace

TEST(KernelMath, LogWithinOneUlpOverTheRange) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> exponent(-300.0, 300.0), mantissa(1.0, 10.0);
  double worst = 0.0;
  for (int i = 0; i < 400000; ++i) {
    const double x = mantissa(rng) * std::pow(10.0, exponent(rng));
    worst = std::max(worst, ulps(k::log(x), std::log(x)));
  }
  // Near 1 (the cancellation-prone part: log(1 + f) with small f).
  std::uniform_real_distribution<double> nearOne(-1e-3, 1e-3);
  for (int i = 0; i < 100000; ++i) {
    const double x = 1.0 + nearOne(rng);
    worst = std::max(worst, ulps(k::log(x), std::log(x)));
  }
  EXPECT_LE(worst, 1.0);
  EXPECT_EQ(k::log(1.0), 0.0);
}

TEST(KernelMath, PackedLogMatchesScalarLaneByLane) {
  double in[k::kWidth], out[k::kWidth];
  for (int i = 0; i < k::kWidth; ++i) in[i] = 0.37 * (i + 1) * (i + 1);
  k::store(out, k::log(k::load(in)));
  for (int i = 0; i < k::kWidth; ++i) EXPECT_EQ(out[i], k::log(in[i])) << "lane " << i;
}

TEST(KernelMath, Atan2WithinTwoUlpInEveryQuadrant) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> exponent(-8.0, 8.0), unit(-1.0, 1.0);
  double worst = 0.0;
  for (int i = 0; i < 400000; ++i) {
    const double y = unit(rng) * std::pow(10.0, exponent(rng));
    const double x = unit(rng) * std::pow(10.0, exponent(rng));
    worst = std::max(worst, ulps(k::atan2(y, x), std::atan2(y, x)));
  }
  EXPECT_LE(worst, 2.0);
}

TEST(KernelMath, Atan2SignedZeroConventions) {
  EXPECT_EQ(k::atan2(0.0, 1.0), 0.0);
  EXPECT_FALSE(std::signbit(k::atan2(0.0, 1.0)));
  EXPECT_TRUE(std::signbit(k::atan2(-0.0, 1.0)));
  EXPECT_DOUBLE_EQ(k::atan2(0.0, -1.0), M_PI);
  EXPECT_DOUBLE_EQ(k::atan2(-0.0, -1.0), -M_PI);
  EXPECT_DOUBLE_EQ(k::atan2(1.0, 0.0), M_PI / 2);
  EXPECT_DOUBLE_EQ(k::atan2(-1.0, 0.0), -M_PI / 2);
  EXPECT_EQ(k::atan2(0.0, 0.0), std::atan2(0.0, 0.0));
  // The branch cut of the panel kernel: just above and below the negative real axis.
  EXPECT_NEAR(k::atan2(1e-300, -1.0), M_PI, 1e-15);
  EXPECT_NEAR(k::atan2(-1e-300, -1.0), -M_PI, 1e-15);
}
