// Constant-strength source panels (docs/fluidbody.md "Panel method"): self-blocks with the flux
// correction, closed-form inter-body blocks M_pq = Re(W'_q(m_p) nu_p), S_pq = phi_q(m_p) on SIMD packs,
// their pose derivatives from W'' and W', the referenced stream function at points, segment moments.
#include "fluid/discretization/PanelDiscretization.hpp"

#include <algorithm>
#include <cmath>

#include "core/Constants.hpp"
#include "core/Error.hpp"
#include "fluid/discretization/KernelMath.hpp"

namespace kirchhoff::fluid {


namespace {


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

/// Sums over the panels q0..q0+n-1 of body Q at z of W''_q s_q and W'_q s_q for the source densities
/// s = v[0..k-1] (each addressing body Q's n values), W''_q = (1/2 pi) tbar_q (1/(z - a_q) - 1/(z - b_q)).
constexpr int kMaxSums = 4;
struct PairSums {
  Complex d2[kMaxSums], d1[kMaxSums];
};

/// 1/(z - a_v) = conj(z - a_v) / |z - a_v|^2 for the vertices v = 0..n of body Q (v = n is v = 0).
inline void inverseDistances(const PanelGeometry& g, int q0, int n, double zx, double zy, double* wr,
                             double* wi) {
  const double* ax = g.ax.data() + q0;
  const double* ay = g.ay.data() + q0;
  for (int q = 0; q < n; q += kWidth) {
    const int c = std::min(kWidth, n - q);
    const Pack x = zx - kernel::loadPartial(ax + q, c, ax[n - 1]);
    const Pack y = zy - kernel::loadPartial(ay + q, c, ay[n - 1]);
    const Pack inv = 1.0 / (x * x + y * y);
    kernel::store(wr + q, x * inv);
    kernel::store(wi + q, -y * inv);
  }
  wr[n] = wr[0];
  wi[n] = wi[0];
}

/// The sums for K densities (K a compile-time constant, so the accumulators stay in registers).
template <int K>
inline void pairSumsK(const PanelGeometry& g, int q0, int n, const double* dWr, const double* dWi,
                      const double* const* v, const double* wr, const double* wi, PairSums& r) {
  Pack a2r[K] = {}, a2i[K] = {}, a1r[K] = {}, a1i[K] = {};
  const double* vs[K];
  for (int s = 0; s < K; ++s) vs[s] = v[s];
  for (int q = 0; q < n; q += kWidth) {
    const int c = std::min(kWidth, n - q);
    const Pack tr = kernel::loadPartial(g.tbarRe.data() + q0 + q, c, 1.0);
    const Pack ti = kernel::loadPartial(g.tbarIm.data() + q0 + q, c, 0.0);
    const Pack vr = kernel::loadPartial(dWr + q, c, 0.0), vi = kernel::loadPartial(dWi + q, c, 0.0);
    const Pack dr = kernel::load(wr + q) - kernel::load(wr + q + 1);
    const Pack di = kernel::load(wi + q) - kernel::load(wi + q + 1);
    const Pack d2r = kInvTwoPi * (tr * dr - ti * di), d2i = kInvTwoPi * (tr * di + ti * dr);
#pragma GCC unroll 4
    for (int s = 0; s < K; ++s) {
      const Pack sv = kernel::loadPartial(vs[s] + q, c, 0.0);
      a2r[s] += d2r * sv, a2i[s] += d2i * sv;
      a1r[s] += vr * sv, a1i[s] += vi * sv;
    }
  }
  for (int s = 0; s < K; ++s) {
    r.d2[s] = Complex(kernel::sum(a2r[s]), kernel::sum(a2i[s]));
    r.d1[s] = Complex(kernel::sum(a1r[s]), kernel::sum(a1i[s]));
  }
}

inline PairSums pairSums(const PanelGeometry& g, int q0, int n, double zx, double zy, const double* dWr,
                         const double* dWi, const double* const* v, int k, double* wr, double* wi) {
  inverseDistances(g, q0, n, zx, zy, wr, wi);
  PairSums r;
  switch (k) {
    case 1: pairSumsK<1>(g, q0, n, dWr, dWi, v, wr, wi, r); break;
    case 2: pairSumsK<2>(g, q0, n, dWr, dWi, v, wr, wi, r); break;
    case 3: pairSumsK<3>(g, q0, n, dWr, dWi, v, wr, wi, r); break;
    default: pairSumsK<kMaxSums>(g, q0, n, dWr, dWi, v, wr, wi, r); break;
  }
  return r;
}

}  // namespace

PanelDiscretization::PanelDiscretization(std::vector<Polygon> bodies, PanelCorrection correction,
                                         long cacheMax)
    : polygons_(std::move(bodies)), geometry_(polygons_), cacheMax_(cacheMax) {
  const int n = bodyCount();
  correction_.resize(n);
  for (int j = 0; j < n; ++j)
    correction_[j] = correction != PanelCorrection::Auto
                         ? correction
                         : (polygons_[j].smooth ? PanelCorrection::Flux : PanelCorrection::None);
  nodes_.resize(n);
  for (int j = 0; j < n; ++j) {
    BodyNodes& b = nodes_[j];
    for (int p = geometry_.offset[j]; p < geometry_.offset[j + 1]; ++p) {
      b.x.push_back(geometry_.mid[p]);
      b.normal.push_back(geometry_.normal[p]);
      b.weight.push_back(geometry_.length[p]);
    }
    for (const Vec2& v : polygons_[j].vertices) b.radius = std::max(b.radius, v.norm());
  }
  buildSelfBlocks();
  placed_.assign(n, true);  // the PanelGeometry constructor placed every body at the identity
}

void PanelDiscretization::buildSelfBlocks() {
  // Body frame = geometry at identity poses (set by the PanelGeometry constructor).
  const double ln2 = std::log(2.0);
  for (int j = 0; j < bodyCount(); ++j) {
    const int o = geometry_.offset[j], nj = geometry_.bodySize(j);
    Eigen::MatrixXd A = Eigen::MatrixXd::Zero(nj, nj), S(nj, nj);
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
          A(p, p) = 0.5 + ln2 / (4.0 * kPi) * (geometry_.turnStart[g] + geometry_.turnEnd[g]);
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
    }
    selfM_.push_back(std::move(A));
    selfS_.push_back(std::move(S));
  }
}

void PanelDiscretization::place(int j, const lie::Pose& g) const {
  const lie::Pose& now = geometry_.poses[j];
  if (placed_[j] && now.theta == g.theta && now.y == g.y) return;
  geometry_.placeBody(j, g);
  placed_[j] = true;
}

int PanelDiscretization::maxBodySize() const {
  int w = 0;
  for (int j = 0; j < bodyCount(); ++j) w = std::max(w, geometry_.bodySize(j));
  return w;
}

const PanelDiscretization::CachedRows* PanelDiscretization::cached(int P, const lie::Pose& gP, int first,
                                                                   int count, int Q,
                                                                   const lie::Pose& gQ) const {
  const auto it = cache_.find(static_cast<long>(P) * bodyCount() + Q);
  if (it == cache_.end()) return nullptr;
  const CachedRows& c = it->second;
  const bool same = c.first == first && c.count == count && c.gP.theta == gP.theta && c.gP.y == gP.y &&
                    c.gQ.theta == gQ.theta && c.gQ.y == gQ.y;
  return same ? &c : nullptr;
}

void PanelDiscretization::interaction(int P, const lie::Pose& gP, int first, int count, int Q,
                                      const lie::Pose& gQ, double* M, int ldM, double* S, int ldS) const {
  place(P, gP);
  place(Q, gQ);
  const int q0 = geometry_.offset[Q], n = geometry_.bodySize(Q);
  // The W' values go to this pair's cache slot while the cache holds at most cacheMax entries.
  const long key = static_cast<long>(P) * bodyCount() + Q;
  const long entries = static_cast<long>(count) * n;
  CachedRows* keep = nullptr;
  auto it = cache_.find(key);
  const long held = it == cache_.end() ? 0 : static_cast<long>(it->second.dWr.size());
  if (cachedEntries_ - held + entries <= cacheMax_) {
    keep = &cache_[key];
    keep->P = P, keep->Q = Q, keep->first = first, keep->count = count, keep->gP = gP, keep->gQ = gQ;
    keep->dWr.resize(static_cast<std::size_t>(entries));
    keep->dWi.resize(static_cast<std::size_t>(entries));
    cachedEntries_ += entries - held;
  } else if (it != cache_.end()) {
    cachedEntries_ -= held;
    cache_.erase(it);
  }
  const int w = scratchLength(maxBodySize());
  scratch_.resize(7 * static_cast<std::size_t>(w), 1.0);
  double *dx = scratch_.data(), *dy = dx + w, *lr = dy + w, *dWr = lr + w, *dWi = dWr + w;
  for (int r = 0; r < count; ++r) {
    const int p = geometry_.offset[P] + first + r;
    const Complex z = geometry_.m[p], nu = geometry_.nu[p];
    double* cr = keep ? keep->dWr.data() + static_cast<std::size_t>(r) * n : dWr;
    double* ci = keep ? keep->dWi.data() + static_cast<std::size_t>(r) * n : dWi;
    vertexTerms(geometry_, q0, n, z.real(), z.imag(), dx, dy, lr);
    panelTerms(geometry_, q0, n, dx, dy, lr, nu, S ? S + static_cast<std::size_t>(r) * ldS : nullptr, cr, ci,
               M ? M + static_cast<std::size_t>(r) * ldM : nullptr);
  }
}

Eigen::Vector3d PanelDiscretization::interactionGradient(int P, const lie::Pose& gP, int first, int count,
                                                         int Q, const lie::Pose& gQ,
                                                         const PairWeights& wts) const {
  // Weights u on the target rows, densities v on Q. Over body P's pose (z = m_p, arm = i (z - y_P)):
  //   dM/dy = (Re, -Im)(W'' nu),  dM/dtheta = Re(W'' nu arm) + Re(i W' nu),
  //   dS/dy = (Re, -Im) W',       dS/dtheta = Re(W' arm);
  // per row, the sums over q of W'' v and W' v for each distinct density v give all of them.
  place(P, gP);
  place(Q, gQ);
  const double* v[kMaxSums];
  int k = 0;
  auto slot = [&](const double* d) {
    for (int s = 0; s < k; ++s)
      if (v[s] == d) return s;
    if (k == kMaxSums) throw ConfigurationError("panel gradient: more than 4 distinct densities");
    v[k] = d;
    return k++;
  };
  std::vector<int> mSlot, sSlot;
  for (const auto& uv : wts.normal) mSlot.push_back(slot(uv.second));
  for (const auto& uv : wts.potential) sSlot.push_back(slot(uv.second));
  const int q0 = geometry_.offset[Q], n = geometry_.bodySize(Q);
  const CachedRows* c = cached(P, gP, first, count, Q, gQ);
  const int w = scratchLength(maxBodySize());
  scratch_.resize(7 * static_cast<std::size_t>(w), 1.0);
  double *dx = scratch_.data(), *dy = dx + w, *lr = dy + w, *dWr = lr + w, *dWi = dWr + w, *wr = dWi + w,
         *wi = wr + w;
  Eigen::Vector3d g = Eigen::Vector3d::Zero();
  const Complex centre = geometry_.centre[P];
  for (int r = 0; r < count; ++r) {
    const int p = geometry_.offset[P] + first + r;
    const Complex z = geometry_.m[p], nu = geometry_.nu[p], arm = kI * (z - centre);
    const double* cr = dWr;
    const double* ci = dWi;
    if (c) {
      cr = c->dWr.data() + static_cast<std::size_t>(r) * n;
      ci = c->dWi.data() + static_cast<std::size_t>(r) * n;
    } else {
      vertexTerms(geometry_, q0, n, z.real(), z.imag(), dx, dy, lr);
      panelTerms(geometry_, q0, n, dx, dy, lr, nu, nullptr, dWr, dWi, nullptr);
    }
    const PairSums t = pairSums(geometry_, q0, n, z.real(), z.imag(), cr, ci, v, k, wr, wi);
    Complex c1(0.0, 0.0), wdW(0.0, 0.0), sdW(0.0, 0.0);
    for (std::size_t a = 0; a < wts.normal.size(); ++a) {
      const double u = wts.normal[a].first[r];
      c1 += u * t.d2[mSlot[a]];
      wdW += u * t.d1[mSlot[a]];
    }
    c1 *= nu;
    for (std::size_t a = 0; a < wts.potential.size(); ++a) sdW += wts.potential[a].first[r] * t.d1[sSlot[a]];
    g[1] += c1.real() + sdW.real();
    g[2] += -c1.imag() - sdW.imag();
    g[0] += (c1 * arm).real() + (kI * wdW * nu).real() + (sdW * arm).real();
  }
  return g;
}

void PanelDiscretization::pointField(int Q, const lie::Pose& gQ, const Complex& z, int first, int count,
                                     double* psi, Complex* dOmega, double* phi) const {
  place(Q, gQ);
  const int o = geometry_.offset[Q];
  const int q0 = o + first, q1 = q0 + count;
  const Complex w0 = z - geometry_.centre[Q];
  // alpha_v = (z - a_v)/(z - c) and its principal log, shared by the two panels of vertex v.
  std::vector<Complex> alpha(static_cast<std::size_t>(count)), logAlpha(static_cast<std::size_t>(count));
  for (int q = q0; q < q1; ++q) {
    alpha[q - q0] = (z - geometry_.seg[q].a) / w0;
    logAlpha[q - q0] = std::log(alpha[q - q0]);
  }
  for (int q = q0; q < q1; ++q) {
    const int nq = geometry_.next[q];
    Complex aB, lB;
    if (nq >= q0 && nq < q1) {
      aB = alpha[nq - q0];
      lB = logAlpha[nq - q0];
    } else {
      aB = (z - geometry_.seg[q].b) / w0;
      lB = std::log(aB);
    }
    const panel::StreamTerms t = panel::streamTerms(geometry_.seg[q], w0, alpha[q - q0], logAlpha[q - q0], aB, lB);
    if (psi) psi[q - q0] = -t.omega.imag();
    if (dOmega) dOmega[q - q0] = t.dOmega;
    if (phi) phi[q - q0] = panel::potentialTerms(geometry_.seg[q], z).phi;
  }
}

Eigen::MatrixXcd PanelDiscretization::multipoleMoments(int j, int order) const {
  // Unit density on the body-frame segment [a, b] (length l): (1/2 pi) int log(Z - zeta) ds =
  //   l/(2 pi) log Z - sum_k (1/(2 pi k)) int zeta^k ds Z^-k,  int zeta^k ds = l/(k+1) sum_i a^i b^(k-i)
  // (the sum form has no cancellation for short panels).
  const int o = geometry_.offset[j], nj = geometry_.bodySize(j);
  Eigen::MatrixXcd A(order + 1, nj);
  for (int q = 0; q < nj; ++q) {
    const Complex a = lie::toComplex(geometry_.start[o + q]);
    const Complex b = lie::toComplex(geometry_.start[geometry_.next[o + q]]);
    const double l = geometry_.length[o + q];
    A(0, q) = l * kInvTwoPi;
    Complex s(1.0, 0.0), ak(1.0, 0.0);  // s_k = sum_{i<=k} a^i b^(k-i), ak = a^k
    for (int k = 1; k <= order; ++k) {
      ak *= a;
      s = b * s + ak;
      A(k, q) = -kInvTwoPi * l * s / (static_cast<double>(k) * (k + 1));
    }
  }
  return A;
}

}  // namespace kirchhoff::fluid
