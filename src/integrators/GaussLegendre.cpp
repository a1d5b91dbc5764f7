// Gauss–Legendre tableaux (GaussLegendre.hpp; docs/heavytop.md (HT-16)): Legendre roots by Newton
// in long double, A and b from the collocation conditions sum_j a_ij c_j^(k-1) = c_i^k / k; and the
// double-precision quadrature rule of the Gauss panels (docs/fluidbody.md (FB-40)).
#include "integrators/GaussLegendre.hpp"

#include <array>
#include <memory>
#include <mutex>
#include <string>

#include "core/Constants.hpp"
#include "core/Error.hpp"

namespace kirchhoff::integrators {

namespace {

using LD = long double;
using MatL = Eigen::Matrix<LD, Eigen::Dynamic, Eigen::Dynamic>;
using VecL = Eigen::Matrix<LD, Eigen::Dynamic, 1>;

GaussLegendreTableau build(int s) {
  const LD pi = 3.141592653589793238462643383279502884L;
  VecL c(s);
  for (int i = 0; i < s; ++i) {
    LD x = -std::cos(pi * (i + 0.75L) / (s + 0.5L));  // ascending initial guesses
    for (int it = 0; it < 100; ++it) {
      const auto [p, dp] = legendre(s, x);
      const LD dx = p / dp;
      x -= dx;
      if (std::abs(dx) < 1e-30L) break;
    }
    c[i] = 0.5L * (1.0L + x);
  }
  MatL V(s, s);  // V(k, j) = c_j^k
  for (int k = 0; k < s; ++k)
    for (int j = 0; j < s; ++j) V(k, j) = std::pow(c[j], k);
  const Eigen::FullPivLU<MatL> lu(V);
  VecL rhs(s);
  for (int k = 0; k < s; ++k) rhs[k] = 1.0L / (k + 1);
  const VecL b = lu.solve(rhs);
  MatL A(s, s);
  for (int i = 0; i < s; ++i) {
    for (int k = 0; k < s; ++k) rhs[k] = std::pow(c[i], k + 1) / (k + 1);
    A.row(i) = lu.solve(rhs).transpose();
  }
  GaussLegendreTableau t;
  t.stages = s;
  t.A = A.cast<double>();
  t.b = b.cast<double>();
  t.c = c.cast<double>();
  return t;
}

}  // namespace

void gaussLegendreRule(int n, std::vector<double>& x, std::vector<double>& w) {
  x.resize(n), w.resize(n);
  for (int i = 0; i < n; ++i) {
    double z = std::cos(kPi * (i + 0.75) / (n + 0.5)), dp = 1.0;
    for (int it = 0; it < 100; ++it) {
      const auto [p, d] = legendre(n, z);
      dp = d;
      const double dz = p / dp;
      z -= dz;
      if (std::abs(dz) < 1e-16) break;
    }
    x[n - 1 - i] = z;
    w[n - 1 - i] = 2.0 / ((1.0 - z * z) * dp * dp);
  }
}

const GaussLegendreTableau& gaussLegendreTableau(int stages) {
  constexpr int kMax = 8;
  if (stages < 1 || stages > kMax)
    throw ConfigurationError("Gauss–Legendre: stages must be 1 .. 8 (got " +
                             std::to_string(stages) + ")");
  static std::array<std::unique_ptr<GaussLegendreTableau>, kMax + 1> cache;
  static std::mutex m;
  const std::lock_guard<std::mutex> lock(m);
  auto& t = cache[static_cast<std::size_t>(stages)];
  if (!t) t = std::make_unique<GaussLegendreTableau>(build(stages));
  return *t;
}

}  // namespace kirchhoff::integrators
