// Per-body blocks grouped by bitwise equality: one matrix product per group and call.
#include "fluid/solve/BodyBlocks.hpp"

#include <algorithm>
#include <cstring>

#include "core/Hash.hpp"

namespace kirchhoff::fluid {

void BodyBlocks::add(int first, const Eigen::MatrixXd& block) {
  Fnv1a hash;
  hash.add(block.data(), static_cast<std::size_t>(block.size()) * sizeof(double));
  const std::uint64_t h = hash.value() ^ static_cast<std::uint64_t>(block.rows());
  const auto [a, b] = byHash_.equal_range(h);
  for (auto it = a; it != b; ++it) {
    Group& g = groups_[static_cast<std::size_t>(it->second)];
    if (g.block.rows() == block.rows() &&
        std::memcmp(g.block.data(), block.data(), static_cast<std::size_t>(block.size()) * sizeof(double)) == 0) {
      g.first.push_back(first);
      return;
    }
  }
  byHash_.emplace(h, static_cast<int>(groups_.size()));
  groups_.push_back(Group{block, {first}});
}

void BodyBlocks::skip(std::vector<int> firsts) {
  std::sort(firsts.begin(), firsts.end());
  skipped_ = std::move(firsts);
}

void BodyBlocks::apply(const double* x, int xBase, double* y, int yBase, int lo, int hi, bool transpose) const {
  Eigen::MatrixXd X, Z;
  std::vector<int> firsts;
  for (const Group& g : groups_) {
    firsts.clear();
    for (const int f : g.first)
      if (!std::binary_search(skipped_.begin(), skipped_.end(), f)) firsts.push_back(f);
    if (firsts.empty()) continue;
    const Eigen::Index m = g.block.rows(), k = static_cast<Eigen::Index>(firsts.size());
    X.resize(m, k);
    for (Eigen::Index c = 0; c < k; ++c) X.col(c) = Eigen::Map<const Eigen::VectorXd>(x + firsts[c] - xBase, m);
    if (transpose)
      Z.noalias() = g.block.transpose() * X;
    else
      Z.noalias() = g.block * X;
    for (Eigen::Index c = 0; c < k; ++c) {
      const int f = firsts[c];
      for (int i = std::max(f, lo); i < std::min(f + static_cast<int>(m), hi); ++i) y[i - yBase] = Z(i - f, c);
    }
  }
}

}  // namespace kirchhoff::fluid
