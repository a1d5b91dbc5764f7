// The deck section `contact` (docs/fluidbody.md "Contact"): its defaults (impact, elastic, 1e-3 of the
// smallest body size), and bad input refused with exit 65 naming the key or the bodies: restitution
// outside [0, 1], a distance <= 0, bodies that start overlapping or not farther apart than the distance,
// impacts with a composition.
#include <gtest/gtest.h>

#include <string>

#include "core/Error.hpp"
#include "io/Deck.hpp"
#include "io/RunConfig.hpp"
#include "setup/fluidbody/FluidBodySetup.hpp"

using namespace kirchhoff;

namespace {

/// Two Nystrom disks of radius 0.5 (64 nodes) with centres `d` apart, and the given contact section.
std::string deck(const std::string& contact, double d = 1.2, const std::string& extra = "") {
  return "model: fluidbody\ntime: {dt: 0.01, steps: 1}\n" + contact + extra +
         "bodies:\n"
         "  - {name: left, shape: {type: circle, radius: 0.5, edges: 64}, density: 1.0, pose: {position: [0, 0]}}\n"
         "  - {name: right, shape: {type: circle, radius: 0.5, edges: 64}, density: 1.0, pose: {position: [" +
         std::to_string(d) + ", 0]}}\n";
}

fluidbody::FluidBodyConfig read(const std::string& text) {
  io::Schema s("fluidbody");
  io::addRunKeys(s);
  setup::addFluidBodyKeys(s);
  const io::Deck d(text, "deck.yaml", s);
  return setup::readFluidBodyConfig(d, io::readRunConfig(d).dt);
}

void expectDeckError(const std::string& text, const std::string& fragment) {
  try {
    read(text);
    FAIL() << "no error for\n" << text;
  } catch (const DeckError& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    EXPECT_EQ(e.exitCode(), kExitData);
  }
}

}  // namespace

TEST(ContactDeck, DefaultsAreElasticImpactsAtOneThousandthOfTheBodySize) {
  const auto c = read(deck(""));
  EXPECT_TRUE(c.contact.impacts);
  EXPECT_EQ(c.contact.restitution, 1.0);
  EXPECT_NEAR(c.contact.distance, 1e-3, 1e-15);  // the disks' diameter 1
  EXPECT_EQ(c.contact.energy, fluidbody::EnergyCondition::ContactPoint);
  EXPECT_EQ(c.contact.approachFraction, 0.02);
  const auto d = read(deck("contact: {distance: 0.05, restitution: 0.3, energy: discrete, approach_fraction: 0.01}\n"));
  EXPECT_EQ(d.contact.approachFraction, 0.01);
  EXPECT_EQ(d.contact.distance, 0.05);
  EXPECT_EQ(d.contact.restitution, 0.3);
  EXPECT_EQ(d.contact.energy, fluidbody::EnergyCondition::Discrete);
  EXPECT_FALSE(read(deck("contact: {law: none}\n")).contact.impacts);
}

TEST(ContactDeck, BadValuesNameTheKey) {
  expectDeckError(deck("contact: {restitution: -0.1}\n"), "contact.restitution");
  expectDeckError(deck("contact: {restitution: 1.5}\n"), "contact.restitution");
  expectDeckError(deck("contact: {distance: 0}\n"), "contact.distance");
  expectDeckError(deck("contact: {distance: -0.1}\n"), "contact.distance");
  expectDeckError(deck("contact: {law: bounce}\n"), "contact.law");
  expectDeckError(deck("contact: {approach_fraction: 0}\n"), "contact.approach_fraction");
  expectDeckError(deck("contact: {approach_fraction: 0.8}\n"), "contact.approach_fraction");
  expectDeckError(deck("contact: {law: none, restitution: 0.5}\n"), "restitution");  // only with impact
}

TEST(ContactDeck, BodiesMustStartFartherApartThanTheContactDistance) {
  expectDeckError(deck("contact: {distance: 0.1}\n", 1.05),
                  "key 'contact.distance': bodies 'left' and 'right' start 0.05 apart, not farther than the contact distance 0.1");
  expectDeckError(deck("contact: {distance: 0.125}\n", 1.125), "start 0.125 apart");  // = delta: in contact
  expectDeckError(deck("", 0.9), "overlap");                                      // overlapping: the bodies named
  EXPECT_NO_THROW(read(deck("contact: {law: none}\n", 1.05)));                  // no contact law, no distance
}

TEST(ContactDeck, ImpactsDoNotCompose) {
  expectDeckError(deck("", 1.2, "scheme: {composition: suzuki5}\n"), "scheme.composition");
  EXPECT_NO_THROW(read(deck("contact: {law: none}\n", 1.2, "scheme: {composition: suzuki5}\n")));
}
