// Polygon geometry (fluidbody.md "Conventions"): exact area, centroid and polar moment of a
// simple polygon by the shoelace sums, the simplicity and star-shape checks, point location.
#include "fluid/geometry/Polygon.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/Error.hpp"

namespace kirchhoff::fluid {

using lie::cross;

double signedArea(const std::vector<Vec2>& v) {
  double a = 0.0;
  const int n = static_cast<int>(v.size());
  for (int k = 0; k < n; ++k) a += cross(v[k], v[(k + 1) % n]);
  return 0.5 * a;
}

Vec2 centroid(const std::vector<Vec2>& v) {
  // c = (1 / 6A) sum (P_k + P_k+1) (P_k x P_k+1), computed about the first vertex for accuracy.
  const int n = static_cast<int>(v.size());
  const Vec2 o = v[0];
  Vec2 c = Vec2::Zero();
  double a2 = 0.0;
  for (int k = 0; k < n; ++k) {
    const Vec2 p = v[k] - o, q = v[(k + 1) % n] - o;
    const double w = cross(p, q);
    a2 += w;
    c += w * (p + q);
  }
  return o + c / (3.0 * a2);
}

double polarMomentAboutOrigin(const std::vector<Vec2>& v) {
  // J_0 = (1/12) sum (P_k x P_k+1)(|P_k|^2 + P_k.P_k+1 + |P_k+1|^2), signed like the area.
  const int n = static_cast<int>(v.size());
  double j = 0.0;
  for (int k = 0; k < n; ++k) {
    const Vec2& p = v[k];
    const Vec2& q = v[(k + 1) % n];
    j += cross(p, q) * (p.squaredNorm() + p.dot(q) + q.squaredNorm());
  }
  return j / 12.0;
}

namespace {

int orientation(const Vec2& a, const Vec2& b, const Vec2& c) {
  const double o = cross(b - a, c - a);
  return (o > 0.0) - (o < 0.0);
}

bool onSegment(const Vec2& a, const Vec2& b, const Vec2& p) {
  return std::min(a.x(), b.x()) <= p.x() && p.x() <= std::max(a.x(), b.x()) &&
         std::min(a.y(), b.y()) <= p.y() && p.y() <= std::max(a.y(), b.y());
}

}  // namespace

bool segmentsIntersect(const Vec2& a, const Vec2& b, const Vec2& c, const Vec2& d) {
  const int o1 = orientation(a, b, c), o2 = orientation(a, b, d);
  const int o3 = orientation(c, d, a), o4 = orientation(c, d, b);
  if (o1 != o2 && o3 != o4) return true;
  return (o1 == 0 && onSegment(a, b, c)) || (o2 == 0 && onSegment(a, b, d)) ||
         (o3 == 0 && onSegment(c, d, a)) || (o4 == 0 && onSegment(c, d, b));
}

std::string simplePolygonDefect(const std::vector<Vec2>& v) {
  const int n = static_cast<int>(v.size());
  std::ostringstream os;
  if (n < 3) {
    os << "has " << n << " vertices (at least 3 needed)";
    return os.str();
  }
  for (int k = 0; k < n; ++k)
    if (!std::isfinite(v[k].x()) || !std::isfinite(v[k].y())) {
      os << "vertex " << k << " is not finite";
      return os.str();
    }
  // Areas and moments of inertia are products of up to four coordinates (and a density): past
  // this size they overflow, and the crossing tests below would see NaN, not geometry.
  constexpr double kMaxCoordinate = 1e50;
  for (int k = 0; k < n; ++k)
    if (std::max(std::abs(v[k].x()), std::abs(v[k].y())) > kMaxCoordinate) {
      os << "vertex " << k << " (" << v[k].x() << ", " << v[k].y() << ") is farther than " << kMaxCoordinate
         << " from the origin: areas and moments of inertia (4th powers of lengths) would overflow; "
            "rescale the problem";
      return os.str();
    }
  for (int k = 0; k < n; ++k)
    if ((v[k] - v[(k + 1) % n]).norm() == 0.0) {
      os << "vertices " << k << " and " << (k + 1) % n << " coincide";
      return os.str();
    }
  for (int i = 0; i < n; ++i) {
    const Vec2 &a = v[i], &b = v[(i + 1) % n];
    for (int j = i + 1; j < n; ++j) {
      const Vec2 &c = v[j], &d = v[(j + 1) % n];
      const bool next = j == i + 1, prev = (j + 1) % n == i;
      if (next || prev) {
        // Neighbours share one vertex; they must not fold back onto each other.
        const Vec2& shared = next ? b : a;
        const Vec2& p = next ? a : b;
        const Vec2& q = next ? d : c;
        if (orientation(p, shared, q) == 0 && (p - shared).dot(q - shared) > 0.0) {
          os << "edges " << i << " and " << j << " fold back onto each other";
          return os.str();
        }
        continue;
      }
      if (segmentsIntersect(a, b, c, d)) {
        os << "is self-intersecting: edges " << i << " and " << j << " cross";
        return os.str();
      }
    }
  }
  if (signedArea(v) == 0.0) return "has zero area";
  return "";
}

Polygon makePolygon(std::vector<Vec2> v, const std::string& name, bool smooth) {
  const std::string defect = simplePolygonDefect(v);
  if (!defect.empty()) throw ConfigurationError("body shape '" + name + "': the polygon " + defect);
  if (signedArea(v) < 0.0) std::reverse(v.begin(), v.end());
  const Vec2 c = centroid(v);
  for (auto& p : v) p -= c;
  const int n = static_cast<int>(v.size());
  for (int k = 0; k < n; ++k)
    if (cross(v[k], v[(k + 1) % n]) <= 0.0) {
      std::ostringstream os;
      os << "body shape '" << name << "': the polygon is not star-shaped about its centroid (edge "
         << k << " is not seen from it); the single-valued stream function needs a star-shaped body";
      throw ConfigurationError(os.str());
    }
  Polygon p;
  p.name = name;
  p.vertices = std::move(v);
  p.area = signedArea(p.vertices);
  p.polarMoment = polarMomentAboutOrigin(p.vertices);
  p.smooth = smooth;
  return p;
}

bool contains(const Polygon& p, const Vec2& Z) {
  // Crossing number; points on the boundary count as inside.
  const int n = p.size();
  bool in = false;
  for (int k = 0; k < n; ++k) {
    const Vec2& a = p.vertices[k];
    const Vec2& b = p.vertices[(k + 1) % n];
    if (orientation(a, b, Z) == 0 && onSegment(a, b, Z)) return true;
    if ((a.y() > Z.y()) != (b.y() > Z.y())) {
      const double x = a.x() + (Z.y() - a.y()) * (b.x() - a.x()) / (b.y() - a.y());
      if (Z.x() < x) in = !in;
    }
  }
  return in;
}

double longestEdge(const Polygon& p) {
  double h = 0.0;
  for (int k = 0; k < p.size(); ++k) h = std::max(h, (p.vertices[(k + 1) % p.size()] - p.vertices[k]).norm());
  return h;
}

double boundaryDistance(const Polygon& p, const Vec2& Z, int* nearestEdge) {
  const int n = p.size();
  double best = INFINITY;
  int arg = 0;
  for (int k = 0; k < n; ++k) {
    const Vec2& a = p.vertices[k];
    const Vec2 d = p.vertices[(k + 1) % n] - a;
    const double s = std::clamp((Z - a).dot(d) / d.squaredNorm(), 0.0, 1.0);
    const double r = (Z - a - s * d).norm();
    if (r < best) {
      best = r;
      arg = k;
    }
  }
  if (nearestEdge) *nearestEdge = arg;
  return best;
}

}  // namespace kirchhoff::fluid
