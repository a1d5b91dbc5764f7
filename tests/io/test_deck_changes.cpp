// Restart deck comparison (docs/running.md "Restart and wall-clock budgets"): keys that change
// the meaning of the state are refused, end time / output / tolerances are allowed, numbers
// compare by value.
#include <gtest/gtest.h>

#include <string>

#include "io/DeckChanges.hpp"

using namespace kirchhoff::io;

namespace {

const char* kDeck = R"(model: fluidbody
time: {dt: 0.01, end_time: 2.0}
output: {checkpoint_interval: 10}
newton: {atol: 1.0e-14}
bodies:
  - shape: {type: ellipse, a: 1.0, b: 0.6, edges: 24}
    density: 1.0
vortices:
  - {position: [0.0, 1.8], circulation: 2.0}
)";

std::string with(const std::string& from, const std::string& to) {
  std::string s = kDeck;
  const auto at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return s.replace(at, from.size(), to);
}

}  // namespace

TEST(DeckChanges, SameDeckAndSameNumbersInAnotherSpellingAreNoChange) {
  EXPECT_TRUE(compareDecks(kDeck, kDeck).refused.empty());
  const DeckChanges c = compareDecks(kDeck, with("dt: 0.01", "dt: 1.0e-2"));
  EXPECT_TRUE(c.refused.empty());
  EXPECT_TRUE(c.allowed.empty());
}

TEST(DeckChanges, TimeStepIsRefusedWithBothValues) {
  const DeckChanges c = compareDecks(kDeck, with("dt: 0.01", "dt: 0.02"));
  ASSERT_EQ(c.refused.size(), 1u);
  EXPECT_EQ(c.refused[0].describe(), "time.dt: 0.01 -> 0.02");
}

TEST(DeckChanges, BodiesShapesEdgesAndVorticesAreRefused) {
  EXPECT_EQ(compareDecks(kDeck, with("edges: 24", "edges: 32")).refused.at(0).key, "bodies[0].shape.edges");
  EXPECT_EQ(compareDecks(kDeck, with("type: ellipse", "type: circle")).refused.at(0).key, "bodies[0].shape.type");
  EXPECT_EQ(compareDecks(kDeck, with("density: 1.0", "density: 2.0")).refused.at(0).key, "bodies[0].density");
  const DeckChanges v = compareDecks(
      kDeck, with("circulation: 2.0}", "circulation: 2.0}\n  - {position: [3.0, 0.0], circulation: 1.0}"));
  ASSERT_EQ(v.refused.size(), 3u);  // vortices[1].position[0], [1] and .circulation
  EXPECT_EQ(v.refused[0].before, "(absent)");
  EXPECT_EQ(compareDecks(kDeck, with("model: fluidbody", "model: top")).refused.at(0).key, "model");
}

TEST(DeckChanges, EndTimeOutputAndTolerancesAreAllowed) {
  std::string d = with("end_time: 2.0", "end_time: 4.0");
  d.replace(d.find("checkpoint_interval: 10"), 23, "checkpoint_interval: 20");
  d.replace(d.find("atol: 1.0e-14"), 13, "atol: 1.0e-12");
  const DeckChanges c = compareDecks(kDeck, d);
  EXPECT_TRUE(c.refused.empty());
  ASSERT_EQ(c.allowed.size(), 3u);
  EXPECT_EQ(c.allowed[0].describe(), "newton.atol: 1.0e-14 -> 1.0e-12");
  EXPECT_EQ(c.allowed[1].describe(), "output.checkpoint_interval: 10 -> 20");
  EXPECT_EQ(c.allowed[2].describe(), "time.end_time: 2.0 -> 4.0");
}

TEST(DeckChanges, MayChangeRules) {
  for (const char* k : {"time.steps", "time.end_time", "petsc_options", "output.snapshot_interval",
                        "sweep.ranks_per_case", "newton.max_iterations", "reference.rtol",
                        "model_options.newton.stol"})
    EXPECT_TRUE(restartMayChange(k)) << k;
  for (const char* k : {"time.dt", "model", "scheme", "bodies[0].shape.edges", "vortices[0].circulation",
                        "fluid.points", "guard.fault"})
    EXPECT_FALSE(restartMayChange(k)) << k;
  EXPECT_TRUE(restartMayChange("guard.fault", {"guard."}));
  EXPECT_TRUE(restartMayChange("guard.fault", {"guard.fault"}));
  EXPECT_FALSE(restartMayChange("guard.faulty", {"guard.fault"}));
}

TEST(DeckChanges, PetscOptionsOfTheDiscretisationNeedANewLog) {
  const std::vector<std::string> newLog = {"-panel_correction", "-panel_multipole_tol"};
  const DeckChanges same = compareOptions("-del_snes_rtol 1e-10 -x", "-x -del_snes_rtol 1.0e-10", newLog);
  EXPECT_TRUE(same.newLog.empty() && same.allowed.empty() && same.refused.empty());
  const DeckChanges c = compareOptions("-del_snes_rtol 1e-10 -panel_multipole_tol 1e-12",
                                       "-panel_correction none -panel_multipole_tol 1e-6 -del_snes_monitor", newLog);
  ASSERT_EQ(c.newLog.size(), 2u);
  EXPECT_EQ(c.newLog[0].describe(), "PETSc option -panel_correction: (absent) -> none");
  EXPECT_EQ(c.newLog[1].describe(), "PETSc option -panel_multipole_tol: 1e-12 -> 1e-6");
  ASSERT_EQ(c.allowed.size(), 2u);  // solver tolerance and monitor: the same discrete equations
  EXPECT_EQ(c.allowed[0].describe(), "PETSc option -del_snes_monitor: (absent) -> (set)");
  EXPECT_EQ(c.allowed[1].describe(), "PETSc option -del_snes_rtol: 1e-10 -> (absent)");
  EXPECT_TRUE(c.refused.empty());
  // A negative value is a value, not an option name.
  EXPECT_EQ(compareOptions("-panel_correction -1", "-panel_correction -1", newLog).newLog.size(), 0u);
}
