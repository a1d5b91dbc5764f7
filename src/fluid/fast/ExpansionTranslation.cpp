// Batched translations of scaled expansions (docs/fluidbody.md (FB-57)): the binomial matrices of M2M, M2L
// and L2L, and their application as gather (input powers), one real GEMM per chunk, scatter (output powers).
#include "fluid/fast/ExpansionTranslation.hpp"

#include <algorithm>
#include <cmath>

#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

namespace kirchhoff::fluid {

namespace {

using Complex = std::complex<double>;

/// Pascal's triangle binom(n, k) for n <= nMax.
Eigen::MatrixXd binomials(int nMax) {
  Eigen::MatrixXd b = Eigen::MatrixXd::Zero(nMax + 1, nMax + 1);
  for (int n = 0; n <= nMax; ++n) {
    b(n, 0) = 1.0;
    for (int k = 1; k <= n; ++k) b(n, k) = b(n - 1, k - 1) + b(n - 1, k);
  }
  return b;
}

/// Subnormal results flushed to zero while a translation batch runs (x86 MXCSR FTZ and DAZ; restored on exit):
/// high powers w^k of small w and tiny coefficients would otherwise make the products slow, not more accurate.
class FlushSubnormals {
 public:
#if defined(__SSE2__)
  FlushSubnormals() : saved_(_mm_getcsr()) { _mm_setcsr(saved_ | 0x8040u); }
  ~FlushSubnormals() { _mm_setcsr(saved_); }

 private:
  unsigned saved_;
#endif
};

/// Running powers of one complex factor per translation of a chunk, real and imaginary parts apart so that
/// the loops over the chunk vectorize: w_j <- w_j f_j.
struct Powers {
  std::vector<double> wr, wi, fr, fi;
  void start(const Translation* t, std::size_t n, bool input) {
    wr.assign(n, 1.0), wi.assign(n, 0.0), fr.resize(n), fi.resize(n);
    for (std::size_t j = 0; j < n; ++j) {
      const Complex f = input ? t[j].in : t[j].out;
      fr[j] = f.real(), fi[j] = f.imag();
    }
  }
  void next() {
    for (std::size_t j = 0; j < wr.size(); ++j) {
      const double r = wr[j] * fr[j] - wi[j] * fi[j];
      wi[j] = wr[j] * fi[j] + wi[j] * fr[j];
      wr[j] = r;
    }
  }
};

}  // namespace

TranslationMatrices::TranslationMatrices(int p) {
  // (FB-57): M2M  K_00 = 1, K_l0 = -1/l, K_lk = binom(l-1, k-1) (1 <= k <= l);
  //          M2L  K_l0 = (-1)^(l+1)/l (l >= 1), K_lk = (-1)^l binom(k+l-1, l) (k >= 1);
  //          L2L  K_lk = binom(k, l) (k >= l).
  const Eigen::MatrixXd b = binomials(2 * p);
  m2m = m2l = l2l = Eigen::MatrixXd::Zero(p + 1, p + 1);
  m2m(0, 0) = 1.0;
  for (int l = 0; l <= p; ++l) {
    const double sign = l % 2 ? -1.0 : 1.0;
    if (l >= 1) {
      m2m(l, 0) = -1.0 / l;
      m2l(l, 0) = -sign / l;
    }
    for (int k = 1; k <= p; ++k) {
      if (k <= l) m2m(l, k) = b(l - 1, k - 1);
      m2l(l, k) = sign * b(k + l - 1, l);
    }
    for (int k = l; k <= p; ++k) l2l(l, k) = b(k, l);
  }
}

Translation transposed(const Translation& t) {
  Translation r = t;
  std::swap(r.from, r.to);
  std::swap(r.in, r.out);
  return r;
}

void sortByOrder(std::vector<Translation>& list) {
  std::stable_sort(list.begin(), list.end(), [](const Translation& a, const Translation& b) { return a.order < b.order; });
}

void translate(const Eigen::MatrixXd& K, bool transposed, const std::vector<Translation>& list,
               const Eigen::MatrixXcd& in, Eigen::MatrixXcd& out) {
  // The gather and scatter loops run over the translations of a chunk for each power (independent products
  // that vectorize, not one chain of powers per translation); X and Y are row-major so those loops are contiguous.
  // Transposed: from <-> to and w_in <-> w_out, and K^T.
  using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  constexpr std::size_t kChunk = 64;  // 2 x 64 columns of at most p + 1 rows: the GEMM's operands stay in cache
  const FlushSubnormals flush;
  RowMatrix X, Y;
  Powers w;
  std::vector<double> ar(kChunk), ai(kChunk);
  std::vector<int> src(kChunk), dst(kChunk);
  for (std::size_t first = 0; first < list.size();) {
    const int q = list[first].order, m = q + 1;
    std::size_t last = first;
    while (last < list.size() && last - first < kChunk && list[last].order == q) ++last;
    const Translation* t = list.data() + first;
    const std::size_t nc = last - first;
    const Eigen::Index n = static_cast<Eigen::Index>(nc);
    for (std::size_t j = 0; j < nc; ++j) {
      src[j] = transposed ? t[j].to : t[j].from;
      dst[j] = transposed ? t[j].from : t[j].to;
    }
    X.resize(m, 2 * n);
    w.start(t, nc, !transposed);
    for (int k = 0; k < m; ++k, w.next()) {  // X = [Re, Im] of w_in^k in_k
      for (std::size_t j = 0; j < nc; ++j) ar[j] = in(k, src[j]).real(), ai[j] = in(k, src[j]).imag();
      double* xr = X.row(k).data();
      for (std::size_t j = 0; j < nc; ++j) {
        xr[j] = w.wr[j] * ar[j] - w.wi[j] * ai[j];
        xr[nc + j] = w.wr[j] * ai[j] + w.wi[j] * ar[j];
      }
    }
    const auto Kq = K.topLeftCorner(m, m);
    if (transposed)
      Y.noalias() = Kq.transpose() * X;
    else
      Y.noalias() = Kq * X;
    for (std::size_t j = 0; j < nc; ++j) out(0, dst[j]) += t[j].logTerm * in(0, src[j]);
    w.start(t, nc, transposed);
    for (int l = 0; l < m; ++l, w.next()) {  // out_l += w_out^l Y_l
      const double* yr = Y.row(l).data();
      for (std::size_t j = 0; j < nc; ++j) {
        ar[j] = w.wr[j] * yr[j] - w.wi[j] * yr[nc + j];
        ai[j] = w.wr[j] * yr[nc + j] + w.wi[j] * yr[j];
      }
      for (std::size_t j = 0; j < nc; ++j) out(l, dst[j]) += Complex(ar[j], ai[j]);
    }
    first = last;
  }
}

}  // namespace kirchhoff::fluid
