// The one-step state of any model: named real arrays plus step index and time.
// A checkpoint saves exactly this struct (the complete history a one-step scheme needs).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/Error.hpp"

namespace kirchhoff {

/// One named array of the state. Replicated fields hold the whole array on every rank;
/// distributed fields hold the slab [offset, offset + data.size()) of an array of length global.
struct Field {
  std::string name;
  std::vector<double> data;
  bool distributed = false;
  std::uint64_t offset = 0;  ///< first global index of data (distributed fields)
  std::uint64_t global = 0;  ///< global length (distributed fields; = data.size() otherwise)
  /// A replicated cache whose length may differ between runs of the same deck (e.g. a solver's
  /// stored matrix that another solver choice does not keep): a checkpoint restores it at its
  /// stored length, and the model's restore() decides what to keep.
  bool resizable = false;
  /// A replicated field added in a later version: a checkpoint without it loads with the field empty (the
  /// model's restore() fills it), and its state hash is checked over the fields it has.
  bool optional = false;

  std::uint64_t globalSize() const { return distributed ? global : data.size(); }
};

/// Step index k, time t_k and the fields (q_k, p_k, ...) that determine step k+1.
struct State {
  std::int64_t step = 0;
  double time = 0.0;
  std::vector<Field> fields;

  /// Adds a replicated field and returns it.
  Field& add(const std::string& name, std::vector<double> data) {
    fields.push_back(Field{name, std::move(data), false, 0, 0, false});
    fields.back().global = fields.back().data.size();
    return fields.back();
  }
  /// Adds a distributed field (this rank's slab) and returns it.
  Field& addDistributed(const std::string& name, std::vector<double> local, std::uint64_t offset,
                        std::uint64_t global) {
    fields.push_back(Field{name, std::move(local), true, offset, global, false});
    return fields.back();
  }
  Field* find(const std::string& name) {
    for (auto& f : fields)
      if (f.name == name) return &f;
    return nullptr;
  }
  const Field* find(const std::string& name) const {
    for (const auto& f : fields)
      if (f.name == name) return &f;
    return nullptr;
  }
  std::vector<double>& operator[](const std::string& name) {
    Field* f = find(name);
    if (!f) throw Error("state has no field '" + name + "'", kExitNumerical);
    return f->data;
  }
  const std::vector<double>& operator[](const std::string& name) const {
    const Field* f = find(name);
    if (!f) throw Error("state has no field '" + name + "'", kExitNumerical);
    return f->data;
  }
};

}  // namespace kirchhoff
