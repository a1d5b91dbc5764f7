// Regression tests for deck inputs the fuzzer (tests/fuzz) and the sanitizer stage found to crash,
// hang or silently wrap: each now gives one DeckError (exit 65) naming the key, or loads.
#include <gtest/gtest.h>

#include <string>

#include "core/Error.hpp"
#include "io/Deck.hpp"
#include "io/RunConfig.hpp"
#include "io/Schema.hpp"

using namespace kirchhoff;
using namespace kirchhoff::io;

namespace {

Schema limitsSchema() {
  Schema s("fluidbody");
  addRunKeys(s);
  Section& b = s.root().list("bodies", "bodies");
  b.real("density", "rho").def(1.0).positive();
  return s;
}

const std::string kHead = "model: fluidbody\ntime: {dt: 0.1, steps: 10}\nbodies:\n  - {density: 1.0}\n";

/// Reads the deck as the run loop does (run keys, sweep expansion); returns the DeckError text,
/// or fails the test if anything else (another exception, or success) happens.
std::string deckError(const std::string& text) {
  const Schema s = limitsSchema();
  try {
    const Deck d(text, "deck.yaml", s);
    readRunConfig(d);
    for (const auto& c : sweepCases(d)) readRunConfig(c.deck);
  } catch (const DeckError& e) {
    EXPECT_EQ(e.exitCode(), kExitData);
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not a DeckError: " << e.what() << "\nfor:\n" << text;
    return "";
  }
  ADD_FAILURE() << "no error for:\n" << text;
  return "";
}

std::string sweepOn(const std::string& key, const std::string& values = "values: [1.0, 2.0]") {
  return kHead + "sweep:\n  parameters:\n    - {key: \"" + key + "\", " + values + "}\n";
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

// Fuzzer finding 1 (tests/fuzz/regressions/deck/sweep_key_bad_index.yaml): a sweep key with a
// malformed list index made Deck::withOverride call std::stoi on it, whose std::invalid_argument /
// std::out_of_range escaped as an "internal error" (exit 1) instead of a deck error (exit 65).
TEST(DeckLimits, SweepKeyWithMalformedIndexIsADeckError) {
  for (const char* key : {"bodies[a].density", "bodies[0.density", "bodies[].density", "bodies[-1].density",
                          "bodies[99999999999].density", "bodies[1x].density", "bodies[0]x.density"}) {
    const std::string m = deckError(sweepOn(key));
    EXPECT_TRUE(has(m, "sweep parameter '" + std::string(key) + "'")) << m;
  }
  // Well-formed keys still work, including an index that does not exist (a plain DeckError).
  const Schema s = limitsSchema();
  const Deck good(sweepOn("bodies[0].density"), "deck.yaml", s);
  EXPECT_EQ(sweepCases(good).size(), 2u);
  EXPECT_TRUE(has(deckError(sweepOn("bodies[3].density")), "no item [3]"));
}

// Integer keys stored in an int wrapped silently: log_interval 4294967296 became 0 (no log rows),
// checkpoint_interval 99999999999 became 1215752191. Now refused with the range in the message.
TEST(DeckLimits, IntegerKeysBeyondIntAreRefused) {
  for (const char* key : {"log_interval", "flush_interval", "checkpoint_interval", "keep_checkpoints",
                          "progress_interval", "snapshot_interval", "check_interval"}) {
    const std::string text = kHead + "output: {" + key + ": 4294967296}\n";
    const std::string m = deckError(text);
    EXPECT_TRUE(has(m, "output." + std::string(key))) << m;
    EXPECT_TRUE(has(m, "out of range")) << m;
  }
  const Schema s = limitsSchema();
  const Deck d(kHead + "output: {checkpoint_interval: 2147483647}\n", "deck.yaml", s);
  EXPECT_EQ(readRunConfig(d).checkpointInterval, 2147483647);
}

// end_time / dt beyond 2^53 overflowed llround (steps = LLONG_MIN: the run "finished" at step 0).
TEST(DeckLimits, EndTimeWithTooManyStepsIsRefused) {
  const std::string m = deckError("model: fluidbody\ntime: {dt: 1e-300, end_time: 1e300}\n");
  EXPECT_TRUE(has(m, "time.end_time")) << m;
  EXPECT_TRUE(has(m, "too many")) << m;
  const Schema s = limitsSchema();
  const Deck d("model: fluidbody\ntime: {dt: 0.5, end_time: 4096}\n", "deck.yaml", s);
  EXPECT_EQ(readRunConfig(d).steps, 8192);
}

// linspace: [0, 1, 1e8] expanded 10^8 re-validated decks (a hang, then out of memory); the count
// is now limited to 10000 configurations.
TEST(DeckLimits, HugeLinspaceCountIsRefused) {
  for (const char* count : {"1e8", "1e300", "10001", "0", "-3"}) {
    const std::string m = deckError(sweepOn("bodies[0].density", std::string("linspace: [0.5, 2.0, ") + count + "]"));
    EXPECT_TRUE(has(m, "count must be a whole number in [1, 10000]")) << count << ": " << m;
  }
  EXPECT_TRUE(has(deckError(sweepOn("bodies[0].density", "linspace: [0.5, 2.0, 2.5]")), "whole number"));
  const Schema s = limitsSchema();
  const Deck d(sweepOn("bodies[0].density", "linspace: [0.5, 2.0, 4]"), "deck.yaml", s);
  const auto cases = sweepCases(d);
  ASSERT_EQ(cases.size(), 4u);
  EXPECT_EQ(cases[3].deck.root().list("bodies")[0].real("density"), 2.0);
}

// An integer key was compared as a double: 9007199254740993 rounded to 2^53 and was accepted as
// time.steps (whose largest value is 2^53), then run as 9007199254740993 steps.
TEST(DeckLimits, IntegersAreComparedExactlyPast2To53) {
  const std::string m = deckError("model: fluidbody\ntime: {dt: 0.5, steps: 9007199254740993}\n");
  EXPECT_TRUE(has(m, "time.steps")) << m;
  EXPECT_TRUE(has(m, "out of range")) << m;
  const Schema s = limitsSchema();
  const Deck d("model: fluidbody\ntime: {dt: 0.5, steps: 9007199254740992}\n", "deck.yaml", s);
  EXPECT_EQ(readRunConfig(d).steps, 9007199254740992);
}
