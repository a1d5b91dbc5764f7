// Symbolic links in the output folder: lstat checks before HDF5 opens a file (HDF5 has no
// O_NOFOLLOW), O_NOFOLLOW for plain files, and the scan of OUTDIR made at set-up.
#include "io/NoFollow.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "core/Error.hpp"

namespace kirchhoff::io {

namespace fs = std::filesystem;

namespace {


/// Names kirchhoff writes (or writes under) in an output folder.
bool isOutputName(const std::string& n) {
  for (const char* p : {"invariants.h5", "snapshots", "summary.json", "flowfield", "sweep_summary.md",
                        "checkpoints", ".kirchhoff"})
    if (n.rfind(p, 0) == 0) return true;
  return false;
}

}  // namespace

std::string linkProblem(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return "";
  std::error_code ec;
  const fs::path target = fs::read_symlink(path, ec);
  return path + " is a symbolic link (to " + (ec ? std::string("?") : target.string()) +
         "): kirchhoff never writes through links in its output folder; remove it, or choose "
         "another -o OUTDIR";
}

void refuseLink(const std::string& path, int code) {
  if (std::string why = linkProblem(path); !why.empty()) throw Error(why, code);
}

std::string linkedOutput(const std::string& dir) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string n = e.path().filename().string();
    if (!isOutputName(n)) continue;
    if (std::string why = linkProblem(e.path().string()); !why.empty()) return why;
  }
  const std::string ck = dir + "/checkpoints";
  if (!fs::is_directory(fs::symlink_status(ck, ec))) return "";
  for (const auto& e : fs::directory_iterator(ck, ec))
    if (std::string why = linkProblem(e.path().string()); !why.empty()) return why;
  return "";
}

std::FILE* createNoFollow(const std::string& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) return nullptr;
  std::FILE* f = ::fdopen(fd, "w");
  if (!f) ::close(fd);
  return f;
}

}  // namespace kirchhoff::io
