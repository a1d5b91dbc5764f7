// Deck validation: every kind of mistake gives one DeckError naming file, line, column, key and
// what was expected; defaults, variants, sweeps and the generated reference follow the schema.
#include <gtest/gtest.h>

#include "core/Error.hpp"
#include "io/Deck.hpp"
#include "io/RunConfig.hpp"
#include "io/Schema.hpp"

using namespace kirchhoff;
using namespace kirchhoff::io;

namespace {

Schema testSchema() {
  Schema s("fluidbody");
  addRunKeys(s);
  Section& f = s.root().map("fluid", "fluid");
  f.real("density", "rho").def(1.0).positive();
  Section& b = s.root().list("bodies", "bodies");
  b.string("name", "label").def("");
  Section& shape = b.map("shape", "shape", true);
  shape.enumeration("type", {"circle", "ellipse"}, "kind").required();
  shape.variant("type", "circle").real("radius", "R").required().positive();
  shape.variant("type", "ellipse").real("a", "a").required().positive();
  shape.variant("type", "ellipse").real("b", "b").required().positive();
  shape.integer("edges", "N").def(64).min(3);
  b.vector("position", 2, "y").def(std::vector<double>{0.0, 0.0});
  b.boolean("fixed", "held").def(false);
  return s;
}

const char* kGood = R"(model: fluidbody
time:
  dt: 0.1
  steps: 10
bodies:
  - shape: {type: circle, radius: 1.0}
    position: [1, 2]
  - shape: {type: ellipse, a: 1.0, b: 0.5, edges: 32}
)";

/// Expects a DeckError whose message contains every fragment.
void expectError(const std::string& text, std::initializer_list<const char*> fragments) {
  const Schema s = testSchema();
  try {
    Deck d(text, "deck.yaml", s);
    readRunConfig(d);
    FAIL() << "no error for:\n" << text;
  } catch (const DeckError& e) {
    const std::string m = e.what();
    for (const char* f : fragments) EXPECT_NE(m.find(f), std::string::npos) << "missing '" << f << "' in: " << m;
    EXPECT_EQ(e.exitCode(), kExitData);
  }
}

std::string replace(std::string s, const std::string& a, const std::string& b) {
  const auto p = s.find(a);
  EXPECT_NE(p, std::string::npos) << a;
  return s.replace(p, a.size(), b);
}

}  // namespace

TEST(Deck, GoodDeckReadsWithDefaults) {
  const Schema s = testSchema();
  Deck d(kGood, "deck.yaml", s);
  const auto bodies = d.root().list("bodies");
  ASSERT_EQ(bodies.size(), 2u);
  EXPECT_EQ(bodies[0].map("shape").string("type"), "circle");
  EXPECT_DOUBLE_EQ(bodies[0].map("shape").real("radius"), 1.0);
  EXPECT_EQ(bodies[0].map("shape").integer("edges"), 64);  // default
  EXPECT_EQ(bodies[1].map("shape").integer("edges"), 32);
  EXPECT_EQ(bodies[1].vector("position"), (std::vector<double>{0.0, 0.0}));
  EXPECT_EQ(bodies[0].vector("position"), (std::vector<double>{1.0, 2.0}));
  EXPECT_FALSE(bodies[0].boolean("fixed"));
  EXPECT_DOUBLE_EQ(d.root().map("fluid").real("density"), 1.0);
  const RunConfig c = readRunConfig(d);
  EXPECT_EQ(c.steps, 10);
  EXPECT_EQ(c.checkpointInterval, 1000);
  EXPECT_EQ(c.keepCheckpoints, 2);
}

TEST(Deck, EndTimeGivesSteps) {
  const Schema s = testSchema();
  Deck d(replace(kGood, "steps: 10", "end_time: 2.5"), "deck.yaml", s);
  EXPECT_EQ(readRunConfig(d).steps, 25);
}

// Ten (and more) kinds of mistakes, each with the message a user needs.
TEST(Deck, UnknownKeyNamesKeyLineAndSuggestion) {
  expectError(replace(kGood, "  dt: 0.1", "  dtt: 0.1"),
              {"deck.yaml:3:3", "time.dtt", "unknown key", "did you mean 'dt'"});
}
TEST(Deck, WrongTypeReal) {
  expectError(replace(kGood, "dt: 0.1", "dt: fast"), {"deck.yaml:3:7", "time.dt", "expected a real > 0", "'fast'"});
}
TEST(Deck, OutOfRange) {
  expectError(replace(kGood, "dt: 0.1", "dt: -0.1"), {"time.dt", "out of range", "> 0"});
}
TEST(Deck, MissingRequiredKey) {
  expectError(replace(kGood, "  dt: 0.1\n", ""), {"deck.yaml:3:3", "time.dt", "missing required key"});
}
TEST(Deck, UnknownEnumChoice) {
  expectError(replace(kGood, "type: circle", "type: circel"),
              {"bodies[0].shape.type", "unknown choice 'circel'", "{circle, ellipse}"});
}
TEST(Deck, VariantKeyOfOtherChoice) {
  expectError(replace(kGood, "radius: 1.0", "radius: 1.0, a: 2.0"), {"bodies[0].shape.a", "unknown key"});
}
TEST(Deck, VariantRequiredKey) {
  expectError(replace(kGood, "a: 1.0, ", ""), {"bodies[1].shape.a", "missing required key"});
}
TEST(Deck, IntegerGivenReal) {
  expectError(replace(kGood, "edges: 32", "edges: 32.5"), {"bodies[1].shape.edges", "expected an integer [3, 2147483647]"});
}
TEST(Deck, VectorWrongLength) {
  expectError(replace(kGood, "position: [1, 2]", "position: [1, 2, 3]"),
              {"bodies[0].position", "list of 2 reals", "got 3 values"});
}
TEST(Deck, VectorElementNotNumber) {
  expectError(replace(kGood, "position: [1, 2]", "position: [1, y]"), {"bodies[0].position[1]", "expected a real number"});
}
TEST(Deck, BooleanWrongType) {
  expectError(replace(kGood, "position: [1, 2]", "fixed: maybe"), {"bodies[0].fixed", "expected true or false"});
}
TEST(Deck, MapGivenScalar) {
  expectError(replace(kGood, "time:\n  dt: 0.1\n  steps: 10", "time: 5"), {"key 'time'", "expected a map"});
}
TEST(Deck, ListGivenMap) {
  expectError(std::string(kGood).substr(0, std::string(kGood).find("bodies")) + "bodies: {a: 1}\n",
              {"key 'bodies'", "expected a list of maps"});
}
TEST(Deck, DuplicateKey) {
  expectError(replace(kGood, "  steps: 10", "  steps: 10\n  steps: 20"), {"time.steps", "duplicate key"});
}
TEST(Deck, YamlSyntaxError) {
  expectError(replace(kGood, "radius: 1.0}", "radius: 1.0"), {"deck.yaml:", "YAML syntax error"});
}
TEST(Deck, WrongModel) {
  expectError(replace(kGood, "model: fluidbody", "model: top"),
              {"deck.yaml:1:8: key 'model'", "this deck is for kirchhoff-top (model: top), not kirchhoff-fluidbody"});
}
TEST(Deck, WrongModelIsCheckedBeforeTheKeys) {
  // Another driver's deck: its own keys are unknown here, but the model mismatch is what is said.
  expectError("model: top\ntime: {dt: 0.1, steps: 1}\nbody: {inertia: [1, 1, 1]}\n",
              {"this deck is for kirchhoff-top (model: top)"});
}
TEST(Deck, StepsAndEndTimeBoth) {
  expectError(replace(kGood, "steps: 10", "steps: 10\n  end_time: 1.0"), {"exactly one of 'time.steps' and 'time.end_time'"});
}
TEST(Deck, EndTimeNotMultipleOfDt) {
  expectError(replace(kGood, "steps: 10", "end_time: 1.05"), {"time.end_time", "not a whole number of steps"});
}
TEST(Deck, NotAMap) {
  expectError("- 1\n- 2\n", {"deck.yaml", "must be a map"});
}
TEST(Deck, EmptyValue) {
  expectError(replace(kGood, "dt: 0.1", "dt:"), {"time.dt", "no value given"});
}
TEST(Deck, NanRejected) {
  expectError(replace(kGood, "dt: 0.1", "dt: .nan"), {"time.dt", "expected a real"});
}

TEST(Deck, SweepExpandsZippedValues) {
  const Schema s = testSchema();
  const std::string text = std::string(kGood) +
                           "sweep:\n  parameters:\n    - {key: fluid.density, values: [0.1, 4.0]}\n"
                           "    - {key: \"bodies[1].shape.edges\", linspace: [16, 32, 2]}\n";
  Deck d(text, "deck.yaml", s);
  const auto cases = sweepCases(d);
  ASSERT_EQ(cases.size(), 2u);
  EXPECT_EQ(cases[0].name, "case000");
  EXPECT_DOUBLE_EQ(cases[0].deck.root().map("fluid").real("density"), 0.1);
  EXPECT_DOUBLE_EQ(cases[1].deck.root().map("fluid").real("density"), 4.0);
  EXPECT_EQ(cases[0].deck.root().list("bodies")[1].map("shape").integer("edges"), 16);
  EXPECT_EQ(cases[1].deck.root().list("bodies")[1].map("shape").integer("edges"), 32);
  EXPECT_FALSE(cases[1].deck.root().has("sweep"));
  // Untouched keys survive the override.
  EXPECT_DOUBLE_EQ(cases[1].deck.root().list("bodies")[0].map("shape").real("radius"), 1.0);
}

TEST(Deck, SweepOverrideIsValidated) {
  const Schema s = testSchema();
  const std::string text = std::string(kGood) + "sweep:\n  parameters:\n    - {key: fluid.density, values: [-1]}\n";
  Deck d(text, "deck.yaml", s);
  EXPECT_THROW(sweepCases(d), DeckError);
}

// A sweep case (and every copy of a deck) is a fresh parse of the file with the values set, so its
// messages name file:line:column of the file (a YAML::Clone copy had no positions, a re-parse of
// the emitted case the emitted text's lines): here two comment lines shift the file's lines.
TEST(Deck, SweepCaseErrorsNameTheFilesLine) {
  const Schema s = testSchema();
  const std::string text = "# two lines the emitted case text does not have\n\n" + std::string(kGood) +
                           "sweep:\n  parameters:\n    - {key: time.end_time, values: [1.0]}\n"
                           "    - {key: fluid.density, values: [4.0]}\n";
  const Deck d(text, "deck.yaml", s);
  const auto cases = sweepCases(d);
  ASSERT_EQ(cases.size(), 1u);
  Deck c = cases[0].deck;  // copied twice more, as a run does
  c = Deck(c);
  EXPECT_DOUBLE_EQ(c.root().map("fluid").real("density"), 4.0);
  EXPECT_FALSE(c.root().has("sweep"));
  EXPECT_EQ(c.root().list("bodies")[1].map("shape").where("b"),
            "deck.yaml:10:39 [time.end_time=1] [fluid.density=4]");
  try {
    readRunConfig(c);  // both time.steps (from the file) and time.end_time (swept)
    FAIL() << "no error";
  } catch (const DeckError& e) {
    EXPECT_NE(std::string(e.what()).find("deck.yaml:5:3 [time.end_time=1] [fluid.density=4]: 'time': give "
                                         "exactly one of 'time.steps' and 'time.end_time'"),
              std::string::npos)
        << e.what();
  }
}

TEST(Deck, ReferenceListsEveryKey) {
  const std::string md = testSchema().markdown();
  for (const char* k : {"`time.dt`", "`bodies[].shape.type`", "`bodies[].shape.radius`", "`output.max_wall`",
                        "(bodies[].shape.type: ellipse)", "**required**", "`64`"})
    EXPECT_NE(md.find(k), std::string::npos) << k;
}

TEST(Deck, HashChangesWithText) {
  const Schema s = testSchema();
  Deck a(kGood, "a.yaml", s), b(replace(kGood, "dt: 0.1", "dt: 0.2"), "a.yaml", s);
  EXPECT_NE(a.hash(), b.hash());
  EXPECT_EQ(a.hash(), Deck(kGood, "other.yaml", s).hash());
}

TEST(Deck, CopiesAreIndependent) {
  // A copy assigned to must not write through to the original (YAML::Node shares its tree).
  const Schema s = testSchema();
  const std::string text = std::string(kGood) + "sweep:\n  ranks_per_case: 2\n  parameters:\n"
                           "    - {key: fluid.density, values: [0.5, 3.0]}\n";
  Deck d(text, "deck.yaml", s);
  const auto cases = sweepCases(d);
  ASSERT_EQ(cases.size(), 2u);
  EXPECT_TRUE(d.root().has("sweep"));
  EXPECT_EQ(d.root().map("sweep").integer("ranks_per_case"), 2);
  EXPECT_DOUBLE_EQ(d.root().map("fluid").real("density"), 1.0);
  Deck e = cases[0].deck;
  e = cases[1].deck;
  EXPECT_DOUBLE_EQ(cases[0].deck.root().map("fluid").real("density"), 0.5);
  EXPECT_DOUBLE_EQ(e.root().map("fluid").real("density"), 3.0);
}
// A failed read must leave the deck as it was: the driver reads time: twice (the watchdog's
// stall_timeout, then the set-up), and yaml-cpp's Node::operator= in the error path overwrote
// the time map, so the second read said "key 'time.dt': missing".
TEST(Deck, AnErrorLeavesTheDeckIntact) {
  const Schema s = testSchema();
  const Deck d(replace(kGood, "steps: 10", "end_time: 1.01"), "deck.yaml", s);
  for (int read = 0; read < 3; ++read) {
    try {
      readRunConfig(d);
      FAIL() << "end_time 1.01 with dt 0.1 was accepted";
    } catch (const DeckError& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find("key 'time.end_time': end_time is not a whole number of steps"), std::string::npos)
          << "read " << read << ": " << m;
    }
  }
  EXPECT_EQ(d.root().map("time").real("dt"), 0.1);
}
