#!/usr/bin/python3
"""Shared reader for the top figure scripts (docs/heavytop.md, Ohsawa 2019 Figs. 1-2).

Reads OUTDIR/invariants.h5 of a kirchhoff-top run (group /invariants: step, time, energy, f1, f2,
kovalevskaya, Pi3, J1, J2, newton_iterations, newton_residual[, error]; root attribute 'deck' =
the deck text, whose `scheme:` names the integrator).
"""
import os

import h5py
import numpy as np
import yaml

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
    """Returns (scheme name, dict of numpy columns ordered by step, deck dict)."""
    with h5py.File(os.path.join(outdir, "invariants.h5"), "r") as f:
        cols = {k: np.asarray(v) for k, v in f["invariants"].items()}
        text = f.attrs["deck"]
        if isinstance(text, bytes):
            text = text.decode()
    deck = yaml.safe_load(text)
    if deck.get("model") != "top":
        raise SystemExit(f"{outdir}: not a kirchhoff-top log (model {deck.get('model')})")
    order = np.argsort(cols["step"], kind="stable")
    cols = {k: v[order] for k, v in cols.items()}
    return deck.get("scheme", "collective_implicit_midpoint"), cols, deck


def deviation(v):
    """v - v(0), the quantity the paper plots (absolute; h(0) = 9.5, f1 = 1, K = 4 there)."""
    return v - v[0]
