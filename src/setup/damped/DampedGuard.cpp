// The step-size guard of kirchhoff-damped (an unstable dt must not run silently): refuses or warns about a dt that
// breaks an explicit scheme's linear stability, printing h*omega_max, the bound and the growth.
#include <cmath>
#include <sstream>

#include "core/Constants.hpp"
#include "io/RunConfig.hpp"
#include "setup/damped/DampedSetup.hpp"

namespace kirchhoff::setup {

std::string checkRayleighStability(const io::Deck& deck, const damped::RayleighModel& model) {
  const io::RunConfig rc = io::readRunConfig(deck);
  const damped::RayleighMethod& m = model.config().method;
  if (m.kind == damped::RayleighMethod::Kind::Dop853) return "";
  const damped::StabilityEstimate e = model.stability(static_cast<long>(rc.steps));
  const bool unstable = e.rho > 1.0 + 1e-12;
  const bool refuse = unstable && (e.growth > 10.0 || e.hOmega > e.bound);
  if (!unstable) return "";
  std::ostringstream os;
  os << damped::describe(m) << " at dt = " << rc.dt << " is linearly unstable for this system: "
     << e.text();
  if (refuse && deck.root().string("stability_guard") == "refuse")
    deck.root().map("time").fail("dt", os.str() + "; reduce dt (or set stability_guard: warn)");
  return os.str();
}

std::string checkRigidBodyStepSize(const io::Deck& deck, const damped::RigidBodyConfig& cfg) {
  if (cfg.method.kind != damped::RigidBodyMethod::Kind::DDB ||
      cfg.method.ddb.retraction != damped::Retraction::Exp)
    return "";
  const double Imin = cfg.inertia.diagonal().minCoeff();
  const double thetaMax = cfg.dt * cfg.M0.norm() / Imin;  // h |Omega| <= h |M| / I_min, |M| fixed
  if (thetaMax >= kTwoPi) {
    std::ostringstream os;
    os << "DDB with the exp retraction needs h |Omega| < 2 pi (dexp^-1 is singular there); "
       << "dt |M0| / I_min = " << thetaMax << ": use dt < " << kTwoPi * Imin / cfg.M0.norm()
       << " or retraction: cayley";
    deck.root().map("time").fail("dt", os.str());
  }
  return "";
}

}  // namespace kirchhoff::setup
