// The BoundaryFluid on the panel or Nystrom discretization (docs/fluidbody.md "Panel method",
// "High-order boundary integrals", "Graded Gauss-Legendre panels"), with the solver options of the -panel_ prefix.
#include "fluid/BoundaryFluidFactory.hpp"

#include "core/Error.hpp"
#include "fluid/discretization/NystromDiscretization.hpp"
#include "fluid/PanelFluid.hpp"

namespace kirchhoff::fluid {

const Choices<DiscretizationKind>& discretizations() {
  static const Choices<DiscretizationKind> c("fluid discretization", {{"panel", DiscretizationKind::Panel},
                                                                      {"nystrom", DiscretizationKind::Nystrom},
                                                                      {"gauss_panels", DiscretizationKind::GaussPanels}});
  return c;
}

std::unique_ptr<BoundaryFluid> makeBoundaryFluid(MPI_Comm comm, const std::vector<Polygon>& outlines,
                                                 const std::vector<SmoothCurve>& curves,
                                                 DiscretizationKind kind, double fluidDensity,
                                                 const std::string& prefix, double tolerance) {
  const PanelOptions o = PanelOptions::fromOptions(comm, prefix);
  if (kind == DiscretizationKind::Panel) return std::make_unique<PanelFluid>(comm, outlines, fluidDensity, o, prefix);
  if (kind == DiscretizationKind::GaussPanels)
    throw ConfigurationError("gauss_panels: build with makeGaussPanelFluid (it needs the piecewise-smooth curves)");
  if (curves.size() != outlines.size())
    throw ConfigurationError("nystrom: every body needs a smooth analytic shape (circle, ellipse, star)");
  std::vector<int> nodes;
  for (const Polygon& p : outlines) nodes.push_back(p.size());
  auto f = std::make_unique<BoundaryFluid>(comm, outlines, std::make_unique<NystromDiscretization>(curves, nodes),
                                           fluidDensity, o.solverOptions(), prefix);
  if (tolerance > 0.0) {
    std::vector<RefinableShape> shapes;
    for (const SmoothCurve& c : curves) shapes.push_back(refinableShape(c));
    f->enableRefinement(std::move(shapes), GaussPanelOptions{}, tolerance);
  }
  return f;
}

std::unique_ptr<BoundaryFluid> makeGaussPanelFluid(MPI_Comm comm, const std::vector<Polygon>& outlines,
                                                   const std::vector<PiecewiseCurve>& curves,
                                                   const GaussPanelOptions& options, double fluidDensity,
                                                   const std::string& prefix, double tolerance) {
  if (curves.size() != outlines.size())
    throw ConfigurationError("gauss_panels: every body needs a piecewise-smooth shape (plate, polygon)");
  const PanelOptions o = PanelOptions::fromOptions(comm, prefix);
  auto f = std::make_unique<BoundaryFluid>(comm, outlines, std::make_unique<GaussPanelDiscretization>(curves, options),
                                           fluidDensity, SolverOptions{o.solver, o.directMax, o.factorization,
                                                         PanelOperator::Auto, 0, 2.0, o.warmStart}, prefix);
  if (tolerance > 0.0) {
    std::vector<RefinableShape> shapes;
    for (const PiecewiseCurve& c : curves) shapes.push_back(refinableShape(c));
    f->enableRefinement(std::move(shapes), options, tolerance);
  }
  return f;
}

}  // namespace kirchhoff::fluid
