// Point-vortex W_G = rho sum_{i<j} K_i K_j / (2 pi) log|gamma_i - gamma_j| and its gradient,
// rows of the pair sum split over ranks (balanced by pair count), reduced with MPI_Allreduce.
#include "fluid/PointVortexFluid.hpp"

namespace kirchhoff::fluid {

PointVortexFluid::PointVortexFluid(MPI_Comm comm, double density) : comm_(comm), rho_(density) {}

void PointVortexFluid::rows(int m, int& begin, int& end) const {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm_, &rank);
  MPI_Comm_size(comm_, &size);
  // Row i holds m - 1 - i pairs: split the triangle into equal pair counts.
  const double total = 0.5 * m * (m - 1.0);
  auto boundary = [&](int r) {
    if (r <= 0) return 0;
    if (r >= size) return m;
    const double target = total * r / size;
    int i = 0;
    double acc = 0;
    while (i < m && acc + (m - 1 - i) <= target) acc += m - 1 - i++;
    return i;
  };
  begin = boundary(rank);
  end = boundary(rank + 1);
}

void PointVortexFluid::setConfiguration(const std::vector<lie::Pose>&, const Vortices& vortices) {
  v_ = vortices;
  int b, e;
  rows(v_.size(), b, e);
  const double local = rho_ * vortexInteraction(v_, b, e);
  MPI_Allreduce(&local, &w_, 1, MPI_DOUBLE, MPI_SUM, comm_);
}

Eigen::VectorXd PointVortexFluid::lagrangianGradient(const Eigen::VectorXd&) {
  Eigen::VectorXd local = Eigen::VectorXd::Zero(2 * v_.size()), g(2 * v_.size());
  int b, e;
  rows(v_.size(), b, e);
  addVortexInteractionGradient(v_, b, e, local);
  local *= rho_;
  MPI_Allreduce(local.data(), g.data(), static_cast<int>(g.size()), MPI_DOUBLE, MPI_SUM, comm_);
  return g;
}

std::vector<lie::Vec2> PointVortexFluid::vortexVelocities(const Eigen::VectorXd&) const {
  std::vector<lie::Vec2> u(static_cast<std::size_t>(v_.size()));
  for (int i = 0; i < v_.size(); ++i) u[static_cast<std::size_t>(i)] = biotSavart(v_, v_.gamma[static_cast<std::size_t>(i)], i);
  return u;
}

}  // namespace kirchhoff::fluid
