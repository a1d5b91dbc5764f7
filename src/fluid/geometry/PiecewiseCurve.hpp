// A piecewise-smooth closed curve of straight and circular pieces, docs/fluidbody.md (FB-40): the
// stadium plate and polygons; every junction (corner or curvature jump) is graded by the panels.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "fluid/geometry/Polygon.hpp"
#include "fluid/geometry/SmoothCurve.hpp"

namespace kirchhoff::fluid {

/// x(t), t in [0, 1]: a segment from a to b, the arc centre + radius e^{i theta}, theta from theta0
/// to theta1 (counter-clockwise for theta1 > theta0), or the stretch s in [s0, s1] of an analytic
/// smooth curve (a smooth body split at the points its panels are graded toward, docs/fluidbody.md (FB-64)).
struct CurvePiece {
  bool arc = false;
  Vec2 a = Vec2::Zero(), b = Vec2::Zero();
  Vec2 centre = Vec2::Zero();
  double radius = 0.0, theta0 = 0.0, theta1 = 0.0;
  std::shared_ptr<const SmoothCurve> smooth;  ///< set: the smooth stretch
  double s0 = 0.0, s1 = 0.0, smoothLength = 0.0;
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

/// The smooth curve as pieces between the parameters `breaks` (in [0, 2 pi), at least one; one break:
/// one piece from it once around), exact area and polar moment (kind "smooth").
PiecewiseCurve smoothPieces(const SmoothCurve& c, std::vector<double> breaks);
/// The curve with piece k split at t in (0, 1) for every (k, t) of `at` (each piece at most once per t).
PiecewiseCurve splitPieces(const PiecewiseCurve& c, std::vector<std::pair<int, double>> at);

}  // namespace kirchhoff::fluid
