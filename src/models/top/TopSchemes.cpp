// Names of the four heavy-top schemes (TopSchemes.hpp; Ohsawa 2019, Sec. 5) as the deck spells them.
// Unknown names are a ConfigurationError listing the choices (never a silent default).
#include "models/top/TopSchemes.hpp"

#include "core/Error.hpp"

namespace kirchhoff::top {

std::string schemeName(TopScheme s) { return schemeNames().at(static_cast<std::size_t>(s)); }

TopScheme schemeFromName(const std::string& name) {
  const auto& names = schemeNames();
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return static_cast<TopScheme>(i);
  std::string choices;
  for (const auto& n : names) choices += (choices.empty() ? "" : ", ") + n;
  throw ConfigurationError("unknown top scheme '" + name + "' (choices: " + choices + ")");
}

}  // namespace kirchhoff::top
