// What a stored number is: the `units`, `description` and `kind` attributes of every dataset in
// invariants.h5, snapshots.h5 and flowfield.h5 (docs/output.md). Models declare theirs; io writes them.
#pragma once

#include <string>

namespace kirchhoff {

/// kind: conserved (constant along the exact flow), diagnostic (a value to look at), solver
/// (iteration counts, residuals), coordinate (step, time, positions, grid axes) or metadata.
/// units "1": dimensionless. integer: stored as an integer (counts, indices).
struct Quantity {
  std::string name, units = "1", description, kind = "diagnostic";
  bool integer = false;
};

/// The step index k of every log and snapshot file.
inline Quantity stepQuantity() { return Quantity{"step", "1", "step index k", "coordinate", true}; }
/// The time t = k dt; `units` "s" in the SI models.
inline Quantity timeQuantity(const std::string& units = "1") {
  return Quantity{"time", units, "time t = k dt", "coordinate", false};
}

}  // namespace kirchhoff
