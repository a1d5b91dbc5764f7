#!/usr/bin/python3
"""Shared helpers of the damped post-processing scripts: read OUTDIR/invariants.h5 and name a run.

Each OUTDIR holds invariants.h5 (group /invariants: step, time, then the model's columns; root
attributes model, deck, ...). A run is labelled by its deck's scheme (method, retraction,
variant, ordering) unless a label is given as OUTDIR=LABEL on the command line.
"""
import os

import h5py
import numpy as np
try:  # python3-yaml (Debian base image); only used to label runs from the stored deck text
    import yaml
except ImportError:  # pragma: no cover
    yaml = None


def read_run(arg):
    """arg = 'OUTDIR' or 'OUTDIR=LABEL' -> (label, dict of numpy columns, deck dict)."""
    path, _, label = arg.partition("=")
    fname = path if path.endswith(".h5") else os.path.join(path, "invariants.h5")
    with h5py.File(fname, "r") as f:
        cols = {k: np.asarray(v) for k, v in f["invariants"].items()}
        deck_text = f.attrs.get("deck", "")
    order = np.argsort(cols["step"], kind="stable")  # rows in step order
    cols = {k: v[order] for k, v in cols.items()}
    if isinstance(deck_text, bytes):
        deck_text = deck_text.decode()
    deck = {}
    if yaml is not None:
        try:
            deck = yaml.safe_load(deck_text) or {}
        except yaml.YAMLError:
            deck = {}
    return label or scheme_label(deck, path), cols, deck


def scheme_label(deck, fallback):
    """'phi_2s dkd', 'ddb cayley plain', 'rk4', ... from the deck's scheme section."""
    for section in ("rayleigh", "rigid_body"):
        s = (deck.get(section) or {}).get("scheme") or {}
        if s:
            parts = [str(s.get("method", "?"))]
            for k in ("rk", "ordering", "retraction", "variant", "composition"):
                if k in s and s[k] != "none":
                    parts.append(str(s[k]))
            h = (deck.get("time") or {}).get("dt")
            if h is not None:
                parts.append(f"h={h}")
            return " ".join(parts)
    return os.path.basename(os.path.normpath(fallback))


def on_times(t_ref, y_ref, t):
    """The reference column at times t (linear interpolation; exact when the grids agree)."""
    return np.interp(t, t_ref, y_ref)
