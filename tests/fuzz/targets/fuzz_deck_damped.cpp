// libFuzzer target: kirchhoff-damped decks (io::Deck with the driver's schema, run keys, sweeps,
// then setup::makeDampedModel with its step-size guards); loads or DeckError/ConfigurationError.
#include <cstdint>

#include "FuzzCheck.hpp"
#include "io/RunConfig.hpp"
#include "setup/damped/DampedSetup.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const kirchhoff::fuzz::DeckTarget target{
      kirchhoff::setup::dampedDriver(), [](const kirchhoff::io::Deck& k) {
        std::string warning;
        kirchhoff::setup::makeDampedModel(k, kirchhoff::io::readRunConfig(k).dt, &warning);
      }};
  return kirchhoff::fuzz::fuzzDeckInput("fuzz_deck_damped", target, data, size);
}
