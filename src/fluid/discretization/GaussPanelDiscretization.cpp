// Graded composite Gauss-Legendre panels (docs/fluidbody.md (FB-40)): Nystrom entries of the adjoint
// double layer on each smooth piece, product integration of the interpolated density (graded sub-rules)
// for the log kernel on self and near panels and for both kernels across corners, near point fields.
#include "fluid/discretization/GaussPanelDiscretization.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/Constants.hpp"
#include "core/Error.hpp"
#include "integrators/GaussLegendre.hpp"

namespace kirchhoff::fluid {

namespace {

/// Half-width (in u) of the innermost interval of a self panel, integrated in closed form: error ~ g^2 log g.
constexpr double kGap = 1e-9;

}  // namespace

GaussPanelDiscretization::GaussPanelDiscretization(std::vector<PiecewiseCurve> curves,
                                                   const GaussPanelOptions& options,
                                                   std::vector<std::vector<std::array<int, 2>>> endLevels)
    : curves_(std::move(curves)), options_(options) {
  if (options_.order < 2 || options_.order > 64 || !(options_.maxPanel > 0.0) || options_.levels < 0 ||
      options_.levels > 60 || !(options_.ratio >= 1.5 && options_.ratio <= 16.0))
    throw ConfigurationError("gauss panels: order in [2, 64], maxPanel > 0, levels in [0, 60], ratio in [1.5, 16]");
  const int n = static_cast<int>(curves_.size()), p = options_.order;
  integrators::gaussLegendreRule(p, gl_, glw_);
  bary_.resize(p);
  for (int k = 0; k < p; ++k) bary_[k] = (k % 2 ? -1.0 : 1.0) * std::sqrt((1.0 - gl_[k] * gl_[k]) * glw_[k]);
  resize(n);
  panels_.resize(n);
  for (int j = 0; j < n; ++j) {
    BodyNodes& b = nodes_[j];
    std::vector<double> kappa;
    for (int k = 0; k < static_cast<int>(curves_[j].pieces.size()); ++k) {
      const CurvePiece& c = curves_[j].pieces[k];
      // Uniform panels, then the end panels halved `levels` times toward both ends of the piece.
      const int m = uniformPanels(c.length(), options_.maxPanel);
      // Breakpoints as (distance from the nearer end, which end): exact down to 2^-60.
      std::vector<std::pair<double, bool>> br;
      for (int i = 0; i <= m; ++i)
        br.emplace_back(2 * i <= m ? static_cast<double>(i) / m : static_cast<double>(m - i) / m, 2 * i > m);
      const int lv[2] = {endLevels.empty() ? options_.levels : endLevels[j][k][0],
                         endLevels.empty() ? options_.levels : endLevels[j][k][1]};
      for (int e = 0; e < 2; ++e)
        for (int l = 1; l <= lv[e]; ++l) {
          const double h = options_.ratio == 2.0 ? std::ldexp(1.0 / m, -l) : std::pow(options_.ratio, -l) / m;
          br.emplace_back(h, e == 1);
        }
      auto tOf = [](const std::pair<double, bool>& e) { return e.second ? 1.0 - e.first : e.first; };
      auto before = [&](const std::pair<double, bool>& x, const std::pair<double, bool>& y) {
        if (x.second != y.second) return !x.second;  // start half first
        return x.second ? x.first > y.first : x.first < y.first;
      };
      std::sort(br.begin(), br.end(), before);
      br.erase(std::unique(br.begin(), br.end(), [&](const auto& x, const auto& y) { return tOf(x) == tOf(y); }),
               br.end());
      for (std::size_t i = 0; i + 1 < br.size(); ++i) {
        Panel P;
        P.piece = k, P.first = b.size();
        P.fromEnd = br[i].second && br[i + 1].second;
        P.t0 = P.fromEnd ? br[i].first : tOf(br[i]);
        P.t1 = P.fromEnd ? br[i + 1].first : tOf(br[i + 1]);
        Vec2 lo(1e300, 1e300), hi(-1e300, -1e300);
        for (int q = 0; q < p; ++q) {
          Vec2 y, dy;
          evalPanel(j, P, gl_[q], y, dy);
          const double v = dy.norm();
          b.x.push_back(y);
          b.normal.emplace_back(dy.y() / v, -dy.x() / v);
          b.weight.push_back(glw_[q] * v);
          Vec2 x, d1, d2;
          c.evalNear(P.t0 + 0.5 * (P.t1 - P.t0) * (gl_[q] + 1.0), P.fromEnd, x, d1, d2);
          kappa.push_back(lie::cross(d1, d2) / std::pow(d1.norm(), 3));
        }
        for (int s = 0; s <= 16; ++s) {
          Vec2 y, dy;
          evalPanel(j, P, -1.0 + s / 8.0, y, dy);
          lo = lo.cwiseMin(y), hi = hi.cwiseMax(y);
        }
        P.centre = 0.5 * (lo + hi);
        P.reach = 0.5 * (hi - lo).norm() * (1.0 + 1e-6) + 1e-300;
        P.length = c.length() * std::abs(P.t1 - P.t0);
        panels_[j].push_back(P);
        b.radius = std::max(b.radius, P.centre.norm() + P.reach);
      }
    }
    // Self-blocks: Nystrom entries, replaced by product integration for near panels (FB-40).
    const int N = b.size();
    Eigen::MatrixXd M(N, N), S(N, N);
    std::vector<double> l(p), un, uw;
    for (int r = 0; r < N; ++r) {
      const Vec2 X = b.x[r], nX = b.normal[r];
      const int own = static_cast<int>(std::upper_bound(panels_[j].begin(), panels_[j].end(), r,
                                                        [](int v, const Panel& P) { return v < P.first; }) -
                                       panels_[j].begin()) - 1;
      for (int iP = 0; iP < static_cast<int>(panels_[j].size()); ++iP) {
        const Panel& P = panels_[j][iP];
        double dist = 0.0, u = 0.0;
        const bool self = iP == own, near = self || isNear(j, P, X, dist, u);
        const bool samePiece = P.piece == panels_[j][own].piece;
        for (int q = P.first; q < P.first + p; ++q) {
          const Vec2 d = X - b.x[q];
          if (q == r) {
            M(r, q) = 0.5 + b.weight[q] * kappa[q] / (4.0 * kPi);
            S(r, q) = 0.0;
            continue;
          }
          M(r, q) = b.weight[q] * kInvTwoPi * d.dot(nX) / d.squaredNorm();
          S(r, q) = 0.5 * b.weight[q] * kInvTwoPi * std::log(d.squaredNorm());
        }
        if (!near) continue;
        if (self) u = gl_[r - P.first], dist = 0.0;
        // Graded sub-rule toward u*: to round-off on the own panel (log singularity), to a quarter of
        // the distance (in u) otherwise.
        // Self: a gap g of at least 1e-13 in arc length (positions are resolved to ~1e-16 only).
        double gap = kGap, v = 0.0;
        if (self) {
          Vec2 y, dy;
          evalPanel(j, P, u, y, dy);
          v = dy.norm();
          gap = std::min(std::max(kGap, 1e-13 / v), 0.5 * (1.0 - std::abs(u)));
        }
        const double floor = self ? gap : std::max(1e-15, 0.25 * dist / (0.5 * P.length));
        gradedRule(u, floor, self, un, uw);
        std::vector<double> sS(p, 0.0), sM(p, 0.0);
        // (1 / 2 pi) int_{|u - u*| < g} log(|y'| |u - u*|) |y'| du = |y'| 2 g (log(|y'| g) - 1) / (2 pi).
        if (self) sS[r - P.first] += kInvTwoPi * v * 2.0 * gap * (std::log(v * gap) - 1.0);
        for (std::size_t k = 0; k < un.size(); ++k) {
          Vec2 y, dy;
          evalPanel(j, P, un[k], y, dy);
          const Vec2 d = X - y;
          const double r2 = d.squaredNorm(), wk = uw[k] * dy.norm();
          basis(un[k], l.data());
          const double lg = 0.5 * kInvTwoPi * std::log(r2), km = kInvTwoPi * d.dot(nX) / r2;
          for (int q = 0; q < p; ++q) {
            sS[q] += wk * lg * l[q];
            if (!samePiece) sM[q] += wk * km * l[q];
          }
        }
        for (int q = 0; q < p; ++q) {
          S(r, P.first + q) = sS[q];
          if (!samePiece) M(r, P.first + q) = sM[q];
        }
      }
    }
    selfM_.push_back(std::move(M));
    selfS_.push_back(std::move(S));
  }
}

int GaussPanelDiscretization::uniformPanels(double length, double maxPanel) {
  return std::max(1, static_cast<int>(std::ceil(length / maxPanel - 1e-12)));
}

int GaussPanelDiscretization::levelsFor(double length, double maxPanel, double h) {
  const double uniform = length / uniformPanels(length, maxPanel);
  return uniform <= h ? 0 : static_cast<int>(std::ceil(std::log2(uniform / h)));
}

void GaussPanelDiscretization::evalPanel(int j, const Panel& P, double u, Vec2& y, Vec2& dy) const {
  // s = P.t0 + h (u + 1) is t, or 1 - t for fromEnd panels (then t increases as s decreases).
  Vec2 d2;
  const double h = 0.5 * (P.t1 - P.t0);
  curves_[j].pieces[P.piece].evalNear(P.t0 + h * (u + 1.0), P.fromEnd, y, dy, d2);
  dy *= P.fromEnd ? -h : h;
}

double GaussPanelDiscretization::nearest(int j, const Panel& P, const Vec2& X, double& u) const {
  double best = 1e300;
  u = 0.0;
  for (int s = 0; s <= 32; ++s) {
    Vec2 y, dy;
    const double v = -1.0 + s / 16.0;
    evalPanel(j, P, v, y, dy);
    const double e = (y - X).squaredNorm();
    if (e < best) best = e, u = v;
  }
  for (int it = 0; it < 8; ++it) {  // Newton on <y - X, y'> = 0 (y'' = 0 for segments)
    Vec2 y, dy, y2, dy2;
    evalPanel(j, P, u, y, dy);
    const double e = 1e-4;
    evalPanel(j, P, std::min(1.0, u + e), y2, dy2);
    const double f = (y - X).dot(dy), fp = dy.squaredNorm() + (y - X).dot((dy2 - dy) / e);
    if (!(fp > 0.0)) break;
    u = std::clamp(u - f / fp, -1.0, 1.0);
  }
  Vec2 y, dy;
  evalPanel(j, P, u, y, dy);
  return std::min(std::sqrt(best), (y - X).norm());
}

bool GaussPanelDiscretization::isNear(int j, const Panel& P, const Vec2& X, double& dist, double& u) const {
  if ((X - P.centre).norm() - P.reach > P.length) return false;
  dist = nearest(j, P, X, u);
  return dist < P.length;
}

void GaussPanelDiscretization::gradedRule(double u, double floor, bool gap, std::vector<double>& nodes,
                                          std::vector<double>& weights) const {
  // Breakpoints u* +- 2^-k (toward both ends) down to `floor`, Gauss-Legendre of the panel order on each.
  std::vector<double> br = {-1.0, 1.0};
  if (!gap) br.push_back(u);
  for (double side : {-1.0, 1.0}) {
    const double span = std::abs(side - u);
    for (double h = 0.5 * span; h > floor; h *= 0.5) br.push_back(u + side * h);
    if (gap && span > floor) br.push_back(u + side * floor);
  }
  std::sort(br.begin(), br.end());
  br.erase(std::unique(br.begin(), br.end()), br.end());
  nodes.clear(), weights.clear();
  for (std::size_t i = 0; i + 1 < br.size(); ++i) {
    const double a = br[i], b = br[i + 1], h = 0.5 * (b - a);
    if (!(h > 0.0) || (gap && a < u && b > u)) continue;
    for (std::size_t k = 0; k < gl_.size(); ++k) {
      nodes.push_back(a + h * (gl_[k] + 1.0));
      weights.push_back(h * glw_[k]);
    }
  }
}

void GaussPanelDiscretization::adaptiveRule(int j, const Panel& P, const Vec2& X, double a, double b, int depth,
                                            std::vector<double>& nodes, std::vector<double>& weights) const {
  Vec2 y, dy;
  evalPanel(j, P, 0.5 * (a + b), y, dy);
  if (depth < kMaxDepth && (X - y).norm() < kFarRatio * dy.norm() * (b - a)) {
    adaptiveRule(j, P, X, a, 0.5 * (a + b), depth + 1, nodes, weights);
    adaptiveRule(j, P, X, 0.5 * (a + b), b, depth + 1, nodes, weights);
    return;
  }
  const double h = 0.5 * (b - a);
  for (std::size_t k = 0; k < gl_.size(); ++k) {
    nodes.push_back(a + h * (gl_[k] + 1.0));
    weights.push_back(h * glw_[k]);
  }
}

void GaussPanelDiscretization::nearEntries(int Q, const Complex& Z, std::vector<NearEntry>& out) const {
  // (FB-65): W'_q = (1/2 pi) sum_k w_k l_q(u_k) / (Z - y_k), W''_q = -(1/2 pi) sum_k w_k l_q(u_k) / (Z - y_k)^2,
  // S_q = (1/2 pi) sum_k w_k l_q(u_k) log|Z - y_k| over the adaptive rule's nodes u_k (w_k with |y'|).
  out.clear();
  if (!options_.nearInteractions) return;
  const Vec2 X = lie::toVec(Z);
  const int p = options_.order;
  std::vector<double> l(p), un, uw;
  for (const Panel& P : panels_[Q]) {
    if ((X - P.centre).norm() - P.reach > kFarRatio * P.length + P.reach) continue;
    Vec2 y, dy;
    evalPanel(Q, P, 0.0, y, dy);
    if (!((X - y).norm() < kFarRatio * 2.0 * dy.norm())) continue;  // depth 0 accepted: the point sources
    un.clear(), uw.clear();
    adaptiveRule(Q, P, X, -1.0, 1.0, 0, un, uw);
    const std::size_t first = out.size();
    for (int q = 0; q < p; ++q) out.push_back({P.first + q, Complex(0.0, 0.0), Complex(0.0, 0.0), 0.0});
    for (std::size_t k = 0; k < un.size(); ++k) {
      Vec2 yk, dyk;
      evalPanel(Q, P, un[k], yk, dyk);
      const Complex d = Z - lie::toComplex(yk), inv = 1.0 / d;
      const double wk = uw[k] * dyk.norm() * kInvTwoPi, lg = 0.5 * std::log(std::norm(d));
      basis(un[k], l.data());
      for (int q = 0; q < p; ++q) {
        NearEntry& e = out[first + q];
        const double c = wk * l[q];
        e.W1 += c * inv;
        e.W2 -= c * inv * inv;
        e.S += c * lg;
      }
    }
  }
}

double GaussPanelDiscretization::legendreTail(int j, const double* values) const {
  // c_k = (2k + 1) / 2 sum_i w_i P_k(u_i) f_i, P_k by the three-term recurrence.
  const int p = options_.order;
  double tail = 0.0;
  for (const Panel& P : panels_[j]) {
    double c[2] = {0.0, 0.0};
    for (int i = 0; i < p; ++i) {
      double p0 = 1.0, p1 = gl_[i];
      for (int k = 2; k < p; ++k) {
        const double p2 = ((2.0 * k - 1.0) * gl_[i] * p1 - (k - 1.0) * p0) / k;
        p0 = p1, p1 = p2;
      }
      c[0] += glw_[i] * p0 * values[P.first + i];  // P_{p-2}
      c[1] += glw_[i] * p1 * values[P.first + i];  // P_{p-1}
    }
    tail += P.length * std::hypot(0.5 * (2 * p - 3) * c[0], 0.5 * (2 * p - 1) * c[1]);
  }
  return tail;
}

void GaussPanelDiscretization::basis(double u, double* l) const {
  const int p = static_cast<int>(gl_.size());
  double sum = 0.0;
  for (int k = 0; k < p; ++k) {
    const double d = u - gl_[k];
    if (d == 0.0) {
      for (int q = 0; q < p; ++q) l[q] = q == k ? 1.0 : 0.0;
      return;
    }
    l[k] = bary_[k] / d;
    sum += l[k];
  }
  for (int k = 0; k < p; ++k) l[k] /= sum;
}

void GaussPanelDiscretization::pointField(int Q, const lie::Pose& gQ, const Complex& z, int first, int count,
                                          double* psi, Complex* dOmega, double* phi) const {
  const Vec2 Zv = gQ.applyInverse(lie::toVec(z));
  const Complex Z = lie::toComplex(Zv), rot = std::polar(1.0, -gQ.theta), invZ = std::conj(Z) / std::norm(Z);
  pointSources(Q, Z, first, count, psi, dOmega, phi);
  const int p = options_.order;
  std::vector<double> l(p), un, uw;
  for (const Panel& P : panels_[Q]) {
    if (P.first + p <= first || P.first >= first + count) continue;
    double dist = 0.0, u = 0.0;
    if (!isNear(Q, P, Zv, dist, u)) continue;
    gradedRule(u, std::max(1e-15, 0.25 * dist / (0.5 * P.length)), false, un, uw);
    std::vector<double> sPsi(p, 0.0), sPhi(p, 0.0);
    std::vector<Complex> sO(p, Complex(0.0, 0.0));
    for (std::size_t k = 0; k < un.size(); ++k) {
      Vec2 y, dy;
      evalPanel(Q, P, un[k], y, dy);
      const Complex d = Z - lie::toComplex(y);
      const double wk = uw[k] * dy.norm() * kInvTwoPi;
      basis(un[k], l.data());
      const double kp = -std::arg(d * std::conj(Z)), kf = 0.5 * std::log(std::norm(d));
      const Complex ko = std::conj(d) / std::norm(d) - invZ;
      for (int q = 0; q < p; ++q) {
        sPsi[q] += wk * kp * l[q];
        sPhi[q] += wk * kf * l[q];
        sO[q] += (wk * l[q]) * ko;
      }
    }
    for (int q = 0; q < p; ++q) {
      const int k = P.first + q - first;
      if (k < 0 || k >= count) continue;
      if (psi) psi[k] = sPsi[q];
      if (dOmega) dOmega[k] = sO[q];
      if (phi) phi[k] = sPhi[q];
    }
  }
  if (dOmega)
    for (int k = 0; k < count; ++k) dOmega[k] *= rot;
}

}  // namespace kirchhoff::fluid
