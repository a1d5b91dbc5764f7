// Vortex groups of the cluster tree (docs/fluidbody.md (FB-61)): median halving into leaves, point P2M (FB-51),
// L2P with its derivative, target contractions and the source-point gradient of a far form.
#include "fluid/fast/VortexClusters.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "core/Error.hpp"

namespace kirchhoff::fluid {

using Complex = std::complex<double>;

VortexClusters::VortexClusters(const std::vector<Complex>& z, int leafSize) : z_(z), group_(z.size(), -1) {
  if (leafSize < 1) throw ConfigurationError("vortex clusters: leaf size must be >= 1");
  std::vector<int> index(z.size());
  std::iota(index.begin(), index.end(), 0);
  if (!z.empty()) split(index, 0, static_cast<int>(z.size()), leafSize);
}

void VortexClusters::split(std::vector<int>& index, int begin, int end, int leafSize) {
  if (end - begin > leafSize) {
    const int mid = halveAtMedian(z_, index, begin, end);
    split(index, begin, mid, leafSize);
    split(index, mid, end, leafSize);
    return;
  }
  // A leaf: the middle of the points' box, the largest distance to it (a point group gets a tiny radius).
  double x0 = std::numeric_limits<double>::max(), x1 = -x0, y0 = x0, y1 = -x0;
  for (int i = begin; i < end; ++i) {
    const Complex w = z_[static_cast<std::size_t>(index[i])];
    x0 = std::min(x0, w.real()), x1 = std::max(x1, w.real());
    y0 = std::min(y0, w.imag()), y1 = std::max(y1, w.imag());
  }
  Cluster c{Complex(0.5 * (x0 + x1), 0.5 * (y0 + y1)), 0.0};
  for (int i = begin; i < end; ++i) c.radius = std::max(c.radius, std::abs(z_[static_cast<std::size_t>(index[i])] - c.centre));
  c.radius += 1e-12 * (1.0 + std::abs(c.centre));
  members_.emplace_back(index.begin() + begin, index.begin() + end);
  for (int i = begin; i < end; ++i) group_[static_cast<std::size_t>(index[i])] = static_cast<int>(clusters_.size());
  clusters_.push_back(c);
}

std::vector<Complex> VortexClusters::scaled(int g) const {
  const Cluster& c = cluster(g);
  std::vector<Complex> s;
  for (int i : members(g)) s.push_back((z_[static_cast<std::size_t>(i)] - c.centre) / c.radius);
  return s;
}

Eigen::VectorXcd VortexClusters::multipole(int g, const std::vector<Complex>& q, int order) const {
  Eigen::VectorXcd a = Eigen::VectorXcd::Zero(order + 1);
  const std::vector<Complex> s = scaled(g);
  for (std::size_t j = 0; j < s.size(); ++j) {
    const Complex qj = q[static_cast<std::size_t>(members(g)[j])];
    Complex zk = qj;
    a[0] += qj;
    for (int k = 1; k <= order; ++k) a[k] -= (zk *= s[j]) / static_cast<double>(k);
  }
  return a;
}

Eigen::VectorXcd VortexClusters::contraction(int g, const std::vector<Complex>& w, int order) const {
  Eigen::VectorXcd c = Eigen::VectorXcd::Zero(order + 1);
  const std::vector<Complex> s = scaled(g);
  for (std::size_t j = 0; j < s.size(); ++j) {
    Complex zl = w[static_cast<std::size_t>(members(g)[j])];
    for (int l = 0; l <= order; ++l, zl *= s[j]) c[l] += zl;
  }
  return c;
}

void VortexClusters::evaluate(int g, const Eigen::VectorXcd& L, std::vector<Complex>* value,
                              std::vector<Complex>* derivative) const {
  // Horner in z = (z_i - c) / r for sum L_l z^l and sum l L_l z^(l-1) / r.
  const std::vector<Complex> s = scaled(g);
  const Eigen::Index p = L.size() - 1;
  const double r = cluster(g).radius;
  for (std::size_t j = 0; j < s.size(); ++j) {
    Complex v = L[p], d(0.0, 0.0);
    for (Eigen::Index l = p - 1; l >= 0; --l) {
      d = d * s[j] + v;
      v = v * s[j] + L[l];
    }
    const std::size_t i = static_cast<std::size_t>(members(g)[j]);
    if (value) (*value)[i] = v;
    if (derivative) (*derivative)[i] = d / r;
  }
}

void VortexClusters::addSourceDerivative(int g, const Eigen::VectorXcd& e, const std::vector<Complex>& q,
                                         std::vector<Complex>& out) const {
  // (FB-61): d a_k / d z_i = -q_i ((z_i - c)/r)^(k-1) / r for k >= 1 (a_0 does not move).
  const std::vector<Complex> s = scaled(g);
  const Eigen::Index p = e.size() - 1;
  const double r = cluster(g).radius;
  for (std::size_t j = 0; j < s.size(); ++j) {
    Complex h = e[p];  // Horner for sum_{k>=1} e_k s^(k-1)
    for (Eigen::Index k = p - 1; k >= 1; --k) h = h * s[j] + e[k];
    const std::size_t i = static_cast<std::size_t>(members(g)[j]);
    out[i] -= q[i] * h / r;
  }
}

}  // namespace kirchhoff::fluid
