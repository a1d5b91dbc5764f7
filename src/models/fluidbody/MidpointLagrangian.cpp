// Slot derivatives of the midpoint discrete Lagrangian, by the chain rule through
//   Omega = phi/h, V = e^{-i theta_k} v(phi) dy / h, y_mid = y_k + w(phi) dy, theta_mid = theta_k + phi/2
// (complex notation for R^2, phi = theta_k+1 - theta_k; v, w from lie::MidpointFactors).
#include "models/fluidbody/MidpointLagrangian.hpp"

#include "core/Error.hpp"

namespace kirchhoff::fluidbody {

using lie::Complex;
using lie::toComplex;
using lie::toVec;
using lie::Vec2;

namespace {
/// Real inner product of complex numbers seen as vectors of R^2.
double dot(const Complex& a, const Complex& b) { return std::real(std::conj(a) * b); }
const Complex kI(0.0, 1.0);
}  // namespace

MidpointLagrangian::MidpointLagrangian(fluid::Fluid& fluid, std::vector<BodyMass> bodies,
                                       std::vector<double> K, double rho, double h)
    : fluid_(fluid), bodies_(std::move(bodies)), K_(std::move(K)), rho_(rho), h_(h),
      n_(static_cast<int>(bodies_.size())), m_(static_cast<int>(K_.size())) {}

void MidpointLagrangian::setTimeStep(double h) {
  h_ = h;
  cache_ = Cache{};  // the cached Jacobian pieces belong to the old step
}

Configuration MidpointLagrangian::configuration(const Eigen::VectorXd& q) const {
  Configuration c;
  for (int j = 0; j < n_; ++j) c.poses.push_back({q[3 * j], Vec2(q[3 * j + 1], q[3 * j + 2])});
  for (int i = 0; i < m_; ++i) {
    c.vortices.gamma.emplace_back(q[3 * n_ + 2 * i], q[3 * n_ + 2 * i + 1]);
    c.vortices.K.push_back(K_[static_cast<std::size_t>(i)]);
  }
  return c;
}

MidpointLagrangian::Midpoint MidpointLagrangian::midpoint(const Eigen::VectorXd& q0,
                                                          const Eigen::VectorXd& q1) const {
  Midpoint mp;
  mp.Xi.resize(3 * n_);
  for (int j = 0; j < n_; ++j) {
    const double th0 = q0[3 * j], phi = q1[3 * j] - th0;
    const Complex y0(q0[3 * j + 1], q0[3 * j + 2]);
    const Complex dy = Complex(q1[3 * j + 1], q1[3 * j + 2]) - y0;
    const lie::MidpointFactors f(phi);
    const Complex V = std::polar(1.0, -th0) * f.v * dy / h_;
    mp.Xi[3 * j] = phi / h_;
    mp.Xi[3 * j + 1] = V.real();
    mp.Xi[3 * j + 2] = V.imag();
    mp.config.poses.push_back({th0 + 0.5 * phi, toVec(y0 + f.w * dy)});
    mp.f.push_back(f);
    mp.dy.push_back(dy);
  }
  for (int i = 0; i < m_; ++i) {
    const Vec2 g0(q0[3 * n_ + 2 * i], q0[3 * n_ + 2 * i + 1]);
    const Vec2 g1(q1[3 * n_ + 2 * i], q1[3 * n_ + 2 * i + 1]);
    mp.config.vortices.gamma.push_back(0.5 * (g0 + g1));
    mp.config.vortices.K.push_back(K_[static_cast<std::size_t>(i)]);
    mp.gammaDot.push_back((g1 - g0) / h_);
  }
  return mp;
}

Eigen::VectorXd MidpointLagrangian::massTimes(const Eigen::VectorXd& Xi) const {
  // M Xi with M = diag(i_j, m_j, m_j): O(n), never the 3n x 3n matrix (75 MB at 1024 bodies).
  Eigen::VectorXd out(3 * n_);
  for (int j = 0; j < n_; ++j) {
    const BodyMass& b = bodies_[static_cast<std::size_t>(j)];
    out[3 * j] = b.inertia * Xi[3 * j];
    out.segment<2>(3 * j + 1) = b.mass * Xi.segment<2>(3 * j + 1);
  }
  return out;
}

Eigen::MatrixXd MidpointLagrangian::kirchhoffTensor() const {
  if (n_ == 0) return Eigen::MatrixXd(0, 0);
  Eigen::MatrixXd K = fluid_.addedMass();
  K.diagonal() += massTimes(Eigen::VectorXd::Ones(3 * n_));
  return K;
}

double MidpointLagrangian::value(const Eigen::VectorXd& q0, const Eigen::VectorXd& q1) {
  const Midpoint mp = midpoint(q0, q1);
  cache_.fluid = false;
  fluid_.setConfiguration(mp.config.poses, mp.config.vortices);
  double L = fluid_.lagrangianValue(mp.Xi);  // W_G + 1/2 <A Xi, Xi> + <M_C, Xi>
  if (n_ > 0) L += 0.5 * mp.Xi.dot(massTimes(mp.Xi));
  for (int i = 0; i < m_; ++i)
    L += 0.5 * rho_ * K_[static_cast<std::size_t>(i)] *
         mp.config.vortices.gamma[static_cast<std::size_t>(i)].dot(lie::Jrot(mp.gammaDot[static_cast<std::size_t>(i)]));
  return h_ * L;
}

void MidpointLagrangian::slotDerivatives(const Eigen::VectorXd& q0, const Eigen::VectorXd& q1,
                                         Eigen::VectorXd* d1, Eigen::VectorXd* d2) {
  const Midpoint mp = midpoint(q0, q1);
  fluid_.setConfiguration(mp.config.poses, mp.config.vortices);
  const Eigen::VectorXd G = fluid_.lagrangianGradient(mp.Xi);
  Eigen::VectorXd P(3 * n_);
  cache_.q0 = q0;
  cache_.q1 = q1;
  cache_.fluid = true;
  cache_.thetaMid.clear();
  cache_.kirchhoff.resize(0, 0);  // the full tensor (3n solves) only if the Jacobian asks for it
  if (n_ > 0) {
    P = massTimes(mp.Xi) + fluid_.addedMassAction(mp.Xi) + fluid_.vortexMomentum();
    for (const auto& g : mp.config.poses) cache_.thetaMid.push_back(g.theta);
  }
  Eigen::VectorXd a = Eigen::VectorXd::Zero(dimension()), b = a;
  for (int j = 0; j < n_; ++j) {
    const lie::MidpointFactors& f = mp.f[static_cast<std::size_t>(j)];
    const Complex dy = mp.dy[static_cast<std::size_t>(j)];
    const Complex e0 = std::polar(1.0, -q0[3 * j]);
    const Complex V(mp.Xi[3 * j + 1], mp.Xi[3 * j + 2]);
    const double Gt = G[3 * j], Pt = P[3 * j];
    const Complex Gy(G[3 * j + 1], G[3 * j + 2]), Pv(P[3 * j + 1], P[3 * j + 2]);
    const double th0 = 0.5 * Gt + dot(Gy, -f.dw * dy) - Pt / h_ + dot(Pv, -kI * V - e0 * f.dv * dy / h_);
    const double th1 = 0.5 * Gt + dot(Gy, f.dw * dy) + Pt / h_ + dot(Pv, e0 * f.dv * dy / h_);
    const Complex y0 = std::conj(1.0 - f.w) * Gy - std::conj(e0 * f.v) / h_ * Pv;
    const Complex y1 = std::conj(f.w) * Gy + std::conj(e0 * f.v) / h_ * Pv;
    a[3 * j] = h_ * th0;
    a[3 * j + 1] = h_ * y0.real();
    a[3 * j + 2] = h_ * y0.imag();
    b[3 * j] = h_ * th1;
    b[3 * j + 1] = h_ * y1.real();
    b[3 * j + 2] = h_ * y1.imag();
  }
  for (int i = 0; i < m_; ++i) {
    const double k = rho_ * K_[static_cast<std::size_t>(i)];
    const Vec2 Gg = G.segment<2>(3 * n_ + 2 * i);
    const Vec2 half = 0.5 * h_ * (Gg + 0.5 * k * lie::Jrot(mp.gammaDot[static_cast<std::size_t>(i)]));
    const Vec2 legendre = 0.5 * k * lie::Jrot(mp.config.vortices.gamma[static_cast<std::size_t>(i)]);
    a.segment<2>(3 * n_ + 2 * i) = half + legendre;
    b.segment<2>(3 * n_ + 2 * i) = half - legendre;
  }
  if (d1) *d1 = a;
  if (d2) *d2 = b;
}

Eigen::MatrixXd MidpointLagrangian::approximateJacobian(const Eigen::VectorXd& q0,
                                                        const Eigen::VectorXd& q1) {
  // d(D1 L_d)/d q_k+1 without the O(h) fluid-gradient terms: -T (M + A) T^T / h for the bodies
  // (T = diag(1, R(theta_mid)) per body) and rho K_i J / 2 for each vortex.
  Eigen::MatrixXd Jac = Eigen::MatrixXd::Zero(dimension(), dimension());
  if (n_ > 0) {
    if (!(cache_.q0.size() == q0.size() && cache_.q0 == q0 && cache_.q1 == q1))
      slotDerivatives(q0, q1, nullptr, nullptr);  // fills the cache at this point
    if (cache_.kirchhoff.size() == 0) {
      fluid_.setConfiguration(midpoint(q0, q1).config.poses, midpoint(q0, q1).config.vortices);
      cache_.kirchhoff = kirchhoffTensor();
    }
    Eigen::MatrixXd T = Eigen::MatrixXd::Identity(3 * n_, 3 * n_);
    for (int j = 0; j < n_; ++j)
      T.block<2, 2>(3 * j + 1, 3 * j + 1) = lie::rotation(cache_.thetaMid[static_cast<std::size_t>(j)]);
    Jac.topLeftCorner(3 * n_, 3 * n_) = -T * cache_.kirchhoff * T.transpose() / h_;
  }
  for (int i = 0; i < m_; ++i)
    Jac.block<2, 2>(3 * n_ + 2 * i, 3 * n_ + 2 * i) = 0.5 * rho_ * K_[static_cast<std::size_t>(i)] * lie::Jmat();
  return Jac;
}

std::vector<Eigen::MatrixXd> MidpointLagrangian::jacobianDiagonalBlocks(const Eigen::VectorXd& q0,
                                                                      const Eigen::VectorXd& q1) const {
  // The diagonal blocks of (FB-29) with A(g) replaced by its isolated self-blocks A_j^iso (FB-29a):
  // theta_k+1/2 from (FB-24) only, so a block costs O(1) and no fluid solve.
  std::vector<Eigen::MatrixXd> blocks;
  for (int j = 0; j < n_; ++j) {
    const BodyMass& b = bodies_[static_cast<std::size_t>(j)];
    Eigen::Matrix3d K = Eigen::Vector3d(b.inertia, b.mass, b.mass).asDiagonal();
    if (isolated_.size() == static_cast<std::size_t>(n_)) K += isolated_[static_cast<std::size_t>(j)];
    Eigen::Matrix3d T = Eigen::Matrix3d::Identity();
    T.bottomRightCorner<2, 2>() = lie::rotation(q0[3 * j] + 0.5 * (q1[3 * j] - q0[3 * j]));
    blocks.emplace_back(-T * K * T.transpose() / h_);
  }
  for (int i = 0; i < m_; ++i)
    blocks.emplace_back(0.5 * rho_ * K_[static_cast<std::size_t>(i)] * lie::Jmat());
  return blocks;
}

Eigen::VectorXd MidpointLagrangian::solveApproximateJacobian(const Eigen::VectorXd& q0, const Eigen::VectorXd& q1,
                                                             const Eigen::VectorXd& r, double rtol) {
  // (FB-90), block lower triangular: x_b = -h T delta with (M + A) delta = T^T r_b, then the vortex rows
  // (rho / 2) K_i J x_i = r_i - J_vb x_b, J_vb x_b = (1/2) d<M_C, T^T x_b>/d gamma = -(h / 2) d<M_C, delta>/d gamma.
  if (!(cache_.fluid && cache_.q0.size() == q0.size() && cache_.q0 == q0)) slotDerivatives(q0, q1, nullptr, nullptr);
  Eigen::VectorXd x(dimension()), mass(3 * n_), rb(3 * n_);
  std::vector<lie::Mat2> R;
  for (int j = 0; j < n_; ++j) {
    const BodyMass& b = bodies_[static_cast<std::size_t>(j)];
    R.push_back(lie::rotation(q0[3 * j] + 0.5 * (q1[3 * j] - q0[3 * j])));
    mass.segment<3>(3 * j) = Eigen::Vector3d(b.inertia, b.mass, b.mass);
    rb[3 * j] = r[3 * j];
    rb.segment<2>(3 * j + 1) = R.back().transpose() * r.segment<2>(3 * j + 1);
  }
  const fluid::Fluid::KirchhoffSolution s = fluid_.kirchhoffSolve(mass, rb, rtol);
  for (int j = 0; j < n_; ++j) {
    x[3 * j] = -h_ * s.delta[3 * j];
    x.segment<2>(3 * j + 1) = -h_ * (R[static_cast<std::size_t>(j)] * s.delta.segment<2>(3 * j + 1));
  }
  for (int i = 0; i < m_; ++i) {
    const Vec2 ri = r.segment<2>(3 * n_ + 2 * i) + 0.5 * h_ * s.vortexGradient.segment<2>(2 * i);
    const double k = 0.5 * rho_ * K_[static_cast<std::size_t>(i)];
    // (k J)^-1 = -J / k; a vortex of zero circulation has zero rows and passes through.
    x.segment<2>(3 * n_ + 2 * i) = k != 0.0 ? Vec2(-lie::Jrot(ri) / k) : ri;
  }
  return x;
}

Eigen::VectorXd MidpointLagrangian::legendre(const Eigen::VectorXd& q, const Eigen::VectorXd& Xi) {
  const Configuration c = configuration(q);
  cache_.fluid = false;
  fluid_.setConfiguration(c.poses, c.vortices);
  Eigen::VectorXd p(dimension());
  if (n_ > 0) {
    const Eigen::VectorXd P = massTimes(Xi) + fluid_.addedMassAction(Xi) + fluid_.vortexMomentum();
    for (int j = 0; j < n_; ++j) {
      p[3 * j] = P[3 * j];
      p.segment<2>(3 * j + 1) = lie::rotation(q[3 * j]) * P.segment<2>(3 * j + 1);
    }
  }
  for (int i = 0; i < m_; ++i)
    p.segment<2>(3 * n_ + 2 * i) = -0.5 * rho_ * K_[static_cast<std::size_t>(i)] * lie::Jrot(q.segment<2>(3 * n_ + 2 * i));
  return p;
}

Eigen::VectorXd MidpointLagrangian::bodyMomenta(const Eigen::VectorXd& q, const Eigen::VectorXd& p) const {
  Eigen::VectorXd P(3 * n_);
  for (int j = 0; j < n_; ++j) {
    P[3 * j] = p[3 * j];
    P.segment<2>(3 * j + 1) = lie::rotation(-q[3 * j]) * p.segment<2>(3 * j + 1);
  }
  return P;
}

Eigen::VectorXd MidpointLagrangian::usableGuess(const Eigen::VectorXd& guess) const {
  return guess.size() == 3 * n_ && guess.allFinite() ? guess : Eigen::VectorXd();
}

bool MidpointLagrangian::iterativeLegendre() const {
  return n_ >= kIterativeLegendreBodies && isolated_.size() == static_cast<std::size_t>(n_);
}

Eigen::VectorXd MidpointLagrangian::momentaAt(const Eigen::VectorXd& q, const Eigen::VectorXd& p) {
  const Configuration c = configuration(q);
  cache_.fluid = false;
  fluid_.setConfiguration(c.poses, c.vortices);
  legendreIterations_ = 0;
  if (n_ == 0) return Eigen::VectorXd(0);
  return bodyMomenta(q, p) - fluid_.vortexMomentum();
}

Eigen::VectorXd MidpointLagrangian::bodyVelocity(const Eigen::VectorXd& q, const Eigen::VectorXd& p,
                                                 const Eigen::VectorXd& guess) {
  const Eigen::VectorXd P = momentaAt(q, p);
  if (n_ == 0) return P;
  if (iterativeLegendre()) return kirchhoffSolve(P, usableGuess(guess), 0.0).x;
  return kirchhoffTensor().llt().solve(P);
}

double MidpointLagrangian::hamiltonian(const Eigen::VectorXd& q, const Eigen::VectorXd& p,
                                       const Eigen::VectorXd& guess) {
  // (FB-29f): H = 1/2 <x, P + r> - W_G equals 1/2 <P, (M + A)^-1 P> - W_G up to 1/2 r^T (M + A)^-1 r.
  if (!iterativeLegendre()) return energy(bodyVelocity(q, p));
  const Eigen::VectorXd P = momentaAt(q, p);
  const KirchhoffIterate it = kirchhoffSolve(P, usableGuess(guess), kEnergyRtol);
  return 0.5 * it.x.dot(P + it.r) - fluid_.kirchhoffRouth();
}

MidpointLagrangian::KirchhoffIterate MidpointLagrangian::kirchhoffSolve(const Eigen::VectorXd& P, Eigen::VectorXd x0,
                                                                        double energyRtol) {
  // (FB-29b): CG on the SPD Kirchhoff tensor, applied as M Xi + A Xi (fluid/Fluid::addedMassAction),
  // preconditioned by the inverses of the bodies' blocks M_j + A_j^iso; stops at |r| <= 1e-13 |P|, or for the
  // energy (FB-29f) once 1/2 r^T M^-1 r (>= 1/2 r^T (M + A)^-1 r, A being positive semidefinite) is below
  // energyRtol times the energy 1/2 <x, P + r> of the iterate (a lower bound of the exact one).
  constexpr double kRtol = 1e-13;
  constexpr int kMaxIterations = 200;
  std::vector<Eigen::LLT<Eigen::Matrix3d>> block;
  for (int j = 0; j < n_; ++j) {
    const BodyMass& b = bodies_[static_cast<std::size_t>(j)];
    block.emplace_back(Eigen::Matrix3d(Eigen::Vector3d(b.inertia, b.mass, b.mass).asDiagonal()) +
                       isolated_[static_cast<std::size_t>(j)]);
  }
  auto precondition = [&](const Eigen::VectorXd& r) {
    Eigen::VectorXd z(r.size());
    for (int j = 0; j < n_; ++j) z.segment<3>(3 * j) = block[static_cast<std::size_t>(j)].solve(r.segment<3>(3 * j));
    return z;
  };
  auto apply = [&](const Eigen::VectorXd& x) { return Eigen::VectorXd(massTimes(x) + fluid_.addedMassAction(x)); };
  const Eigen::VectorXd mass = massTimes(Eigen::VectorXd::Ones(3 * n_));
  auto energyConverged = [&](const Eigen::VectorXd& x, const Eigen::VectorXd& r) {
    if (!(energyRtol > 0.0)) return false;
    const double bound = 0.5 * r.dot(r.cwiseQuotient(mass));
    const double kinetic = 0.5 * x.dot(P + r);
    return kinetic > 0.0 && bound <= energyRtol * kinetic;
  };
  KirchhoffIterate it;
  it.x = x0.size() == P.size() ? std::move(x0) : precondition(P);
  it.r = P - apply(it.x);
  legendreIterations_ = 0;
  Eigen::VectorXd z = precondition(it.r), d = z;
  double rz = it.r.dot(z);
  const double stop = kRtol * P.norm();
  auto done = [&] { return it.r.norm() <= stop || energyConverged(it.x, it.r); };
  for (; legendreIterations_ < kMaxIterations; ++legendreIterations_) {
    if (done()) return it;
    const Eigen::VectorXd Kd = apply(d);
    const double alpha = rz / d.dot(Kd);
    it.x += alpha * d;
    it.r -= alpha * Kd;
    z = precondition(it.r);
    const double rzNext = it.r.dot(z);
    d = z + (rzNext / rz) * d;
    rz = rzNext;
  }
  if (done()) return it;
  throw NumericalError("inverse Legendre map: conjugate gradients on the Kirchhoff tensor stopped at |r| / |P| = " +
                       std::to_string(it.r.norm() / std::max(P.norm(), 1e-300)) + " after " +
                       std::to_string(kMaxIterations) + " iterations");
}

double MidpointLagrangian::energy(const Eigen::VectorXd& Xi) const {
  double H = -fluid_.kirchhoffRouth();
  if (n_ > 0) H += 0.5 * Xi.dot(massTimes(Xi) + fluid_.addedMassAction(Xi));
  return H;
}

double MidpointLagrangian::discreteEnergy(const Eigen::VectorXd& q0, const Eigen::VectorXd& q1) {
  // L_d = h L(midpoint, Xi_k, gamma_dot_k): the midpoint does not depend on h, the terms linear in the
  // velocities (beta_gamma, W_B) are h-independent and 1/2 <K Xi, Xi> h ~ 1/h, so -dL_d/dh = H(midpoint, Xi_k).
  const Midpoint mp = midpoint(q0, q1);
  fluid_.setConfiguration(mp.config.poses, mp.config.vortices);
  return energy(mp.Xi);
}

std::vector<lie::Vec2> MidpointLagrangian::vortexVelocities(const Eigen::VectorXd& Xi) const {
  return fluid_.vortexVelocities(Xi);
}

}  // namespace kirchhoff::fluidbody
