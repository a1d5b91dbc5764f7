// Deck -> damped: the schema (Rayleigh systems and the dissipative rigid body), the readers into
// RayleighConfig / RigidBodyConfig, the step-size guard, and the run::Driver of kirchhoff-damped.
#pragma once

#include <memory>
#include <string>

#include <mpi.h>

#include "core/Model.hpp"
#include "io/Deck.hpp"
#include "io/Schema.hpp"
#include "models/damped/RayleighModel.hpp"
#include "models/damped/RigidBodyModel.hpp"
#include "run/Main.hpp"

namespace kirchhoff::setup {

/// Root keys: `system` (rayleigh | rigid_body), the section of that name, `stability_guard`.
void addDampedKeys(io::Schema& s);

/// The configurations of the deck, stepping by `dt` (the run configuration's time.dt).
damped::RayleighConfig readRayleighConfig(const io::Deck& deck, double dt);
damped::RigidBodyConfig readRigidBodyConfig(const io::Deck& deck, double dt);

/// The step-size guard for a Rayleigh deck: estimates linear stability of the configured
/// method at time.dt over time.steps (RayleighModel::stability) and
///  - refuses the deck (DeckError at time.dt, bound printed) when the linearized step map grows
///    (rho > 1) and either h*omega_max exceeds the method's undamped bound (2 for the splittings,
///    2.83 for RK4, 0 for Heun) or the growth rho^steps over the run exceeds 10;
///  - otherwise returns a warning text when rho > 1 (a growth below 10 over the run), else "".
/// With `stability_guard: warn` a refusal becomes a warning.
std::string checkRayleighStability(const io::Deck& deck, const damped::RayleighModel& model);
/// DDB with the exp retraction needs h |Omega| < 2 pi for all time; |Omega| <= |M0| / I_min, so a
/// deck with dt |M0| / I_min >= 2 pi is refused. Returns "" (no warnings).
std::string checkRigidBodyStepSize(const io::Deck& deck, const damped::RigidBodyConfig& cfg);

/// Builds the model of the deck with time step `dt`; `warning` receives the guard's text ("" if none).
std::unique_ptr<Model> makeDampedModel(const io::Deck& deck, double dt, std::string* warning);

run::Driver dampedDriver();

}  // namespace kirchhoff::setup
