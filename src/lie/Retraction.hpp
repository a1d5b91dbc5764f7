// Retractions tau: so(3) -> SO(3) (exponential, Cayley) and their right-trivialized differentials
// dtau, (dtau^-1)^T: the shared SO(3) machinery of the discrete variational (DDB) schemes (damped.md Sec. 2).
#pragma once

#include <Eigen/Dense>

#include "core/Choices.hpp"

namespace kirchhoff::lie {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;

enum class Retraction { Exp, Cayley };
/// The deck names: "exp", "cayley".
const Choices<Retraction>& retractions();

/// tau(v) as a matrix: Rodrigues exp(hat v), or cay(hat v) = (I - V/2)^-1 (I + V/2).
Mat3 tau(Retraction r, const Vec3& v);
/// tau(v)^T y = tau(-v) y without forming the matrix (an exact rotation up to round-off):
///   exp: y - (sin th/th) v x y + (2 sin^2(th/2)/th^2) v x (v x y)
///   cay: y + (-v x y + v x (v x y)/2) / (1 + |v|^2/4)
Vec3 tauTransposeApply(Retraction r, const Vec3& v, const Vec3& y);
/// Right-trivialized differential: d/dt tau(v(t)) = hat(dtau_v v') tau(v).
///   exp: dexp_v = I + ((1 - cos th)/th^2) V + ((th - sin th)/th^3) V^2
///   cay: dcay_v = (I + V/2) / (1 + |v|^2/4)
Mat3 dtau(Retraction r, const Vec3& v);
/// (dtau^-1_v)^T:  exp: I + V/2 + c(th) V^2;   cay: I + V/2 + v v^T/4.
Mat3 dtauInvTranspose(Retraction r, const Vec3& v);

/// c(th) = (1 - (th/2) cot(th/2)) / th^2 (-> 1/12 + th^2/720 + ...), series below th = 0.1.
double dexpInvCoefficient(double th);
/// c'(th)/th (-> 1/360 + th^2/7560 + ...), for the Jacobian of the discrete momentum.
double dexpInvCoefficientSlope(double th);
/// Throws NumericalError when |v| >= 2 pi (cot(th/2) singular: dexp^-1 does not exist).
void requireExpDomain(double th);

}  // namespace kirchhoff::lie
