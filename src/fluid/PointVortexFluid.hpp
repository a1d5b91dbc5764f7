// The fluid of fluidbody with no bodies: W_G is the point-vortex interaction alone (Weißmann 2014, eq. (51)),
// A and M_C are empty. Pair sums are split over the ranks of the communicator.
#pragma once

#include <mpi.h>

#include "fluid/Fluid.hpp"
#include "fluid/fast/VortexPairSums.hpp"

namespace kirchhoff::fluid {

class PointVortexFluid : public Fluid {
 public:
  /// `density` multiplies W_G (fluid density rho).
  PointVortexFluid(MPI_Comm comm, double density);
  int bodyCount() const override { return 0; }
  void setConfiguration(const std::vector<lie::Pose>& poses, const Vortices& vortices) override;
  Eigen::MatrixXd addedMass() const override { return Eigen::MatrixXd(0, 0); }
  Eigen::VectorXd vortexMomentum() const override { return Eigen::VectorXd(0); }
  double kirchhoffRouth() const override { return w_; }
  Eigen::VectorXd lagrangianGradient(const Eigen::VectorXd& Xi) override;
  std::vector<lie::Vec2> vortexVelocities(const Eigen::VectorXd& Xi) const override;

 private:
  MPI_Comm comm_;
  double rho_;
  Vortices v_;
  VortexPairSums pairs_;
  double w_ = 0.0;
};

}  // namespace kirchhoff::fluid
