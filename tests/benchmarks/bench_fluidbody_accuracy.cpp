// Cost at equal accuracy (what the high-order discretizations buy; docs/fluidbody.md "High-order boundary integrals"): for the disk +
// vortex of input/fluidbody_disk_vortex.yaml, the node count each discretization (panel, nystrom) needs
// for a fluid error <= 1e-6 against the closed forms (FB-30), (FB-32), and the DEL step time there.
// Run: build/bin/bench_fluidbody_accuracy [--quick]   (a timing main printing Markdown tables)
#include <mpi.h>
#include <petscsys.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "fluid/BoundaryFluidFactory.hpp"
#include "fluid/FlowEvaluator.hpp"
#include "fluid/discretization/NystromDiscretization.hpp"
#include "fluid/PanelFluid.hpp"
#include "fluid/geometry/Shapes.hpp"
#include "StepTiming.hpp"
#include "core/Constants.hpp"
#include "models/fluidbody/FluidBodyModel.hpp"

using namespace kirchhoff;
using namespace kirchhoff::fluidbody;
using lie::Vec2;

namespace {

using kirchhoff::kPi;
constexpr double kTarget = 1e-6;
const double kR = 1.0, kK = 2 * kPi, kD = 1.5;

std::unique_ptr<fluid::BoundaryFluid> makeFluid(fluid::DiscretizationKind kind, int N) {
  fluid::SolverOptions o;
  o.solver = fluid::PanelSolver::Direct;  // one body: the inverse is formed once for the run
  if (kind == fluid::DiscretizationKind::Panel) {
    fluid::PanelOptions p;
    p.solver = fluid::PanelSolver::Direct;
    return std::make_unique<fluid::PanelFluid>(PETSC_COMM_SELF, std::vector<fluid::Polygon>{fluid::circle(kR, N)}, 1.0,
                                               p, "bench_");
  }
  const fluid::SmoothCurve c = fluid::circleCurve(kR);
  return std::make_unique<fluid::BoundaryFluid>(
      PETSC_COMM_SELF, std::vector<fluid::Polygon>{fluid::curveOutline(c, N)},
      std::make_unique<fluid::NystromDiscretization>(std::vector<fluid::SmoothCurve>{c}, std::vector<int>{N}), 1.0,
      o, "bench_");
}

/// Largest relative error of A_V1 (FB-30), psi_I at the vortex and W_G (FB-32), vortex at distance 1.5.
double fluidError(fluid::BoundaryFluid& f) {
  fluid::Vortices v;
  v.gamma = {Vec2(kD, 0.0)};
  v.K = {kK};
  f.setConfiguration({lie::Pose{}}, v);
  const double star = kR * kR / kD;
  const double psi = kK / (2 * kPi) * (-std::log(kD - star) + std::log(kD));
  const double routh = -kK * kK / (4 * kPi) * std::log(1 - kR * kR / (kD * kD));
  const fluid::PointFields p = fluid::evaluateFields(f, Vec2(kD, 0.0));
  return std::max({std::abs(f.addedMass()(1, 1) - kPi) / kPi, std::abs(p.psiI - psi) / std::abs(psi),
                   std::abs(f.kirchhoffRouth() - routh) / std::abs(routh)});
}

/// ms per FluidBodyModel::step of the deck's run (density 1, dt 0.025), best block mean.
double stepTime(fluid::DiscretizationKind kind, int N, int block, int blocks, double* setup) {
  FluidBodyConfig c;
  c.dt = 0.025;
  c.discretization = kind;
  BodyConfig b;
  b.shape = kind == fluid::DiscretizationKind::Panel ? fluid::circle(kR, N) : fluid::curveOutline(fluid::circleCurve(kR), N);
  b.mass = kPi * kR * kR;
  b.inertia = 0.5 * kPi * std::pow(kR, 4);
  c.bodies.push_back(b);
  c.vortices.push_back({Vec2(kD, 0.0), kK});
  const double t0 = MPI_Wtime();
  FluidBodyModel m(c, makeFluid(kind, N), PETSC_COMM_SELF);
  State s = m.initialState();
  *setup = MPI_Wtime() - t0;
  return bench::msPerStep(m, s, block, blocks);
}

/// Smallest N of the list with error <= kTarget (prints the table rows); -1 if none.
int smallestAccurate(fluid::DiscretizationKind kind, const std::vector<int>& Ns) {
  for (int N : Ns) {
    auto f = makeFluid(kind, N);
    const double e = fluidError(*f);
    std::printf("| %s | %d | %.2e |\n", fluid::discretizationName(kind).c_str(), N, e);
    std::fflush(stdout);
    if (e <= kTarget) return N;
  }
  return -1;
}

}  // namespace

int main(int argc, char** argv) {
  PetscCall(PetscInitialize(&argc, &argv, nullptr, nullptr));
  bool quick = false;
  for (int i = 1; i < argc; ++i) quick = quick || std::strcmp(argv[i], "--quick") == 0;
  try {
    std::printf("# bench_fluidbody_accuracy: disk + vortex (R = 1, K = 2 pi at 1.5, density 1, dt 0.025)\n\n"
                "Fluid error = max relative error of A_V (FB-30), psi_I(gamma) and W_G (FB-32); target %.0e.\n\n"
                "| discretization | N | error |\n|---|---|---|\n", kTarget);
    // Panels converge at second order: the scan stops at the first N under the target.
    const int Np = smallestAccurate(fluid::DiscretizationKind::Panel,
                                    quick ? std::vector<int>{256, 512, 1024} : std::vector<int>{512, 1024, 2048, 2560, 3072});
    const int Nn = smallestAccurate(fluid::DiscretizationKind::Nystrom, {8, 16, 24, 32, 40, 48, 64});
    std::printf("\n| discretization | N | setup s | ms/step |\n|---|---|---|---|\n");
    double setupP = 0.0, setupN = 0.0;
    const int Nrun = Np > 0 ? Np : (quick ? 1024 : 3072);
    const double tp = stepTime(fluid::DiscretizationKind::Panel, Nrun, quick ? 5 : 20, quick ? 1 : 3, &setupP);
    std::printf("| panel | %d%s | %.2f | %.3f |\n", Nrun, Np > 0 ? "" : " (target not reached)", setupP, tp);
    const double tn = stepTime(fluid::DiscretizationKind::Nystrom, Nn, 200, quick ? 1 : 3, &setupN);
    std::printf("| nystrom | %d | %.4f | %.4f |\n", Nn, setupN, tn);
    std::printf("\nnystrom is %.0fx cheaper per step at error <= %.0e (target >= 100x)\n", tp / tn, kTarget);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_fluidbody_accuracy: %s\n", e.what());
    MPI_Abort(PETSC_COMM_WORLD, 1);
  }
  PetscCall(PetscFinalize());
  return 0;
}
