// The Kovalevskaya top and its initial data (docs/heavytop.md "The Kovalevskaya test"; Ohsawa 2019,
// Sec. 5) and its DOP853 reference: the one fixture of the top tests and of bench_top.
#pragma once

#include <cmath>

#include "models/top/CollectiveMap.hpp"
#include "models/top/HeavyTop.hpp"
#include "models/top/Reference.hpp"

namespace kirchhoff::top::fixture {

/// I = (2, 2, 1), c = (1, 0, 0), mgl = 1.
inline HeavyTopParameters kovalevskayaTop() {
  HeavyTopParameters p;
  p.inertia = Vec3(2.0, 2.0, 1.0);
  p.c = Vec3(1.0, 0.0, 0.0);
  p.mgl = 1.0;
  return p;
}

/// (Pi, Gamma)(0) = (2, 0, 4, 1/2, 0, sqrt(3)/2).
inline Vec6 kovalevskayaY0() {
  Vec6 y;
  y << 2.0, 0.0, 4.0, 0.5, 0.0, std::sqrt(3.0) / 2.0;
  return y;
}

/// z(0) of the paper: the collective lift with psi(0) = (cos 15 deg, 0, sin 15 deg, 0), q1 = 1.
inline Vec8 kovalevskayaZ0() {
  const Vec6 y = kovalevskayaY0();
  const Vec3 Pi = y.head<3>(), Gamma = y.tail<3>();
  return collectiveLift(Pi, Gamma, 0.0, collectiveShiftForQ1(Pi, Gamma, 0.0, 1.0));
}

/// (Pi, Gamma)(T) from kovalevskayaY0 by DOP853 at rtol = atol = tol.
inline Vec6 kovalevskayaReference(double T, double tol) {
  integrators::Dop853Options opt;
  opt.rtol = opt.atol = tol;
  return heavyTopReference(kovalevskayaTop(), kovalevskayaY0(), 0.0, {T}, opt)[0];
}

}  // namespace kirchhoff::top::fixture
