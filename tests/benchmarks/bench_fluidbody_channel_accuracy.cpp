// Cost at equal accuracy for the channel (issue 13; docs/fluidbody.md "Graded Gauss-Legendre panels",
// (FB-56)): the plate resolution panel and gauss_panels need for an added-mass error <= 1e-6, and the
// DEL step time of the four-plate channel of input/fluidbody_channel.yaml there, side by side.
// Run: build/bin/bench_fluidbody_channel_accuracy [--quick] [--panel-cap N]   (prints Markdown tables)
#include <mpi.h>
#include <petscsys.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "fluid/BoundaryFluidFactory.hpp"
#include "fluid/PanelFluid.hpp"
#include "fluid/Shapes.hpp"
#include "StepTiming.hpp"
#include "models/fluidbody/FluidBodyModel.hpp"

using namespace kirchhoff;
using namespace kirchhoff::fluidbody;
using lie::Vec2;

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kTarget = 1e-6;
constexpr double kLength = 2.0, kThickness = 0.1;

/// Panel plates of `edges` each, or gauss_panels with grading ratio 10 and `levels` (order 16, max_panel 0.8).
std::unique_ptr<fluid::BoundaryFluid> makeFluid(bool gauss, int resolution, const std::vector<fluid::Polygon>& outl) {
  if (!gauss) {
    fluid::PanelOptions p;
    p.solver = fluid::PanelSolver::Direct;
    return std::make_unique<fluid::PanelFluid>(PETSC_COMM_SELF, outl, 1.0, p, "bench_");
  }
  fluid::GaussPanelOptions o;
  o.order = 16, o.maxPanel = 0.8, o.levels = resolution, o.ratio = 10.0;
  const std::vector<fluid::PiecewiseCurve> c(outl.size(), fluid::stadiumCurve(kLength, kThickness));
  return fluid::makeGaussPanelFluid(PETSC_COMM_SELF, outl, c, o, 1.0, "bench_");
}

Eigen::MatrixXd plateAddedMass(bool gauss, int resolution, int* nodes) {
  const int edges = gauss ? 64 : resolution;
  auto f = makeFluid(gauss, resolution, {fluid::plate(kLength, kThickness, edges)});
  f->setConfiguration({lie::Pose{}}, fluid::Vortices{});
  *nodes = f->nodeCount();
  return f->addedMass();
}

double relErr(const Eigen::MatrixXd& A, const Eigen::MatrixXd& R) {
  double e = 0.0;
  for (int k = 0; k < 3; ++k) e = std::max(e, std::abs(A(k, k) - R(k, k)) / std::abs(R(k, k)));
  return e;
}

/// ms per FluidBodyModel::step of the channel deck (four plates, two vortices, dt 0.01), best block mean.
double stepTime(bool gauss, int resolution, int block, int blocks) {
  FluidBodyConfig c;
  c.dt = 0.01;
  c.discretization = gauss ? fluid::DiscretizationKind::GaussPanels : fluid::DiscretizationKind::Panel;
  const fluid::Polygon shape = fluid::plate(kLength, kThickness, gauss ? 64 : resolution);
  const fluid::PiecewiseCurve curve = fluid::stadiumCurve(kLength, kThickness);
  std::vector<fluid::Polygon> outl;
  for (const Vec2& y : {Vec2(-1.1, 0.8), Vec2(1.1, 0.8), Vec2(-1.1, -0.8), Vec2(1.1, -0.8)}) {
    BodyConfig b;
    b.shape = shape;
    b.mass = curve.area, b.inertia = curve.polarMoment;
    b.pose = {0.0, y};
    c.bodies.push_back(b);
    outl.push_back(shape);
  }
  c.vortices = {{Vec2(-5.0, 0.25), 2 * kPi}, {Vec2(-5.0, -0.25), -2 * kPi}};
  FluidBodyModel m(c, makeFluid(gauss, resolution, outl), PETSC_COMM_SELF);
  State s = m.initialState();
  return bench::msPerStep(m, s, block, blocks);
}

}  // namespace

int main(int argc, char** argv) {
  PetscCall(PetscInitialize(&argc, &argv, nullptr, nullptr));
  bool quick = false;
  int panelCap = 512;  // edges per plate for the timed panel run (4 plates: a 4 N dense system)
  for (int i = 1; i < argc; ++i) {
    quick = quick || std::strcmp(argv[i], "--quick") == 0;
    if (std::strcmp(argv[i], "--panel-cap") == 0 && i + 1 < argc) panelCap = std::atoi(argv[++i]);
  }
  if (quick) panelCap = std::min(panelCap, 256);
  try {
    int nref = 0, n = 0;
    // Reference: gauss_panels, ratio 10, 6 levels (3 levels are within 5e-11 of a 2464-node reference).
    const Eigen::MatrixXd R = plateAddedMass(true, 6, &nref);
    std::printf("# bench_fluidbody_channel_accuracy: plate length 2, thickness 0.1; reference %d nodes\n\n"
                "Error = max relative error of the plate's added-mass diagonal; target %.0e.\n\n"
                "| discretization | resolution | nodes per plate | error |\n|---|---|---|---|\n", nref, kTarget);
    int Ng = -1;
    for (int levels : {0, 1, 2, 3}) {
      const double e = relErr(plateAddedMass(true, levels, &n), R);
      std::printf("| gauss_panels | %d levels | %d | %.2e |\n", levels, n, e);
      if (e <= kTarget) { Ng = levels; break; }
    }
    int Np = -1, nLast = 0, nPrev = 0;
    double eLast = 1.0, ePrev = 1.0;
    for (int edges : quick ? std::vector<int>{128, 256} : std::vector<int>{256, 512, 1024, 2048}) {
      nPrev = nLast, ePrev = eLast, nLast = edges;
      eLast = relErr(plateAddedMass(false, edges, &n), R);
      std::printf("| panel | %d edges | %d | %.2e |\n", edges, n, eLast);
      std::fflush(stdout);
      if (eLast <= kTarget) { Np = edges; break; }
    }
    const int Nrun = Np > 0 ? std::min(Np, panelCap) : panelCap;
    std::printf("\n| discretization | nodes per plate | ms/step (channel, 4 plates) |\n|---|---|---|\n");
    const double tg = stepTime(true, Ng, quick ? 2 : 5, quick ? 1 : 3);
    plateAddedMass(true, Ng, &n);
    std::printf("| gauss_panels | %d | %.1f |\n", n, tg);
    const double tp = stepTime(false, Nrun, 1, 1);
    std::printf("| panel | %d%s | %.1f |\n", Nrun,
                Nrun == Np ? "" : " (below the accuracy needed: a lower bound on its cost)", tp);
    std::printf("\ngauss_panels is %s%.0fx cheaper per step at error <= %.0e (target >= 100x)\n",
                Nrun == Np ? "" : ">= ", tp / tg, kTarget);
    if (Np < 0 && nPrev > 0) {
      // Panels not converged within the scan: extrapolate their fitted order to the target, and the
      // step time with the dense direct factorization's N^3 (an estimate, not a measurement).
      const double order = std::log(ePrev / eLast) / std::log(static_cast<double>(nLast) / nPrev);
      const double need = nLast * std::pow(eLast / kTarget, 1.0 / order);
      const double est = tp * std::pow(need / Nrun, 3.0);
      std::printf("panel: fitted order %.2f, ~%.0f edges per plate for %.0e; estimated %.3g ms/step there "
                  "(N^3 from %d edges): ~%.0fx gauss_panels\n", order, need, kTarget, est, Nrun, est / tg);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_fluidbody_channel_accuracy: %s\n", e.what());
    MPI_Abort(PETSC_COMM_WORLD, 1);
  }
  PetscCall(PetscFinalize());
  return 0;
}
