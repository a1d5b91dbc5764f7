// PanelFluid: the panel discretization on the boundary fluid algebra, with the -panel_ options.
#include "fluid/PanelFluid.hpp"

#include <petscsys.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include <sstream>

#include "core/Error.hpp"
#include "core/OptionErrors.hpp"

namespace kirchhoff::fluid {

namespace {

const char* const corrections[] = {"auto", "none", "turning", "flux"};
const char* const solvers[] = {"auto", "direct", "ksp"};
const char* const factorizations[] = {"redundant", "scalapack", "mumps"};
const char* const operators[] = {"dense", "fast", "auto"};

PetscErrorCode readPanelItems(PetscOptionItems* PetscOptionsObject, PanelOptions& o, OptionErrors& e) {
  PetscFunctionBeginUser;
  PetscInt correction = static_cast<PetscInt>(o.correction), solver = static_cast<PetscInt>(o.solver);
  PetscInt factorization = static_cast<PetscInt>(o.factorization);
  PetscInt directMax = o.directMax, cacheMax = static_cast<PetscInt>(o.cacheMax);
  PetscInt op = static_cast<PetscInt>(o.op), order = o.multipoleOrder, leaf = o.vortexLeafSize;
  char eta[64], tol[64];
  std::snprintf(eta, sizeof eta, "%g", o.multipoleEta);
  std::snprintf(tol, sizeof tol, "%g", o.multipoleTol);
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
  e.option = "direct_factorization";
  PetscCall(PetscOptionsEList("-direct_factorization", "direct path on several ranks: every rank factors the "
                              "gathered matrix (redundant) or one distributed LU (scalapack, mumps)",
                              "PanelFluid", factorizations, 3, factorizations[factorization], &factorization,
                              nullptr));
  e.option = "cache_max";
  PetscCall(PetscOptionsBoundedInt("-cache_max", "inter-body influence entries kept for the gradient",
                                   "PanelFluid", cacheMax, &cacheMax, nullptr, 0));
  e.option = "operator";
  PetscCall(PetscOptionsEList("-operator", "inter-body interactions: assembled dense blocks, the matrix-free "
                              "body-cluster multipole operator (FB-41)-(FB-46), or fast from 16 bodies without -panel_solver direct (auto)",
                              "PanelFluid", operators, 3, operators[op], &op, nullptr));
  e.option = "multipole_order";
  PetscCall(PetscOptionsBoundedInt("-multipole_order", "expansion order of -panel_operator fast (0: from eta and "
                                   "-panel_multipole_tol, FB-44)", "PanelFluid", order, &order, nullptr, 0));
  e.option = "multipole_eta";
  // A string (parsed below) so that -help shows it as "<now 2 : formerly 2>" like the other options.
  PetscCall(PetscOptionsString("-multipole_eta", "far pairs of -panel_operator fast: |c_P - c_Q| > eta (r_P + r_Q)",
                               "PanelFluid", eta, eta, sizeof eta, nullptr));
  e.option = "multipole_tol";
  PetscCall(PetscOptionsString("-multipole_tol", "relative truncation of -panel_operator fast's expansions: "
                               "p = ceil(log tol / log(1/eta)) + 2 (FB-44)", "PanelFluid", tol, tol, sizeof tol, nullptr));
  e.option = "vortex_leaf_size";
  PetscCall(PetscOptionsBoundedInt("-vortex_leaf_size", "most vortices per leaf group of -panel_operator fast's vortex "
                                   "tree (FB-61)", "PanelFluid", leaf, &leaf, nullptr, 1));
  e.option = "warm_start";
  PetscBool warm = o.warmStart ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(PetscOptionsBool("-warm_start", "KSP path: start each solve from the last solution of the same "
                             "right-hand sides within the time step (fewer iterations; restarts stay bitwise)",
                             "PanelFluid", warm, &warm, nullptr));
  o.warmStart = warm == PETSC_TRUE;
  e.option = "relaxation";
  PetscBool relax = o.relaxation ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(PetscOptionsBool("-relaxation", "matrix-free path: each Krylov step applies the operator to the accuracy "
                             "it needs, kRelaxation rtol |b| / |r_k| (FB-93)", "PanelFluid", relax, &relax, nullptr));
  o.relaxation = relax == PETSC_TRUE;
  o.op = static_cast<PanelOperator>(op);
  o.multipoleOrder = static_cast<int>(order);
  o.vortexLeafSize = static_cast<int>(leaf);
  char* end = nullptr;
  o.multipoleEta = std::strtod(eta, &end);
  if (end == eta || *end != '\0') o.multipoleEta = -1.0;  // reported by fromOptions
  o.multipoleTol = std::strtod(tol, &end);
  if (end == tol || *end != '\0') o.multipoleTol = -1.0;
  o.correction = static_cast<PanelCorrection>(correction);
  o.solver = static_cast<PanelSolver>(solver);
  o.directMax = static_cast<int>(directMax);
  o.factorization = static_cast<DirectFactorization>(factorization);
  o.cacheMax = static_cast<long>(cacheMax);
  PetscFunctionReturn(0);
}

PetscErrorCode readPanelOptions(MPI_Comm comm, const std::string& prefix, PanelOptions& o,
                                OptionErrors& e) {
  return OptionErrors::block(comm, prefix, "kirchhoff panel method (docs/fluidbody.md, Sec. 3)", "PanelFluid",
                             [&](PetscOptionItems* items) { return readPanelItems(items, o, e); });
}

}  // namespace

PanelOptions PanelOptions::fromOptions(MPI_Comm comm, const std::string& prefix) {
  PanelOptions o;
  OptionErrors errors(prefix);
  errors.check(readPanelOptions(comm, prefix, o, errors));
  if (!(o.multipoleEta > 1.0))
    errors.fail("multipole_eta", "must be a number > 1 (far pairs lie outside both bodies' disks)");
  if (!(o.multipoleTol > 0.0 && o.multipoleTol < 1.0))
    errors.fail("multipole_tol", "must be a number in (0, 1) (relative truncation of the expansions)");
  return o;
}

PanelFluid::PanelFluid(MPI_Comm comm, std::vector<Polygon> bodies, double fluidDensity,
                       const std::string& prefix)
    : PanelFluid(comm, std::move(bodies), fluidDensity, PanelOptions::fromOptions(comm, prefix), prefix) {}

PanelFluid::PanelFluid(MPI_Comm comm, std::vector<Polygon> bodies, double fluidDensity,
                       const PanelOptions& options, const std::string& prefix)
    : BoundaryFluid(comm, bodies,
                    std::make_unique<PanelDiscretization>(bodies, options.correction, options.cacheMax),
                    fluidDensity, options.solverOptions(), prefix) {}

namespace {
/// Distance of two disjoint placed polygons: attained at a vertex of one of them.
double outlineDistance(const Polygon& a, const lie::Pose& ga, const Polygon& b, const lie::Pose& gb) {
  double d = 1e300;
  for (const Vec2& Z : a.vertices) d = std::min(d, boundaryDistance(b, gb.applyInverse(ga.apply(Z))));
  for (const Vec2& Z : b.vertices) d = std::min(d, boundaryDistance(a, ga.applyInverse(gb.apply(Z))));
  return d;
}
}  // namespace

bool PanelFluid::refineFor(const std::vector<lie::Pose>& poses, const Vortices& vortices, double margin) {
  const int n = bodyCount();
  Resolution res;
  res.unknowns = nodeCount() + n;
  for (int j = 0; j < n; ++j)
    for (int k = j + 1; k < n; ++k) {
      const double d = outlineDistance(bodies()[j], poses[j], bodies()[k], poses[k]);
      if (d < res.minGap) res.minGap = d, res.gapBodies[0] = j, res.gapBodies[1] = k;
      const double h = std::max(longestEdge(bodies()[j]), longestEdge(bodies()[k]));
      if (d - 2.0 * margin < kMinGapPanels * h) {
        std::ostringstream os;
        os << "bodies " << j << " and " << k << " are " << d << " apart (within a margin of " << margin
           << "), closer than " << kMinGapPanels << " panel length (" << h
           << "): the constant panels do not resolve the gap (use nystrom or gauss_panels with fluid.tolerance)";
        throw NumericalError(os.str());
      }
    }
  for (int i = 0; i < vortices.size(); ++i)
    for (int j = 0; j < n; ++j) {
      const double d = boundaryDistance(bodies()[j], poses[j].applyInverse(vortices.gamma[i]));
      if (d < res.minVortexDistance) res.minVortexDistance = d, res.vortexBody[0] = i, res.vortexBody[1] = j;
    }
  resolution_ = res;
  return false;
}

}  // namespace kirchhoff::fluid
