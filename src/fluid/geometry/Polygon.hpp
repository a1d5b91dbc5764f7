// A rigid body's boundary as a simple polygon in its body frame (fluidbody.md "Conventions":
// counter-clockwise, origin at the centroid) with its exact area and polar moment per unit density.
#pragma once

#include <string>
#include <vector>

#include "lie/SE2.hpp"

namespace kirchhoff::fluid {

using lie::Vec2;

/// A body outline. Built by makePolygon (or the shapes in Shapes.hpp), never by hand: the
/// vertices are then counter-clockwise and centred, area and polar moment are exact.
struct Polygon {
  std::string name;             ///< "circle", "ellipse", "plate", "polygon": used in messages
  std::vector<Vec2> vertices;   ///< body frame, counter-clockwise, centroid at the origin
  double area = 0.0;            ///< exact polygon area
  double polarMoment = 0.0;     ///< exact integral of |Z|^2 over the polygon (about the centroid)
  bool smooth = false;          ///< vertices sample a smooth curve: the flux correction applies
  /// Closed-form added mass (rotation, V1, V2) of the smooth shape, if known (circle, ellipse).
  bool hasExactAddedMass = false;
  double exactAddedMass[3] = {0.0, 0.0, 0.0};

  int size() const { return static_cast<int>(vertices.size()); }
  /// Mass-inertia tensor diag(i, m, m) for density `rho` (fluidbody.md: M_j = diag(i_j, m_j, m_j)).
  double mass(double rho) const { return rho * area; }
  double inertia(double rho) const { return rho * polarMoment; }
};

/// Signed area 1/2 sum P_k x P_k+1 (positive for counter-clockwise).
double signedArea(const std::vector<Vec2>& v);
/// Centroid of the polygon region.
Vec2 centroid(const std::vector<Vec2>& v);
/// Integral of |Z|^2 over the polygon region, about the origin.
double polarMomentAboutOrigin(const std::vector<Vec2>& v);

/// Empty if `v` is a simple polygon (at least 3 distinct vertices, no two edges meeting except
/// neighbours at their shared vertex, non-zero area), else a description of the first defect.
std::string simplePolygonDefect(const std::vector<Vec2>& v);

/// Makes a Polygon from any vertex list: checks it is simple, orders it counter-clockwise,
/// moves the origin to the centroid and requires the polygon to be star-shaped about it (the
/// single-valued stream function needs it, fluidbody.md "Panel method"). Throws
/// ConfigurationError naming `name` on failure.
Polygon makePolygon(std::vector<Vec2> v, const std::string& name = "polygon", bool smooth = false);

/// True if the body-frame point Z lies inside (or on) the polygon.
bool contains(const Polygon& p, const Vec2& Z);
/// Distance from the body-frame point Z to the polygon boundary, and the index of the nearest edge.
double boundaryDistance(const Polygon& p, const Vec2& Z, int* nearestEdge = nullptr);
/// The longest edge (the panel length of the panel discretization's stops).
double longestEdge(const Polygon& p);
/// True if segments [a, b] and [c, d] intersect (touching counts).
bool segmentsIntersect(const Vec2& a, const Vec2& b, const Vec2& c, const Vec2& d);

}  // namespace kirchhoff::fluid
