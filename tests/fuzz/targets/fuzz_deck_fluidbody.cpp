// libFuzzer target: kirchhoff-fluidbody decks (io::Deck with the driver's schema, run keys,
// sweeps, setup::readFluidBodyConfig); every input loads or gives DeckError/ConfigurationError.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "FuzzCheck.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const kirchhoff::fuzz::DeckTarget target = kirchhoff::fuzz::fluidbodyTarget();
  const std::string text(reinterpret_cast<const char*>(data), size);
  const kirchhoff::fuzz::Verdict v = kirchhoff::fuzz::checkDeck(target, text);
  if (!v.finding.empty()) {
    std::fprintf(stderr, "fuzz_deck_fluidbody finding: %s\n", v.finding.c_str());
    std::abort();
  }
  return 0;
}
