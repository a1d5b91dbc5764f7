// restore()'s checks of a checkpointed State (FieldChecks.hpp): presence, replication and size of
// each field, the slab of a distributed one, and the field count; CheckpointError (exit 65).
#include "core/FieldChecks.hpp"

#include <algorithm>

#include "core/Error.hpp"

namespace kirchhoff {

namespace {

std::string context(const std::string& why) { return why.empty() ? "" : " (" + why + ")"; }

const Field& present(const State& s, const std::string& model, const std::string& name) {
  const Field* f = s.find(name);
  if (!f) throw CheckpointError(model + " checkpoint: field '" + name + "' is missing");
  return *f;
}

}  // namespace

const Field& requireField(const State& s, const std::string& model, const std::string& name,
                          const std::vector<std::size_t>& sizes, const std::string& why) {
  const Field& f = present(s, model, name);
  if (f.distributed)
    throw CheckpointError(model + " checkpoint: field '" + name + "' is distributed, expected a replicated one");
  if (std::find(sizes.begin(), sizes.end(), f.data.size()) == sizes.end()) {
    std::string want;
    for (const auto n : sizes) want += (want.empty() ? "" : " or ") + std::to_string(n);
    throw CheckpointError(model + " checkpoint: field '" + name + "' has " + std::to_string(f.data.size()) +
                          " values, expected " + want + context(why));
  }
  return f;
}

const Field& requireSlab(const State& s, const std::string& model, const std::string& name,
                         std::uint64_t global, std::uint64_t offset, std::size_t local) {
  const Field& f = present(s, model, name);
  if (!f.distributed || f.global != global || f.offset != offset || f.data.size() != local)
    throw CheckpointError(model + " checkpoint: field '" + name + "' does not match the grid (" +
                          std::to_string(global) + " values, this rank owns [" + std::to_string(offset) +
                          ", " + std::to_string(offset + local) + "); the field holds " +
                          std::to_string(f.data.size()) + " values at offset " + std::to_string(f.offset) +
                          " of " + std::to_string(f.global) + ")");
  return f;
}

void requireFieldCount(const State& s, const std::string& model, std::size_t count, const std::string& why) {
  if (s.fields.size() != count)
    throw CheckpointError(model + " checkpoint: " + std::to_string(s.fields.size()) + " fields, expected " +
                          std::to_string(count) + context(why));
}

}  // namespace kirchhoff
