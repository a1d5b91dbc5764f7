// Body-cluster operator (docs/fluidbody.md (FB-41)-(FB-45), (FB-57)-(FB-60)): scaled multipole moments of
// the owned bodies (P2M), the cluster tree's far field, scaled target moments (L2P), exact near blocks; the
// transposes run the same pipeline backwards, the pose gradient through the tree's (FB-59), (FB-60).
#include "fluid/fast/BodyClusterOperator.hpp"

#include <algorithm>
#include <map>

#include "core/Error.hpp"
#include "core/LogEvents.hpp"

namespace kirchhoff::fluid {

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

BodyClusterOperator::BodyClusterOperator(MPI_Comm comm, const Discretization& disc, const NodeLayout& layout,
                                         int bodyBegin, int bodyEnd, int order, double eta)
    : comm_(comm), disc_(disc), layout_(layout), b0_(bodyBegin), b1_(bodyEnd), p_(order),
      moments_(disc, layout, bodyBegin, bodyEnd, order), tree_(comm, order, eta) {
  MPI_Comm_size(comm, &ranks_);
  for (int j = 0; j < layout.bodies; ++j) radius_.push_back(disc.body(j).radius);
  near_.resize(static_cast<std::size_t>(b1_ - b0_));
}

bool BodyClusterOperator::isNear(int P, int Q) const {
  const std::vector<int>& l = nearOf_[static_cast<std::size_t>(P)];
  return std::binary_search(l.begin(), l.end(), Q);
}

const Eigen::MatrixXd* BodyClusterOperator::nearBlock(Kind k, int P, int Q) const {
  if (P < b0_ || P >= b1_) return nullptr;
  for (const Near& e : near_[P - b0_])
    if (e.Q == Q) return k == Kind::Normal ? &e.M : &e.S;
  return nullptr;
}

void BodyClusterOperator::setPoses(const std::vector<lie::Pose>& poses) {
  ScopedEvent ev(Phase::PanelNearField);
  poses_ = poses;
  const int n = layout_.bodies;
  std::vector<Cluster> leaves(static_cast<std::size_t>(n));
  std::vector<char> owned(static_cast<std::size_t>(n), 0);
  for (int j = 0; j < n; ++j) leaves[j] = Cluster{lie::toComplex(poses[j].y), radius_[j]};
  for (int j = b0_; j < b1_; ++j) owned[j] = 1;
  tree_.build(leaves, owned);
  nearOf_.assign(static_cast<std::size_t>(n), {});
  for (const auto& [P, Q] : tree_.nearPairs()) {
    nearOf_[P].push_back(Q);
    nearOf_[Q].push_back(P);
  }
  for (auto& l : nearOf_) std::sort(l.begin(), l.end());
  setNearBlocks();
}

void BodyClusterOperator::setNearBlocks() {
  // (FB-42): the exact blocks of the near pairs with an owned target body.
  using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  for (int P = b0_; P < b1_; ++P) {
    std::vector<Near>& list = near_[P - b0_];
    list.clear();
    const int nP = layout_.bodySize(P);
    for (int Q : nearOf_[P]) {
      const int nQ = layout_.bodySize(Q);
      RowMajor M(nP, nQ), S(nP, nQ);
      disc_.interaction(P, poses_[P], 0, nP, Q, poses_[Q], M.data(), nQ, S.data(), nQ);
      list.push_back(Near{Q, M, S});
    }
  }
}

Eigen::MatrixXcd BodyClusterOperator::sourceCoefficients(const Eigen::VectorXd& x) const {
  // (FB-41): a_k = e^{i k th_Q} (A_Q x_Q)_k / r_Q^k for the owned bodies (the tree gathers the rest).
  Eigen::MatrixXcd a = Eigen::MatrixXcd::Zero(p_ + 1, layout_.bodies);
  moments_.multipoles(x, a);
  applyRotations(a, poses_, b0_, b1_);
  return a;
}

Eigen::MatrixXcd BodyClusterOperator::targetContractions(Kind k, const Eigen::VectorXd& u) const {
  Eigen::MatrixXcd c = Eigen::MatrixXcd::Zero(p_ + 1, layout_.bodies);
  moments_.contract(k == Kind::Normal, u, c);
  applyRotations(c, poses_, b0_, b1_);
  return c;
}

void BodyClusterOperator::apply(Kind k, const Eigen::VectorXd& x, Eigen::VectorXd& y, int order) const {
  {
    ScopedEvent ev(Phase::PanelMultipole);
    Eigen::MatrixXcd L = tree_.localExpansions(tree_.cappedPlan(order > 0 ? order : p_), sourceCoefficients(x));
    applyRotations(L, poses_, b0_, b1_);  // (FB-43): y_p = Re sum_l T_pl e^{i l th_P} b_l
    moments_.evaluate(k == Kind::Normal, L, y);
  }
  ScopedEvent ev(Phase::PanelNearField);
  for (int P = b0_; P < b1_; ++P)
    for (const Near& e : near_[P - b0_])
      y.segment(layout_.offset[P], layout_.bodySize(P)).noalias() +=
          (k == Kind::Normal ? e.M : e.S) * x.segment(layout_.offset[e.Q], layout_.bodySize(e.Q));
}

void BodyClusterOperator::applyTranspose(Kind k, const Eigen::VectorXd& u, Eigen::VectorXd& y, int order) const {
  y = Eigen::VectorXd::Zero(layout_.nodes);
  {
    ScopedEvent ev(Phase::PanelMultipole);
    Eigen::MatrixXcd e = tree_.multipoleAdjoints(tree_.cappedPlan(order > 0 ? order : p_), targetContractions(k, u));
    applyRotations(e, poses_, b0_, b1_);
    moments_.multipolesTranspose(e, y);
  }
  ScopedEvent ev(Phase::PanelNearField);
  for (int P = b0_; P < b1_; ++P)
    for (const Near& b : near_[P - b0_])
      y.segment(layout_.offset[b.Q], layout_.bodySize(b.Q)).noalias() +=
          (k == Kind::Normal ? b.M : b.S).transpose() * u.segment(layout_.offset[P], layout_.bodySize(P));
  if (ranks_ > 1) MPI_Allreduce(MPI_IN_PLACE, y.data(), layout_.nodes, MPI_DOUBLE, MPI_SUM, comm_);
}

void BodyClusterOperator::addFarGradient(
    const std::vector<std::pair<const Eigen::VectorXd*, const Eigen::VectorXd*>>& normal,
    const std::vector<std::pair<const Eigen::VectorXd*, const Eigen::VectorXd*>>& potential,
    Eigen::VectorXd& grad) const {
  // F = Re sum_P c_P . L_P(a) per source density v (the target contractions of every u paired with v summed):
  // one forward and one transposed pass of the tree per distinct v ((FB-59), (FB-60)).
  ScopedEvent ev(Phase::PanelMultipole);
  std::map<const Eigen::VectorXd*, Eigen::MatrixXcd> contractions;  // v -> c, in the order of first use
  std::vector<const Eigen::VectorXd*> sources;
  auto add = [&](Kind k, const Eigen::VectorXd& u, const Eigen::VectorXd* v) {
    auto [it, fresh] = contractions.try_emplace(v, Eigen::MatrixXcd::Zero(p_ + 1, layout_.bodies));
    if (fresh) sources.push_back(v);
    it->second += targetContractions(k, u);
  };
  for (const auto& w : normal) add(Kind::Normal, *w.first, w.second);
  for (const auto& w : potential) add(Kind::Potential, *w.first, w.second);
  for (const Eigen::VectorXd* v : sources) {
    const Eigen::Matrix3Xd g = tree_.farGradient(sourceCoefficients(*v), contractions[v]);
    for (int j = b0_; j < b1_; ++j) grad.segment<3>(3 * j) += g.col(j);
  }
}

long BodyClusterOperator::nearPairs() const {
  long s = 0;
  for (const auto& l : near_) s += static_cast<long>(l.size());
  return s;
}

long BodyClusterOperator::storedDoubles() const {
  long s = tree_.storedDoubles();
  for (const auto& l : near_)
    for (const Near& e : l) s += static_cast<long>(e.M.size() + e.S.size());
  s += moments_.storedDoubles();
  return s;
}

}  // namespace kirchhoff::fluid
