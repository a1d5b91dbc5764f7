// Close body pairs in the boundary solve's preconditioner (docs/fluidbody.md (FB-96)): near contact the coupling
// M_jk of two bodies is as large as their self-blocks, so the pair's augmented 2 x 2 block is factored exactly.
#pragma once

#include <functional>
#include <vector>

#include <Eigen/Dense>

#include "lie/SE2.hpp"

namespace kirchhoff::fluid {

/// Two bodies j < k whose augmented blocks the preconditioner inverts together.
struct BodyPair {
  int j = 0, k = 0;
};

/// Bounding circles (centre y_j, radius r_j: they hold the whole boundary) closer than this times the smaller
/// radius couple their bodies (FB-96).
constexpr double kPairCoupling = 0.5;

/// The pairs coupled in the preconditioner (FB-96): bounding-circle gap |y_j - y_k| - r_j - r_k below
/// kPairCoupling min(r_j, r_k), closest first, every body in one pair at most (a greedy matching), and holding at
/// most half of all unknowns (`unknowns[b]`: body b's augmented rows): a pair that is most of the system would be
/// factored whole at every configuration, the direct solve that GMRES is there to avoid. Deterministic.
std::vector<BodyPair> closePairs(const std::vector<lie::Pose>& poses, const std::vector<double>& radii,
                                 const std::vector<int>& unknowns);

/// LU factors of the augmented blocks [[A_jj, M_jk], [M_kj, A_kk]] of close pairs, applied in place of the two
/// self-block inverses on the pair's rows. In double precision: factors rounded to single made the preconditioner
/// nonlinear at 1e-7, and GMRES (a fixed linear preconditioner assumed) then stalled the true residual there.
class PairBlocks {
 public:
  /// `first[b]`, `size[b]`: where body b's augmented rows start and how many (nodes + 1). Factors the pairs with a
  /// row in [lo, hi) from `assemble(pair)`; the others are skipped.
  void set(const std::vector<BodyPair>& pairs, const std::vector<int>& first, const std::vector<int>& size, int lo,
           int hi, const std::function<Eigen::MatrixXd(const BodyPair&)>& assemble);
  /// True when a factored pair has rows outside [lo, hi): its application needs the whole vector.
  bool reachesOut() const { return reachesOut_; }
  /// The first augmented rows of the bodies in the factored pairs (their self-block inverses are not needed).
  std::vector<int> pairedFirsts() const;
  /// For every factored pair, z = block^-1 x (or block^-T x) with x read at index - xBase, and the entries of z
  /// whose index lies in [lo, hi) of set() written to y at index - yBase.
  void apply(const double* x, int xBase, double* y, int yBase, bool transpose) const;

 private:
  struct Factored {
    std::vector<int> index;  // augmented rows of j, then of k
    Eigen::PartialPivLU<Eigen::MatrixXd> lu;
    // The factors transposed (U^T lower, L^T unit upper, column-major): the adjoint solves' triangular sweeps then
    // run down columns as the forward ones do (Eigen's lu.transpose().solve: 2-4x slower at 1200-1800 unknowns).
    Eigen::MatrixXd factorsT;
    int first[2] = {0, 0};   // first augmented rows of j and k
  };
  std::vector<Factored> pairs_;
  int lo_ = 0, hi_ = 0;
  bool reachesOut_ = false;
};

}  // namespace kirchhoff::fluid
