// The quantity tables behind the datasets' units / description / kind attributes (docs/output.md
// "The invariant log", "Snapshots", "Flow fields"); postprocess/kirchhoff/fallback.py keeps the
// same table for files written before the attributes existed.
#include "io/Quantities.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "io/Deck.hpp"

namespace kirchhoff::io {

namespace {

struct Entry {
  const char* units;
  const char* kind;
  const char* description;
  bool integer = false;
};
using Table = std::map<std::string, Entry>;

const std::map<std::string, Table>& logTables() {
  static const std::map<std::string, Table> t = {
      {"fluidbody",
       {{"energy", {"1", "conserved", "H = 1/2 <K(g) Xi, Xi> - W_G, kinetic energy of bodies and fluid (finite part), (FB-11)"}},
        {"momentum_x", {"1", "conserved", "discrete momentum map J_trans, x (FB-27)"}},
        {"momentum_y", {"1", "conserved", "discrete momentum map J_trans, y (FB-27)"}},
        {"angular_momentum", {"1", "conserved", "discrete momentum map J_rot (FB-27)"}},
        {"c2_momentum_x", {"1", "conserved", "Corollary 2 momentum, x (FB-14), continuous Legendre map for the vortices"}},
        {"c2_momentum_y", {"1", "conserved", "Corollary 2 momentum, y (FB-14)"}},
        {"c2_angular_momentum", {"1", "conserved", "Corollary 2 angular momentum (FB-14)"}},
        {"impulse_x", {"1", "diagnostic", "linear impulse sum_i K_i gamma_i, x (conserved without bodies)"}},
        {"impulse_y", {"1", "diagnostic", "linear impulse sum_i K_i gamma_i, y (conserved without bodies)"}},
        {"angular_impulse", {"1", "diagnostic", "angular impulse sum_i K_i |gamma_i|^2 (conserved without bodies)"}},
        {"legendre_residual", {"1", "diagnostic", "max_i |p_gamma_i + rho K_i J gamma_i / 2|: size of the parasitic mode (FB-28)"}},
        {"min_body_vortex_distance", {"1", "diagnostic", "smallest distance from a vortex to a body boundary"}},
        {"min_body_body_distance", {"1", "diagnostic", "smallest distance between two body boundaries"}},
        {"snes_iterations", {"1", "solver", "Newton (SNES) iterations of the DEL solve of the step", true}},
        {"snes_function_evaluations", {"1", "solver", "residual evaluations of the step (each one fluid solve)", true}},
        {"residual_norm", {"1", "solver", "final DEL residual norm |F| of the step"}},
        {"panel_krylov_iterations", {"1", "solver", "KSP iterations of all panel solves of the step (0 on the direct path)", true}},
        {"fluid_unknowns", {"1", "solver", "unknowns of the fluid's boundary system at the logged configuration (Fluid::resolution, (FB-87))", true}},
        {"fluid_error_estimate", {"1", "diagnostic", "the fluid's relative error estimate at the logged configuration (0: not estimated), (FB-87)"}},
        {"impacts", {"1", "diagnostic", "impacts so far (contact.law impact, (FB-82))", true}},
        {"impact_energy_loss", {"1", "diagnostic", "energy the impacts took so far, sum of (1 - e^2) T_n (FB-85); energy + this is conserved"}}}},
      {"top",
       {{"energy", {"1", "conserved", "heavy-top Hamiltonian h (HT-2)"}},
        {"f1", {"1", "conserved", "Casimir f1 = |Gamma|^2 (HT-3)"}},
        {"f2", {"1", "conserved", "Casimir f2 = Pi . Gamma (HT-3)"}},
        {"kovalevskaya", {"1", "diagnostic", "Kovalevskaya invariant K (HT-5) (conserved for I1 = I2 = 2 I3, c3 = 0)"}},
        {"Pi3", {"1", "diagnostic", "body angular momentum Pi3 (conserved for the Lagrange top)"}},
        {"J1", {"1", "conserved", "Noether quantity J1 of the collective system (HT-10)"}},
        {"J2", {"1", "conserved", "Noether quantity J2 of the collective system (HT-10)"}},
        {"newton_iterations", {"1", "solver", "Newton iterations of the implicit step (0: explicit)", true}},
        {"newton_residual", {"1", "solver", "final Newton residual |F| of the step"}},
        {"error", {"1", "diagnostic", "|(Pi, Gamma) - DOP853 reference|"}}}},
      {"damped",
       {{"energy", {"1", "diagnostic", "energy H (DA-1) (decays by design)"}},
        {"dissipated", {"1", "diagnostic", "dissipated energy W (DA-11), trapezoidal quadrature of the dissipation rate"}},
        {"energy_balance", {"1", "conserved", "H + W - H(0) (DA-11): zero for exact dissipation"}},
        {"J3", {"1", "conserved", "angular momentum about e3, J3 = q1 p2 - q2 p1"}},
        {"r_minus_rstar", {"1", "diagnostic", "|q| - r* (DA-12): distance from the relative equilibrium's radius"}},
        {"casimir", {"1", "conserved", "Casimir |M| of the rigid body"}},
        {"distance", {"1", "diagnostic", "distance from M to the limit set of the dissipative flow"}},
        {"M1", {"1", "diagnostic", "body angular momentum M1"}},
        {"M2", {"1", "diagnostic", "body angular momentum M2"}},
        {"M3", {"1", "diagnostic", "body angular momentum M3"}}}},
      {"slosh",
       {{"time", {"s", "coordinate", "time t = k dt"}},
        {"energy", {"J/m", "conserved", "E - E_rest (SL-13): energy above the flat state at rest"}},
        {"vehicle_energy", {"J/m", "diagnostic", "m_v q_t^2/2 + nu q^2/2"}},
        {"momentum_balance", {"kg/s", "conserved", "p + accumulated spring impulse (= p(0))"}},
        {"q", {"m", "diagnostic", "vehicle displacement q"}},
        {"qdot", {"m/s", "diagnostic", "vehicle velocity q_t"}},
        {"mass", {"kg/m", "conserved", "fluid mass rho integral h dx over the deformed cells"}},
        {"min_depth", {"m", "diagnostic", "smallest cell depth"}},
        {"min_stretch", {"1", "diagnostic", "smallest x_a = dx/da (1: undeformed)"}}}},
  };
  return t;
}

const Table& commonTable() {
  static const Table t = {{"step", {"1", "coordinate", "step index k", true}},
                          {"time", {"1", "coordinate", "time t = k dt"}}};
  return t;
}

const Table& snapshotTable() {
  static const Table t = {
      {"coordinates", {"1", "coordinate", "point coordinates (dim per point)"}},
      {"body", {"1", "diagnostic", "body index j (names in cell_names)", true}},
      {"id", {"1", "diagnostic", "vortex index i (deck order)", true}},
      {"theta", {"1", "diagnostic", "body angle theta_j (rad)"}},
      {"omega", {"1", "diagnostic", "body angular velocity Omega_j"}},
      {"velocity", {"1", "diagnostic", "spatial velocity of the point: y_dot_j + Omega_j J (z - y_j) on a body, u(gamma_i) at a vortex (FB-15)"}},
      {"circulation", {"1", "diagnostic", "vortex circulation K_i"}},
      {"label", {"m", "diagnostic", "Lagrangian particle label a"}},
      {"depth", {"m", "diagnostic", "fluid depth h"}},
      {"lab_x", {"m", "diagnostic", "particle position in the laboratory frame q + x"}},
      {"displacement", {"1", "diagnostic", "chain mass displacement q_i"}},
  };
  return t;
}

Quantity fromEntry(const std::string& name, const Entry& e) {
  return Quantity{name, e.units, e.description, e.kind, e.integer};
}

bool nearlyEqual(double a, double b) { return std::abs(a - b) <= 1e-12 * std::max({std::abs(a), std::abs(b), 1.0}); }

/// "kovalevskaya", "lagrange" or "" from a top deck's body section.
std::string topCase(const Deck& deck) {
  const DeckNode b = deck.root().map("body");
  const std::vector<double> I = b.vector("inertia"), c = b.vector("center_of_mass");
  if (I.size() != 3 || c.size() != 3) return "";
  if (nearlyEqual(I[0], I[1]) && nearlyEqual(I[0], 2 * I[2]) && std::abs(c[2]) <= 1e-12) return "kovalevskaya";
  if (nearlyEqual(I[0], I[1]) && std::abs(c[0]) <= 1e-12 && std::abs(c[1]) <= 1e-12) return "lagrange";
  return "";
}

/// A fluidbody deck whose impacts take energy (contact.law impact, restitution < 1, two bodies or more).
bool inelasticImpacts(const Deck& deck) {
  const DeckNode c = deck.root().map("contact");
  return deck.root().list("bodies").size() > 1 && c.string("law") == "impact" && c.real("restitution") < 1.0;
}

}  // namespace

Quantity logQuantity(const std::string& model, const std::string& name, const Deck* deck) {
  const auto m = logTables().find(model);
  const Entry* e = nullptr;
  if (m != logTables().end()) {
    const auto it = m->second.find(name);
    if (it != m->second.end()) e = &it->second;
  }
  if (!e) {
    const auto it = commonTable().find(name);
    if (it != commonTable().end()) e = &it->second;
  }
  if (!e) {
    const bool solver = name.find("iteration") != std::string::npos ||
                        name.find("residual") != std::string::npos ||
                        name.find("evaluation") != std::string::npos;
    return Quantity{name, "", "", solver ? "solver" : "diagnostic", false};
  }
  Quantity q = fromEntry(name, *e);
  if (deck && model == "fluidbody" && (name == "impulse_x" || name == "impulse_y" || name == "angular_impulse"))
    q.kind = deck->root().list("bodies").empty() ? "conserved" : "diagnostic";
  if (deck && model == "fluidbody" && name == "energy" && inelasticImpacts(*deck)) q.kind = "diagnostic";
  if (deck && model == "top" && (name == "kovalevskaya" || name == "Pi3"))
    q.kind = topCase(*deck) == (name == "Pi3" ? "lagrange" : "kovalevskaya") ? "conserved" : "diagnostic";
  return q;
}

std::vector<Quantity> logQuantities(const std::string& model, const std::vector<std::string>& names,
                                    const Deck* deck) {
  std::vector<Quantity> out;
  for (const auto& n : names) out.push_back(logQuantity(model, n, deck));
  return out;
}

Quantity snapshotQuantity(const std::string& model, const std::string& name) {
  if (model == "slosh" && name == "velocity")
    return Quantity{name, "m/s", "fluid velocity relative to the tank", "diagnostic", false};
  if (model == "slosh" && name == "coordinates")
    return Quantity{name, "m", "(x, h): tank-frame position and depth of the surface nodes", "coordinate", false};
  const auto it = snapshotTable().find(name);
  if (it == snapshotTable().end()) return Quantity{name, "", "", "diagnostic", false};
  return fromEntry(name, it->second);
}

Quantity flowFieldQuantity(const std::string& name) {
  static const Table t = {
      {"x", {"1", "coordinate", "grid axis x"}},
      {"y", {"1", "coordinate", "grid axis y"}},
      {"psi_gamma", {"1", "diagnostic", "stream function of the free vortices psi_gamma"}},
      {"psi_I", {"1", "diagnostic", "stream function of the image flow psi_I"}},
      {"psi_B", {"1", "diagnostic", "stream function of the body-motion flow <Psi_B, Xi>"}},
      {"u", {"1", "diagnostic", "fluid velocity, x component"}},
      {"v", {"1", "diagnostic", "fluid velocity, y component"}},
      {"mask", {"1", "diagnostic", "0 fluid, 1 inside or at a body, 2 at a vortex", true}},
      {"positions", {"1", "coordinate", "vortex positions gamma_i"}},
      {"K", {"1", "diagnostic", "vortex circulations K_i"}},
      {"outline", {"1", "coordinate", "spatial outline of the body (vertices)"}},
  };
  const auto it = t.find(name);
  if (it == t.end()) return Quantity{name, "", "", "diagnostic", false};
  return fromEntry(name, it->second);
}

}  // namespace kirchhoff::io
