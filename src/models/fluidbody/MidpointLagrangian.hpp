// The SE(2)^n x R^2m midpoint discrete Lagrangian (Weißmann 2014, Sec. 5; docs/fluidbody.md (FB-23)):
//   L_d(q_k, q_k+1) = h L(g_k exp(h Xi_k / 2), (gamma_k + gamma_k+1)/2, Xi_k, gamma_dot_k),
//   Xi_k = log(g_k^-1 g_k+1) / h, L = 1/2 <K(g) Xi, Xi> + beta_gamma + W_G + <M_C, Xi>.
#pragma once

#include <vector>

#include <Eigen/Dense>

#include "fluid/Fluid.hpp"
#include "integrators/DiscreteLagrangian.hpp"
#include "lie/SE2.hpp"

namespace kirchhoff::fluidbody {

/// Mass properties of one body: M_j = diag(inertia, mass, mass).
struct BodyMass {
  double mass = 0.0;
  double inertia = 0.0;
};

/// A configuration q split into poses and vortices (layout of fluid/Fluid.hpp).
struct Configuration {
  std::vector<lie::Pose> poses;
  fluid::Vortices vortices;
};

/// Fewest bodies whose inverse Legendre map runs by conjugate gradients (FB-29b) rather than on the full
/// Kirchhoff tensor: the threshold of newton_krylov (FluidBodyModel.hpp), from which A(g) is never formed.
constexpr int kIterativeLegendreBodies = 12;
/// Relative accuracy of the kinetic energy by hamiltonian() (FB-29f): below the fluid solves' own round-off.
constexpr double kEnergyRtol = 1e-15;

class MidpointLagrangian : public integrators::DiscreteLagrangian {
 public:
  /// `K` are the circulations, `rho` the fluid density (it multiplies beta_gamma and the fluid
  /// terms computed by `fluid`), h the time step.
  MidpointLagrangian(fluid::Fluid& fluid, std::vector<BodyMass> bodies, std::vector<double> K,
                     double rho, double h);

  int dimension() const override { return 3 * n_ + 2 * m_; }
  /// The step h of L_d (the sub-steps gamma_i h of a composition, docs/composition.md (CM-1)).
  void setTimeStep(double h);
  double timeStep() const { return h_; }
  double value(const Eigen::VectorXd& q0, const Eigen::VectorXd& q1) override;
  void slotDerivatives(const Eigen::VectorXd& q0, const Eigen::VectorXd& q1, Eigen::VectorXd* d1,
                       Eigen::VectorXd* d2) override;
  Eigen::MatrixXd approximateJacobian(const Eigen::VectorXd& q0, const Eigen::VectorXd& q1) override;
  /// (FB-29a): -T_j (M_j + A_j^iso) T_j^T / h per body, (rho / 2) K_i J per vortex (no fluid solve).
  std::vector<Eigen::MatrixXd> jacobianDiagonalBlocks(const Eigen::VectorXd& q0,
                                                      const Eigen::VectorXd& q1) const override;
  /// (FB-90): x = Jt^-1 r for the coupled approximate Jacobian Jt of d(D1 L_d)/d q_k+1: the bodies' block
  /// -T (M + A(g)) T^T / h with the full added mass (FB-29), each vortex's (rho / 2) K_i J and the vortex rows' coupling
  /// to the body velocities (1/2) d<M_C, T^T x_b>/d gamma; the fluid solve (Fluid::kirchhoffSolve) to relative accuracy
  /// rtol at the configuration of the last slotDerivatives call when it was for these q0 (the Newton iterate or a
  /// difference neighbour of it), else at (q0, q1).
  Eigen::VectorXd solveApproximateJacobian(const Eigen::VectorXd& q0, const Eigen::VectorXd& q1,
                                           const Eigen::VectorXd& r, double rtol) override;
  /// The added mass of each body alone, body frame (fluid/IsolatedAddedMass.hpp); without it the
  /// diagonal blocks hold the body mass only.
  void setIsolatedAddedMass(std::vector<Eigen::Matrix3d> a) { isolated_ = std::move(a); }

  // Continuous-time pieces used for initial data, energy and diagnostics.
  Configuration configuration(const Eigen::VectorXd& q) const;
  /// p = dL/dq_dot at (q, Xi): p_theta = P_Omega, p_y = R P_V, p_gamma = -rho K J gamma / 2,
  /// with P = (M + A) Xi + M_C (performs the fluid solve at q).
  Eigen::VectorXd legendre(const Eigen::VectorXd& q, const Eigen::VectorXd& Xi);
  /// Xi = (M + A)^-1 (P - M_C) with P from p (the inverse Legendre map of the bodies). Below
  /// kIterativeLegendreBodies bodies by Cholesky of the full tensor (3n solves), from there by
  /// conjugate gradients on A Xi (two solves per iteration, (FB-29b)), from `guess` when it is given.
  Eigen::VectorXd bodyVelocity(const Eigen::VectorXd& q, const Eigen::VectorXd& p, const Eigen::VectorXd& guess = {});
  /// H = 1/2 <(M + A) Xi, Xi> - W_G at q (fluid solved at q by the last call).
  double energy(const Eigen::VectorXd& Xi) const;
  /// H(q, p) without Xi to full accuracy (FB-29f): H = 1/2 <x, P - M_C + r> - W_G, r = P - M_C - (M + A) x, whose
  /// error 1/2 r^T (M + A)^-1 r <= 1/2 r^T M^-1 r is second order in r; from kIterativeLegendreBodies bodies
  /// the conjugate gradients of (FB-29b) stop once that bound is below kEnergyRtol of the kinetic part, starting
  /// from `guess` (body velocities, e.g. extrapolated from the last steps) when it is given. Fluid solved at q.
  double hamiltonian(const Eigen::VectorXd& q, const Eigen::VectorXd& p, const Eigen::VectorXd& guess = {});
  /// The discrete body velocities Xi_k = log(g_k^-1 g_k+1) / h of the step (q0, q1) (FB-23).
  Eigen::VectorXd stepVelocity(const Eigen::VectorXd& q0, const Eigen::VectorXd& q1) const { return midpoint(q0, q1).Xi; }
  /// P = (P_Omega, R^T p_y) per body from the momenta p at q (the body-frame momenta of the Legendre map).
  Eigen::VectorXd bodyMomenta(const Eigen::VectorXd& q, const Eigen::VectorXd& p) const;
  /// Conjugate-gradient iterations of the last inverse Legendre map (FB-29b, FB-29f); 0 on the Cholesky path.
  int legendreIterations() const { return legendreIterations_; }
  /// The discrete energy E_d = -dL_d/dh (FB-83): H at the midpoint configuration with the discrete
  /// body velocity Xi_k (performs the fluid solve at the midpoint).
  double discreteEnergy(const Eigen::VectorXd& q0, const Eigen::VectorXd& q1);
  /// The Kirchhoff tensor M + A(g) of the last configuration.
  Eigen::MatrixXd kirchhoffTensor() const;
  /// Vortex velocities u(gamma_i) of the last configuration with body velocities Xi.
  std::vector<lie::Vec2> vortexVelocities(const Eigen::VectorXd& Xi) const;
  int bodyCount() const { return n_; }
  int vortexCount() const { return m_; }
  const std::vector<double>& circulations() const { return K_; }
  double density() const { return rho_; }

 private:
  struct Midpoint {
    Configuration config;
    Eigen::VectorXd Xi;                  // body velocities (3n)
    std::vector<lie::Vec2> gammaDot;     // vortex velocities (m)
    std::vector<lie::MidpointFactors> f; // per body
    std::vector<lie::Complex> dy;        // y_k+1 - y_k per body
  };
  Midpoint midpoint(const Eigen::VectorXd& q0, const Eigen::VectorXd& q1) const;
  /// M Xi, M = diag(i_j, m_j, m_j) per body.
  Eigen::VectorXd massTimes(const Eigen::VectorXd& Xi) const;
  /// (M + A) Xi = P by conjugate gradients preconditioned by the blocks M_j + A_j^iso (FB-29b), from x0 (empty:
  /// the preconditioned P); stops at |r| <= 1e-13 |P| or, with energyRtol > 0, once 1/2 r^T M^-1 r <=
  /// energyRtol 1/2 <x, P + r> (FB-29f). Returns x and its recurrence residual r.
  struct KirchhoffIterate {
    Eigen::VectorXd x, r;
  };
  KirchhoffIterate kirchhoffSolve(const Eigen::VectorXd& P, Eigen::VectorXd x0, double energyRtol);
  /// `guess` if it is a finite vector of body velocities, else empty (CG from the preconditioned P).
  Eigen::VectorXd usableGuess(const Eigen::VectorXd& guess) const;
  /// The inverse Legendre map runs by CG (FB-29b): from kIterativeLegendreBodies bodies with their isolated added masses.
  bool iterativeLegendre() const;
  /// Sets the fluid at q and returns P - M_C (3n), the right-hand side of the inverse Legendre map.
  Eigen::VectorXd momentaAt(const Eigen::VectorXd& q, const Eigen::VectorXd& p);

  /// Kirchhoff tensor and midpoint angles of the last slotDerivatives call, so the
  /// approximate Jacobian at the same point costs no fluid solve.
  struct Cache {
    Eigen::VectorXd q0, q1;
    Eigen::MatrixXd kirchhoff;
    std::vector<double> thetaMid;
    bool fluid = false;  ///< the fluid is still at this point's midpoint (no other configuration since)
  } cache_;

  fluid::Fluid& fluid_;
  std::vector<BodyMass> bodies_;
  std::vector<Eigen::Matrix3d> isolated_;
  std::vector<double> K_;
  double rho_, h_;
  int n_, m_;
  int legendreIterations_ = 0;
};

}  // namespace kirchhoff::fluidbody
