// Explicit Runge–Kutta steps for y' = f(t, y) on Eigen vectors: Heun (RK2), explicit midpoint,
// classical RK4. The comparison schemes of the top and damped drivers (not structure preserving).
#pragma once

#include <Eigen/Dense>

namespace kirchhoff::integrators {

/// Heun's method (trapezoidal RK2): k1 = f(t, y), k2 = f(t + h, y + h k1), y + h (k1 + k2) / 2.
template <class F, class V>
V heunStep(F&& f, double t, const V& y, double h) {
  const V k1 = f(t, y);
  const V k2 = f(t + h, V(y + h * k1));
  return y + 0.5 * h * (k1 + k2);
}

/// Explicit midpoint: y + h f(t + h/2, y + h/2 f(t, y)).
template <class F, class V>
V explicitMidpointStep(F&& f, double t, const V& y, double h) {
  const V k1 = f(t, y);
  return y + h * f(t + 0.5 * h, V(y + 0.5 * h * k1));
}

/// Classical fourth-order Runge–Kutta.
template <class F, class V>
V rk4Step(F&& f, double t, const V& y, double h) {
  const V k1 = f(t, y);
  const V k2 = f(t + 0.5 * h, V(y + 0.5 * h * k1));
  const V k3 = f(t + 0.5 * h, V(y + 0.5 * h * k2));
  const V k4 = f(t + h, V(y + h * k3));
  return y + (h / 6.0) * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
}

}  // namespace kirchhoff::integrators
