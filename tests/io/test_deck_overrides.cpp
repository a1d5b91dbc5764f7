// --set KEY=VALUE (io/DeckOverrides): a value replaced and checked like the file's, list items and
// new maps, unknown keys with "did you mean", variants switched (old keys dropped, new required
// keys named), and the untouched keys keep their file positions in later messages.
#include <gtest/gtest.h>

#include "core/Error.hpp"
#include "io/DeckOverrides.hpp"
#include "io/RunConfig.hpp"
#include "io/Schema.hpp"

using namespace kirchhoff;
using namespace kirchhoff::io;

namespace {

Schema overrideSchema() {
  Schema s("damped");
  addRunKeys(s);
  Section& r = s.root().map("rayleigh", "system");
  r.real("eps", "damping").def(0.0).nonnegative();
  r.realList("q", "q(0)").minItems(1);
  Section& sc = r.map("scheme", "integrator", true);
  sc.enumeration("method", {"phi_2s", "heun", "dop853"}, "method").required();
  sc.variant("method", "phi_2s").enumeration("ordering", {"dkd", "kdk"}, "order").def("dkd");
  sc.variant("method", "dop853").real("rtol", "tolerance").required().positive();
  Section& b = s.root().list("bodies", "bodies");
  b.real("density", "rho").def(1.0).positive();
  return s;
}

const char* kDampedDeck = R"(model: damped
time:
  dt: 0.1
  steps: 10
rayleigh:
  eps: 0.01
  q: [1.5]
  scheme:
    method: phi_2s
    ordering: kdk
bodies:
  - density: 2.0
  - density: 3.0
)";

Deck withSets(const Schema& s, std::vector<std::string> sets, std::vector<std::string>* notes = nullptr) {
  std::vector<std::string> n;
  Deck d = applyOverrides(Deck(kDampedDeck, "deck.yaml", s), sets, n);
  if (notes) *notes = n;
  return d;
}

void expectDeckError(std::vector<std::string> sets, std::initializer_list<const char*> fragments) {
  const Schema s = overrideSchema();
  try {
    withSets(s, sets);
    FAIL() << "no error for --set " << sets.front();
  } catch (const DeckError& e) {
    const std::string m = e.what();
    for (const char* f : fragments) EXPECT_NE(m.find(f), std::string::npos) << "missing '" << f << "' in: " << m;
    EXPECT_EQ(m.find('\n'), std::string::npos) << "one line: " << m;
  }
}

}  // namespace

TEST(DeckOverrides, ReplacesValuesInOrder) {
  const Schema s = overrideSchema();
  const Deck d = withSets(s, {"time.dt=0.05", "rayleigh.eps=0.5", "time.dt=0.025", "bodies[1].density=7"});
  EXPECT_EQ(d.root().map("time").real("dt"), 0.025);
  EXPECT_EQ(d.root().map("rayleigh").real("eps"), 0.5);
  EXPECT_EQ(d.root().list("bodies")[1].real("density"), 7.0);
  EXPECT_EQ(d.root().list("bodies")[0].real("density"), 2.0);
  EXPECT_EQ(readRunConfig(d).steps, 10);
  EXPECT_NE(d.hash(), Deck(kDampedDeck, "deck.yaml", s).hash()) << "the hash covers the overridden deck";
  EXPECT_EQ(d.file(), "deck.yaml");
}

TEST(DeckOverrides, ListValuesAndNewMaps) {
  const Schema s = overrideSchema();
  const Deck d = withSets(s, {"rayleigh.q=[0.5, 0.25]", "output.log_interval=5"});
  EXPECT_EQ(d.root().map("rayleigh").vector("q"), (std::vector<double>{0.5, 0.25}));
  EXPECT_EQ(d.root().map("output").integer("log_interval"), 5);
}

TEST(DeckOverrides, NoSetsIsTheSameDeck) {
  const Schema s = overrideSchema();
  EXPECT_EQ(withSets(s, {}).text(), std::string(kDampedDeck));
}

TEST(DeckOverrides, InvalidValuesGiveTheFilesMessages) {
  expectDeckError({"time.dt=-1"}, {"--set time.dt=-1: key 'time.dt': value -1 out of range, expected real > 0"});
  expectDeckError({"rayleigh.eps=abc"}, {"key 'rayleigh.eps': expected a real >= 0, got 'abc'"});
  expectDeckError({"rayleigh.scheme.method=hen"},
                  {"key 'rayleigh.scheme.method': unknown choice 'hen', expected one of {phi_2s, heun, dop853}"});
  expectDeckError({"rayleigh.q=[1, x]"}, {"key 'rayleigh.q[1]'", "expected a real number, got 'x'"});
  expectDeckError({"bodies[5].density=1"}, {"key 'bodies': no item [5] (the deck has 2)"});
  expectDeckError({"rayleigh.scheme=heun"}, {"'rayleigh.scheme' is a map: set one of its keys"});
}

TEST(DeckOverrides, UnknownKeySaysDidYouMean) {
  expectDeckError({"rayleigh.scheme.methd=heun"},
                  {"key 'rayleigh.scheme.methd': unknown key (did you mean 'rayleigh.scheme.method'?)"});
  // A path without its section: the full path that ends in it.
  expectDeckError({"scheme.method=heun"}, {"key 'scheme': unknown key (did you mean 'rayleigh.scheme.method'?)"});
  expectDeckError({"tme.dt=0.1"}, {"key 'tme': unknown key (did you mean 'time'?)"});
}

TEST(DeckOverrides, VariantSwitchDropsTheOldChoicesKeys) {
  const Schema s = overrideSchema();
  std::vector<std::string> notes;
  const Deck d = withSets(s, {"rayleigh.scheme.method=heun"}, &notes);
  EXPECT_EQ(d.root().map("rayleigh").map("scheme").string("method"), "heun");
  EXPECT_EQ(d.text().find("ordering"), std::string::npos);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0], "--set rayleigh.scheme.method=heun: removed rayleigh.scheme.ordering (it applies only to "
                      "method phi_2s)");
}

TEST(DeckOverrides, VariantSwitchNamesTheKeyToAdd) {
  expectDeckError({"rayleigh.scheme.method=dop853"},
                  {"method dop853 needs key 'rayleigh.scheme.rtol' (real > 0): add --set rayleigh.scheme.rtol=VALUE"});
  // Back to a choice with optional keys: they can be set once the choice allows them.
  const Schema s = overrideSchema();
  const Deck d = withSets(s, {"rayleigh.scheme.method=heun"});
  std::vector<std::string> notes;
  const Deck back = applyOverrides(d, {"rayleigh.scheme.method=phi_2s", "rayleigh.scheme.ordering=kdk"}, notes);
  EXPECT_EQ(back.root().map("rayleigh").map("scheme").string("ordering"), "kdk");
}

TEST(DeckOverrides, UntouchedKeysKeepTheirFilePositions) {
  const Schema s = overrideSchema();
  const Deck d = withSets(s, {"rayleigh.eps=0.5"});
  EXPECT_EQ(d.root().map("time").where("dt"), "deck.yaml:3:7");
}

// A copy of an overridden deck (a run's, a sweep case's) is a fresh parse of the file with the
// --set edits replayed: the values and the variant switch stay, and an error found later names
// the file's line (a YAML::Clone copy had no positions).
TEST(DeckOverrides, CopiesKeepTheOverridesAndTheFilePositions) {
  const Schema s = overrideSchema();
  const Deck d = withSets(s, {"time.end_time=1.0", "rayleigh.scheme.method=heun"});
  Deck copy = d;
  copy = Deck(copy);
  EXPECT_EQ(copy.text(), d.text());
  EXPECT_EQ(copy.root().map("rayleigh").map("scheme").string("method"), "heun");
  EXPECT_EQ(copy.locate({"rayleigh.scheme.ordering"}), "deck.yaml");  // dropped by the switch
  EXPECT_EQ(copy.locate({"rayleigh.q"}), "deck.yaml:7:6: key 'rayleigh.q'");
  EXPECT_EQ(copy.root().map("rayleigh").where("eps"), "deck.yaml:6:8");
  try {
    readRunConfig(copy);  // both time.steps (from the file) and time.end_time (--set)
    FAIL() << "no error";
  } catch (const DeckError& e) {
    EXPECT_NE(std::string(e.what()).find("deck.yaml:3:3: 'time': give exactly one"), std::string::npos)
        << e.what();
  }
}

TEST(DeckOverrides, MissingEqualsIsAUsageError) {
  const Schema s = overrideSchema();
  std::vector<std::string> n;
  EXPECT_THROW(applyOverrides(Deck(kDampedDeck, "deck.yaml", s), {"time.dt"}, n), UsageError);
}
