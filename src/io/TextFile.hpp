// Bounded reading of the text files a run is given (decks, vertex files): a directory, a device,
// a FIFO or a file larger than the limit is refused with a message instead of blocking or filling memory.
#pragma once

#include <cstdint>
#include <string>

namespace kirchhoff::io {

/// Largest deck or vertex file read (16 MiB: a deck of a million lines).
inline constexpr std::uintmax_t kMaxInputFileBytes = 16u << 20;

/// Why `path` cannot be read as a text input of at most maxBytes ("" if it can): missing,
/// a directory, not a regular file (device, FIFO, socket), too large.
std::string whyNotReadable(const std::string& path, std::uintmax_t maxBytes = kMaxInputFileBytes);

/// Reads the whole file; throws DeckError "<path>: cannot open <what>: <reason>" when whyNotReadable says so
/// or reading fails. Never opens a FIFO or device, never reads more than maxBytes.
std::string readTextFile(const std::string& path, const std::string& what,
                         std::uintmax_t maxBytes = kMaxInputFileBytes);

}  // namespace kirchhoff::io
