// The discrete double-bracket (DDB) method for the dissipative rigid body (docs/damped.md (DA-15)-(DA-19),
// steps 1-4) with exp or Cayley retraction: the plain scheme and a symmetric 2nd-order variant.
#pragma once

#include "core/Choices.hpp"
#include "integrators/DenseNewton.hpp"
#include "models/damped/DiscreteMomentum.hpp"
#include "models/damped/RigidBody.hpp"

namespace kirchhoff::damped {

enum class DdbVariant {
  /// Doc Sec. 2 as written: Omega from M_k = (dtau^-1_{h Om})^T I Om, w = tau(h Om),
  /// W = tau(h phi_k), phi_k = alpha M_k x Om_k, M_{k+1} = (w W)^T M_k. Order 2 at alpha = 0, else 1.
  Plain,
  /// Strang form D_{h/2} o C_h o D_{h/2}: C_h the conservative DDB step (alpha = 0 above) and
  /// D_s the midpoint rotation M' = tau(s phi((M + M')/2))^T M. Symmetric, hence order 2.
  Symmetric,
};

/// The deck names: "plain", "symmetric".
const Choices<DdbVariant>& ddbVariants();

struct DdbOptions {
  Retraction retraction = Retraction::Cayley;
  DdbVariant variant = DdbVariant::Plain;
  integrators::NewtonOptions newton{};
};

/// Newton statistics of one DDB step (summed over its nonlinear solves).
struct DdbReport {
  bool converged = true;
  int iterations = 0;
  double residualNorm = 0.0;  ///< largest final residual of the step's solves
};

/// Step 1: Omega with M = (dtau^-1_{h Om})^T I Om, Newton from Om = I^-1 M.
Vec3 discreteVelocity(const DissipativeRigidBody& body, Retraction r, double h, const Vec3& M,
                      const integrators::NewtonOptions& opt, DdbReport& rep);
/// C_h: M' = tau(h Om)^T M with Om from step 1 (the Lie–Poisson step of the free rigid body).
Vec3 conservativeStep(const DissipativeRigidBody& body, Retraction r, double h, const Vec3& M,
                      const integrators::NewtonOptions& opt, DdbReport& rep);
/// D_s: solves x = tau(s phi((M + x)/2))^T M (Newton on x) and returns the rotation of M at the
/// converged x, so |M'| = |M| to round-off whatever the Newton residual.
Vec3 dissipativeMidpointStep(const DissipativeRigidBody& body, Retraction r, double s, const Vec3& M,
                             const integrators::NewtonOptions& opt, DdbReport& rep);

/// One DDB step M_k -> M_{k+1} of size h (in place). Check rep.converged.
DdbReport ddbStep(const DissipativeRigidBody& body, const DdbOptions& opt, double h, Vec3& M);

}  // namespace kirchhoff::damped
