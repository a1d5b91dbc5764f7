// One step of any method for the dissipative rigid body (docs/damped.md Sec. 2): DDB (exp/Cayley,
// plain/symmetric) and the comparisons RK4, 3-stage Lobatto IIIC and adaptive DOP853 (reference).
#pragma once

#include <string>

#include "core/Choices.hpp"
#include "integrators/Dop853.hpp"
#include "integrators/LobattoIIIC.hpp"
#include "models/damped/DoubleBracket.hpp"
#include "models/damped/RigidBody.hpp"

namespace kirchhoff::damped {

struct RigidBodyMethod {
  enum class Kind { DDB, RK4, LobattoIIIC, Dop853 };
  Kind kind = Kind::DDB;
  DdbOptions ddb{};                       ///< Kind::DDB
  integrators::LobattoOptions lobatto{};  ///< Kind::LobattoIIIC
  integrators::Dop853Options dop{};       ///< Kind::Dop853
};

/// The deck names of scheme.method: "ddb", "rk4", "lobatto_iiic", "dop853".
const Choices<RigidBodyMethod::Kind>& rigidBodyMethods();

std::string describe(const RigidBodyMethod& m);

/// Advances M from time t by h; returns the nonlinear-solve statistics (zeros for explicit
/// methods). The caller turns converged == false into a NumericalError.
DdbReport rigidBodyStep(const DissipativeRigidBody& body, const RigidBodyMethod& m, Vec3& M,
                        double t, double h);

}  // namespace kirchhoff::damped
