// Complex-step and central-difference Jacobians of the top schemes' one-step maps and their
// symplecticity / Poisson defects (Symplecticity.hpp; docs/heavytop.md "Tools").
#include "models/top/Symplecticity.hpp"

#include <complex>
#include <string>

#include "core/Error.hpp"

namespace kirchhoff::top {

namespace {

using Complex = std::complex<double>;
using VecC = Eigen::Matrix<Complex, Eigen::Dynamic, 1>;

// (Pi, Gamma) of a (possibly complex) state.
template <class T>
Vec6T<T> image(bool collective, const Eigen::Matrix<T, Eigen::Dynamic, 1>& x) {
  if (collective) return collectiveMap<T>(Vec8T<T>(x));
  return Vec6T<T>(x);
}

void requireConverged(const NewtonResult& r, const std::string& what) {
  if (!r.converged)
    throw NumericalError("symplecticity check: Newton did not converge (" + what + ", residual " +
                         std::to_string(r.residualNorm) + ")");
}

}  // namespace

StepJacobians stepJacobiansComplexStep(const TopStepper& stepper, const Eigen::VectorXd& x,
                                       double h) {
  const int n = stepper.dimension();
  StepJacobians J{Eigen::MatrixXd(n, n), Eigen::MatrixXd(6, n), x};
  requireConverged(stepper.step(J.x1), "base point");
  for (int k = 0; k < n; ++k) {
    VecC xc = x.cast<Complex>();
    xc[k] += Complex(0.0, h);
    requireConverged(methodStep<Complex>(stepper.method(), stepper.parameters(), xc,
                                         stepper.timeStep(), stepper.newtonOptions(), 2),
                     "column " + std::to_string(k));
    J.S.col(k) = xc.imag() / h;
    J.D.col(k) = image<Complex>(stepper.collective(), xc).imag() / h;
  }
  return J;
}

StepJacobians stepJacobiansCentral(const TopStepper& stepper, const Eigen::VectorXd& x,
                                   double delta) {
  const int n = stepper.dimension();
  StepJacobians J{Eigen::MatrixXd(n, n), Eigen::MatrixXd(6, n), x};
  requireConverged(stepper.step(J.x1), "base point");
  for (int k = 0; k < n; ++k) {
    Eigen::VectorXd xp = x, xm = x;
    xp[k] += delta;
    xm[k] -= delta;
    requireConverged(stepper.step(xp), "column " + std::to_string(k) + " +");
    requireConverged(stepper.step(xm), "column " + std::to_string(k) + " -");
    J.S.col(k) = (xp - xm) / (2.0 * delta);
    J.D.col(k) = (image<double>(stepper.collective(), xp) - image<double>(stepper.collective(), xm)) /
                 (2.0 * delta);
  }
  return J;
}

double symplecticityDefect(const Eigen::MatrixXd& S) {
  if (S.rows() != 8 || S.cols() != 8)
    throw NumericalError("symplecticity defect needs the 8 x 8 Jacobian of a z-map");
  const Mat8 O = canonicalOmega();
  return (S.transpose() * O * S - O).cwiseAbs().maxCoeff();
}

double poissonDefect(const TopStepper& stepper, const Eigen::VectorXd& x, const StepJacobians& J) {
  const Eigen::MatrixXd P = stepper.collective() ? Eigen::MatrixXd(canonicalOmega())
                                                 : Eigen::MatrixXd(poissonTensor(Vec6(x)));
  const Mat6 B1 = poissonTensor(stepper.heavyTopState(J.x1));
  return (J.D * P * J.D.transpose() - B1).cwiseAbs().maxCoeff();
}

}  // namespace kirchhoff::top
