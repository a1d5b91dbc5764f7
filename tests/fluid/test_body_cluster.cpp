// The body-cluster operator (docs/fluidbody.md (FB-41)-(FB-45)) against the assembled dense inter-body
// blocks of the discretization: M v, M^T u, S v, S^T u and the far-pair pose gradient of u^T M v, u^T S v.
#include <gtest/gtest.h>

#include <random>

#include "fluid/BodyClusterOperator.hpp"
#include "fluid/NystromDiscretization.hpp"
#include "fluid/PanelDiscretization.hpp"
#include "fluid/Shapes.hpp"

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
void expectFarGradientMatchesExact(const Discretization& d, double eta, double tol) {
  const NodeLayout L = layoutOf(d);
  const auto g = randomPoses(L.bodies, 13);
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

TEST(BodyCluster, PanelFarGradientMatchesExact) { expectFarGradientMatchesExact(*panels(9), 1.6, 1e-12); }
TEST(BodyCluster, NystromFarGradientMatchesExact) { expectFarGradientMatchesExact(*nystrom(9), 1.6, 1e-12); }

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
