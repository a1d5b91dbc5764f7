// Exact sub-flows of the split Rayleigh vector field X_T + X_V + eps Y (Modin & Söderlind 2011, Sec. 3;
// docs/damped.md (DA-3)-(DA-6)): exp(t X_T), exp(t X_V), exp(t eps Y), exp(t (X_V + eps Y)), q in R^n.
#pragma once

#include <cmath>

#include <Eigen/Dense>

#include "models/damped/RayleighSystem.hpp"

namespace kirchhoff::damped {

/// phi1(z) = (e^z - 1)/z, phi1(0) = 1 (expm1 keeps full relative accuracy near 0).
inline double phi1(double z) { return z == 0.0 ? 1.0 : std::expm1(z) / z; }

/// exp(t X_T): q <- q + t M^-1 p.
void driftT(const RayleighSystem& s, VectorXd& q, const VectorXd& p, double t);
/// exp(t X_V): p <- p - t grad V(q).
void kickV(const RayleighSystem& s, const VectorXd& q, VectorXd& p, double t);
/// exp(t eps Y): p <- exp(-t A) p, A = eps D(q) M^-1 (q frozen).
void dampY(const RayleighSystem& s, const VectorXd& q, VectorXd& p, double t);
/// exp(t (X_V + eps Y)): p <- exp(-t A) p - t phi1(-t A) grad V(q) (q frozen), the exact solution
/// of the linear ODE p' = -grad V(q) - A p. Computed in the modes of B = eps S D S (RayleighSystem).
void kickDampVY(const RayleighSystem& s, const VectorXd& q, VectorXd& p, double t);

}  // namespace kirchhoff::damped
