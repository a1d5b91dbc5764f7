// One idiom for choosing a method by name (a deck key's enumeration): a table of (deck name, value)
// pairs in one place; the schema lists names(), the reader calls from(), messages call name().
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/Error.hpp"

namespace kirchhoff {

template <class T>
class Choices {
 public:
  /// `what` names the choice in messages ("top scheme", "fluid discretization").
  Choices(std::string what, std::vector<std::pair<std::string, T>> table)
      : what_(std::move(what)), table_(std::move(table)) {
    for (const auto& e : table_) names_.push_back(e.first);
  }

  /// The deck names, in the table's order (the schema's enumeration).
  const std::vector<std::string>& names() const { return names_; }
  /// The value of `name`; ConfigurationError naming the choices for an unknown one.
  const T& from(const std::string& name) const {
    for (const auto& e : table_)
      if (e.first == name) return e.second;
    std::string choices;
    for (const auto& n : names_) choices += (choices.empty() ? "" : ", ") + n;
    throw ConfigurationError(what_ + " '" + name + "' is unknown (choices: " + choices + ")");
  }
  /// The deck name of `value` (the first one, if several map to it).
  const std::string& name(const T& value) const {
    for (const auto& e : table_)
      if (e.second == value) return e.first;
    throw Error("internal error: a " + what_ + " without a name", kExitNumerical);
  }

 private:
  std::string what_;
  std::vector<std::pair<std::string, T>> table_;
  std::vector<std::string> names_;
};

}  // namespace kirchhoff
