// Checkpoints with distributed fields on 2 and 3 ranks: collective write, per-rank slab read,
// a hash that does not depend on the distribution, and agreement of all ranks on failures.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "core/Error.hpp"
#include "io/Checkpoint.hpp"

using namespace kirchhoff;
namespace fs = std::filesystem;

namespace {

int rank() { int r; MPI_Comm_rank(MPI_COMM_WORLD, &r); return r; }
int size() { int s; MPI_Comm_size(MPI_COMM_WORLD, &s); return s; }

std::string sharedDir(const std::string& name) {
  const std::string d = "tmp_iompi_" + name + "_np" + std::to_string(size());
  if (rank() == 0) { fs::remove_all(d); fs::create_directories(d); }
  MPI_Barrier(MPI_COMM_WORLD);
  return d;
}

/// x_i = sin(i) + i for a global array of n values, split in contiguous slabs.
State distributed(std::uint64_t n, int ranks, int me) {
  const std::uint64_t lo = n * static_cast<std::uint64_t>(me) / static_cast<std::uint64_t>(ranks);
  const std::uint64_t hi = n * static_cast<std::uint64_t>(me + 1) / static_cast<std::uint64_t>(ranks);
  std::vector<double> x;
  for (std::uint64_t i = lo; i < hi; ++i) x.push_back(std::sin(static_cast<double>(i)) + static_cast<double>(i));
  State s;
  s.step = 7;
  s.time = 0.7;
  s.addDistributed("x", x, lo, n);
  s.add("q", {1.0, 2.0, 3.0});
  return s;
}

}  // namespace

TEST(CheckpointMpi, DistributedRoundTrip) {
  const std::string d = sharedDir("roundtrip");
  io::CheckpointStore store(MPI_COMM_WORLD, d, 2);
  const State s = distributed(1001, size(), rank());
  const std::string path = store.write(s, "slosh", 0.01, 9);
  State r = s;
  for (auto& f : r.fields) std::fill(f.data.begin(), f.data.end(), 0.0);
  store.read(path, r, "slosh");
  EXPECT_EQ(r["x"], s["x"]);
  EXPECT_EQ(r["q"], s["q"]);
}

TEST(CheckpointMpi, HashIndependentOfDistribution) {
  const auto h = io::stateHash(distributed(1001, size(), rank()), MPI_COMM_WORLD);
  // The same global state held entirely by rank 0 (others hold empty slabs).
  State whole = rank() == 0 ? distributed(1001, 1, 0) : distributed(1001, size(), rank());
  if (rank() != 0) {
    whole["x"].clear();
    whole.fields[0].offset = 1001;
  }
  EXPECT_EQ(io::stateHash(whole, MPI_COMM_WORLD), h);
}

TEST(CheckpointMpi, ReadOnAnotherDistribution) {
  const std::string d = sharedDir("redistribute");
  io::CheckpointStore store(MPI_COMM_WORLD, d, 2);
  const std::string path = store.write(distributed(500, size(), rank()), "slosh", 0.01, 9);
  // Read back with the reversed slab order (rank r takes the slab of rank size-1-r).
  State r = distributed(500, size(), size() - 1 - rank());
  const std::vector<double> expected = r["x"];
  std::fill(r["x"].begin(), r["x"].end(), 0.0);
  store.read(path, r, "slosh");
  EXPECT_EQ(r["x"], expected);
}

TEST(CheckpointMpi, CorruptionSeenByAllRanks) {
  const std::string d = sharedDir("corrupt");
  io::CheckpointStore store(MPI_COMM_WORLD, d, 2);
  const std::string path = store.write(distributed(300, size(), rank()), "slosh", 0.01, 9);
  if (rank() == 0) fs::resize_file(path, fs::file_size(path) / 3);
  MPI_Barrier(MPI_COMM_WORLD);
  State r = distributed(300, size(), rank());
  EXPECT_THROW(store.read(path, r, "slosh"), CheckpointError);
}
