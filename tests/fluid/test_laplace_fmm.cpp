// The 2D Laplace FMM (docs/fluidbody.md (FB-50)-(FB-54)) against direct summation: the log potential
// and the complex derivative at the sources themselves (self excluded) and at separate targets.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "core/Error.hpp"
#include "fluid/fast/LaplaceFmm.hpp"

using namespace kirchhoff::fluid;
using C = std::complex<double>;

namespace {

struct Points {
  std::vector<C> z;
  std::vector<C> q;
};

/// M sources: uniform in [0, 2] x [0, 1] (clustered: half of them in a disk of radius 0.02), strengths
/// of both signs.
Points points(int M, bool clustered, unsigned seed, bool complexStrengths = false) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Points p;
  for (int j = 0; j < M; ++j) {
    C w(2.0 * u(gen), u(gen));
    if (clustered && j % 2) w = C(0.3, 0.7) + 0.02 * std::sqrt(u(gen)) * std::polar(1.0, 6.283 * u(gen));
    p.z.push_back(w);
    const double re = u(gen) - 0.5;
    p.q.emplace_back(re, complexStrengths ? u(gen) - 0.5 : 0.0);
  }
  return p;
}

struct Errors {
  double phi = 0.0, d1 = 0.0, d2 = 0.0;  ///< largest error relative to the largest direct value
};

double relative(const std::vector<C>& a, const std::vector<C>& b) {
  double e = 0, m = 0;
  for (std::size_t k = 0; k < a.size(); ++k) e = std::max(e, std::abs(a[k] - b[k])), m = std::max(m, std::abs(b[k]));
  return e / m;
}

/// The FMM against direct summation (phi only for real strengths).
Errors errors(const Points& s, const std::vector<C>& t, int self, int order) {
  const std::size_t T = t.size();
  const bool real = std::all_of(s.q.begin(), s.q.end(), [](const C& w) { return w.imag() == 0.0; });
  std::vector<double> phi(T), phiRef(T);
  std::vector<C> d(T), dRef(T), dd(T), ddRef(T);
  FmmOptions o;
  o.order = order;
  laplaceFmm(s.z, s.q, t, self, {real ? phi.data() : nullptr, d.data(), dd.data()}, o);
  laplaceDirect(s.z, s.q, t, self, {real ? phiRef.data() : nullptr, dRef.data(), ddRef.data()});
  Errors e;
  e.phi = relative(std::vector<C>(phi.begin(), phi.end()), std::vector<C>(phiRef.begin(), phiRef.end()));
  e.d1 = relative(d, dRef);
  e.d2 = relative(dd, ddRef);
  return e;
}

}  // namespace

TEST(LaplaceFmm, SelfSumsAgreeWithDirectSummation) {
  // 4000 sources: depth 3 (leaves of <= 40 on average), so every M2M / M2L / L2L path is used.
  const Points s = points(4000, false, 7);
  const Errors e = errors(s, s.z, 0, 45);
  EXPECT_LT(e.phi, 1e-12);
  EXPECT_LT(e.d1, 1e-12);
  EXPECT_LT(e.d2, 1e-12);
}

TEST(LaplaceFmm, ClusteredSourcesAndSeparateTargets) {
  const Points s = points(3000, true, 11);
  const Points t = points(1500, false, 13);
  const Errors e = errors(s, t.z, -1, 45);
  EXPECT_LT(e.phi, 1e-12);
  EXPECT_LT(e.d1, 1e-12);
  EXPECT_LT(e.d2, 1e-12);
}

TEST(LaplaceFmm, ComplexStrengthsForTheDerivatives) {
  // Complex strengths (the dipole-like sums of the adjoint gradient): Phi' and Phi'' only.
  const Points s = points(3000, false, 17, true);
  const Points t = points(800, true, 19);
  const Errors e = errors(s, t.z, -1, 45);
  EXPECT_LT(e.d1, 1e-12);
  EXPECT_LT(e.d2, 1e-12);
  std::vector<double> phi(t.z.size());
  EXPECT_THROW(laplaceFmm(s.z, s.q, t.z, -1, {phi.data(), nullptr, nullptr}), kirchhoff::NumericalError);
}

TEST(LaplaceFmm, ErrorDecaysGeometricallyWithTheOrder) {
  // (FB-53): the truncation error of the well-separated interactions falls like ~0.55^p.
  const Points s = points(3000, false, 3);
  const double e10 = errors(s, s.z, 0, 10).d1, e20 = errors(s, s.z, 0, 20).d1;
  const double e30 = errors(s, s.z, 0, 30).d1;
  EXPECT_LT(e10, 1e-2);
  EXPECT_LT(e20, 1e-2 * e10);
  EXPECT_LT(e30, 1e-2 * e20);
}

TEST(LaplaceFmm, FewSourcesFallBackToDirectSums) {
  const Points s = points(50, false, 5);
  const Errors e = errors(s, s.z, 0, 45);
  EXPECT_EQ(e.phi, 0.0);  // the same direct sums, bitwise
  EXPECT_EQ(e.d1, 0.0);
}

TEST(LaplaceFmm, ARangeOfTheSourcesAsTargets) {
  // selfOffset: the targets are sources 1000 .. 1999 (one rank's share), their own terms left out.
  const Points s = points(3000, false, 23);
  const std::vector<C> t(s.z.begin() + 1000, s.z.begin() + 2000);
  const Errors e = errors(s, t, 1000, 45);
  EXPECT_LT(e.phi, 1e-12);
  EXPECT_LT(e.d1, 1e-12);
}
