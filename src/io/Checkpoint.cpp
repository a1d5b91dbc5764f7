// Checkpoint write (collective parallel HDF5, temporary name, fsync, rename by rank 0, rotation)
// and read (independent per rank, hash-verified, newest valid file first).
#include "io/Checkpoint.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "core/Mpi.hpp"
#include "core/Error.hpp"
#include "core/Hash.hpp"
#include "core/LogEvents.hpp"
#include "io/Hdf5.hpp"
#include "io/SpaceHint.hpp"

namespace kirchhoff::io {

namespace fs = std::filesystem;

namespace {

constexpr const char* kCheckpointFormat = "kirchhoff-checkpoint-1";

std::uint64_t splitmix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

std::uint64_t bits(double v) {
  std::uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

std::string hex(std::uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "%016" PRIx64, v);
  return b;
}

std::uint64_t parseHex(const std::string& s) { return std::strtoull(s.c_str(), nullptr, 16); }

void fsyncPath(const std::string& p) {
  int fd = ::open(p.c_str(), O_RDONLY);
  if (fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
}

// Integrity seal: checkpoints carry a 512-byte HDF5 user block (skipped by every HDF5 reader,
// h5py included) holding "kirchhoff-checkpoint-1 file-hash <hex> size <bytes>" for the bytes
// after it. read() checks it before HDF5 parses anything: libhdf5 is not robust against corrupt
// metadata (the checkpoint fuzzer found a heap-use-after-free in H5Aopen within 30 inputs).
constexpr hsize_t kUserBlock = 512;
constexpr const char* kSealTag = "kirchhoff-checkpoint-1 file-hash ";

/// FNV-1a (64 bit) of the bytes of `in` from its current position to the end; counts them.
std::uint64_t streamHash(std::istream& in, std::uint64_t* count) {
  Fnv1a h;
  std::uint64_t n = 0;
  char buf[1 << 16];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    const auto got = static_cast<std::size_t>(in.gcount());
    h.add(buf, got);
    n += got;
  }
  *count = n;
  return h.value();
}

/// Writes the seal into the user block of a closed checkpoint file (rank 0).
void seal(const std::string& path) {
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  if (!f) throw CheckpointError("cannot reopen " + path + " to seal it");
  f.seekg(static_cast<std::streamoff>(kUserBlock));
  std::uint64_t n = 0;
  const std::uint64_t h = streamHash(f, &n);
  f.clear();
  char head[kUserBlock] = {};
  std::snprintf(head, sizeof head, "%s%016" PRIx64 " size %" PRIu64 "\n", kSealTag, h, n);
  f.seekp(0);
  f.write(head, sizeof head);
  f.flush();
  if (!f) throw CheckpointError("cannot seal " + path);
}

/// "" if the file's seal matches its contents, else what is wrong.
std::string verifySeal(const std::string& path) {
  std::error_code ec;
  if (fs::exists(path, ec) && !fs::is_regular_file(path, ec))  // a FIFO would block the open
    return "not a regular file (a FIFO, device or directory named like a checkpoint)";
  std::ifstream f(path, std::ios::binary);
  if (!f) return fs::exists(path, ec) ? "cannot open the file" : "no such file";
  char head[kUserBlock + 1] = {};
  if (!f.read(head, kUserBlock)) return "truncated (no integrity header)";
  const std::size_t tag = std::strlen(kSealTag);
  std::uint64_t stored = 0, size = 0;
  if (std::strncmp(head, kSealTag, tag) != 0 ||
      std::sscanf(head + tag, "%16" SCNx64 " size %" SCNu64, &stored, &size) != 2)
    return "no kirchhoff integrity header (not a kirchhoff checkpoint, or its first block is damaged)";
  std::uint64_t n = 0;
  const std::uint64_t h = streamHash(f, &n);
  if (n != size)
    return "truncated or extended: " + std::to_string(n + kUserBlock) + " bytes, written " +
           std::to_string(size + kUserBlock);
  if (h != stored) return "file hash mismatch (stored " + hex(stored) + ", computed " + hex(h) + "): the file is corrupt";
  return "";
}

/// True on every rank if `error` is non-empty on any; `error` becomes the lowest such rank's.
bool agreeOnError(MPI_Comm comm, std::string& error) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  int mine = error.empty() ? size : rankOf(comm), first = size;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == size) return false;
  broadcast(comm, error, first);
  return true;
}

std::string fileName(std::int64_t step) {
  char b[64];
  std::snprintf(b, sizeof b, "checkpoint_%010" PRId64 ".h5", step);
  return b;
}

}  // namespace

std::uint64_t stateHash(const State& s, MPI_Comm comm) {
  const bool root = rankOf(comm) == 0;
  std::uint64_t local = 0;
  for (const auto& f : s.fields) {
    if (!f.distributed && !root) continue;  // replicated values count once
    const std::uint64_t hn = fnv1a(f.name);
    const std::uint64_t base = f.distributed ? f.offset : 0;
    for (std::size_t i = 0; i < f.data.size(); ++i)
      local += splitmix(splitmix(hn + base + i) + bits(f.data[i]));
    if (root) local += splitmix(hn ^ f.globalSize());
  }
  std::uint64_t total = 0;
  MPI_Allreduce(&local, &total, 1, MPI_UINT64_T, MPI_SUM, comm);
  return total + splitmix(static_cast<std::uint64_t>(s.step)) + splitmix(bits(s.time) + 1);
}

CheckpointStore::CheckpointStore(MPI_Comm comm, std::string directory, int keep)
    : comm_(comm), dir_(std::move(directory)), keep_(std::max(keep, 2)) {}

std::string CheckpointStore::write(const State& s, const std::string& model, double dt,
                                   std::uint64_t deckHash, const std::string& deckText,
                                   const std::string& petscOptions) {
  ScopedEvent ev(Phase::Checkpoint);
  h5::silenceErrors();
  const bool root = rankOf(comm_) == 0;
  std::string error;
  if (root) {
    std::error_code ec;
    fs::create_directories(dir_, ec);
    if (ec) error = "cannot create " + dir_ + ": " + ec.message();
  }
  broadcast(comm_, error);
  if (!error.empty()) throw CheckpointError(error);
  const std::string final = dir_ + "/" + fileName(s.step);
  const std::string tmp = dir_ + "/." + fileName(s.step) + ".tmp";
  const std::uint64_t hash = stateHash(s, comm_);
  try {
    writeFile(tmp, s, model, dt, deckHash, deckText, petscOptions, hash);
  } catch (const std::exception& e) {
    error = e.what();
  }
  if (agreeOnError(comm_, error)) {
    if (root) {
      std::error_code ec;
      fs::remove(tmp, ec);
    }
    throw CheckpointError("cannot write checkpoint " + final + ": " + error + spaceHint(dir_));
  }
  // rank 0's seal/rename failure, made known to every rank (no hang)
  if (root) {
    try {
      seal(tmp);
      fsyncPath(tmp);
      fs::rename(tmp, final);
      fsyncPath(dir_);
      auto files = list();
      for (std::size_t i = static_cast<std::size_t>(keep_); i < files.size(); ++i) fs::remove(files[i]);
    } catch (const std::exception& e) {
      error = std::string("cannot finish checkpoint ") + final + ": " + e.what() + spaceHint(dir_);
      std::error_code ec;
      fs::remove(tmp, ec);
    }
  }
  broadcast(comm_, error);
  if (!error.empty()) throw CheckpointError(error);
  return final;
}

void CheckpointStore::writeFile(const std::string& tmp, const State& s, const std::string& model,
                                double dt, std::uint64_t deckHash, const std::string& deckText,
                                const std::string& petscOptions, std::uint64_t hash) const {
  const bool root = rankOf(comm_) == 0;
  int size = 1;
  MPI_Comm_size(comm_, &size);
  {
    h5::Handle fapl(h5::check(H5Pcreate(H5P_FILE_ACCESS), "fapl"));
    h5::checkStatus(H5Pset_fapl_mpio(fapl, comm_, MPI_INFO_NULL), "mpio");
    h5::Handle fcpl(h5::check(H5Pcreate(H5P_FILE_CREATE), "fcpl"));
    h5::checkStatus(H5Pset_userblock(fcpl, kUserBlock), "user block");
    h5::Handle f(h5::check(H5Fcreate(tmp.c_str(), H5F_ACC_TRUNC, fcpl, fapl),
                           "cannot create checkpoint " + tmp));
    h5::writeStringAttribute(f, "format", kCheckpointFormat);
    h5::writeStringAttribute(f, "model", model);
    h5::writeInt64Attribute(f, "step", s.step);
    h5::writeDoubleAttribute(f, "time", s.time);
    h5::writeDoubleAttribute(f, "dt", dt);
    h5::writeStringAttribute(f, "deck_hash", hex(deckHash));
    h5::writeStringAttribute(f, "state_hash", hex(hash));
    h5::writeInt64Attribute(f, "nranks", size);
    h5::writeStringAttribute(f, "petsc_options", petscOptions);
    h5::Handle g(h5::check(H5Gcreate2(f, "state", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), "group"));
    h5::Handle dxpl(h5::check(H5Pcreate(H5P_DATASET_XFER), "dxpl"));
    h5::checkStatus(H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE), "collective");
    for (const auto& fld : s.fields) {
      hsize_t dims[1] = {fld.globalSize()};
      h5::Handle space(h5::check(H5Screate_simple(1, dims, nullptr), "space"));
      h5::Handle d(h5::check(H5Dcreate2(g, fld.name.c_str(), H5T_NATIVE_DOUBLE, space, H5P_DEFAULT,
                                        H5P_DEFAULT, H5P_DEFAULT), "create " + fld.name));
      h5::writeInt64Attribute(d, "distributed", fld.distributed ? 1 : 0);
      if (fld.globalSize() == 0) continue;  // nothing to write (same on every rank)
      const bool mine = fld.distributed || root;
      hsize_t start[1] = {fld.distributed ? fld.offset : 0};
      hsize_t count[1] = {mine ? fld.data.size() : 0};
      hsize_t mdims[1] = {std::max<hsize_t>(count[0], 1)};
      h5::Handle mem(h5::check(H5Screate_simple(1, mdims, nullptr), "memspace"));
      if (mine && count[0] > 0) {
        h5::checkStatus(H5Sselect_hyperslab(space, H5S_SELECT_SET, start, nullptr, count, nullptr), "select");
      } else {
        H5Sselect_none(space);
        H5Sselect_none(mem);
      }
      const double dummy = 0.0;
      h5::checkStatus(H5Dwrite(d, H5T_NATIVE_DOUBLE, mem, space, dxpl,
                               count[0] > 0 ? fld.data.data() : &dummy), "write " + fld.name);
    }
    if (!deckText.empty()) {
      // The deck as a 1-D char dataset (an attribute is limited to 64 KiB); rank 0 writes it.
      hsize_t dims[1] = {deckText.size()};
      h5::Handle space(h5::check(H5Screate_simple(1, dims, nullptr), "deck space"));
      h5::Handle d(h5::check(H5Dcreate2(f, "deck", H5T_NATIVE_CHAR, space, H5P_DEFAULT, H5P_DEFAULT,
                                        H5P_DEFAULT), "create deck"));
      h5::Handle mem(h5::check(H5Screate_simple(1, dims, nullptr), "deck memspace"));
      if (!root) H5Sselect_none(space), H5Sselect_none(mem);
      h5::checkStatus(H5Dwrite(d, H5T_NATIVE_CHAR, mem, space, dxpl, deckText.data()), "write deck");
    }
    h5::checkStatus(H5Fflush(f, H5F_SCOPE_GLOBAL), "flush " + tmp);
  }
}

std::vector<std::string> CheckpointStore::list() const {
  std::vector<std::pair<std::string, std::string>> files;  // (name, path)
  std::error_code ec;
  if (!fs::is_directory(dir_, ec)) return {};
  for (const auto& e : fs::directory_iterator(dir_, ec)) {
    const std::string n = e.path().filename().string();
    // Regular files only: opening a FIFO named like a checkpoint would block the restart.
    if (n.rfind("checkpoint_", 0) == 0 && e.path().extension() == ".h5" && e.is_regular_file(ec))
      files.emplace_back(n, e.path().string());
  }
  std::sort(files.begin(), files.end(), [](auto& a, auto& b) { return a.first > b.first; });
  std::vector<std::string> out;
  for (auto& f : files) out.push_back(f.second);
  return out;
}

std::string CheckpointStore::retireNewerThan(std::int64_t step, const std::string& restartedFrom) const {
  std::string folder;
  std::error_code ec;
  for (const auto& f : list()) {
    const std::string n = fs::path(f).filename().string();
    const std::int64_t k = std::strtoll(n.c_str() + std::strlen("checkpoint_"), nullptr, 10);
    if (k < step || (k == step && fs::equivalent(f, restartedFrom, ec))) continue;
    if (folder.empty()) {  // retired-<step>, or retired-<step>.2, ... after repeated rewinds
      folder = dir_ + "/retired-" + std::to_string(step);
      for (int i = 2; fs::exists(fs::symlink_status(folder)); ++i)
        folder = dir_ + "/retired-" + std::to_string(step) + "." + std::to_string(i);
      fs::create_directory(folder);
    }
    fs::rename(f, folder + "/" + n);
  }
  if (!folder.empty()) fsyncPath(dir_);
  return folder;
}

CheckpointInfo CheckpointStore::read(const std::string& path, State& s, const std::string& model) const {
  ScopedEvent ev(Phase::Checkpoint);
  h5::silenceErrors();
  CheckpointInfo info;
  info.path = path;
  std::vector<std::string> absent;  // optional fields the file lacks
  std::string error = rankOf(comm_) == 0 ? verifySeal(path) : "";
  broadcast(comm_, error);
  if (!error.empty()) throw CheckpointError(path + ": " + error);
  try {
    h5::Handle f(h5::check(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT),
                           "not a readable HDF5 file (truncated or corrupt)"));
    if (h5::readStringAttribute(f, "format") != kCheckpointFormat) throw CheckpointError("not a kirchhoff checkpoint");
    info.model = h5::readStringAttribute(f, "model");
    if (info.model != model)
      throw CheckpointError("checkpoint is for model '" + info.model + "', not '" + model + "'");
    info.step = h5::readInt64Attribute(f, "step");
    info.time = h5::readDoubleAttribute(f, "time");
    info.dt = h5::readDoubleAttribute(f, "dt");
    info.deckHash = parseHex(h5::readStringAttribute(f, "deck_hash"));
    info.stateHash = parseHex(h5::readStringAttribute(f, "state_hash"));
    info.hasPetscOptions = h5::hasAttribute(f, "petsc_options");
    if (info.hasPetscOptions) info.petscOptions = h5::readStringAttribute(f, "petsc_options");
    if (H5Lexists(f, "deck", H5P_DEFAULT) > 0) {
      h5::Handle d(h5::check(H5Dopen2(f, "deck", H5P_DEFAULT), "deck"));
      info.deckText.resize(h5::length(d));
      if (!info.deckText.empty())
        h5::checkStatus(H5Dread(d, H5T_NATIVE_CHAR, H5S_ALL, H5S_ALL, H5P_DEFAULT, info.deckText.data()),
                        "cannot read the deck");
    }
    h5::Handle g(h5::check(H5Gopen2(f, "state", H5P_DEFAULT), "no /state group"));
    for (auto& fld : s.fields) {
      if (fld.optional && !fld.distributed && H5Lexists(g, fld.name.c_str(), H5P_DEFAULT) <= 0) {
        fld.data.clear();  // an older version's checkpoint: restore() fills it
        absent.push_back(fld.name);
        continue;
      }
      h5::Handle d(h5::check(H5Dopen2(g, fld.name.c_str(), H5P_DEFAULT), "missing state field " + fld.name));
      if (fld.resizable && !fld.distributed) fld.data.resize(h5::length(d));
      if (h5::length(d) != fld.globalSize())
        throw CheckpointError("state field " + fld.name + " has " + std::to_string(h5::length(d)) +
                              " values, the deck needs " + std::to_string(fld.globalSize()));
      if (fld.data.empty()) continue;
      h5::Handle space(h5::check(H5Dget_space(d), "space"));
      hsize_t start[1] = {fld.distributed ? fld.offset : 0}, count[1] = {fld.data.size()};
      h5::checkStatus(H5Sselect_hyperslab(space, H5S_SELECT_SET, start, nullptr, count, nullptr), "select");
      h5::Handle mem(h5::check(H5Screate_simple(1, count, nullptr), "memspace"));
      h5::checkStatus(H5Dread(d, H5T_NATIVE_DOUBLE, mem, space, H5P_DEFAULT, fld.data.data()),
                      "cannot read state field " + fld.name);
    }
    s.step = info.step;
    s.time = info.time;
  } catch (const Error& e) {
    error = e.what();
  }
  // Agree over ranks before the collective hash.
  int bad = error.empty() ? 0 : 1, anyBad = 0;
  MPI_Allreduce(&bad, &anyBad, 1, MPI_INT, MPI_MAX, comm_);
  if (anyBad) {
    if (error.empty()) error = "unreadable on another rank";
    throw CheckpointError(path + ": " + error);
  }
  // The hash of what the file holds: optional fields it lacks were not part of it.
  State held = s;
  held.fields.erase(std::remove_if(held.fields.begin(), held.fields.end(),
                                   [&](const Field& f) {
                                     return std::find(absent.begin(), absent.end(), f.name) != absent.end();
                                   }),
                    held.fields.end());
  const std::uint64_t h = stateHash(held, comm_);
  if (h != info.stateHash)
    throw CheckpointError(path + ": state hash mismatch (stored " + hex(info.stateHash) + ", computed " +
                          hex(h) + "): the file is corrupt");
  return info;
}

CheckpointInfo CheckpointStore::readNewest(State& s, const std::string& model,
                                           std::vector<std::string>* warnings) const {
  const auto files = list();
  std::string reasons;
  std::error_code ec;
  if (fs::is_directory(dir_, ec))  // entries list() leaves out, named so the user sees why
    for (const auto& e : fs::directory_iterator(dir_, ec)) {
      const std::string n = e.path().filename().string();
      if (n.rfind("checkpoint_", 0) == 0 && e.path().extension() == ".h5" && !e.is_regular_file(ec)) {
        const std::string why = e.path().string() + ": not a regular file (a FIFO, device or directory named like a checkpoint)";
        if (warnings) warnings->push_back("skipping checkpoint " + why);
        reasons += "\n  " + why;
      }
    }
  if (files.empty()) throw CheckpointError("no checkpoint in " + dir_ + " to restart from" + reasons);
  for (const auto& f : files) {
    State trial = s;
    try {
      CheckpointInfo info = read(f, trial, model);
      s = std::move(trial);
      return info;
    } catch (const CheckpointError& e) {
      if (warnings) warnings->push_back(std::string("skipping checkpoint ") + e.what());
      reasons += std::string("\n  ") + e.what();
    }
  }
  throw CheckpointError("no usable checkpoint in " + dir_ + ":" + reasons);
}

}  // namespace kirchhoff::io
