// The checkpoint integrity seal (io/Checkpoint.cpp; found by fuzzing checkpoints): every damaged byte is
// rejected with a CheckpointError before libhdf5 parses the file (the checkpoint fuzzer found a
// heap-use-after-free in H5Aopen on a mutated file: tests/fuzz/regressions/checkpoint/).
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/Error.hpp"
#include "io/Checkpoint.hpp"
#include "io/Hdf5.hpp"

using namespace kirchhoff;
namespace fs = std::filesystem;

namespace {

std::string sealDir(const std::string& name) {
  const std::string d = "tmp_seal_" + name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

State sealState() {
  State s;
  s.step = 7;
  s.time = 0.7;
  s.add("q", {1.0, -2.5, 3.25, 1e-300});
  s.add("p", {0.5, -0.0});
  return s;
}

State layout() {
  State s = sealState();
  for (auto& f : s.fields) std::fill(f.data.begin(), f.data.end(), 0.0);
  return s;
}

std::string bytesOf(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void writeBytes(const std::string& path, const std::string& b) {
  std::ofstream(path, std::ios::binary | std::ios::trunc).write(b.data(), static_cast<std::streamsize>(b.size()));
}

/// Reads `path`; returns the CheckpointError message ("" if it loaded, then `out` holds it).
std::string readError(const io::CheckpointStore& store, const std::string& path, State* out = nullptr) {
  State s = layout();
  try {
    store.read(path, s, "fluidbody");
  } catch (const CheckpointError& e) {
    return e.what();
  }
  if (out) *out = s;
  return "";
}

}  // namespace

// Flip bytes of a checkpoint one at a time (xor 0x5a): a flip in the seal line or anywhere after
// the 512-byte user block (superblock, object headers, heaps, attributes, data) is rejected as a
// CheckpointError without a crash; a flip in the zero padding of the user block (which neither
// HDF5 nor the seal reads) still loads the identical state. FNV-1a detects every single-byte change.
TEST(CheckpointSeal, FlippedBytesAreRejectedBeforeHdf5) {
  const std::string d = sealDir("flip");
  io::CheckpointStore store(MPI_COMM_WORLD, d + "/checkpoints", 2);
  const std::string path = store.write(sealState(), "fluidbody", 0.1, 1);
  const std::string good = bytesOf(path);
  ASSERT_GT(good.size(), 1024u);
  ASSERT_EQ(good.compare(0, 33, "kirchhoff-checkpoint-1 file-hash "), 0) << good.substr(0, 80);
  const std::size_t line = good.find('\n');
  ASSERT_LT(line, 512u);
  const std::string bad = d + "/checkpoints/damaged.h5";
  std::size_t rejected = 0, loaded = 0;
  std::size_t wantRejected = 0, wantLoaded = 0;
  // Every byte of the seal line, every 3rd byte after the user block (all metadata structures
  // are longer than 3 bytes), every 8th padding byte: ~2500 damaged files (keeps the test fast).
  for (std::size_t pos = 0; pos < good.size(); ++pos) {
    const bool sealed = pos < line || pos >= 512;
    if (pos >= 512 ? (pos - 512) % 3 != 0 : (!sealed && pos % 8 != 0)) continue;
    (sealed ? wantRejected : wantLoaded) += 1;
    std::string b = good;
    b[pos] = static_cast<char>(b[pos] ^ 0x5a);
    writeBytes(bad, b);
    State s;
    const std::string err = readError(store, bad, &s);
    if (sealed) {
      EXPECT_FALSE(err.empty()) << "flip at byte " << pos << " was not detected";
      rejected += err.empty() ? 0 : 1;
    } else if (err.empty()) {
      ++loaded;
      EXPECT_EQ(s["q"], sealState()["q"]) << pos;
      EXPECT_EQ(s.step, 7);
    } else {
      ADD_FAILURE() << "flip at padding byte " << pos << " rejected: " << err;
    }
  }
  EXPECT_EQ(rejected, wantRejected);
  EXPECT_EQ(loaded, wantLoaded);
  EXPECT_GT(wantRejected, 1500u);
}

// The message says what is wrong: a data/metadata flip is a hash mismatch, a short or long file
// is "truncated or extended", a plain HDF5 file (no seal) and a non-HDF5 file are refused.
TEST(CheckpointSeal, MessagesNameTheDamage) {
  const std::string d = sealDir("messages");
  io::CheckpointStore store(MPI_COMM_WORLD, d + "/checkpoints", 2);
  const std::string path = store.write(sealState(), "fluidbody", 0.1, 1);
  const std::string good = bytesOf(path);
  const std::string bad = d + "/checkpoints/damaged.h5";
  std::string b = good;
  b[good.size() / 2] ^= 1;
  writeBytes(bad, b);
  EXPECT_NE(readError(store, bad).find("file hash mismatch"), std::string::npos);
  writeBytes(bad, good.substr(0, good.size() - 1));
  EXPECT_NE(readError(store, bad).find("truncated or extended"), std::string::npos);
  writeBytes(bad, good + "x");
  EXPECT_NE(readError(store, bad).find("truncated or extended"), std::string::npos);
  writeBytes(bad, good.substr(0, 100));
  EXPECT_NE(readError(store, bad).find("truncated (no integrity header)"), std::string::npos);
  writeBytes(bad, std::string(4096, 'k'));
  EXPECT_NE(readError(store, bad).find("no kirchhoff integrity header"), std::string::npos);
  EXPECT_NE(readError(store, d + "/missing.h5").find("no such file"), std::string::npos);
  // A well-formed HDF5 file with the right attributes but no seal (e.g. written by another tool,
  // or a checkpoint from before the seal) is not handed to HDF5 either.
  {
    io::h5::silenceErrors();
    io::h5::Handle f(io::h5::check(H5Fcreate(bad.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), "create"));
    io::h5::writeStringAttribute(f, "format", "kirchhoff-checkpoint-1");
  }
  EXPECT_NE(readError(store, bad).find("no kirchhoff integrity header"), std::string::npos);
  EXPECT_EQ(readError(store, path), "");  // the original still loads
}
