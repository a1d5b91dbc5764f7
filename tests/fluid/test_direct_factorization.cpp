// -panel_direct_factorization on one rank (docs/fluidbody.md "Panel method", (FB-22a)): the
// distributed choices fall back to the Eigen LU path, bitwise; the option is read and checked.
#include <gtest/gtest.h>
#include <petscsys.h>

#include <string>

#include "FluidTestUtil.hpp"
#include "core/Error.hpp"

namespace kirchhoff::fluid {
namespace {

/// The DeckError message of reading the -<prefix>panel options, or "" if they are accepted.
std::string refusal(const std::string& prefix) {
  try {
    (void)PanelOptions::fromOptions(PETSC_COMM_SELF, prefix);
  } catch (const DeckError& e) {
    return e.what();
  }
  return "";
}

TEST(DirectFactorization, OneRankKeepsTheEigenPathBitwise) {
  const std::vector<Polygon> bodies = {ellipse(1.0, 0.5, 40), circle(0.6, 36), plate(1.2, 0.2, 30)};
  const std::vector<lie::Pose> poses = {lie::Pose{0.3, Vec2(0.1, -0.2)}, lie::Pose{-0.7, Vec2(2.4, 0.9)},
                                        lie::Pose{1.1, Vec2(-0.4, 2.1)}};
  Vortices v;
  v.gamma = {Vec2(1.2, -1.1), Vec2(-1.6, 0.4)};
  v.K = {1.3, -0.7};
  Eigen::VectorXd Xi(9);
  for (int k = 0; k < 9; ++k) Xi[k] = std::sin(0.7 + 1.3 * k);
  PanelOptions redundant;
  redundant.solver = PanelSolver::Direct;
  PanelFluid ref(PETSC_COMM_SELF, bodies, 1.3, redundant);
  ref.setConfiguration(poses, v);
  for (DirectFactorization kind : {DirectFactorization::Scalapack, DirectFactorization::Mumps}) {
    PanelOptions o = redundant;
    o.factorization = kind;
    PanelFluid f(PETSC_COMM_SELF, bodies, 1.3, o);
    EXPECT_FALSE(f.distributedFactor()) << directFactorizationName(kind);
    f.setConfiguration(poses, v);
    EXPECT_EQ((f.lagrangianGradient(Xi) - ref.lagrangianGradient(Xi)).cwiseAbs().maxCoeff(), 0.0);
    EXPECT_EQ((f.densities() - ref.densities()).cwiseAbs().maxCoeff(), 0.0);
    EXPECT_EQ((f.addedMass() - ref.addedMass()).cwiseAbs().maxCoeff(), 0.0);
  }
}

TEST(DirectFactorization, OptionIsReadAndABadValueIsRefused) {
  ASSERT_EQ(PetscOptionsSetValue(nullptr, "-dftest_direct_factorization", "mumps"), 0);
  EXPECT_EQ(PanelOptions::fromOptions(PETSC_COMM_SELF, "dftest_").factorization, DirectFactorization::Mumps);
  EXPECT_EQ(PanelOptions::fromOptions(PETSC_COMM_SELF, "dfnone_").factorization, DirectFactorization::Redundant);
  ASSERT_EQ(PetscOptionsSetValue(nullptr, "-dftest_direct_factorization", "elemental"), 0);
  EXPECT_EQ(refusal("dftest_"), "PETSc option -dftest_direct_factorization: Unknown option elemental for "
                                "-dftest_direct_factorization. Available options: redundant scalapack mumps");
  ASSERT_EQ(PetscOptionsSetValue(nullptr, "-dftest_direct_factorization", "MUMPS"), 0);  // as PETSc: any case
  EXPECT_EQ(PanelOptions::fromOptions(PETSC_COMM_SELF, "dftest_").factorization, DirectFactorization::Mumps);
  ASSERT_EQ(PetscOptionsClearValue(nullptr, "-dftest_direct_factorization"), 0);
  // A value PETSc itself refuses inside the options block (the leak pass checks the block is ended).
  ASSERT_EQ(PetscOptionsSetValue(nullptr, "-dftest_direct_max", "-3"), 0);
  EXPECT_NE(refusal("dftest_").find("-dftest_direct_max"), std::string::npos) << refusal("dftest_");
  ASSERT_EQ(PetscOptionsClearValue(nullptr, "-dftest_direct_max"), 0);
  EXPECT_EQ(PanelOptions::fromOptions(PETSC_COMM_SELF, "dftest_").directMax, PanelOptions{}.directMax);
}

}  // namespace
}  // namespace kirchhoff::fluid
