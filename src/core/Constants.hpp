// Mathematical constants shared by the geometry, the kernels and the models (one definition each;
// docs/fluidbody.md (FB-15) uses 1 / (2 pi) as the point-vortex kernel's factor).
#pragma once

namespace kirchhoff {

inline constexpr double kPi = 3.14159265358979323846264338327950288;
inline constexpr double kTwoPi = 6.28318530717958647692528676655900577;
inline constexpr double kInvTwoPi = 0.15915494309189533576888376337251436;

}  // namespace kirchhoff
