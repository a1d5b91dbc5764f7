// Body-cluster operator (docs/fluidbody.md (FB-41)-(FB-45)): scaled multipole moments of every body,
// direct M2L between far pairs, scaled target moments on the target bodies, exact near blocks; the
// transposes run the same pipeline backwards, the pose gradient differentiates the M2L matrix.
#include "fluid/BodyClusterOperator.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "core/Error.hpp"
#include "core/LogEvents.hpp"

namespace kirchhoff::fluid {

namespace {
const Complex kI(0.0, 1.0);

/// The scaled M2L matrix (FB-43) between a source of radius rQ and a target of radius rP at d = c_P - c_Q:
///   T_00 = log d,  T_l0 = -(-t)^l / l,  T_lk = t^l C_lk s^k (k >= 1),  C_lk = (-1)^l binom(k+l-1, l),
/// t = rP/d, s = rQ/d. C is the same real matrix for every pair, so the far pairs of a target body are one
/// real matrix product (groupedTimes); the pair enters through the powers of t and s and the log column.
Eigen::MatrixXd m2lBinomials(int p) {
  Eigen::MatrixXd C = Eigen::MatrixXd::Zero(p + 1, p + 1);
  std::vector<double> row(static_cast<std::size_t>(2 * p + 1), 0.0), next(row.size());
  row[0] = 1.0;  // binom(n, .) for n = 0, 1, ...
  std::vector<std::vector<double>> binom;
  for (int n = 0; n <= 2 * p; ++n) {
    binom.push_back(row);
    next.assign(row.size(), 0.0);
    next[0] = 1.0;
    for (int l = 1; l <= n + 1 && l <= 2 * p; ++l) next[l] = row[l - 1] + row[l];
    row = next;
  }
  for (int l = 0; l <= p; ++l)
    for (int k = 1; k <= p; ++k) C(l, k) = (l % 2 ? -1.0 : 1.0) * binom[k + l - 1][l];
  return C;
}

/// Y = C X for a complex X, by groups of columns [first, first + count) of equal order: only the leading
/// order + 1 rows and columns of C enter (the rest of X and Y is zero).
Eigen::MatrixXcd groupedTimes(const Eigen::MatrixXd& C, const Eigen::MatrixXcd& X,
                              const std::vector<std::array<int, 3>>& groups) {
  Eigen::MatrixXcd Y = Eigen::MatrixXcd::Zero(X.rows(), X.cols());
  for (const auto& g : groups) {
    const int first = g[0], count = g[1], m = g[2] + 1;
    const auto Cm = C.topLeftCorner(m, m);
    Y.block(0, first, m, count).real() = Cm * X.block(0, first, m, count).real();
    Y.block(0, first, m, count).imag() = Cm * X.block(0, first, m, count).imag();
  }
  return Y;
}
}  // namespace

std::pair<int, int> balancedBodies(const NodeLayout& layout, int ranks, int rank) {
  // Body j goes to the rank whose share of the nodes holds the node at the middle of j.
  auto owner = [&](int j) {
    const double mid = 0.5 * (layout.offset[j] + layout.offset[j + 1]);
    return std::min(ranks - 1, static_cast<int>(mid * ranks / std::max(1, layout.nodes)));
  };
  int b0 = 0;
  while (b0 < layout.bodies && owner(b0) < rank) ++b0;
  int b1 = b0;
  while (b1 < layout.bodies && owner(b1) == rank) ++b1;
  return {b0, b1};
}

int multipoleOrder(double eta, double tol) {
  if (!(eta > 1.0)) throw ConfigurationError("multipole eta must be > 1, got " + std::to_string(eta));
  return std::max(4, static_cast<int>(std::ceil(std::log(tol) / std::log(1.0 / eta))) + 2);
}

BodyClusterOperator::BodyClusterOperator(MPI_Comm comm, const Discretization& disc, const NodeLayout& layout,
                                         int bodyBegin, int bodyEnd, int order, double eta)
    : comm_(comm), disc_(disc), layout_(layout), b0_(bodyBegin), b1_(bodyEnd), p_(order), eta_(eta) {
  if (order < 1) throw ConfigurationError("multipole order must be >= 1, got " + std::to_string(order));
  if (!(eta > 1.0)) throw ConfigurationError("multipole eta must be > 1, got " + std::to_string(eta));
  MPI_Comm_size(comm, &ranks_);
  C_ = m2lBinomials(p_);
  CT_ = C_.transpose();
  const int n = layout.bodies;
  radius_.resize(n);
  A_.resize(n);
  for (int j = 0; j < n; ++j) {
    radius_[j] = disc.body(j).radius;
    A_[j] = disc.multipoleMoments(j, p_);
    double sc = 1.0;
    for (int k = 1; k <= p_; ++k) A_[j].row(k) *= (sc /= radius_[j]);
  }
  for (int P = b0_; P < b1_; ++P) {
    const BodyNodes& b = disc.body(P);
    Eigen::MatrixXcd S(b.size(), p_ + 1), N(b.size(), p_ + 1);
    for (int q = 0; q < b.size(); ++q) {
      const Complex x = lie::toComplex(b.x[q]) / radius_[P], nu = lie::toComplex(b.normal[q]) / radius_[P];
      Complex xl(1.0, 0.0);  // (x/r)^l
      S(q, 0) = 1.0;
      N(q, 0) = 0.0;
      for (int l = 1; l <= p_; ++l) {
        N(q, l) = static_cast<double>(l) * xl * nu;  // l x^(l-1) nu / r^l
        xl *= x;
        S(q, l) = xl;
      }
    }
    TS_.push_back(std::move(S));
    TN_.push_back(std::move(N));
  }
  std::vector<int> first(ranks_), last(ranks_);
  const int mine[2] = {b0_, b1_};
  std::vector<int> all(2 * ranks_);
  MPI_Allgather(mine, 2, MPI_INT, all.data(), 2, MPI_INT, comm_);
  counts_.resize(ranks_);
  displs_.resize(ranks_);
  for (int r = 0; r < ranks_; ++r) {
    counts_[r] = 2 * (p_ + 1) * (all[2 * r + 1] - all[2 * r]);
    displs_[r] = 2 * (p_ + 1) * all[2 * r];
  }
  near_.resize(static_cast<std::size_t>(b1_ - b0_));
}

bool BodyClusterOperator::isNear(int P, int Q) const {
  const Complex d = lie::toComplex(poses_[P].y - poses_[Q].y);
  return std::abs(d) <= eta_ * (radius_[P] + radius_[Q]);
}

void BodyClusterOperator::setPoses(const std::vector<lie::Pose>& poses) {
  ScopedEvent ev(Phase::PanelNearField);
  poses_ = poses;
  far_.assign(static_cast<std::size_t>(b1_ - b0_), {});
  farOrder_.assign(far_.size(), {});
  farGroups_.assign(far_.size(), {});
  for (int P = b0_; P < b1_; ++P) {
    std::vector<Near>& list = near_[P - b0_];
    list.clear();
    farSources(P);
    const int nP = layout_.bodySize(P);
    for (int Q = 0; Q < layout_.bodies; ++Q) {
      if (Q == P || !isNear(P, Q)) continue;
      Near e;
      e.Q = Q;
      const int nQ = layout_.bodySize(Q);
      using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
      RowMajor M(nP, nQ), S(nP, nQ);
      disc_.interaction(P, poses_[P], 0, nP, Q, poses_[Q], M.data(), nQ, S.data(), nQ);
      e.M = M;
      e.S = S;
      list.push_back(std::move(e));
    }
  }
}

Eigen::MatrixXcd BodyClusterOperator::sourceCoefficients(const Eigen::VectorXd& x) const {
  // (FB-41): a_k = e^{i k th_Q} (A_Q x_Q)_k / r_Q^k for the owned bodies, then gathered.
  Eigen::MatrixXcd a = Eigen::MatrixXcd::Zero(p_ + 1, layout_.bodies);
  for (int Q = b0_; Q < b1_; ++Q) {
    a.col(Q) = A_[Q] * x.segment(layout_.offset[Q], layout_.bodySize(Q)).cast<Complex>();
    const Complex e = rotation(Q);
    Complex r(1.0, 0.0);
    for (int k = 1; k <= p_; ++k) a(k, Q) *= (r *= e);
  }
  if (ranks_ > 1)
    MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, reinterpret_cast<double*>(a.data()), counts_.data(),
                   displs_.data(), MPI_DOUBLE, comm_);
  return a;
}

Eigen::VectorXcd BodyClusterOperator::targetContraction(Kind k, int P, const Eigen::VectorXd& u) const {
  const Eigen::MatrixXcd& T = k == Kind::Normal ? TN_[P - b0_] : TS_[P - b0_];
  Eigen::VectorXcd c = T.transpose() * u.segment(layout_.offset[P], layout_.bodySize(P)).cast<Complex>();
  const Complex e = rotation(P);
  Complex r(1.0, 0.0);
  for (int l = 1; l <= p_; ++l) c[l] *= (r *= e);
  return c;
}

int BodyClusterOperator::pairOrder(int P, int Q) const {
  // (FB-44): the pair's ratio rho = (r_P + r_Q)/|d| < 1/eta; order q with rho^q <= eta^-p.
  const double rho = (radius_[P] + radius_[Q]) / std::abs(lie::toComplex(poses_[P].y - poses_[Q].y));
  return std::min(p_, std::max(2, static_cast<int>(std::ceil(p_ * std::log(eta_) / -std::log(rho)))));
}

void BodyClusterOperator::farSources(int P) {
  // Far sources of P sorted by their pair order, and the groups of equal order.
  std::vector<int>& far = far_[P - b0_];
  std::vector<int> order(static_cast<std::size_t>(layout_.bodies), 0);
  for (int Q = 0; Q < layout_.bodies; ++Q)
    if (Q != P && !isNear(P, Q)) {
      far.push_back(Q);
      order[Q] = pairOrder(P, Q);
    }
  std::stable_sort(far.begin(), far.end(), [&](int a, int b) { return order[a] < order[b]; });
  auto& groups = farGroups_[P - b0_];
  for (std::size_t i = 0; i < far.size(); ++i) {
    farOrder_[P - b0_].push_back(order[far[i]]);
    if (groups.empty() || groups.back()[2] != order[far[i]])
      groups.push_back({static_cast<int>(i), 0, order[far[i]]});
    ++groups.back()[1];
  }
}

BodyClusterOperator::FarPowers BodyClusterOperator::farPowers(int P) const {
  // Column i: powers of t = r_P/d and s = r_Q/d and the log column T_l0 of far pair (P, Q_i), zero beyond
  // the pair's order (FB-44).
  const std::vector<int>& far = far_[P - b0_];
  const Eigen::Index nf = static_cast<Eigen::Index>(far.size());
  FarPowers f{Eigen::MatrixXcd::Zero(p_ + 1, nf), Eigen::MatrixXcd::Zero(p_ + 1, nf), Eigen::MatrixXcd::Zero(p_ + 1, nf)};
  for (Eigen::Index i = 0; i < nf; ++i) {
    const int Q = far[static_cast<std::size_t>(i)], q = farOrder_[P - b0_][static_cast<std::size_t>(i)];
    const Complex d = lie::toComplex(poses_[P].y - poses_[Q].y), t = radius_[P] / d, s = radius_[Q] / d;
    f.t(0, i) = f.s(0, i) = 1.0;
    f.log(0, i) = std::log(d);
    for (int l = 1; l <= q; ++l) {
      f.t(l, i) = f.t(l - 1, i) * t;
      f.s(l, i) = f.s(l - 1, i) * s;
      f.log(l, i) = (l % 2 ? 1.0 : -1.0) * f.t(l, i) / static_cast<double>(l);
    }
  }
  return f;
}

Eigen::MatrixXcd BodyClusterOperator::farInputs(int P, const Eigen::MatrixXcd& a, const FarPowers& pw) const {
  // X_ki = s_i^k a_k(Q_i) (k >= 1; row 0 zero) over the far sources Q_i of P.
  const std::vector<int>& far = far_[P - b0_];
  Eigen::MatrixXcd X = Eigen::MatrixXcd::Zero(p_ + 1, static_cast<Eigen::Index>(far.size()));
  for (std::size_t i = 0; i < far.size(); ++i) {
    const Eigen::Index ii = static_cast<Eigen::Index>(i);
    X.col(ii).tail(p_) = pw.s.col(ii).tail(p_).cwiseProduct(a.col(far[i]).tail(p_));
  }
  return X;
}

Eigen::VectorXcd BodyClusterOperator::localCoefficients(int P, const Eigen::MatrixXcd& a) const {
  // (FB-43) summed over the far sources: b_l = sum_i t_i^l (C X)_li + T_l0 a_0(Q_i).
  const FarPowers pw = farPowers(P);
  const Eigen::MatrixXcd X = farInputs(P, a, pw);
  const Eigen::MatrixXcd Y = groupedTimes(C_, X, farGroups_[P - b0_]);
  Eigen::VectorXcd b = Eigen::VectorXcd::Zero(p_ + 1);
  const std::vector<int>& far = far_[P - b0_];
  for (std::size_t i = 0; i < far.size(); ++i)
    b += pw.t.col(static_cast<Eigen::Index>(i)).cwiseProduct(Y.col(static_cast<Eigen::Index>(i))) +
         pw.log.col(static_cast<Eigen::Index>(i)) * a(0, far[i]);
  return b;
}

void BodyClusterOperator::apply(Kind k, const Eigen::VectorXd& x, Eigen::VectorXd& y) const {
  const Eigen::MatrixXcd a = [&] {
    ScopedEvent ev(Phase::PanelMultipole);
    return sourceCoefficients(x);
  }();
  for (int P = b0_; P < b1_; ++P) {
    const int o = layout_.offset[P], nP = layout_.bodySize(P);
    {
      ScopedEvent ev(Phase::PanelMultipole);
      Eigen::VectorXcd b = localCoefficients(P, a);
      const Complex e = rotation(P);
      Complex r(1.0, 0.0);
      for (int l = 1; l <= p_; ++l) b[l] *= (r *= e);
      const Eigen::MatrixXcd& Tm = k == Kind::Normal ? TN_[P - b0_] : TS_[P - b0_];
      y.segment(o, nP) = (Tm * b).real();
    }
    ScopedEvent ev(Phase::PanelNearField);
    for (const Near& e : near_[P - b0_])
      y.segment(o, nP).noalias() +=
          (k == Kind::Normal ? e.M : e.S) * x.segment(layout_.offset[e.Q], layout_.bodySize(e.Q));
  }
}

void BodyClusterOperator::applyTranspose(Kind k, const Eigen::VectorXd& u, Eigen::VectorXd& y) const {
  const int n = layout_.bodies;
  y = Eigen::VectorXd::Zero(layout_.nodes);
  Eigen::MatrixXcd e = Eigen::MatrixXcd::Zero(p_ + 1, n);  // world-frame, scaled multipole adjoints
  for (int P = b0_; P < b1_; ++P) {
    const int o = layout_.offset[P], nP = layout_.bodySize(P);
    {
      ScopedEvent ev(Phase::PanelMultipole);
      const Eigen::VectorXcd c = targetContraction(k, P, u);
      const std::vector<int>& far = far_[P - b0_];
      Eigen::MatrixXcd Z(p_ + 1, static_cast<Eigen::Index>(far.size()));  // Z_li = t_i^l c_l
      const FarPowers pw = farPowers(P);
      for (std::size_t i = 0; i < far.size(); ++i)
        Z.col(static_cast<Eigen::Index>(i)) = pw.t.col(static_cast<Eigen::Index>(i)).cwiseProduct(c);
      const Eigen::MatrixXcd W = groupedTimes(CT_, Z, farGroups_[P - b0_]);  // C^T Z
      for (std::size_t i = 0; i < far.size(); ++i) {
        const Eigen::Index ii = static_cast<Eigen::Index>(i);
        e.col(far[i]).tail(p_) += pw.s.col(ii).tail(p_).cwiseProduct(W.col(ii).tail(p_));
        e(0, far[i]) += pw.log.col(ii).cwiseProduct(c).sum();  // sum_l T_l0 c_l
      }
    }
    ScopedEvent ev(Phase::PanelNearField);
    for (const Near& b : near_[P - b0_])
      y.segment(layout_.offset[b.Q], layout_.bodySize(b.Q)).noalias() +=
          (k == Kind::Normal ? b.M : b.S).transpose() * u.segment(o, nP);
  }
  ScopedEvent ev(Phase::PanelMultipole);
  for (int Q = 0; Q < n; ++Q) {
    const Complex r = rotation(Q);
    Complex s(1.0, 0.0);
    for (int kk = 1; kk <= p_; ++kk) e(kk, Q) *= (s *= r);
    y.segment(layout_.offset[Q], layout_.bodySize(Q)) += (A_[Q].transpose() * e.col(Q)).real();
  }
  if (ranks_ > 1) MPI_Allreduce(MPI_IN_PLACE, y.data(), layout_.nodes, MPI_DOUBLE, MPI_SUM, comm_);
}

void BodyClusterOperator::addFarGradient(
    const std::vector<std::pair<const Eigen::VectorXd*, const Eigen::VectorXd*>>& normal,
    const std::vector<std::pair<const Eigen::VectorXd*, const Eigen::VectorXd*>>& potential,
    Eigen::VectorXd& grad) const {
  // (FB-45): F = Re(c^T T(d) a) per weight pair; dF/dth_P = Re((i l c_l) T a), dF/dth_Q = Re(c T (i k a_k)),
  // dF/dc_P = c^T T'(d) a with T'_lk = -(k+l) T_lk / d (T'_00 = 1/d), dF/dy_P = (Re, -Im) dF/dc_P = -dF/dy_Q.
  ScopedEvent ev(Phase::PanelMultipole);
  struct Term {
    Kind kind;
    const Eigen::VectorXd *u, *v;
  };
  std::vector<Term> terms;
  for (const auto& w : normal) terms.push_back({Kind::Normal, w.first, w.second});
  for (const auto& w : potential) terms.push_back({Kind::Potential, w.first, w.second});
  std::vector<Eigen::MatrixXcd> a;
  for (const Term& t : terms) a.push_back(sourceCoefficients(*t.v));
  const Eigen::ArrayXd kk = Eigen::ArrayXd::LinSpaced(p_ + 1, 0.0, static_cast<double>(p_));
  for (int P = b0_; P < b1_; ++P) {
    const std::vector<int>& far = far_[P - b0_];
    const FarPowers pw = farPowers(P);
    for (std::size_t w = 0; w < terms.size(); ++w) {
      const Eigen::VectorXcd c = targetContraction(terms[w].kind, P, *terms[w].u);
      const Eigen::MatrixXcd X = farInputs(P, a[w], pw);
      const auto& groups = farGroups_[P - b0_];
      const Eigen::MatrixXcd Y = groupedTimes(C_, X, groups);
      const Eigen::MatrixXcd Yk = groupedTimes(C_, (X.array().colwise() * kk.cast<Complex>()).matrix(), groups);
      for (std::size_t i = 0; i < far.size(); ++i) {
        const int Q = far[i];
        const Eigen::Index ii = static_cast<Eigen::Index>(i);
        const Complex d = lie::toComplex(poses_[P].y - poses_[Q].y);
        const Eigen::ArrayXcd b = pw.t.col(ii).cwiseProduct(Y.col(ii)).array() + pw.log.col(ii).array() * a[w](0, Q);
        const Eigen::ArrayXcd bk = pw.t.col(ii).cwiseProduct(Yk.col(ii)).array();
        const Eigen::ArrayXcd cl = c.array();
        const double thP = (kI * (kk.cast<Complex>() * cl * b).sum()).real();
        const double thQ = (kI * (cl * bk).sum()).real();
        const Complex D = (-(cl * (kk.cast<Complex>() * b + bk)).sum() + c[0] * a[w](0, Q)) / d;
        grad[3 * P] += thP;
        grad[3 * P + 1] += D.real();
        grad[3 * P + 2] -= D.imag();
        grad[3 * Q] += thQ;
        grad[3 * Q + 1] -= D.real();
        grad[3 * Q + 2] += D.imag();
      }
    }
  }
}

long BodyClusterOperator::nearPairs() const {
  long s = 0;
  for (const auto& l : near_) s += static_cast<long>(l.size());
  return s;
}

long BodyClusterOperator::storedDoubles() const {
  long s = 0;
  for (const auto& l : near_)
    for (const Near& e : l) s += static_cast<long>(e.M.size() + e.S.size());
  return s;
}

}  // namespace kirchhoff::fluid
