#!/usr/bin/python3
"""Shared readers for the slosh post-processing scripts (docs/slosh.md).

Reads OUTDIR/invariants.h5 (group /invariants: step, time, energy = E - E_rest, vehicle_energy,
momentum_balance, q, qdot, mass, min_depth, min_stretch; root attribute 'deck' = the deck text) and
OUTDIR/snapshots.h5 (/step_*/surface/{coordinates (x, h) pairs, depth, label, velocity, lab_x}).
Also the roots of the linear relation nu = omega^2 [m_v + m_f tan(kL/2)/(kL/2)], k = omega / c.
"""
import os

import h5py
import numpy as np
import yaml
from scipy.optimize import brentq


def load_invariants(outdir):
    """Returns (columns dict of numpy arrays, deck dict)."""
    with h5py.File(os.path.join(outdir, "invariants.h5"), "r") as f:
        cols = {k: np.asarray(v) for k, v in f["invariants"].items()}
        deck_text = f.attrs["deck"]
        if isinstance(deck_text, bytes):
            deck_text = deck_text.decode()
    order = np.argsort(cols["step"], kind="stable")
    return {k: v[order] for k, v in cols.items()}, yaml.safe_load(deck_text)


def load_surfaces(outdir):
    """Returns (times, list of x arrays, list of depth arrays), ordered by step."""
    times, xs, hs = [], [], []
    with h5py.File(os.path.join(outdir, "snapshots.h5"), "r") as f:
        for name in sorted(f.keys()):
            g = f[name]
            c = np.asarray(g["surface/coordinates"]).reshape(-1, 2)
            times.append(float(g.attrs["time"]))
            xs.append(c[:, 0])
            hs.append(c[:, 1])
    return np.array(times), xs, hs


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
