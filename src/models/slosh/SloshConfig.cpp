// Names of the sigma quadrature rules of the slosh model (docs/slosh.md (SL-11)), as used in decks
// and logs.
#include "models/slosh/SloshConfig.hpp"

#include "core/Error.hpp"

namespace kirchhoff::slosh {

Quadrature quadratureFromName(const std::string& name) {
  if (name == "trapezoid") return Quadrature::Trapezoid;
  if (name == "left") return Quadrature::Left;
  if (name == "right") return Quadrature::Right;
  if (name == "simpson") return Quadrature::Simpson;
  throw ConfigurationError("slosh: unknown quadrature '" + name +
                           "' (choices: trapezoid, left, right, simpson)");
}

std::string quadratureName(Quadrature q) {
  switch (q) {
    case Quadrature::Trapezoid: return "trapezoid";
    case Quadrature::Left: return "left";
    case Quadrature::Right: return "right";
    case Quadrature::Simpson: return "simpson";
  }
  return "?";
}

}  // namespace kirchhoff::slosh
