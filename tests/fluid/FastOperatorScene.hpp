// Several-body scenes for the body-cluster operator tests (docs/fluidbody.md (FB-41)-(FB-46)): the fluid on
// the matrix-free operator against the dense path (serial dense LU), panels or Nystrom.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <random>

#include "FluidTestUtil.hpp"
#include "fluid/discretization/NystromDiscretization.hpp"

namespace kirchhoff::fluid::test {

/// n bodies on a jittered grid of 5 columns, spacing 2.2 (radii <= 0.8), random orientations; 4 vortices
/// between the bodies, and (extra > 0) further vortices of circulation +-0.05 at random in the grid's box, at
/// least 0.92 from every body centre, a third of them within 1.1 of one (near pairs of the vortex tree); a random Xi.
struct ClusterScene {
  int n;
  std::vector<lie::Pose> poses;
  Vortices vortices;
  Eigen::VectorXd Xi;
  explicit ClusterScene(int bodies, int extra = 0) : n(bodies) {
    std::mt19937 g(5);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (int j = 0; j < n; ++j) {
      // Named draws: argument order is unspecified (gcc and clang differ); this is gcc's order.
      const double theta = u(g), dy = u(g), dx = u(g);
      poses.push_back(lie::Pose{3.0 * theta, Vec2(2.2 * (j % 5) + 0.15 * dx, 2.2 * (j / 5) + 0.15 * dy)});
    }
    for (int i = 0; i < 4; ++i) {
      vortices.gamma.push_back(Vec2(1.1 + 2.2 * i, 1.1 + 0.1 * u(g)));
      vortices.K.push_back(u(g));
    }
    Xi.resize(3 * n);
    for (int k = 0; k < 3 * n; ++k) Xi[k] = u(g);
    std::mt19937 h(7);
    std::uniform_real_distribution<double> w(0.0, 1.0);
    const double width = 2.2 * std::min(n, 5), height = 2.2 * ((n + 4) / 5);
    while (static_cast<int>(vortices.size()) < 4 + extra) {
      Vec2 z(width * w(h) - 1.1, height * w(h) - 1.1);
      if (vortices.size() % 3 == 0) {  // close to a body
        const int j = static_cast<int>(n * w(h)) % n;
        const double a = 6.2832 * w(h);
        z = poses[j].y + (0.93 + 0.15 * w(h)) * Vec2(std::cos(a), std::sin(a));
      }
      bool clear = true;
      for (const auto& q : poses) clear = clear && (z - q.y).norm() >= 0.92;
      for (const auto& y : vortices.gamma) clear = clear && (z - y).norm() >= 0.02;
      if (!clear) continue;
      vortices.gamma.push_back(z);
      vortices.K.push_back(vortices.size() % 2 ? 0.05 : -0.05);
    }
  }
};

inline std::unique_ptr<BoundaryFluid> clusterFluid(MPI_Comm comm, const std::string& kind, int n,
                                                   const SolverOptions& o) {
  std::vector<Polygon> outlines;
  if (kind == "panel") {
    for (int j = 0; j < n; ++j) outlines.push_back(j % 2 ? ellipse(0.8, 0.4, 36) : circle(0.6, 30));
    PanelOptions p;
    p.solver = o.solver;
    p.op = o.op;
    p.multipoleOrder = o.multipoleOrder;
    p.multipoleEta = o.multipoleEta;
    p.multipoleTol = o.multipoleTol;
    p.vortexLeafSize = o.vortexLeafSize;
    p.relaxation = o.relaxation;
    return std::make_unique<PanelFluid>(comm, outlines, 1.3, p, "cluster_");
  }
  std::vector<SmoothCurve> curves;
  std::vector<int> nodes;
  for (int j = 0; j < n; ++j) {
    curves.push_back(j % 2 ? ellipseCurve(0.8, 0.4) : starCurve(0.6, {0.05, 0.1}, {0.0, -0.08}));
    nodes.push_back(j % 2 ? 40 : 48);
    outlines.push_back(curveOutline(curves.back(), nodes.back()));
  }
  return std::make_unique<BoundaryFluid>(comm, outlines, std::make_unique<NystromDiscretization>(curves, nodes), 1.3,
                                         o, "cluster_");
}

/// clusterFluid for the bodies of scene s, set to its poses and vortices.
inline std::unique_ptr<BoundaryFluid> sceneFluid(MPI_Comm comm, const std::string& kind, const ClusterScene& s,
                                                 const SolverOptions& o) {
  auto f = clusterFluid(comm, kind, s.n, o);
  f->setConfiguration(s.poses, s.vortices);
  return f;
}

/// The fluid on the fast operator (comm, GMRES) against the dense path (serial dense LU) to `tol`.
inline void expectFastEqualsDense(MPI_Comm comm, const std::string& kind, int n, double tol, int extraVortices = 0,
                                  int vortexLeafSize = kVortexLeafSize) {
  const ClusterScene s(n, extraVortices);
  SolverOptions fast;
  fast.op = PanelOperator::Fast;
  fast.vortexLeafSize = vortexLeafSize;
  SolverOptions dense;
  dense.solver = PanelSolver::Direct;
  auto f = clusterFluid(comm, kind, n, fast), d = clusterFluid(PETSC_COMM_SELF, kind, n, dense);
  ASSERT_NE(f->clusterOperator(), nullptr);
  EXPECT_FALSE(f->directSolver());
  f->setConfiguration(s.poses, s.vortices);
  d->setConfiguration(s.poses, s.vortices);
  const auto* op = f->clusterOperator();
  long near = op->nearPairs();
  MPI_Allreduce(MPI_IN_PLACE, &near, 1, MPI_LONG, MPI_SUM, comm);
  EXPECT_GT(near, 0);
  EXPECT_LT(near, static_cast<long>(n) * (n - 1));  // far pairs exist
  long exact = f->vortexTerms()->nearVortexNodes();  // vortex-node pairs summed exactly: the rest goes through the tree
  MPI_Allreduce(MPI_IN_PLACE, &exact, 1, MPI_LONG, MPI_SUM, comm);
  if (extraVortices > 0) {
    EXPECT_LT(exact, 3 * static_cast<long>(s.vortices.size()) * f->nodeCount() / 4) << kind;
  }
  EXPECT_LT(relDiff(f->addedMassAction(s.Xi), d->addedMassAction(s.Xi)), tol) << kind << " A Xi";
  EXPECT_NEAR(f->lagrangianValue(s.Xi), d->lagrangianValue(s.Xi), tol * std::abs(d->lagrangianValue(s.Xi))) << kind;
  EXPECT_LT(relDiff(f->vortexMomentum(), d->vortexMomentum()), tol) << kind << " M_C";
  EXPECT_NEAR(f->kirchhoffRouth(), d->kirchhoffRouth(), tol * std::abs(d->kirchhoffRouth())) << kind;
  EXPECT_LT(relDiff(f->lagrangianGradient(s.Xi), d->lagrangianGradient(s.Xi)), tol) << kind << " gradient";
  const auto uf = f->vortexVelocities(s.Xi), ud = d->vortexVelocities(s.Xi);
  for (std::size_t i = 0; i < uf.size(); ++i) EXPECT_LT((uf[i] - ud[i]).norm(), tol * ud[i].norm()) << kind << " vortex " << i;
  EXPECT_LT(relDiff(f->addedMass(), d->addedMass()), tol) << kind << " A(g)";
}

}  // namespace kirchhoff::fluid::test
