// Body-frame moments of the body-cluster operator (docs/fluidbody.md (FB-41), (FB-43)), grouped by identical
// bodies: P2M, L2P and their transposes as real matrix products over the group's bodies side by side.
#include "fluid/fast/BodyMoments.hpp"

#include <complex>
#include <cstdint>
#include <cstring>
#include <unordered_map>

#include "lie/SE2.hpp"

namespace kirchhoff::fluid {

namespace {

/// FNV-1a over the bytes of the matrices: a cheap key for finding bodies with equal moments.
std::uint64_t hashOf(std::initializer_list<const Eigen::MatrixXd*> ms) {
  std::uint64_t h = 1469598103934665603ull;
  for (const Eigen::MatrixXd* m : ms) {
    const unsigned char* b = reinterpret_cast<const unsigned char*>(m->data());
    for (std::size_t i = 0; i < static_cast<std::size_t>(m->size()) * sizeof(double); ++i) h = (h ^ b[i]) * 1099511628211ull;
  }
  return h;
}

bool same(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), static_cast<std::size_t>(a.size()) * sizeof(double)) == 0;
}

}  // namespace

void applyRotations(Eigen::MatrixXcd& z, const std::vector<lie::Pose>& poses, int first, int last) {
  for (int j = first; j < last; ++j) {
    const std::complex<double> e = std::polar(1.0, poses[static_cast<std::size_t>(j)].theta);
    std::complex<double> r(1.0, 0.0);
    for (Eigen::Index l = 1; l < z.rows(); ++l) z(l, j) *= (r *= e);
  }
}

bool BodyMoments::Moments::operator==(const Moments& o) const {
  return same(Ar, o.Ar) && same(Ai, o.Ai) && same(Sr, o.Sr) && same(Si, o.Si) && same(Nr, o.Nr) && same(Ni, o.Ni);
}

BodyMoments::BodyMoments(const Discretization& disc, const NodeLayout& layout, int bodyBegin, int bodyEnd, int p)
    : layout_(layout) {
  std::unordered_map<std::uint64_t, std::vector<std::size_t>> byHash;  // hash -> groups
  for (int P = bodyBegin; P < bodyEnd; ++P) {
    const double r = disc.body(P).radius;
    Eigen::MatrixXcd A = disc.multipoleMoments(P, p);
    double sc = 1.0;
    for (int k = 1; k <= p; ++k) A.row(k) *= (sc /= r);
    const BodyNodes& b = disc.body(P);
    Eigen::MatrixXcd S(b.size(), p + 1), N(b.size(), p + 1);
    for (int q = 0; q < b.size(); ++q) {
      const std::complex<double> x = lie::toComplex(b.x[q]) / r, nu = lie::toComplex(b.normal[q]) / r;
      std::complex<double> xl(1.0, 0.0);  // (x/r)^l
      S(q, 0) = 1.0;
      N(q, 0) = 0.0;
      for (int l = 1; l <= p; ++l) {
        N(q, l) = static_cast<double>(l) * xl * nu;  // l x^(l-1) nu / r^l
        xl *= x;
        S(q, l) = xl;
      }
    }
    Moments m{A.real(), A.imag(), S.real(), S.imag(), N.real(), N.imag()};
    std::vector<std::size_t>& candidates = byHash[hashOf({&m.Ar, &m.Ai, &m.Sr, &m.Nr})];
    bool found = false;
    for (std::size_t g : candidates)
      if ((found = groups_[g].m == m)) {
        groups_[g].bodies.push_back(P);
        break;
      }
    if (found) continue;
    candidates.push_back(groups_.size());
    groups_.push_back(Group{std::move(m), {P}});
  }
}

Eigen::MatrixXd BodyMoments::gather(const Group& g, const Eigen::VectorXd& v) const {
  Eigen::MatrixXd X(layout_.bodySize(g.bodies.front()), static_cast<Eigen::Index>(g.bodies.size()));
  for (std::size_t i = 0; i < g.bodies.size(); ++i)
    X.col(static_cast<Eigen::Index>(i)) = v.segment(layout_.offset[g.bodies[i]], X.rows());
  return X;
}

void BodyMoments::scatter(const Group& g, const Eigen::MatrixXd& Y, Eigen::VectorXd& v) const {
  for (std::size_t i = 0; i < g.bodies.size(); ++i)
    v.segment(layout_.offset[g.bodies[i]], Y.rows()) = Y.col(static_cast<Eigen::Index>(i));
}

void BodyMoments::multipoles(const Eigen::VectorXd& x, Eigen::MatrixXcd& a) const {
  for (const Group& g : groups_) {
    const Eigen::MatrixXd X = gather(g, x);
    const Eigen::MatrixXd re = g.m.Ar * X, im = g.m.Ai * X;
    for (std::size_t i = 0; i < g.bodies.size(); ++i) {
      a.col(g.bodies[i]).real() = re.col(static_cast<Eigen::Index>(i));
      a.col(g.bodies[i]).imag() = im.col(static_cast<Eigen::Index>(i));
    }
  }
}

void BodyMoments::multipolesTranspose(const Eigen::MatrixXcd& e, Eigen::VectorXd& y) const {
  for (const Group& g : groups_) {
    Eigen::MatrixXd Er(e.rows(), static_cast<Eigen::Index>(g.bodies.size())), Ei(Er.rows(), Er.cols());
    for (std::size_t i = 0; i < g.bodies.size(); ++i) {
      Er.col(static_cast<Eigen::Index>(i)) = e.col(g.bodies[i]).real();
      Ei.col(static_cast<Eigen::Index>(i)) = e.col(g.bodies[i]).imag();
    }
    Eigen::MatrixXd Y = g.m.Ar.transpose() * Er;
    Y.noalias() -= g.m.Ai.transpose() * Ei;
    scatter(g, Y, y);
  }
}

void BodyMoments::evaluate(bool normal, const Eigen::MatrixXcd& b, Eigen::VectorXd& y) const {
  for (const Group& g : groups_) {
    Eigen::MatrixXd Br(b.rows(), static_cast<Eigen::Index>(g.bodies.size())), Bi(Br.rows(), Br.cols());
    for (std::size_t i = 0; i < g.bodies.size(); ++i) {
      Br.col(static_cast<Eigen::Index>(i)) = b.col(g.bodies[i]).real();
      Bi.col(static_cast<Eigen::Index>(i)) = b.col(g.bodies[i]).imag();
    }
    Eigen::MatrixXd Y = (normal ? g.m.Nr : g.m.Sr) * Br;
    Y.noalias() -= (normal ? g.m.Ni : g.m.Si) * Bi;
    scatter(g, Y, y);
  }
}

void BodyMoments::contract(bool normal, const Eigen::VectorXd& u, Eigen::MatrixXcd& c) const {
  for (const Group& g : groups_) {
    const Eigen::MatrixXd U = gather(g, u);
    const Eigen::MatrixXd re = (normal ? g.m.Nr : g.m.Sr).transpose() * U, im = (normal ? g.m.Ni : g.m.Si).transpose() * U;
    for (std::size_t i = 0; i < g.bodies.size(); ++i) {
      c.col(g.bodies[i]).real() = re.col(static_cast<Eigen::Index>(i));
      c.col(g.bodies[i]).imag() = im.col(static_cast<Eigen::Index>(i));
    }
  }
}

long BodyMoments::storedDoubles() const {
  long s = 0;
  for (const Group& g : groups_) s += 2L * (g.m.Ar.size() + g.m.Sr.size() + g.m.Nr.size()) + static_cast<long>(g.bodies.size());
  return s;
}

}  // namespace kirchhoff::fluid
