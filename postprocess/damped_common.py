"""Shared helpers of the damped post-processing scripts (docs/damped.md): read runs through
kirchhoff.load and name them. A run is labelled by its deck's scheme (method, retraction, variant,
ordering, h), prefixed by the deck name where two runs would otherwise share a label, unless a
label is given as OUTDIR=LABEL on the command line.
"""
import os

import numpy as np

import kirchhoff


def read_run(arg):
    """arg = 'OUTDIR' or 'OUTDIR=LABEL' -> (label, log (columns by name in step order), deck dict)."""
    path, _, label = arg.partition("=")
    run = kirchhoff.load(path)
    if run.model and run.model != "damped":
        raise kirchhoff.LoadError(f"{path}: not a kirchhoff-damped run (model {run.model})")
    deck = run.deck or {}
    return label or scheme_label(deck, path), run.log, deck, run.name


def read_runs(args):
    """read_run of every argument, as (label, log, deck) with distinct labels: runs whose scheme
    labels coincide (scenarios A and B with the same method) are told apart by their deck names."""
    runs = [read_run(a) for a in args]
    labels = [r[0] for r in runs]
    out = []
    for (label, log, deck, name), arg in zip(runs, args):
        if "=" not in arg and labels.count(label) > 1:
            label = f"{name}: {label}"
        out.append((label, log, deck))
    return out


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
