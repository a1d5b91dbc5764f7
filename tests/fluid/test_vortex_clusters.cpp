// The vortex groups of the cluster tree (docs/fluidbody.md (FB-61)): the grouping, the point multipole against the
// direct field outside the group, the local expansion at the points, and the source-point derivative against
// central differences.
#include <gtest/gtest.h>

#include <random>

#include "core/Error.hpp"
#include "fluid/fast/VortexClusters.hpp"

namespace kirchhoff::fluid {
namespace {

using C = std::complex<double>;

std::vector<C> randomPoints(int m, unsigned seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<C> z;
  for (int i = 0; i < m; ++i) z.emplace_back(4.0 * u(g), 2.0 * u(g));
  z.push_back(z[3]);  // two vortices at the same point
  return z;
}

TEST(VortexClusters, GroupsHoldTheirPoints) {
  const std::vector<C> z = randomPoints(300, 1);
  const VortexClusters v(z, 16);
  EXPECT_GE(v.size(), 300 / 16);
  std::vector<int> seen(z.size(), 0);
  for (int g = 0; g < v.size(); ++g) {
    EXPECT_LE(static_cast<int>(v.members(g).size()), 16);
    EXPECT_GT(v.cluster(g).radius, 0.0);
    for (int i : v.members(g)) {
      ++seen[static_cast<std::size_t>(i)];
      EXPECT_EQ(v.group(i), g);
      EXPECT_LE(std::abs(z[static_cast<std::size_t>(i)] - v.cluster(g).centre), v.cluster(g).radius);
    }
  }
  for (int s : seen) EXPECT_EQ(s, 1);
  EXPECT_THROW(VortexClusters(z, 0), ConfigurationError);
}

TEST(VortexClusters, MultipoleLocalAndSourceDerivative) {
  const std::vector<C> z = randomPoints(40, 2);
  const VortexClusters v(z, 64);
  ASSERT_EQ(v.size(), 1);
  const Cluster& c = v.cluster(0);
  std::vector<C> q;
  for (std::size_t i = 0; i < z.size(); ++i) q.emplace_back(std::sin(1.0 + i), 0.3 * std::cos(2.0 * i));
  const int p = 60;
  // (FB-51): the multipole at a far point against the direct complex-log sum (derivative: no branch).
  const Eigen::VectorXcd a = v.multipole(0, q, p);
  const C far = c.centre + 3.0 * c.radius * std::polar(1.0, 0.7);
  C ref(0.0, 0.0), val = a[0] / (far - c.centre);
  for (std::size_t i = 0; i < z.size(); ++i) ref += q[i] / (far - z[i]);
  for (int k = 1; k <= p; ++k) val -= static_cast<double>(k) * a[k] * std::pow(c.radius / (far - c.centre), k) / (far - c.centre);
  EXPECT_LT(std::abs(val - ref), 1e-13 * std::abs(ref));
  // L2P: a polynomial local expansion and its derivative at every point.
  Eigen::VectorXcd L(6);
  L << C(1, 2), C(-0.5, 0.1), C(0.3, 0.0), C(0.0, -0.2), C(0.1, 0.1), C(-0.05, 0.02);
  std::vector<C> value(z.size()), deriv(z.size());
  v.evaluate(0, L, &value, &deriv);
  for (std::size_t i = 0; i < z.size(); ++i) {
    const C s = (z[i] - c.centre) / c.radius;
    C f(0.0, 0.0), df(0.0, 0.0);
    for (int l = 0; l < 6; ++l) f += L[l] * std::pow(s, l), df += static_cast<double>(l) * L[l] * std::pow(s, l - 1) / c.radius;
    EXPECT_LT(std::abs(value[i] - f), 1e-14 * std::abs(f));
    EXPECT_LT(std::abs(deriv[i] - df), 1e-13 * std::abs(df));
  }
  // (FB-61): d/dz_i Re(e . a) against central differences of (FB-51) about the group's fixed centre and radius.
  const Eigen::VectorXcd e = Eigen::VectorXcd::Random(p + 1);
  std::vector<C> D(z.size(), C(0.0, 0.0));
  v.addSourceDerivative(0, e, q, D);
  auto form = [&](const std::vector<C>& pts) {
    C F(0.0, 0.0);
    for (std::size_t j = 0; j < pts.size(); ++j) {
      const C s = (pts[j] - c.centre) / c.radius;
      C sk(1.0, 0.0);
      F += e[0] * q[j];
      for (int k = 1; k <= p; ++k) F -= e[k] * q[j] * (sk *= s) / static_cast<double>(k);
    }
    return F.real();
  };
  EXPECT_NEAR(form(z), (e.transpose() * a)(0).real(), 1e-13 * std::abs(form(z)));
  const double h = 1e-6;
  for (std::size_t i = 0; i < z.size(); i += 7)
    for (const C step : {C(h, 0.0), C(0.0, h)}) {
      std::vector<C> plus = z, minus = z;
      plus[i] += step;
      minus[i] -= step;
      const double fd = (form(plus) - form(minus)) / (2.0 * h);
      const double an = step.real() != 0.0 ? D[i].real() : -D[i].imag();
      EXPECT_NEAR(an, fd, 1e-8 * std::max(1.0, std::abs(fd))) << i;
    }
}

}  // namespace
}  // namespace kirchhoff::fluid
