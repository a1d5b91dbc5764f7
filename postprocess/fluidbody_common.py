#!/usr/bin/python3
"""Readers shared by the fluidbody figure scripts (seed 000 Figs. 2-5).

A fluidbody run writes OUTDIR/invariants.h5 (group /invariants: step, time, then one dataset per
invariant in the model's order, listed in the group attribute `columns`) and OUTDIR/snapshots.h5
(one group /step_NNNNNNNNNN per snapshot with attributes step and time and the meshes
`bodies` (polygon outlines, attribute body), `centres` (body centroids y_j, attributes body and
theta) and `vortices` (points, attribute circulation); coordinates are interleaved x, y).
"""
import argparse
import glob
import os

import h5py
import numpy as np


def _text(v):
    return v.decode() if isinstance(v, bytes) else v


def read_log(outdir):
    """(columns, data dict of 1-D arrays, root attributes) of OUTDIR/invariants.h5."""
    path = os.path.join(outdir, "invariants.h5")
    with h5py.File(path, "r") as f:
        g = f["invariants"]
        cols = [c for c in _text(g.attrs.get("columns", "")).split(",") if c]
        data = {k: g[k][:] for k in ["step", "time"] + cols}
        attrs = {k: _text(v) for k, v in f.attrs.items()}
    return cols, data, attrs


def snapshot_groups(f):
    """Snapshot group names in step order."""
    return sorted((k for k in f if k.startswith("step_")), key=lambda s: int(s[5:]))


def read_snapshots(outdir):
    """Trajectories from OUTDIR/snapshots.h5.

    Returns a dict: time (T), step (T), centres (T, n, 2), theta (T, n), vortices (T, m, 2),
    K (m), and outline(i) -> list of (k, 2) arrays, the spatial body outlines of snapshot i.
    Falls back to outline centroids if a file predates the `centres` mesh.
    """
    path = os.path.join(outdir, "snapshots.h5")
    with h5py.File(path, "r") as f:
        names = snapshot_groups(f)
        if not names:
            raise SystemExit(f"{path}: no snapshots (output.snapshot_interval is 0?)")
        time = np.array([f[n].attrs["time"] for n in names], dtype=float)
        step = np.array([f[n].attrs["step"] for n in names], dtype=np.int64)
        centres, theta, vortices, K = [], [], [], np.zeros(0)
        for n in names:
            g = f[n]
            if "centres" in g:
                centres.append(g["centres/coordinates"][()].reshape(-1, 2))
                theta.append(g["centres/theta"][()])
            elif "bodies" in g:
                centres.append(np.array([polygon_centroid(o) for o in _outlines(g)]).reshape(-1, 2))
                theta.append(np.full(len(centres[-1]), np.nan))
            else:
                centres.append(np.zeros((0, 2)))
                theta.append(np.zeros(0))
            if "vortices" in g:
                vortices.append(g["vortices/coordinates"][()].reshape(-1, 2))
                K = g["vortices/circulation"][()]
            else:
                vortices.append(np.zeros((0, 2)))
    d = {"time": time, "step": step, "centres": np.array(centres), "theta": np.array(theta),
         "vortices": np.array(vortices), "K": np.asarray(K), "path": path, "names": names}

    def outline(i):
        with h5py.File(path, "r") as f:
            g = f[names[i]]
            return _outlines(g) if "bodies" in g else []

    d["outline"] = outline
    return d


def _outlines(g):
    """Per-body (k, 2) vertex arrays of a snapshot group's `bodies` mesh."""
    xy = g["bodies/coordinates"][()].reshape(-1, 2)
    body = g["bodies/body"][()].astype(int)
    return [xy[body == j] for j in range(body.max() + 1)] if len(body) else []


def polygon_centroid(v):
    """Centroid of the polygon region with vertices v (k, 2)."""
    x, y = v[:, 0], v[:, 1]
    xn, yn = np.roll(x, -1), np.roll(y, -1)
    c = x * yn - xn * y
    a = 0.5 * c.sum()
    return np.array([((x + xn) * c).sum(), ((y + yn) * c).sum()]) / (6.0 * a)


def sweep_cases(outdir):
    """OUTDIR/case* folders of a sweep, sorted; [OUTDIR] if it is a single run."""
    cases = sorted(p for p in glob.glob(os.path.join(outdir, "case*")) if os.path.isdir(p))
    return cases or [outdir]


def deck_value(attrs, dotted, default=None):
    """A value of the deck stored in the log's root attribute `deck` (YAML text), e.g. 'time.dt'."""
    try:
        import yaml  # python3-yaml is optional
    except ImportError:
        return default
    try:
        node = yaml.safe_load(attrs.get("deck", ""))
        for k in dotted.split("."):
            node = node[int(k)] if isinstance(node, list) else node[k]
        return node
    except Exception:  # noqa: BLE001 - any missing key means "not stated"
        return default


def periods(t, x):
    """Periods of a sampled oscillation x(t): spacings of its upward crossings of the mid level
    (max + min)/2, linearly interpolated, with a hysteresis of 10% of the range so that noise near
    the mid level does not count twice. Empty if there are fewer than two crossings."""
    x = np.asarray(x, dtype=float)
    if len(x) < 3 or not np.ptp(x) > 0:
        return np.zeros(0)
    mid, band = 0.5 * (x.max() + x.min()), 0.1 * np.ptp(x)
    up, armed = [], x[0] < mid - band
    for k in range(1, len(x)):
        if x[k] < mid - band:
            armed = True
        if armed and x[k - 1] < mid <= x[k]:
            up.append(t[k - 1] + (mid - x[k - 1]) / (x[k] - x[k - 1]) * (t[k] - t[k - 1]))
            armed = False
    return np.diff(up)


def body_colour(j):
    return ["0.55", "tab:olive", "tab:cyan", "tab:brown", "tab:pink", "tab:gray"][j % 6]


def vortex_colour(k):
    return "tab:red" if k > 0 else "tab:blue"


def save_png(fig, path, dpi=100, colours=128):
    """Saves `fig` as a palette PNG (at most `colours` colours, octree quantization, which keeps
    small saturated marks such as the vortex dots): line plots keep their look at a third to a fifth
    of the size of a full-colour PNG. Falls back to a plain savefig without PIL."""
    try:
        import io

        from PIL import Image
    except ImportError:
        fig.savefig(path, dpi=dpi)
        return
    buf = io.BytesIO()
    fig.savefig(buf, dpi=dpi, format="png")
    buf.seek(0)
    img = Image.open(buf).convert("RGB").quantize(colors=colours, method=Image.Quantize.FASTOCTREE)
    img.save(path, optimize=True)


def figure_parser(doc, default_png):
    """Command line of a figure script: description and epilog from its docstring, -o PNG, --dpi."""
    lines = doc.splitlines()
    p = argparse.ArgumentParser(description=lines[0], epilog="\n".join(lines[2:]),
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("-o", "--output", default=default_png, help="PNG path")
    p.add_argument("--dpi", type=int, default=100)
    return p
