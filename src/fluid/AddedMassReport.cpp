// Added-mass report (fluidbody.md "Fluid quantities": K = M + A(g); "Analytic checks": circle
// diag(0, pi a^2, pi a^2), ellipse diag(pi (a^2-b^2)^2/8, pi b^2, pi a^2)).
#include "fluid/AddedMassReport.hpp"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "core/Error.hpp"
#include "fluid/PanelFluid.hpp"

namespace kirchhoff::fluid {

namespace {

void printMatrix(std::ostringstream& os, const std::string& title, const Eigen::MatrixXd& A) {
  os << title << " (" << A.rows() << " x " << A.cols() << ", order Omega, V1, V2 per body, body frames)\n";
  char buf[32];
  for (int i = 0; i < A.rows(); ++i) {
    for (int j = 0; j < A.cols(); ++j) {
      std::snprintf(buf, sizeof buf, " %24.16e", A(i, j));
      os << buf;
    }
    os << "\n";
  }
}

}  // namespace

std::string addedMassReport(MPI_Comm comm, const std::vector<Polygon>& bodies,
                            const std::vector<lie::Pose>& poses,
                            const std::vector<double>& bodyDensity, double rho,
                            const std::string& prefix) {
  if (bodyDensity.size() != bodies.size() || poses.size() != bodies.size())
    throw ConfigurationError("added-mass report: need one pose and one density per body");
  PanelFluid fluid(comm, bodies, rho, prefix);
  fluid.setConfiguration(poses, Vortices{});
  return addedMassReport(fluid, bodyDensity);
}

std::string addedMassReport(const BoundaryFluid& fluid, const std::vector<double>& bodyDensity) {
  const std::vector<Polygon>& bodies = fluid.bodies();
  const std::vector<lie::Pose>& poses = fluid.poses();
  const double rho = fluid.fluidDensity();
  const int n = static_cast<int>(bodies.size());
  if (static_cast<int>(bodyDensity.size()) != n)
    throw ConfigurationError("added-mass report: need one density per body");
  const auto* panels = dynamic_cast<const PanelDiscretization*>(&fluid.discretization());
  const Eigen::MatrixXd A = fluid.addedMass();
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(3 * n, 3 * n);
  std::ostringstream os;
  char buf[256];
  os << "added mass, " << n << " bodies, " << fluid.nodeCount() << (panels ? " panels" : " nodes")
     << ", discretization " << fluid.discretization().name() << ", fluid density " << rho
     << ", solver " << (fluid.directSolver() ? "dense LU" : "KSP") << "\n";
  for (int j = 0; j < n; ++j) {
    const Polygon& p = bodies[j];
    M(3 * j, 3 * j) = p.inertia(bodyDensity[j]);
    M(3 * j + 1, 3 * j + 1) = M(3 * j + 2, 3 * j + 2) = p.mass(bodyDensity[j]);
    const PanelCorrection corr = panels ? panels->correction(j) : PanelCorrection::None;
    std::snprintf(buf, sizeof buf,
                  "body %d: %s, %d %s, correction %s, area %.17g, polar moment %.17g, density %g, "
                  "pose (%g, %g, %g)\n",
                  j, p.name.c_str(), panels ? p.size() : fluid.discretization().body(j).size(),
                  panels ? "edges" : "nodes",
                  !panels && fluid.discretization().name() == "gauss_panels" ? "graded panels"
                  : !panels                           ? "spectral"
                  : corr == PanelCorrection::Flux     ? "flux"
                  : corr == PanelCorrection::Turning  ? "turning"
                                                      : "none",
                  p.area, p.polarMoment, bodyDensity[j], poses[j].theta, poses[j].y.x(), poses[j].y.y());
    os << buf;
    if (p.hasExactAddedMass) {
      const char* names[3] = {"Omega", "V1", "V2"};
      for (int k = 0; k < 3; ++k) {
        const double exact = rho * p.exactAddedMass[k], value = A(3 * j + k, 3 * j + k);
        if (exact > 0)
          std::snprintf(buf, sizeof buf, "  A_%s: %.17g, smooth-shape closed form %.17g, rel. error %.2e\n",
                        names[k], value, exact, (value - exact) / exact);
        else
          std::snprintf(buf, sizeof buf, "  A_%s: %.16e, smooth-shape closed form 0\n", names[k], value);
        os << buf;
      }
    }
  }
  printMatrix(os, "A(g)", A);
  printMatrix(os, "M", M);
  printMatrix(os, "K = M + A(g)", M + A);
  return os.str();
}

}  // namespace kirchhoff::fluid
