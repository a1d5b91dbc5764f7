// Round trip of every model's saved state struct (a checkpoint is exactly the State): the State each driver builds from its
// decks in input/, advanced a few steps, written as a checkpoint and read back is bit-identical,
// and Model::restore accepts it; a checkpoint of one deck is refused by another's layout.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

#include "io/Checkpoint.hpp"
#include "io/Deck.hpp"
#include "io/RunConfig.hpp"
#include "run/Main.hpp"
#include "setup/damped/DampedSetup.hpp"
#include "setup/fluidbody/FluidBodySetup.hpp"
#include "setup/slosh/SloshSetup.hpp"
#include "setup/top/TopSetup.hpp"

using namespace kirchhoff;
namespace fs = std::filesystem;

namespace {

std::string deckPath(const std::string& name) {
  const char* src = std::getenv("KIRCHHOFF_SOURCE_DIR");
  return std::string(src ? src : "../..") + "/input/" + name;
}

bool sameBits(const State& a, const State& b) {
  if (a.step != b.step || std::memcmp(&a.time, &b.time, sizeof a.time) != 0) return false;
  if (a.fields.size() != b.fields.size()) return false;
  for (std::size_t i = 0; i < a.fields.size(); ++i) {
    const auto& x = a.fields[i].data;
    const auto& y = b.fields[i].data;
    if (a.fields[i].name != b.fields[i].name || x.size() != y.size()) return false;
    if (!x.empty() && std::memcmp(x.data(), y.data(), x.size() * sizeof(double)) != 0) return false;
  }
  return true;
}

void roundTrip(const run::Driver& driver, const std::string& deckName, int steps) {
  SCOPED_TRACE(deckName);
  const io::Schema schema = run::driverSchema(driver);
  const io::Deck deck = io::Deck::fromFile(deckPath(deckName), schema);
  const double dt = io::readRunConfig(deck).dt;
  auto model = driver.make(deck, dt, MPI_COMM_WORLD);
  State s = model->initialState();
  for (int k = 0; k < steps; ++k) {
    model->step(s);
    s.step += 1;
    s.time = s.step * dt;
  }
  const std::string dir = "tmp_roundtrip_" + fs::path(deckName).stem().string();
  fs::remove_all(dir);
  io::CheckpointStore store(MPI_COMM_WORLD, dir, 2);
  const std::string path = store.write(s, driver.model, dt, deck.hash());
  State back = model->initialState();  // the layout template
  store.read(path, back, driver.model);
  model->restore(back);
  EXPECT_TRUE(sameBits(s, back));
  // One more step from the restored state equals one more step from the original.
  auto twin = driver.make(deck, dt, MPI_COMM_WORLD);
  twin->restore(back);
  State s2 = s;
  model->step(s2);
  twin->step(back);
  back.step = s2.step;
  EXPECT_TRUE(sameBits(s2, back));
}

}  // namespace

TEST(StateRoundTrip, FluidBodyVortices) { roundTrip(setup::fluidbodyDriver(), "fluidbody_vortex_kirchhoff3.yaml", 5); }
TEST(StateRoundTrip, FluidBodyDiskVortex) { roundTrip(setup::fluidbodyDriver(), "fluidbody_disk_vortex.yaml", 12); }
TEST(StateRoundTrip, FluidBodyTwoBodies) { roundTrip(setup::fluidbodyDriver(), "fluidbody_two_bodies.yaml", 3); }
TEST(StateRoundTrip, TopCollective) { roundTrip(setup::topDriver(), "top_kovalevskaya.yaml", 7); }
TEST(StateRoundTrip, TopDirect) { roundTrip(setup::topDriver(), "top_kovalevskaya_direct_implicit.yaml", 7); }
TEST(StateRoundTrip, DampedRayleigh) { roundTrip(setup::dampedDriver(), "damped_elastic_pendulum.yaml", 7); }
TEST(StateRoundTrip, DampedRigidBody) { roundTrip(setup::dampedDriver(), "damped_rigid_body_A.yaml", 7); }
TEST(StateRoundTrip, Slosh) { roundTrip(setup::sloshDriver(), "slosh_small.yaml", 7); }

TEST(StateRoundTrip, LayoutOfAnotherDeckIsRefused) {
  const run::Driver d = setup::fluidbodyDriver();
  const io::Schema schema = run::driverSchema(d);
  const io::Deck a = io::Deck::fromFile(deckPath("fluidbody_disk_vortex.yaml"), schema);
  const io::Deck b = io::Deck::fromFile(deckPath("fluidbody_two_bodies.yaml"), schema);
  auto ma = d.make(a, io::readRunConfig(a).dt, MPI_COMM_WORLD);
  auto mb = d.make(b, io::readRunConfig(b).dt, MPI_COMM_WORLD);
  fs::remove_all("tmp_roundtrip_mismatch");
  io::CheckpointStore store(MPI_COMM_WORLD, "tmp_roundtrip_mismatch", 2);
  const std::string path = store.write(ma->initialState(), "fluidbody", 0.025, a.hash());
  State t = mb->initialState();
  EXPECT_THROW(store.read(path, t, "fluidbody"), CheckpointError);
}
