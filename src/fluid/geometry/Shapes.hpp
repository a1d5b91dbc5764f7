// Body shapes for fluidbody (docs/fluidbody.md "Panel method"): circle, ellipse, plate
// (stadium) and arbitrary simple polygons, with the closed-form added mass where it is known.
#pragma once

#include <string>
#include <vector>

#include "core/Choices.hpp"
#include "fluid/geometry/Polygon.hpp"
#include "fluid/geometry/SmoothCurve.hpp"

namespace kirchhoff::fluid {

/// How a smooth curve is sampled by a polygon with N edges, at parameter angles 2 pi k / N:
///  Tangent:   every edge is tangent to the curve at its midpoint (vertices at parameter angles
///             2 pi (k + 1/2) / N, scaled by 1 / cos(pi / N)): the collocation points and their
///             normals are exactly those of the smooth body. Default: it measured 3-10x smaller
///             errors in the circle-theorem quantities than Inscribed.
///  Inscribed: vertices on the curve (edge midpoints fall inside it by ~ pi^2 R / (2 N^2)).
enum class CurveSampling { Tangent, Inscribed };

/// Regular polygon approximating the circle of radius `radius`.
/// Closed-form added mass A = diag(0, pi R^2, pi R^2) (fluidbody.md "Analytic checks").
Polygon circle(double radius, int edges, CurveSampling sampling = CurveSampling::Tangent);

/// Polygon approximating the ellipse with semi-axis a along body x and b along body y, sampled
/// at parameter angles (so edges cluster at the tips of a thin ellipse); the tangent sampling is
/// the affine image of the circle's, so its edge midpoints lie on the ellipse and touch it.
/// Closed form A = diag(pi (a^2 - b^2)^2 / 8, pi b^2, pi a^2).
Polygon ellipse(double a, double b, int edges, CurveSampling sampling = CurveSampling::Tangent);

/// Thin plate: a stadium of total length `length` along body x and thickness `thickness` (two
/// straight sides joined by semicircular caps of radius thickness/2; C1-smooth, so the flux
/// correction applies). Each cap gets max(4, round(edges * cap arc / perimeter)) edges, the
/// sides share the rest equally; `edges` must be even and at least 12.
Polygon plate(double length, double thickness, int edges);

/// Any simple polygon (vertex list in either orientation); re-ordered counter-clockwise and
/// centred. `smooth` = true only if the vertices sample a smooth curve (no true corners).
Polygon polygon(const std::vector<Vec2>& vertices, bool smooth = false);

/// The polygon through N points x(2 pi k / N) of a smooth curve, in the curve's body frame (origin at
/// the curve's centroid, not the polygon's), with the curve's exact area and polar moment: the outline
/// of a Nystrom body (masks, distance checks, snapshots). Closed-form added mass copied for circles
/// and ellipses.
Polygon curveOutline(const SmoothCurve& curve, int edges);

/// The deck names of the samplings (shape.sampling): "tangent", "inscribed".
const Choices<CurveSampling>& curveSamplings();

}  // namespace kirchhoff::fluid
