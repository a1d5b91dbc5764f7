// Dispatch of one rigid-body step to DDB (docs/damped.md Sec. 2) or to RK4, Lobatto IIIC and
// DOP853 on dM/dt = M x Omega + alpha M x (M x Omega).
#include "models/damped/RigidBodyIntegrator.hpp"

#include "integrators/RungeKutta.hpp"

namespace kirchhoff::damped {

const Choices<RigidBodyMethod::Kind>& rigidBodyMethods() {
  using K = RigidBodyMethod::Kind;
  static const Choices<K> c("rigid-body scheme",
                            {{"ddb", K::DDB}, {"rk4", K::RK4}, {"lobatto_iiic", K::LobattoIIIC}, {"dop853", K::Dop853}});
  return c;
}

std::string describe(const RigidBodyMethod& m) {
  switch (m.kind) {
    case RigidBodyMethod::Kind::DDB:
      return std::string("DDB-") + (m.ddb.retraction == Retraction::Exp ? "exp" : "Cayley") +
             (m.ddb.variant == DdbVariant::Plain ? "" : " symmetric");
    case RigidBodyMethod::Kind::RK4: return "RK4";
    case RigidBodyMethod::Kind::LobattoIIIC: return "Lobatto IIIC";
    case RigidBodyMethod::Kind::Dop853: return "DOP853";
  }
  return "";
}

DdbReport rigidBodyStep(const DissipativeRigidBody& body, const RigidBodyMethod& m, Vec3& M,
                        double t, double h) {
  using Eigen::MatrixXd;
  using Eigen::VectorXd;
  auto f = [&body](double, const VectorXd& y) { return VectorXd(body.rhs(Vec3(y))); };
  DdbReport rep;
  switch (m.kind) {
    case RigidBodyMethod::Kind::DDB: return ddbStep(body, m.ddb, h, M);
    case RigidBodyMethod::Kind::RK4: {
      auto f3 = [&body](double, const Vec3& y) { return Vec3(body.rhs(y)); };
      M = integrators::rk4Step(f3, t, M, h);
      break;
    }
    case RigidBodyMethod::Kind::LobattoIIIC: {
      auto jac = [&body](double, const VectorXd& y) { return MatrixXd(body.jacobian(Vec3(y))); };
      const auto r = integrators::lobattoIIICStep(f, jac, t, VectorXd(M), h, m.lobatto);
      rep.converged = r.newton.converged;
      rep.iterations = r.newton.iterations;
      rep.residualNorm = r.newton.residualNorm;
      M = r.y;
      break;
    }
    case RigidBodyMethod::Kind::Dop853:
      M = integrators::dop853(f, t, VectorXd(M), {t + h}, m.dop).front();
      break;
  }
  return rep;
}

}  // namespace kirchhoff::damped
