// The property every fuzz input must have (hostile input must fail cleanly): the deck reader/validator and the
// checkpoint reader either load it or throw the documented error type (exit 65), nothing else.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "io/Deck.hpp"
#include "run/Main.hpp"

namespace kirchhoff::fuzz {

/// How a reader reacted to one input.
struct Verdict {
  bool loaded = false;  ///< read without error
  std::string finding;  ///< non-empty: a bug (wrong exception type or exit code)
};

/// A driver as the deck fuzzer sees it: its run::Driver (schema) and its pure deck -> config
/// reader (cross-key checks), which the run loop calls through Driver::make.
struct DeckTarget {
  run::Driver driver;
  std::function<void(const io::Deck&)> readConfig;
};

/// The file name decks are given: in a folder that does not exist, so a relative `file:` key
/// (polygon vertices) fails to open instead of reading whatever lies in the working folder.
inline const char* kFuzzDeckFile = "/nonexistent-kirchhoff-fuzz/deck.yaml";

/// Deck text through everything the run loop does before stepping: parse + validate against
/// the driver's schema, the common run keys, the sweep expansion (each case re-validated) and
/// the model's config reader on every case. Allowed errors: DeckError, ConfigurationError.
Verdict checkDeck(const DeckTarget& target, const std::string& text);
/// A deck fuzzer's LLVMFuzzerTestOneInput: checkDeck on the bytes; a finding is printed with the
/// target's name and aborts (libFuzzer then saves the input).
int fuzzDeckInput(const char* name, const DeckTarget& target, const std::uint8_t* data, std::size_t size);

/// Bytes written as a checkpoint file and read by io::CheckpointStore::read into the layout of
/// each of the layout decks (tests/fuzz/layouts/*.yaml, models built on PETSC_COMM_SELF), then
/// Model::restore. Allowed error: CheckpointError. Needs MPI and PETSc initialized.
Verdict checkCheckpoint(const std::string& bytes);
/// Destroys the layout models (their PETSc objects); call before PetscFinalize.
void releaseLayouts();

/// The fluidbody deck target (setup::fluidbodyDriver + setup::readFluidBodyConfig).
DeckTarget fluidbodyTarget();

/// Folder of tests/fuzz in the source tree (compile definition KIRCHHOFF_FUZZ_DIR, else
/// $KIRCHHOFF_SOURCE_DIR/tests/fuzz).
std::string fuzzDir();
/// Whole file as bytes ("" and ok = false if unreadable).
std::string readFile(const std::string& path, bool* ok = nullptr);

}  // namespace kirchhoff::fuzz
