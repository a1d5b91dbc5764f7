// An analytic smooth closed curve x(s), s in [0, 2 pi), for the Nystrom discretization (docs/fluidbody.md
// "High-order boundary integrals", (FB-34)): circle, ellipse, Fourier star r(s) = R (1 + sum a_k cos ks + b_k sin ks).
#pragma once

#include <string>
#include <vector>

#include "lie/SE2.hpp"

namespace kirchhoff::fluid {

using lie::Vec2;

/// Counter-clockwise in s, body frame with the origin at the centroid of the enclosed region.
struct SmoothCurve {
  std::string kind;               ///< "circle" | "ellipse" | "star"
  double radius = 1.0;            ///< circle, star (R)
  double a = 1.0, b = 1.0;        ///< ellipse semi-axes (a along body x)
  std::vector<double> cosCoeffs;  ///< star: a_1, a_2, ...
  std::vector<double> sinCoeffs;  ///< star: b_1, b_2, ...
  Vec2 shift = Vec2::Zero();      ///< subtracted from the polar curve: its centroid (star)
  double area = 0.0;              ///< exact area of the region (to round-off)
  double polarMoment = 0.0;       ///< integral of |Z|^2 over the region, about the centroid

  /// x(s), x'(s), x''(s) (body frame).
  void eval(double s, Vec2& x, Vec2& d1, Vec2& d2) const;
  Vec2 point(double s) const;
};

/// Builds the curve, its centroid shift, area and polar moment; checks that a star has r > 0 and is
/// star-shaped about its centroid (the branch point of the stream function, (FB-19)). Throws
/// ConfigurationError naming the kind and the defect.
SmoothCurve circleCurve(double radius);
SmoothCurve ellipseCurve(double a, double b);
SmoothCurve starCurve(double radius, const std::vector<double>& cosCoeffs, const std::vector<double>& sinCoeffs);

/// Throws ConfigurationError "body shape '<kind>': <key> must be positive and finite, got <v>"
/// unless v > 0 and finite (the smooth curves' and the polygons' dimensions).
void requirePositive(const std::string& kind, const std::string& key, double v);

}  // namespace kirchhoff::fluid
