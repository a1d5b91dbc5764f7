// The fuzz property for decks and checkpoints (hostile input must fail cleanly): load, or the documented error
// type with exit code 65 (core/Error.hpp); any other exception is reported as a finding.
#include "FuzzCheck.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <vector>

#include <petscsys.h>

#include "core/Error.hpp"
#include "io/Checkpoint.hpp"
#include "io/RunConfig.hpp"
#include "setup/fluidbody/FluidBodySetup.hpp"

namespace kirchhoff::fuzz {

namespace {

enum Allowed { kDeck, kCheckpoint };

bool documented(const Error& e, Allowed allowed) {
  if (e.exitCode() != kExitData) return false;
  if (allowed == kDeck)
    return dynamic_cast<const DeckError*>(&e) || dynamic_cast<const ConfigurationError*>(&e);
  return dynamic_cast<const CheckpointError*>(&e) != nullptr;
}

/// Runs `body` and classifies its outcome.
template <class F>
Verdict classify(F&& body, Allowed allowed) {
  Verdict v;
  try {
    body();
    v.loaded = true;
  } catch (const Error& e) {
    if (!documented(e, allowed))
      v.finding = std::string("undocumented kirchhoff::Error (exit code ") + std::to_string(e.exitCode()) +
                  "): " + e.what();
  } catch (const std::exception& e) {
    v.finding = std::string("std::exception escaped: ") + e.what();
  } catch (...) {
    v.finding = "unknown exception escaped";
  }
  return v;
}

/// A layout deck's model and its initial state (the field layout a checkpoint must match).
struct Layout {
  std::string name;
  std::unique_ptr<io::Schema> schema;
  std::unique_ptr<io::Deck> deck;
  std::unique_ptr<Model> model;
  State initial;
};

std::vector<Layout>& layoutStore() {
  // Never destroyed: the fuzzer's atexit handler (registered before first use) must still
  // find it to release the PETSc objects before PetscFinalize.
  static auto* all = new std::vector<Layout>;
  return *all;
}

/// Built on first use, released by releaseLayouts() (before PetscFinalize).
std::vector<Layout>& layouts() {
  std::vector<Layout>& all = layoutStore();
  if (all.empty()) {
    const run::Driver d = setup::fluidbodyDriver();
    for (const char* name : {"pair", "body"}) {
      Layout l;
      l.name = name;
      const std::string file = fuzzDir() + "/layouts/" + name + ".yaml";
      l.schema = std::make_unique<io::Schema>(run::driverSchema(d));
      l.deck = std::make_unique<io::Deck>(io::Deck::fromFile(file, *l.schema));
      l.model = d.make(*l.deck, io::readRunConfig(*l.deck).dt, PETSC_COMM_SELF);
      l.initial = l.model->initialState();
      all.push_back(std::move(l));
    }
  }
  return all;
}

std::string scratchFile() {
  static const std::string path = [] {
    const char* dir = std::getenv("KIRCHHOFF_FUZZ_TMP");
    return std::string(dir ? dir : "/tmp") + "/kirchhoff-fuzz-" + std::to_string(::getpid()) + ".h5";
  }();
  return path;
}

}  // namespace

std::string fuzzDir() {
#ifdef KIRCHHOFF_FUZZ_DIR
  return KIRCHHOFF_FUZZ_DIR;
#else
  const char* src = std::getenv("KIRCHHOFF_SOURCE_DIR");  // set by ctest for every test
  return std::string(src ? src : ".") + "/tests/fuzz";
#endif
}

std::string readFile(const std::string& path, bool* ok) {
  std::ifstream in(path, std::ios::binary);
  if (ok) *ok = static_cast<bool>(in);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Verdict checkDeck(const DeckTarget& target, const std::string& text) {
  static std::map<std::string, std::unique_ptr<io::Schema>> schemas;  // one per driver
  auto& slot = schemas[target.driver.model];
  if (!slot) slot = std::make_unique<io::Schema>(run::driverSchema(target.driver));
  const io::Schema& schema = *slot;
  return classify(
      [&] {
        const io::Deck deck(text, kFuzzDeckFile, schema);
        io::readRunConfig(deck);
        (void)deck.petscOptions();
        (void)deck.hash();
        const auto cases = io::sweepCases(deck);
        if (deck.root().has("sweep")) (void)deck.root().map("sweep").integer("ranks_per_case");
        for (const auto& c : cases) {
          io::readRunConfig(c.deck);
          target.readConfig(c.deck);
        }
      },
      kDeck);
}

int fuzzDeckInput(const char* name, const DeckTarget& target, const std::uint8_t* data, std::size_t size) {
  const Verdict v = checkDeck(target, std::string(reinterpret_cast<const char*>(data), size));
  if (!v.finding.empty()) {
    std::fprintf(stderr, "%s finding: %s\n", name, v.finding.c_str());
    std::abort();
  }
  return 0;
}

Verdict checkCheckpoint(const std::string& bytes) {
  const std::string path = scratchFile();
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  Verdict all;
  for (Layout& l : layouts()) {
    io::CheckpointStore store(PETSC_COMM_SELF, "/nonexistent-kirchhoff-fuzz", 2);
    Verdict v = classify(
        [&] {
          State s = l.initial;
          store.read(path, s, "fluidbody");
          l.model->restore(s);
        },
        kCheckpoint);
    if (!v.finding.empty()) {
      v.finding = "layout " + l.name + ": " + v.finding;
      return v;
    }
    all.loaded = all.loaded || v.loaded;
  }
  return all;
}

void releaseLayouts() { layoutStore().clear(); }

DeckTarget fluidbodyTarget() {
  return {setup::fluidbodyDriver(), [](const io::Deck& d) { setup::readFluidBodyConfig(d, io::readRunConfig(d).dt); }};
}

}  // namespace kirchhoff::fuzz
