// Numbering of the nodes of n bodies, body by body (the rows of the boundary system of
// fluid/solve/BoundarySystem.hpp): node p of body j has offset[j] <= p < offset[j+1].
#pragma once

#include <vector>

namespace kirchhoff::fluid {

struct NodeLayout {
  int bodies = 0;
  int nodes = 0;
  std::vector<int> offset;  ///< n + 1 entries
  std::vector<int> body;    ///< body of each node

  explicit NodeLayout(const std::vector<int>& sizes = {}) {
    bodies = static_cast<int>(sizes.size());
    offset.assign(static_cast<std::size_t>(bodies) + 1, 0);
    for (int j = 0; j < bodies; ++j) offset[j + 1] = offset[j] + sizes[static_cast<std::size_t>(j)];
    nodes = offset[static_cast<std::size_t>(bodies)];
    body.resize(static_cast<std::size_t>(nodes));
    for (int j = 0; j < bodies; ++j)
      for (int p = offset[j]; p < offset[j + 1]; ++p) body[p] = j;
  }
  int bodySize(int j) const { return offset[j + 1] - offset[j]; }
};

}  // namespace kirchhoff::fluid
