// Dense per-body blocks grouped by bitwise equality (identical bodies share one block): each group applied to all
// of its bodies' segments in one matrix product; the self-blocks and their inverses of docs/fluidbody.md (FB-46), (FB-91).
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include <Eigen/Dense>

namespace kirchhoff::fluid {

class BodyBlocks {
 public:
  /// Adds a square block acting on the entries [first, first + block.rows()) of the full vectors.
  void add(int first, const Eigen::MatrixXd& block);
  /// For every block, z = block x (or block^T x) with x read from `x` at index - xBase, and the entries of z whose
  /// index lies in [lo, hi) written to `y` at index - yBase.
  void apply(const double* x, int xBase, double* y, int yBase, int lo, int hi, bool transpose) const;
  /// apply() leaves out the blocks that start at these entries (sorted or not; empty: none), until the next call.
  void skip(std::vector<int> firsts);
  int groups() const { return static_cast<int>(groups_.size()); }
  bool empty() const { return groups_.empty(); }

 private:
  struct Group {
    Eigen::MatrixXd block;
    std::vector<int> first;
  };
  std::vector<Group> groups_;
  std::multimap<std::uint64_t, int> byHash_;  // hash of a block's bytes -> its group
  std::vector<int> skipped_;                  // sorted
};

}  // namespace kirchhoff::fluid
