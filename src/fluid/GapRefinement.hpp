// Refinement toward close neighbours (docs/fluidbody.md "Close gaps", (FB-64)-(FB-66)): which bodies leave
// their base discretization for graded Gauss-Legendre panels, the points and depth of the grading, and the
// discretization that results (mixed per body).
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "fluid/Fluid.hpp"
#include "fluid/discretization/GaussPanelDiscretization.hpp"
#include "fluid/discretization/PointSourceDiscretization.hpp"
#include "fluid/geometry/PiecewiseCurve.hpp"
#include "fluid/geometry/SmoothCurve.hpp"

namespace kirchhoff::fluid {

/// A point of body j's curve the panels are graded toward, quantized (FB-64): piece, t on the grid
/// 2^-grid, finest panel 2^-finest (in length units).
struct GradedPoint {
  int piece = 0;
  long tick = 0;   ///< t = tick 2^-grid
  int grid = 0;
  int finest = 0;  ///< end panel length 2^-finest
  bool operator==(const GradedPoint& o) const {
    return piece == o.piece && tick == o.tick && grid == o.grid && finest == o.finest;
  }
  bool operator<(const GradedPoint& o) const;
  double t() const { return std::ldexp(static_cast<double>(tick), -grid); }
};

/// Per body the graded points (empty: the base discretization).
using RefinementPlan = std::vector<std::vector<GradedPoint>>;

/// The shape of body j for refinement: an analytic smooth curve or a piecewise-smooth one.
struct RefinableShape {
  std::optional<SmoothCurve> smooth;
  PiecewiseCurve pieces;  ///< smooth: one piece, s from 0 to 2 pi
};
RefinableShape refinableShape(const SmoothCurve& c);
RefinableShape refinableShape(const PiecewiseCurve& c);

class GapRefinement {
 public:
  /// `base`: the discretization of the bodies (Nystrom or gauss_panels); `panels`: order, longest panel
  /// and corner levels of the graded bodies; `tolerance`: the relative accuracy held (FB-66).
  GapRefinement(std::shared_ptr<const PointSourceDiscretization> base, std::vector<RefinableShape> shapes,
                const GaussPanelOptions& panels, double tolerance);

  /// The plan for every configuration within `margin` of (poses, vortices); fills the closest pair,
  /// the closest vortex and refinedBodies of `res`. Throws NumericalError for a gap below kMinGap.
  /// `sharpening[j]` = s >= 0 halves body j's finest panels s times (FB-66: the step up where its estimate
  /// exceeds the tolerance); empty: none.
  RefinementPlan plan(const std::vector<lie::Pose>& poses, const Vortices& vortices, double margin,
                      Resolution& res, const std::vector<int>& sharpening = {}) const;
  /// The base itself when the plan refines nothing, else the mixed discretization; `sharpening[j]` halves
  /// the uniform panels of refined body j as often.
  std::shared_ptr<const Discretization> build(const RefinementPlan& plan, const std::vector<int>& sharpening = {}) const;
  /// Distance to a neighbour below which body j leaves its base discretization (FB-64).
  double switchDistance(int j) const { return switch_[static_cast<std::size_t>(j)]; }
  double tolerance() const { return tolerance_; }
  const GaussPanelOptions& panels(int j) const { return panels_[static_cast<std::size_t>(j)]; }
  /// Finest panel over a gap g: kFinestPerGap g (tol / 1e-8)^(1/p) for panels of order p (FB-64); the
  /// constant measured on two disks (tests/fluid/test_close_gaps.cpp: estimate <= 4e-11, error <= 3e-14
  /// at gaps 1e-1 .. 1e-3 of the radius).
  static constexpr double kFinestPerGap = 8.0;
  /// The same over a vortex at distance d, whose image density varies on the scale d itself (measured:
  /// estimate <= 1e-11, velocity error <= 1e-13 at d = 1e-1 .. 1e-3 of a unit disk's radius).
  static constexpr double kFinestPerDistance = 2.0;
  /// Uniform panels of a refined smooth body before grading: its perimeter over this.
  static constexpr double kPanelsPerPerimeter = 6.0;
  /// Sharpenings tried before a configuration whose estimate exceeds the tolerance stops the run: each
  /// halves every panel of the refined bodies (order-16 panels: ~2^-16 of the error, when resolved).
  static constexpr int kMaxSharpening = 3;
  /// The estimate's densities are solved to this fraction of the tolerance (iterative path; the solves' error
  /// then moves an estimate near the tolerance by about as much, relative: the stop is a Legendre tail, not a digit).
  static constexpr double kEstimateSolveFraction = 1e-2;
  /// Smallest gap (body-body, vortex-body) resolved, relative to the body's radius.
  static constexpr double kMinGap = 1e-5;

 private:
  /// The graded point at (piece, t) of body j with the finest panel at most `finest` long.
  GradedPoint graded(int j, int piece, double t, double finest) const;

  std::shared_ptr<const PointSourceDiscretization> base_;
  std::vector<RefinableShape> shapes_;
  std::vector<GaussPanelOptions> panels_;
  std::vector<double> switch_, radius_;
  double tolerance_, finestPerGap_ = kFinestPerGap, finestPerDistance_ = kFinestPerDistance;
};

}  // namespace kirchhoff::fluid
