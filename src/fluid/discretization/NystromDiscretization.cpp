// Nystrom discretization of smooth bodies (docs/fluidbody.md "High-order boundary integrals"):
// self-blocks (FB-35), (FB-36), point fields upsampled by trigonometric interpolation near the curve
// (FB-38); the inter-body blocks are PointSourceDiscretization's (FB-37).
#include "fluid/discretization/NystromDiscretization.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/Constants.hpp"
#include "core/Error.hpp"

namespace kirchhoff::fluid {

namespace {


/// Kress weights R_m, m = 0..N-1 (FB-36): int log(4 sin^2((t - s)/2)) f(s) ds ~ sum_q R_{p-q} f(s_q) at t = s_p,
/// exact for trigonometric polynomials of degree N/2: R(t) = -(4 pi/N) sum_{k<N/2} cos(kt)/k - (4 pi/N^2) cos(N t/2).
std::vector<double> kressWeights(int N) {
  std::vector<double> R(static_cast<std::size_t>(N), 0.0);
  for (int m = 0; m < N; ++m) {
    double sum = 0.0;
    for (int k = 1; k < N / 2; ++k) sum += std::cos(2.0 * kPi * static_cast<double>((static_cast<long>(k) * m) % N) / N) / k;
    R[m] = -4.0 * kPi / N * sum - 4.0 * kPi / (static_cast<double>(N) * N) * (m % 2 == 0 ? 1.0 : -1.0);
  }
  return R;
}

}  // namespace

NystromDiscretization::NystromDiscretization(std::vector<SmoothCurve> curves, const std::vector<int>& nodes)
    : curves_(std::move(curves)) {
  const int n = static_cast<int>(curves_.size());
  resize(n);
  if (static_cast<int>(nodes.size()) != n)
    throw ConfigurationError("nystrom: " + std::to_string(nodes.size()) + " node counts for " +
                             std::to_string(n) + " bodies");
  speed_.resize(n), maxSpeed_.assign(n, 0.0), fine_.resize(n);
  for (int j = 0; j < n; ++j) {
    const int N = nodes[j];
    if (N < 8 || N % 2 != 0) {
      std::ostringstream os;
      os << "nystrom: body " << j << " (" << curves_[j].kind << ") needs an even number of nodes >= 8, got " << N;
      throw ConfigurationError(os.str());
    }
    const SmoothCurve& c = curves_[j];
    BodyNodes& b = nodes_[j];
    std::vector<double> kappa(N);
    for (int q = 0; q < N; ++q) {
      Vec2 x, d1, d2;
      c.eval(2.0 * kPi * q / N, x, d1, d2);
      const double v = d1.norm();
      b.x.push_back(x);
      b.normal.emplace_back(d1.y() / v, -d1.x() / v);  // tangent turned clockwise: outward (FB-34)
      b.weight.push_back(2.0 * kPi / N * v);
      speed_[j].push_back(v);
      maxSpeed_[j] = std::max(maxSpeed_[j], v);
      kappa[q] = lie::cross(d1, d2) / (v * v * v);
    }
    const int dense = 16 * N + 64;
    for (int k = 0; k < dense; ++k) b.radius = std::max(b.radius, c.point(2.0 * kPi * k / dense).norm());
    b.radius *= 1.0 + 1e-6;
    // (FB-35): M_pq = (w_q / 2 pi) <x_p - x_q, n_p> / |x_p - x_q|^2, M_pp = 1/2 + w_p kappa_p / (4 pi);
    // (FB-36): S_pq = (|x'_q| / 2 pi) (R_{p-q} / 2 + (2 pi / N) L_pq).
    const std::vector<double> R = kressWeights(N);
    Eigen::MatrixXd M(N, N), S(N, N);
    for (int p = 0; p < N; ++p) {
      for (int q = 0; q < N; ++q) {
        const double wq = b.weight[q], vq = speed_[j][q];
        double L;
        if (p == q) {
          M(p, p) = 0.5 + b.weight[p] * kappa[p] / (4.0 * kPi);
          L = std::log(speed_[j][p]);
        } else {
          const Vec2 d = b.x[p] - b.x[q];
          const double r2 = d.squaredNorm();
          M(p, q) = wq * kInvTwoPi * d.dot(b.normal[p]) / r2;
          const double sh = std::sin(kPi * (p - q) / N);
          L = 0.5 * std::log(r2) - 0.5 * std::log(4.0 * sh * sh);
        }
        const int m = ((p - q) % N + N) % N;
        S(p, q) = vq * kInvTwoPi * (0.5 * R[m] + 2.0 * kPi / N * L);
      }
    }
    selfM_.push_back(std::move(M));
    selfS_.push_back(std::move(S));
  }
}

double NystromDiscretization::distanceToCurve(int j, const Vec2& Z) const {
  const BodyNodes& b = nodes_[j];
  const int N = b.size();
  int best = 0;
  double d2 = (b.x[0] - Z).squaredNorm();
  for (int q = 1; q < N; ++q) {
    const double e = (b.x[q] - Z).squaredNorm();
    if (e < d2) d2 = e, best = q;
  }
  double dist = std::sqrt(d2);
  // Newton on <x(s) - Z, x'(s)> = 0 from the nearest node, steps limited to one node spacing.
  const double h = 2.0 * kPi / N;
  double s = h * best;
  for (int it = 0; it < 30; ++it) {
    Vec2 x, t, a;
    curves_[j].eval(s, x, t, a);
    const double f = (x - Z).dot(t), fp = t.squaredNorm() + (x - Z).dot(a);
    if (!(fp > 0.0)) break;
    const double ds = std::clamp(-f / fp, -h, h);
    s += ds;
    if (std::abs(ds) < 1e-15) break;
  }
  return std::min(dist, (curves_[j].point(s) - Z).norm());
}

int NystromDiscretization::upsamplingLevel(int j, const Vec2& Z) const {
  const int N = nodes_[j].size();
  const double h0 = maxSpeed_[j] * 2.0 * kPi / N;
  // The nearest node is within h0 / 2 of the nearest curve point: far targets skip the Newton search.
  double nodeDist = (nodes_[j].x[0] - Z).norm();
  for (int q = 1; q < N; ++q) nodeDist = std::min(nodeDist, (nodes_[j].x[q] - Z).norm());
  if (nodeDist - 0.5 * h0 >= kNearFactor * h0) return 0;
  const double d = distanceToCurve(j, Z);
  int level = 0;
  while (h0 / static_cast<double>(1L << level) > d / kNearFactor &&
         static_cast<long>(N) * (static_cast<long>(N) << (level + 1)) <= kMaxFine)
    ++level;
  return level;
}

const NystromDiscretization::Fine& NystromDiscretization::fine(int j, int level) const {
  auto it = fine_[j].find(level);
  if (it != fine_[j].end()) return it->second;
  const int N = nodes_[j].size(), Nf = N << level, step = 1 << level;
  Fine f;
  f.size = Nf;
  for (int k = 0; k < Nf; ++k) f.x.push_back(lie::toComplex(curves_[j].point(2.0 * kPi * k / Nf)));
  // D_N(t) = sin(N t / 2) / (N tan(t / 2)) at t = 2 pi m / N_f: the periodic interpolant of a unit value
  // at s = 0 (Nyquist mode split evenly), exactly 0 on the other coarse nodes.
  std::vector<double> D(static_cast<std::size_t>(Nf));
  for (int m = 0; m < Nf; ++m) {
    const double t = 2.0 * kPi * m / Nf;
    D[m] = m == 0 ? 1.0 : (m % step == 0 ? 0.0 : std::sin(0.5 * N * t) / (N * std::tan(0.5 * t)));
  }
  f.T.resize(N, Nf);
  for (int q = 0; q < N; ++q) {
    const double c = speed_[j][q] * 2.0 * kPi / Nf;
    for (int k = 0; k < Nf; ++k) f.T(q, k) = c * D[static_cast<std::size_t>(((k - q * step) % Nf + Nf) % Nf)];
  }
  return fine_[j].emplace(level, std::move(f)).first->second;
}

void NystromDiscretization::pointField(int Q, const lie::Pose& gQ, const Complex& z, int first, int count,
                                       double* psi, Complex* dOmega, double* phi) const {
  // Body frame: Z = R^T (z - y), Omega_q(Z) = c_q / (2 pi) log((Z - x_q) / Z) (branch point at the
  // centroid, (FB-19)); d/dz = e^{-i theta} d/dZ. Near the curve the charges c_q = w_q of the nodes are
  // spread on N 2^l fine nodes by trigonometric interpolation of sigma |x'| (FB-38).
  const Vec2 Zv = gQ.applyInverse(lie::toVec(z));
  const Complex Z = lie::toComplex(Zv), rot = std::polar(1.0, -gQ.theta), invZ = inverse(Z);
  const int level = upsamplingLevel(Q, Zv);
  if (level == 0) {
    pointSources(Q, Z, first, count, psi, dOmega, phi);
    if (dOmega)
      for (int k = 0; k < count; ++k) dOmega[k] *= rot;
    return;
  }
  const Fine& f = fine(Q, level);
  Eigen::MatrixXd K(f.size, 4);
  for (int k = 0; k < f.size; ++k) {
    const Complex d = Z - f.x[k], dO = kInvTwoPi * (inverse(d) - invZ);
    K(k, 0) = -kInvTwoPi * std::arg(d * std::conj(Z));
    K(k, 1) = dO.real();
    K(k, 2) = dO.imag();
    K(k, 3) = 0.5 * kInvTwoPi * std::log(std::norm(d));
  }
  const Eigen::MatrixXd out = f.T.middleRows(first, count) * K;
  for (int k = 0; k < count; ++k) {
    if (psi) psi[k] = out(k, 0);
    if (dOmega) dOmega[k] = Complex(out(k, 1), out(k, 2)) * rot;
    if (phi) phi[k] = out(k, 3);
  }
}

}  // namespace kirchhoff::fluid
