// Field evaluation from the boundary densities (docs/fluidbody.md "Fluid quantities"):
// phi = sum sigma_q phi_q, psi = sum sigma_q psi_q (referenced, single valued outside the bodies), u = grad phi.
#include "fluid/FlowEvaluator.hpp"

#include <mpi.h>

#include "core/Mpi.hpp"

#include <algorithm>

namespace kirchhoff::fluid {

PointFields evaluateFields(const BoundaryFluid& fluid, const Vec2& z) {
  const Discretization& d = fluid.discretization();
  const NodeLayout& layout = fluid.layout();
  const int n = fluid.bodyCount();
  const Eigen::MatrixXd& sigma = fluid.densities();
  PointFields f;
  f.psiGamma = vortexStreamFunction(fluid.vortices(), z);
  f.uGamma = biotSavart(fluid.vortices(), z);
  f.phiB = Eigen::VectorXd::Zero(3 * n);
  f.psiB = Eigen::VectorXd::Zero(3 * n);
  f.uB = Eigen::Matrix2Xd::Zero(2, 3 * n);
  const Complex zc = lie::toComplex(z);
  std::vector<double> psi, phi;
  std::vector<Complex> dO;
  for (int Q = 0; Q < n; ++Q) {
    const int nq = layout.bodySize(Q), o = layout.offset[Q];
    psi.resize(nq), phi.resize(nq), dO.resize(nq);
    d.pointField(Q, fluid.poses()[Q], zc, 0, nq, psi.data(), dO.data(), phi.data());
    for (int k = 0; k < nq; ++k) {
      const int q = o + k;
      const Vec2 u(dO[k].real(), -dO[k].imag());
      const double sI = sigma(q, 3 * n);
      f.phiI += sI * phi[k];
      f.psiI += sI * psi[k];
      f.uI += sI * u;
      // Rigid densities are non-zero on every body (coupling), so loop over all dofs.
      for (int a = 0; a < 3 * n; ++a) {
        const double s = sigma(q, a);
        f.phiB[a] += s * phi[k];
        f.psiB[a] += s * psi[k];
        f.uB.col(a) += s * u;
      }
    }
  }
  return f;
}

FlowSample sampleFlow(const BoundaryFluid& fluid, const Eigen::VectorXd& Xi, double x0, double x1,
                      int nx, double y0, double y1, int ny, double clearance) {
  FlowSample s;
  const int n = fluid.bodyCount();
  s.x.resize(nx);
  s.y.resize(ny);
  for (int i = 0; i < nx; ++i) s.x[i] = nx > 1 ? x0 + (x1 - x0) * i / (nx - 1) : x0;
  for (int i = 0; i < ny; ++i) s.y[i] = ny > 1 ? y0 + (y1 - y0) * i / (ny - 1) : y0;
  const std::size_t total = static_cast<std::size_t>(nx) * ny;
  s.psiGamma.assign(total, 0.0);
  s.psiI.assign(total, 0.0);
  s.psiB.assign(total, 0.0);
  s.u.assign(total, 0.0);
  s.v.assign(total, 0.0);
  s.mask.assign(total, 0);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(fluid.comm(), &rank);
  MPI_Comm_size(fluid.comm(), &ranks);
  for (int iy = rank; iy < ny; iy += ranks) {
    for (int ix = 0; ix < nx; ++ix) {
      const std::size_t k = static_cast<std::size_t>(iy) * nx + ix;
      const Vec2 z(s.x[ix], s.y[iy]);
      int mask = 0;
      for (int j = 0; j < n && !mask; ++j) {
        const Vec2 Z = fluid.poses()[j].applyInverse(z);
        if (contains(fluid.bodies()[j], Z) || boundaryDistance(fluid.bodies()[j], Z) < clearance)
          mask = 1;
      }
      for (int i = 0; i < fluid.vortices().size() && !mask; ++i)
        if ((z - fluid.vortices().gamma[i]).norm() < clearance) mask = 2;
      s.mask[k] = mask;
      if (mask) continue;
      const PointFields f = evaluateFields(fluid, z);
      s.psiGamma[k] = f.psiGamma;
      s.psiI[k] = f.psiI;
      s.psiB[k] = n > 0 ? f.psiB.dot(Xi) : 0.0;
      const Vec2 u = f.uGamma + f.uI + (n > 0 ? Vec2(f.uB * Xi) : Vec2::Zero());
      s.u[k] = u.x();
      s.v[k] = u.y();
    }
  }
  if (ranks > 1) {
    // Each point was computed by exactly one rank (others hold zeros): the sums are exact.
    for (auto* vec : {&s.psiGamma, &s.psiI, &s.psiB, &s.u, &s.v}) sumOverRanks(fluid.comm(), vec->data(), total);
    sumOverRanks(fluid.comm(), s.mask.data(), total, MPI_INT);
  }
  for (int j = 0; j < n; ++j) {
    std::vector<Vec2> o;
    for (const Vec2& Z : fluid.bodies()[j].vertices) o.push_back(fluid.poses()[j].apply(Z));
    s.outlines.push_back(std::move(o));
  }
  s.vortexPositions = fluid.vortices().gamma;
  s.circulations = fluid.vortices().K;
  return s;
}

}  // namespace kirchhoff::fluid
