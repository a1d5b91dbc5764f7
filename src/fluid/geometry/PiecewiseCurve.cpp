// Piecewise-smooth curves (docs/fluidbody.md (FB-40)): evaluation of segments and arcs, the stadium's
// exact area and polar moment, polygons from their vertices.
#include "fluid/geometry/PiecewiseCurve.hpp"

#include <cmath>

#include "core/Constants.hpp"
#include "core/Error.hpp"

namespace kirchhoff::fluid {

void CurvePiece::eval(double t, Vec2& x, Vec2& d1, Vec2& d2) const {
  if (!arc) {
    x = a + t * (b - a);
    d1 = b - a;
    d2 = Vec2::Zero();
    return;
  }
  const double dth = theta1 - theta0, th = theta0 + t * dth;
  const Vec2 e(std::cos(th), std::sin(th)), n(-std::sin(th), std::cos(th));
  x = centre + radius * e;
  d1 = radius * dth * n;
  d2 = -radius * dth * dth * e;
}

void CurvePiece::evalNear(double s, bool fromEnd, Vec2& x, Vec2& d1, Vec2& d2) const {
  eval(fromEnd ? 1.0 - s : s, x, d1, d2);
  if (!fromEnd) return;
  if (!arc) {
    x = b + s * (a - b);
  } else {
    const double th = theta1 - s * (theta1 - theta0);
    x = centre + radius * Vec2(std::cos(th), std::sin(th));
  }
}

double CurvePiece::length() const { return arc ? radius * std::abs(theta1 - theta0) : (b - a).norm(); }

PiecewiseCurve stadiumCurve(double length, double thickness) {
  if (!(length > 0.0) || !(thickness > 0.0) || !(thickness < length))
    throw ConfigurationError("body shape 'plate': need 0 < thickness < length");
  const double r = 0.5 * thickness, s = length - thickness;
  PiecewiseCurve c;
  c.kind = "plate";
  CurvePiece bottom, right, top, left;
  bottom.a = Vec2(-0.5 * s, -r), bottom.b = Vec2(0.5 * s, -r);
  right.arc = true, right.centre = Vec2(0.5 * s, 0.0), right.radius = r, right.theta0 = -0.5 * kPi,
  right.theta1 = 0.5 * kPi;
  top.a = Vec2(0.5 * s, r), top.b = Vec2(-0.5 * s, r);
  left.arc = true, left.centre = Vec2(-0.5 * s, 0.0), left.radius = r, left.theta0 = 0.5 * kPi,
  left.theta1 = 1.5 * kPi;
  c.pieces = {bottom, right, top, left};
  // Rectangle s x 2r plus two half disks; a half disk about the origin (centre at +-s/2):
  // pi r^4 / 4 + s (2 r^3 / 3) + (s^2 / 4) (pi r^2 / 2).
  c.area = 2.0 * r * s + kPi * r * r;
  const double rect = 2.0 * r * s * (s * s + 4.0 * r * r) / 12.0;
  const double half = kPi * r * r * r * r / 4.0 + s * 2.0 * r * r * r / 3.0 + 0.25 * s * s * 0.5 * kPi * r * r;
  c.polarMoment = rect + 2.0 * half;
  return c;
}

PiecewiseCurve polygonCurve(const Polygon& p) {
  PiecewiseCurve c;
  c.kind = "polygon";
  const int n = p.size();
  for (int k = 0; k < n; ++k) {
    CurvePiece e;
    e.a = p.vertices[k];
    e.b = p.vertices[(k + 1) % n];
    c.pieces.push_back(e);
  }
  c.area = p.area;
  c.polarMoment = p.polarMoment;
  return c;
}

}  // namespace kirchhoff::fluid
