// The exact vortex–node terms of the fluid algebra (docs/fluidbody.md (FB-20)-(FB-22)), one vortex and one node at a
// time: the image data b_I and the pose derivatives of K^T G s and lambda^T b_I; shared by the dense path and the
// near pairs of the cluster tree (fluid/fast/VortexTerms).
#pragma once

#include <complex>

#include "fluid/discretization/PanelKernel.hpp"
#include "lie/SE2.hpp"

namespace kirchhoff::fluid::vortexbody {

using Complex = std::complex<double>;

/// sum K / (z - gamma) term of one vortex at the node z (b_I,p = -Re(V nu), V = -i sum K / (2 pi (z - gamma))).
inline Complex inverseDistance(const Complex& z, const lie::Vec2& gamma, double K) {
  const double dx = z.real() - gamma.x(), dy = z.imag() - gamma.y(), k = K / (dx * dx + dy * dy);
  return {k * dx, -k * dy};
}

/// b_I,p from sum K_i / (z_p - gamma_i) at node p with normal nu: -Re(V nu), V = -i sum / (2 pi).
inline double imageData(const Complex& sum, const Complex& nu) {
  const Complex V = -Complex(0.0, 1.0) * kInvTwoPi * sum;
  return -(V * nu).real();
}

/// Pose derivatives of w psi_q(gamma) for node q of body Q (centre cQ), from dOmega_q(gamma): added to the
/// vortex's gradient gi and to body Q's (theta, y) entries bodyGrad[0..2].
inline void addStreamGradient(const Complex& dOmega, const Complex& gamma, const Complex& cQ, double w, lie::Vec2& gi,
                              double* bodyGrad) {
  const lie::Vec2 gz = -panel::gradIm(dOmega);  // d psi / d gamma
  gi += w * gz;
  bodyGrad[1] -= w * gz.x();
  bodyGrad[2] -= w * gz.y();
  bodyGrad[0] += w * (dOmega * Complex(0.0, 1.0) * (gamma - cQ)).imag();
}

/// Pose derivatives of w b_I,p for node p (position z, normal nu) of body P (centre cP) and the vortex (gamma, K).
inline void addImageGradient(const Complex& z, const Complex& nu, const Complex& cP, const Complex& gamma, double K,
                             double w, lie::Vec2& gi, double* bodyGrad) {
  const Complex kI(0.0, 1.0), d = z - gamma;
  const Complex k = K * kInvTwoPi / (d * d);
  const Complex Vi = -kI * K * kInvTwoPi / d;
  const lie::Vec2 gg = panel::gradRe(kI * k * nu);  // d b_p / d gamma
  gi += w * gg;
  bodyGrad[1] -= w * gg.x();
  bodyGrad[2] -= w * gg.y();
  bodyGrad[0] -= w * ((kI * k * kI * (z - cP) * nu).real() + (Vi * kI * nu).real());
}

}  // namespace kirchhoff::fluid::vortexbody
