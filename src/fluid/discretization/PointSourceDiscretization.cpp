// Point-source nodes (docs/fluidbody.md (FB-37)): trapezoidal-type inter-body blocks M_pq, S_pq and
// their pose derivatives from W' and W'', node moments, and the referenced far fields at points.
#include "fluid/discretization/PointSourceDiscretization.hpp"

#include <algorithm>
#include <cmath>

#include "core/Constants.hpp"

namespace kirchhoff::fluid {

void PointSourceDiscretization::resize(int n) {
  nodes_.resize(n);
  x_.resize(n), nu_.resize(n), pose_.resize(n), placed_.assign(n, false);
}

void PointSourceDiscretization::pointSources(int Q, const Complex& Z, int first, int count, double* psi,
                                             Complex* dOmegaBody, double* phi) const {
  const BodyNodes& b = nodes_[Q];
  const Complex invZ = inverse(Z);
  for (int k = 0; k < count; ++k) {
    const int q = first + k;
    const Complex d = Z - lie::toComplex(b.x[q]);
    const double c = b.weight[q] * kInvTwoPi;
    if (psi) psi[k] = -c * std::arg(d * std::conj(Z));
    if (dOmegaBody) dOmegaBody[k] = c * (inverse(d) - invZ);
    if (phi) phi[k] = 0.5 * c * std::log(std::norm(d));
  }
}

void PointSourceDiscretization::place(int j, const lie::Pose& g) const {
  if (placed_[j] && pose_[j].theta == g.theta && pose_[j].y == g.y) return;
  const BodyNodes& b = nodes_[j];
  const lie::Mat2 Rt = lie::rotation(g.theta);
  x_[j].resize(b.x.size());
  nu_[j].resize(b.x.size());
  for (std::size_t q = 0; q < b.x.size(); ++q) {
    x_[j][q] = lie::toComplex(Rt * b.x[q] + g.y);
    nu_[j][q] = lie::toComplex(Rt * b.normal[q]);
  }
  pose_[j] = g;
  placed_[j] = true;
}

const std::vector<PointSourceDiscretization::NearEntry>& PointSourceDiscretization::nearRow(int P, int row,
                                                                                          int Q) const {
  const auto same = [](const lie::Pose& a, const lie::Pose& b) { return a.theta == b.theta && a.y == b.y; };
  NearRows& c = near_[{P, Q}];
  const std::size_t n = x_[P].size();
  if (c.done.size() != n || !same(c.gP, pose_[P]) || !same(c.gQ, pose_[Q])) {
    c.gP = pose_[P], c.gQ = pose_[Q];
    c.rows.assign(n, {});
    c.done.assign(n, 0);
  }
  std::vector<NearEntry>& e = c.rows[static_cast<std::size_t>(row)];
  if (!c.done[static_cast<std::size_t>(row)]) {
    const Complex Z = std::polar(1.0, -pose_[Q].theta) * (x_[P][row] - lie::toComplex(pose_[Q].y));
    nearEntries(Q, Z, e);
    c.done[static_cast<std::size_t>(row)] = 1;
  }
  return e;
}

void PointSourceDiscretization::interaction(int P, const lie::Pose& gP, int first, int count, int Q,
                                        const lie::Pose& gQ, double* M, int ldM, double* S, int ldS) const {
  // Trapezoidal rule on body Q's nodes (FB-37): M_pq = (w_q / 2 pi) Re(nu_p / (x_p - x_q)),
  // S_pq = (w_q / 2 pi) log|x_p - x_q|.
  place(P, gP);
  place(Q, gQ);
  // Nodes of near panels (FB-65): the body-frame kernels of the finer rule, rotated by e^{-i theta_Q}.
  const std::vector<Complex>& zq = x_[Q];
  const std::vector<double>& w = nodes_[Q].weight;
  const int n = static_cast<int>(zq.size());
  const bool near = hasNearEntries(Q);
  const Complex rot = std::polar(1.0, -gQ.theta);
  for (int r = 0; r < count; ++r) {
    const Complex z = x_[P][first + r], nu = nu_[P][first + r];
    double* Mr = M ? M + static_cast<std::size_t>(r) * ldM : nullptr;
    double* Sr = S ? S + static_cast<std::size_t>(r) * ldS : nullptr;
    for (int q = 0; q < n; ++q) {
      const Complex d = z - zq[q];
      const double c = w[q] * kInvTwoPi;
      if (Mr) Mr[q] = c * (nu * inverse(d)).real();
      if (Sr) Sr[q] = 0.5 * c * std::log(std::norm(d));
    }
    if (!near) continue;
    for (const NearEntry& e : nearRow(P, first + r, Q)) {
      if (Mr) Mr[e.q] = (nu * e.W1 * rot).real();
      if (Sr) Sr[e.q] = e.S;
    }
  }
}

Eigen::Vector3d PointSourceDiscretization::interactionGradient(int P, const lie::Pose& gP, int first, int count,
                                                           int Q, const lie::Pose& gQ,
                                                           const PairWeights& wts) const {
  // W'_q(z) = (w_q / 2 pi) / (z - x_q), W''_q = -(w_q / 2 pi) / (z - x_q)^2. Over body P's pose
  // (arm = i (z - y_P)): dM/dy = (Re, -Im)(W'' nu), dM/dtheta = Re(W'' nu arm) + Re(i W' nu),
  // dS/dy = (Re, -Im) W', dS/dtheta = Re(W' arm); per row the sums over q of W' v and W'' v.
  place(P, gP);
  place(Q, gQ);
  std::vector<const double*> v;
  auto slot = [&](const double* d) {
    for (std::size_t s = 0; s < v.size(); ++s)
      if (v[s] == d) return static_cast<int>(s);
    v.push_back(d);
    return static_cast<int>(v.size()) - 1;
  };
  std::vector<int> mSlot, sSlot;
  for (const auto& uv : wts.normal) mSlot.push_back(slot(uv.second));
  for (const auto& uv : wts.potential) sSlot.push_back(slot(uv.second));
  const int k = static_cast<int>(v.size());
  const std::vector<Complex>& zq = x_[Q];
  const std::vector<double>& w = nodes_[Q].weight;
  const int n = static_cast<int>(zq.size());
  std::vector<Complex> d1(k), d2(k);
  const Complex centre = lie::toComplex(gP.y);
  Eigen::Vector3d g = Eigen::Vector3d::Zero();
  // Near panels (FB-65): W', W'' of the finer rule (body frame, rotated), the exact derivatives of its entries.
  const bool near = hasNearEntries(Q);
  const Complex rot = std::polar(1.0, -gQ.theta);
  const std::vector<NearEntry>* entries = nullptr;
  std::vector<int> patch(near ? n : 0, -1);  // patch[q]: node q's near entry, or -1
  for (int r = 0; r < count; ++r) {
    const Complex z = x_[P][first + r], nu = nu_[P][first + r], arm = kI * (z - centre);
    std::fill(d1.begin(), d1.end(), Complex(0.0, 0.0));
    std::fill(d2.begin(), d2.end(), Complex(0.0, 0.0));
    if (near) {
      if (entries)
        for (const NearEntry& e : *entries) patch[e.q] = -1;
      entries = &nearRow(P, first + r, Q);
      for (std::size_t k = 0; k < entries->size(); ++k) patch[(*entries)[k].q] = static_cast<int>(k);
    }
    for (int q = 0; q < n; ++q) {
      const Complex inv = inverse(z - zq[q]);
      Complex W1 = (w[q] * kInvTwoPi) * inv, W2 = -W1 * inv;
      if (near && patch[q] >= 0) {
        const NearEntry& e = (*entries)[static_cast<std::size_t>(patch[q])];
        W1 = e.W1 * rot, W2 = e.W2 * (rot * rot);
      }
      for (int s = 0; s < k; ++s) {
        d1[s] += v[s][q] * W1;
        d2[s] += v[s][q] * W2;
      }
    }
    Complex c1(0.0, 0.0), wdW(0.0, 0.0), sdW(0.0, 0.0);
    for (std::size_t a = 0; a < wts.normal.size(); ++a) {
      const double u = wts.normal[a].first[r];
      c1 += u * d2[mSlot[a]];
      wdW += u * d1[mSlot[a]];
    }
    c1 *= nu;
    for (std::size_t a = 0; a < wts.potential.size(); ++a) sdW += wts.potential[a].first[r] * d1[sSlot[a]];
    g[1] += c1.real() + sdW.real();
    g[2] += -c1.imag() - sdW.imag();
    g[0] += (c1 * arm).real() + (kI * wdW * nu).real() + (sdW * arm).real();
  }
  return g;
}

Eigen::MatrixXcd PointSourceDiscretization::multipoleMoments(int j, int order) const {
  // Point charge w_q at x_q: (w_q / 2 pi) log(Z - x_q) = (w_q / 2 pi) (log Z - sum_k x_q^k / (k Z^k)).
  const BodyNodes& b = nodes_[j];
  Eigen::MatrixXcd A(order + 1, b.size());
  for (int q = 0; q < b.size(); ++q) {
    const Complex x = lie::toComplex(b.x[q]);
    const double c = b.weight[q] * kInvTwoPi;
    A(0, q) = c;
    Complex xk(1.0, 0.0);
    for (int k = 1; k <= order; ++k) {
      xk *= x;
      A(k, q) = -c * xk / static_cast<double>(k);
    }
  }
  return A;
}

}  // namespace kirchhoff::fluid
