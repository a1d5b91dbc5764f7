// Bounded text-file reading for decks and vertex files (a /dev/zero vertex file must not fill memory): stat first (no open of
// a FIFO or device), refuse directories and oversized files, then read at most the limit.
#include "io/TextFile.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <vector>

#include "core/Error.hpp"

namespace kirchhoff::io {

namespace {

std::string kind(mode_t m) {
  if (S_ISDIR(m)) return "a directory";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISFIFO(m)) return "a FIFO (named pipe)";
  if (S_ISSOCK(m)) return "a socket";
  return "not a regular file";
}

std::string mib(std::uintmax_t bytes) {
  return std::to_string(bytes / (1u << 20)) + " MiB";
}

}  // namespace

std::string whyNotReadable(const std::string& path, std::uintmax_t maxBytes) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::strerror(errno);
  if (!S_ISREG(st.st_mode)) return "is " + kind(st.st_mode) + ", not a regular file";
  const auto size = static_cast<std::uintmax_t>(st.st_size);
  if (size > maxBytes)
    return "is " + std::to_string(size) + " bytes, more than the " + mib(maxBytes) + " an input file may have";
  return "";
}

std::string readTextFile(const std::string& path, const std::string& what, std::uintmax_t maxBytes) {
  const std::string why = whyNotReadable(path, maxBytes);
  const std::string head = path + ": cannot open " + what + ": ";
  if (!why.empty()) throw DeckError(head + why);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw DeckError(head + std::strerror(errno));
  std::string text;
  std::vector<char> buf(1u << 16);
  while (in) {  // bounded even if the file grows while it is read
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    text.append(buf.data(), static_cast<std::size_t>(in.gcount()));
    if (text.size() > maxBytes)
      throw DeckError(head + "grew beyond " + mib(maxBytes) + " while it was read");
  }
  if (in.bad()) throw DeckError(head + "read error");
  return text;
}

}  // namespace kirchhoff::io
