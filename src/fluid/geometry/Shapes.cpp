// Body shapes (docs/fluidbody.md "Panel method" and "Analytic checks"): sampled circle, ellipse and
// stadium plate, arbitrary polygons; closed-form added mass of the circle and the ellipse.
#include "fluid/geometry/Shapes.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/Constants.hpp"
#include "core/Error.hpp"

namespace kirchhoff::fluid {

namespace {


void requireEdges(const std::string& kind, int edges, int minimum) {
  if (edges < minimum) {
    std::ostringstream os;
    os << "body shape '" << kind << "': edges must be at least " << minimum << ", got " << edges;
    throw ConfigurationError(os.str());
  }
}

/// Unit-circle sample points of the chosen sampling (see CurveSampling).
std::vector<Vec2> unitCircle(int edges, CurveSampling sampling) {
  const bool tangent = sampling == CurveSampling::Tangent;
  const double shift = tangent ? 0.5 : 0.0, scale = tangent ? 1.0 / std::cos(kPi / edges) : 1.0;
  std::vector<Vec2> v(edges);
  for (int k = 0; k < edges; ++k) {
    const double t = 2.0 * kPi * (k + shift) / edges;
    v[k] = scale * Vec2(std::cos(t), std::sin(t));
  }
  return v;
}

}  // namespace

Polygon circle(double radius, int edges, CurveSampling sampling) {
  requirePositive("circle", "radius", radius);
  requireEdges("circle", edges, 3);
  std::vector<Vec2> v = unitCircle(edges, sampling);
  for (auto& p : v) p *= radius;
  Polygon p = makePolygon(std::move(v), "circle", true);
  p.hasExactAddedMass = true;
  p.exactAddedMass[0] = 0.0;
  p.exactAddedMass[1] = p.exactAddedMass[2] = kPi * radius * radius;
  return p;
}

Polygon ellipse(double a, double b, int edges, CurveSampling sampling) {
  requirePositive("ellipse", "a", a);
  requirePositive("ellipse", "b", b);
  requireEdges("ellipse", edges, 3);
  std::vector<Vec2> v = unitCircle(edges, sampling);
  for (auto& p : v) p = Vec2(a * p.x(), b * p.y());
  Polygon p = makePolygon(std::move(v), "ellipse", true);
  p.hasExactAddedMass = true;
  const double d = a * a - b * b;
  p.exactAddedMass[0] = kPi * d * d / 8.0;
  p.exactAddedMass[1] = kPi * b * b;
  p.exactAddedMass[2] = kPi * a * a;
  return p;
}

Polygon plate(double length, double thickness, int edges) {
  requirePositive("plate", "length", length);
  requirePositive("plate", "thickness", thickness);
  if (thickness >= length) {
    std::ostringstream os;
    os << "body shape 'plate': thickness (" << thickness << ") must be smaller than length ("
       << length << ")";
    throw ConfigurationError(os.str());
  }
  requireEdges("plate", edges, 12);
  if (edges % 2 != 0) throw ConfigurationError("body shape 'plate': edges must be even");
  const double r = 0.5 * thickness, s = length - thickness;  // cap radius, straight length
  const double perimeter = 2.0 * s + 2.0 * kPi * r;
  int cap = std::max(4, static_cast<int>(std::lround(edges * kPi * r / perimeter)));
  int side = edges / 2 - cap;
  if (side < 1) {
    side = 1;
    cap = edges / 2 - 1;
  }
  std::vector<Vec2> v;
  v.reserve(edges);
  // Bottom side from left to right, right cap, top side from right to left, left cap.
  for (int k = 0; k < side; ++k) v.emplace_back(-0.5 * s + s * k / side, -r);
  for (int k = 0; k < cap; ++k) {
    const double t = -0.5 * kPi + kPi * k / cap;
    v.emplace_back(0.5 * s + r * std::cos(t), r * std::sin(t));
  }
  for (int k = 0; k < side; ++k) v.emplace_back(0.5 * s - s * k / side, r);
  for (int k = 0; k < cap; ++k) {
    const double t = 0.5 * kPi + kPi * k / cap;
    v.emplace_back(-0.5 * s + r * std::cos(t), r * std::sin(t));
  }
  return makePolygon(std::move(v), "plate", true);
}

Polygon polygon(const std::vector<Vec2>& vertices, bool smooth) {
  return makePolygon(vertices, "polygon", smooth);
}

Polygon curveOutline(const SmoothCurve& curve, int edges) {
  requireEdges(curve.kind, edges, 3);
  std::vector<Vec2> v(edges);
  for (int k = 0; k < edges; ++k) v[k] = curve.point(2.0 * kPi * k / edges);
  const Vec2 c = centroid(v);
  Polygon p = makePolygon(v, curve.kind, true);
  for (auto& x : p.vertices) x += c;  // back to the curve's frame
  p.area = curve.area;
  p.polarMoment = curve.polarMoment;
  if (curve.kind == "circle") {
    p.hasExactAddedMass = true;
    p.exactAddedMass[1] = p.exactAddedMass[2] = kPi * curve.radius * curve.radius;
  } else if (curve.kind == "ellipse") {
    p.hasExactAddedMass = true;
    const double d = curve.a * curve.a - curve.b * curve.b;
    p.exactAddedMass[0] = kPi * d * d / 8.0;
    p.exactAddedMass[1] = kPi * curve.b * curve.b;
    p.exactAddedMass[2] = kPi * curve.a * curve.a;
  }
  return p;
}

const Choices<CurveSampling>& curveSamplings() {
  static const Choices<CurveSampling> c("curve sampling",
                                        {{"tangent", CurveSampling::Tangent}, {"inscribed", CurveSampling::Inscribed}});
  return c;
}

}  // namespace kirchhoff::fluid
