// Replays the fuzz corpora and every input a fuzzer found to fail (tests/fuzz/regressions/) through
// the fuzz property: each deck / checkpoint loads or gives the documented error (exit 65).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "FuzzCheck.hpp"
#include "core/Error.hpp"
#include "io/RunConfig.hpp"
#include "setup/fluidbody/FluidBodySetup.hpp"

using namespace kirchhoff::fuzz;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> filesIn(const std::string& dir, const std::string& prefix = "") {
  std::vector<std::string> v;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.is_regular_file() && e.path().filename().string().rfind(prefix, 0) == 0 &&
        e.path().filename().string() != "README.md")
      v.push_back(e.path().string());
  std::sort(v.begin(), v.end());
  return v;
}

/// Destroys the layout models' PETSc objects before the gtest main calls PetscFinalize.
class ReleaseLayouts : public ::testing::Environment {
 public:
  void TearDown() override { releaseLayouts(); }
};
const auto* const kRelease = ::testing::AddGlobalTestEnvironment(new ReleaseLayouts);

std::string sourceDir() { return fs::path(fuzzDir()).parent_path().parent_path().string(); }

/// Counts loaded inputs; every input must give no finding.
int replayDecks(const std::vector<std::string>& files) {
  const DeckTarget t = fluidbodyTarget();
  int loaded = 0;
  for (const auto& f : files) {
    const Verdict v = checkDeck(t, readFile(f));
    EXPECT_TRUE(v.finding.empty()) << f << ": " << v.finding;
    loaded += v.loaded ? 1 : 0;
  }
  return loaded;
}

}  // namespace

// The seed decks: every published fluidbody deck in input/ must load (they are what users run).
TEST(FuzzReplay, InputDecksLoad) {
  const auto files = filesIn(sourceDir() + "/input", "fluidbody_");
  ASSERT_GE(files.size(), 5u);
  EXPECT_EQ(replayDecks(files), static_cast<int>(files.size()));
}

// The hand-written deck seeds (edge cases) and every deck a fuzzer made fail: no finding.
TEST(FuzzReplay, DeckCorpusAndRegressions) {
  auto files = filesIn(fuzzDir() + "/corpus/deck");
  ASSERT_FALSE(files.empty());
  const auto reg = filesIn(fuzzDir() + "/regressions/deck");
  files.insert(files.end(), reg.begin(), reg.end());
  replayDecks(files);
}

// The saved checkpoints load (in their layout) and every checkpoint a fuzzer made fail gives a
// CheckpointError or loads, never another exception (crashes would end this test binary).
TEST(FuzzReplay, CheckpointCorpusAndRegressions) {
  const auto seeds = filesIn(fuzzDir() + "/corpus/checkpoint");
  ASSERT_GE(seeds.size(), 2u);
  for (const auto& f : seeds) {
    const Verdict v = checkCheckpoint(readFile(f));
    EXPECT_TRUE(v.finding.empty()) << f << ": " << v.finding;
    EXPECT_TRUE(v.loaded) << f << " is a seed checkpoint and must load";
  }
  for (const auto& f : filesIn(fuzzDir() + "/regressions/checkpoint")) {
    const Verdict v = checkCheckpoint(readFile(f));
    EXPECT_TRUE(v.finding.empty()) << f << ": " << v.finding;
  }
}

// Findings in the fluidbody keys (tests/fuzz/regressions/deck/edges_*.yaml): `edges: 2000000000`
// ran out of memory (a 32 GB vertex array), `edges: 100000` hung in the O(N^2) outline check,
// `edges: 4294967299` wrapped to a triangle on the int cast. Now at most 16384 panels per body
// (also for polygon vertex lists), refused with a DeckError naming the key.
TEST(FuzzRegressions, PanelCountIsBounded) {
  const kirchhoff::run::Driver d = kirchhoff::setup::fluidbodyDriver();
  const kirchhoff::io::Schema schema = kirchhoff::run::driverSchema(d);
  auto error = [&](const std::string& shape) -> std::string {
    const std::string text = "model: fluidbody\ntime: {dt: 0.01, steps: 1}\nbodies:\n  - shape: " + shape +
                             "\n    density: 1.0\n";
    try {
      const kirchhoff::io::Deck deck(text, "deck.yaml", schema);
      kirchhoff::setup::readFluidBodyConfig(deck, kirchhoff::io::readRunConfig(deck).dt);
    } catch (const kirchhoff::DeckError& e) {
      return e.what();
    }
    return "";
  };
  for (const char* n : {"2000000000", "100000", "4294967299", "16385"}) {
    const std::string m = error(std::string("{type: circle, radius: 0.5, edges: ") + n + "}");
    EXPECT_NE(m.find("bodies[0].shape.edges"), std::string::npos) << n << ": " << m;
    EXPECT_NE(m.find("out of range"), std::string::npos) << n << ": " << m;
  }
  EXPECT_EQ(error("{type: ellipse, a: 1.0, b: 0.5, edges: 512}"), "");  // (16384 takes ~40 s under ASan)
  std::string many = "{type: polygon, vertices: [";
  for (int k = 0; k < 16385; ++k) {
    const double t = 6.283185307179586 * k / 16385.0;
    many += (k ? ", " : "") + std::to_string(std::cos(t)) + ", " + std::to_string(std::sin(t));
  }
  const std::string m = error(many + "]}");
  EXPECT_NE(m.find("16385 vertices, at most 16384"), std::string::npos) << m.substr(0, 300);
}
