// A piecewise-smooth closed curve of straight and circular pieces, docs/fluidbody.md (FB-40): the
// stadium plate and polygons; every junction (corner or curvature jump) is graded by the panels.
#pragma once

#include <string>
#include <vector>

#include "fluid/geometry/Polygon.hpp"

namespace kirchhoff::fluid {

/// x(t), t in [0, 1]: a segment from a to b, or the arc centre + radius e^{i theta}, theta from theta0
/// to theta1 (counter-clockwise for theta1 > theta0).
struct CurvePiece {
  bool arc = false;
  Vec2 a = Vec2::Zero(), b = Vec2::Zero();
  Vec2 centre = Vec2::Zero();
  double radius = 0.0, theta0 = 0.0, theta1 = 0.0;
  void eval(double t, Vec2& x, Vec2& d1, Vec2& d2) const;
  /// The same at t = s (fromEnd false) or t = 1 - s (fromEnd true), with x computed from the nearer
  /// end so that panels graded toward t = 1 keep their relative resolution; derivatives in t.
  void evalNear(double s, bool fromEnd, Vec2& x, Vec2& d1, Vec2& d2) const;
  double length() const;
};

/// Counter-clockwise, body frame at the centroid; piece k ends where piece k+1 starts, and every
/// junction is a corner or a curvature jump (graded).
struct PiecewiseCurve {
  std::string kind;  ///< "plate" | "polygon"
  std::vector<CurvePiece> pieces;
  double area = 0.0, polarMoment = 0.0;  ///< exact
};

/// Stadium of total length `length` along x and thickness `thickness`: two sides, two semicircular caps.
PiecewiseCurve stadiumCurve(double length, double thickness);
/// The polygon's edges (counter-clockwise, centred, as makePolygon leaves them).
PiecewiseCurve polygonCurve(const Polygon& p);

}  // namespace kirchhoff::fluid
