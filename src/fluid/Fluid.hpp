// The fluid half of fluidbody: for body poses g and vortices gamma, the added mass A(g), the
// vortex momentum M_C, the Kirchhoff–Routh function W_G and the gradient of W = T_A + W_G + W_B.
#pragma once

#include <limits>
#include <vector>

#include <Eigen/Dense>

#include "fluid/geometry/PointVortices.hpp"
#include "lie/SE2.hpp"

namespace kirchhoff::fluid {

/// What the boundary discretization resolves at a configuration (docs/fluidbody.md, close gaps):
/// the closest body pair and vortex-body pair, the unknowns, and the a-posteriori estimate of the
/// relative error of A(g) and the vortex velocities against the fluid tolerance, all at the
/// configuration of the last refineFor. The distances are exact for the pairs within a body's
/// switch distance (FB-64), else lower bounds from the bodies' bounding circles.
struct Resolution {
  static constexpr double kNone = std::numeric_limits<double>::infinity();
  double minGap = kNone;             ///< smallest body-body gap
  int gapBodies[2] = {-1, -1};       ///< the bodies of that gap
  double minVortexDistance = kNone;  ///< smallest vortex-body distance
  int vortexBody[2] = {-1, -1};      ///< (vortex, body) of that distance
  long unknowns = 0;                 ///< size of the boundary system
  int refinedBodies = 0;             ///< bodies whose discretization is refined toward a neighbour
  double errorEstimate = 0.0;        ///< relative error estimate (0: not estimated)
  double tolerance = 0.0;            ///< the fluid tolerance it is held to (0: none)
};

/// Layout of every vector over configuration coordinates q: (theta_j, y_j,1, y_j,2) for each
/// body j, then (gamma_i,1, gamma_i,2) for each vortex i: 3n + 2m entries.
/// Body velocities Xi = (Omega_j, V_j,1, V_j,2), body frame: 3n entries.
class Fluid {
 public:
  virtual ~Fluid() = default;
  virtual int bodyCount() const = 0;
  /// Sets poses and vortices and performs the Neumann solves (collective on the communicator).
  virtual void setConfiguration(const std::vector<lie::Pose>& poses, const Vortices& vortices) = 0;
  /// Added-mass tensor A(g), 3n x 3n, body frames (fluid density included). For several bodies
  /// this costs 3n solves at a new configuration (collective): the evaluation path of the
  /// integrator uses addedMassAction() and lagrangianValue(), which need a fixed number.
  virtual Eigen::MatrixXd addedMass() const = 0;
  /// M_C = sum_i K_i Psi_B(gamma_i), 3n.
  virtual Eigen::VectorXd vortexMomentum() const = 0;
  /// A(g) Xi at the current configuration (collective; a fixed number of solves).
  virtual Eigen::VectorXd addedMassAction(const Eigen::VectorXd& Xi) { return addedMass() * Xi; }
  /// F = 1/2 <A(g) Xi, Xi> + W_G + <M_C, Xi> at the current configuration (collective).
  virtual double lagrangianValue(const Eigen::VectorXd& Xi) {
    return Xi.size() ? 0.5 * Xi.dot(addedMass() * Xi) + kirchhoffRouth() + vortexMomentum().dot(Xi)
                     : kirchhoffRouth();
  }
  /// W_G = 1/2 sum_i K_i (psi_I(gamma_i) + sum_{j != i} psi_gamma_j(gamma_i)).
  virtual double kirchhoffRouth() const = 0;
  /// Gradient over q (layout above) of F(q) = 1/2 <A(g) Xi, Xi> + W_G + <M_C, Xi> at fixed Xi.
  virtual Eigen::VectorXd lagrangianGradient(const Eigen::VectorXd& Xi) = 0;
  /// Vortex velocities u(gamma_i) = u_gamma (no self term) + u_I + <grad Phi_B, Xi>.
  virtual std::vector<lie::Vec2> vortexVelocities(const Eigen::VectorXd& Xi) const = 0;
  /// The Kirchhoff tensor solve of the coupled Newton direction (docs/fluidbody.md (FB-90)) at the current
  /// configuration: delta = (diag(bodyMass) + A(g))^-1 r (3n entries; bodyMass = (i_j, m_j, m_j) per body) to a
  /// relative accuracy of about rtol, and vortexGradient = d<M_C, delta>/d gamma at fixed delta (2m entries: rho K_i
  /// times the gradient at gamma_i of the stream function of the flow the body velocities delta induce). Collective.
  /// This default forms A(g) (3n solves) and differences two gradients; the boundary fluid solves (FB-91).
  struct KirchhoffSolution {
    Eigen::VectorXd delta, vortexGradient;
  };
  virtual KirchhoffSolution kirchhoffSolve(const Eigen::VectorXd& bodyMass, const Eigen::VectorXd& r,
                                           double /*rtol*/) {
    const int n = bodyCount();
    KirchhoffSolution s;
    s.delta = Eigen::VectorXd::Zero(3 * n);
    if (n > 0) {
      Eigen::MatrixXd K = addedMass();
      K.diagonal() += bodyMass;
      s.delta = K.llt().solve(r);
    }
    const Eigen::VectorXd g = lagrangianGradient(s.delta) - lagrangianGradient(Eigen::VectorXd::Zero(3 * n));
    s.vortexGradient = g.tail(g.size() - 3 * n);
    return s;
  }
  /// Drops what iterative solves remember between calls (KSP initial guesses, (FB-47a)): called at the
  /// start of every time step, so that a step depends on the state alone and restarts stay bitwise.
  virtual void forgetSolutions() {}
  /// Between time steps (never inside one: the discrete Lagrangian must stay smooth for Newton):
  /// rebuilds the discretization so that it resolves, to the fluid tolerance, every configuration
  /// whose bodies and vortices lie within `margin` of (poses, vortices). Returns true if the
  /// discretization changed. Throws NumericalError naming the pair and the gap where no refinement
  /// within the limits resolves it. Depends on its arguments alone (restarts stay bitwise).
  virtual bool refineFor(const std::vector<lie::Pose>& /*poses*/, const Vortices& /*vortices*/,
                         double /*margin*/) {
    return false;
  }
  /// The resolution of the current discretization at the configuration of the last refineFor.
  virtual Resolution resolution() const { return {}; }
  /// (FB-66a): per body, the sharpening the next refineFor starts from (empty: none), and the one the last refineFor
  /// ended with (empty without refinement). A model that keeps the latter in its state and passes it back keeps
  /// restarts bitwise.
  virtual void setSharpeningStart(std::vector<int> /*start*/) {}
  virtual std::vector<int> sharpeningUsed() const { return {}; }
};

}  // namespace kirchhoff::fluid
