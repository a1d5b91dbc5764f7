// 64-bit FNV-1a byte hash: the deck hash stored in checkpoints, the field-name part of the
// checkpoint state hash, and the checkpoint file seal (io/Checkpoint.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace kirchhoff {

/// Incremental FNV-1a (64 bit): add() byte runs in order, value() at any point.
class Fnv1a {
 public:
  void add(const void* data, std::size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < n; ++i) h_ = (h_ ^ p[i]) * 1099511628211ull;
  }
  std::uint64_t value() const { return h_; }

 private:
  std::uint64_t h_ = 1469598103934665603ull;
};

inline std::uint64_t fnv1a(const std::string& s) {
  Fnv1a h;
  h.add(s.data(), s.size());
  return h.value();
}

}  // namespace kirchhoff
