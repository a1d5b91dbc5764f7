"""Labels and colours of the top figure scripts (docs/heavytop.md, Ohsawa 2019 Figs. 1-2), and the
run reader on top of kirchhoff.load: the log of a kirchhoff-top run (columns energy, f1, f2,
kovalevskaya, Pi3, J1, J2, newton_iterations, newton_residual[, error]; docs/output.md) and the
deck, whose `scheme:` names the integrator.
"""
import kirchhoff

LABELS = {
    "collective_implicit_midpoint": "implicit midpoint on (4.4) (collective Lie-Poisson)",
    "collective_explicit_midpoint": "explicit midpoint on (4.4)",
    "direct_explicit_midpoint": "explicit midpoint on (1.1)",
    "direct_implicit_midpoint": "implicit midpoint on (1.1) (Austin et al.)",
}
# The paper's colours: Fig. 1 blue / green / red, Fig. 2 gray / red.
COLORS = {
    "collective_implicit_midpoint": "tab:red",
    "collective_explicit_midpoint": "tab:blue",
    "direct_explicit_midpoint": "tab:green",
    "direct_implicit_midpoint": "tab:gray",
}


def load_run(outdir):
    """Returns (scheme name, the log (columns by name, in step order), deck dict)."""
    run = kirchhoff.load(outdir)
    if run.model != "top":
        raise kirchhoff.LoadError(f"{outdir}: not a kirchhoff-top run (model {run.model or 'unknown'})")
    deck = run.deck or {}
    return deck.get("scheme", "collective_implicit_midpoint"), run.log, deck


def deviation(v):
    """v - v(0), the quantity the paper plots (absolute; h(0) = 9.5, f1 = 1, K = 4 there)."""
    return v - v[0]
