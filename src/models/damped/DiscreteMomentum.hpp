// The discrete momentum M_k = (dtau^-1_{h Omega_k})^T I Omega_k of DDB step 1 and its Jacobian
// (damped.md Sec. 2); the retractions themselves live in lie/Retraction.
#pragma once

#include <Eigen/Dense>

#include "lie/Retraction.hpp"

namespace kirchhoff::damped {

using lie::Mat3;
using lie::Retraction;
using lie::Vec3;
using lie::dtau;
using lie::dtauInvTranspose;
using lie::tau;
using lie::tauTransposeApply;

/// DDB step 1 (doc Sec. 2):
///   exp:    M = I Om + (h/2) Om x I Om + c(h|Om|) h^2 Om x (Om x I Om)
///   Cayley: M = I Om + (h/2) Om x I Om + (h^2/4) Om (Om . I Om)
Vec3 discreteMomentum(Retraction r, double h, const Mat3& I, const Vec3& Om);
/// d discreteMomentum / d Om (the Newton Jacobian of step 1).
Mat3 discreteMomentumJacobian(Retraction r, double h, const Mat3& I, const Vec3& Om);

}  // namespace kirchhoff::damped
