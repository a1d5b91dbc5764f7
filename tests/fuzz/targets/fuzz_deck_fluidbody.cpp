// libFuzzer target: kirchhoff-fluidbody decks (io::Deck with the driver's schema, run keys,
// sweeps, setup::readFluidBodyConfig); every input loads or gives DeckError/ConfigurationError.
#include <cstdint>

#include "FuzzCheck.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const kirchhoff::fuzz::DeckTarget target = kirchhoff::fuzz::fluidbodyTarget();
  return kirchhoff::fuzz::fuzzDeckInput("fuzz_deck_fluidbody", target, data, size);
}
