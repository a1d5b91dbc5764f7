// Tests of the kirchhoff-top deck reader (setup/top/TopSetup.hpp): the shipped decks validate and
// give the documented configuration; cross-key errors are DeckErrors naming the key.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "core/Error.hpp"
#include "io/Deck.hpp"
#include "io/RunConfig.hpp"
#include "setup/top/TopSetup.hpp"
#include "top/TopTestUtil.hpp"

namespace {

using namespace kirchhoff;

const io::Schema& schema() {
  static const io::Schema s = run::driverSchema(setup::topDriver());
  return s;
}

// The source tree: KIRCHHOFF_SOURCE_DIR under ctest, else three levels above this file.
using top::test::sourceDir;

const std::string kDeck = R"(model: top
time: {dt: 0.02, steps: 10}
body: {inertia: [2, 2, 1], center_of_mass: [1, 0, 0]}
initial:
  Pi: [2, 0, 4]
  Gamma: [0.5, 0, 0.8660254037844386]
)";

top::TopConfig read(const std::string& text) {
  const io::Deck deck(text, "test.yaml", schema());
  return setup::readTopConfig(deck, io::readRunConfig(deck).dt);
}

// Defaults: collective implicit midpoint, m g l = 1, shift 0, Newton atol 1e-14, no reference.
TEST(TopSetup, MinimalDeckDefaults) {
  const top::TopConfig c = read(kDeck);
  EXPECT_EQ(c.scheme, top::TopScheme::CollectiveImplicitMidpoint);
  EXPECT_EQ(c.top.mgl, 1.0);
  EXPECT_EQ(c.dt, 0.02);
  EXPECT_FALSE(c.initial.givenZ);
  EXPECT_FALSE(c.initial.fixQ1);
  EXPECT_EQ(c.initial.shift, 0.0);
  EXPECT_EQ(c.newton.atol, 1e-14);
  EXPECT_EQ(c.newton.maxIterations, 50);
  EXPECT_FALSE(c.reference);
  EXPECT_TRUE(c.top.isKovalevskaya());
}

// Cross-key checks the schema cannot express.
TEST(TopSetup, CrossKeyErrors) {
  EXPECT_THROW(read(kDeck + "  z: [1, 0, 0, 0, 1, 0, 0, 0]\n"), DeckError);  // z and Pi/Gamma
  EXPECT_THROW(read(kDeck + "  q1: 1\n  shift: 0.5\n"), DeckError);         // q1 and shift
  std::string noncUnit = kDeck;
  noncUnit.replace(noncUnit.find("[1, 0, 0]"), 9, "[2, 0, 0]");
  EXPECT_THROW(read(noncUnit), DeckError);
  std::string gammaOnly = kDeck;
  gammaOnly.erase(gammaOnly.find("  Pi:"), std::string("  Pi: [2, 0, 4]\n").size());
  EXPECT_THROW(read(gammaOnly), DeckError);
  EXPECT_THROW(read(kDeck + "scheme: leapfrog\n"), DeckError);  // not one of the four
  try {
    read(kDeck + "  q1: 1\n  shift: 0.5\n");
  } catch (const DeckError& e) {
    EXPECT_NE(std::string(e.what()).find("q1"), std::string::npos) << e.what();
  }
}

// The high-order keys (docs/heavytop.md "Composition methods"): composition at the root,
// stages with collective_gauss_legendre only; compositions of explicit schemes are refused with
// the key named; unknown compositions and stages outside [1, 8] are schema errors.
TEST(TopSetup, CompositionAndGaussLegendreKeys) {
  top::TopConfig c = read(kDeck + "composition: kahan_li8\n");
  EXPECT_EQ(c.composition, top::Composition::KahanLi8);
  EXPECT_EQ(read(kDeck).composition, top::Composition::None);
  c = read(kDeck + "scheme: collective_gauss_legendre\nstages: 4\n");
  EXPECT_EQ(c.scheme, top::TopScheme::CollectiveGaussLegendre);
  EXPECT_EQ(c.stages, 4);
  EXPECT_EQ(read(kDeck + "scheme: collective_gauss_legendre\n").stages, 2);
  EXPECT_THROW(read(kDeck + "stages: 3\n"), DeckError);  // not a Gauss–Legendre deck
  EXPECT_THROW(read(kDeck + "scheme: collective_gauss_legendre\nstages: 9\n"), DeckError);
  EXPECT_THROW(read(kDeck + "composition: yoshida8\n"), DeckError);
  try {
    read(kDeck + "scheme: collective_explicit_midpoint\ncomposition: triple_jump\n");
    FAIL() << "composition of an explicit scheme accepted";
  } catch (const DeckError& e) {
    EXPECT_NE(std::string(e.what()).find("composition"), std::string::npos) << e.what();
  }
}

// z given directly: the direct schemes start from M(z).
TEST(TopSetup, GivenZ) {
  const std::string text = R"(model: top
time: {dt: 0.01, end_time: 1}
body: {inertia: [1, 2, 3], center_of_mass: [0, 0, 1], mass: 2, gravity: 3, length: 0.5}
scheme: direct_implicit_midpoint
initial: {z: [0.1, 0.2, 0.3, 0.4, 1, 0, 0, 0]}
)";
  const top::TopConfig c = read(text);
  EXPECT_TRUE(c.initial.givenZ);
  EXPECT_EQ(c.top.mgl, 3.0);
  EXPECT_EQ(c.scheme, top::TopScheme::DirectImplicitMidpoint);
  const top::Vec6 y = top::initialHeavyTopState(c.initial);
  EXPECT_NEAR(y[5], 1.0, 1e-15);  // Gamma = (0, 0, |p|^2) for p = e1
}

// Every shipped top deck validates; the Kovalevskaya decks differ only in the scheme and give
// h = 9.5 (from the deck's sqrt(3)/2 to 16 digits: 1e-14).
TEST(TopSetup, ShippedDecks) {
  const std::string in = sourceDir() + "/input/";
  int k = 0;
  for (const char* name : {"top_kovalevskaya", "top_kovalevskaya_collective_explicit",
                           "top_kovalevskaya_direct_explicit", "top_kovalevskaya_direct_implicit",
                           "top_lagrange"}) {
    const io::Deck deck = io::Deck::fromFile(in + name + ".yaml", schema());
    const top::TopConfig c = setup::readTopConfig(deck, io::readRunConfig(deck).dt);
    top::TopModel m(c);
    const auto v = m.invariants(m.initialState(), StepReport{});
    if (std::string(name) != "top_lagrange") {
      EXPECT_NEAR(v[0], 9.5, 1e-14) << name;
      EXPECT_NEAR(v[3], 4.0, 1e-14) << name;
      EXPECT_EQ(static_cast<int>(c.scheme), k++) << name;
    } else {
      EXPECT_TRUE(c.top.isLagrange());
    }
  }
}

}  // namespace
