// A_j^iso of docs/fluidbody.md (FB-29a): the rigid-motion Neumann problems of one body on its constant
// self-blocks (with the zero-net-source augmentation of (FB-20)), then the added mass (FB-21).
#include "fluid/IsolatedAddedMass.hpp"

#include "core/Error.hpp"

namespace kirchhoff::fluid {

namespace {

Eigen::Matrix3d bodyAddedMass(const Discretization& disc, int j, double rho) {
  const BodyNodes& b = disc.body(j);
  const int nj = b.size();
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(nj + 1, nj + 1);  // [M_jj 1; w^T 0]
  A.topLeftCorner(nj, nj) = disc.selfNormal(j);
  A.col(nj).head(nj).setOnes();
  Eigen::MatrixXd rhs = Eigen::MatrixXd::Zero(nj + 1, 3);  // rigid data B_j, zero net source
  Eigen::MatrixXd WB(nj, 3);
  for (int k = 0; k < nj; ++k) {
    A(nj, k) = b.weight[k];
    rhs(k, 0) = lie::cross(b.x[k], b.normal[k]);
    rhs(k, 1) = b.normal[k].x();
    rhs(k, 2) = b.normal[k].y();
    WB.row(k) = b.weight[k] * rhs.row(k);
  }
  const Eigen::MatrixXd sigma = A.partialPivLu().solve(rhs).topRows(nj);
  const Eigen::Matrix3d raw = -WB.transpose() * (disc.selfPotential(j) * sigma);
  if (!raw.allFinite())
    throw NumericalError("isolated added mass of body " + std::to_string(j) + " is not finite");
  return rho * 0.5 * (raw + raw.transpose());
}

}  // namespace

std::vector<Eigen::Matrix3d> isolatedAddedMass(const Discretization& disc, double rho) {
  std::vector<Eigen::Matrix3d> a;
  for (int j = 0; j < disc.bodyCount(); ++j) a.push_back(bodyAddedMass(disc, j, rho));
  return a;
}

}  // namespace kirchhoff::fluid
