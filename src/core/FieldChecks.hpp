// The checks a model's restore() (core/Model.hpp) makes on a checkpointed State: every field it needs
// present with the size its configuration implies, no field it does not know; one message format.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/State.hpp"

namespace kirchhoff {

/// Field `name` of a restored state, replicated with one of `sizes` values; `model` and `why` (the
/// configuration behind the sizes, e.g. "1 bodies, 2 vortices") name it in the CheckpointError.
const Field& requireField(const State& s, const std::string& model, const std::string& name,
                          const std::vector<std::size_t>& sizes, const std::string& why = "");
inline const Field& requireField(const State& s, const std::string& model, const std::string& name,
                                 std::size_t size, const std::string& why = "") {
  return requireField(s, model, name, std::vector<std::size_t>{size}, why);
}

/// Field `name` distributed over the ranks: this rank's slab [offset, offset + local) of `global`.
const Field& requireSlab(const State& s, const std::string& model, const std::string& name,
                         std::uint64_t global, std::uint64_t offset, std::size_t local);

/// Exactly `count` fields: a checkpoint of another configuration has fields this one lacks.
void requireFieldCount(const State& s, const std::string& model, std::size_t count, const std::string& why = "");

}  // namespace kirchhoff
