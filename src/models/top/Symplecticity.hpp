// Structure checks of a one-step map Phi of the top schemes (docs/heavytop.md "Tools"):
//   S = DPhi(x) by complex step (Im Phi(x + i h e_k) / h, Newton run in complex arithmetic to
//   round-off) or central differences;  symplecticity defect max_ij |S^T Omega S - Omega|_ij (z-maps),
//   Poisson defect max_ij |D P(x) D^T - B(y1)|_ij with D = d(Pi, Gamma)(x1)/dx, P = Omega (collective)
//   or B(x) (direct), B the (-)-Lie–Poisson tensor of se(3)* (HeavyTop.hpp).
#pragma once

#include <Eigen/Dense>

#include "models/top/TopSchemes.hpp"

namespace kirchhoff::top {

struct StepJacobians {
  Eigen::MatrixXd S;  ///< d x1 / d x (n x n)
  Eigen::MatrixXd D;  ///< d (Pi, Gamma)(x1) / d x (6 x n)
  Eigen::VectorXd x1; ///< Phi(x)
};

/// Complex-step Jacobians (step h, default 1e-30: no subtraction, exact to round-off).
/// Throws NumericalError if a Newton solve fails.
StepJacobians stepJacobiansComplexStep(const TopStepper& stepper, const Eigen::VectorXd& x,
                                       double h = 1e-30);
/// Central-difference Jacobians with step delta (error O(delta^2) + O(eps / delta)).
StepJacobians stepJacobiansCentral(const TopStepper& stepper, const Eigen::VectorXd& x,
                                   double delta = 1e-5);
/// max_ij |S^T Omega S - Omega|_ij for an 8 x 8 Jacobian of a z-map.
double symplecticityDefect(const Eigen::MatrixXd& S);
/// max_ij |D P D^T - B(M(x1))|_ij (the map induced on se(3)* is Poisson iff this vanishes).
double poissonDefect(const TopStepper& stepper, const Eigen::VectorXd& x, const StepJacobians& J);

}  // namespace kirchhoff::top
