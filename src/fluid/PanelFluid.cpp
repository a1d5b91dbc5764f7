// PanelFluid: the panel discretization on the boundary fluid algebra, with the -panel_ options.
#include "fluid/PanelFluid.hpp"

#include <petscsys.h>

#include <memory>

#include "core/Error.hpp"
#include "core/OptionErrors.hpp"

namespace kirchhoff::fluid {

namespace {

PetscErrorCode readPanelOptions(MPI_Comm comm, const std::string& prefix, PanelOptions& o,
                                OptionErrors& e) {
  PetscFunctionBeginUser;
  static const char* const corrections[] = {"auto", "none", "turning", "flux"};
  static const char* const solvers[] = {"auto", "direct", "ksp"};
  PetscInt correction = static_cast<PetscInt>(o.correction), solver = static_cast<PetscInt>(o.solver);
  PetscInt directMax = o.directMax, cacheMax = static_cast<PetscInt>(o.cacheMax);
  PetscOptionsBegin(comm, prefix.c_str(), "kirchhoff panel method (docs/fluidbody.md, Sec. 3)", "PanelFluid");
  e.option = "correction";
  PetscCall(PetscOptionsEList("-correction", "discrete-circulation correction of the panel system (FB-18)",
                              "PanelFluid", corrections, 4, corrections[correction], &correction, nullptr));
  e.option = "solver";
  PetscCall(PetscOptionsEList("-solver", "panel system: dense LU up to -panel_direct_max unknowns (auto), "
                              "always LU (direct) or KSP with body-block preconditioner (ksp)",
                              "PanelFluid", solvers, 3, solvers[solver], &solver, nullptr));
  e.option = "direct_max";
  PetscCall(PetscOptionsBoundedInt("-direct_max", "largest panel system solved by dense LU with -panel_solver auto",
                                   "PanelFluid", directMax, &directMax, nullptr, 0));
  e.option = "cache_max";
  PetscCall(PetscOptionsBoundedInt("-cache_max", "inter-body influence entries kept for the gradient",
                                   "PanelFluid", cacheMax, &cacheMax, nullptr, 0));
  PetscOptionsEnd();
  o.correction = static_cast<PanelCorrection>(correction);
  o.solver = static_cast<PanelSolver>(solver);
  o.directMax = static_cast<int>(directMax);
  o.cacheMax = static_cast<long>(cacheMax);
  PetscFunctionReturn(0);
}

}  // namespace

PanelOptions PanelOptions::fromOptions(MPI_Comm comm, const std::string& prefix) {
  PanelOptions o;
  OptionErrors errors(prefix);
  errors.check(readPanelOptions(comm, prefix, o, errors));
  return o;
}

PanelFluid::PanelFluid(MPI_Comm comm, std::vector<Polygon> bodies, double fluidDensity,
                       const std::string& prefix)
    : PanelFluid(comm, std::move(bodies), fluidDensity, PanelOptions::fromOptions(comm, prefix), prefix) {}

PanelFluid::PanelFluid(MPI_Comm comm, std::vector<Polygon> bodies, double fluidDensity,
                       const PanelOptions& options, const std::string& prefix)
    : BoundaryFluid(comm, bodies,
                    std::make_unique<PanelDiscretization>(bodies, options.correction, options.cacheMax),
                    fluidDensity, SolverOptions{options.solver, options.directMax}, prefix) {}

}  // namespace kirchhoff::fluid
