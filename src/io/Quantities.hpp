// What each stored quantity is, for the `units`, `description` and `kind` attributes of the
// datasets in invariants.h5, snapshots.h5 and flowfield.h5 (docs/output.md, tables per model).
#pragma once

#include <string>
#include <vector>

namespace kirchhoff::io {

class Deck;

/// kind: conserved (constant along the exact flow), diagnostic (a value to look at), solver
/// (iteration counts, residuals) or coordinate (step, time, grid axes). units "1": dimensionless.
/// integer: stored as int64 (counts).
struct Quantity {
  std::string name, units = "1", description, kind = "diagnostic";
  bool integer = false;
};

/// The invariant-log column `name` of `model`; kinds that depend on the configuration (the
/// vortex impulses without bodies, the Kovalevskaya and Lagrange tops) are resolved from the
/// deck when given. An unknown name gets a neutral entry (diagnostic, or solver by its name).
Quantity logQuantity(const std::string& model, const std::string& name, const Deck* deck = nullptr);
std::vector<Quantity> logQuantities(const std::string& model, const std::vector<std::string>& names,
                                    const Deck* deck = nullptr);
/// A snapshot point attribute (body, theta, circulation, velocity, ...) of `model`.
Quantity snapshotQuantity(const std::string& model, const std::string& name);
/// A flow-field dataset (x, y, psi_gamma, ..., mask).
Quantity flowFieldQuantity(const std::string& name);

}  // namespace kirchhoff::io
