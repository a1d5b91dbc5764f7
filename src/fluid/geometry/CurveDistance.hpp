// Nearest points of piecewise-smooth closed curves (docs/fluidbody.md (FB-64)): a point to a curve and
// two placed curves to each other, the points the panels of a close pair are graded toward.
#pragma once

#include "fluid/geometry/PiecewiseCurve.hpp"
#include "lie/SE2.hpp"

namespace kirchhoff::fluid {

/// A point of a curve: piece k at t in [0, 1] (body frame x), and a distance.
struct CurvePoint {
  int piece = 0;
  double t = 0.0;
  Vec2 x = Vec2::Zero();
  double distance = 0.0;
};

/// The point of curve c (body frame) nearest to the body-frame point Z: samples, then Newton on the piece.
CurvePoint nearestPoint(const PiecewiseCurve& c, const Vec2& Z);

/// The closest points of curve a at pose ga and curve b at pose gb (distance >= 0: overlap is not
/// detected here): the closest sample pair, then damped Newton on both parameters.
void closestPoints(const PiecewiseCurve& a, const lie::Pose& ga, const PiecewiseCurve& b, const lie::Pose& gb,
                   CurvePoint& pa, CurvePoint& pb);

}  // namespace kirchhoff::fluid
