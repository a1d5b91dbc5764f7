// Closed-form influence of one constant-strength source panel (Hess and Smith 1967; docs/fluidbody.md
// (FB-16), (FB-19)): potential, complex velocity and its derivative, the branch-cut stream function.
#pragma once

#include <cmath>
#include <complex>

#include "core/Constants.hpp"
#include "lie/SE2.hpp"

namespace kirchhoff::fluid::panel {

using Complex = std::complex<double>;

/// A straight panel from a to b = a + l t (complex plane), tbar = conj(t) = 1/t.
struct Segment {
  Complex a, b, tbar;
  double l;
};

/// Unit source density on the panel, seen from z:
///   complex potential W(z) = (1/2 pi) int_panel log(z - zeta) ds,  phi = Re W,
///   W'(z) = (1/2 pi) tbar log((z - a)/(z - b)) = u - i v,   W''(z) = (1/2 pi) tbar (1/(z-a) - 1/(z-b)).
/// In the panel frame xi = (z - a) tbar = x + i eta:
///   2 pi phi = x log|z - a| - (x - l) log|z - b| - eta theta - l,  theta = arg((z - a)/(z - b)),
/// which is exact on and off the panel line (theta in (-pi, pi), branches consistent).
struct PotentialTerms {
  double phi;
  Complex dW;   ///< u - i v
  Complex d2W;  ///< d(u - i v)/dz
};

/// theta = arg((z - a)/(z - b)), the angle the panel subtends at z, in (-pi, pi].
inline double subtendedAngle(const Complex& za, const Complex& zb) {
  const Complex q = za * std::conj(zb);
  return std::atan2(q.imag(), q.real());
}

/// Potential terms of panel s at z given log|z - a| and log|z - b| (shared between the two
/// panels of a vertex by the assembly loops). `second` requests W''.
inline PotentialTerms potentialTerms(const Segment& s, const Complex& z, double logRa, double logRb,
                                     bool second) {
  const Complex za = z - s.a, zb = z - s.b;
  const Complex xi = za * s.tbar;
  const double theta = subtendedAngle(za, zb);
  PotentialTerms r;
  r.phi = kInvTwoPi * (xi.real() * logRa - (xi.real() - s.l) * logRb - xi.imag() * theta - s.l);
  r.dW = kInvTwoPi * s.tbar * Complex(logRa - logRb, theta);
  r.d2W = second ? kInvTwoPi * s.tbar * (1.0 / za - 1.0 / zb) : Complex(0.0, 0.0);
  return r;
}

/// Self-contained version for arbitrary field points.
inline PotentialTerms potentialTerms(const Segment& s, const Complex& z, bool second = false) {
  return potentialTerms(s, z, std::log(std::abs(z - s.a)), std::log(std::abs(z - s.b)), second);
}

/// Potential of the panel at its own midpoint: (1/2 pi)(l log(l/2) - l).
inline double selfPotential(double l) { return kInvTwoPi * (l * std::log(0.5 * l) - l); }

/// The stream function with the branch-cut trick (fluidbody.md): with c inside the body,
///   Omega(z) = (1/2 pi) int_panel log((z - zeta)/(z - c)) ds  (principal log under the integral)
///            = (1/2 pi) [ w0 tbar (alpha log alpha - alpha' log alpha') - l ],
///   w0 = z - c, alpha = (z - a)/w0, alpha' = (z - b)/w0,
/// Re Omega = phi - (l/2 pi) log|z - c|, and psi = -Im Omega is the stream function
/// (u = J grad psi) of the panel minus a vortex of circulation l at c: for zero net source on a
/// body these extra vortices cancel and psi is single valued outside it (star-shaped about c).
///   Omega'(z) = W'(z) - (l/2 pi)/(z - c).
/// `logAlphaA`, `logAlphaB`: principal logs of alpha, alpha' (shared between neighbouring panels).
struct StreamTerms {
  Complex omega;   ///< psi = -Im omega
  Complex dOmega;  ///< grad psi = -(Im dOmega, Re dOmega)
};

inline StreamTerms streamTerms(const Segment& s, const Complex& w0, const Complex& alphaA,
                               const Complex& logAlphaA, const Complex& alphaB,
                               const Complex& logAlphaB) {
  StreamTerms r;
  r.omega = kInvTwoPi * (w0 * s.tbar * (alphaA * logAlphaA - alphaB * logAlphaB) - s.l);
  double theta = logAlphaA.imag() - logAlphaB.imag();  // arg((z-a)/(z-b)), wrapped below
  if (theta > kPi) theta -= 2.0 * kPi;
  if (theta <= -kPi) theta += 2.0 * kPi;
  const Complex dW = kInvTwoPi * s.tbar * Complex(logAlphaA.real() - logAlphaB.real(), theta);
  r.dOmega = dW - kInvTwoPi * s.l / w0;
  return r;
}

/// Self-contained version for arbitrary field points z and branch point c.
inline StreamTerms streamTerms(const Segment& s, const Complex& z, const Complex& c) {
  const Complex w0 = z - c;
  const Complex alphaA = (z - s.a) / w0, alphaB = (z - s.b) / w0;
  return streamTerms(s, w0, alphaA, std::log(alphaA), alphaB, std::log(alphaB));
}

/// Gradient over (x, y) of Re(k dz) and Im(k dz) for a complex coefficient k.
inline lie::Vec2 gradRe(const Complex& k) { return {k.real(), -k.imag()}; }
inline lie::Vec2 gradIm(const Complex& k) { return {k.imag(), k.real()}; }

}  // namespace kirchhoff::fluid::panel
