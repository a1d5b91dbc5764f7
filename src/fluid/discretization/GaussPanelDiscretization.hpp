// Composite Gauss-Legendre panels on piecewise-smooth curves, docs/fluidbody.md (FB-40): breakpoints
// at every corner and curvature jump, dyadic grading toward them, product integration of the
// interpolated density for near and self panels.
#pragma once

#include <array>
#include <vector>

#include "fluid/geometry/PiecewiseCurve.hpp"
#include "fluid/discretization/PointSourceDiscretization.hpp"

namespace kirchhoff::fluid {

struct GaussPanelOptions {
  int order = 16;          ///< Gauss-Legendre nodes per panel
  double maxPanel = 0.25;  ///< longest panel (before grading)
  int levels = 12;         ///< geometric refinements of the panels at each graded end
  double ratio = 2.0;      ///< grading ratio: the graded end panels shrink by this per level (FB-56)
  /// Inter-body entries of near panels by the adaptive product rule (FB-65) instead of point sources
  /// (bodies refined toward a close neighbour; off: the point sources of (FB-37) everywhere).
  bool nearInteractions = false;
};

class GaussPanelDiscretization : public PointSourceDiscretization {
 public:
  /// `endLevels[j][k]`: grading levels at the start and end of piece k of body j (empty: options.levels).
  GaussPanelDiscretization(std::vector<PiecewiseCurve> curves, const GaussPanelOptions& options,
                           std::vector<std::vector<std::array<int, 2>>> endLevels = {});

  std::string name() const override { return "gauss_panels"; }
  /// Uniform panels of a piece of length L before grading: ceil(L / maxPanel), at least one.
  static int uniformPanels(double length, double maxPanel);
  /// Grading levels that make the end panel of such a piece at most h long.
  static int levelsFor(double length, double maxPanel, double h);
  /// Near panels (closer than one panel length) by product integration of the interpolated density.
  void pointField(int Q, const lie::Pose& gQ, const Complex& z, int first, int count, double* psi,
                  Complex* dOmega, double* phi = nullptr) const override;

  bool hasNearEntries(int /*Q*/) const override { return options_.nearInteractions; }
  /// (FB-65): the panels of body Q closer to Z than kFarRatio times their length, by the adaptive rule.
  void nearEntries(int Q, const Complex& Z, std::vector<NearEntry>& out) const override;
  /// A panel (or part of one) of length l is integrated by its own Gauss-Legendre nodes for targets at
  /// least kFarRatio l from its midpoint: the target lies outside the Bernstein ellipse of parameter
  /// 2 + sqrt(3), where the 16-point rule errs by ~ (2 + sqrt 3)^-32 ~ 1e-18.
  static constexpr double kFarRatio = 1.0;
  /// Most bisections of the adaptive rule (a target at 2^-40 panel lengths: none is that close).
  static constexpr int kMaxDepth = 40;

  /// (FB-66): sum over the panels of body j of l_P |(c_{p-2}, c_{p-1})|, the last two Legendre
  /// coefficients of `values` (one per node) on panel P of length l_P.
  double legendreTail(int j, const double* values) const;

  struct Panel {
    int piece = 0, first = 0;  // first node
    double t0 = 0.0, t1 = 0.0;
    bool fromEnd = false;      // t0, t1 hold 1 - t (panels in the second half of the piece)
    Vec2 centre = Vec2::Zero();
    double length = 0.0, reach = 0.0;  // reach: max distance of the panel from centre
  };
  const std::vector<Panel>& panels(int j) const { return panels_[static_cast<std::size_t>(j)]; }

 private:
  /// Panel geometry at u in [-1, 1]: y, dy/du.
  void evalPanel(int j, const Panel& P, double u, Vec2& y, Vec2& dy) const;
  /// Parameter u* in [-1, 1] of the point of panel P nearest to X, and the distance.
  double nearest(int j, const Panel& P, const Vec2& X, double& u) const;
  /// Sub-rule of [-1, 1] graded toward u* (down to `floor` in u): nodes and weights; `gap`: leave
  /// out (u* - floor, u* + floor) (the caller integrates the log singularity there in closed form).
  void gradedRule(double u, double floor, bool gap, std::vector<double>& nodes, std::vector<double>& weights) const;
  /// Lagrange basis of the panel nodes at u (order values).
  void basis(double u, double* l) const;
  bool isNear(int j, const Panel& P, const Vec2& X, double& dist, double& u) const;
  /// Bisections of [a, b] (panel parameter) until every part is kFarRatio of its length from X; the
  /// Gauss-Legendre nodes and weights of the parts (FB-65).
  void adaptiveRule(int j, const Panel& P, const Vec2& X, double a, double b, int depth, std::vector<double>& nodes,
                    std::vector<double>& weights) const;

  std::vector<PiecewiseCurve> curves_;
  GaussPanelOptions options_;
  std::vector<double> gl_, glw_, bary_;
  std::vector<std::vector<Panel>> panels_;
};

}  // namespace kirchhoff::fluid
