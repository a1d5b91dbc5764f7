// Names of the heavy-top schemes (TopSchemes.hpp; Ohsawa 2019, Sec. 5; docs/heavytop.md (HT-16))
// as the deck spells them, and the methods' names, orders and checks (compositions: (CM-3)).
// Unknown names are a ConfigurationError listing the choices (never a silent default).
#include "models/top/TopSchemes.hpp"

#include <algorithm>

#include "core/Error.hpp"

namespace kirchhoff::top {

const Choices<TopScheme>& topSchemes() {
  static const Choices<TopScheme> c("top scheme",
                                    {{"collective_implicit_midpoint", TopScheme::CollectiveImplicitMidpoint},
                                     {"collective_explicit_midpoint", TopScheme::CollectiveExplicitMidpoint},
                                     {"direct_explicit_midpoint", TopScheme::DirectExplicitMidpoint},
                                     {"direct_implicit_midpoint", TopScheme::DirectImplicitMidpoint},
                                     {"collective_gauss_legendre", TopScheme::CollectiveGaussLegendre}});
  return c;
}

std::string methodName(const TopMethod& m) {
  std::string n = schemeName(m.scheme);
  if (m.scheme == TopScheme::CollectiveGaussLegendre) n += "(" + std::to_string(m.stages) + ")";
  if (m.composition != Composition::None) n += "+" + integrators::compositionName(m.composition);
  return n;
}

int methodOrder(const TopMethod& m) {
  const int base = m.scheme == TopScheme::CollectiveGaussLegendre ? 2 * m.stages : 2;
  if (m.composition == Composition::None) return base;
  if (!isImplicit(m.scheme)) return 3;
  // The sets cancel every error term of a symmetric base up to their order q (CM-3); a base of
  // order p > q keeps its own order.
  return std::max(base, integrators::compositionOrder(m.composition));
}

void checkMethod(const TopMethod& m) {
  if (m.scheme == TopScheme::CollectiveGaussLegendre) integrators::gaussLegendreTableau(m.stages);
  if (m.composition != Composition::None && !isImplicit(m.scheme))
    throw ConfigurationError("top: composition " + integrators::compositionName(m.composition) +
                             " needs a symmetric base scheme, and " + schemeName(m.scheme) +
                             " is not (use collective_implicit_midpoint, direct_implicit_midpoint "
                             "or collective_gauss_legendre)");
}

}  // namespace kirchhoff::top
