// PanelFluid: the panel discretization on the boundary fluid algebra, with the -panel_ options.
#include "fluid/PanelFluid.hpp"

#include <petscsys.h>

#include <cctype>
#include <memory>

#include "core/Error.hpp"
#include "fluid/PetscThrow.hpp"

namespace kirchhoff::fluid {

namespace {
std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
}  // namespace

PanelOptions PanelOptions::fromOptions(const std::string& prefix) {
  PanelOptions o;
  const char* pre = prefix.empty() ? nullptr : prefix.c_str();
  char buf[64];
  PetscBool set = PETSC_FALSE;
  KIRCHHOFF_PETSC_THROW(PetscOptionsGetString(nullptr, pre, "-correction", buf, sizeof buf, &set));
  if (set) {
    const std::string v = lower(buf);
    if (v == "auto") o.correction = PanelCorrection::Auto;
    else if (v == "none") o.correction = PanelCorrection::None;
    else if (v == "turning") o.correction = PanelCorrection::Turning;
    else if (v == "flux") o.correction = PanelCorrection::Flux;
    else
      throw ConfigurationError("option -" + prefix + "correction: '" + v +
                               "' is not one of auto, none, turning, flux");
  }
  KIRCHHOFF_PETSC_THROW(PetscOptionsGetString(nullptr, pre, "-solver", buf, sizeof buf, &set));
  if (set) {
    const std::string v = lower(buf);
    if (v == "auto") o.solver = PanelSolver::Auto;
    else if (v == "direct") o.solver = PanelSolver::Direct;
    else if (v == "ksp") o.solver = PanelSolver::Ksp;
    else
      throw ConfigurationError("option -" + prefix + "solver: '" + v +
                               "' is not one of auto, direct, ksp");
  }
  PetscInt n = 0;
  KIRCHHOFF_PETSC_THROW(PetscOptionsGetInt(nullptr, pre, "-direct_max", &n, &set));
  if (set) o.directMax = static_cast<int>(n);
  KIRCHHOFF_PETSC_THROW(PetscOptionsGetInt(nullptr, pre, "-cache_max", &n, &set));
  if (set) o.cacheMax = static_cast<long>(n);
  return o;
}

PanelFluid::PanelFluid(MPI_Comm comm, std::vector<Polygon> bodies, double fluidDensity,
                       const std::string& prefix)
    : PanelFluid(comm, std::move(bodies), fluidDensity, PanelOptions::fromOptions(prefix), prefix) {}

PanelFluid::PanelFluid(MPI_Comm comm, std::vector<Polygon> bodies, double fluidDensity,
                       const PanelOptions& options, const std::string& prefix)
    : BoundaryFluid(comm, bodies,
                    std::make_unique<PanelDiscretization>(bodies, options.correction, options.cacheMax),
                    fluidDensity, SolverOptions{options.solver, options.directMax}, prefix) {}

}  // namespace kirchhoff::fluid
