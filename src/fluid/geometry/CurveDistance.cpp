// Nearest points of piecewise-smooth curves (docs/fluidbody.md (FB-64)): dense samples locate the basin,
// Newton on the piece parameters (one, or one per curve) refines to round-off.
#include "fluid/geometry/CurveDistance.hpp"

#include <algorithm>
#include <cmath>

namespace kirchhoff::fluid {

namespace {

constexpr int kSamples = 64;  // per piece

struct Sample {
  int piece;
  double t;
  Vec2 x;
};

std::vector<Sample> samples(const PiecewiseCurve& c, const lie::Pose& g) {
  std::vector<Sample> s;
  for (int k = 0; k < static_cast<int>(c.pieces.size()); ++k)
    for (int i = 0; i <= kSamples; ++i) {
      const double t = static_cast<double>(i) / kSamples;
      Vec2 x, d1, d2;
      c.pieces[k].eval(t, x, d1, d2);
      s.push_back({k, t, g.apply(x)});
    }
  return s;
}

/// Piece k at t, placed by g: position and the first two t-derivatives (spatial).
void placedEval(const PiecewiseCurve& c, const lie::Pose& g, int k, double t, Vec2& x, Vec2& d1, Vec2& d2) {
  c.pieces[k].eval(t, x, d1, d2);
  const lie::Mat2 R = lie::rotation(g.theta);
  x = R * x + g.y, d1 = R * d1, d2 = R * d2;
}

}  // namespace

CurvePoint nearestPoint(const PiecewiseCurve& c, const Vec2& Z) {
  const lie::Pose id{};
  CurvePoint best;
  double bestD = 1e300;
  for (const Sample& s : samples(c, id)) {
    const double d = (s.x - Z).squaredNorm();
    if (d < bestD) bestD = d, best.piece = s.piece, best.t = s.t;
  }
  // Newton on f(t) = 1/2 |x(t) - Z|^2, safeguarded: a step is kept only if it lowers f. Stopped at an
  // end of the piece with f still falling: continue on the neighbouring piece.
  const int np = static_cast<int>(c.pieces.size());
  double t = best.t;
  Vec2 x = Vec2::Zero(), d1 = Vec2::Zero(), d2 = Vec2::Zero();
  for (int hop = 0; hop <= np; ++hop) {
    placedEval(c, id, best.piece, t, x, d1, d2);
    double f = 0.5 * (x - Z).squaredNorm();
    for (int it = 0; it < 50; ++it) {
      const double g = (x - Z).dot(d1), h = d1.squaredNorm() + (x - Z).dot(d2);
      double step = h > 0.0 ? -g / h : -g / d1.squaredNorm();
      bool moved = false;
      for (int half = 0; half < 40 && !moved; ++half, step *= 0.5) {
        const double tn = std::clamp(t + step, 0.0, 1.0);
        Vec2 xn, e1, e2;
        placedEval(c, id, best.piece, tn, xn, e1, e2);
        const double fn = 0.5 * (xn - Z).squaredNorm();
        if (fn < f) t = tn, x = xn, d1 = e1, d2 = e2, f = fn, moved = true;
      }
      if (!moved) break;
    }
    const double g = (x - Z).dot(d1);
    if (t == 0.0 && g > 0.0) best.piece = (best.piece + np - 1) % np, t = 1.0;
    else if (t == 1.0 && g < 0.0) best.piece = (best.piece + 1) % np, t = 0.0;
    else break;
  }
  best.t = t;
  best.x = x;
  best.distance = (x - Z).norm();
  return best;
}

void closestPoints(const PiecewiseCurve& a, const lie::Pose& ga, const PiecewiseCurve& b, const lie::Pose& gb,
                   CurvePoint& pa, CurvePoint& pb) {
  const std::vector<Sample> sa = samples(a, ga), sb = samples(b, gb);
  double bestD = 1e300;
  for (const Sample& u : sa)
    for (const Sample& v : sb) {
      const double d = (u.x - v.x).squaredNorm();
      if (d < bestD) bestD = d, pa.piece = u.piece, pa.t = u.t, pb.piece = v.piece, pb.t = v.t;
    }
  // Damped Newton on F(s, t) = 1/2 |x_a(s) - x_b(t)|^2 (steps kept only if they lower F); stopped at an
  // end of a piece with F still falling: continue on the neighbouring piece.
  const int na = static_cast<int>(a.pieces.size()), nb = static_cast<int>(b.pieces.size());
  double s = pa.t, t = pb.t;
  Vec2 xa = Vec2::Zero(), a1 = xa, a2 = xa, xb = xa, b1 = xa, b2 = xa;
  for (int hop = 0; hop <= na + nb; ++hop) {
    placedEval(a, ga, pa.piece, s, xa, a1, a2);
    placedEval(b, gb, pb.piece, t, xb, b1, b2);
    double F = 0.5 * (xa - xb).squaredNorm();
    for (int it = 0; it < 60; ++it) {
      const Vec2 d = xa - xb;
      const Eigen::Vector2d g(d.dot(a1), -d.dot(b1));
      Eigen::Matrix2d H;
      H << a1.squaredNorm() + d.dot(a2), -a1.dot(b1), -a1.dot(b1), b1.squaredNorm() - d.dot(b2);
      Eigen::Vector2d step = -g / std::max(H.cwiseAbs().maxCoeff(), 1e-300);
      if (H.determinant() > 0.0 && H(0, 0) > 0.0) step = H.ldlt().solve(-g);
      bool moved = false;
      for (int half = 0; half < 40 && !moved; ++half, step *= 0.5) {
        const double sn = std::clamp(s + step[0], 0.0, 1.0), tn = std::clamp(t + step[1], 0.0, 1.0);
        Vec2 ya, e1, e2, yb, f1, f2;
        placedEval(a, ga, pa.piece, sn, ya, e1, e2);
        placedEval(b, gb, pb.piece, tn, yb, f1, f2);
        const double Fn = 0.5 * (ya - yb).squaredNorm();
        if (Fn < F) s = sn, t = tn, xa = ya, a1 = e1, a2 = e2, xb = yb, b1 = f1, b2 = f2, F = Fn, moved = true;
      }
      if (!moved) break;
    }
    const Vec2 d = xa - xb;
    const double gs = d.dot(a1), gt = -d.dot(b1);
    bool hopped = false;
    if (s == 0.0 && gs > 0.0) pa.piece = (pa.piece + na - 1) % na, s = 1.0, hopped = true;
    else if (s == 1.0 && gs < 0.0) pa.piece = (pa.piece + 1) % na, s = 0.0, hopped = true;
    if (t == 0.0 && gt > 0.0) pb.piece = (pb.piece + nb - 1) % nb, t = 1.0, hopped = true;
    else if (t == 1.0 && gt < 0.0) pb.piece = (pb.piece + 1) % nb, t = 0.0, hopped = true;
    if (!hopped) break;
  }
  pa.t = s, pb.t = t;
  pa.x = ga.applyInverse(xa), pb.x = gb.applyInverse(xb);
  pa.distance = pb.distance = (xa - xb).norm();
}

}  // namespace kirchhoff::fluid
