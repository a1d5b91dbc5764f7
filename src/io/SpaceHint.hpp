// Disk-full diagnosis for I/O errors (so a full disk reads "no space left", not an internal error): HDF5 and std::filesystem report ENOSPC
// indirectly ("write failed"), so the folder's free space is checked and named in the message.
#pragma once

#include <filesystem>
#include <string>

namespace kirchhoff::io {

/// "; no space left on device (N bytes free in DIR)" when the file system of `dir` is (nearly)
/// full, else "".
inline std::string spaceHint(const std::string& dir) {
  std::error_code ec;
  const auto info = std::filesystem::space(dir, ec);
  if (ec) return "";
  if (info.available >= (1u << 20)) return "";
  return "; no space left on device (" + std::to_string(info.available) + " bytes free in " + dir + ")";
}

}  // namespace kirchhoff::io
