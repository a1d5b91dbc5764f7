// The 2D Laplace FMM of docs/fluidbody.md (FB-50)-(FB-54) (Greengard and Rokhlin 1987): a uniform
// quadtree, P2M / M2M up, M2L over the interaction lists, L2L down, L2P plus direct near pairs.
#include "fluid/fast/LaplaceFmm.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "core/Error.hpp"

namespace kirchhoff::fluid {

namespace {

using C = std::complex<double>;

/// Occupied boxes of one level: box key -> position in the coefficient arrays.
struct Level {
  std::unordered_map<long, int> index;
  std::vector<long> keys;
  std::vector<std::vector<C>> coefficients;  // p + 1 per box (multipole or local)
  int add(long key, int terms) {
    auto it = index.find(key);
    if (it != index.end()) return it->second;
    const int k = static_cast<int>(keys.size());
    index.emplace(key, k);
    keys.push_back(key);
    coefficients.emplace_back(static_cast<std::size_t>(terms), C(0.0, 0.0));
    return k;
  }
  const std::vector<C>* find(long key) const {
    auto it = index.find(key);
    return it == index.end() ? nullptr : &coefficients[static_cast<std::size_t>(it->second)];
  }
};

class Tree {
 public:
  Tree(const std::vector<C>& z, const std::vector<C>& t, const FmmOptions& o) : p_(o.order) {
    double x0 = 1e300, x1 = -1e300, y0 = 1e300, y1 = -1e300;
    for (const auto* set : {&z, &t})
      for (const C& w : *set) {
        x0 = std::min(x0, w.real()), x1 = std::max(x1, w.real());
        y0 = std::min(y0, w.imag()), y1 = std::max(y1, w.imag());
      }
    size_ = std::max({x1 - x0, y1 - y0, 1e-300}) * (1.0 + 1e-9);
    origin_ = C(0.5 * (x0 + x1) - 0.5 * size_, 0.5 * (y0 + y1) - 0.5 * size_);
    depth_ = 0;
    while (depth_ < 14 && (static_cast<double>(z.size()) / std::pow(4.0, depth_)) > o.leafSize) ++depth_;
    binom_.assign(static_cast<std::size_t>((2 * p_ + 2) * (2 * p_ + 2)), 0.0);
    for (int n = 0; n <= 2 * p_ + 1; ++n) {
      binomial(n, 0) = 1.0;
      for (int k = 1; k <= n; ++k) binomial(n, k) = binomial(n - 1, k - 1) + (k < n ? binomial(n - 1, k) : 0.0);
    }
  }

  int depth() const { return depth_; }
  int order() const { return p_; }
  int side(int level) const { return 1 << level; }
  /// Box (ix, iy) of a point at `level`, and its key ix * side + iy.
  void box(const C& w, int level, int& ix, int& iy) const {
    const int s = side(level);
    ix = std::clamp(static_cast<int>((w.real() - origin_.real()) / size_ * s), 0, s - 1);
    iy = std::clamp(static_cast<int>((w.imag() - origin_.imag()) / size_ * s), 0, s - 1);
  }
  long key(int ix, int iy, int level) const { return static_cast<long>(ix) * side(level) + iy; }
  C centre(long key, int level) const {
    const int s = side(level);
    const double h = size_ / s;
    return origin_ + C((static_cast<double>(key / s) + 0.5) * h, (static_cast<double>(key % s) + 0.5) * h);
  }
  double& binomial(int n, int k) { return binom_[static_cast<std::size_t>(n * (2 * p_ + 2) + k)]; }
  double binomial(int n, int k) const { return binom_[static_cast<std::size_t>(n * (2 * p_ + 2) + k)]; }

 private:
  int p_;
  int depth_ = 0;
  double size_ = 1.0;
  C origin_;
  std::vector<double> binom_;
};

/// (FB-51) P2M: a_0 = sum q, a_k = -sum q (z - c)^k / k.
void sourceToMultipole(const C& z, const C& q, const C& c, std::vector<C>& a) {
  a[0] += q;
  const C d = z - c;
  C dk = q;
  for (std::size_t k = 1; k < a.size(); ++k) {
    dk *= d;
    a[k] -= dk / static_cast<double>(k);
  }
}

/// (FB-52) M2M from a child centre to its parent's, z0 = c_child - c_parent.
void multipoleToMultipole(const Tree& t, const std::vector<C>& a, const C& z0, std::vector<C>& b) {
  const int p = t.order();
  std::vector<C> pw(static_cast<std::size_t>(p + 1));
  pw[0] = 1.0;
  for (int k = 1; k <= p; ++k) pw[k] = pw[k - 1] * z0;
  b[0] += a[0];
  for (int l = 1; l <= p; ++l) {
    C s = -a[0] * pw[l] / static_cast<double>(l);
    for (int k = 1; k <= l; ++k) s += a[k] * t.binomial(l - 1, k - 1) * pw[l - k];
    b[l] += s;
  }
}

/// (FB-53) M2L: the multipole at c_s as a local expansion about c_t, z0 = c_s - c_t.
void multipoleToLocal(const Tree& t, const std::vector<C>& a, const C& z0, std::vector<C>& b) {
  const int p = t.order();
  const C inv = 1.0 / z0;
  std::vector<C> ak(static_cast<std::size_t>(p + 1));  // a_k (-1)^k / z0^k
  C ik(1.0, 0.0);
  for (int k = 1; k <= p; ++k) {
    ik *= -inv;
    ak[k] = a[k] * ik;
  }
  C b0 = a[0] * std::log(-z0);
  for (int k = 1; k <= p; ++k) b0 += ak[k];
  b[0] += b0;
  C il(1.0, 0.0);
  for (int l = 1; l <= p; ++l) {
    il *= inv;
    C s = -a[0] / static_cast<double>(l);
    for (int k = 1; k <= p; ++k) s += ak[k] * t.binomial(l + k - 1, k - 1);
    b[l] += s * il;
  }
}

/// (FB-54) L2L from a parent centre to a child's, d = c_child - c_parent.
void localToLocal(const Tree& t, const std::vector<C>& b, const C& d, std::vector<C>& c) {
  const int p = t.order();
  std::vector<C> pw(static_cast<std::size_t>(p + 1));
  pw[0] = 1.0;
  for (int k = 1; k <= p; ++k) pw[k] = pw[k - 1] * d;
  for (int l = 0; l <= p; ++l) {
    C s(0.0, 0.0);
    for (int k = l; k <= p; ++k) s += b[k] * t.binomial(k, l) * pw[k - l];
    c[l] += s;
  }
}

/// Accumulators of one target.
struct Sums {
  double phi = 0.0;
  C d1 = 0.0, d2 = 0.0;
  void store(const FmmOutputs& o, std::size_t k) const {
    if (o.phi) o.phi[k] = phi;
    if (o.dPhi) o.dPhi[k] = d1;
    if (o.d2Phi) o.d2Phi[k] = d2;
  }
};

void directPair(const C& t, const C& z, const C& q, const FmmOutputs& o, Sums& s) {
  const C d = t - z, r = q / d;
  if (o.phi) s.phi += q.real() * std::log(std::abs(d)) - q.imag() * std::arg(d);
  s.d1 += r;
  s.d2 -= r / d;
}

}  // namespace

void laplaceDirect(const std::vector<C>& z, const std::vector<C>& q, const std::vector<C>& targets,
                   int selfOffset, const FmmOutputs& out) {
  for (std::size_t k = 0; k < targets.size(); ++k) {
    Sums s;
    const long self = selfOffset < 0 ? -1 : static_cast<long>(k) + selfOffset;
    for (std::size_t j = 0; j < z.size(); ++j)
      if (static_cast<long>(j) != self) directPair(targets[k], z[j], q[j], out, s);
    s.store(out, k);
  }
}

void laplaceFmm(const std::vector<C>& z, const std::vector<C>& q, const std::vector<C>& targets,
                int selfOffset, const FmmOutputs& out, const FmmOptions& options) {
  if (z.size() != q.size()) throw NumericalError("laplaceFmm: as many strengths as sources needed");
  if (out.phi)
    for (const C& w : q)
      if (w.imag() != 0.0) throw NumericalError("laplaceFmm: the potential phi needs real strengths");
  if (selfOffset >= 0 && targets.size() + static_cast<std::size_t>(selfOffset) > z.size())
    throw NumericalError("laplaceFmm: self targets must be a range of the sources");
  if (options.order < 1 || options.leafSize < 1) throw NumericalError("laplaceFmm: order and leaf size >= 1");
  if (z.empty() || targets.empty()) {
    for (std::size_t k = 0; k < targets.size(); ++k) Sums().store(out, k);
    return;
  }
  const Tree tree(z, targets, options);
  const int L = tree.depth(), terms = tree.order() + 1;
  if (L < 2) {  // no well-separated boxes: every pair is near
    laplaceDirect(z, q, targets, selfOffset, out);
    return;
  }
  // Leaves: sources and targets per leaf box.
  std::unordered_map<long, std::vector<int>> sourcesIn, targetsIn;
  for (std::size_t j = 0; j < z.size(); ++j) {
    int ix, iy;
    tree.box(z[j], L, ix, iy);
    sourcesIn[tree.key(ix, iy, L)].push_back(static_cast<int>(j));
  }
  for (std::size_t k = 0; k < targets.size(); ++k) {
    int ix, iy;
    tree.box(targets[k], L, ix, iy);
    targetsIn[tree.key(ix, iy, L)].push_back(static_cast<int>(k));
  }
  // Upward pass: multipoles of every occupied source box, levels L .. 2.
  std::vector<Level> up(static_cast<std::size_t>(L + 1));
  for (const auto& [key, list] : sourcesIn) {
    const int b = up[L].add(key, terms);
    const C c = tree.centre(key, L);
    for (int j : list) sourceToMultipole(z[j], q[j], c, up[L].coefficients[b]);
  }
  for (int l = L; l > 2; --l)
    for (std::size_t b = 0; b < up[l].keys.size(); ++b) {
      const long key = up[l].keys[b];
      const int s = tree.side(l);
      const long parent = tree.key(static_cast<int>(key / s) / 2, static_cast<int>(key % s) / 2, l - 1);
      const int pb = up[l - 1].add(parent, terms);
      multipoleToMultipole(tree, up[l].coefficients[b], tree.centre(key, l) - tree.centre(parent, l - 1),
                           up[l - 1].coefficients[pb]);
    }
  // Downward pass: locals of the target boxes, M2L over the interaction lists, then L2L.
  std::vector<Level> down(static_cast<std::size_t>(L + 1));
  for (const auto& kv : targetsIn) {
    long key = kv.first;
    for (int l = L; l >= 2; --l) {
      if (down[l].find(key)) break;
      down[l].add(key, terms);
      const int s = tree.side(l);
      key = tree.key(static_cast<int>(key / s) / 2, static_cast<int>(key % s) / 2, l - 1);
    }
  }
  for (int l = 2; l <= L; ++l) {
    const int s = tree.side(l);
    for (std::size_t b = 0; b < down[l].keys.size(); ++b) {
      const long key = down[l].keys[b];
      const int ix = static_cast<int>(key / s), iy = static_cast<int>(key % s);
      const C c = tree.centre(key, l);
      std::vector<C>& loc = down[l].coefficients[b];
      if (l > 2) {
        const long parent = tree.key(ix / 2, iy / 2, l - 1);
        localToLocal(tree, *down[l - 1].find(parent), c - tree.centre(parent, l - 1), loc);
      }
      // Children of the parent's neighbours that are not neighbours of this box.
      const int px = ix / 2, py = iy / 2;
      for (int jx = 2 * px - 2; jx <= 2 * px + 3; ++jx)
        for (int jy = 2 * py - 2; jy <= 2 * py + 3; ++jy) {
          if (jx < 0 || jy < 0 || jx >= s || jy >= s) continue;
          if (std::abs(jx - ix) <= 1 && std::abs(jy - iy) <= 1) continue;
          const long sk = tree.key(jx, jy, l);
          if (const std::vector<C>* a = up[l].find(sk)) multipoleToLocal(tree, *a, tree.centre(sk, l) - c, loc);
        }
    }
  }
  // Leaves: L2P and the near pairs (the same and the neighbouring leaf boxes).
  const int s = tree.side(L);
  for (const auto& [key, list] : targetsIn) {
    const std::vector<C>& loc = *down[L].find(key);
    const C c = tree.centre(key, L);
    const int ix = static_cast<int>(key / s), iy = static_cast<int>(key % s);
    for (int k : list) {
      const long self = selfOffset < 0 ? -1 : static_cast<long>(k) + selfOffset;
      const C w = targets[k] - c;
      C f = loc[static_cast<std::size_t>(terms - 1)], g(0.0, 0.0), h(0.0, 0.0);
      for (int l = terms - 2; l >= 0; --l) {  // Horner: f = sum b_l w^l, g = f', h = f''
        h = h * w + 2.0 * g;
        g = g * w + f;
        f = f * w + loc[static_cast<std::size_t>(l)];
      }
      Sums sk;
      sk.phi = f.real();
      sk.d1 = g;
      sk.d2 = h;
      for (int jx = ix - 1; jx <= ix + 1; ++jx)
        for (int jy = iy - 1; jy <= iy + 1; ++jy) {
          if (jx < 0 || jy < 0 || jx >= s || jy >= s) continue;
          auto it = sourcesIn.find(tree.key(jx, jy, L));
          if (it == sourcesIn.end()) continue;
          for (int j : it->second)
            if (j != self) directPair(targets[k], z[j], q[j], out, sk);
        }
      sk.store(out, k);
    }
  }
}

}  // namespace kirchhoff::fluid
