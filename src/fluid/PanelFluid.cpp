// PanelFluid: source panels for phi_B (3n rigid-motion problems) and phi_I, then A(g), M_C, W_G
// (docs/fluidbody.md (FB-7), (FB-9), (FB-10)) and the exact adjoint gradient of F (FB-20), (FB-22).
//
// Discrete functional. With M the augmented collocation matrix, S the midpoint potentials,
// L = diag(l), G_iq = psi_q(gamma_i), beta = B Xi (rigid data, constant in the body frames):
//   sigma_X = M^-1 beta,  sigma_I = M^-1 b_I,  b_I,p = -<u_gamma(m_p), n_p>,
//   F = rho ( -1/2 beta^T L S sigma_X + 1/2 K^T G sigma_I + K^T G sigma_X + W_vv ).
// Adjoint (docs/fluidbody.md (FB-22), dF = df - lambda^T (dM sigma - db)):
//   M^T lambda_X = -1/2 S^T L beta + G^T K,   M^T lambda_I = 1/2 G^T K,
//   dF/dq = rho ( df/dq|_sigma - lambda_X^T dM sigma_X - lambda_I^T (dM sigma_I - db_I) ).
// Every entry depends on relative positions only, so body derivatives follow from the z-derivatives
// by translation and rotation invariance; the identities sum_j dF/dy_j + sum_i dF/dgamma_i = 0 etc.
// then hold to round-off.
#include "fluid/PanelFluid.hpp"

#include <petscsys.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <sstream>

#include "core/Error.hpp"
#include "fluid/KernelMath.hpp"
#include "fluid/PetscThrow.hpp"

namespace kirchhoff::fluid {

using panel::Complex;
using panel::gradIm;
using panel::gradRe;
using panel::kInvTwoPi;

namespace {

const Complex kI(0.0, 1.0);

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

using kernel::kWidth;
using kernel::Pack;

/// Scratch length per array for a body of n panels: vertex terms v = 0..n plus a pack of slack.
inline int scratchLength(int n) { return n + 1 + kWidth; }

/// Vertices of body Q's polygon (panels q0..q0+n-1, panel q from vertex q to vertex q+1, the last one
/// back to q0) seen from z: za = z - a_v and log|za_v| = log(|za_v|^2) / 2, for v = 0..n (v = n is
/// v = 0 again). Arrays of scratchLength(n).
inline void vertexTerms(const PanelGeometry& g, int q0, int n, double zx, double zy, double* dx, double* dy,
                        double* lr) {
  const double* ax = g.ax.data() + q0;
  const double* ay = g.ay.data() + q0;
  for (int k = 0; k < n; k += kWidth) {
    const int c = std::min(kWidth, n - k);
    const Pack x = zx - kernel::loadPartial(ax + k, c, ax[n - 1]);
    const Pack y = zy - kernel::loadPartial(ay + k, c, ay[n - 1]);
    kernel::store(dx + k, x);
    kernel::store(dy + k, y);
    kernel::store(lr + k, 0.5 * kernel::log(x * x + y * y));
  }
  dx[n] = dx[0];
  dy[n] = dy[0];
  lr[n] = lr[0];
}

/// Potential phi, W' = u - i v (dWr, dWi) and the collocation entry M = Re(W' nu) of the unit-density
/// panels q0..q0+n-1 at z from the vertex terms (panel::potentialTerms written out on packs).
inline void panelTerms(const PanelGeometry& g, int q0, int n, const double* dx, const double* dy,
                       const double* lr, const Complex& nu, double* phi, double* dWr, double* dWi,
                       double* M) {
  for (int k = 0; k < n; k += kWidth) {
    const int c = std::min(kWidth, n - k);
    const Pack xa = kernel::load(dx + k), ya = kernel::load(dy + k), la = kernel::load(lr + k);
    const Pack xb = kernel::load(dx + k + 1), yb = kernel::load(dy + k + 1), lb = kernel::load(lr + k + 1);
    const Pack theta = kernel::atan2(ya * xb - xa * yb, xa * xb + ya * yb);  // arg(za conj(zb))
    const Pack tr = kernel::loadPartial(g.tbarRe.data() + q0 + k, c, 1.0);
    const Pack ti = kernel::loadPartial(g.tbarIm.data() + q0 + k, c, 0.0);
    const Pack l = kernel::loadPartial(g.length.data() + q0 + k, c, 1.0);
    const Pack xi = xa * tr - ya * ti, eta = xa * ti + ya * tr;  // (z - a) tbar
    const Pack dl = la - lb;
    const Pack wr = kInvTwoPi * (tr * dl - ti * theta), wi = kInvTwoPi * (ti * dl + tr * theta);
    if (phi) kernel::storePartial(phi + k, kInvTwoPi * (xi * la - (xi - l) * lb - eta * theta - l), c);
    kernel::storePartial(dWr + k, wr, c);
    kernel::storePartial(dWi + k, wi, c);
    if (M) kernel::storePartial(M + k, wr * nu.real() - wi * nu.imag(), c);
  }
}

/// Sums over the panels q0..q0+n-1 of body Q at z of W''_q s_q and W'_q s_q for the two source
/// densities s = sigX, sigI, with W''_q = (1/2 pi) tbar_q (1/(z - a_q) - 1/(z - b_q)).
struct PairSums {
  Complex d2X, d2I, dX, dI;
};

inline PairSums pairSums(const PanelGeometry& g, int q0, int n, double zx, double zy, const double* dWr,
                         const double* dWi, const double* sX, const double* sI, double* wr, double* wi) {
  const double* ax = g.ax.data() + q0;
  const double* ay = g.ay.data() + q0;
  for (int k = 0; k < n; k += kWidth) {  // 1/(z - a_v) = conj(z - a_v) / |z - a_v|^2
    const int c = std::min(kWidth, n - k);
    const Pack x = zx - kernel::loadPartial(ax + k, c, ax[n - 1]);
    const Pack y = zy - kernel::loadPartial(ay + k, c, ay[n - 1]);
    const Pack inv = 1.0 / (x * x + y * y);
    kernel::store(wr + k, x * inv);
    kernel::store(wi + k, -y * inv);
  }
  wr[n] = wr[0];
  wi[n] = wi[0];
  Pack aX{}, aY{}, bX{}, bY{}, cX{}, cY{}, eX{}, eY{};
  for (int k = 0; k < n; k += kWidth) {
    const int c = std::min(kWidth, n - k);
    const Pack tr = kernel::loadPartial(g.tbarRe.data() + q0 + k, c, 1.0);
    const Pack ti = kernel::loadPartial(g.tbarIm.data() + q0 + k, c, 0.0);
    const Pack sx = kernel::loadPartial(sX + q0 + k, c, 0.0), si = kernel::loadPartial(sI + q0 + k, c, 0.0);
    const Pack vr = kernel::loadPartial(dWr + k, c, 0.0), vi = kernel::loadPartial(dWi + k, c, 0.0);
    const Pack dr = kernel::load(wr + k) - kernel::load(wr + k + 1);
    const Pack di = kernel::load(wi + k) - kernel::load(wi + k + 1);
    const Pack d2r = kInvTwoPi * (tr * dr - ti * di), d2i = kInvTwoPi * (tr * di + ti * dr);
    aX += d2r * sx, aY += d2i * sx;
    bX += d2r * si, bY += d2i * si;
    cX += vr * sx, cY += vi * sx;
    eX += vr * si, eY += vi * si;
  }
  using kernel::sum;
  return {Complex(sum(aX), sum(aY)), Complex(sum(bX), sum(bY)), Complex(sum(cX), sum(cY)),
          Complex(sum(eX), sum(eY))};
}

}  // namespace

PanelOptions PanelOptions::fromOptions(const std::string& prefix) {
  PanelOptions o;
  const char* pre = prefix.empty() ? nullptr : prefix.c_str();
  char buf[64];
  PetscBool set = PETSC_FALSE;
  KIRCHHOFF_PETSC_THROW(PetscOptionsGetString(nullptr, pre, "-correction", buf, sizeof buf, &set));
  if (set) {
    const std::string v = lower(buf);
    if (v == "auto") o.correction = PanelCorrection::Auto;
    else if (v == "none") o.correction = PanelCorrection::None;
    else if (v == "turning") o.correction = PanelCorrection::Turning;
    else if (v == "flux") o.correction = PanelCorrection::Flux;
    else
      throw ConfigurationError("option -" + prefix + "correction: '" + v +
                               "' is not one of auto, none, turning, flux");
  }
  KIRCHHOFF_PETSC_THROW(PetscOptionsGetString(nullptr, pre, "-solver", buf, sizeof buf, &set));
  if (set) {
    const std::string v = lower(buf);
    if (v == "auto") o.solver = PanelSolver::Auto;
    else if (v == "direct") o.solver = PanelSolver::Direct;
    else if (v == "ksp") o.solver = PanelSolver::Ksp;
    else
      throw ConfigurationError("option -" + prefix + "solver: '" + v +
                               "' is not one of auto, direct, ksp");
  }
  PetscInt n = 0;
  KIRCHHOFF_PETSC_THROW(PetscOptionsGetInt(nullptr, pre, "-direct_max", &n, &set));
  if (set) o.directMax = static_cast<int>(n);
  KIRCHHOFF_PETSC_THROW(PetscOptionsGetInt(nullptr, pre, "-cache_max", &n, &set));
  if (set) o.cacheMax = static_cast<long>(n);
  return o;
}

PanelFluid::PanelFluid(MPI_Comm comm, std::vector<Polygon> bodies, double fluidDensity,
                       const std::string& prefix)
    : PanelFluid(comm, std::move(bodies), fluidDensity, PanelOptions::fromOptions(prefix), prefix) {}

PanelFluid::PanelFluid(MPI_Comm comm, std::vector<Polygon> bodies, double fluidDensity,
                       const PanelOptions& options, const std::string& prefix)
    : comm_(comm), bodies_(std::move(bodies)), rho_(fluidDensity), options_(options),
      geometry_(bodies_) {
  if (!(rho_ > 0.0) || !std::isfinite(rho_))
    throw ConfigurationError("fluid density must be positive, got " + std::to_string(rho_));
  MPI_Comm_size(comm_, &ranks_);
  MPI_Comm_rank(comm_, &rank_);
  const int n = bodyCount();
  correction_.resize(n);
  for (int j = 0; j < n; ++j)
    correction_[j] = options_.correction != PanelCorrection::Auto
                         ? options_.correction
                         : (bodies_[j].smooth ? PanelCorrection::Flux : PanelCorrection::None);
  B_ = Eigen::MatrixXd::Zero(geometry_.panels, 3 * n);
  for (int p = 0; p < geometry_.panels; ++p)
    for (int k = 0; k < 3; ++k) B_(p, 3 * geometry_.body[p] + k) = geometry_.rigidData[3 * p + k];
  addedMass_ = Eigen::MatrixXd::Zero(3 * n, 3 * n);
  momentum_ = Eigen::VectorXd::Zero(3 * n);
  sigma_ = Eigen::MatrixXd::Zero(geometry_.panels, 3 * n + 1);
  mu_ = Eigen::VectorXd::Zero(n);
  if (n == 0) return;
  std::vector<Eigen::MatrixXd> augmented, selfS;
  buildSelfBlocks(augmented, selfS);
  system_ = std::make_unique<PanelSystem>(comm_, geometry_, augmented, options_.solver,
                                          options_.directMax, prefix);
  const int p0 = system_->panelBegin(), p1 = system_->panelEnd();
  Srows_ = RowMatrix::Zero(p1 - p0, geometry_.panels);
  for (int p = p0; p < p1; ++p) {
    const int j = geometry_.body[p], o = geometry_.offset[j];
    Srows_.row(p - p0).segment(o, geometry_.bodySize(j)) = selfS[j].row(p - o);
  }
  cache_ = n > 1 && static_cast<long>(p1 - p0) * geometry_.panels <= options_.cacheMax;
  if (cache_) {
    dWre_ = RowMatrix::Zero(p1 - p0, geometry_.panels);
    dWim_ = RowMatrix::Zero(p1 - p0, geometry_.panels);
  }
  if (n == 1) solveDensities(true, false);  // one body: A and sigma_B are constant in its frame
}

PanelFluid::~PanelFluid() = default;

void PanelFluid::buildSelfBlocks(std::vector<Eigen::MatrixXd>& augmented,
                                 std::vector<Eigen::MatrixXd>& selfS) {
  // Body frame = geometry at identity poses (set by the PanelGeometry constructor).
  const double ln2 = std::log(2.0);
  for (int j = 0; j < bodyCount(); ++j) {
    const int o = geometry_.offset[j], nj = geometry_.bodySize(j);
    Eigen::MatrixXd A = Eigen::MatrixXd::Zero(nj + 1, nj + 1), S(nj, nj);
    for (int p = 0; p < nj; ++p) {
      const Complex z = geometry_.m[o + p], nu = geometry_.nu[o + p];
      for (int q = 0; q < nj; ++q) {
        if (p == q) {
          S(p, q) = panel::selfPotential(geometry_.length[o + q]);
          continue;
        }
        const panel::PotentialTerms t = panel::potentialTerms(geometry_.seg[o + q], z);
        A(p, q) = (t.dW * nu).real();
        S(p, q) = t.phi;
      }
    }
    for (int p = 0; p < nj; ++p) {
      const int g = o + p;
      switch (correction_[j]) {
        case PanelCorrection::Turning:
          A(p, p) = 0.5 + ln2 / (4.0 * panel::kPi) * (geometry_.turnStart[g] + geometry_.turnEnd[g]);
          break;
        case PanelCorrection::Flux: {
          double col = 0.0;
          for (int r = 0; r < nj; ++r)
            if (r != p) col += geometry_.length[o + r] * A(r, p);
          A(p, p) = 1.0 - col / geometry_.length[g];
          break;
        }
        default:
          A(p, p) = 0.5;
      }
      A(p, nj) = 1.0;                       // multiplier mu_j
      A(nj, p) = geometry_.length[g];       // zero net source on body j
    }
    augmented.push_back(std::move(A));
    selfS.push_back(std::move(S));
  }
}

void PanelFluid::assembleInterBody() {
  // Owned panel rows p against the panels q of the other bodies: M_pq = Re(W'_q(m_p) nu_p), S_pq =
  // phi_q(m_p), and W'_q(m_p) kept for the gradient (when cached).
  const int p0 = system_->panelBegin(), p1 = system_->panelEnd();
  RowMatrix& rows = system_->rows();
  const int r0 = system_->rowBegin();
  const int w = scratchLength(maxBodySize());
  std::vector<double> buf(5 * w, 1.0);
  double *dx = buf.data(), *dy = dx + w, *lr = dy + w, *dWr = lr + w, *dWi = dWr + w;
  for (int p = p0; p < p1; ++p) {
    const int P = geometry_.body[p];
    const Complex z = geometry_.m[p], nu = geometry_.nu[p];
    double* Mrow = &rows(system_->panelIndex(p) - r0, 0);
    double* Srow = &Srows_(p - p0, 0);
    for (int Q = 0; Q < bodyCount(); ++Q) {
      if (Q == P) continue;
      const int q0 = geometry_.offset[Q], n = geometry_.bodySize(Q);
      double* cr = cache_ ? &dWre_(p - p0, q0) : dWr;
      double* ci = cache_ ? &dWim_(p - p0, q0) : dWi;
      vertexTerms(geometry_, q0, n, z.real(), z.imag(), dx, dy, lr);
      panelTerms(geometry_, q0, n, dx, dy, lr, nu, Srow + q0, cr, ci, Mrow + system_->panelIndex(q0));
    }
  }
}

int PanelFluid::maxBodySize() const {
  int w = 0;
  for (int j = 0; j < bodyCount(); ++j) w = std::max(w, geometry_.bodySize(j));
  return w;
}

void PanelFluid::assembleVortexTerms() {
  // G_iq = psi_q(gamma_i) and dOmega_q/dz at gamma_i for the owned panels, then summed over ranks
  // (each entry comes from exactly one rank, so the sum is exact).
  const int m = vortices_.size(), N = geometry_.panels;
  G_ = Eigen::MatrixXd::Zero(m, N);
  dG_ = Eigen::MatrixXcd::Zero(m, N);
  if (m == 0 || N == 0) return;
  const int p0 = system_->panelBegin(), p1 = system_->panelEnd();
  std::vector<Complex> alpha(N), logAlpha(N);
  for (int i = 0; i < m; ++i) {
    const Complex z = lie::toComplex(vortices_.gamma[i]);
    for (int Q = 0; Q < bodyCount(); ++Q) {
      const int q0 = std::max(geometry_.offset[Q], p0), q1 = std::min(geometry_.offset[Q + 1], p1);
      if (q0 >= q1) continue;
      const Complex w0 = z - geometry_.centre[Q];
      for (int q = q0; q < q1; ++q) {
        alpha[q] = (z - geometry_.seg[q].a) / w0;
        logAlpha[q] = std::log(alpha[q]);
      }
      for (int q = q0; q < q1; ++q) {
        const int nq = geometry_.next[q];
        Complex aB, lB;
        if (nq >= q0 && nq < q1) {
          aB = alpha[nq];
          lB = logAlpha[nq];
        } else {
          aB = (z - geometry_.seg[q].b) / w0;
          lB = std::log(aB);
        }
        const panel::StreamTerms t =
            panel::streamTerms(geometry_.seg[q], w0, alpha[q], logAlpha[q], aB, lB);
        G_(i, q) = -t.omega.imag();
        dG_(i, q) = t.dOmega;
      }
    }
  }
  if (ranks_ > 1) {
    MPI_Allreduce(MPI_IN_PLACE, G_.data(), m * N, MPI_DOUBLE, MPI_SUM, comm_);
    MPI_Allreduce(MPI_IN_PLACE, dG_.data(), 2 * m * N, MPI_DOUBLE, MPI_SUM, comm_);
  }
}

void PanelFluid::imageData() {
  // b_I,p = -<u_gamma(m_p), n_p> = -Re(conj(u_gamma) nu_p), conj(u_gamma)(z) = -i sum K_i / (2 pi (z - gamma_i)).
  const int N = geometry_.panels, m = vortices_.size();
  bI_.resize(N);
  for (int p = 0; p < N; ++p) {
    double vr = 0.0, vi = 0.0;  // sum K_i / (z - gamma_i) = sum K_i conj(d) / |d|^2
    for (int i = 0; i < m; ++i) {
      const double dx = geometry_.m[p].real() - vortices_.gamma[i].x();
      const double dy = geometry_.m[p].imag() - vortices_.gamma[i].y();
      const double k = vortices_.K[i] / (dx * dx + dy * dy);
      vr += k * dx;
      vi -= k * dy;
    }
    const Complex V = -kI * kInvTwoPi * Complex(vr, vi);
    bI_[p] = -(V * geometry_.nu[p]).real();
  }
}

Eigen::MatrixXd PanelFluid::rightHandSides(bool rigid, bool image) const {
  // Augmented right-hand sides: rigid data of each body dof (3n columns), then b_I (one column).
  const int n = bodyCount(), N = geometry_.panels, c = rigid ? 3 * n : 0;
  Eigen::MatrixXd R = Eigen::MatrixXd::Zero(system_->size(), c + (image ? 1 : 0));
  for (int p = 0; p < N; ++p) {
    const int r = system_->panelIndex(p);
    if (rigid)
      for (int k = 0; k < 3; ++k) R(r, 3 * geometry_.body[p] + k) = geometry_.rigidData[3 * p + k];
    if (image) R(r, c) = bI_[p];
  }
  return R;
}

void PanelFluid::solveDensities(bool rigid, bool image) {
  // One solve with all right-hand sides: sigma_B (3n columns, when the poses changed) and sigma_I.
  const int n = bodyCount(), N = geometry_.panels;
  const Eigen::MatrixXd X = system_->solve(rightHandSides(rigid, image));
  if (image) {
    const int c = rigid ? 3 * n : 0;
    for (int p = 0; p < N; ++p) sigma_(p, 3 * n) = X(system_->panelIndex(p), c);
    for (int j = 0; j < n; ++j) mu_[j] = X(system_->constraintIndex(j), c);
  }
  if (!rigid) return;
  for (int p = 0; p < N; ++p) sigma_.row(p).head(3 * n) = X.row(system_->panelIndex(p)).head(3 * n);
  // A = -(B^T L S) Sigma_B over the owned rows, summed over ranks, symmetrized. B has three entries
  // per row, so B^T L S costs 3 N^2 (instead of the 2 N^2 3n of S Sigma_B first).
  const int p0 = system_->panelBegin(), p1 = system_->panelEnd();
  LBS_ = Eigen::MatrixXd::Zero(3 * n, N);  // also gives S^T L beta in the gradient
  for (int p = p0; p < p1; ++p) {
    const int j = geometry_.body[p];
    for (int k = 0; k < 3; ++k)
      LBS_.row(3 * j + k) += (geometry_.length[p] * B_(p, 3 * j + k)) * Srows_.row(p - p0);
  }
  Eigen::MatrixXd A = -LBS_ * sigma_.leftCols(3 * n);
  if (ranks_ > 1) MPI_Allreduce(MPI_IN_PLACE, A.data(), 9 * n * n, MPI_DOUBLE, MPI_SUM, comm_);
  addedMass_ = rho_ * 0.5 * (A + A.transpose());
  asymmetry_ = (A - A.transpose()).cwiseAbs().maxCoeff() / std::max(A.cwiseAbs().maxCoeff(), 1e-300);
}

bool PanelFluid::samePoses(const std::vector<lie::Pose>& poses) const {
  if (poses.empty() || poses.size() != assembledPoses_.size()) return false;
  for (std::size_t j = 0; j < poses.size(); ++j)
    if (!(poses[j].theta == assembledPoses_[j].theta && poses[j].y == assembledPoses_[j].y)) return false;
  return true;
}

void PanelFluid::setConfiguration(const std::vector<lie::Pose>& poses, const Vortices& vortices) {
  const int n = bodyCount(), m = vortices.size();
  if (static_cast<int>(vortices.K.size()) != m)
    throw ConfigurationError("vortices: " + std::to_string(m) + " positions but " +
                             std::to_string(vortices.K.size()) + " circulations");
  // Several bodies: the inter-body blocks, their factorization and sigma_B depend on the poses only,
  // so a call with bitwise the same poses (finite-difference columns of vortex coordinates) keeps them.
  const bool moved = n > 1 && !samePoses(poses);
  geometry_.place(poses);
  vortices_ = vortices;
  // Vortex-vortex part of W_G, pair rows split over ranks.
  const int i0 = static_cast<int>(static_cast<long>(m) * rank_ / ranks_);
  const int i1 = static_cast<int>(static_cast<long>(m) * (rank_ + 1) / ranks_);
  double wvv = vortexInteraction(vortices_, i0, i1);
  if (ranks_ > 1) MPI_Allreduce(MPI_IN_PLACE, &wvv, 1, MPI_DOUBLE, MPI_SUM, comm_);
  if (n == 0) {
    routh_ = rho_ * wvv;
    return;
  }
  double t0 = MPI_Wtime();
  if (moved) {
    assembledPoses_.clear();  // none valid until the new factorization is in place
    assembleInterBody();
  }
  assembleVortexTerms();
  imageData();
  double t1 = MPI_Wtime();
  if (moved) {
    system_->update();
    assembledPoses_ = poses;
  }
  solveDensities(moved, true);
  timings_.assembly = t1 - t0;
  timings_.solve = MPI_Wtime() - t1;
  if (m > 0) {
    const Eigen::Map<const Eigen::VectorXd> K(vortices_.K.data(), m);
    const Eigen::RowVectorXd KG = K.transpose() * G_;
    momentum_ = rho_ * (KG * sigma_.leftCols(3 * n)).transpose();
    routh_ = rho_ * (0.5 * KG.dot(sigma_.col(3 * n)) + wvv);
  } else {
    momentum_.setZero();
    routh_ = 0.0;
  }
}

double PanelFluid::lagrangianValue(const Eigen::VectorXd& Xi) const {
  return 0.5 * Xi.dot(addedMass_ * Xi) + routh_ + momentum_.dot(Xi);
}

void PanelFluid::addPairGradient(const Eigen::VectorXd& lamX, const Eigen::VectorXd& lamI,
                                 const Eigen::VectorXd& sigX, const Eigen::VectorXd& sigI,
                                 const Eigen::VectorXd& beta, Eigen::VectorXd& grad) const {
  // Weights of the inter-body entries: w_M = -(lamX_p sigX_q + lamI_p sigI_q) on dM_pq,
  // w_S = -1/2 beta_p l_p sigX_q on dS_pq. Over body P's pose (z = m_p, arm = i (z - y_P)):
  //   dM/dy = (Re, -Im)(W'' nu),  dM/dtheta = Re(W'' nu arm) + Re(i W' nu),
  //   dS/dy = (Re, -Im) W',       dS/dtheta = Re(W' arm);
  // the sums over q of W'' and W' times sigX, sigI per body pair give all of them. Body Q's
  // derivatives follow by translation and rotation invariance.
  const int p0 = system_->panelBegin(), p1 = system_->panelEnd();
  const int w = scratchLength(maxBodySize());
  std::vector<double> buf(7 * w, 1.0);
  double *dx = buf.data(), *dy = dx + w, *lr = dy + w, *dWr = lr + w, *dWi = dWr + w, *wr = dWi + w,
         *wi = wr + w;
  for (int p = p0; p < p1; ++p) {
    const int P = geometry_.body[p];
    const Complex z = geometry_.m[p], nu = geometry_.nu[p], arm = kI * (z - geometry_.centre[P]);
    const double aX = -lamX[p], aI = -lamI[p], aS = -0.5 * beta[p] * geometry_.length[p];
    for (int Q = 0; Q < bodyCount(); ++Q) {
      if (Q == P) continue;
      const int q0 = geometry_.offset[Q], n = geometry_.bodySize(Q);
      const double* cr = dWr;
      const double* ci = dWi;
      if (cache_) {
        cr = &dWre_(p - p0, q0);
        ci = &dWim_(p - p0, q0);
      } else {
        vertexTerms(geometry_, q0, n, z.real(), z.imag(), dx, dy, lr);
        panelTerms(geometry_, q0, n, dx, dy, lr, nu, nullptr, dWr, dWi, nullptr);
      }
      const PairSums t = pairSums(geometry_, q0, n, z.real(), z.imag(), cr, ci, sigX.data(), sigI.data(), wr, wi);
      const Complex c1 = nu * (aX * t.d2X + aI * t.d2I);  // sum_q w_M W'' nu
      const Complex wdW = aX * t.dX + aI * t.dI;          // sum_q w_M W'
      const Complex sdW = aS * t.dX;                      // sum_q w_S W'
      const Vec2 cy(c1.real() + sdW.real(), -c1.imag() - sdW.imag());
      const double ct = (c1 * arm).real() + (kI * wdW * nu).real() + (sdW * arm).real();
      const Vec2 armPQ = lie::Jrot(geometry_.poses[P].y - geometry_.poses[Q].y);
      grad[3 * P] += ct;
      grad.segment<2>(3 * P + 1) += cy;
      grad[3 * Q] -= ct + cy.dot(armPQ);
      grad.segment<2>(3 * Q + 1) -= cy;
    }
  }
}

Eigen::VectorXd PanelFluid::lagrangianGradient(const Eigen::VectorXd& Xi) {
  const int n = bodyCount(), m = vortices_.size(), N = geometry_.panels;
  if (Xi.size() != 3 * n)
    throw ConfigurationError("lagrangianGradient: Xi has " + std::to_string(Xi.size()) +
                             " entries, expected " + std::to_string(3 * n));
  const double t0 = MPI_Wtime();
  Eigen::VectorXd grad = Eigen::VectorXd::Zero(3 * n + 2 * m);
  Eigen::Map<Eigen::VectorXd> gv(grad.data() + 3 * n, 2 * m);
  const int i0 = static_cast<int>(static_cast<long>(m) * rank_ / ranks_);
  const int i1 = static_cast<int>(static_cast<long>(m) * (rank_ + 1) / ranks_);
  addVortexInteractionGradient(vortices_, i0, i1, gv);
  if (n > 0) {
    const int p0 = system_->panelBegin(), p1 = system_->panelEnd();
    const Eigen::VectorXd beta = B_ * Xi;
    const Eigen::VectorXd sigX = sigma_.leftCols(3 * n) * Xi;
    const Eigen::VectorXd sigI = sigma_.col(3 * n);
    Eigen::VectorXd GtK = Eigen::VectorXd::Zero(N);
    if (m > 0) GtK = G_.transpose() * Eigen::Map<const Eigen::VectorXd>(vortices_.K.data(), m);
    // S^T L beta = (B^T L S)^T Xi over the owned rows, summed over ranks.
    Eigen::VectorXd StLb = LBS_.transpose() * Xi;
    if (ranks_ > 1) MPI_Allreduce(MPI_IN_PLACE, StLb.data(), N, MPI_DOUBLE, MPI_SUM, comm_);
    Eigen::MatrixXd R = Eigen::MatrixXd::Zero(system_->size(), 2);
    for (int p = 0; p < N; ++p) {
      const int r = system_->panelIndex(p);
      R(r, 0) = -0.5 * StLb[p] + GtK[p];
      R(r, 1) = 0.5 * GtK[p];
    }
    const Eigen::MatrixXd Lam = system_->solve(R, true);
    Eigen::VectorXd lamX(N), lamI(N);
    for (int p = 0; p < N; ++p) {
      lamX[p] = Lam(system_->panelIndex(p), 0);
      lamI[p] = Lam(system_->panelIndex(p), 1);
    }
    if (n > 1) addPairGradient(lamX, lamI, sigX, sigI, beta, grad);
    for (int i = 0; i < m; ++i) {
      const double K = vortices_.K[i];
      const Complex g = lie::toComplex(vortices_.gamma[i]);
      Vec2 gi = Vec2::Zero();
      // d/dq of K^T G (sigma_X + sigma_I / 2): psi_q(gamma_i), panel q on body Q.
      for (int q = p0; q < p1; ++q) {
        const int Q = geometry_.body[q];
        const double w = K * (sigX[q] + 0.5 * sigI[q]);
        const Complex dO = dG_(i, q);
        const Vec2 gz = -gradIm(dO);  // d psi / d gamma_i
        gi += w * gz;
        grad.segment<2>(3 * Q + 1) -= w * gz;
        grad[3 * Q] += w * (dO * kI * (g - geometry_.centre[Q])).imag();
      }
      // lambda_I^T d b_I: b_I,p = -Re(V(m_p) nu_p), V = -i sum K / (2 pi (z - gamma)).
      for (int p = p0; p < p1; ++p) {
        const int P = geometry_.body[p];
        const Complex d = geometry_.m[p] - g, nu = geometry_.nu[p];
        const Complex k = K * kInvTwoPi / (d * d);
        const Complex Vi = -kI * K * kInvTwoPi / d;
        const double w = lamI[p];
        const Vec2 gg = gradRe(kI * k * nu);  // d b_p / d gamma_i
        gi += w * gg;
        grad.segment<2>(3 * P + 1) -= w * gg;
        grad[3 * P] -= w * ((kI * k * kI * (geometry_.m[p] - geometry_.centre[P]) * nu).real() +
                            (Vi * kI * nu).real());
      }
      grad.segment<2>(3 * n + 2 * i) += gi;
    }
  }
  if (ranks_ > 1) MPI_Allreduce(MPI_IN_PLACE, grad.data(), grad.size(), MPI_DOUBLE, MPI_SUM, comm_);
  timings_.gradient = MPI_Wtime() - t0;
  return rho_ * grad;
}

std::vector<lie::Vec2> PanelFluid::vortexVelocities(const Eigen::VectorXd& Xi) const {
  const int n = bodyCount(), m = vortices_.size(), N = geometry_.panels;
  std::vector<Vec2> u(m);
  Eigen::VectorXd s = Eigen::VectorXd::Zero(N);
  if (n > 0) s = sigma_.leftCols(3 * n) * Xi + sigma_.col(3 * n);
  for (int i = 0; i < m; ++i) {
    u[i] = biotSavart(vortices_, vortices_.gamma[i], i);
    const Complex z = lie::toComplex(vortices_.gamma[i]);
    Complex w(0.0, 0.0);  // sum sigma_q W'_q(z) = u - i v
    for (int q = 0; q < N; ++q) w += s[q] * panel::potentialTerms(geometry_.seg[q], z).dW;
    u[i] += Vec2(w.real(), -w.imag());
  }
  return u;
}

std::vector<double> PanelFluid::imageFluxDefect() const {
  return std::vector<double>(mu_.data(), mu_.data() + mu_.size());
}

}  // namespace kirchhoff::fluid
