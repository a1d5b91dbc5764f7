// Mathematical constants (and the imaginary unit) shared by the geometry, the kernels and the models (one definition each;
// docs/fluidbody.md (FB-15) uses 1 / (2 pi) as the point-vortex kernel's factor).
#pragma once

#include <complex>

namespace kirchhoff {

inline constexpr double kPi = 3.14159265358979323846264338327950288;
inline constexpr double kTwoPi = 6.28318530717958647692528676655900577;
inline constexpr double kInvTwoPi = 0.15915494309189533576888376337251436;
inline constexpr std::complex<double> kI{0.0, 1.0};  ///< the imaginary unit

}  // namespace kirchhoff
