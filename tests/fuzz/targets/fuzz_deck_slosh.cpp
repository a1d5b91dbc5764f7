// libFuzzer target: kirchhoff-slosh decks (io::Deck with the driver's schema, run keys, sweeps,
// setup::readSloshConfig; the DMDA model itself needs PETSc and is not built); loads or
// DeckError/ConfigurationError.
#include <cstdint>

#include "FuzzCheck.hpp"
#include "setup/slosh/SloshSetup.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const kirchhoff::fuzz::DeckTarget target{
      kirchhoff::setup::sloshDriver(), [](const kirchhoff::io::Deck& k) { kirchhoff::setup::readSloshConfig(k); }};
  return kirchhoff::fuzz::fuzzDeckInput("fuzz_deck_slosh", target, data, size);
}
