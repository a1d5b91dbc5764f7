// The deck key fluid.discretization, docs/fluidbody.md "Deck keys that matter" and
// "High-order boundary integrals": auto picks nystrom for circles, ellipses and stars and panel
// otherwise; nystrom with a plate, or an odd node count, is a deck error naming the key; a star deck
// builds its exact curve.
#include <gtest/gtest.h>

#include <cmath>

#include "core/Constants.hpp"
#include "core/Error.hpp"
#include "io/Deck.hpp"
#include "io/RunConfig.hpp"
#include "setup/fluidbody/FluidBodySetup.hpp"

using namespace kirchhoff;

namespace {

using kirchhoff::kPi;

fluidbody::FluidBodyConfig read(const std::string& fluid, const std::string& shapes) {
  io::Schema s("fluidbody");
  io::addRunKeys(s);
  setup::addFluidBodyKeys(s);
  const std::string text = "model: fluidbody\ntime: {dt: 0.1, steps: 1}\nfluid: {" + fluid + "}\nbodies:\n" + shapes;
  const io::Deck d(text, "deck.yaml", s);
  return setup::readFluidBodyConfig(d, io::readRunConfig(d).dt);
}

const char* kDisk = "  - shape: {type: circle, radius: 1.0, edges: 32}\n    density: 2.0\n";
const char* kPlate = "  - shape: {type: plate, length: 2.0, thickness: 0.1, edges: 32}\n    density: 1.0\n    pose: {position: [0, 3]}\n";

void expectDeckError(const std::string& fluid, const std::string& shapes, const std::string& fragment) {
  try {
    read(fluid, shapes);
    FAIL() << "no error";
  } catch (const DeckError& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    EXPECT_EQ(e.exitCode(), kExitData);
  }
}

}  // namespace

TEST(DiscretizationDeck, AutoChoosesNystromForSmoothAnalyticBodies) {
  const auto c = read("density: 1.0", kDisk);
  EXPECT_EQ(c.discretization, fluid::DiscretizationKind::Nystrom);
  ASSERT_TRUE(c.bodies[0].curve.has_value());
  // The mass is the smooth disk's, not the 32-gon's.
  EXPECT_NEAR(c.bodies[0].mass, 2.0 * kPi, 1e-14);
  EXPECT_NEAR(c.bodies[0].inertia, 2.0 * 0.5 * kPi, 1e-14);
  EXPECT_EQ(c.bodies[0].shape.size(), 32);
  const auto p = read("discretization: panel", kDisk);
  EXPECT_EQ(p.discretization, fluid::DiscretizationKind::Panel);
  EXPECT_NEAR(p.bodies[0].mass, 2.0 * 32 * std::tan(kPi / 32), 1e-13);  // the tangent 32-gon
  EXPECT_EQ(read("density: 1.0", std::string(kDisk) + kPlate).discretization, fluid::DiscretizationKind::Panel);
}

TEST(DiscretizationDeck, NystromNeedsSmoothBodiesAndEvenNodes) {
  expectDeckError("discretization: nystrom", std::string(kDisk) + kPlate, "body 1 is a plate");
  expectDeckError("discretization: nystrom", "  - shape: {type: circle, radius: 1.0, edges: 33}\n    density: 1.0\n",
                  "must be even");
  expectDeckError("discretization: spectral", kDisk, "discretization");
  expectDeckError("", "  - shape: {type: star, radius: 1.0, cos: [0.0, 1.5]}\n    density: 1.0\n", "star-shaped");
}

TEST(DiscretizationDeck, StarDeckBuildsTheExactCurve) {
  // r = R (1 + 0.2 cos 3s): area pi R^2 (1 + 0.02), centroid at the pole by symmetry.
  const auto c = read("", "  - shape: {type: star, radius: 1.5, cos: [0, 0, 0.2], edges: 48}\n    density: 1.0\n");
  EXPECT_EQ(c.discretization, fluid::DiscretizationKind::Nystrom);
  EXPECT_NEAR(c.bodies[0].mass, kPi * 2.25 * 1.02, 1e-13);
  EXPECT_LT(c.bodies[0].curve->shift.norm(), 1e-15);
  const auto fluid = setup::makeBoundaryFluid(c, PETSC_COMM_SELF);
  EXPECT_EQ(fluid->discretization().name(), "nystrom");
  EXPECT_EQ(fluid->nodeCount(), 48);
}

namespace {
const char* kGaussPlate = "  - shape: {type: plate, length: 2.0, thickness: 0.1, edges: 32}\n    density: 1.0\n";
}  // namespace

TEST(DiscretizationDeck, GaussPanelsBuildsTheGradedPlate) {
  // docs/fluidbody.md (FB-40): the deck's order, longest panel and levels reach the discretization;
  // the mass is the exact stadium's (2 - t) t + pi t^2 / 4, not the 32-gon's.
  const auto c = read("discretization: gauss_panels, panel_order: 12, max_panel: 0.8, grading_levels: 4, "
                      "grading_ratio: 4", kGaussPlate);
  EXPECT_EQ(c.discretization, fluid::DiscretizationKind::GaussPanels);
  EXPECT_EQ(c.gaussPanels.order, 12);
  EXPECT_EQ(c.gaussPanels.levels, 4);
  EXPECT_DOUBLE_EQ(c.gaussPanels.maxPanel, 0.8);
  EXPECT_DOUBLE_EQ(c.gaussPanels.ratio, 4.0);
  ASSERT_TRUE(c.bodies[0].piecewise.has_value());
  EXPECT_NEAR(c.bodies[0].mass, 1.9 * 0.1 + kPi * 0.0025, 1e-14);
  const auto fluid = setup::makeBoundaryFluid(c, PETSC_COMM_SELF);
  EXPECT_EQ(fluid->discretization().name(), "gauss_panels");
  EXPECT_EQ(fluid->nodeCount() % 12, 0);
  fluid->setConfiguration({lie::Pose{}}, fluid::Vortices{});
  const Eigen::MatrixXd A = fluid->addedMass();
  // Against the second-order panel method on 2048 edges (its error ~ 1e-5 relative here).
  const auto p = read("discretization: panel", "  - shape: {type: plate, length: 2.0, thickness: 0.1, edges: 2048}\n"
                      "    density: 1.0\n");
  const auto pf = setup::makeBoundaryFluid(p, PETSC_COMM_SELF);
  pf->setConfiguration({lie::Pose{}}, fluid::Vortices{});
  const Eigen::MatrixXd P = pf->addedMass();
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(A(k, k), P(k, k), 1e-3 * std::abs(P(k, k))) << "entry " << k;
}

TEST(DiscretizationDeck, GaussPanelsKeysAreValidated) {
  expectDeckError("discretization: gauss_panels", kDisk, "body 0 is a circle");
  expectDeckError("discretization: gauss_panels, panel_order: 2", kGaussPlate, "panel_order");
  expectDeckError("discretization: gauss_panels, max_panel: -1", kGaussPlate, "max_panel");
  expectDeckError("discretization: gauss_panels, grading_level: 3", kGaussPlate, "grading_levels");
  expectDeckError("discretization: gauss_panels, grading_ratio: 20", kGaussPlate, "grading_ratio");
  expectDeckError("discretization: panel, panel_order: 8", kGaussPlate, "panel_order");
}

TEST(DiscretizationDeck, FluidToleranceKey) {
  // fluid.tolerance (docs/fluidbody.md "Close gaps"): default 1e-8, the deck's value, a bad value is a
  // deck error naming the key (exit 65).
  EXPECT_EQ(read("density: 1.0", kDisk).fluidTolerance, 1e-8);
  EXPECT_EQ(read("tolerance: 1e-10", kDisk).fluidTolerance, 1e-10);
  expectDeckError("tolerance: 0.5", kDisk, "fluid.tolerance");
  expectDeckError("tolerance: 1e-20", kDisk, "fluid.tolerance");
  expectDeckError("tolerance: -1e-8", kDisk, "tolerance");
  expectDeckError("tolerance: fine", kDisk, "tolerance");
}
