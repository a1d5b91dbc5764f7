// Plain configuration of a fluidbody run (bodies, vortices, fluid density, time step), filled
// from the deck by setup/fluidbody and handed to the model; no YAML or MPI in here.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "fluid/BoundaryFluidFactory.hpp"
#include "fluid/geometry/PiecewiseCurve.hpp"
#include "fluid/geometry/Polygon.hpp"
#include "fluid/geometry/SmoothCurve.hpp"
#include "integrators/Composition.hpp"
#include "lie/SE2.hpp"

namespace kirchhoff::fluidbody {

struct BodyConfig {
  std::string name;
  fluid::Polygon shape;             ///< body frame, counter-clockwise, centroid at the origin
  /// The analytic curve of a circle, ellipse or star (the Nystrom geometry; `shape` is then its
  /// outline through the nodes, with the curve's exact area and polar moment).
  std::optional<fluid::SmoothCurve> curve;
  /// The piecewise-smooth curve of a plate or polygon (gauss_panels; `shape` then carries its exact
  /// area and polar moment and serves the distance checks only).
  std::optional<fluid::PiecewiseCurve> piecewise;
  double mass = 0.0;                ///< m_j
  double inertia = 0.0;             ///< i_j, polar moment about the centroid
  lie::Pose pose;                   ///< (theta_j, y_j) at t = 0
  double omega = 0.0;               ///< angular velocity at t = 0
  lie::Vec2 velocity = lie::Vec2::Zero();  ///< centre velocity at t = 0
  bool bodyFrameVelocity = false;   ///< velocity given in the body frame (V) instead of y_dot

  /// Body-frame velocity V_j = R(theta_j)^T y_dot_j at t = 0 (as given, if bodyFrameVelocity).
  lie::Vec2 bodyVelocity() const {
    return bodyFrameVelocity ? velocity : lie::Vec2(lie::rotation(-pose.theta) * velocity);
  }
};

struct VortexConfig {
  lie::Vec2 position = lie::Vec2::Zero();
  double circulation = 0.0;  ///< K_i, counter-clockwise positive
};

/// Which energy an impact keeps (or loses as prescribed): the discrete energy E_d of the sub-steps on
/// either side (FB-85, Fetecau et al. 2003), or the energy H at the contact point (FB-85b).
enum class EnergyCondition { Discrete, ContactPoint };

/// The deck section `contact` (docs/fluidbody.md "Contact"): the impact law or none.
struct ContactConfig {
  bool impacts = true;       ///< contact.law: impact; false: none (the run stops at an overlap)
  double restitution = 1.0;  ///< e in [0, 1] (FB-85)
  double distance = 0.0;     ///< delta > 0 of the contact set (FB-80); 0: 1e-3 of the smallest body size
  EnergyCondition energy = EnergyCondition::ContactPoint;  ///< contact.energy (docs/fluidbody.md "Contact")
  double approachFraction = 0.02;  ///< rho of the approach sub-steps (FB-88)
};

struct FluidBodyConfig {
  double dt = 0.0;
  /// One step = the composition (docs/composition.md (CM-1)) of DEL steps of sizes gamma_i dt.
  integrators::Composition composition = integrators::Composition::None;
  double fluidDensity = 1.0;
  /// fluid.discretization resolved: auto -> nystrom if every body is a smooth analytic shape.
  fluid::DiscretizationKind discretization = fluid::DiscretizationKind::Panel;
  /// Order, longest panel and grading levels of gauss_panels (docs/fluidbody.md (FB-40)).
  fluid::GaussPanelOptions gaussPanels;
  std::vector<BodyConfig> bodies;
  std::vector<VortexConfig> vortices;
  /// Stop when a vortex comes closer to a body than this many panel lengths (or bodies touch).
  double minDistancePanels = 1.0;
  /// The vortex-to-body stop in panel lengths: fluid.min_distance_panels for the panel discretization;
  /// 0 (a vortex outside the body) for nystrom and gauss_panels, which refine toward it (FB-64) and stop
  /// where the error estimate exceeds fluid.tolerance.
  double vortexStopPanels() const {
    return discretization == fluid::DiscretizationKind::Panel ? minDistancePanels : 0.0;
  }
  /// fluid.tolerance: relative accuracy of A(g) and the vortex velocities held by refineFor (docs/fluidbody.md
  /// "Close gaps"); nystrom and gauss_panels only.
  double fluidTolerance = 1e-8;
  ContactConfig contact;
};

}  // namespace kirchhoff::fluidbody
