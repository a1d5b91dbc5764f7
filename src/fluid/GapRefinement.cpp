// Refinement toward close neighbours (docs/fluidbody.md (FB-64)-(FB-66)): the closest points of every
// pair within the switch distance, graded points quantized so that the plan is a function of the
// configuration alone, and the mixed discretization of the plan.
#include "fluid/GapRefinement.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/Error.hpp"
#include "fluid/discretization/MixedDiscretization.hpp"
#include "fluid/geometry/CurveDistance.hpp"

namespace kirchhoff::fluid {

namespace {
constexpr double kTwoPiGap = 6.28318530717958647692528676655900577;
/// Nystrom: the trapezoidal error of a neighbour at distance d with spacing h is ~ exp(-2 pi d / h)
/// (FB-64); switching at h ln(1/tol) / (2 pi) times this margin (measured in tests/fluid/test_close_gaps.cpp).
constexpr double kNystromSafety = 1.5;
/// How often body j's refined panels are halved (FB-66); an empty list: never.
int halvings(const std::vector<int>& sharpening, int j) {
  return sharpening.empty() ? 0 : sharpening[static_cast<std::size_t>(j)];
}
}  // namespace

bool GradedPoint::operator<(const GradedPoint& o) const {
  if (piece != o.piece) return piece < o.piece;
  const double a = t(), b = o.t();
  if (a != b) return a < b;
  return finest > o.finest;  // the finer first: kept by unique
}

RefinableShape refinableShape(const SmoothCurve& c) {
  RefinableShape s;
  s.smooth = c;
  s.pieces = smoothPieces(c, {0.0});
  return s;
}

RefinableShape refinableShape(const PiecewiseCurve& c) {
  RefinableShape s;
  s.pieces = c;
  return s;
}

GapRefinement::GapRefinement(std::shared_ptr<const PointSourceDiscretization> base, std::vector<RefinableShape> shapes,
                             const GaussPanelOptions& panels, double tolerance)
    : base_(std::move(base)), shapes_(std::move(shapes)), tolerance_(tolerance) {
  if (!(tolerance_ >= 1e-14 && tolerance_ < 1.0))
    throw ConfigurationError("fluid.tolerance must be in [1e-14, 1), got " + std::to_string(tolerance_));
  const double scale = std::pow(tolerance_ / 1e-8, 1.0 / panels.order);
  finestPerGap_ = kFinestPerGap * scale;
  finestPerDistance_ = kFinestPerDistance * scale;
  const int n = base_->bodyCount();
  if (static_cast<int>(shapes_.size()) != n)
    throw ConfigurationError("gap refinement: " + std::to_string(shapes_.size()) + " shapes for " +
                             std::to_string(n) + " bodies");
  const bool nystrom = base_->name() == "nystrom";
  for (int j = 0; j < n; ++j) {
    const BodyNodes& b = base_->body(j);
    double perimeter = 0.0, widest = 0.0, panel = 0.0;
    for (int q = 0; q < b.size(); ++q) {
      perimeter += b.weight[q];
      widest = std::max(widest, b.weight[q]);
      panel += b.weight[q];
      if (!nystrom && (q + 1) % panels.order == 0) widest = std::max(widest, panel), panel = 0.0;
    }
    GaussPanelOptions o = panels;
    o.nearInteractions = true;
    if (shapes_[j].smooth) o.maxPanel = perimeter / kPanelsPerPerimeter;
    panels_.push_back(o);
    radius_.push_back(b.radius);
    // Nystrom: spacing h = the widest weight; gauss panels: the longest panel, whose order-p rule errs
    // by ~ rho^-2p for a neighbour at distance d ~ (rho - 1) L / 2.
    const double lnTol = std::log(1.0 / tolerance_);
    switch_.push_back(nystrom ? kNystromSafety * widest * lnTol / kTwoPiGap : widest * lnTol / panels.order);
  }
}

GradedPoint GapRefinement::graded(int j, int piece, double t, double finest) const {
  GradedPoint g;
  g.piece = piece;
  g.finest = static_cast<int>(std::ceil(-std::log2(finest)));
  const double L = shapes_[j].pieces.pieces[piece].length();
  g.grid = std::max(0, static_cast<int>(std::ceil(std::log2(8.0 * L * std::ldexp(1.0, g.finest)))));
  g.tick = std::llround(std::ldexp(t, g.grid));
  if (shapes_[j].smooth) g.tick %= 1L << g.grid;  // one periodic piece: t = 1 is t = 0
  return g;
}

RefinementPlan GapRefinement::plan(const std::vector<lie::Pose>& poses, const Vortices& vortices, double margin,
                                   Resolution& res, const std::vector<int>& sharpening) const {
  const int n = static_cast<int>(shapes_.size()), m = vortices.size();
  auto finestPerGap = [&](int j) { return std::ldexp(finestPerGap_, -halvings(sharpening, j)); };
  auto finestPerDistance = [&](int j) { return std::ldexp(finestPerDistance_, -halvings(sharpening, j)); };
  RefinementPlan plan(n);
  res = Resolution{};
  res.tolerance = tolerance_;
  auto tooClose = [&](const std::string& what, double d, double r) {
    if (d >= kMinGap * r) return;
    std::ostringstream os;
    os << what << " are " << d << " apart: below the smallest gap the fluid resolves (" << kMinGap
       << " of the body radius " << r << ")";
    throw NumericalError(os.str());
  };
  for (int j = 0; j < n; ++j)
    for (int k = j + 1; k < n; ++k) {
      const double bound = (poses[j].y - poses[k].y).norm() - radius_[j] - radius_[k];
      if (bound > std::max(switch_[j], switch_[k]) + 2.0 * margin) {
        if (bound < res.minGap) res.minGap = bound, res.gapBodies[0] = j, res.gapBodies[1] = k;
        continue;
      }
      CurvePoint a, b;
      closestPoints(shapes_[j].pieces, poses[j], shapes_[k].pieces, poses[k], a, b);
      if (a.distance < res.minGap) res.minGap = a.distance, res.gapBodies[0] = j, res.gapBodies[1] = k;
      tooClose("bodies " + std::to_string(j) + " and " + std::to_string(k), a.distance,
               std::min(radius_[j], radius_[k]));
      const double gap = std::max(a.distance - 2.0 * margin, 0.25 * a.distance);
      if (gap < switch_[j]) plan[j].push_back(graded(j, a.piece, a.t, finestPerGap(j) * gap));
      if (gap < switch_[k]) plan[k].push_back(graded(k, b.piece, b.t, finestPerGap(k) * gap));
    }
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      const double bound = (vortices.gamma[i] - poses[j].y).norm() - radius_[j];
      if (bound > switch_[j] + margin) {
        if (bound < res.minVortexDistance) res.minVortexDistance = bound, res.vortexBody[0] = i, res.vortexBody[1] = j;
        continue;
      }
      const CurvePoint p = nearestPoint(shapes_[j].pieces, poses[j].applyInverse(vortices.gamma[i]));
      if (p.distance < res.minVortexDistance)
        res.minVortexDistance = p.distance, res.vortexBody[0] = i, res.vortexBody[1] = j;
      tooClose("vortex " + std::to_string(i) + " and body " + std::to_string(j), p.distance, radius_[j]);
      const double d = std::max(p.distance - margin, 0.25 * p.distance);
      if (d < switch_[j]) plan[j].push_back(graded(j, p.piece, p.t, finestPerDistance(j) * d));
    }
  for (auto& points : plan) {
    std::sort(points.begin(), points.end());
    points.erase(std::unique(points.begin(), points.end(),
                             [](const GradedPoint& a, const GradedPoint& b) { return a.piece == b.piece && a.t() == b.t(); }),
                 points.end());
    if (!points.empty()) ++res.refinedBodies;
  }
  return plan;
}

std::shared_ptr<const Discretization> GapRefinement::build(const RefinementPlan& plan,
                                                           const std::vector<int>& sharpening) const {
  const int n = static_cast<int>(shapes_.size());
  if (std::all_of(plan.begin(), plan.end(), [](const auto& p) { return p.empty(); })) return base_;
  std::vector<MixedDiscretization::Part> parts;
  for (int j = 0; j < n; ++j) {
    const std::vector<GradedPoint>& pts = plan[j];
    if (pts.empty()) {
      parts.push_back({base_, j});
      continue;
    }
    GaussPanelOptions o = panels_[j];
    o.maxPanel = std::ldexp(o.maxPanel, -halvings(sharpening, j));
    PiecewiseCurve curve;
    std::vector<std::array<int, 2>> levels;
    // The finest panel at a graded point (FB-64), at least one level below the uniform panels; the
    // corners of a piecewise curve keep o.levels.
    auto lv = [&](const CurvePiece& c, const GradedPoint* g) {
      return g ? std::max(1, GaussPanelDiscretization::levelsFor(c.length(), o.maxPanel, std::ldexp(1.0, -g->finest)))
               : o.levels;
    };
    if (shapes_[j].smooth) {
      std::vector<double> breaks;
      for (const GradedPoint& g : pts) breaks.push_back(kTwoPiGap * g.t());
      curve = smoothPieces(*shapes_[j].smooth, breaks);
      const int m = static_cast<int>(curve.pieces.size());  // pieces in the order of the sorted breaks
      for (int i = 0; i < m; ++i)
        levels.push_back({lv(curve.pieces[i], &pts[i]), lv(curve.pieces[i], &pts[(i + 1) % m])});
    } else {
      std::vector<std::pair<int, double>> at;
      std::vector<const GradedPoint*> inner;  // the interior points, in order
      for (const GradedPoint& g : pts)
        if (g.t() > 0.0 && g.t() < 1.0) at.emplace_back(g.piece, g.t()), inner.push_back(&g);
      curve = splitPieces(shapes_[j].pieces, at);
      levels.resize(curve.pieces.size());
      std::size_t i = 0;
      // Each sub-piece: start level from the point before it on the same piece (or the corner), end
      // level from the point after it (or the corner).
      std::size_t sub = 0;
      for (int k = 0; k < static_cast<int>(shapes_[j].pieces.pieces.size()); ++k) {
        const GradedPoint* prev = nullptr;
        for (;; ++sub) {
          const GradedPoint* next = i < inner.size() && inner[i]->piece == k ? inner[i] : nullptr;
          levels[sub] = {lv(curve.pieces[sub], prev), lv(curve.pieces[sub], next)};
          if (!next) break;
          prev = next, ++i;
        }
        ++sub;
      }
    }
    parts.push_back({std::make_shared<GaussPanelDiscretization>(std::vector<PiecewiseCurve>{curve}, o,
                                                                std::vector<std::vector<std::array<int, 2>>>{levels}),
                     0});
  }
  return std::make_shared<MixedDiscretization>(base_->name(), std::move(parts));
}

}  // namespace kirchhoff::fluid
