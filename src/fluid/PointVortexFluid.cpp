// Point-vortex W_G = rho sum_{i<j} K_i K_j / (2 pi) log|gamma_i - gamma_j| and its gradient: each rank's
// share from fluid/fast/VortexPairSums (direct rows of the pair triangle, or the FMM), reduced with MPI_Allreduce.
#include "fluid/PointVortexFluid.hpp"

namespace kirchhoff::fluid {

PointVortexFluid::PointVortexFluid(MPI_Comm comm, double density) : comm_(comm), rho_(density) {}

void PointVortexFluid::setConfiguration(const std::vector<lie::Pose>&, const Vortices& vortices) {
  v_ = vortices;
  int rank = 0, size = 1;
  MPI_Comm_rank(comm_, &rank);
  MPI_Comm_size(comm_, &size);
  pairs_.update(v_, rank, size);
  const double local = rho_ * pairs_.routhShare();
  MPI_Allreduce(&local, &w_, 1, MPI_DOUBLE, MPI_SUM, comm_);
}

Eigen::VectorXd PointVortexFluid::lagrangianGradient(const Eigen::VectorXd&) {
  const Eigen::VectorXd local = rho_ * pairs_.gradientShare();
  Eigen::VectorXd g(local.size());
  MPI_Allreduce(local.data(), g.data(), static_cast<int>(g.size()), MPI_DOUBLE, MPI_SUM, comm_);
  return g;
}

std::vector<lie::Vec2> PointVortexFluid::vortexVelocities(const Eigen::VectorXd&) const {
  return vortexSelfVelocities(v_);
}

}  // namespace kirchhoff::fluid
