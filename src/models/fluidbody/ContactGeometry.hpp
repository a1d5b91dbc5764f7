// The gap phi between two bodies and its gradient over the configuration q (docs/fluidbody.md (FB-80),
// (FB-81)): circles exactly, analytic curves by Newton on the two curve parameters, outlines by segments.
#pragma once

#include <limits>
#include <optional>
#include <vector>

#include <Eigen/Dense>

#include "fluid/geometry/PiecewiseCurve.hpp"
#include "fluid/geometry/Polygon.hpp"
#include "fluid/geometry/SmoothCurve.hpp"
#include "lie/SE2.hpp"

namespace kirchhoff::fluidbody {

/// What the contact law sees of one body: the analytic curve the fluid sees (Nystrom bodies), else the
/// polygon outline (panel and Gauss-panel bodies: the panel polygon, or the outline of a plate).
struct ContactShape {
  fluid::Polygon outline;                   ///< body frame, counter-clockwise
  std::optional<fluid::SmoothCurve> curve;  ///< the analytic boundary, if the contact uses it
  std::optional<fluid::PiecewiseCurve> pieces;  ///< the curve as one piece (the nearest-point search's form)
  double radius = 0.0;                      ///< max |Z| over the boundary (sampled; exact for circles and outlines)
  double reach = 0.0;                       ///< radius with a margin for what the samples miss: a pruning bound

  ContactShape(fluid::Polygon outline, std::optional<fluid::SmoothCurve> curve);
  /// The body size: the diameter of the smallest disk about the body origin that holds it.
  double size() const { return 2.0 * radius; }
  bool contains(const lie::Pose& g, const lie::Vec2& z) const;
};

/// phi of one pair (FB-80): the distance between the two boundaries, their nearest points' midpoint c
/// and the unit normal n from body a to body b; `overlap` if the bodies intersect (phi is then not defined).
struct PairGap {
  int a = -1, b = -1;
  double gap = std::numeric_limits<double>::infinity();
  bool overlap = false;
  lie::Vec2 point = lie::Vec2::Zero();
  lie::Vec2 normal = lie::Vec2::UnitX();

  /// The gap as an ordered value: -infinity for an overlap.
  double signedGap() const { return overlap ? -std::numeric_limits<double>::infinity() : gap; }
};

PairGap pairGap(const ContactShape& A, const lie::Pose& ga, const ContactShape& B, const lie::Pose& gb);

/// Adds grad phi (FB-81) of the pair to `out` (layout of the configuration q: (theta_j, y_j) per body, then
/// the vortices, which phi does not depend on). Built so that the momentum maps (FB-27) of grad phi vanish.
void addGapGradient(const PairGap& g, const lie::Pose& ga, const lie::Pose& gb, Eigen::VectorXd& out);

/// The contact shapes of all bodies: the pairs closer than a distance and the smallest gap.
class ContactGeometry {
 public:
  explicit ContactGeometry(std::vector<ContactShape> shapes) : shapes_(std::move(shapes)) {}
  int size() const { return static_cast<int>(shapes_.size()); }
  const ContactShape& shape(int j) const { return shapes_[static_cast<std::size_t>(j)]; }
  PairGap gap(const std::vector<lie::Pose>& poses, int a, int b) const;
  /// Every pair whose gap is below `distance` (overlaps included), in the order (a, b), a < b.
  std::vector<PairGap> gapsBelow(const std::vector<lie::Pose>& poses, double distance) const;
  /// The pair of smallest gap (an overlapping pair first); gap = infinity with fewer than two bodies.
  PairGap smallest(const std::vector<lie::Pose>& poses) const;
  /// 1e-3 of the smallest body size: the default contact distance.
  double defaultDistance() const;

 private:
  /// The lower bound |y_a - y_b| - reach_a - reach_b of the pair's gap.
  double bound(const std::vector<lie::Pose>& poses, int a, int b) const;
  std::vector<ContactShape> shapes_;
};

}  // namespace kirchhoff::fluidbody
