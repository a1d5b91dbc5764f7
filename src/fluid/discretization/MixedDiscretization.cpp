// Bodies of different point-source discretizations side by side (docs/fluidbody.md (FB-64)): the nodes
// are copied, everything else is asked of the body's own discretization.
#include "fluid/discretization/MixedDiscretization.hpp"

#include "core/Error.hpp"

namespace kirchhoff::fluid {

MixedDiscretization::MixedDiscretization(std::string name, std::vector<Part> parts)
    : name_(std::move(name)), parts_(std::move(parts)) {
  resize(static_cast<int>(parts_.size()));
  for (std::size_t j = 0; j < parts_.size(); ++j) {
    if (!parts_[j].disc || parts_[j].body < 0 || parts_[j].body >= parts_[j].disc->bodyCount())
      throw ConfigurationError("mixed discretization: body " + std::to_string(j) + " has no part");
    nodes_[j] = parts_[j].disc->body(parts_[j].body);
  }
}

}  // namespace kirchhoff::fluid
