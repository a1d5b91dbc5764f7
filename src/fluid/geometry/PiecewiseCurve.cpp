// Piecewise-smooth curves (docs/fluidbody.md (FB-40)): evaluation of segments and arcs, the stadium's
// exact area and polar moment, polygons from their vertices.
#include "fluid/geometry/PiecewiseCurve.hpp"

#include <algorithm>
#include <cmath>

#include "core/Constants.hpp"
#include "core/Error.hpp"

namespace kirchhoff::fluid {

void CurvePiece::eval(double t, Vec2& x, Vec2& d1, Vec2& d2) const {
  if (smooth) {
    const double ds = s1 - s0;
    smooth->eval(s0 + t * ds, x, d1, d2);
    d1 *= ds, d2 *= ds * ds;
    return;
  }
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
  if (smooth) {
    x = smooth->point(s1 - s * (s1 - s0));
  } else if (!arc) {
    x = b + s * (a - b);
  } else {
    const double th = theta1 - s * (theta1 - theta0);
    x = centre + radius * Vec2(std::cos(th), std::sin(th));
  }
}

double CurvePiece::length() const {
  if (smooth) return smoothLength;
  return arc ? radius * std::abs(theta1 - theta0) : (b - a).norm();
}

namespace {
/// Arc length of the stretch [s0, s1] (composite 8-point Gauss-Legendre on 32 intervals).
double stretchLength(const SmoothCurve& c, double s0, double s1) {
  static const double x[4] = {0.1834346424956498, 0.5255324099163290, 0.7966664774136267, 0.9602898564975363};
  static const double w[4] = {0.3626837833783620, 0.3137066458778873, 0.2223810344533745, 0.1012285362903763};
  const int m = 32;
  const double h = (s1 - s0) / m;
  double L = 0.0;
  for (int i = 0; i < m; ++i)
    for (int k = 0; k < 4; ++k)
      for (double sg : {-1.0, 1.0}) {
        Vec2 p, d1, d2;
        c.eval(s0 + h * (i + 0.5 + 0.5 * sg * x[k]), p, d1, d2);
        L += 0.5 * h * w[k] * d1.norm();
      }
  return L;
}

CurvePiece splitAt(const CurvePiece& c, double t, bool second) {
  CurvePiece p = c;
  if (c.smooth) {
    const double s = c.s0 + t * (c.s1 - c.s0);
    (second ? p.s0 : p.s1) = s;
    p.smoothLength = stretchLength(*c.smooth, p.s0, p.s1);
  } else if (c.arc) {
    const double th = c.theta0 + t * (c.theta1 - c.theta0);
    (second ? p.theta0 : p.theta1) = th;
  } else {
    const Vec2 m = c.a + t * (c.b - c.a);
    (second ? p.a : p.b) = m;
  }
  return p;
}
}  // namespace

PiecewiseCurve smoothPieces(const SmoothCurve& c, std::vector<double> breaks) {
  if (breaks.empty()) throw ConfigurationError("smoothPieces: at least one break");
  constexpr double kTwoPi = 2.0 * 3.14159265358979323846264338327950288;
  for (double& b : breaks) b -= kTwoPi * std::floor(b / kTwoPi);
  std::sort(breaks.begin(), breaks.end());
  breaks.erase(std::unique(breaks.begin(), breaks.end()), breaks.end());
  PiecewiseCurve out;
  out.kind = "smooth";
  out.area = c.area, out.polarMoment = c.polarMoment;
  const auto shared = std::make_shared<const SmoothCurve>(c);
  for (std::size_t i = 0; i < breaks.size(); ++i) {
    CurvePiece p;
    p.smooth = shared;
    p.s0 = breaks[i];
    p.s1 = i + 1 < breaks.size() ? breaks[i + 1] : breaks[0] + kTwoPi;
    p.smoothLength = stretchLength(c, p.s0, p.s1);
    out.pieces.push_back(p);
  }
  return out;
}

PiecewiseCurve splitPieces(const PiecewiseCurve& c, std::vector<std::pair<int, double>> at) {
  std::sort(at.begin(), at.end());
  at.erase(std::unique(at.begin(), at.end()), at.end());
  PiecewiseCurve out = c;
  out.pieces.clear();
  std::size_t i = 0;
  for (int k = 0; k < static_cast<int>(c.pieces.size()); ++k) {
    CurvePiece rest = c.pieces[k];
    double done = 0.0;  // the part of piece k already emitted, in its t
    for (; i < at.size() && at[i].first == k; ++i) {
      const double t = (at[i].second - done) / (1.0 - done);
      if (!(t > 0.0 && t < 1.0)) continue;
      out.pieces.push_back(splitAt(rest, t, false));
      rest = splitAt(rest, t, true);
      done = at[i].second;
    }
    out.pieces.push_back(rest);
  }
  return out;
}

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
