// Tests of the collective Hamiltonian H = h o M (models/top/CollectiveHamiltonian.hpp; Ohsawa 2019,
// eqs. (4.2), (4.4b), Theorem 4.1 (ii)): exact gradient and Hessian, and collective dynamics.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <random>

#include "models/top/CollectiveHamiltonian.hpp"
#include "models/top/Reference.hpp"
#include "top/TopTestUtil.hpp"

namespace {

using namespace kirchhoff::top;
using C = std::complex<double>;

using test::genericTop;
using test::randomZ;

// H(z) = h(M(z)) (definition) and grad H, Hess H equal the complex-step derivatives of H and of
// grad H to 1e-13 relative (no subtraction error in complex step; entries are O(1..10)); the fused
// gradient/Hessian and field/Jacobian used by Newton equal the separate ones to round-off.
TEST(CollectiveHamiltonian, GradientAndHessianMatchComplexStep) {
  const HeavyTopParameters par = genericTop();
  std::mt19937 g(17);
  for (int t = 0; t < 5; ++t) {
    const Vec8 z = randomZ(g);
    EXPECT_NEAR(collectiveHamiltonian<double>(par, z),
                hamiltonian(par, collectiveMap<double>(z)), 1e-14);
    const Vec8 grad = collectiveGradient<double>(par, z);
    const Mat8 hess = collectiveHessian<double>(par, z);
    EXPECT_LT((hess - hess.transpose()).norm(), 1e-15 * hess.norm());
    Vec8 fusedGrad;
    Mat8 fusedHess;
    collectiveGradientHessian<double>(par, z, fusedGrad, fusedHess);
    EXPECT_LT((fusedGrad - grad).norm(), 1e-15 * (1.0 + grad.norm()));
    Vec8 X;
    Mat8 DX;
    collectiveFieldAndJacobian<double>(par, z, X, DX);
    EXPECT_LT((X - collectiveField<double>(par, z)).norm(), 1e-15 * (1.0 + X.norm()));
    EXPECT_LT((DX - collectiveFieldJacobian<double>(par, z)).norm(), 1e-15 * (1.0 + DX.norm()));
    for (int k = 0; k < 8; ++k) {
      Vec8T<C> zc = z.cast<C>();
      zc[k] += C(0.0, 1e-30);
      EXPECT_NEAR(collectiveHamiltonian<C>(par, zc).imag() / 1e-30, grad[k],
                  1e-13 * (1.0 + grad.norm()));
      const Vec8 col = collectiveGradient<C>(par, zc).imag() / 1e-30;
      EXPECT_LT((col - hess.col(k)).norm(), 1e-13 * (1.0 + hess.norm())) << "column " << k;
    }
  }
}

// Collectivity (Theorem 4.1 (ii), infinitesimally): DM(z) X_H(z) = f(M(z)) to 1e-14 relative.
TEST(CollectiveHamiltonian, VectorFieldIsCollective) {
  const HeavyTopParameters par = genericTop();
  std::mt19937 g(19);
  for (int t = 0; t < 20; ++t) {
    const Vec8 z = randomZ(g);
    const Vec6 push = collectiveMapJacobian(z) * collectiveField<double>(par, z);
    const Vec6 f = heavyTopField<double>(par, collectiveMap<double>(z));
    EXPECT_LT((push - f).norm(), 1e-14 * (1.0 + f.norm()));
  }
}

// Flows commute, M o Phi_t = phi_t o M (Theorem 4.1 (ii)): DOP853 at rtol = atol = 1e-13 on the
// canonical system (8) and on the heavy-top equations (6) from M(z0), T = 10, agree to 1e-9
// (measured ~1e-11; both are reference-accurate solutions).
TEST(CollectiveHamiltonian, FlowsCommute) {
  const HeavyTopParameters par = genericTop();
  std::mt19937 g(23);
  const Vec8 z0 = randomZ(g);
  kirchhoff::integrators::Dop853Options opt;
  opt.rtol = opt.atol = 1e-13;
  auto X = [&par](double, const Eigen::VectorXd& z) {
    return Eigen::VectorXd(collectiveField<double>(par, Vec8(z)));
  };
  const Vec8 zT = kirchhoff::integrators::dop853(X, 0.0, Eigen::VectorXd(z0), {10.0}, opt)[0];
  const Vec6 yT = heavyTopReference(par, collectiveMap<double>(z0), 0.0, {10.0}, opt)[0];
  EXPECT_LT((collectiveMap<double>(zT) - yT).norm(), 1e-9);
  // Not trivially close: the state moved by O(1).
  EXPECT_GT((yT - collectiveMap<double>(z0)).norm(), 0.1);
}

}  // namespace
