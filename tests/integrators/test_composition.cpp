// Tests of the symmetric compositions (integrators/Composition.hpp; docs/composition.md (CM-1)-(CM-7)):
// coefficient sums and palindromes, the necessary conditions sum gamma^(2k+1) = 0, names, and the
// fitted order of Stormer-Verlet composed on the pendulum (order 2 -> 4, 4, 6, 8).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "core/Error.hpp"
#include "integrators/Composition.hpp"

namespace {

using namespace kirchhoff::integrators;

const std::vector<Composition> kAll = {Composition::None, Composition::TripleJump,
                                       Composition::Suzuki5, Composition::KahanLi6,
                                       Composition::KahanLi8};

// Sum gamma_i = 1 to round-off, gamma_i = gamma_{s+1-i} exactly (CM-2), stage counts 1, 3, 5, 9, 17,
// and sum gamma_i^(2k+1) = 0 for 2k + 1 < p (the conditions of the commuting case, HLW V.3.2).
TEST(Composition, CoefficientsSumToOneAndArePalindromes) {
  const int stages[] = {1, 3, 5, 9, 17};
  for (std::size_t c = 0; c < kAll.size(); ++c) {
    const auto& g = compositionCoefficients(kAll[c]);
    ASSERT_EQ(compositionStages(kAll[c]), stages[c]);
    double sum = 0.0;
    for (double x : g) sum += x;
    EXPECT_NEAR(sum, 1.0, 4e-16) << compositionName(kAll[c]);
    for (std::size_t i = 0; i < g.size(); ++i) EXPECT_EQ(g[i], g[g.size() - 1 - i]);
    for (int k = 3; k < compositionOrder(kAll[c]); k += 2) {
      double m = 0.0, scale = 0.0;
      for (double x : g) {
        m += std::pow(x, k);
        scale += std::abs(std::pow(x, k));
      }
      EXPECT_LT(std::abs(m), 2e-15 * scale) << compositionName(kAll[c]) << " power " << k;
    }
  }
  EXPECT_EQ(compositionOrder(Composition::KahanLi8), 8);
}

TEST(Composition, NamesRoundTripAndUnknownNameFails) {
  for (Composition c : kAll) EXPECT_EQ(compositions().from(compositionName(c)), c);
  try {
    compositions().from("yoshida");
    FAIL() << "no error for an unknown name";
  } catch (const kirchhoff::ConfigurationError& e) {
    EXPECT_NE(std::string(e.what()).find("kahan_li8"), std::string::npos) << e.what();
  }
}

// Stormer-Verlet (symmetric, order 2) for the pendulum q'' = -sin q.
void verlet(double& q, double& p, double h) {
  p -= 0.5 * h * std::sin(q);
  q += h * p;
  p -= 0.5 * h * std::sin(q);
}

double pendulumError(Composition c, int n, double T, double qRef, double pRef) {
  double q = 1.2, p = 0.0;
  const double h = T / n;
  for (int k = 0; k < n; ++k)
    compose(c, h, [&](double hi) {
      verlet(q, p, hi);
      return true;
    });
  return std::hypot(q - qRef, p - pRef);
}

// Fitted slope of log(error) over log(h) (pendulum, q0 = 1.2, T = 8) against a kahan_li8 run at
// 4096 steps (error < 1e-15): within 0.3 of 2, 4, 4, 6, 8.
TEST(Composition, FittedOrderOnStormerVerlet) {
  const double T = 8.0;
  double qr = 1.2, pr = 0.0;
  for (int k = 0; k < 4096; ++k)
    compose(Composition::KahanLi8, T / 4096, [&](double hi) {
      verlet(qr, pr, hi);
      return true;
    });
  const std::vector<std::vector<int>> steps = {
      {200, 400, 800}, {50, 100, 200}, {50, 100, 200}, {32, 64, 128}, {32, 48, 64}};
  for (std::size_t c = 0; c < kAll.size(); ++c) {
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    const double m = static_cast<double>(steps[c].size());
    for (int n : steps[c]) {
      const double e = pendulumError(kAll[c], n, T, qr, pr);
      const double x = std::log(T / n), y = std::log(e);
      std::printf("  %-12s n=%4d error %.3e\n", compositionName(kAll[c]).c_str(), n, e);
      sx += x; sy += y; sxx += x * x; sxy += x * y;
    }
    const double slope = (m * sxy - sx * sy) / (m * sxx - sx * sx);
    std::printf("  %-12s fitted order %.3f\n", compositionName(kAll[c]).c_str(), slope);
    EXPECT_NEAR(slope, compositionOrder(kAll[c]), 0.3) << compositionName(kAll[c]);
  }
}

// A failing sub-step stops the composition: later sub-steps are not taken.
TEST(Composition, StopsAtFailedSubStep) {
  int calls = 0;
  EXPECT_FALSE(compose(Composition::KahanLi6, 1.0, [&](double) { return ++calls < 4; }));
  EXPECT_EQ(calls, 4);
}

}  // namespace
