// Close body pairs in the preconditioner (docs/fluidbody.md (FB-96)): which pairs are coupled, and that a factored
// pair block applies its exact inverse (and transpose) on the owned rows only.
#include <gtest/gtest.h>

#include <random>

#include "fluid/solve/PairBlocks.hpp"

namespace kirchhoff::fluid {
namespace {

std::vector<lie::Pose> atX(const std::vector<double>& x) {
  std::vector<lie::Pose> p;
  for (double v : x) p.push_back(lie::Pose{0.0, lie::Vec2(v, 0.0)});
  return p;
}

TEST(PairBlocks, ClosestPairsFirstEachBodyOnce) {
  // Disks of radius 0.5: gaps 0.01 (0-1), 0.02 (1-2), 0.2 (3-4, below 0.5 r = 0.25), 0.3 (4-5, above).
  const std::vector<double> r(6, 0.5);
  const std::vector<int> u(6, 65);
  const auto pairs = closePairs(atX({0.0, 1.01, 2.03, 10.0, 11.2, 12.5}), r, u);
  ASSERT_EQ(pairs.size(), 2u);
  EXPECT_EQ(pairs[0].j, 0);  // 1-2 is closer than 3-4 but body 1 is taken
  EXPECT_EQ(pairs[0].k, 1);
  EXPECT_EQ(pairs[1].j, 3);
  EXPECT_EQ(pairs[1].k, 4);
}

TEST(PairBlocks, NoPairThatHoldsMostOfTheSystem) {
  // Two bodies: the pair would be the whole system (a direct solve per configuration); a third body of the
  // same size makes it two thirds, still too much; with enough other unknowns it is coupled.
  const std::vector<double> r(3, 0.5);
  EXPECT_TRUE(closePairs(atX({0.0, 1.001}), {0.5, 0.5}, {500, 500}).empty());
  EXPECT_TRUE(closePairs(atX({0.0, 1.001, 5.0}), r, {500, 500, 500}).empty());
  EXPECT_EQ(closePairs(atX({0.0, 1.001, 5.0}), r, {500, 500, 1000}).size(), 1u);
}

TEST(PairBlocks, AppliesTheExactInverseOnTheOwnedRows) {
  // Bodies of 3, 4, 5 augmented rows at 0, 3, 7; the pair (0, 2), rows [0, 3) and [7, 12); owned rows [2, 9).
  std::mt19937 g(3);
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  Eigen::MatrixXd block(8, 8);
  for (int i = 0; i < 8; ++i)
    for (int k = 0; k < 8; ++k) block(i, k) = d(g) + (i == k ? 4.0 : 0.0);
  PairBlocks p;
  int calls = 0;
  p.set({BodyPair{0, 2}}, {0, 3, 7}, {3, 4, 5}, 2, 9, [&](const BodyPair&) {
    ++calls;
    return block;
  });
  EXPECT_EQ(calls, 1);
  EXPECT_TRUE(p.reachesOut());
  const std::vector<int> rows = {0, 1, 2, 7, 8, 9, 10, 11};
  Eigen::VectorXd x(12);
  for (int i = 0; i < 12; ++i) x[i] = d(g);
  Eigen::VectorXd xs(8);
  for (int i = 0; i < 8; ++i) xs[i] = x[rows[i]];
  for (const bool transpose : {false, true}) {
    Eigen::VectorXd y = Eigen::VectorXd::Constant(7, -99.0);  // owned rows 2..8
    p.apply(x.data(), 0, y.data(), 2, transpose);
    const Eigen::VectorXd z =
        transpose ? Eigen::VectorXd(block.transpose().lu().solve(xs)) : Eigen::VectorXd(block.lu().solve(xs));
    EXPECT_NEAR(y[0], z[2], 1e-13);  // row 2
    EXPECT_NEAR(y[5], z[3], 1e-13);  // row 7
    EXPECT_NEAR(y[6], z[4], 1e-13);  // row 8
    for (int i : {1, 2, 3, 4}) EXPECT_EQ(y[i], -99.0);  // rows 3..6: body 1, not in the pair
  }
  PairBlocks none;  // a pair with no owned row is neither assembled nor applied
  none.set({BodyPair{0, 2}}, {0, 3, 7}, {3, 4, 5}, 3, 7, [&](const BodyPair&) {
    ++calls;
    return block;
  });
  EXPECT_EQ(calls, 1);
  EXPECT_FALSE(none.reachesOut());
}

}  // namespace
}  // namespace kirchhoff::fluid
