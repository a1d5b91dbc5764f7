// Checkpoints and the invariant log on one rank: exact round trips of every state struct, hash
// detection of corrupt files, fallback to the previous checkpoint, log truncation on restart.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

#include "core/Error.hpp"
#include "io/Checkpoint.hpp"
#include "io/Hdf5.hpp"
#include "io/InvariantLog.hpp"
#include "io/SnapshotWriter.hpp"

using namespace kirchhoff;
namespace fs = std::filesystem;

namespace {

std::string freshDir(const std::string& name) {
  const std::string d = "tmp_io_" + name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

State sampleState(std::int64_t step) {
  State s;
  s.step = step;
  s.time = 0.1 * static_cast<double>(step);
  std::mt19937_64 rng(42 + static_cast<unsigned>(step));
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> q(7), p(7);
  for (auto& x : q) x = u(rng);
  for (auto& x : p) x = u(rng) * 1e-300;  // denormal-range values survive bit for bit
  q[3] = -0.0;
  s.add("q", q);
  s.add("p", p);
  s.add("empty", {});
  return s;
}

State layoutOf(const State& s) {
  State t = s;
  for (auto& f : t.fields) std::fill(f.data.begin(), f.data.end(), 0.0);
  t.step = -1;
  t.time = -1;
  return t;
}

void flipByte(const std::string& path, std::size_t fromEnd) {
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  f.seekg(0, std::ios::end);
  const auto size = static_cast<std::size_t>(f.tellg());
  const std::size_t pos = size - fromEnd;
  f.seekg(static_cast<std::streamoff>(pos));
  char c;
  f.read(&c, 1);
  c = static_cast<char>(c ^ 0x5a);
  f.seekp(static_cast<std::streamoff>(pos));
  f.write(&c, 1);
}

}  // namespace

TEST(Checkpoint, RoundTripIsBitwise) {
  const std::string d = freshDir("roundtrip");
  io::CheckpointStore store(MPI_COMM_WORLD, d + "/checkpoints", 2);
  const State s = sampleState(12);
  const std::string path = store.write(s, "fluidbody", 0.1, 0xabcdefull);
  State r = layoutOf(s);
  const io::CheckpointInfo info = store.read(path, r, "fluidbody");
  EXPECT_EQ(r.step, 12);
  EXPECT_EQ(r.time, s.time);
  EXPECT_EQ(info.deckHash, 0xabcdefull);
  EXPECT_EQ(info.dt, 0.1);
  for (std::size_t i = 0; i < s.fields.size(); ++i) {
    ASSERT_EQ(r.fields[i].data.size(), s.fields[i].data.size());
    if (s.fields[i].data.empty()) continue;  // memcmp(nullptr, nullptr, 0) is undefined (UBSan)
    EXPECT_EQ(0, std::memcmp(r.fields[i].data.data(), s.fields[i].data.data(), s.fields[i].data.size() * 8));
  }
  EXPECT_TRUE(std::signbit(r["q"][3]));
}

TEST(Checkpoint, KeepsTheNewestTwo) {
  const std::string d = freshDir("rotation");
  io::CheckpointStore store(MPI_COMM_WORLD, d + "/checkpoints", 2);
  for (int k : {1, 2, 3, 4}) store.write(sampleState(k), "fluidbody", 0.1, 1);
  const auto files = store.list();
  ASSERT_EQ(files.size(), 2u);
  EXPECT_NE(files[0].find("checkpoint_0000000004.h5"), std::string::npos);
  EXPECT_NE(files[1].find("checkpoint_0000000003.h5"), std::string::npos);
}

TEST(Checkpoint, WrongModelOrLayoutIsRejected) {
  const std::string d = freshDir("layout");
  io::CheckpointStore store(MPI_COMM_WORLD, d + "/checkpoints", 2);
  const State s = sampleState(5);
  const std::string path = store.write(s, "fluidbody", 0.1, 1);
  State r = layoutOf(s);
  EXPECT_THROW(store.read(path, r, "top"), CheckpointError);
  State bigger = layoutOf(s);
  bigger["q"].resize(9);
  try {
    store.read(path, bigger, "fluidbody");
    FAIL();
  } catch (const CheckpointError& e) {
    EXPECT_NE(std::string(e.what()).find("state field q has 7 values, the deck needs 9"), std::string::npos) << e.what();
  }
}

TEST(Checkpoint, ResizableFieldIsReadAtItsStoredLength) {
  // A cache field (e.g. the lagged DEL Jacobian remainder) may be empty in one run and full in the
  // next: it is restored at the stored length, and the state hash still checks every value.
  const std::string d = freshDir("resizable");
  io::CheckpointStore store(MPI_COMM_WORLD, d + "/checkpoints", 2);
  State s = sampleState(6);
  s.add("cache", {1.5, -2.5, 3.5}).resizable = true;
  const std::string path = store.write(s, "fluidbody", 0.1, 1);
  State r = layoutOf(s);
  r["cache"].clear();
  store.read(path, r, "fluidbody");
  EXPECT_EQ(r["cache"], (std::vector<double>{1.5, -2.5, 3.5}));
  State fixed = layoutOf(s);
  fixed.find("cache")->resizable = false;
  fixed["cache"].clear();
  EXPECT_THROW(store.read(path, fixed, "fluidbody"), CheckpointError);
}

TEST(Checkpoint, OptionalFieldMissingFromAnOlderCheckpointLoadsEmpty) {
  // A field added in a later version (fluidbody's momentum_map, (FB-29g)): a checkpoint written without it loads
  // (its state hash is checked over the fields it holds: counting the absent one would fail it), and the field comes
  // back empty for the model to fill.
  const std::string d = freshDir("optional");
  io::CheckpointStore store(MPI_COMM_WORLD, d + "/checkpoints", 2);
  const State older = sampleState(7);
  const std::string path = store.write(older, "fluidbody", 0.1, 1);
  State r = layoutOf(older);
  r.add("momentum_map", {9.0, 9.0, 9.0}).optional = true;
  store.read(path, r, "fluidbody");
  EXPECT_TRUE(r["momentum_map"].empty());
  EXPECT_EQ(r["q"], older.find("q")->data);
  // Written with the field, it is read back; a required field of the same name would have failed on the older file.
  State newer = sampleState(8);
  newer.add("momentum_map", {1.0, -2.0, 3.0}).optional = true;
  const std::string path2 = store.write(newer, "fluidbody", 0.1, 1);
  State r2 = layoutOf(newer);
  store.read(path2, r2, "fluidbody");
  EXPECT_EQ(r2["momentum_map"], (std::vector<double>{1.0, -2.0, 3.0}));
  State required = layoutOf(older);
  required.add("momentum_map", {0.0, 0.0, 0.0});
  EXPECT_THROW(store.read(path, required, "fluidbody"), CheckpointError);
}

TEST(Checkpoint, FlippedDataByteFailsTheHashAndFallsBack) {
  const std::string d = freshDir("flip");
  io::CheckpointStore store(MPI_COMM_WORLD, d + "/checkpoints", 2);
  const State older = sampleState(10), newer = sampleState(20);
  store.write(older, "fluidbody", 0.1, 1);
  const std::string path = store.write(newer, "fluidbody", 0.1, 1);
  // Corrupt one value of q in place (find it by its bytes, so the test targets data, not metadata).
  std::ifstream in(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), {});
  in.close();
  const double x = newer["q"][0];
  const std::string pat(reinterpret_cast<const char*>(&x), 8);
  const auto pos = bytes.find(pat);
  ASSERT_NE(pos, std::string::npos);
  flipByte(path, bytes.size() - pos - 3);
  State r = layoutOf(newer);
  EXPECT_THROW(store.read(path, r, "fluidbody"), CheckpointError);
  std::vector<std::string> warnings;
  State r2 = layoutOf(older);
  const io::CheckpointInfo info = store.readNewest(r2, "fluidbody", &warnings);
  EXPECT_EQ(info.step, 10);
  EXPECT_EQ(r2["q"], older["q"]);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("hash mismatch"), std::string::npos) << warnings[0];
}

TEST(Checkpoint, TruncatedFileFallsBackAndNoneLeftIsAnError) {
  const std::string d = freshDir("truncate");
  io::CheckpointStore store(MPI_COMM_WORLD, d + "/checkpoints", 2);
  store.write(sampleState(1), "fluidbody", 0.1, 1);
  const std::string p2 = store.write(sampleState(2), "fluidbody", 0.1, 1);
  fs::resize_file(p2, fs::file_size(p2) / 2);
  std::vector<std::string> warnings;
  State r = layoutOf(sampleState(1));
  EXPECT_EQ(store.readNewest(r, "fluidbody", &warnings).step, 1);
  EXPECT_EQ(warnings.size(), 1u);
  const auto files = store.list();
  fs::resize_file(files[1], 100);
  try {
    State r3 = layoutOf(sampleState(1));
    store.readNewest(r3, "fluidbody", nullptr);
    FAIL();
  } catch (const CheckpointError& e) {
    EXPECT_NE(std::string(e.what()).find("no usable checkpoint"), std::string::npos);
    EXPECT_EQ(e.exitCode(), kExitData);
  }
}

TEST(Checkpoint, HashSeesEveryValuePositionAndName) {
  State a = sampleState(3), b = a;
  const auto h = io::stateHash(a, MPI_COMM_WORLD);
  std::swap(b["q"][0], b["q"][1]);
  EXPECT_NE(io::stateHash(b, MPI_COMM_WORLD), h);
  State c = a;
  c.fields[0].name = "Q";
  EXPECT_NE(io::stateHash(c, MPI_COMM_WORLD), h);
  State e = a;
  e.time = std::nextafter(e.time, 1.0);
  EXPECT_NE(io::stateHash(e, MPI_COMM_WORLD), h);
}

TEST(InvariantLog, AppendTruncateAndContinue) {
  const std::string d = freshDir("log");
  const std::string path = d + "/invariants.h5";
  {
    auto log = io::InvariantLog::create(path, {"energy", "momentum_x"}, {{"model", "fluidbody"}}, 1, 3);
    for (int k = 0; k <= 10; ++k) log.append(k, 0.5 * k, {1.0 + k, -1.0 * k});
    log.snapshotForCheckpoint();
  }
  std::string w;
  {
    auto log = io::InvariantLog::reopen(path, {"energy", "momentum_x"}, 6, 1, 3, &w);
    EXPECT_TRUE(w.empty());
    EXPECT_EQ(log.firstValue("energy"), 1.0);
    log.append(7, 3.5, {100.0, 0.0});
  }
  io::h5::Handle f(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  io::h5::Handle g(H5Gopen2(f, "invariants", H5P_DEFAULT));
  const auto steps = io::h5::readInt64s(g, "step");
  const auto e = io::h5::readDoubles(g, "energy");
  ASSERT_EQ(steps.size(), 8u);
  EXPECT_EQ(steps.back(), 7);
  EXPECT_EQ(e[6], 7.0);
  EXPECT_EQ(e[7], 100.0);
  EXPECT_EQ(io::h5::readStringAttribute(f, "model"), "fluidbody");
}

TEST(InvariantLog, OffGridFinalRowIsDroppedOnRestart) {
  const std::string d = freshDir("loggrid");
  const std::string path = d + "/invariants.h5";
  {
    auto log = io::InvariantLog::create(path, {"energy"}, {}, 1, 100);
    for (int k : {0, 5, 10, 13}) log.append(k, k, {1.0 * k});  // 13: a final row off the grid
  }
  std::string w;
  { auto log = io::InvariantLog::reopen(path, {"energy"}, 13, 5, 100, &w); }
  io::h5::Handle f(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  io::h5::Handle g(H5Gopen2(f, "invariants", H5P_DEFAULT));
  EXPECT_EQ(io::h5::readInt64s(g, "step"), (std::vector<std::int64_t>{0, 5, 10}));
}

TEST(InvariantLog, DamagedLogIsRebuiltFromItsCheckpointCopy) {
  const std::string d = freshDir("logbackup");
  const std::string path = d + "/invariants.h5";
  {
    auto log = io::InvariantLog::create(path, {"energy"}, {}, 1, 100);
    for (int k = 0; k <= 4; ++k) log.append(k, k, {2.0 * k});
    log.snapshotForCheckpoint();
  }
  fs::resize_file(path, 200);
  std::string w;
  { auto log = io::InvariantLog::reopen(path, {"energy"}, 4, 1, 100, &w); }
  EXPECT_NE(w.find("continued from"), std::string::npos) << w;
  io::h5::Handle f(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  io::h5::Handle g(H5Gopen2(f, "invariants", H5P_DEFAULT));
  EXPECT_EQ(io::h5::readDoubles(g, "energy").back(), 8.0);
  fs::remove(path + ".ckpt");
  fs::resize_file(path, 200);
  EXPECT_THROW(io::InvariantLog::reopen(path, {"energy"}, 4, 1, 100, &w), CheckpointError);
}

TEST(Snapshots, WriteAndTrimOnRestart) {
  const std::string d = freshDir("snap");
  Snapshot s;
  SnapshotMesh m;
  m.name = "bodies";
  m.topology = SnapshotMesh::Topology::Polygon;
  m.coordinates = {0, 0, 1, 0, 0, 1, 2, 2, 3, 2, 3, 3, 2, 3};
  m.cellSizes = {3, 4};
  m.attributes.emplace_back("body", std::vector<double>{0, 0, 0, 1, 1, 1, 1});
  m.vectors.emplace_back("velocity", std::vector<double>(14, 0.5));
  s.meshes.push_back(m);
  s.quantities = {{"body", "1", "body index j", "diagnostic", true}};  // as the model declares it
  {
    io::SnapshotWriter w(d + "/s.h5", d + "/s", -1, {{"model", "fluidbody"}});
    for (int k : {0, 10, 20}) {
      s.meshes[0].coordinates[0] = k;  // tells the frames apart
      w.write(k, 0.1 * k, s);
    }
    w.write(25, 2.5, s, true);  // the end of a run off the grid
    EXPECT_EQ(w.frames(), 4);
  }
  auto xmfText = [&] {
    std::ifstream x(d + "/s_bodies.xmf");
    return std::string((std::istreambuf_iterator<char>(x)), {});
  };
  EXPECT_NE(xmfText().find("Time Value=\"2.5\""), std::string::npos);
  {  // restart from step 10: frames 20 and the end-of-run frame 25 are cut, 30 appended
    io::SnapshotWriter w(d + "/s.h5", d + "/s", 10);
    EXPECT_EQ(w.frames(), 2);
    EXPECT_EQ(w.lastStep(), 10);
    s.meshes[0].coordinates[0] = 30;
    w.write(30, 3.0, s);
  }
  const std::string xmf = xmfText();
  EXPECT_NE(xmf.find("Time Value=\"1\""), std::string::npos);
  EXPECT_EQ(xmf.find("Time Value=\"2\""), std::string::npos);
  EXPECT_EQ(xmf.find("Time Value=\"2.5\""), std::string::npos);
  EXPECT_NE(xmf.find("Time Value=\"3\""), std::string::npos);
  EXPECT_NE(xmf.find("TopologyType=\"Mixed\" NumberOfElements=\"2\""), std::string::npos);
  EXPECT_NE(xmf.find("Dimensions=\"7 2\""), std::string::npos);
  EXPECT_NE(xmf.find("s.h5:/bodies/coordinates|2 0 0:1 1 1:1 7 2:3 7 2"), std::string::npos);
  EXPECT_NE(xmf.find("</Xdmf>"), std::string::npos);
  io::h5::Handle f(H5Fopen((d + "/s.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  ASSERT_TRUE(f.valid());
  EXPECT_EQ(io::h5::readInt64s(f, "step"), (std::vector<std::int64_t>{0, 10, 30}));
  io::h5::Handle c(H5Dopen2(f, "bodies/coordinates", H5P_DEFAULT));
  EXPECT_EQ(io::h5::shape(c), (std::vector<hsize_t>{3, 7, 2}));
  std::vector<double> xyz(42);
  ASSERT_GE(H5Dread(c, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, xyz.data()), 0);
  EXPECT_EQ(xyz[0], 0.0);
  EXPECT_EQ(xyz[14], 10.0);
  EXPECT_EQ(xyz[28], 30.0);
  io::h5::Handle b(H5Dopen2(f, "bodies/body", H5P_DEFAULT));
  EXPECT_TRUE(io::h5::isInteger(b));
  EXPECT_EQ(io::h5::readStringAttribute(b, "kind"), "diagnostic");
  EXPECT_EQ(io::h5::readStringAttribute(b, "description"), "body index j");
  EXPECT_EQ(io::h5::readInt64Attribute(f, "restarts"), 1);
}

// A fresh folder (named after the test) and a snapshot of one vortex at (1, 2).
class OneVortexSnapshots : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    d = freshDir(std::string("snap_") + test->name());
    SnapshotMesh m;
    m.name = "vortices";
    m.coordinates = {1, 2};
    s.meshes.push_back(m);
  }
  std::string d;
  Snapshot s;
};

TEST_F(OneVortexSnapshots, DamagedFileIsSetAsideOnRestart) {
  {
    io::SnapshotWriter w(d + "/s.h5", d + "/s", -1);
    w.write(0, 0.0, s);
  }
  fs::resize_file(d + "/s.h5", 300);
  std::string warning;
  io::SnapshotWriter w(d + "/s.h5", d + "/s", 5, {}, &warning);
  EXPECT_NE(warning.find("s.h5.unreadable-5"), std::string::npos) << warning;
  EXPECT_TRUE(fs::exists(d + "/s.h5.unreadable-5"));
  w.write(6, 0.6, s);
  EXPECT_EQ(w.frames(), 1);
}

TEST_F(OneVortexSnapshots, ChangedLayoutIsAnError) {
  io::SnapshotWriter w(d + "/s.h5", d + "/s", -1);
  w.write(0, 0.0, s);
  s.meshes[0].coordinates = {1, 2, 3, 4};
  try {
    w.write(1, 0.1, s);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("step 1"), std::string::npos) << e.what();
  }
}

TEST(InvariantLogAttributes, UnitsKindsAndIntegerCounts) {
  const std::string d = freshDir("logattrs");
  const std::string path = d + "/invariants.h5";
  {
    // What the model declares (fluidbody's energy and SNES count), written as given.
    const std::vector<Quantity> q = {{"energy", "1", "H", "conserved", false},
                                     {"snes_iterations", "1", "Newton iterations", "solver", true}};
    auto log = io::InvariantLog::create(path, {"energy", "snes_iterations"}, {{"model", "fluidbody"}}, 1, 1, q);
    log.append(0, 0.0, {1.5, 3.0});
    log.append(1, 0.1, {1.25, 4.0});
  }
  io::h5::Handle f(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  ASSERT_TRUE(f.valid());
  io::h5::Handle g(H5Gopen2(f, "invariants", H5P_DEFAULT));
  io::h5::Handle e(H5Dopen2(g, "energy", H5P_DEFAULT)), n(H5Dopen2(g, "snes_iterations", H5P_DEFAULT));
  EXPECT_FALSE(io::h5::isInteger(e));
  EXPECT_TRUE(io::h5::isInteger(n));
  EXPECT_EQ(io::h5::readStringAttribute(e, "kind"), "conserved");
  EXPECT_EQ(io::h5::readStringAttribute(n, "kind"), "solver");
  EXPECT_EQ(io::h5::readStringAttribute(e, "units"), "1");
  EXPECT_EQ(io::h5::readStringAttribute(n, "description"), "Newton iterations");
  EXPECT_EQ(io::h5::readInt64s(g, "snes_iterations"), (std::vector<std::int64_t>{3, 4}));
  io::h5::Handle a(H5Aopen(f, "model", H5P_DEFAULT));
  io::h5::Handle t(H5Aget_type(a));
  EXPECT_GT(H5Tis_variable_str(t), 0);
  EXPECT_EQ(H5Tget_cset(t), H5T_CSET_UTF8);
}

TEST(Checkpoint, RewindRetiresTheNewerCheckpointsWithoutDeletingThem) {
  const std::string d = freshDir("rewind");
  io::CheckpointStore store(MPI_COMM_WORLD, d + "/checkpoints", 10);
  std::string at2;
  for (int k : {1, 2, 3, 4}) {
    const std::string p = store.write(sampleState(k), "fluidbody", 0.1, 1);
    if (k == 2) at2 = p;
  }
  EXPECT_EQ(store.retireNewerThan(4, store.list().front()), "");  // nothing newer: nothing moved
  const std::string folder = store.retireNewerThan(2, at2);
  EXPECT_EQ(folder, d + "/checkpoints/retired-2");
  const auto kept = store.list();
  ASSERT_EQ(kept.size(), 2u);
  EXPECT_NE(kept[0].find("checkpoint_0000000002.h5"), std::string::npos);
  for (int k : {3, 4}) {  // readable where they were moved
    State r = layoutOf(sampleState(k));
    char name[64];
    std::snprintf(name, sizeof name, "/checkpoint_%010d.h5", k);
    EXPECT_EQ(store.read(folder + name, r, "fluidbody").step, k);
  }
  // A second rewind to the same step keeps the first retired folder.
  store.write(sampleState(3), "fluidbody", 0.1, 1);
  EXPECT_EQ(store.retireNewerThan(2, at2), d + "/checkpoints/retired-2.2");
  EXPECT_EQ(store.list().size(), 2u);
}

TEST(Checkpoint, StoresThePetscOptionsInEffect) {
  const std::string d = freshDir("options");
  io::CheckpointStore store(MPI_COMM_WORLD, d + "/checkpoints", 2);
  const std::string path = store.write(sampleState(3), "fluidbody", 0.1, 1, "model: fluidbody\n",
                                       "-panel_correction none -del_snes_monitor");
  State r = layoutOf(sampleState(3));
  const io::CheckpointInfo info = store.read(path, r, "fluidbody");
  EXPECT_TRUE(info.hasPetscOptions);
  EXPECT_EQ(info.petscOptions, "-panel_correction none -del_snes_monitor");
}
