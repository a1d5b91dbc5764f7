// Scenes of the contact tests (docs/fluidbody.md "Contact"): Nystrom disks and ellipses that meet, a
// model on them, and a run that records the state and invariants of every step.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <mpi.h>

#include "fluid/geometry/Shapes.hpp"
#include "models/fluidbody/FluidBodyModel.hpp"
#include "setup/fluidbody/FluidBodySetup.hpp"

namespace kirchhoff::fluidbody::test {

/// A Nystrom body of density 1 on `curve` with `nodes` nodes at y with velocity v (spatial) and omega.
inline fluidbody::BodyConfig contactBody(const std::string& name, const fluid::SmoothCurve& curve, int nodes,
                                         lie::Vec2 y, lie::Vec2 v, double theta = 0.0, double omega = 0.0) {
  fluidbody::BodyConfig b;
  b.name = name;
  b.curve = curve;
  b.shape = fluid::curveOutline(curve, nodes);
  b.mass = curve.area;
  b.inertia = curve.polarMoment;
  b.pose = {theta, y};
  b.velocity = v;
  b.omega = omega;
  return b;
}

/// Two disks of radius 0.5 at (-+x, 0) moving at (+-v, 0): head-on, mirror symmetric about x = 0.
inline fluidbody::FluidBodyConfig headOn(double dt, int nodes, double x, double v, double distance,
                                         double restitution = 1.0) {
  fluidbody::FluidBodyConfig c;
  c.dt = dt;
  c.discretization = fluid::DiscretizationKind::Nystrom;
  c.bodies.push_back(contactBody("left", fluid::circleCurve(0.5), nodes, lie::Vec2(-x, 0.0), lie::Vec2(v, 0.0)));
  c.bodies.push_back(contactBody("right", fluid::circleCurve(0.5), nodes, lie::Vec2(x, 0.0), lie::Vec2(-v, 0.0)));
  c.contact.distance = distance;
  c.contact.restitution = restitution;
  return c;
}

inline std::unique_ptr<fluidbody::FluidBodyModel> contactModel(fluidbody::FluidBodyConfig c,
                                                               MPI_Comm comm = MPI_COMM_WORLD) {
  auto fluid = setup::makeBoundaryFluid(c, comm);
  return std::make_unique<fluidbody::FluidBodyModel>(std::move(c), std::move(fluid), comm);
}

/// Every step of a run: the state after it, its invariants and its impacts.
struct Record {
  std::vector<Eigen::VectorXd> q, p;
  std::vector<std::string> names;  // the log's columns
  std::vector<std::vector<double>> inv;
  std::vector<std::vector<fluidbody::Impact>> impacts;  // per step
  std::vector<int> solves;
};

inline Eigen::VectorXd field(const State& s, const char* name) {
  const auto& v = s[name];
  return Eigen::Map<const Eigen::VectorXd>(v.data(), static_cast<Eigen::Index>(v.size()));
}

/// `steps` steps of the model from s (recorded, step 0 included when the record is empty).
inline void advance(fluidbody::FluidBodyModel& m, State& s, int steps, Record& r) {
  if (r.q.empty()) {
    r.q.push_back(field(s, "q"));
    r.p.push_back(field(s, "p"));
    const LogRow row = m.logRow(s, {});
    r.names = row.names();
    r.inv.push_back(row.values());
    r.impacts.emplace_back();
    r.solves.push_back(0);
  }
  for (int k = 0; k < steps; ++k) {
    const StepReport rep = m.step(s);
    s.step += 1;
    r.q.push_back(field(s, "q"));
    r.p.push_back(field(s, "p"));
    r.inv.push_back(m.invariants(s, rep));
    r.impacts.push_back(m.lastImpacts());
    r.solves.push_back(m.lastStepSolves());
  }
}

/// The column `name` of the recorded invariant log.
inline std::size_t column(const Record& r, const std::string& name) {
  const auto& n = r.names;
  for (std::size_t i = 0; i < n.size(); ++i)
    if (n[i] == name) return i;
  return n.size();
}

}  // namespace kirchhoff::fluidbody::test
