// The collision integrator of one step (docs/fluidbody.md (FB-82)..(FB-86)): a DEL step; if a pair ends
// below the contact distance, the sub-step to the contact set (Illinois on its size), the impulse along
// grad phi whose size makes E_d after = E_d before - (1 - e^2) T_n (secant, then Illinois), and again.
#include "models/fluidbody/ImpactStep.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "core/Error.hpp"

namespace kirchhoff::fluidbody {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
/// Root iterations (each one DEL solve) before an impact counts as unresolved.
constexpr int kMaxRootIterations = 40;

void add(integrators::DelResult& sum, const integrators::DelResult& r) {
  sum.iterations += r.iterations;
  sum.functionEvaluations += r.functionEvaluations;
  sum.residualNorm = std::max(sum.residualNorm, r.residualNorm);
}

std::string impactNum(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.6g", v);
  return b;
}

/// A sign-changing bracket [lo, hi] of f (f(lo) < 0 < f(hi) or the reverse) narrowed by the Illinois
/// variant of regula falsi; an infinite end value (an overlap) is bisected. Returns the last point evaluated.
struct Illinois {
  double lo, flo, hi, fhi;
  int side = 0;  // the end kept the last time (-1 lo, +1 hi)
  double next() const {
    if (!std::isfinite(flo) || !std::isfinite(fhi)) return 0.5 * (lo + hi);
    return (lo * fhi - hi * flo) / (fhi - flo);
  }
  void update(double x, double fx) {
    if ((fx < 0) == (flo < 0)) {
      lo = x, flo = fx;
      if (side == -1) fhi *= 0.5;  // the same end moved twice: halve the other's weight
      side = -1;
    } else {
      hi = x, fhi = fx;
      if (side == +1) flo *= 0.5;
      side = +1;
    }
  }
};

}  // namespace

ImpactStep::ImpactStep(const ContactGeometry& geometry, ContactLaw law, std::vector<std::string> names, double dt)
    : geometry_(geometry), law_(law), names_(std::move(names)), dt_(dt), n_(geometry.size()) {}

std::vector<lie::Pose> ImpactStep::poses(const Eigen::VectorXd& q) const {
  std::vector<lie::Pose> g;
  for (int j = 0; j < n_; ++j) g.push_back({q[3 * j], lie::Vec2(q[3 * j + 1], q[3 * j + 2])});
  return g;
}

std::string ImpactStep::pairName(const PairGap& g) const {
  return "bodies '" + names_[static_cast<std::size_t>(g.a)] + "' and '" + names_[static_cast<std::size_t>(g.b)] + "'";
}

integrators::DelResult ImpactStep::solve(const Eigen::VectorXd& q0, const Eigen::VectorXd& p0, double s,
                                         Eigen::VectorXd& q1, Eigen::VectorXd& p1, ImpactStepResult& out) {
  const integrators::DelResult r = stepper_->solve(q0, p0, s, q1, p1);
  add(out.solver, r);
  ++out.solves;
  return r;
}

std::vector<PairGap> ImpactStep::approaching(const Eigen::VectorXd& qa, const Eigen::VectorXd& q1) const {
  std::vector<PairGap> out;
  const auto ga = poses(qa);
  for (const PairGap& g : geometry_.gapsBelow(poses(q1), law_.distance))
    if (g.signedGap() < geometry_.gap(ga, g.a, g.b).signedGap()) out.push_back(g);
  return out;
}

double ImpactStep::margin(const Eigen::VectorXd& q, const std::vector<PairGap>& pairs) const {
  const auto g = poses(q);
  double m = kInf;
  for (const PairGap& p : pairs) m = std::min(m, geometry_.gap(g, p.a, p.b).signedGap() - law_.distance);
  return m;
}

ImpactStep::Solved ImpactStep::toContact(const Eigen::VectorXd& qa, const Eigen::VectorXd& pa, double r,
                                         const Eigen::VectorXd& q1, const std::vector<PairGap>& pairs,
                                         ImpactStepResult& out, std::int64_t step) {
  // The root of phi(q~(s)) = delta over s in (0, r], q~(s) the DEL sub-step of size s h from (qa, pa).
  const double start = margin(qa, pairs);
  Solved at{r, q1, {}};
  double root = kMinSubStep;  // a pair already at (or below) the contact level and approaching: (FB-86)
  if (start > 0.0) {
    Illinois it{0.0, start, r, margin(q1, pairs)};
    const double tol = 1e-12 * law_.distance;
    bool found = false;
    for (int k = 0; k < kMaxRootIterations && !found; ++k) {
      const double x = it.next();
      at.s = x;
      at.q = qa + (x / r) * (q1 - qa);
      solve(qa, pa, x, at.q, at.p, out);
      const double f = margin(at.q, pairs);
      it.update(x, f);
      found = std::abs(f) <= tol || it.hi - it.lo <= 1e-14;
    }
    if (!found)
      throw NumericalError(pairName(pairs.front()) + ": the contact time was not found in " +
                               std::to_string(kMaxRootIterations) + " sub-steps; reduce time.dt", step, true);
    root = at.s;
  }
  // (FB-86): no sub-step shorter than kMinSubStep h (halves of the rest if it is shorter than two).
  const double s = r < 2.0 * kMinSubStep ? 0.5 * r : std::clamp(root, kMinSubStep, r - kMinSubStep);
  if (s != at.s || at.p.size() == 0) {
    at.s = s;
    at.q = qa + (s / r) * (q1 - qa);
    solve(qa, pa, s, at.q, at.p, out);
  }
  return at;
}

ImpactStep::Normal ImpactStep::normal(const Solved& hit, const PairGap& pair, std::int64_t step) const {
  Normal nd;
  const auto g = poses(hit.q);
  nd.at = geometry_.gap(g, pair.a, pair.b);
  nd.grad = Eigen::VectorXd::Zero(hit.q.size());
  addGapGradient(nd.at, g[static_cast<std::size_t>(nd.at.a)], g[static_cast<std::size_t>(nd.at.b)], nd.grad);
  // (FB-84): v_n and grad phi^T K^-1 grad phi with K = M + A(q~), from two inverse Legendre maps.
  const Eigen::VectorXd Xi = stepper_->bodyVelocity(hit.q, hit.p);
  nd.w = stepper_->bodyVelocity(hit.q, hit.p + nd.grad) - Xi;
  Eigen::VectorXd G(3 * n_);  // grad phi in the body frames
  for (int j = 0; j < n_; ++j) {
    G[3 * j] = nd.grad[3 * j];
    G.segment<2>(3 * j + 1) = lie::rotation(-hit.q[3 * j]) * nd.grad.segment<2>(3 * j + 1);
  }
  nd.speed = G.dot(Xi);
  nd.gKg = G.dot(nd.w);
  if (!(nd.speed < 0.0) || !(nd.gKg > 0.0))
    throw NumericalError(pairName(nd.at) + " reach the contact distance " + impactNum(law_.distance) +
                             " without approaching (v_n = " + impactNum(nd.speed) + "): the impact law cannot resolve it; "
                             "reduce time.dt", step, true);
  return nd;
}

double ImpactStep::discreteRoot(const std::function<double(double)>& excess, double e, double Tn, double scale,
                                const PairGap& at, std::int64_t step) const {
  // The quadratic model of (FB-85), f(c) = T_n ((c - 1)^2 - e^2), has its wanted root at c = 1 + e (the
  // other, c = 1 - e, is the pass-through for e = 1): secant from the model slope 2 T_n e, then Illinois
  // on a bracket in [1, 3]; a step whose E_d cannot reach the target (e near 0) takes the least E_d.
  const double tol = 1e-12 * scale;
  double c = 1.0 + e, f = excess(c);
  double neg = -kInf, fneg = 0.0, pos = kInf, fpos = 0.0;  // the nearest points below and above the root
  auto note = [&](double x, double fx) {
    if (fx < 0 && x > neg) neg = x, fneg = fx;
    if (fx > 0 && x < pos && x > 1.0) pos = x, fpos = fx;
  };
  note(c, f);
  double slope = 2.0 * Tn * std::max(e, 0.05);
  for (int k = 0; k < 8 && std::abs(f) > tol; ++k) {
    const double next = c - f / slope;
    if (!(next > 1.0 && next < 3.0) || std::abs(next - c) <= 1e-12 * c) break;
    const double fn = excess(next);
    slope = (fn - f) / (next - c);
    c = next, f = fn;
    note(c, f);
  }
  if (std::abs(f) <= tol) return c;
  if (!std::isfinite(neg)) note(1.0, excess(1.0));
  if (!std::isfinite(neg)) {  // the vertex of the parabola through c = 0.9, 1, 1.1: the largest loss
    const double fm = excess(0.9), f1 = excess(1.0), fp = excess(1.1);
    return 1.0 - 0.1 * (fp - fm) / (2.0 * (fp - 2.0 * f1 + fm));
  }
  if (!std::isfinite(pos)) note(3.0, excess(3.0));
  if (!std::isfinite(pos))
    throw NumericalError(pairName(at) + ": no impulse up to 3 times the elastic one restores the energy; the "
                         "impact law cannot resolve it; reduce time.dt", step, true);
  Illinois it{neg, fneg, pos, fpos};
  for (int k = 0; k < kMaxRootIterations && std::abs(f) > tol && it.hi - it.lo > 1e-12 * it.hi; ++k) {
    c = it.next();
    f = excess(c);
    it.update(c, f);
  }
  if (std::abs(f) > 1e-9 * scale)
    throw NumericalError(pairName(at) + ": the energy condition of the impact stopped at a relative residual " +
                         impactNum(f / scale) + "; reduce time.dt", step, true);
  return c;
}

Impact ImpactStep::impulse(const Eigen::VectorXd& qa, const Solved& hit, double r, const PairGap& pair,
                           Eigen::VectorXd& pPlus, ImpactStepResult& out, std::int64_t step) {
  const int solves0 = out.solves;
  const Normal nd = normal(hit, pair, step);
  Impact im;
  im.a = nd.at.a, im.b = nd.at.b, im.gap = nd.at.gap;
  im.normalSpeed = nd.speed;
  const double e = law_.restitution, lambda1 = -nd.speed / nd.gKg;
  im.normalEnergy = 0.5 * nd.speed * nd.speed / nd.gKg;
  im.prescribedLoss = (1.0 - e * e) * im.normalEnergy;
  const double after = r - hit.s;
  // The sub-step after the impulse c lambda1 grad phi, from the predictor of the continuous law's
  // velocity jump; returns its E_d.
  Eigen::VectorXd q1, p1;
  double evaluated = -1.0;  // the c of q1, p1
  auto subStepAfter = [&](double c) {
    evaluated = c;
    q1 = hit.q + (after / hit.s) * (hit.q - qa);
    for (int j = 0; j < n_; ++j) {
      const Eigen::Vector3d dXi = c * lambda1 * nd.w.segment<3>(3 * j);
      q1[3 * j] += after * h_ * dXi[0];
      q1.segment<2>(3 * j + 1) += after * h_ * (lie::rotation(hit.q[3 * j]) * dXi.tail<2>());
    }
    solve(hit.q, hit.p + c * lambda1 * nd.grad, after, q1, p1, out);
    return stepper_->discreteEnergy(hit.q, q1, after);
  };
  double c = 1.0 + e;
  if (law_.energy == EnergyCondition::ContactPoint) {
    // (FB-85b): H(q~, p~+) = H(q~, p~-) - (1 - e^2) T_n, solved by c = 1 + e exactly.
    im.energyBefore = stepper_->energy(hit.q, hit.p);
    im.energyAfter = stepper_->energy(hit.q, hit.p + c * lambda1 * nd.grad);
  } else {
    // (FB-85): E_d(q~, q_k+1, (r - s) h) = E_d(q_a, q~, s h) - (1 - e^2) T_n.
    im.energyBefore = stepper_->discreteEnergy(qa, hit.q, hit.s);
    const double target = im.energyBefore - im.prescribedLoss;
    c = discreteRoot([&](double x) { return subStepAfter(x) - target; }, e, im.normalEnergy,
                     std::abs(im.energyBefore) + im.normalEnergy, nd.at, step);
  }
  if (evaluated != c) {
    const double Ed = subStepAfter(c);  // q1, p1 of the impulse taken
    if (law_.energy == EnergyCondition::Discrete) im.energyAfter = Ed;
  } else if (law_.energy == EnergyCondition::Discrete) {
    im.energyAfter = stepper_->discreteEnergy(hit.q, q1, after);
  }
  im.impulse = c * lambda1;
  pPlus = hit.p + im.impulse * nd.grad;
  out.q1 = q1;
  out.p1 = p1;
  im.solves = out.solves - solves0;
  return im;
}

ImpactStepResult ImpactStep::step(const Eigen::VectorXd& q0, const Eigen::VectorXd& p0,
                                  const Eigen::VectorXd& predictor, std::int64_t step, const SubStepper& stepper,
                                  double span) {
  stepper_ = &stepper;
  h_ = span * dt_;
  ImpactStepResult out;
  out.solver.converged = true;
  Eigen::VectorXd qa = q0, pa = p0;
  double a0 = 0.0;
  out.q1 = predictor;
  solve(qa, pa, 1.0, out.q1, out.p1, out);
  for (;;) {
    const std::vector<PairGap> pairs = approaching(qa, out.q1);
    if (pairs.empty()) break;
    if (static_cast<int>(out.impacts.size()) == kMaxImpacts)
      throw NumericalError(pairName(pairs.front()) + " are still approaching below the contact distance after " +
                               std::to_string(kMaxImpacts) + " impacts in one step: more simultaneous impacts "
                               "than the law resolves one after another; reduce time.dt", step, true);
    const double r = 1.0 - a0;
    const Solved hit = toContact(qa, pa, r, out.q1, pairs, out, step);
    // The pair that reached the contact set first: the smallest phi - delta at q~.
    const auto g = poses(hit.q);
    PairGap first = pairs.front();
    double best = kInf;
    for (const PairGap& p : pairs)
      if (const double m = geometry_.gap(g, p.a, p.b).signedGap(); m < best) best = m, first = p;
    if (!std::isfinite(best))
      throw NumericalError(pairName(first) + " overlap at the contact time: the impact law cannot resolve it; "
                           "reduce time.dt", step, true);
    Eigen::VectorXd pPlus;
    Impact im = impulse(qa, hit, r, first, pPlus, out, step);
    im.fraction = a0 + hit.s;
    out.impacts.push_back(im);
    out.visited.push_back(hit.q);
    qa = hit.q;
    pa = pPlus;
    a0 += hit.s;
  }
  out.lastStart = qa;
  out.lastFraction = a0;
  stepper_ = nullptr;
  return out;
}

}  // namespace kirchhoff::fluidbody
