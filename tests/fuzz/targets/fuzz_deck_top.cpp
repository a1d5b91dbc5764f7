// libFuzzer target: kirchhoff-top decks (io::Deck with the driver's schema, run keys, sweeps,
// then Driver::make: setup::readTopConfig and the TopModel); loads or DeckError/ConfigurationError.
#include <cstdint>

#include "FuzzCheck.hpp"
#include "io/RunConfig.hpp"
#include "setup/top/TopSetup.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const kirchhoff::fuzz::DeckTarget target = [] {
    kirchhoff::run::Driver d = kirchhoff::setup::topDriver();
    auto make = d.make;
    return kirchhoff::fuzz::DeckTarget{d, [make](const kirchhoff::io::Deck& k) { make(k, kirchhoff::io::readRunConfig(k).dt, MPI_COMM_SELF); }};
  }();
  return kirchhoff::fuzz::fuzzDeckInput("fuzz_deck_top", target, data, size);
}
