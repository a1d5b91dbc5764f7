// Close body pairs in the preconditioner (docs/fluidbody.md (FB-96)): the greedy matching of close bounding circles
// and the LU factors of their augmented pair blocks.
#include "fluid/solve/PairBlocks.hpp"

#include <algorithm>
#include <tuple>

#include "core/LogEvents.hpp"

namespace kirchhoff::fluid {

std::vector<BodyPair> closePairs(const std::vector<lie::Pose>& poses, const std::vector<double>& radii,
                                 const std::vector<int>& unknowns) {
  const int n = static_cast<int>(poses.size());
  long total = 0;
  for (const int u : unknowns) total += u;
  std::vector<std::tuple<double, int, int>> close;
  for (int j = 0; j < n; ++j)
    for (int k = j + 1; k < n; ++k) {
      const double gap = (poses[j].y - poses[k].y).norm() - radii[j] - radii[k];
      if (gap < kPairCoupling * std::min(radii[j], radii[k]) && 2L * (unknowns[j] + unknowns[k]) <= total)
        close.emplace_back(gap, j, k);
    }
  std::sort(close.begin(), close.end());
  std::vector<char> taken(static_cast<std::size_t>(n), 0);
  std::vector<BodyPair> pairs;
  for (const auto& [gap, j, k] : close) {
    if (taken[j] || taken[k]) continue;
    taken[j] = taken[k] = 1;
    pairs.push_back(BodyPair{j, k});
  }
  return pairs;
}

void PairBlocks::set(const std::vector<BodyPair>& pairs, const std::vector<int>& first, const std::vector<int>& size,
                     int lo, int hi, const std::function<Eigen::MatrixXd(const BodyPair&)>& assemble) {
  pairs_.clear();
  lo_ = lo;
  hi_ = hi;
  reachesOut_ = false;
  for (const BodyPair& p : pairs) {
    Factored f;
    for (const int b : {p.j, p.k})
      for (int i = first[b]; i < first[b] + size[b]; ++i) f.index.push_back(i);
    const bool mine = std::any_of(f.index.begin(), f.index.end(), [&](int i) { return i >= lo && i < hi; });
    if (!mine) continue;
    reachesOut_ = reachesOut_ || std::any_of(f.index.begin(), f.index.end(), [&](int i) { return i < lo || i >= hi; });
    f.lu.compute(assemble(p));
    f.factorsT = f.lu.matrixLU().transpose();
    f.first[0] = first[p.j];
    f.first[1] = first[p.k];
    pairs_.push_back(std::move(f));
  }
}

std::vector<int> PairBlocks::pairedFirsts() const {
  std::vector<int> out;
  for (const Factored& f : pairs_) out.insert(out.end(), {f.first[0], f.first[1]});
  return out;
}

void PairBlocks::apply(const double* x, int xBase, double* y, int yBase, bool transpose) const {
  if (pairs_.empty()) return;
  ScopedEvent ev(Phase::PanelPairApply);
  Eigen::VectorXd X, Z;
  for (const Factored& f : pairs_) {
    const int m = static_cast<int>(f.index.size());
    X.resize(m);
    for (int i = 0; i < m; ++i) X[i] = x[f.index[i] - xBase];
    if (transpose) {  // A^T = U^T L^T P: z = P^T L^-T U^-T x
      f.factorsT.triangularView<Eigen::Lower>().solveInPlace(X);
      f.factorsT.triangularView<Eigen::UnitUpper>().solveInPlace(X);
      Z = f.lu.permutationP().transpose() * X;
    } else {
      Z = f.lu.solve(X);
    }
    for (int i = 0; i < m; ++i)
      if (f.index[i] >= lo_ && f.index[i] < hi_) y[f.index[i] - yBase] = Z[i];
  }
}

}  // namespace kirchhoff::fluid
