// Composite Gauss-Legendre panels on piecewise-smooth curves, docs/fluidbody.md (FB-40): breakpoints
// at every corner and curvature jump, dyadic grading toward them, product integration of the
// interpolated density for near and self panels.
#pragma once

#include <vector>

#include "fluid/geometry/PiecewiseCurve.hpp"
#include "fluid/discretization/PointSourceDiscretization.hpp"

namespace kirchhoff::fluid {

struct GaussPanelOptions {
  int order = 16;          ///< Gauss-Legendre nodes per panel
  double maxPanel = 0.25;  ///< longest panel (before grading)
  int levels = 12;         ///< geometric refinements of the panels at each graded end
  double ratio = 2.0;      ///< grading ratio: the graded end panels shrink by this per level (FB-56)
};

class GaussPanelDiscretization : public PointSourceDiscretization {
 public:
  GaussPanelDiscretization(std::vector<PiecewiseCurve> curves, const GaussPanelOptions& options);

  std::string name() const override { return "gauss_panels"; }
  /// Near panels (closer than one panel length) by product integration of the interpolated density.
  void pointField(int Q, const lie::Pose& gQ, const Complex& z, int first, int count, double* psi,
                  Complex* dOmega, double* phi = nullptr) const override;

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

  std::vector<PiecewiseCurve> curves_;
  GaussPanelOptions options_;
  std::vector<double> gl_, glw_, bary_;
  std::vector<std::vector<Panel>> panels_;
};

}  // namespace kirchhoff::fluid
