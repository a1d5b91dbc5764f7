// Batched translations of radius-scaled complex expansions (docs/fluidbody.md (FB-57)): every M2M, M2L and
// L2L of fluid/fast/ClusterTree is out_l += w_out^l (K w_in^k in_k)_l (+ a log term), K one constant real matrix.
#pragma once

#include <complex>
#include <vector>

#include <Eigen/Dense>

namespace kirchhoff::fluid {

/// One translation between columns of two coefficient matrices (FB-57):
///   out_l(to) += w_out^l sum_k K_lk w_in^k in_k(from)  (l, k = 0 .. order),   out_0(to) += logTerm in_0(from).
struct Translation {
  int from = 0, to = 0;
  int order = 0;
  std::complex<double> in, out, logTerm;
};

/// The constant real matrices of (FB-57) for expansions of order p: M2M, M2L and L2L.
struct TranslationMatrices {
  explicit TranslationMatrices(int p);
  Eigen::MatrixXd m2m, m2l, l2l;
};

/// The transpose of a translation (apply with K^T): from and to, w_in and w_out swapped.
Translation transposed(const Translation& t);

/// Sorts a list by order (stable), the grouping translate() batches by.
void sortByOrder(std::vector<Translation>& list);

/// Applies every translation of `list` (sorted by order), or every transposed one (`transposed`: K^T, ends and
/// powers swapped), reading `in` and adding to `out`: the translations of one order go in chunks through one real
/// matrix product. `in` and `out` may be the same matrix when no translation reads a column that another one of
/// the list writes.
void translate(const Eigen::MatrixXd& K, bool transposed, const std::vector<Translation>& list,
               const Eigen::MatrixXcd& in, Eigen::MatrixXcd& out);

}  // namespace kirchhoff::fluid
