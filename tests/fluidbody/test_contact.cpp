// The contact law (docs/fluidbody.md "Contact", (FB-80)..(FB-86)): two disks head-on bounce with mirror
// symmetry, exact momentum maps, their speeds back and the motion reversible; e < 1 loses exactly the
// prescribed energy; an oblique impact of an ellipse and a disk spins the ellipse.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <tuple>

#include "ContactScene.hpp"

using namespace kirchhoff;
using namespace kirchhoff::fluidbody;
using namespace kirchhoff::fluidbody::test;

namespace {

/// The head-on scene of these tests: disks of radius 0.5 (128 nodes, resolved to 1e-11 at gaps >= 0.1),
/// gap 0.2 at +-0.1, contact distance 0.1, dt 0.01: one impact at step 51 (alpha 0.74), gap 0.2 again
/// after step 100.
constexpr int kNodes = 128;
constexpr double kX = 0.6, kV = 0.1, kDelta = 0.1, kDt = 0.01;

struct HeadOn {
  std::unique_ptr<FluidBodyModel> model;
  State s;
  Record r;
};

HeadOn headOnRun(int steps, double e = 1.0, EnergyCondition energy = EnergyCondition::Discrete) {
  FluidBodyConfig c = headOn(kDt, kNodes, kX, kV, kDelta, e);
  c.contact.energy = energy;
  HeadOn run{contactModel(c), {}, {}};
  run.s = run.model->initialState();
  test::advance(*run.model, run.s, steps, run.r);
  return run;
}

std::vector<double> column(const HeadOn& run, const char* name) {
  std::vector<double> v;
  const std::size_t j = test::column(run.r, name);
  for (const auto& row : run.r.inv) v.push_back(row.at(j));
  return v;
}

int impactStep(const Record& r) {
  for (std::size_t k = 0; k < r.impacts.size(); ++k)
    if (!r.impacts[k].empty()) return static_cast<int>(k);
  return -1;
}

/// |J(k) - J(0)| of the three momentum maps (FB-27), max over the run, relative to sum_j |p_y_j(0)|.
double momentumError(const HeadOn& run) {
  double scale = 0.0;
  for (int j = 0; j < 2; ++j) scale += run.r.p[0].segment<2>(3 * j + 1).norm();
  double err = 0.0;
  for (const auto& row : run.r.inv)
    for (std::size_t c : {1u, 2u, 3u}) err = std::max(err, std::abs(row[c] - run.r.inv[0][c]) / scale);
  return err;
}

/// The speed of the left disk when the gap passes `gap` again after the impact (linear in the gap
/// between the two steps around it), from the inverse Legendre map.
double speedAtGap(HeadOn& run, double gap) {
  const auto g = column(run, "min_body_body_distance");
  for (std::size_t k = static_cast<std::size_t>(impactStep(run.r)); k + 1 < g.size(); ++k)
    if (g[k] < gap && g[k + 1] >= gap) {
      auto speed = [&](std::size_t i) {
        const Eigen::VectorXd Xi = run.model->lagrangian().bodyVelocity(run.r.q[i], run.r.p[i]);
        return Xi.segment<2>(1).norm();
      };
      const double w = (gap - g[k]) / (g[k + 1] - g[k]);
      return (1 - w) * speed(k) + w * speed(k + 1);
    }
  return NAN;
}

/// max |H - H0| / H0 before the impact step and after it.
std::pair<double, double> energyErrors(const HeadOn& run) {
  const auto H = column(run, "energy");
  const int hit = impactStep(run.r);
  double pre = 0, post = 0;
  for (std::size_t k = 0; k < H.size(); ++k)
    (static_cast<int>(k) < hit ? pre : post) =
        std::max(static_cast<int>(k) < hit ? pre : post, std::abs(H[k] - H[0]) / H[0]);
  return {pre, post};
}

/// Mirror symmetry about x = 0 (x_left = -x_right, the rest zero) over the run: the largest defect.
double mirrorDefect(const Record& r) {
  double m = 0.0;
  for (std::size_t k = 0; k < r.q.size(); ++k) {
    const Eigen::VectorXd& q = r.q[k];
    const Eigen::VectorXd& p = r.p[k];
    m = std::max({m, std::abs(q[1] + q[4]), std::abs(q[2]), std::abs(q[5]), std::abs(q[0]), std::abs(q[3]),
                  std::abs(p[1] + p[4]), std::abs(p[2]), std::abs(p[5]), std::abs(p[0]), std::abs(p[3])});
  }
  return m;
}

/// Runs `run` on for `steps` steps from its state with the momenta flipped (and the predictor's
/// direction): |q - q0| and |p + p0| at the end, and the impacts on the way.
std::tuple<double, double, int> reversed(HeadOn& run, int steps) {
  State& s = run.s;
  const Eigen::VectorXd q = field(s, "q"), p = -field(s, "p");
  const Eigen::VectorXd qprev = field(s, "q_previous").head(q.size());  // q_k-1 (q_k-2 follows it, (FB-95))
  const Eigen::VectorXd back = 2.0 * q - qprev;
  s["p"].assign(p.data(), p.data() + p.size());
  s["q_previous"].assign(back.data(), back.data() + back.size());
  Record rev;
  test::advance(*run.model, s, steps, rev);
  int impacts = 0;
  for (const auto& i : rev.impacts) impacts += static_cast<int>(i.size());
  return {(field(s, "q") - run.r.q[0]).norm(), (field(s, "p") + run.r.p[0]).norm(), impacts};
}

}  // namespace

TEST(Contact, DiscreteEnergyIsMinusTheStepDerivativeOfLd) {
  // (FB-83): E_d = -dL_d/dh at fixed (q_k, q_k+1), by central differences in h.
  HeadOn run = headOnRun(3);
  MidpointLagrangian& L = run.model->lagrangian();
  for (double h : {0.01, 0.003}) {
    const double eps = 1e-6 * h;
    L.setTimeStep(h + eps);
    const double up = L.value(run.r.q[1], run.r.q[2]);
    L.setTimeStep(h - eps);
    const double down = L.value(run.r.q[1], run.r.q[2]);
    L.setTimeStep(h);
    const double Ed = L.discreteEnergy(run.r.q[1], run.r.q[2]);
    EXPECT_NEAR(-(up - down) / (2 * eps), Ed, 1e-8 * std::abs(Ed)) << "h " << h;
  }
  L.setTimeStep(kDt);
}

TEST(Contact, HeadOnBounceIsMirrorSymmetricAndKeepsMomentumAndSpeed) {
  // The default law (FB-85b): H kept at the contact point, one DEL solve for the impulse; the bounce is
  // the mirror image of the approach, so the energy error after it is the approach's.
  HeadOn run = headOnRun(110, 1.0, EnergyCondition::ContactPoint);
  const int hit = impactStep(run.r);
  ASSERT_EQ(hit, 51);
  int impacts = 0;
  for (const auto& i : run.r.impacts) impacts += static_cast<int>(i.size());
  EXPECT_EQ(impacts, 1);
  EXPECT_EQ(column(run, "impacts").back(), 1.0);
  const Impact& im = run.r.impacts[static_cast<std::size_t>(hit)][0];
  EXPECT_NEAR(im.gap, kDelta, 1e-12);                                     // on the contact set (FB-82)
  EXPECT_NEAR(im.energyAfter, im.energyBefore, 1e-13 * im.energyBefore);  // (FB-85b), e = 1
  EXPECT_EQ(im.solves, 1);
  const double mirror = mirrorDefect(run.r), momentum = momentumError(run);
  const auto [pre, post] = energyErrors(run);
  const double v = speedAtGap(run, 2 * kX - 1.0);
  std::printf("contact point: alpha %.4f, %d DEL solves in the step; mirror %.3e, momentum maps %.3e, "
              "|dH/H| before %.3e after %.3e, speed at gap 0.2 %.3e\n", im.fraction,
              run.r.solves[static_cast<std::size_t>(hit)], mirror, momentum, pre, post, v / kV - 1);
  EXPECT_LT(mirror, 1e-13);
  EXPECT_LT(momentum, 1e-12);
  EXPECT_LT(post, 1.1 * pre);     // measured 1.02
  EXPECT_NEAR(v, kV, 1e-6 * kV);  // measured 5.2e-7: the energy error of the approach
}

TEST(Contact, HeadOnBounceIsTimeReversible) {
  // Through the impact and back: flip the momenta, step as many times; the start comes back.
  HeadOn run = headOnRun(90, 1.0, EnergyCondition::ContactPoint);
  const auto [dq, dp, impacts] = reversed(run, 90);
  std::printf("time reversal: |q - q0| %.3e, |p + p0| %.3e\n", dq, dp);
  EXPECT_EQ(impacts, 1);
  EXPECT_LT(dq, 1e-10);
  EXPECT_LT(dp, 1e-10);
}

TEST(Contact, DiscreteEnergyConditionIsTheVariationalCollisionIntegrator) {
  // (FB-85): E_d of the sub-steps kept; mirror symmetric, momentum maps exact, reversible; H after the
  // bounce within 3x the approach's error (the sub-steps' modified energies differ at O(h^2)).
  HeadOn run = headOnRun(110, 1.0, EnergyCondition::Discrete);
  const int hit = impactStep(run.r);
  ASSERT_EQ(hit, 51);
  const Impact& im = run.r.impacts[static_cast<std::size_t>(hit)][0];
  EXPECT_NEAR(im.gap, kDelta, 1e-12);
  // to the root tolerance 1e-12 (E_d + T_n) (measured 1.5e-12 E_d)
  EXPECT_NEAR(im.energyAfter, im.energyBefore, 1e-12 * (im.energyBefore + im.normalEnergy));
  const double mirror = mirrorDefect(run.r), momentum = momentumError(run);
  const auto [pre, post] = energyErrors(run);
  const double v = speedAtGap(run, 2 * kX - 1.0);
  std::printf("discrete: %d DEL solves for the impulse, %d in the step; mirror %.3e, momentum maps %.3e, "
              "|dH/H| before %.3e after %.3e, speed at gap 0.2 %.3e\n", im.solves,
              run.r.solves[static_cast<std::size_t>(hit)], mirror, momentum, pre, post, v / kV - 1);
  EXPECT_LT(mirror, 1e-13);
  EXPECT_LT(momentum, 1e-12);
  EXPECT_LT(post, 3.0 * pre);     // measured 2.4
  EXPECT_NEAR(v, kV, 1e-6 * kV);  // measured 2.5e-7
  HeadOn back = headOnRun(90, 1.0, EnergyCondition::Discrete);
  const auto [dq, dp, impacts] = reversed(back, 90);
  std::printf("discrete, time reversal: |q - q0| %.3e, |p + p0| %.3e\n", dq, dp);
  EXPECT_EQ(impacts, 1);
  EXPECT_LT(dq, 1e-10);
  EXPECT_LT(dp, 1e-10);
}

TEST(Contact, RestitutionLosesThePrescribedEnergy) {
  // e = 0.5 head-on: the impact takes (1 - e^2) T_n of the kept energy (FB-85b, FB-85); for equal disks
  // head-on the normal motion is all the motion, so far from the impact H = e^2 H0 and each speed is
  // e v0 (to the scheme's energy error, ~1e-6).
  const double e = 0.5;
  for (const EnergyCondition law : {EnergyCondition::ContactPoint, EnergyCondition::Discrete}) {
    HeadOn run = headOnRun(200, e, law);
    const int hit = impactStep(run.r);
    ASSERT_GT(hit, 0);
    const Impact& im = run.r.impacts[static_cast<std::size_t>(hit)][0];
    EXPECT_NEAR(im.energyBefore - im.energyAfter, (1 - e * e) * im.normalEnergy,
                1e-12 * (im.energyBefore + im.normalEnergy));
    const auto H = column(run, "energy");
    const auto loss = column(run, "impact_energy_loss");
    EXPECT_EQ(loss.back(), im.energyBefore - im.energyAfter);  // the log's impact_energy_loss
    const double v = speedAtGap(run, 2 * kX - 1.0);
    std::printf("e = 0.5 (%s): T_n / H0 %.9f, H after / H0 %.9f, (H + loss) / H0 - 1 %.3e, speed / v0 %.9f\n",
                law == EnergyCondition::Discrete ? "discrete" : "contact point", im.normalEnergy / H[0],
                H.back() / H[0], (H.back() + loss.back()) / H[0] - 1, v / kV);
    EXPECT_NEAR(im.normalEnergy, H[0], 1e-5 * H[0]);
    EXPECT_NEAR(H.back(), e * e * H[0], 1e-5 * H[0]);
    EXPECT_NEAR(v, e * kV, 1e-5 * kV);
  }
}

TEST(Contact, ObliqueImpactSpinsTheEllipse) {
  // A disk (radius 0.4) hits an ellipse (0.6 x 0.3, turned by 0.3) at rest off its centre line: the
  // impulse along grad phi (FB-81) sets the ellipse turning; the momentum maps stay exact through it.
  FluidBodyConfig c;
  c.dt = kDt;
  c.discretization = fluid::DiscretizationKind::Nystrom;
  c.bodies.push_back(contactBody("ellipse", fluid::ellipseCurve(0.6, 0.3), 192, lie::Vec2(0.0, 0.0), lie::Vec2(0.0, 0.0), 0.3));
  c.bodies.push_back(contactBody("disk", fluid::circleCurve(0.4), 128, lie::Vec2(-1.0, 0.2), lie::Vec2(0.2, 0.0)));
  c.contact.distance = 0.05;
  HeadOn run{contactModel(c), {}, {}};
  run.s = run.model->initialState();
  test::advance(*run.model, run.s, 80, run.r);
  const int hit = impactStep(run.r);
  ASSERT_GT(hit, 0);
  const Impact& im = run.r.impacts[static_cast<std::size_t>(hit)][0];
  const Eigen::VectorXd Xi = run.model->lagrangian().bodyVelocity(run.r.q.back(), run.r.p.back());
  const auto [pre, post] = energyErrors(run);
  std::printf("oblique: step %d alpha %.4f, omega before %.3e after %.6f, momentum %.3e, E_d %.3e, energy %.3e / %.3e\n",
              hit, im.fraction, run.model->lagrangian().bodyVelocity(run.r.q[static_cast<std::size_t>(hit - 1)],
                                                                     run.r.p[static_cast<std::size_t>(hit - 1)])[0],
              Xi[0], momentumError(run), (im.energyAfter - im.energyBefore) / im.energyBefore, pre, post);
  EXPECT_NEAR(im.gap, 0.05, 1e-12);
  EXPECT_NEAR(im.energyAfter, im.energyBefore, 1e-12 * (im.energyBefore + im.normalEnergy));
  EXPECT_LT(momentumError(run), 1e-12);
  EXPECT_GT(std::abs(Xi[0]), 0.1);  // the ellipse turns after the impact
  EXPECT_LT(post, 3.0 * pre);
}

TEST(Contact, PlasticImpactStopsHeadOnDisks) {
  // e = 0 (FB-85b): the normal motion is all the motion, so both disks stop at the impact; nothing moves
  // after it, no second impact.
  HeadOn run = headOnRun(60, 0.0, EnergyCondition::ContactPoint);
  const int hit = impactStep(run.r);
  ASSERT_EQ(hit, 51);
  const Impact& im = run.r.impacts[static_cast<std::size_t>(hit)][0];
  EXPECT_NEAR(im.energyAfter, im.energyBefore - im.normalEnergy, 1e-13 * im.energyBefore);
  const Eigen::VectorXd Xi = run.model->lagrangian().bodyVelocity(run.r.q.back(), run.r.p.back());
  EXPECT_LT(Xi.norm(), 1e-12 * kV);
  EXPECT_EQ(column(run, "impacts").back(), 1.0);
}

TEST(Contact, SeveralImpactsInOneStepOneAfterAnother) {
  // Three disks in a row (64 nodes, delta 0.1): the left one hits the middle one 0.0015 beyond the contact
  // distance, the middle one is 1e-4 beyond it from the right one: both impacts in step 1, one after
  // another (FB-86); momentum maps exact through both, each impact keeps H.
  FluidBodyConfig c = headOn(0.01, 64, 1.1015, 0.2, 0.1);
  c.contact.energy = EnergyCondition::ContactPoint;
  c.bodies[1].pose.y = lie::Vec2(0.0, 0.0);
  c.bodies[1].velocity = lie::Vec2(0.0, 0.0);
  c.bodies[1].name = "middle";
  c.bodies.push_back(contactBody("right", fluid::circleCurve(0.5), 64, lie::Vec2(1.1001, 0.0), lie::Vec2(0.0, 0.0)));
  HeadOn run{contactModel(c), {}, {}};
  run.s = run.model->initialState();
  test::advance(*run.model, run.s, 3, run.r);
  ASSERT_EQ(run.r.impacts[1].size(), 2u);
  const Impact &first = run.r.impacts[1][0], &second = run.r.impacts[1][1];
  std::printf("two impacts in one step: (%d, %d) at alpha %.4f, (%d, %d) at %.4f; %d DEL solves\n", first.a, first.b,
              first.fraction, second.a, second.b, second.fraction, run.r.solves[1]);
  EXPECT_EQ(std::make_pair(first.a, first.b), std::make_pair(0, 1));
  EXPECT_EQ(std::make_pair(second.a, second.b), std::make_pair(1, 2));
  EXPECT_LT(first.fraction, second.fraction);
  for (const Impact* im : {&first, &second}) EXPECT_NEAR(im->energyAfter, im->energyBefore, 1e-13 * im->energyBefore);
  double scale = 0.0;
  for (int j = 0; j < 3; ++j) scale += run.r.p[0].segment<2>(3 * j + 1).norm();
  // The sub-step of 0.0625 h between the impacts has 16x the residual floor of a full step (FB-86):
  // measured 1.2e-12 relative.
  for (const auto& row : run.r.inv)
    for (std::size_t k : {1u, 2u, 3u}) EXPECT_LT(std::abs(row[k] - run.r.inv[0][k]), 2e-12 * scale);
  // The right disk carries the momentum on; the gaps stay above the contact distance after the step.
  const Eigen::VectorXd Xi = run.model->lagrangian().bodyVelocity(run.r.q.back(), run.r.p.back());
  EXPECT_GT(Xi[7], Xi[4]);
  EXPECT_GT(Xi[7], Xi[1]);
  EXPECT_GT(column(run, "min_body_body_distance").back(), 0.1);
}

TEST(Contact, ApproachSubStepsHoldTheEnergyAtATightContactDistance) {
  // (FB-88): disks of radius 0.5 (32 nodes, refined toward each other) from a gap of 0.01 at +-0.1 to
  // the contact distance 0.005 and apart again, dt 0.01. Near contact a step moves the gap by 40 % of
  // the gap; split into 2^k sub-steps, each moving it by <= 2 % of the gap, the energy
  // keeps the error of the far approach (H is exactly conserved: the reference is H0) and the bounce
  // is mirror symmetric with exact momentum maps.
  const FluidBodyConfig c = headOn(kDt, 32, 0.505, kV, 0.005);
  HeadOn run{contactModel(c), {}, {}};
  run.s = run.model->initialState();
  int most = 1, far = 0;
  Record& r = run.r;
  for (int k = 0; k < 12; ++k) {
    test::advance(*run.model, run.s, 1, r);
    most = std::max(most, run.model->lastSubSteps());
    if (k == 11) far = run.model->lastSubSteps();
  }
  const auto g = column(run, "min_body_body_distance");
  const auto [pre, post] = energyErrors(run);
  std::printf("approach sub-steps: impact at step %d, most sub-steps %d, last %d, gap at the end %.4f, "
              "|dH/H0| before %.3e after %.3e, momentum %.3e, mirror %.3e\n",
              impactStep(r), most, far, g.back(), pre, post, momentumError(run), mirrorDefect(r));
  ASSERT_GT(impactStep(r), 0);
  EXPECT_EQ(column(run, "impacts").back(), 1.0);
  EXPECT_GE(most, 16);           // |v_n| dt = 2e-3 at the contact distance 5e-3: 2e-3 / (0.02 x 5e-3) = 20
  EXPECT_GT(g.back(), 0.01);     // apart again
  EXPECT_LT(std::max(pre, post), 1e-6);
  EXPECT_LT(momentumError(run), 1e-12);
  EXPECT_LT(mirrorDefect(r), 1e-12);
}

TEST(Contact, AnApproachBeyondTheSubStepLimitStopsWithTheStateKept) {
  // (FB-88) at its edge: disks 0.02 apart closing at 0.4 with dt 0.1 would cross the contact distance
  // 1e-3 within one step: |change| / (rho delta) = 0.04 / (0.02 x 1e-3) = 2000 > 1024 sub-steps. The
  // step stops naming the pair and asking for a smaller dt, with the state of the step's start kept
  // (checkpointState), never a coarser step.
  const FluidBodyConfig c = headOn(0.1, 32, 0.51, 0.2, 0.001);
  auto model = contactModel(c);
  State s = model->initialState();
  const std::vector<double> q = s["q"], p = s["p"];
  try {
    model->step(s);
    FAIL() << "the step did not stop";
  } catch (const NumericalError& e) {
    const std::string what = e.what();
    EXPECT_TRUE(e.checkpointState());
    EXPECT_EQ(e.step(), 0);
    EXPECT_NE(what.find("bodies 'left' and 'right' approach by 0.04"), std::string::npos) << what;
    EXPECT_NE(what.find("more than 1024 sub-steps"), std::string::npos) << what;
    EXPECT_NE(what.find("reduce time.dt"), std::string::npos) << what;
  }
  EXPECT_EQ(s["q"], q);
  EXPECT_EQ(s["p"], p);
}
