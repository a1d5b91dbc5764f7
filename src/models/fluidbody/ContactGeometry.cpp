// The gap phi of a body pair and its gradient (docs/fluidbody.md (FB-80), (FB-81)): the exact distance
// of two circles, Newton on the parameters (s, t) of two analytic curves from the closest of a coarse
// sampling, and the vertex-edge distances of two polygon outlines.
#include "models/fluidbody/ContactGeometry.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "fluid/geometry/CurveDistance.hpp"

namespace kirchhoff::fluidbody {

using lie::Vec2;

namespace {

constexpr double kTwoPi = 6.283185307179586476925286766559;
/// Samples of a curve for its reach and the overlap test.
constexpr int kCoarseSamples = 96;

PairGap fromNearestPoints(const Vec2& za, const Vec2& zb) {
  PairGap p;
  const Vec2 d = zb - za;
  p.gap = d.norm();
  p.point = 0.5 * (za + zb);
  if (p.gap > 0.0) p.normal = d / p.gap;
  return p;
}

PairGap circles(const fluid::SmoothCurve& A, const lie::Pose& ga, const fluid::SmoothCurve& B, const lie::Pose& gb) {
  // The circle's centre is its curve frame's origin, -shift in the body frame.
  const Vec2 ca = ga.apply(-A.shift), cb = gb.apply(-B.shift);
  const Vec2 d = cb - ca;
  const double r = d.norm();
  PairGap p;
  p.normal = r > 0.0 ? Vec2(d / r) : Vec2::UnitX();
  p.gap = r - A.radius - B.radius;
  p.point = 0.5 * ((ca + A.radius * p.normal) + (cb - B.radius * p.normal));
  p.overlap = !(p.gap > 0.0);
  return p;
}

/// The nearest points of two analytic curves (fluid::closestPoints: the closest pair of a sampling, then
/// damped Newton on the two curve parameters, the search the fluid's refinement uses).
PairGap curves(const ContactShape& A, const lie::Pose& ga, const ContactShape& B, const lie::Pose& gb) {
  fluid::CurvePoint pa, pb;
  fluid::closestPoints(*A.pieces, ga, *B.pieces, gb, pa, pb);
  return fromNearestPoints(ga.apply(pa.x), gb.apply(pb.x));
}

/// Vertex-edge distances of two polygons (spatial vertices); the nearest vertex and its foot.
PairGap polygons(const std::vector<Vec2>& va, const std::vector<Vec2>& vb) {
  PairGap best;
  auto sweep = [&best](const std::vector<Vec2>& from, const std::vector<Vec2>& to, bool swapped) {
    const std::size_t n = to.size();
    for (const Vec2& z : from)
      for (std::size_t k = 0; k < n; ++k) {
        const Vec2& e0 = to[k];
        const Vec2 e = to[(k + 1) % n] - e0;
        const double u = std::clamp((z - e0).dot(e) / e.squaredNorm(), 0.0, 1.0);
        const Vec2 foot = e0 + u * e;
        const double d = (z - foot).norm();
        if (d < best.gap) best = swapped ? fromNearestPoints(foot, z) : fromNearestPoints(z, foot);
      }
  };
  sweep(va, vb, false);
  sweep(vb, va, true);
  return best;
}

double longestEdge(const std::vector<Vec2>& v) {
  double l = 0.0;
  for (std::size_t k = 0; k < v.size(); ++k) l = std::max(l, (v[(k + 1) % v.size()] - v[k]).norm());
  return l;
}

bool edgesCross(const std::vector<Vec2>& va, const std::vector<Vec2>& vb) {
  for (std::size_t i = 0; i < va.size(); ++i)
    for (std::size_t j = 0; j < vb.size(); ++j)
      if (fluid::segmentsIntersect(va[i], va[(i + 1) % va.size()], vb[j], vb[(j + 1) % vb.size()])) return true;
  return false;
}

std::vector<Vec2> spatial(const fluid::Polygon& p, const lie::Pose& g) {
  std::vector<Vec2> v;
  for (const auto& Z : p.vertices) v.push_back(g.apply(Z));
  return v;
}

/// True if a sample of one curve lies inside the other body (an overlap the nearest points can miss).
bool samplesInside(const ContactShape& A, const lie::Pose& ga, const ContactShape& B, const lie::Pose& gb) {
  for (int i = 0; i < kCoarseSamples; ++i) {
    const double s = kTwoPi * i / kCoarseSamples;
    if (B.contains(gb, ga.apply(A.curve->point(s))) || A.contains(ga, gb.apply(B.curve->point(s)))) return true;
  }
  return false;
}

}  // namespace

ContactShape::ContactShape(fluid::Polygon o, std::optional<fluid::SmoothCurve> c)
    : outline(std::move(o)), curve(std::move(c)) {
  for (const auto& Z : outline.vertices) radius = std::max(radius, Z.norm());
  reach = radius;
  if (curve) {
    pieces = fluid::smoothPieces(*curve, {0.0});
    for (int i = 0; i < 8 * kCoarseSamples; ++i)
      radius = std::max(radius, curve->point(kTwoPi * i / (8 * kCoarseSamples)).norm());
    reach = radius * (1.0 + 1e-3);  // the maximum between the samples
  }
}

bool ContactShape::contains(const lie::Pose& g, const Vec2& z) const {
  const Vec2 Z = g.applyInverse(z);
  if (!curve) return fluid::contains(outline, Z);
  const Vec2 W = Z + curve->shift;  // the curve's own frame
  if (curve->kind == "ellipse") return std::pow(W.x() / curve->a, 2) + std::pow(W.y() / curve->b, 2) < 1.0;
  // circle and star: r(s) with s the polar angle of W
  return W.norm() < (curve->point(std::atan2(W.y(), W.x())) + curve->shift).norm();
}

PairGap pairGap(const ContactShape& A, const lie::Pose& ga, const ContactShape& B, const lie::Pose& gb) {
  PairGap p;
  if (A.curve && B.curve && A.curve->kind == "circle" && B.curve->kind == "circle")
    return circles(*A.curve, ga, *B.curve, gb);
  if (A.curve && B.curve) {
    p = curves(A, ga, B, gb);
    const Vec2 za = p.point - 0.5 * p.gap * p.normal, zb = p.point + 0.5 * p.gap * p.normal;
    p.overlap = !(p.gap > 0.0) || B.contains(gb, za) || A.contains(ga, zb) || samplesInside(A, ga, B, gb);
    return p;
  }
  const auto va = spatial(A.outline, ga), vb = spatial(B.outline, gb);
  p = polygons(va, vb);
  // One body inside the other, or crossing edges (they come within an edge length of a vertex: only
  // then the quadratic test).
  p.overlap = !(p.gap > 0.0) || fluid::contains(B.outline, gb.applyInverse(va[0])) ||
              fluid::contains(A.outline, ga.applyInverse(vb[0])) ||
              (p.gap <= std::max(longestEdge(va), longestEdge(vb)) && edgesCross(va, vb));
  return p;
}

void addGapGradient(const PairGap& g, const lie::Pose& ga, const lie::Pose& gb, Eigen::VectorXd& out) {
  // (FB-81): one point c for both lever arms (c_b - c_a is parallel to n), so the sums of (FB-27) cancel.
  const int a = 3 * g.a, b = 3 * g.b;
  out[a] -= lie::cross(g.point - ga.y, g.normal);
  out.segment<2>(a + 1) -= g.normal;
  out[b] += lie::cross(g.point - gb.y, g.normal);
  out.segment<2>(b + 1) += g.normal;
}

double ContactGeometry::bound(const std::vector<lie::Pose>& poses, int a, int b) const {
  const double d = (poses[static_cast<std::size_t>(a)].y - poses[static_cast<std::size_t>(b)].y).norm();
  return d - shape(a).reach - shape(b).reach;
}

PairGap ContactGeometry::gap(const std::vector<lie::Pose>& poses, int a, int b) const {
  PairGap p = pairGap(shape(a), poses[static_cast<std::size_t>(a)], shape(b), poses[static_cast<std::size_t>(b)]);
  p.a = a;
  p.b = b;
  return p;
}

std::vector<PairGap> ContactGeometry::gapsBelow(const std::vector<lie::Pose>& poses, double distance) const {
  std::vector<PairGap> out;
  for (int a = 0; a < size(); ++a)
    for (int b = a + 1; b < size(); ++b)
      if (bound(poses, a, b) < distance)
        if (PairGap p = gap(poses, a, b); p.overlap || p.gap < distance) out.push_back(p);
  return out;
}

PairGap ContactGeometry::smallest(const std::vector<lie::Pose>& poses) const {
  // Nearest bounding disks first: a pair whose bound exceeds the best gap so far cannot be closer.
  std::vector<std::pair<double, std::pair<int, int>>> pairs;
  for (int a = 0; a < size(); ++a)
    for (int b = a + 1; b < size(); ++b) pairs.push_back({bound(poses, a, b), {a, b}});
  std::sort(pairs.begin(), pairs.end());
  PairGap best;
  for (const auto& [lower, ab] : pairs) {
    if (lower >= best.gap) break;
    const PairGap p = gap(poses, ab.first, ab.second);
    if (p.overlap) return p;
    if (p.gap < best.gap) best = p;
  }
  return best;
}

double ContactGeometry::defaultDistance() const {
  double s = INFINITY;
  for (const auto& c : shapes_) s = std::min(s, c.size());
  return 1e-3 * s;
}

}  // namespace kirchhoff::fluidbody
