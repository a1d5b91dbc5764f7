// Vortex terms through the cluster tree (docs/fluidbody.md (FB-61), (FB-62)): leaves are the bodies and the vortex
// groups; the body densities reach the vortices referenced (a_0 = 0), the free vortices (strengths K) reach the
// nodes and each other; near vortex–body pairs by the discretization's point field, near vortex pairs directly.
#include "fluid/fast/VortexTerms.hpp"

#include <algorithm>
#include <cmath>

#include "core/Constants.hpp"
#include "core/Error.hpp"
#include "core/LogEvents.hpp"
#include "core/Mpi.hpp"
#include "fluid/discretization/VortexBodyKernels.hpp"

namespace kirchhoff::fluid {

namespace {
using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using RowMatrixC = Eigen::Matrix<Complex, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
}  // namespace

VortexTerms::VortexTerms(MPI_Comm comm, const Discretization& disc, const NodeLayout& layout,
                         const BodyMoments& moments, int bodyBegin, int bodyEnd, int order, double eta, int leafSize)
    : comm_(comm), disc_(disc), layout_(layout), moments_(moments), n_(layout.bodies), b0_(bodyBegin), b1_(bodyEnd),
      p_(order), leafSize_(leafSize), tree_(comm, order, eta) {
  MPI_Comm_size(comm, &ranks_);
  MPI_Comm_rank(comm, &rank_);
  if (leafSize < 1) throw ConfigurationError("vortex leaf size must be >= 1");
}

void VortexTerms::sumOverRanks(double* data, std::size_t count) const {
  if (ranks_ > 1) kirchhoff::sumOverRanks(comm_, data, count);
}

void VortexTerms::update(const std::vector<lie::Pose>& poses, const Vortices& v, const std::vector<Complex>& nodes,
                         const std::vector<Complex>& normals) {
  poses_ = poses;
  v_ = v;
  nodes_ = nodes;
  normals_ = normals;
  const int m = v.size();
  z_.resize(static_cast<std::size_t>(m));
  K_.resize(z_.size());
  iK_.resize(z_.size());
  for (int i = 0; i < m; ++i) {
    z_[i] = lie::toComplex(v.gamma[i]);
    K_[i] = v.K[i];
    iK_[i] = kI * v.K[i];
  }
  groups_ = std::make_unique<VortexClusters>(z_, leafSize_);
  const int G = groups_->size();
  g0_ = static_cast<int>(static_cast<long>(G) * rank_ / ranks_);
  g1_ = static_cast<int>(static_cast<long>(G) * (rank_ + 1) / ranks_);
  buildTree();
  nearBlocks();
  freeField();
  adjoint();
}

void VortexTerms::buildTree() {
  // (FB-61): leaves 0 .. n-1 the bodies' disks, n .. n+G-1 the vortex groups.
  ScopedEvent ev(Phase::VortexMultipole);
  const int G = groups_->size(), leaves = n_ + G;
  std::vector<Cluster> c;
  std::vector<char> owned(static_cast<std::size_t>(leaves), 0), bodies(owned.size(), 0), groups(owned.size(), 0), all(owned.size(), 1);
  for (int j = 0; j < n_; ++j) {
    c.push_back(Cluster{lie::toComplex(poses_[j].y), disc_.body(j).radius});
    owned[j] = j >= b0_ && j < b1_;
    bodies[j] = 1;
  }
  for (int g = 0; g < G; ++g) {
    c.push_back(groups_->cluster(g));
    owned[leafOf(g)] = ownsGroup(g);
    groups[leafOf(g)] = 1;
  }
  tree_.build(c, owned);
  fromBodies_ = tree_.plan(bodies, groups);
  fromVortices_ = tree_.plan(groups, all);
  nearBodies_.assign(static_cast<std::size_t>(g1_ - g0_), {});
  nearVortexGroups_.assign(static_cast<std::size_t>(g1_ - g0_), {});
  nearGroups_.assign(static_cast<std::size_t>(b1_ - b0_), {});
  for (int g = g0_; g < g1_; ++g) nearVortexGroups_[g - g0_].push_back(g);
  for (const auto& [a, b] : tree_.nearPairs()) {  // a < b: a body and a group, or two groups
    if (b < n_) continue;
    const int h = b - n_;
    if (a < n_) {
      if (ownsGroup(h)) nearBodies_[h - g0_].push_back(NearBlock{a, {}, {}});
      if (a >= b0_ && a < b1_) nearGroups_[a - b0_].push_back(h);
      continue;
    }
    const int g = a - n_;
    if (ownsGroup(g)) nearVortexGroups_[g - g0_].push_back(h);
    if (ownsGroup(h)) nearVortexGroups_[h - g0_].push_back(g);
  }
}

void VortexTerms::nearBlocks() {
  // psi_q(gamma_i) and dOmega_q(gamma_i) of the owned groups' vortices against every node of their near bodies.
  ScopedEvent ev(Phase::VortexNearField);
  for (int g = g0_; g < g1_; ++g)
    for (NearBlock& nb : nearBodies_[g - g0_]) {
      const std::vector<int>& mem = groups_->members(g);
      const int nQ = layout_.bodySize(nb.Q);
      RowMatrix psi(mem.size(), nQ);
      RowMatrixC dO(mem.size(), nQ);
      for (std::size_t k = 0; k < mem.size(); ++k)
        disc_.pointField(nb.Q, poses_[nb.Q], z_[mem[k]], 0, nQ, psi.row(static_cast<Eigen::Index>(k)).data(),
                         dO.row(static_cast<Eigen::Index>(k)).data());
      nb.psi = psi;
      nb.dO = dO;
    }
}

void VortexTerms::freeField() {
  // (FB-62): the free vortices as sources of strength K: Phi = sum K log(z - gamma). At the nodes
  // b_I = Re(i nu Phi' / (2 pi)); at the vortices W_vv = 1/(4 pi) sum K Re Phi, u - i v = -i Phi' / (2 pi).
  const int m = v_.size();
  Eigen::MatrixXcd a = Eigen::MatrixXcd::Zero(p_ + 1, tree_.leafCount());
  for (int g = g0_; g < g1_; ++g) a.col(leafOf(g)) = groups_->multipole(g, K_, p_);
  const Eigen::MatrixXcd L = forward(fromVortices_, a);
  freeLocals_ = L.leftCols(n_);
  Eigen::MatrixXcd b = kI * kInvTwoPi * freeLocals_;
  applyRotations(b, poses_, b0_, b1_);
  bI_ = Eigen::VectorXd::Zero(layout_.nodes);
  moments_.evaluate(true, b, bI_);
  ScopedEvent ev(Phase::VortexNearField);
  for (int P = b0_; P < b1_; ++P)
    for (int p = layout_.offset[P]; p < layout_.offset[P + 1]; ++p) {
      Complex sum(0.0, 0.0);
      for (int h : nearGroups_[P - b0_])
        for (int i : groups_->members(h)) sum += vortexbody::inverseDistance(nodes_[p], v_.gamma[i], v_.K[i]);
      bI_[p] += vortexbody::imageData(sum, normals_[p]);
    }
  sumOverRanks(bI_.data(), static_cast<std::size_t>(bI_.size()));
  std::vector<Complex> phi(z_.size(), Complex(0.0, 0.0));
  dPhi_.assign(z_.size(), Complex(0.0, 0.0));
  double w = 0.0;
  for (int g = g0_; g < g1_; ++g) {
    groups_->evaluate(g, L.col(leafOf(g)), &phi, &dPhi_);
    for (int i : groups_->members(g)) {
      // Near vortices directly: K log|d| = K log(|d|^2) / 2 and K / d = K conj(d) / |d|^2.
      double near = 0.0, dr = 0.0, di = 0.0;
      for (int h : nearVortexGroups_[g - g0_])
        for (int j : groups_->members(h)) {
          if (j == i) continue;
          const double dx = z_[i].real() - z_[j].real(), dy = z_[i].imag() - z_[j].imag(), r2 = dx * dx + dy * dy;
          const double k = v_.K[j] / r2;
          near += v_.K[j] * std::log(r2);
          dr += k * dx;
          di -= k * dy;
        }
      dPhi_[i] += Complex(dr, di);
      w += v_.K[i] * (phi[i].real() + 0.5 * near) / (2.0 * kTwoPi);
    }
  }
  sumOverRanks(&w, 1);
  wvv_ = w;
  std::vector<double> u(2 * static_cast<std::size_t>(m), 0.0);
  for (int g = g0_; g < g1_; ++g)
    for (int i : groups_->members(g)) {
      u[2 * i] = dPhi_[i].imag() / kTwoPi;  // u - i v = -i Phi' / (2 pi)
      u[2 * i + 1] = dPhi_[i].real() / kTwoPi;
    }
  sumOverRanks(u.data(), u.size());
  free_.resize(static_cast<std::size_t>(m));
  for (int i = 0; i < m; ++i) free_[i] = Vec2(u[2 * i], u[2 * i + 1]);
}

void VortexTerms::adjoint() {
  // (FB-62): K^T G s = Re sum_i i K_i Omega~_s(gamma_i): the groups' contractions with i K, transposed through the
  // tree to the bodies (kept for the gradient), then G^T K = Re(A^T e) without the a_0 row; near blocks psi^T K.
  Eigen::MatrixXcd c = Eigen::MatrixXcd::Zero(p_ + 1, tree_.leafCount());
  for (int g = g0_; g < g1_; ++g) c.col(leafOf(g)) = groups_->contraction(g, iK_, p_);
  adjoint_ = transpose(fromBodies_, c).leftCols(n_);
  Eigen::MatrixXcd e = adjoint_;
  e.row(0).setZero();
  applyRotations(e, poses_, b0_, b1_);
  GtK_ = Eigen::VectorXd::Zero(layout_.nodes);
  moments_.multipolesTranspose(e, GtK_);
  for (int g = g0_; g < g1_; ++g) {
    const std::vector<int>& mem = groups_->members(g);
    Eigen::VectorXd Kg(mem.size());
    for (std::size_t k = 0; k < mem.size(); ++k) Kg[static_cast<Eigen::Index>(k)] = v_.K[mem[k]];
    for (const NearBlock& nb : nearBodies_[g - g0_])
      GtK_.segment(layout_.offset[nb.Q], layout_.bodySize(nb.Q)) += nb.psi.transpose() * Kg;
  }
  sumOverRanks(GtK_.data(), static_cast<std::size_t>(GtK_.size()));
}

Eigen::MatrixXcd VortexTerms::forward(const ClusterTree::Plan& plan, const Eigen::MatrixXcd& a) const {
  ScopedEvent ev(Phase::VortexMultipole);
  return tree_.localExpansions(plan, a);
}

Eigen::MatrixXcd VortexTerms::transpose(const ClusterTree::Plan& plan, const Eigen::MatrixXcd& c) const {
  ScopedEvent ev(Phase::VortexMultipole);
  return tree_.multipoleAdjoints(plan, c);
}

Eigen::MatrixXcd VortexTerms::referencedMultipoles(const Eigen::VectorXd& s) const {
  // (FB-41) without a_0: the stream function's zero-net-source reference at the body centre.
  Eigen::MatrixXcd a = Eigen::MatrixXcd::Zero(p_ + 1, tree_.leafCount());
  moments_.multipoles(s, a);
  a.row(0).setZero();
  applyRotations(a, poses_, b0_, b1_);
  return a;
}

std::vector<Complex> VortexTerms::bodyFieldOwned(const Eigen::VectorXd& s, bool near) const {
  std::vector<Complex> w(z_.size(), Complex(0.0, 0.0));
  const Eigen::MatrixXcd L = forward(fromBodies_, referencedMultipoles(s));
  for (int g = g0_; g < g1_; ++g) {
    groups_->evaluate(g, L.col(leafOf(g)), nullptr, &w);
    if (!near) continue;
    const std::vector<int>& mem = groups_->members(g);
    for (const NearBlock& nb : nearBodies_[g - g0_]) {
      const Eigen::VectorXcd d = nb.dO * s.segment(layout_.offset[nb.Q], layout_.bodySize(nb.Q)).cast<Complex>();
      for (std::size_t k = 0; k < mem.size(); ++k) w[mem[k]] += d[static_cast<Eigen::Index>(k)];
    }
  }
  return w;
}

std::vector<Complex> VortexTerms::bodyField(const Eigen::VectorXd& s) const {
  std::vector<Complex> w = bodyFieldOwned(s, true);
  sumOverRanks(reinterpret_cast<double*>(w.data()), 2 * w.size());
  return w;
}

void VortexTerms::addStreamGradient(const Eigen::VectorXd& sbar, Eigen::VectorXd& grad) const {
  // K^T G sbar = Re sum_i i K_i Omega~(gamma_i): the vortices as targets (far field's derivative at each vortex), the
  // bodies as rigid sources ((FB-60) with the adjoint of setConfiguration), near pairs by the exact kernel.
  const std::vector<Complex> w = bodyFieldOwned(sbar, false);
  const Eigen::MatrixXcd a = referencedMultipoles(sbar);
  for (int Q = b0_; Q < b1_; ++Q)
    grad.segment<3>(3 * Q) += ClusterTree::sourceGradient(a.col(Q), adjoint_.col(Q), disc_.body(Q).radius);
  for (int g = g0_; g < g1_; ++g) {
    const std::vector<int>& mem = groups_->members(g);
    for (std::size_t k = 0; k < mem.size(); ++k) {
      const int i = mem[k];
      Vec2 gi = -v_.K[i] * panel::gradIm(w[i]);
      for (const NearBlock& nb : nearBodies_[g - g0_]) {
        const int o = layout_.offset[nb.Q];
        for (int q = 0; q < layout_.bodySize(nb.Q); ++q)
          vortexbody::addStreamGradient(nb.dO(static_cast<Eigen::Index>(k), q), z_[i], lie::toComplex(poses_[nb.Q].y),
                                        v_.K[i] * sbar[o + q], gi, grad.data() + 3 * nb.Q);
      }
      grad.segment<2>(3 * n_ + 2 * i) += gi;
    }
  }
}

void VortexTerms::addImageGradient(const Eigen::VectorXd& lambda, Eigen::VectorXd& grad) const {
  // lambda^T b_I = Re c . L with c = i/(2 pi) times the bodies' normal contractions of lambda and L the free
  // vortices' locals: the bodies as rigid targets (FB-59), the vortices as point sources (FB-61), near pairs exact.
  Eigen::MatrixXcd c = Eigen::MatrixXcd::Zero(p_ + 1, tree_.leafCount());
  moments_.contract(true, lambda, c);
  applyRotations(c, poses_, b0_, b1_);
  c *= kI * kInvTwoPi;
  for (int P = b0_; P < b1_; ++P)
    grad.segment<3>(3 * P) += ClusterTree::targetGradient(c.col(P), freeLocals_.col(P), disc_.body(P).radius);
  const Eigen::MatrixXcd e = transpose(fromVortices_, c);
  std::vector<Complex> D(z_.size(), Complex(0.0, 0.0));
  for (int g = g0_; g < g1_; ++g) groups_->addSourceDerivative(g, e.col(leafOf(g)), K_, D);
  for (int g = g0_; g < g1_; ++g)
    for (int i : groups_->members(g)) grad.segment<2>(3 * n_ + 2 * i) += Vec2(D[i].real(), -D[i].imag());
  for (int P = b0_; P < b1_; ++P) {
    const Complex cP = lie::toComplex(poses_[P].y);
    for (int h : nearGroups_[P - b0_])
      for (int i : groups_->members(h)) {
        Vec2 gi = Vec2::Zero();
        for (int p = layout_.offset[P]; p < layout_.offset[P + 1]; ++p)
          vortexbody::addImageGradient(nodes_[p], normals_[p], cP, z_[i], v_.K[i], lambda[p], gi, grad.data() + 3 * P);
        grad.segment<2>(3 * n_ + 2 * i) += gi;
      }
  }
}

void VortexTerms::addGradient(const Eigen::VectorXd& sbar, const Eigen::VectorXd& lambda, Eigen::VectorXd& grad) const {
  addStreamGradient(sbar, grad);
  addImageGradient(lambda, grad);
  // (FB-55): d W_vv / d gamma_i = K_i / (2 pi) (Re Phi', -Im Phi'), owned vortices.
  for (int g = g0_; g < g1_; ++g)
    for (int i : groups_->members(g))
      grad.segment<2>(3 * n_ + 2 * i) += v_.K[i] / kTwoPi * Vec2(dPhi_[i].real(), -dPhi_[i].imag());
}

long VortexTerms::nearVortexNodes() const {
  long s = 0;
  for (const auto& l : nearBodies_)
    for (const NearBlock& nb : l) s += static_cast<long>(nb.psi.size());
  return s;
}

}  // namespace kirchhoff::fluid
