// The vortex–vortex sums (docs/fluidbody.md (FB-10), (FB-55)): direct over balanced rows of the pair
// triangle for few vortices, the 2D Laplace FMM (fluid/fast/LaplaceFmm) over this rank's targets for many.
#include "fluid/fast/VortexPairSums.hpp"

#include "core/Constants.hpp"

namespace kirchhoff::fluid {

namespace {

using C = std::complex<double>;

std::vector<C> points(const Vortices& v) {
  std::vector<C> z(static_cast<std::size_t>(v.size()));
  for (int i = 0; i < v.size(); ++i) z[i] = C(v.gamma[i].x(), v.gamma[i].y());
  return z;
}

std::vector<C> strengths(const Vortices& v) { return std::vector<C>(v.K.begin(), v.K.end()); }

}  // namespace

void VortexPairSums::rows(int m, int rank, int ranks, int& begin, int& end) {
  // Row i holds m - 1 - i pairs: split the triangle into equal pair counts.
  const double total = 0.5 * m * (m - 1.0);
  auto boundary = [&](int r) {
    if (r <= 0) return 0;
    if (r >= ranks) return m;
    const double target = total * r / ranks;
    int i = 0;
    double acc = 0;
    while (i < m && acc + (m - 1 - i) <= target) acc += m - 1 - i++;
    return i;
  };
  begin = boundary(rank);
  end = boundary(rank + 1);
}

void VortexPairSums::update(const Vortices& v, int rank, int ranks) {
  v_ = v;
  const int m = v.size();
  fast_ = m >= kVortexFmmMin;
  gradient_ = Eigen::VectorXd::Zero(2 * m);
  if (!fast_) {
    rows(m, rank, ranks, begin_, end_);
    routh_ = vortexInteraction(v_, begin_, end_);
    gradientValid_ = false;
    return;
  }
  // (FB-55) with Phi = sum_j K_j log(z - gamma_j): W_vv = 1/2 sum_i K_i Re Phi(gamma_i) / (2 pi) and
  // d W_vv / d gamma_i = K_i / (2 pi) (Re Phi', -Im Phi')(gamma_i), self terms left out; the targets
  // of this rank are an even share of the vortices.
  begin_ = static_cast<int>(static_cast<long>(m) * rank / ranks);
  end_ = static_cast<int>(static_cast<long>(m) * (rank + 1) / ranks);
  const std::vector<C> z = points(v), q = strengths(v);
  const std::vector<C> targets(z.begin() + begin_, z.begin() + end_);
  std::vector<double> phi(targets.size());
  std::vector<C> d(targets.size());
  laplaceFmm(z, q, targets, begin_, {phi.data(), d.data(), nullptr});
  routh_ = 0.0;
  for (int i = begin_; i < end_; ++i) {
    const double k = v.K[i] / kTwoPi;
    routh_ += 0.5 * k * phi[i - begin_];
    gradient_[2 * i] = k * d[i - begin_].real();
    gradient_[2 * i + 1] = -k * d[i - begin_].imag();
  }
  gradientValid_ = true;
}

const Eigen::VectorXd& VortexPairSums::gradientShare() {
  if (!gradientValid_) {
    addVortexInteractionGradient(v_, begin_, end_, gradient_);
    gradientValid_ = true;
  }
  return gradient_;
}

std::vector<C> vortexField(const Vortices& v, const std::vector<C>& z) {
  std::vector<C> w(z.size());
  if (v.size() >= kVortexFmmMin) {
    laplaceFmm(points(v), strengths(v), z, -1, {nullptr, w.data(), nullptr});
    for (C& x : w) x *= -kI / kTwoPi;
    return w;
  }
  for (std::size_t k = 0; k < z.size(); ++k) {
    const Vec2 u = biotSavart(v, Vec2(z[k].real(), z[k].imag()));
    w[k] = C(u.x(), -u.y());
  }
  return w;
}

std::vector<Vec2> vortexSelfVelocities(const Vortices& v) {
  const int m = v.size();
  std::vector<Vec2> u(static_cast<std::size_t>(m));
  if (m < kVortexFmmMin) {
    for (int i = 0; i < m; ++i) u[i] = biotSavart(v, v.gamma[i], i);
    return u;
  }
  const std::vector<C> z = points(v);
  std::vector<C> d(z.size());
  laplaceFmm(z, strengths(v), z, 0, {nullptr, d.data(), nullptr});
  for (int i = 0; i < m; ++i) u[i] = Vec2(d[i].imag(), d[i].real()) / kTwoPi;  // u - i v = -i Phi' / 2 pi
  return u;
}

}  // namespace kirchhoff::fluid
