"""Fallback metadata for files written before the datasets carried `units`, `description` and
`kind` attributes (kirchhoff 0.1). The reader uses a dataset's own attributes whenever it has
them; this table is consulted only for what a file does not say, and every Series records which
source its metadata came from (Series.source = "file" or "fallback").

Kinds: conserved (the exact flow keeps it; plotted as the error against the initial value),
diagnostic (plotted as its value), solver (iteration counts, residuals), coordinate (step, time).
Units: "1" is dimensionless; fluidbody, top and damped are nondimensional models, slosh is SI
per unit tank width. The pages in docs/ define every quantity: docs/output.md lists each column.
"""

# (units, kind, description) per model and column; "step" and "time" are shared.
COMMON = {
    "step": ("1", "coordinate", "step index k"),
    "time": ("1", "coordinate", "time t = k dt"),
}

TABLE = {
    "fluidbody": {
        "energy": ("1", "conserved", "H = 1/2 <K(g) Xi, Xi> - W_G, kinetic energy of bodies and fluid (finite part)"),
        "momentum_x": ("1", "conserved", "discrete momentum map J_trans, x (exact to the SNES tolerance)"),
        "momentum_y": ("1", "conserved", "discrete momentum map J_trans, y"),
        "angular_momentum": ("1", "conserved", "discrete momentum map J_rot"),
        "c2_momentum_x": ("1", "conserved", "Weissmann 2014 Corollary 2 momentum, x (continuous Legendre map for the vortices)"),
        "c2_momentum_y": ("1", "conserved", "Corollary 2 momentum, y"),
        "c2_angular_momentum": ("1", "conserved", "Corollary 2 angular momentum"),
        "impulse_x": ("1", "conserved", "linear impulse sum_i K_i gamma_i, x (conserved without bodies)"),
        "impulse_y": ("1", "conserved", "linear impulse sum_i K_i gamma_i, y (conserved without bodies)"),
        "angular_impulse": ("1", "conserved", "angular impulse sum_i K_i |gamma_i|^2 (conserved without bodies)"),
        "legendre_residual": ("1", "diagnostic", "max_i |p_gamma_i + rho K_i J gamma_i / 2|: size of the parasitic mode"),
        "min_body_vortex_distance": ("1", "diagnostic", "smallest distance from a vortex to a body boundary"),
        "min_body_body_distance": ("1", "diagnostic", "smallest distance between two body boundaries"),
        "snes_iterations": ("1", "solver", "Newton (SNES) iterations of the DEL solve of the step"),
        "snes_function_evaluations": ("1", "solver", "residual evaluations of the step (each one fluid solve)"),
        "residual_norm": ("1", "solver", "final DEL residual norm |F| of the step"),
        "panel_krylov_iterations": ("1", "solver", "KSP iterations of all panel solves of the step (0 on the direct path)"),
    },
    "top": {
        "energy": ("1", "conserved", "heavy-top Hamiltonian h = 1/2 Pi . I^-1 Pi + m g l Gamma . c"),
        "f1": ("1", "conserved", "Casimir f1 = |Gamma|^2"),
        "f2": ("1", "conserved", "Casimir f2 = Pi . Gamma"),
        "kovalevskaya": ("1", "conserved", "Kovalevskaya invariant K (0 unless I1 = I2 = 2 I3, c3 = 0)"),
        "Pi3": ("1", "diagnostic", "body angular momentum Pi3 (conserved for the Lagrange top)"),
        "J1": ("1", "conserved", "Noether quantity J1 = |p|^2/2 of the collective system (f1 = 4 J1^2)"),
        "J2": ("1", "conserved", "Noether quantity J2 of the collective system (f2 = J1 J2)"),
        "newton_iterations": ("1", "solver", "Newton iterations of the implicit step (0: explicit)"),
        "newton_residual": ("1", "solver", "final Newton residual |F| of the step"),
        "error": ("1", "diagnostic", "|(Pi, Gamma) - DOP853 reference|"),
    },
    "damped": {
        "energy": ("1", "diagnostic", "energy H (decays by design)"),
        "dissipated": ("1", "diagnostic", "dissipated energy W, trapezoidal quadrature of the dissipation rate"),
        "energy_balance": ("1", "conserved", "H + W - H(0): zero for exact dissipation"),
        "J3": ("1", "conserved", "angular momentum about e3, J3 = q1 p2 - q2 p1"),
        "r_minus_rstar": ("1", "diagnostic", "|q| - r*: distance from the relative equilibrium's radius"),
        "casimir": ("1", "conserved", "Casimir |M| of the rigid body"),
        "distance": ("1", "diagnostic", "distance from M to the limit set of the dissipative flow"),
        "M1": ("1", "diagnostic", "body angular momentum M1"),
        "M2": ("1", "diagnostic", "body angular momentum M2"),
        "M3": ("1", "diagnostic", "body angular momentum M3"),
    },
    "slosh": {
        "time": ("s", "coordinate", "time t = k dt"),
        "energy": ("J/m", "conserved", "E - E_rest: energy of fluid, vehicle and spring above the flat state at rest"),
        "vehicle_energy": ("J/m", "diagnostic", "m_v q_t^2/2 + nu q^2/2"),
        "momentum_balance": ("kg/s", "conserved", "p + accumulated spring impulse (= p(0))"),
        "q": ("m", "diagnostic", "vehicle displacement q"),
        "qdot": ("m/s", "diagnostic", "vehicle velocity q_t"),
        "mass": ("kg/m", "conserved", "fluid mass rho integral h dx over the deformed cells"),
        "min_depth": ("m", "diagnostic", "smallest cell depth"),
        "min_stretch": ("1", "diagnostic", "smallest x_a = dx/da (1: undeformed)"),
    },
}

# Snapshot mesh attributes and flow-field datasets.
SNAPSHOT = {
    "body": ("1", "diagnostic", "body index j"),
    "theta": ("1", "diagnostic", "body angle theta_j (rad)"),
    "circulation": ("1", "diagnostic", "vortex circulation K_i"),
    "label": ("m", "diagnostic", "Lagrangian particle label a"),
    "depth": ("m", "diagnostic", "fluid depth h"),
    "velocity": ("m/s", "diagnostic", "fluid velocity relative to the tank"),
    "lab_x": ("m", "diagnostic", "particle position in the laboratory frame q + x"),
    "displacement": ("1", "diagnostic", "chain mass displacement q_i"),
}

FLOW_FIELD = {
    "x": ("1", "coordinate", "grid axis x"),
    "y": ("1", "coordinate", "grid axis y"),
    "psi_gamma": ("1", "diagnostic", "stream function of the free vortices psi_gamma"),
    "psi_I": ("1", "diagnostic", "stream function of the image flow u_I"),
    "psi_B": ("1", "diagnostic", "stream function of the body-motion flow u_B"),
    "u": ("1", "diagnostic", "fluid velocity, x component"),
    "v": ("1", "diagnostic", "fluid velocity, y component"),
    "mask": ("1", "diagnostic", "0 fluid, 1 inside or at a body, 2 at a vortex"),
}


def _bodies(deck):
    return bool((deck or {}).get("bodies"))


def _close(a, b):
    return abs(a - b) <= 1e-12 * max(abs(a), abs(b), 1.0)


def _top_case(deck):
    """'kovalevskaya', 'lagrange' or '' from a top deck's body section."""
    body = (deck or {}).get("body") or {}
    try:
        I1, I2, I3 = (float(v) for v in body["inertia"])
        c1, c2, c3 = (float(v) for v in body["center_of_mass"])
    except (KeyError, TypeError, ValueError):
        return ""
    if _close(I1, I2) and _close(I1, 2 * I3) and abs(c3) <= 1e-12:
        return "kovalevskaya"
    if _close(I1, I2) and abs(c1) <= 1e-12 and abs(c2) <= 1e-12:
        return "lagrange"
    return ""


def kind_in_context(model, name, kind, deck):
    """Kinds that depend on the configuration: vortex impulses are conserved only without bodies;
    K only for the Kovalevskaya top, Pi3 only for the Lagrange top. `deck` is the parsed deck
    (None when unknown: then the table's kind stands, except that the impulses, whose kind
    cannot be known, count as diagnostics)."""
    if model == "fluidbody" and name in ("impulse_x", "impulse_y", "angular_impulse"):
        return "conserved" if deck is not None and not _bodies(deck) else "diagnostic"
    if model == "top" and name in ("kovalevskaya", "Pi3") and deck is not None:
        wanted = "kovalevskaya" if name == "kovalevskaya" else "lagrange"
        return "conserved" if _top_case(deck) == wanted else "diagnostic"
    return kind


def lookup(model, name, deck=None):
    """(units, kind, description) of column `name` of `model`'s log, or a neutral guess for a
    column this table does not know (a newer code version)."""
    entry = TABLE.get(model, {}).get(name) or COMMON.get(name)
    if entry is None:
        solverish = any(w in name for w in ("iteration", "residual", "evaluation"))
        return "", "solver" if solverish else "diagnostic", ""
    units, kind, description = entry
    return units, kind_in_context(model, name, kind, deck), description
