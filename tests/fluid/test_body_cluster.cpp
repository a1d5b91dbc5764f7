// The body-cluster operator (docs/fluidbody.md (FB-41)-(FB-45), (FB-57)-(FB-60)) against the assembled dense
// inter-body blocks of the discretization: M v, M^T u, S v, S^T u and the far-pair pose gradient of u^T M v, u^T S v.
#include <gtest/gtest.h>

#include <random>

#include "fluid/fast/BodyClusterOperator.hpp"
#include "fluid/discretization/NystromDiscretization.hpp"
#include "fluid/discretization/PanelDiscretization.hpp"
#include "fluid/geometry/Shapes.hpp"

namespace kirchhoff::fluid {
namespace {

using Kind = BodyClusterOperator::Kind;

/// Nine bodies on a jittered 3 x 3 grid of spacing 2.6 (radii <= 0.8), random orientations.
std::vector<lie::Pose> randomPoses(int n, unsigned seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<lie::Pose> poses;
  for (int j = 0; j < n; ++j) {
    // Named draws: the order of a call's arguments is unspecified (gcc and clang differ), and the
    // poses must be the same with every compiler (this order is the one gcc used before).
    const double theta = u(g), dy = u(g), dx = u(g);
    poses.push_back(lie::Pose{3.0 * theta, Vec2(2.6 * (j % 3) + 0.25 * dx, 2.6 * (j / 3) + 0.25 * dy)});
  }
  return poses;
}

std::unique_ptr<Discretization> panels(int n) {
  std::vector<Polygon> b;
  for (int j = 0; j < n; ++j) b.push_back(j % 2 ? ellipse(0.8, 0.4, 36) : circle(0.6, 30));
  return std::make_unique<PanelDiscretization>(b, PanelCorrection::Auto, 0);
}

std::unique_ptr<Discretization> nystrom(int n) {
  std::vector<SmoothCurve> c;
  std::vector<int> nodes;
  for (int j = 0; j < n; ++j) {
    c.push_back(j % 2 ? ellipseCurve(0.8, 0.4) : starCurve(0.6, {0.05, 0.1}, {0.0, -0.08}));
    nodes.push_back(j % 2 ? 40 : 48);
  }
  return std::make_unique<NystromDiscretization>(c, nodes);
}

struct Dense {
  Eigen::MatrixXd M, S;  // inter-body entries only
};

Dense assemble(const Discretization& d, const NodeLayout& L, const std::vector<lie::Pose>& g) {
  using RowM = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  RowM M = RowM::Zero(L.nodes, L.nodes), S = RowM::Zero(L.nodes, L.nodes);
  for (int P = 0; P < L.bodies; ++P)
    for (int Q = 0; Q < L.bodies; ++Q)
      if (P != Q)
        d.interaction(P, g[P], 0, L.bodySize(P), Q, g[Q], &M(L.offset[P], L.offset[Q]), L.nodes,
                      &S(L.offset[P], L.offset[Q]), L.nodes);
  return {M, S};
}

NodeLayout layoutOf(const Discretization& d) {
  std::vector<int> s;
  for (int j = 0; j < d.bodyCount(); ++j) s.push_back(d.body(j).size());
  return NodeLayout(s);
}

double rel(const Eigen::VectorXd& a, const Eigen::VectorXd& b) { return (a - b).norm() / b.norm(); }

void expectOperatorMatchesDense(const Discretization& d, double eta) {
  const NodeLayout L = layoutOf(d);
  const auto g = randomPoses(L.bodies, 7);
  BodyClusterOperator op(MPI_COMM_SELF, d, L, 0, L.bodies, multipoleOrder(eta), eta);
  op.setPoses(g);
  EXPECT_GT(op.nearPairs(), 0);
  EXPECT_LT(op.nearPairs(), L.bodies * (L.bodies - 1));  // both kinds of pairs are exercised
  const Dense D = assemble(d, L, g);
  std::mt19937 gen(3);
  std::normal_distribution<double> r;
  Eigen::VectorXd v(L.nodes), u(L.nodes);
  for (int i = 0; i < L.nodes; ++i) v[i] = r(gen), u[i] = r(gen);
  Eigen::VectorXd y = Eigen::VectorXd::Zero(L.nodes);
  op.apply(Kind::Normal, v, y);
  EXPECT_LT(rel(y, D.M * v), 1e-12) << d.name() << " M v";
  op.apply(Kind::Potential, v, y);
  EXPECT_LT(rel(y, D.S * v), 1e-12) << d.name() << " S v";
  op.applyTranspose(Kind::Normal, u, y);
  EXPECT_LT(rel(y, D.M.transpose() * u), 1e-12) << d.name() << " M^T u";
  op.applyTranspose(Kind::Potential, u, y);
  EXPECT_LT(rel(y, D.S.transpose() * u), 1e-12) << d.name() << " S^T u";
}

TEST(BodyCluster, PanelOperatorsMatchDenseBlocks) { expectOperatorMatchesDense(*panels(9), 1.6); }
TEST(BodyCluster, NystromOperatorsMatchDenseBlocks) { expectOperatorMatchesDense(*nystrom(9), 1.6); }

/// The far-pair pose gradient (FB-45) of u^T M v + w^T S v against the discretization's exact
/// interactionGradient over the same far pairs (body Q's side by invariance, as in BoundaryFluid).
void expectFarGradientMatchesExact(const Discretization& d, const std::vector<lie::Pose>& g, double eta, double tol) {
  const NodeLayout L = layoutOf(d);
  BodyClusterOperator op(MPI_COMM_SELF, d, L, 0, L.bodies, multipoleOrder(eta), eta);
  op.setPoses(g);
  std::mt19937 gen(17);
  std::normal_distribution<double> r;
  Eigen::VectorXd u(L.nodes), v(L.nodes), w(L.nodes);
  for (int i = 0; i < L.nodes; ++i) u[i] = r(gen), v[i] = r(gen), w[i] = r(gen);
  Eigen::VectorXd fast = Eigen::VectorXd::Zero(3 * L.bodies), exact = fast;
  op.addFarGradient({{&u, &v}}, {{&w, &v}}, fast);
  int far = 0;
  for (int P = 0; P < L.bodies; ++P)
    for (int Q = 0; Q < L.bodies; ++Q) {
      if (P == Q || op.isNear(P, Q)) continue;
      ++far;
      PairWeights pw;
      pw.normal = {{u.data() + L.offset[P], v.data() + L.offset[Q]}};
      pw.potential = {{w.data() + L.offset[P], v.data() + L.offset[Q]}};
      const Eigen::Vector3d e = d.interactionGradient(P, g[P], 0, L.bodySize(P), Q, g[Q], pw);
      const Vec2 cy = e.tail<2>();
      exact[3 * P] += e[0];
      exact.segment<2>(3 * P + 1) += cy;
      exact[3 * Q] -= e[0] + cy.dot(lie::Jrot(g[P].y - g[Q].y));
      exact.segment<2>(3 * Q + 1) -= cy;
    }
  EXPECT_GT(far, 0);
  EXPECT_LT((fast - exact).cwiseAbs().maxCoeff(), tol * exact.cwiseAbs().maxCoeff()) << d.name();
}

TEST(BodyCluster, PanelFarGradientMatchesExact) {
  expectFarGradientMatchesExact(*panels(9), randomPoses(9, 13), 1.6, 1e-12);
}
TEST(BodyCluster, NystromFarGradientMatchesExact) {
  expectFarGradientMatchesExact(*nystrom(9), randomPoses(9, 13), 1.6, 1e-12);
}

/// A non-grid scene for the tree: 24 bodies of radii 0.25 .. 0.9 at random positions (gaps >= 0.3) in a box,
/// and a tight cluster of 6 small bodies (gaps 0.05), random orientations.
struct MixedScene {
  std::vector<double> radius;
  std::vector<lie::Pose> poses;
  explicit MixedScene(unsigned seed) {
    std::mt19937 g(seed);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    while (radius.size() < 24) {
      const double r = 0.25 + 0.65 * u(g), x = 14.0 * u(g), y = 10.0 * u(g), theta = 6.283 * u(g);
      if (fits(Vec2(x, y), r, 0.3)) add(r, lie::Pose{theta, Vec2(x, y)});
    }
    for (int j = 0; j < 6; ++j) add(0.2, lie::Pose{6.283 * u(g), Vec2(-2.0 + 0.45 * (j % 3), 3.0 + 0.45 * (j / 3))});
  }
  bool fits(const Vec2& y, double r, double gap) const {
    for (std::size_t j = 0; j < radius.size(); ++j)
      if ((poses[j].y - y).norm() < radius[j] + r + gap) return false;
    return true;
  }
  void add(double r, const lie::Pose& g) {
    radius.push_back(r);
    poses.push_back(g);
  }
};

std::unique_ptr<Discretization> mixedPanels(const MixedScene& s) {
  std::vector<Polygon> b;
  for (std::size_t j = 0; j < s.radius.size(); ++j)
    b.push_back(j % 3 == 1 ? ellipse(s.radius[j], 0.5 * s.radius[j], 24) : circle(s.radius[j], 16 + 4 * (j % 4)));
  return std::make_unique<PanelDiscretization>(b, PanelCorrection::Auto, 0);
}

std::unique_ptr<Discretization> mixedNystrom(const MixedScene& s) {
  std::vector<SmoothCurve> c;
  std::vector<int> nodes;
  for (std::size_t j = 0; j < s.radius.size(); ++j) {
    const double r = s.radius[j];
    c.push_back(j % 2 ? ellipseCurve(r, 0.5 * r) : starCurve(r / 1.15, {0.05, 0.1}, {0.0, -0.08}));
    nodes.push_back(j % 2 ? 32 : 40);
  }
  return std::make_unique<NystromDiscretization>(c, nodes);
}

/// M v, M^T u, S v, S^T u of the tree (order from eta and tol) against the dense blocks on `g`.
void expectMatchesDense(const Discretization& d, const std::vector<lie::Pose>& g, double eta, double tol) {
  const NodeLayout L = layoutOf(d);
  BodyClusterOperator op(MPI_COMM_SELF, d, L, 0, L.bodies, multipoleOrder(eta), eta);
  op.setPoses(g);
  EXPECT_GT(op.tree().m2lPairs(), 0) << d.name();
  EXPECT_GT(op.nearPairs(), 0) << d.name();
  const Dense D = assemble(d, L, g);
  std::mt19937 gen(5);
  std::normal_distribution<double> r;
  Eigen::VectorXd v(L.nodes), u(L.nodes), y = Eigen::VectorXd::Zero(L.nodes);
  for (int i = 0; i < L.nodes; ++i) v[i] = r(gen), u[i] = r(gen);
  op.apply(Kind::Normal, v, y);
  EXPECT_LT(rel(y, D.M * v), tol) << d.name() << " M v";
  op.apply(Kind::Potential, v, y);
  EXPECT_LT(rel(y, D.S * v), tol) << d.name() << " S v";
  op.applyTranspose(Kind::Normal, u, y);
  EXPECT_LT(rel(y, D.M.transpose() * u), tol) << d.name() << " M^T u";
  op.applyTranspose(Kind::Potential, u, y);
  EXPECT_LT(rel(y, D.S.transpose() * u), tol) << d.name() << " S^T u";
}

TEST(BodyCluster, MixedScenesMatchDenseBlocks) {
  // Different radii, a jittered non-grid layout and a tight cluster: 1e-12 relative at the default tolerance,
  // eta 2 and 1.6, panels and Nystrom.
  const MixedScene s(21);
  for (double eta : {2.0, 1.6}) {
    expectMatchesDense(*mixedPanels(s), s.poses, eta, 1e-12);
    expectMatchesDense(*mixedNystrom(s), s.poses, eta, 1e-12);
  }
}

/// The far pairs (those of `op` at the base poses) of u^T M v + w^T S v that involve body j, from the dense blocks.
double farForm(const Discretization& d, const NodeLayout& L, const BodyClusterOperator& op,
               const std::vector<lie::Pose>& g, int j, const Eigen::VectorXd& u, const Eigen::VectorXd& v,
               const Eigen::VectorXd& w) {
  using RowM = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  double F = 0.0;
  for (int P = 0; P < L.bodies; ++P)
    for (int Q = 0; Q < L.bodies; ++Q) {
      if (P == Q || op.isNear(P, Q) || (P != j && Q != j)) continue;
      RowM M(L.bodySize(P), L.bodySize(Q)), S(L.bodySize(P), L.bodySize(Q));
      d.interaction(P, g[P], 0, L.bodySize(P), Q, g[Q], M.data(), L.bodySize(Q), S.data(), L.bodySize(Q));
      const auto vQ = v.segment(L.offset[Q], L.bodySize(Q));
      F += u.segment(L.offset[P], L.bodySize(P)).dot(M * vQ) + w.segment(L.offset[P], L.bodySize(P)).dot(S * vQ);
    }
  return F;
}

TEST(BodyCluster, MixedScenesFarGradientMatchesExact) {
  const MixedScene s(22);
  for (double eta : {2.0, 1.6}) {
    expectFarGradientMatchesExact(*mixedPanels(s), s.poses, eta, 1e-12);
    expectFarGradientMatchesExact(*mixedNystrom(s), s.poses, eta, 1e-12);
  }
}

TEST(BodyCluster, FarGradientMatchesCentralDifferencesOfDenseBlocks) {
  // (FB-59), (FB-60) through the tree against central differences (h = 1e-5) of the dense far blocks of
  // u^T M v + w^T S v: every theta, x, y of the mixed panel scene. The differences of the panel integrals are
  // good to ~4e-9 relative here (rounding of the O(10^3) pair terms over h), the tree agrees with the exact
  // pair derivatives (interactionGradient, checked above on the grid scene) to ~3e-14.
  const MixedScene s(22);
  const auto d = mixedPanels(s);
  const NodeLayout L = layoutOf(*d);
  BodyClusterOperator op(MPI_COMM_SELF, *d, L, 0, L.bodies, multipoleOrder(2.0), 2.0);
  op.setPoses(s.poses);
  std::mt19937 gen(23);
  std::normal_distribution<double> r;
  Eigen::VectorXd u(L.nodes), v(L.nodes), w(L.nodes);
  for (int i = 0; i < L.nodes; ++i) u[i] = r(gen), v[i] = r(gen), w[i] = r(gen);
  Eigen::VectorXd fast = Eigen::VectorXd::Zero(3 * L.bodies), fd(3 * L.bodies);
  op.addFarGradient({{&u, &v}}, {{&w, &v}}, fast);
  const double h = 1e-5;
  for (int k = 0; k < 3 * L.bodies; ++k) {
    auto at = [&](double sgn) {
      std::vector<lie::Pose> g = s.poses;
      if (k % 3 == 0) g[k / 3].theta += sgn * h;
      else g[k / 3].y[k % 3 - 1] += sgn * h;
      return farForm(*d, L, op, g, k / 3, u, v, w);
    };
    fd[k] = (at(1.0) - at(-1.0)) / (2.0 * h);
  }
  EXPECT_LT((fast - fd).cwiseAbs().maxCoeff(), 2e-8 * fd.cwiseAbs().maxCoeff());
}

TEST(BodyCluster, TruncationErrorFallsWithOrder) {
  // Fixed eta, growing p: the far-field error must fall geometrically, at least like eta^-p / 10.
  const auto d = panels(9);
  const NodeLayout L = layoutOf(*d);
  const auto g = randomPoses(L.bodies, 11);
  const Dense D = assemble(*d, L, g);
  const Eigen::VectorXd v = Eigen::VectorXd::LinSpaced(L.nodes, -1.0, 1.0).array().sin();
  const double eta = 1.6;
  std::vector<double> err;
  for (int p : {8, 16, 24}) {
    BodyClusterOperator op(MPI_COMM_SELF, *d, L, 0, L.bodies, p, eta);
    op.setPoses(g);
    Eigen::VectorXd y = Eigen::VectorXd::Zero(L.nodes);
    op.apply(Kind::Potential, v, y);
    err.push_back(rel(y, D.S * v));
    EXPECT_LT(err.back(), 10.0 * std::pow(eta, -p)) << "p = " << p;
  }
  EXPECT_GT(err[0], 100.0 * err[2]);  // the far pairs really go through the truncated expansions
}

}  // namespace
}  // namespace kirchhoff::fluid
