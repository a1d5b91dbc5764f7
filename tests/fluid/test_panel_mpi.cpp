// Distributed panel solves (docs/fluidbody.md "Panel method"): rows over the
// ranks, redundant dense LU or GMRES with the body-block preconditioner, vortex sums split; every result must equal a
// serial dense-LU recomputation on PETSC_COMM_SELF to 1e-12. Also the flow-field file (rank 0 writes).
#include <gtest/gtest.h>
#include <hdf5.h>

#include <cstdio>

#include "FluidTestUtil.hpp"
#include "core/Error.hpp"
#include "fluid/FlowEvaluator.hpp"
#include "io/FlowField.hpp"

namespace kirchhoff::fluid {
namespace {

struct Scene {
  std::vector<Polygon> bodies = {ellipse(1.0, 0.5, 48), plate(1.6, 0.2, 52), circle(0.6, 40)};
  std::vector<lie::Pose> poses = {lie::Pose{0.3, Vec2(0.1, -0.2)}, lie::Pose{-0.7, Vec2(2.4, 0.9)},
                                  lie::Pose{1.1, Vec2(-0.4, 2.1)}};
  Vortices vortices;
  Eigen::VectorXd Xi;
  Scene() {
    vortices.gamma = {Vec2(1.2, -1.1), Vec2(-1.6, 0.4), Vec2(1.4, 2.4), Vec2(-2.0, -1.5)};
    vortices.K = {1.3, -0.7, 2.1, 0.4};
    Xi.resize(9);
    Xi << 0.4, -0.3, 0.8, -1.1, 0.5, 0.2, 0.7, 0.9, -0.6;
  }
};

using test::relDiff;

/// The distributed fluid (solver `solver`) against a serial dense-LU recomputation.
void expectPanelDistributedEqualsSerial(PanelSolver solver) {
  const Scene s;
  PanelOptions options;
  options.solver = solver;
  PanelFluid par(PETSC_COMM_WORLD, s.bodies, 1.3, options);
  PanelOptions direct;
  direct.solver = PanelSolver::Direct;
  PanelFluid ser(PETSC_COMM_SELF, s.bodies, 1.3, direct);
  EXPECT_EQ(par.directSolver(), solver != PanelSolver::Ksp);
  par.setConfiguration(s.poses, s.vortices);
  ser.setConfiguration(s.poses, s.vortices);
  // GMRES at rtol 1e-14 against dense LU: measured differences ~1e-15..1e-14 relative; the
  // redundant LU after the distributed assembly differs from the serial one in the summation order
  // of the rank-split sums only.
  EXPECT_LT(relDiff(par.addedMass(), ser.addedMass()), 1e-12);
  EXPECT_LT(relDiff(par.vortexMomentum(), ser.vortexMomentum()), 1e-12);
  EXPECT_NEAR(par.kirchhoffRouth(), ser.kirchhoffRouth(), 1e-12 * std::abs(ser.kirchhoffRouth()));
  EXPECT_LT(relDiff(par.lagrangianGradient(s.Xi), ser.lagrangianGradient(s.Xi)), 1e-12);
  const auto up = par.vortexVelocities(s.Xi), us = ser.vortexVelocities(s.Xi);
  for (std::size_t i = 0; i < up.size(); ++i) EXPECT_LT((up[i] - us[i]).norm(), 1e-12 * us[i].norm());
  // Every rank holds the same replicated result, bit for bit.
  const Eigen::MatrixXd A = par.addedMass();
  Eigen::MatrixXd A0 = A;
  MPI_Bcast(A0.data(), static_cast<int>(A0.size()), MPI_DOUBLE, 0, PETSC_COMM_WORLD);
  EXPECT_EQ((A - A0).cwiseAbs().maxCoeff(), 0.0);
  const Eigen::VectorXd g = par.lagrangianGradient(s.Xi);
  Eigen::VectorXd g0 = g;
  MPI_Bcast(g0.data(), static_cast<int>(g0.size()), MPI_DOUBLE, 0, PETSC_COMM_WORLD);
  EXPECT_EQ((g - g0).cwiseAbs().maxCoeff(), 0.0);
}

TEST(PanelMpi, DistributedEqualsSerialRedundantLu) { expectPanelDistributedEqualsSerial(PanelSolver::Auto); }

TEST(PanelMpi, DistributedEqualsSerialKsp) { expectPanelDistributedEqualsSerial(PanelSolver::Ksp); }

TEST(PanelMpi, SampledFlowEqualsSerialAndIsWrittenByRankZero) {
  const Scene s;
  PanelFluid par(PETSC_COMM_WORLD, s.bodies, 1.0, PanelOptions{});
  PanelFluid ser(PETSC_COMM_SELF, s.bodies, 1.0, PanelOptions{});
  par.setConfiguration(s.poses, s.vortices);
  ser.setConfiguration(s.poses, s.vortices);
  const FlowSample a = sampleFlow(par, s.Xi, -3, 4, 15, -3, 4, 13, 0.05);
  const FlowSample b = sampleFlow(ser, s.Xi, -3, 4, 15, -3, 4, 13, 0.05);
  ASSERT_EQ(a.mask, b.mask);
  int fluidPoints = 0;
  for (std::size_t k = 0; k < a.u.size(); ++k) {
    fluidPoints += a.mask[k] == 0;
    EXPECT_NEAR(a.psiI[k], b.psiI[k], 1e-12 * (1 + std::abs(b.psiI[k])));
    EXPECT_NEAR(a.u[k], b.u[k], 1e-12 * (1 + std::abs(b.u[k])));
  }
  EXPECT_GT(fluidPoints, 100);
  EXPECT_LT(fluidPoints, 15 * 13);
  const std::string path = "panel_mpi_flow.h5";
  io::FlowFieldData data = io::flowFieldData(a);
  data.attributes = {{"model", "fluidbody"}};
  io::writeFlowField(path, data, PETSC_COMM_WORLD);
  int rank = 0;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  if (rank == 0) {
    hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    hid_t d = H5Dopen2(f, "psi_I", H5P_DEFAULT);
    hid_t sp = H5Dget_space(d);
    hsize_t dims[2] = {0, 0};
    EXPECT_EQ(H5Sget_simple_extent_dims(sp, dims, nullptr), 2);
    EXPECT_EQ(dims[0], 13u);
    EXPECT_EQ(dims[1], 15u);
    std::vector<double> psi(dims[0] * dims[1]);
    H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, psi.data());
    EXPECT_EQ(psi, a.psiI);
    H5Sclose(sp);
    H5Dclose(d);
    EXPECT_GT(H5Lexists(f, "bodies/body_2", H5P_DEFAULT), 0);
    EXPECT_GT(H5Lexists(f, "vortices/K", H5P_DEFAULT), 0);
    H5Fclose(f);
    std::remove(path.c_str());
  }
  // Inconsistent sizes are refused on every rank.
  data.fields[0].second.pop_back();
  EXPECT_THROW(io::writeFlowField(path, data, PETSC_COMM_WORLD), kirchhoff::Error);
}

}  // namespace
}  // namespace kirchhoff::fluid
