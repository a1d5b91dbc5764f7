"""Shared helpers of the slosh post-processing scripts (docs/slosh.md): the log (energy = E - E_rest,
vehicle_energy, momentum_balance, q, qdot, mass, min_depth, min_stretch) and the `surface`
snapshots ((x, h) points; docs/output.md) through kirchhoff.load, the initial depth of a deck, and
the roots of the linear relation nu = omega^2 [m_v + m_f tan(kL/2)/(kL/2)], k = omega / c (SL-15).
"""
import numpy as np
from scipy.optimize import brentq

import kirchhoff


def load_invariants(outdir):
    """Returns (the log of a slosh run: columns by name in step order, deck dict)."""
    run = kirchhoff.load(outdir)
    if run.model != "slosh":
        raise kirchhoff.LoadError(f"{outdir}: not a kirchhoff-slosh run (model {run.model or 'unknown'})")
    return run.log, run.deck or {}


def load_surfaces(outdir):
    """Returns (times, list of x arrays, list of depth arrays), ordered by step."""
    snaps = kirchhoff.load(outdir).snapshots
    xs = [fr["surface"].points[:, 0] for fr in snaps.frames]
    hs = [fr["surface"].points[:, 1] for fr in snaps.frames]
    return snaps.times, xs, hs


def depth_profile(deck, a):
    """h0(a) from the deck's fluid.depth terms (same library as src/models/slosh/Profile.cpp)."""
    L = deck["tank"]["length"]
    h = np.zeros_like(a, dtype=float)
    for t in deck["fluid"]["depth"]:
        kind = t["type"]
        if kind == "constant":
            h += t["value"]
        elif kind == "linear":
            h += t["left"] + (t["right"] - t["left"]) * a / L
        elif kind == "cosine":
            h += t["amplitude"] * np.cos(t["mode"] * np.pi * a / L)
        elif kind == "gaussian":
            h += t["amplitude"] * np.exp(-(((a - t["center"]) / t["width"]) ** 2))
        elif kind == "table":
            h += np.interp(a, t["labels"], t["values"])
    return h


def linear_problem(deck):
    """(g, h_mean, L, m_v, m_f, nu) of the deck's flat state."""
    ph = deck.get("physics", {}) or {}
    g = ph.get("gravity", 9.81)
    rho = ph.get("density", 1000.0)
    L = deck["tank"]["length"]
    a = np.linspace(0.0, L, 20001)
    h_mean = np.trapz(depth_profile(deck, a), a) / L
    mv = deck["vehicle"]["mass"]
    mf = rho * h_mean * L
    c = np.sqrt(g * h_mean)
    if "resonant_mode" in deck["vehicle"]:
        nu = mv * (2 * np.pi * deck["vehicle"]["resonant_mode"] * c / L) ** 2
    else:
        nu = deck["vehicle"].get("stiffness", 0.0)
    return g, h_mean, L, mv, mf, nu


def coupled_frequencies(deck, count=4):
    """Roots omega of nu = omega^2 [m_v + m_f tan(theta)/theta], theta = omega L / (2 c)."""
    g, h, L, mv, mf, nu = linear_problem(deck)
    c = np.sqrt(g * h)
    s = 2 * c / L
    G = lambda th: s * s * (mv * th * th + mf * th * np.tan(th)) - nu
    roots = []
    for n in range(count):
        lo = max(0.0, n * np.pi - np.pi / 2) + 1e-12
        hi = n * np.pi + np.pi / 2 - 1e-12
        roots.append(0.0 if (n == 0 and nu == 0) else s * brentq(G, lo, hi, xtol=1e-15))
    return np.array(roots)


def symmetric_frequencies(deck, count=3):
    g, h, L, *_ = linear_problem(deck)
    return np.array([2 * np.pi * n * np.sqrt(g * h) / L for n in range(1, count + 1)])
