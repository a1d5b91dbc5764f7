// Output folder check: create_directories, then an O_CREAT | O_EXCL probe file (removed at once),
// which also catches read-only mounts and folders a non-root user may not write.
#include "io/OutputFolder.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace kirchhoff::io {

namespace fs = std::filesystem;

std::string prepareOutputFolder(const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return "cannot create output folder " + dir + ": " + ec.message();
  if (!fs::is_directory(dir, ec)) return "output folder " + dir + " is not a directory";
  const std::string probe = dir + "/.kirchhoff-write-probe-" + std::to_string(::getpid());
  const int fd = ::open(probe.c_str(), O_CREAT | O_EXCL | O_WRONLY, 0600);
  if (fd < 0) return "output folder " + dir + " is not writable: " + std::strerror(errno);
  ::close(fd);
  ::unlink(probe.c_str());
  return "";
}

}  // namespace kirchhoff::io
