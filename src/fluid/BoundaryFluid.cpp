// BoundaryFluid: densities sigma_B (3n rigid-motion problems) and sigma_I, then A(g), M_C, W_G and the
// exact adjoint gradient of F (docs/fluidbody.md (FB-20)-(FB-22)) for any discretization.
//
// Discrete functional. With M the augmented collocation matrix, S the node potentials, W = diag(w),
// G_iq = psi_q(gamma_i), beta = B Xi (rigid data, constant in the body frames):
//   sigma_X = M^-1 beta,  sigma_I = M^-1 b_I,  b_I,p = -<u_gamma(x_p), n_p>,
//   F = rho ( -1/2 beta^T W S sigma_X + 1/2 K^T G sigma_I + K^T G sigma_X + W_vv ).
// Adjoint (docs/fluidbody.md (FB-22), dF = df - lambda^T (dM sigma - db)):
//   M^T lambda_X = -1/2 S^T W beta + G^T K,   M^T lambda_I = 1/2 G^T K,
// Several bodies ((FB-22a)): four solves per evaluation, whatever n: sigma_X, sigma_I and
//   t_1 = M^-T S^T W beta, t_K = M^-T G^T K, so that lambda_X = -t_1/2 + t_K, lambda_I = t_K/2,
//   M_C = rho B^T t_K and A Xi = rho/2 (-B^T W S sigma_X - B^T t_1) (A symmetrized); the full A(g)
//   (3n solves) only when asked for.
//   dF/dq = rho ( df/dq|_sigma - lambda_X^T dM sigma_X - lambda_I^T (dM sigma_I - db_I) ).
// Every entry depends on relative positions only, so body derivatives follow from the z-derivatives
// by translation and rotation invariance; the identities sum_j dF/dy_j + sum_i dF/dgamma_i = 0 etc.
// then hold to round-off.
#include "fluid/BoundaryFluid.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/Error.hpp"
#include "core/LogEvents.hpp"
#include "core/Mpi.hpp"
#include "fluid/discretization/MixedDiscretization.hpp"
#include "fluid/discretization/PanelKernel.hpp"
#include "fluid/discretization/VortexBodyKernels.hpp"

namespace kirchhoff::fluid {


namespace {

std::vector<int> bodySizes(const Discretization& d) {
  std::vector<int> s;
  for (int j = 0; j < d.bodyCount(); ++j) s.push_back(d.body(j).size());
  return s;
}
}  // namespace

BoundaryFluid::BoundaryFluid(MPI_Comm comm, std::vector<Polygon> outlines, std::unique_ptr<Discretization> disc,
                             double fluidDensity, const SolverOptions& options, const std::string& prefix)
    : comm_(comm), outlines_(std::move(outlines)), rho_(fluidDensity), options_(options), prefix_(prefix) {
  if (!(rho_ > 0.0) || !std::isfinite(rho_))
    throw ConfigurationError("fluid density must be positive, got " + std::to_string(rho_));
  MPI_Comm_size(comm_, &ranks_);
  MPI_Comm_rank(comm_, &rank_);
  install(std::shared_ptr<const Discretization>(std::move(disc)));
}

void BoundaryFluid::retireSystems() {
  if (kirchhoff_) {
    retired_.kirchhoffIterations += kirchhoff_->totalIterations();
    retired_.kirchhoffApplications += kirchhoff_->operatorApplications();
  }
  if (system_) {
    retired_.iterations += system_->totalIterations();
    retired_.solves += system_->totalSolves();
    retired_.applications += system_->operatorApplications();
  }
  kirchhoff_.reset();
  system_.reset();
}

void BoundaryFluid::install(std::shared_ptr<const Discretization> disc) {
  // Everything that depends on the discretization, from scratch (construction and refineFor).
  disc_ = std::move(disc);
  const SolverOptions& options = options_;
  const std::string& prefix = prefix_;
  const int n = bodyCount();
  if (disc_->bodyCount() != n)
    throw ConfigurationError("fluid: " + std::to_string(disc_->bodyCount()) + " discretized bodies for " +
                             std::to_string(n) + " outlines");
  layout_ = NodeLayout(bodySizes(*disc_));
  retireSystems();  // (FB-91) the bordered system holds the boundary system and the self-blocks: rebuilt at its next use
  cluster_.reset();
  vortexTerms_.reset();
  multipoleTol_ = 0.0;  // no relaxation (FB-93) unless the matrix-free path below sets it
  Srows_.resize(0, 0);
  LBS_.resize(0, 0);
  assembledPoses_.clear();
  rigidValid_ = false;
  rigidConstant_ = false;
  motion_ = Motion{};
  solvedColumns_ = 0;
  const int N = layout_.nodes;
  weight_.resize(N);
  rigid_.resize(N, 3);
  for (int j = 0; j < n; ++j) {
    const BodyNodes& b = disc_->body(j);
    for (int k = 0; k < b.size(); ++k) {
      const int p = layout_.offset[j] + k;
      weight_[p] = b.weight[k];
      rigid_(p, 0) = lie::cross(b.x[k], b.normal[k]);
      rigid_(p, 1) = b.normal[k].x();
      rigid_(p, 2) = b.normal[k].y();
    }
  }
  momentum_ = Eigen::VectorXd::Zero(3 * n);
  sigmaI_ = Eigen::VectorXd::Zero(N);
  mu_ = Eigen::VectorXd::Zero(n);
  placeNodes(std::vector<lie::Pose>(n));
  if (n == 0) return;
  const std::vector<Eigen::MatrixXd> augmented = augmentedSelfBlocks();
  // auto: fast from kFastOperatorMinBodies bodies unless a direct solve is asked for (matrix-free: KSP only).
  const bool fast = n > 1 && (options.op == PanelOperator::Fast ||
                              (options.op == PanelOperator::Auto && n >= kFastOperatorMinBodies &&
                               options.solver != PanelSolver::Direct));
  InterBodyApply apply;
  if (fast) {
    const auto [b0, b1] = balancedBodies(layout_, ranks_, rank_);
    const int order = options.multipoleOrder > 0 ? options.multipoleOrder
                                                       : multipoleOrder(options.multipoleEta, options.multipoleTol);
    cluster_ = std::make_unique<BodyClusterOperator>(comm_, *disc_, layout_, b0, b1, order, options.multipoleEta);
    vortexTerms_ = std::make_unique<VortexTerms>(comm_, *disc_, layout_, cluster_->moments(), b0, b1, order,
                                                 options.multipoleEta, options.vortexLeafSize);
    apply.bodyBegin = b0;
    apply.bodyEnd = b1;
    multipoleEta_ = options.multipoleEta;
    multipoleTol_ = options.multipoleOrder > 0 ? 0.0 : options.multipoleTol;  // a fixed order is never relaxed
    apply.apply = [this](const Eigen::VectorXd& x, Eigen::VectorXd& y, bool transpose, double tol) {
      const int order = relaxedOrder(tol);
      if (order > 0) ++relaxed_;
      if (transpose)
        cluster_->applyTranspose(BodyClusterOperator::Kind::Normal, x, y, order);
      else
        cluster_->apply(BodyClusterOperator::Kind::Normal, x, y, order);
    };
  }
  system_ = std::make_unique<BoundarySystem>(comm_, layout_, augmented, options.solver, options.directMax,
                                             prefix, options.factorization, apply);
  system_->setWarmStart(options.warmStart);
  relaxUnlessRefined();
  const int p0 = system_->panelBegin(), p1 = system_->panelEnd();
  if (fast) return;  // no rows of S: self-blocks from the discretization, the rest from the operator
  Srows_ = RowMatrix::Zero(p1 - p0, N);
  for (int p = p0; p < p1; ++p) {
    const int j = layout_.body[p], o = layout_.offset[j];
    Srows_.row(p - p0).segment(o, layout_.bodySize(j)) = disc_->selfPotential(j).row(p - o);
  }
  rigidConstant_ = n == 1;
  if (n == 1) {  // one body: A and sigma_B are constant in its frame
    assembleRigidPotential();
    solveDensities(true, false);
  }
}

BoundaryFluid::~BoundaryFluid() = default;

Eigen::MatrixXd BoundaryFluid::augmentedSelfBlock(int j) const {
  const int nj = layout_.bodySize(j);
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(nj + 1, nj + 1);
  A.topLeftCorner(nj, nj) = disc_->selfNormal(j);
  A.col(nj).head(nj).setOnes();
  for (int q = 0; q < nj; ++q) A(nj, q) = weight_[layout_.offset[j] + q];
  return A;
}

std::vector<Eigen::MatrixXd> BoundaryFluid::augmentedSelfBlocks() const {
  std::vector<Eigen::MatrixXd> augmented;
  for (int j = 0; j < bodyCount(); ++j) augmented.push_back(augmentedSelfBlock(j));
  return augmented;
}

void BoundaryFluid::setPairBlocks() {
  if (system_->direct()) return;
  std::vector<double> radii;
  std::vector<int> unknowns;
  for (int j = 0; j < bodyCount(); ++j) {
    radii.push_back(disc_->body(j).radius);
    unknowns.push_back(layout_.bodySize(j) + 1);
  }
  system_->setPairBlocks(closePairs(poses_, radii, unknowns), [this](const BodyPair& p) {
    const int a = layout_.bodySize(p.j) + 1, b = layout_.bodySize(p.k) + 1;
    Eigen::MatrixXd block = Eigen::MatrixXd::Zero(a + b, a + b);
    block.topLeftCorner(a, a) = augmentedSelfBlock(p.j);
    block.bottomRightCorner(b, b) = augmentedSelfBlock(p.k);
    // M_jk and M_kj: the operator's own near blocks where this rank holds them (FB-42), else assembled here.
    const auto coupling = [&](int P, int Q, auto&& target) {
      const Eigen::MatrixXd* near = cluster_ ? cluster_->nearBlock(BodyClusterOperator::Kind::Normal, P, Q) : nullptr;
      if (near) {
        target = *near;
        return;
      }
      const int nP = layout_.bodySize(P), nQ = layout_.bodySize(Q);
      RowMatrix M(nP, nQ);
      disc_->interaction(P, poses_[P], 0, nP, Q, poses_[Q], M.data(), nQ, nullptr, 0);
      target = M;
    };
    coupling(p.j, p.k, block.block(0, a, a - 1, b - 1));
    coupling(p.k, p.j, block.block(a, 0, b - 1, a - 1));
    return block;
  });
}

void BoundaryFluid::placeNodes(const std::vector<lie::Pose>& poses) {
  const int n = bodyCount(), N = layout_.nodes;
  poses_ = poses;
  m_.resize(N);
  nu_.resize(N);
  centre_.resize(n);
  for (int j = 0; j < n; ++j) {
    const lie::Mat2 R = lie::rotation(poses[j].theta);
    const BodyNodes& b = disc_->body(j);
    centre_[j] = lie::toComplex(poses[j].y);
    for (int k = 0; k < b.size(); ++k) {
      const int p = layout_.offset[j] + k;
      m_[p] = lie::toComplex(R * b.x[k] + poses[j].y);
      nu_[p] = lie::toComplex(R * b.normal[k]);
    }
  }
}

void BoundaryFluid::ownedRows(int j, int& first, int& count) const {
  const int o = layout_.offset[j];
  const int a = std::max(o, system_->panelBegin()), b = std::min(layout_.offset[j + 1], system_->panelEnd());
  first = a - o;
  count = std::max(0, b - a);
}

void BoundaryFluid::assembleInterBody() {
  if (cluster_) {  // matrix-free: the near blocks only (FB-42)
    cluster_->setPoses(poses_);
    return;
  }
  // Owned node rows of body P against the nodes of every other body Q: M_PQ into the system rows,
  // S_PQ into Srows_.
  RowMatrix& rows = system_->rows();
  const int r0 = system_->rowBegin(), p0 = system_->panelBegin();
  const int ldM = static_cast<int>(rows.cols()), ldS = static_cast<int>(Srows_.cols());
  for (int P = 0; P < bodyCount(); ++P) {
    int first = 0, count = 0;
    ownedRows(P, first, count);
    if (count == 0) continue;
    const int p = layout_.offset[P] + first;
    for (int Q = 0; Q < bodyCount(); ++Q) {
      if (Q == P) continue;
      const int q0 = layout_.offset[Q];
      disc_->interaction(P, poses_[P], first, count, Q, poses_[Q],
                         &rows(system_->panelIndex(p) - r0, system_->panelIndex(q0)), ldM,
                         &Srows_(p - p0, q0), ldS);
    }
  }
}

void BoundaryFluid::assembleVortexTerms() {
  if (vortexTerms_) {  // matrix-free: the tree over bodies and vortex groups, no G, dG (FB-61), (FB-62)
    vortexTerms_->update(poses_, vortices_, m_, nu_);
    return;
  }
  // G_iq = psi_q(gamma_i) and dOmega_q/dz at gamma_i for the owned nodes, then summed over ranks
  // (each entry comes from exactly one rank, so the sum is exact).
  const int m = vortices_.size(), N = layout_.nodes;
  G_ = Eigen::MatrixXd::Zero(m, N);
  dG_ = Eigen::MatrixXcd::Zero(m, N);
  if (m == 0 || N == 0) return;
  std::vector<double> psi;
  std::vector<Complex> dO;
  for (int Q = 0; Q < bodyCount(); ++Q) {
    int first = 0, count = 0;
    ownedRows(Q, first, count);
    if (count == 0) continue;
    psi.resize(count);
    dO.resize(count);
    const int q0 = layout_.offset[Q] + first;
    for (int i = 0; i < m; ++i) {
      disc_->pointField(Q, poses_[Q], lie::toComplex(vortices_.gamma[i]), first, count, psi.data(), dO.data());
      for (int k = 0; k < count; ++k) {
        G_(i, q0 + k) = psi[k];
        dG_(i, q0 + k) = dO[k];
      }
    }
  }
  if (ranks_ > 1) {
    sumOverRanks(comm_, G_.data(), static_cast<std::size_t>(G_.size()));
    sumOverRanks(comm_, reinterpret_cast<double*>(dG_.data()), 2 * static_cast<std::size_t>(dG_.size()));
  }
}

void BoundaryFluid::imageData() {
  // b_I,p = -<u_gamma(x_p), n_p> = -Re(conj(u_gamma) nu_p), conj(u_gamma)(z) = -i sum K_i / (2 pi (z - gamma_i)).
  const int N = layout_.nodes, m = vortices_.size();
  if (vortexTerms_) {
    bI_ = vortexTerms_->imageData();
    return;
  }
  bI_.resize(N);
  if (m >= kVortexFmmMin) {  // the FMM ((FB-55)): V = u - i v at every node
    const std::vector<Complex> V = vortexField(vortices_, m_);
    for (int p = 0; p < N; ++p) bI_[p] = -(V[p] * nu_[p]).real();
    return;
  }
  for (int p = 0; p < N; ++p) {
    Complex sum(0.0, 0.0);  // sum K_i / (z - gamma_i)
    for (int i = 0; i < m; ++i) sum += vortexbody::inverseDistance(m_[p], vortices_.gamma[i], vortices_.K[i]);
    bI_[p] = vortexbody::imageData(sum, nu_[p]);
  }
}

Eigen::MatrixXd BoundaryFluid::rightHandSides(bool rigid, bool image) const {
  // Augmented right-hand sides: rigid data of each body dof (3n columns), then b_I (one column).
  const int n = bodyCount(), N = layout_.nodes, c = rigid ? 3 * n : 0;
  Eigen::MatrixXd R = Eigen::MatrixXd::Zero(system_->size(), c + (image ? 1 : 0));
  for (int p = 0; p < N; ++p) {
    const int r = system_->panelIndex(p);
    if (rigid)
      for (int k = 0; k < 3; ++k) R(r, 3 * layout_.body[p] + k) = rigid_(p, k);
    if (image) R(r, c) = bI_[p];
  }
  return R;
}

int BoundaryFluid::relaxedOrder(double tol) const {
  // (FB-93): the order (FB-44) of relative truncation tol, when that is looser than the operator's own.
  return multipoleTol_ > 0.0 && tol > multipoleTol_ ? multipoleOrder(multipoleEta_, std::min(tol, 0.1)) : 0;
}

Eigen::VectorXd BoundaryFluid::rigidPotential(const Eigen::VectorXd& s, double tol) const {
  // (S s)_p on the owned rows (self-block of the body plus the operator), weighted by w_p B_p.
  const int n = bodyCount();
  Eigen::VectorXd Ss = Eigen::VectorXd::Zero(layout_.nodes);
  const int order = relaxedOrder(tol);
  if (order > 0) ++relaxed_;
  cluster_->apply(BodyClusterOperator::Kind::Potential, s, Ss, order);
  Eigen::VectorXd out = Eigen::VectorXd::Zero(3 * n);
  for (int j = cluster_->bodyBegin(); j < cluster_->bodyEnd(); ++j) {
    const int o = layout_.offset[j], nj = layout_.bodySize(j);
    Ss.segment(o, nj) += disc_->selfPotential(j) * s.segment(o, nj);
    for (int p = o; p < o + nj; ++p)
      for (int k = 0; k < 3; ++k) out[3 * j + k] += weight_[p] * rigid_(p, k) * Ss[p];
  }
  return out;
}

Eigen::VectorXd BoundaryFluid::potentialTransposeW(const Eigen::VectorXd& beta) const {
  // S^T (W beta): the operator's transpose (complete) plus the owned self-blocks (summed over ranks).
  const Eigen::VectorXd wb = beta.cwiseProduct(Eigen::Map<const Eigen::VectorXd>(weight_.data(), layout_.nodes));
  Eigen::VectorXd self = Eigen::VectorXd::Zero(layout_.nodes), out;
  for (int j = cluster_->bodyBegin(); j < cluster_->bodyEnd(); ++j) {
    const int o = layout_.offset[j], nj = layout_.bodySize(j);
    self.segment(o, nj) = disc_->selfPotential(j).transpose() * wb.segment(o, nj);
  }
  if (ranks_ > 1) MPI_Allreduce(MPI_IN_PLACE, self.data(), layout_.nodes, MPI_DOUBLE, MPI_SUM, comm_);
  cluster_->applyTranspose(BodyClusterOperator::Kind::Potential, wb, out);
  return out + self;
}

void BoundaryFluid::assembleRigidPotential() {
  if (cluster_) return;  // matrix-free: rigidPotential / potentialTransposeW instead of L
  // L = B^T W S over the owned rows (3n x N, per pose): A = -L Sigma_B, and S^T W beta = L^T Xi. B has
  // three entries per row, so this costs 3 N^2 (instead of the 2 N^2 3n of S Sigma_B first).
  const int n = bodyCount(), N = layout_.nodes;
  const int p0 = system_->panelBegin(), p1 = system_->panelEnd();
  LBS_ = Eigen::MatrixXd::Zero(3 * n, N);
  for (int p = p0; p < p1; ++p) {
    const int j = layout_.body[p];
    for (int k = 0; k < 3; ++k) LBS_.row(3 * j + k) += (weight_[p] * rigid_(p, k)) * Srows_.row(p - p0);
  }
}

void BoundaryFluid::solveDensities(bool rigid, bool image) const {
  // One solve with all right-hand sides: sigma_B (3n columns) and/or sigma_I.
  const int n = bodyCount(), N = layout_.nodes;
  const Slot slot = rigid ? (image ? Slot::RigidAndImage : Slot::Rigid) : Slot::Image;
  const Eigen::MatrixXd X = system_->solve(rightHandSides(rigid, image), false, static_cast<int>(slot));
  solvedColumns_ += X.cols();
  if (image) {
    const int c = rigid ? 3 * n : 0;
    for (int p = 0; p < N; ++p) sigmaI_[p] = X(system_->panelIndex(p), c);
    for (int j = 0; j < n; ++j) mu_[j] = X(system_->constraintIndex(j), c);
  }
  if (!rigid) return;
  sigmaB_.resize(N, 3 * n);
  for (int p = 0; p < N; ++p) sigmaB_.row(p) = X.row(system_->panelIndex(p)).head(3 * n);
  Eigen::MatrixXd A(3 * n, 3 * n);
  if (cluster_)
    for (int c = 0; c < 3 * n; ++c) A.col(c) = -rigidPotential(sigmaB_.col(c));
  else
    A = -LBS_ * sigmaB_;
  sumOverRanks(comm_, A.data(), static_cast<std::size_t>(A.size()));
  addedMass_ = rho_ * 0.5 * (A + A.transpose());
  asymmetry_ = (A - A.transpose()).cwiseAbs().maxCoeff() / std::max(A.cwiseAbs().maxCoeff(), 1e-300);
  rigidValid_ = true;
}

Eigen::MatrixXd BoundaryFluid::addedMass() const {
  if (bodyCount() > 0 && !rigidValid_) solveDensities(true, false);
  return addedMass_;
}

const Eigen::MatrixXd& BoundaryFluid::densities() const {
  // Formed on request only (tools and tests): N x (3n + 1) is O(N n), the evaluation path needs none of it.
  if (bodyCount() > 0 && !rigidValid_) solveDensities(true, false);
  densities_.resize(layout_.nodes, 3 * bodyCount() + 1);
  densities_ << sigmaB_, sigmaI_;
  return densities_;
}

Eigen::VectorXd BoundaryFluid::rigidData(const Eigen::VectorXd& Xi) const {
  Eigen::VectorXd beta(layout_.nodes);
  for (int p = 0; p < layout_.nodes; ++p) beta[p] = rigid_.row(p).dot(Xi.segment<3>(3 * layout_.body[p]));
  return beta;
}

Eigen::VectorXd BoundaryFluid::rigidDataTranspose(const Eigen::VectorXd& v) const {
  Eigen::VectorXd out = Eigen::VectorXd::Zero(3 * bodyCount());
  for (int p = 0; p < layout_.nodes; ++p) out.segment<3>(3 * layout_.body[p]) += v[p] * rigid_.row(p).transpose();
  return out;
}

Eigen::VectorXd BoundaryFluid::solveOne(const Eigen::VectorXd& panelValues, bool transpose, Slot slot) const {
  // One right-hand side on the panel rows (zero on the constraint rows); the panel rows of the result.
  const int N = layout_.nodes;
  Eigen::MatrixXd R = Eigen::MatrixXd::Zero(system_->size(), 1);
  for (int p = 0; p < N; ++p) R(system_->panelIndex(p), 0) = panelValues[p];
  const Eigen::MatrixXd X = system_->solve(R, transpose, static_cast<int>(slot));
  ++solvedColumns_;
  Eigen::VectorXd x(N);
  for (int p = 0; p < N; ++p) x[p] = X(system_->panelIndex(p), 0);
  return x;
}

void BoundaryFluid::solveVortexAdjoint() {
  // t_K = M^-T G^T K and M_C = rho B^T t_K (= rho K^T G Sigma_B by transposition), several bodies.
  const int n = bodyCount(), m = vortices_.size(), N = layout_.nodes;
  tK_ = Eigen::VectorXd::Zero(N);
  momentum_ = Eigen::VectorXd::Zero(3 * n);
  if (m == 0) return;
  tK_ = solveOne(vortexAdjointData(), true, Slot::VortexAdjoint);
  momentum_ = rho_ * rigidDataTranspose(tK_);
}

void BoundaryFluid::solveMotion(const Eigen::VectorXd& Xi) const {
  // sigma_X = M^-1 B Xi, t_1 = M^-T (S^T W B Xi), A Xi = rho/2 (A_raw Xi + A_raw^T Xi) with
  // A_raw = -B^T W S M^-1 B: A_raw Xi = -L sigma_X (owned rows, summed), A_raw^T Xi = -B^T t_1.
  if (motion_.valid && motion_.Xi.size() == Xi.size() && motion_.Xi == Xi) return;
  const int N = layout_.nodes;
  motion_.valid = false;
  motion_.Xi = Xi;
  const Eigen::VectorXd beta = rigidData(Xi);
  motion_.sigX = solveOne(beta, false, Slot::Motion);
  Eigen::VectorXd StLb;
  if (cluster_) {
    StLb = potentialTransposeW(beta);
  } else {
    StLb = LBS_.transpose() * Xi;
    if (ranks_ > 1) MPI_Allreduce(MPI_IN_PLACE, StLb.data(), N, MPI_DOUBLE, MPI_SUM, comm_);
  }
  motion_.t1 = solveOne(StLb, true, Slot::MotionAdjoint);
  Eigen::VectorXd a = cluster_ ? Eigen::VectorXd(-rigidPotential(motion_.sigX)) : Eigen::VectorXd(-LBS_ * motion_.sigX);
  sumOverRanks(comm_, a.data(), static_cast<std::size_t>(a.size()));
  motion_.AXi = rho_ * 0.5 * (a - rigidDataTranspose(motion_.t1));
  motion_.valid = true;
}

Eigen::VectorXd BoundaryFluid::addedMassAction(const Eigen::VectorXd& Xi) {
  if (bodyCount() == 0) return Eigen::VectorXd(0);
  if (rigidConstant_) return addedMass_ * Xi;
  solveMotion(Xi);
  return motion_.AXi;
}

bool BoundaryFluid::samePoses(const std::vector<lie::Pose>& poses) const {
  if (poses.empty() || poses.size() != assembledPoses_.size()) return false;
  for (std::size_t j = 0; j < poses.size(); ++j)
    if (!(poses[j].theta == assembledPoses_[j].theta && poses[j].y == assembledPoses_[j].y)) return false;
  return true;
}

void BoundaryFluid::setConfiguration(const std::vector<lie::Pose>& poses, const Vortices& vortices) {
  const int n = bodyCount(), m = vortices.size();
  if (static_cast<int>(vortices.K.size()) != m)
    throw ConfigurationError("vortices: " + std::to_string(m) + " positions but " +
                             std::to_string(vortices.K.size()) + " circulations");
  if (static_cast<int>(poses.size()) != n)
    throw ConfigurationError("fluid: " + std::to_string(poses.size()) + " poses for " + std::to_string(n) +
                             " bodies");
  // Several bodies: the inter-body blocks, their factorization and sigma_B depend on the poses only,
  // so a call with bitwise the same poses (finite-difference columns of vortex coordinates) keeps them.
  const bool moved = n > 1 && !samePoses(poses);
  placeNodes(poses);
  vortices_ = vortices;
  // Vortex-vortex part of W_G: this rank's share (direct pair rows or the FMM, fluid/fast/VortexPairSums), or the
  // tree's (fluid/fast/VortexTerms, below).
  double wvv = 0.0;
  if (!vortexTerms_) {
    pairs_.update(vortices_, rank_, ranks_);
    wvv = pairs_.routhShare();
    if (ranks_ > 1) MPI_Allreduce(MPI_IN_PLACE, &wvv, 1, MPI_DOUBLE, MPI_SUM, comm_);
  }
  if (n == 0) {
    routh_ = rho_ * wvv;
    return;
  }
  double t0 = MPI_Wtime();
  {
    ScopedEvent ev(Phase::PanelAssembly);
    if (moved) {
      assembledPoses_.clear();  // none valid until the new factorization is in place
      assembleInterBody();
    }
    assembleVortexTerms();
    imageData();
  }
  if (vortexTerms_) wvv = vortexTerms_->routh();
  double t1 = MPI_Wtime();
  if (moved) {
    system_->update();
    setPairBlocks();
    assembleRigidPotential();
    assembledPoses_ = poses;
    rigidValid_ = false;
    motion_.valid = false;
  }
  solvedColumns_ = 0;
  solveDensities(false, true);
  if (!rigidConstant_) solveVortexAdjoint();
  timings_.assembly = t1 - t0;
  timings_.solve = MPI_Wtime() - t1;
  if (m > 0) {
    const Eigen::VectorXd KG = vortexAdjointData();  // G^T K
    if (rigidConstant_) momentum_ = rho_ * (KG.transpose() * sigmaB_).transpose();
    routh_ = rho_ * (0.5 * KG.dot(sigmaI_) + wvv);
  } else {
    momentum_.setZero();
    routh_ = rho_ * wvv;
  }
}

double BoundaryFluid::lagrangianValue(const Eigen::VectorXd& Xi) {
  if (bodyCount() == 0) return routh_;
  if (rigidConstant_) return 0.5 * Xi.dot(addedMass_ * Xi) + routh_ + momentum_.dot(Xi);
  solveMotion(Xi);
  return 0.5 * Xi.dot(motion_.AXi) + routh_ + momentum_.dot(Xi);
}

void BoundaryFluid::addPairGradient(const Eigen::VectorXd& lamX, const Eigen::VectorXd& lamI,
                                    const Eigen::VectorXd& sigX, const Eigen::VectorXd& sigI,
                                    const Eigen::VectorXd& beta, Eigen::VectorXd& grad) const {
  // Weights of the inter-body entries: -(lamX_p sigX_q + lamI_p sigI_q) on dM_pq, -1/2 beta_p w_p sigX_q
  // on dS_pq. The discretization gives body P's (target) derivatives; body Q's follow by invariance.
  const Eigen::VectorXd uX = -lamX, uI = -lamI;
  const Eigen::VectorXd uS = -0.5 * beta.cwiseProduct(Eigen::Map<const Eigen::VectorXd>(weight_.data(), layout_.nodes));
  for (int P = 0; P < bodyCount(); ++P) {
    int first = 0, count = 0;
    ownedRows(P, first, count);
    if (count == 0) continue;
    const int p = layout_.offset[P] + first;
    for (int Q = 0; Q < bodyCount(); ++Q) {
      if (Q == P || (cluster_ && !cluster_->isNear(P, Q))) continue;
      const int q0 = layout_.offset[Q];
      PairWeights w;
      w.normal = {{uX.data() + p, sigX.data() + q0}, {uI.data() + p, sigI.data() + q0}};
      w.potential = {{uS.data() + p, sigX.data() + q0}};
      const Eigen::Vector3d g = disc_->interactionGradient(P, poses_[P], first, count, Q, poses_[Q], w);
      const Vec2 cy = g.tail<2>();
      const Vec2 armPQ = lie::Jrot(poses_[P].y - poses_[Q].y);
      grad[3 * P] += g[0];
      grad.segment<2>(3 * P + 1) += cy;
      grad[3 * Q] -= g[0] + cy.dot(armPQ);
      grad.segment<2>(3 * Q + 1) -= cy;
    }
  }
  // Far pairs of the matrix-free path: analytic derivatives of the M2L pipeline (FB-45).
  if (cluster_) cluster_->addFarGradient({{&uX, &sigX}, {&uI, &sigI}}, {{&uS, &sigX}}, grad);
}

Eigen::VectorXd BoundaryFluid::vortexAdjointData() const {
  const int m = vortices_.size();
  if (vortexTerms_) return vortexTerms_->adjointData();
  if (m == 0) return Eigen::VectorXd::Zero(layout_.nodes);
  return G_.transpose() * Eigen::Map<const Eigen::VectorXd>(vortices_.K.data(), m);
}

void BoundaryFluid::addVortexGradient(const Eigen::VectorXd& sbar, const Eigen::VectorXd& lamI,
                                      Eigen::VectorXd& grad) const {
  // Dense path, the owned node rows: d/dq of K^T G sbar (psi_q(gamma_i), node q on body Q) and of lamI^T b_I
  // (b_I,p = -Re(V(x_p) nu_p), V = -i sum K / (2 pi (z - gamma))).
  const int n = bodyCount(), m = vortices_.size(), p0 = system_->panelBegin(), p1 = system_->panelEnd();
  for (int i = 0; i < m; ++i) {
    const double K = vortices_.K[i];
    const Complex g = lie::toComplex(vortices_.gamma[i]);
    Vec2 gi = Vec2::Zero();
    for (int q = p0; q < p1; ++q) {
      const int Q = layout_.body[q];
      vortexbody::addStreamGradient(dG_(i, q), g, centre_[Q], K * sbar[q], gi, grad.data() + 3 * Q);
    }
    for (int p = p0; p < p1; ++p) {
      const int P = layout_.body[p];
      vortexbody::addImageGradient(m_[p], nu_[p], centre_[P], g, K, lamI[p], gi, grad.data() + 3 * P);
    }
    grad.segment<2>(3 * n + 2 * i) += gi;
  }
}

Eigen::VectorXd BoundaryFluid::lagrangianGradient(const Eigen::VectorXd& Xi) {
  const int n = bodyCount(), m = vortices_.size(), N = layout_.nodes;
  if (Xi.size() != 3 * n)
    throw ConfigurationError("lagrangianGradient: Xi has " + std::to_string(Xi.size()) +
                             " entries, expected " + std::to_string(3 * n));
  ScopedEvent ev(Phase::PanelGradient);
  const double t0 = MPI_Wtime();
  Eigen::VectorXd grad = Eigen::VectorXd::Zero(3 * n + 2 * m);
  Eigen::Map<Eigen::VectorXd> gv(grad.data() + 3 * n, 2 * m);
  if (!vortexTerms_) gv += pairs_.gradientShare();
  if (n > 0) {
    const Eigen::VectorXd beta = rigidData(Xi);
    const Eigen::VectorXd sigI = sigmaI_;
    Eigen::VectorXd sigX, lamX(N), lamI(N);
    if (rigidConstant_) {
      sigX = sigmaB_ * Xi;
      Eigen::VectorXd GtK = Eigen::VectorXd::Zero(N);
      if (m > 0) GtK = vortexAdjointData();
      // S^T W beta = (B^T W S)^T Xi over the owned rows, summed over ranks.
      Eigen::VectorXd StLb = LBS_.transpose() * Xi;
      if (ranks_ > 1) MPI_Allreduce(MPI_IN_PLACE, StLb.data(), N, MPI_DOUBLE, MPI_SUM, comm_);
      Eigen::MatrixXd R = Eigen::MatrixXd::Zero(system_->size(), 2);
      for (int p = 0; p < N; ++p) {
        const int r = system_->panelIndex(p);
        R(r, 0) = -0.5 * StLb[p] + GtK[p];
        R(r, 1) = 0.5 * GtK[p];
      }
      const Eigen::MatrixXd Lam = system_->solve(R, true, static_cast<int>(Slot::GradientAdjoint));
      solvedColumns_ += 2;
      for (int p = 0; p < N; ++p) {
        lamX[p] = Lam(system_->panelIndex(p), 0);
        lamI[p] = Lam(system_->panelIndex(p), 1);
      }
    } else {  // (FB-22a): the motion solves and t_K of setConfiguration
      solveMotion(Xi);
      sigX = motion_.sigX;
      lamX = -0.5 * motion_.t1 + tK_;
      lamI = 0.5 * tK_;
    }
    if (n > 1) addPairGradient(lamX, lamI, sigX, sigI, beta, grad);
    if (vortexTerms_)
      vortexTerms_->addGradient(sigX + 0.5 * sigI, lamI, grad);
    else
      addVortexGradient(sigX + 0.5 * sigI, lamI, grad);
  }
  sumOverRanks(comm_, grad.data(), static_cast<std::size_t>(grad.size()));
  timings_.gradient = MPI_Wtime() - t0;
  return rho_ * grad;
}

std::vector<lie::Vec2> BoundaryFluid::vortexVelocities(const Eigen::VectorXd& Xi) const {
  // u(gamma_i) = u_gamma (no self term) + sum_q s_q dOmega_q(gamma_i) with s = sigma_B Xi + sigma_I:
  // the referenced dOmega of the last setConfiguration (s has zero net source on every body).
  const int n = bodyCount(), m = vortices_.size(), N = layout_.nodes;
  std::vector<Vec2> u(m);
  Eigen::VectorXd s = Eigen::VectorXd::Zero(N);
  if (n > 0 && rigidConstant_) s = sigmaB_ * Xi + sigmaI_;
  if (n > 0 && !rigidConstant_) {
    solveMotion(Xi);
    s = motion_.sigX + sigmaI_;
  }
  const std::vector<Complex> w = densityField(s);  // u - i v of the densities
  const std::vector<Vec2> free = vortexTerms_ ? vortexTerms_->freeVelocities() : vortexSelfVelocities(vortices_);
  for (int i = 0; i < m; ++i) u[i] = free[i] + Vec2(w[i].real(), -w[i].imag());
  return u;
}

std::vector<Complex> BoundaryFluid::densityField(const Eigen::VectorXd& s) const {
  if (vortexTerms_) return vortexTerms_->bodyField(s);
  const int m = vortices_.size(), N = layout_.nodes;
  std::vector<Complex> w(m, Complex(0.0, 0.0));
  for (int i = 0; i < m; ++i)
    for (int q = 0; q < N; ++q) w[i] += s[q] * dG_(i, q);
  return w;
}

const KirchhoffSystem& BoundaryFluid::kirchhoffSystem() {
  if (kirchhoff_) return *kirchhoff_;
  // rho B_j^T W_j S_jj per body, and this rank's share of rho B^T W S s (the owned rows, as the added mass (FB-21)).
  std::vector<Eigen::MatrixXd> selfPotential;
  for (int j = 0; j < bodyCount(); ++j) {
    const int o = layout_.offset[j], nj = layout_.bodySize(j);
    Eigen::MatrixXd BW = rigid_.middleRows(o, nj).transpose();
    for (int q = 0; q < nj; ++q) BW.col(q) *= rho_ * weight_[o + q];
    selfPotential.push_back(BW * disc_->selfPotential(j));
  }
  auto share = [this](const Eigen::VectorXd& s, double tol) {
    return Eigen::VectorXd(rho_ * (cluster_ ? rigidPotential(s, tol) : Eigen::VectorXd(LBS_ * s)));
  };
  kirchhoff_ = std::make_unique<KirchhoffSystem>(comm_, *system_, augmentedSelfBlocks(), selfPotential, rigid_, share,
                                                 prefix_);
  return *kirchhoff_;
}

Fluid::KirchhoffSolution BoundaryFluid::kirchhoffSolve(const Eigen::VectorXd& bodyMass, const Eigen::VectorXd& r,
                                                       double rtol) {
  // (FB-90), (FB-91): delta, the densities sigma = M^-1 B delta, then d<M_C, delta>/d gamma_i = rho K_i grad psi_sigma
  // (gamma_i) = -rho K_i gradIm(sum_q sigma_q dOmega_q(gamma_i)) (the gradient (FB-22) of K^T G sigma at fixed sigma).
  const int n = bodyCount(), m = vortices_.size();
  KirchhoffSolution out;
  out.vortexGradient = Eigen::VectorXd::Zero(2 * m);
  if (n == 0) return out;
  if (bodyMass.size() != 3 * n || r.size() != 3 * n)
    throw ConfigurationError("kirchhoffSolve: masses and right-hand side need " + std::to_string(3 * n) + " entries");
  Eigen::VectorXd sigma;
  if (system_->direct() || rigidConstant_) {
    Eigen::MatrixXd K = addedMass();  // 3n solves with the LU (kept for the configuration)
    K.diagonal() += bodyMass;
    out.delta = K.llt().solve(r);
    sigma = sigmaB_ * out.delta;
  } else {
    const KirchhoffSystem::Solution s = kirchhoffSystem().solve(bodyMass, r, rtol);
    ++kirchhoffSolves_;
    out.delta = s.delta;
    sigma = s.sigma;
    // (FB-94): a Newton step by delta moves Xi by about delta, so sigma_X = M^-1 B Xi by about sigma.
    const Eigen::VectorXd beta = rigidData(s.delta);
    Eigen::VectorXd db = Eigen::VectorXd::Zero(system_->size());
    for (int p = 0; p < layout_.nodes; ++p) db[system_->panelIndex(p)] = beta[p];
    system_->offerIncrement(static_cast<int>(Slot::Motion), db, s.augmented);
  }
  if (m == 0) return out;
  const std::vector<Complex> w = densityField(sigma);
  for (int i = 0; i < m; ++i) out.vortexGradient.segment<2>(2 * i) = -rho_ * vortices_.K[i] * panel::gradIm(w[i]);
  return out;
}

void BoundaryFluid::enableRefinement(std::vector<RefinableShape> shapes, const GaussPanelOptions& panels,
                                     double tolerance) {
  auto base = std::dynamic_pointer_cast<const PointSourceDiscretization>(disc_);
  if (!base)
    throw ConfigurationError("fluid.tolerance: the " + disc_->name() +
                             " discretization cannot be refined toward close neighbours (use nystrom or gauss_panels)");
  refinement_ = std::make_unique<GapRefinement>(std::move(base), std::move(shapes), panels, tolerance);
  plan_ = RefinementPlan(static_cast<std::size_t>(bodyCount()));
  sharpening_.assign(static_cast<std::size_t>(bodyCount()), 0);
}

bool BoundaryFluid::refineFor(const std::vector<lie::Pose>& poses, const Vortices& vortices, double margin) {
  // (FB-64)-(FB-66a): the plan is a function of the arguments and the sharpening start alone, so is the
  // discretization built from it. Each refined body whose estimate exceeds the tolerance is sharpened (its refined
  // panels halved), up to kMaxSharpening times, from the start (none, or the previous step's, (FB-66a)).
  if (!refinement_) return false;
  const int n = bodyCount();
  const RefinementPlan before = plan_;
  const std::vector<int> sharpenedBefore = sharpening_;
  std::vector<int> s(static_cast<std::size_t>(n), 0);
  if (sharpeningStart_.size() == s.size())
    for (int j = 0; j < n; ++j) s[j] = std::clamp(sharpeningStart_[j], 0, GapRefinement::kMaxSharpening);
  Resolution res;
  int worst = -1;  // a body still above the tolerance at the last sharpening
  for (bool first = true;; first = false) {
    RefinementPlan plan = refinement_->plan(poses, vortices, margin, res, s);
    if (first) {  // a body not refined here starts unsharpened (its next refinement starts from none)
      bool dropped = false;
      for (int j = 0; j < n; ++j)
        if (plan[j].empty() && s[j] != 0) s[j] = 0, dropped = true;
      if (dropped) plan = refinement_->plan(poses, vortices, margin, res, s);
    }
    if (plan != plan_ || s != sharpening_) {
      plan_ = plan;  // before install: the new system's relaxation follows it (FB-93b)
      sharpening_ = s;
      install(refinement_->build(plan, s));
    }
    res.unknowns = layout_.nodes + bodyCount();
    const std::vector<double> E = res.refinedBodies > 0 ? estimateErrors(poses, vortices)
                                                        : std::vector<double>(static_cast<std::size_t>(n), 0.0);
    res.errorEstimate = E.empty() ? 0.0 : *std::max_element(E.begin(), E.end());
    bool sharpened = false;
    for (int j = 0; j < n; ++j) {
      if (!(E[j] > res.tolerance)) continue;
      if (s[j] == GapRefinement::kMaxSharpening) worst = j;
      else ++s[j], sharpened = true;
    }
    if (!sharpened || worst >= 0) break;
  }
  const bool changed = plan_ != before || sharpening_ != sharpenedBefore;
  resolution_ = res;
  if (res.errorEstimate > res.tolerance) {
    std::ostringstream os;
    os << "the fluid is not resolved to fluid.tolerance = " << res.tolerance << " (estimate "
       << res.errorEstimate;
    if (worst >= 0) os << " on body " << worst << " with its refined panels halved " << sharpening_[worst] << " times";
    os << ")";
    if (res.gapBodies[0] >= 0) os << "; closest bodies " << res.gapBodies[0] << " and " << res.gapBodies[1] << ", gap " << res.minGap;
    if (res.vortexBody[0] >= 0)
      os << "; closest vortex " << res.vortexBody[0] << " at " << res.minVortexDistance << " from body "
         << res.vortexBody[1];
    throw NumericalError(os.str());
  }
  return changed;
}

void BoundaryFluid::relaxUnlessRefined() {
  // (FB-93b): a relaxed product's error reaches the solution amplified by |A^-1|, which grows as a gap closes;
  // while any body is refined toward a close neighbour (FB-64) every product is at the operator's full accuracy.
  const bool refined = std::any_of(plan_.begin(), plan_.end(), [](const auto& p) { return !p.empty(); });
  system_->setRelaxation(options_.relaxation && !refined);
}

std::vector<double> BoundaryFluid::estimateErrors(const std::vector<lie::Pose>& poses, const Vortices& vortices) {
  // (FB-66): on every graded body, sum_P l_P |Legendre tail| of each density that carries A(g) and the
  // vortex velocities (the rigid densities of the refined bodies, the image density), relative to
  // max |sigma| times the perimeter. Solved at (poses, vortices); the solves leave no guess behind.
  ScopedEvent ev(Phase::FluidEstimate);
  ++estimates_;
  setConfiguration(poses, vortices);
  const auto* mixed = dynamic_cast<const MixedDiscretization*>(disc_.get());
  std::vector<double> est(static_cast<std::size_t>(bodyCount()), 0.0);
  if (!mixed) return est;
  const int n = bodyCount(), N = layout_.nodes;
  std::vector<int> refined;
  for (int j = 0; j < n; ++j)
    if (!plan_[j].empty()) refined.push_back(j);
  Eigen::MatrixXd R = Eigen::MatrixXd::Zero(system_->size(), 3 * static_cast<int>(refined.size()));
  for (std::size_t r = 0; r < refined.size(); ++r) {
    const int j = refined[r];
    for (int p = layout_.offset[j]; p < layout_.offset[j + 1]; ++p)
      for (int k = 0; k < 3; ++k) R(system_->panelIndex(p), 3 * static_cast<int>(r) + k) = rigid_(p, k);
  }
  const double rtol = GapRefinement::kEstimateSolveFraction * refinement_->tolerance();
  const Eigen::MatrixXd X = system_->solve(R, false, static_cast<int>(Slot::Rigid), rtol);
  Eigen::MatrixXd sig(N, X.cols() + 1);
  for (int p = 0; p < N; ++p) {
    sig.row(p).head(X.cols()) = X.row(system_->panelIndex(p));
    sig(p, X.cols()) = sigmaI_[p];
  }
  // Scales: the largest rigid density (a disk's rotation density is zero, its tail round-off) and the
  // image density's own.
  const double rigidScale = X.cols() ? sig.leftCols(X.cols()).cwiseAbs().maxCoeff() : 0.0;
  for (int c = 0; c < sig.cols(); ++c) {
    const double scale = c < X.cols() ? rigidScale : sig.col(c).cwiseAbs().maxCoeff();
    if (!(scale > 0.0)) continue;
    for (int j : refined) {
      const auto* g = dynamic_cast<const GaussPanelDiscretization*>(mixed->part(j).disc.get());
      if (!g) continue;
      double perimeter = 0.0;
      for (double w : disc_->body(j).weight) perimeter += w;
      const Eigen::VectorXd v = sig.col(c).segment(layout_.offset[j], layout_.bodySize(j));
      est[j] = std::max(est[j], g->legendreTail(mixed->part(j).body, v.data()) / (scale * perimeter));
    }
  }
  forgetSolutions();
  // Every rank stops or goes on alike.
  if (ranks_ > 1) MPI_Allreduce(MPI_IN_PLACE, est.data(), static_cast<int>(est.size()), MPI_DOUBLE, MPI_MAX, comm_);
  return est;
}

void BoundaryFluid::forgetSolutions() {
  // Guesses and everything solved with them: the next call solves again from zero (the assembled
  // blocks and factorizations involve no guess and are kept).
  if (!system_ || system_->direct()) return;
  system_->forgetGuesses();
  motion_.valid = false;
  if (!rigidConstant_) rigidValid_ = false;
}

std::vector<double> BoundaryFluid::imageFluxDefect() const {
  return std::vector<double>(mu_.data(), mu_.data() + mu_.size());
}

}  // namespace kirchhoff::fluid
