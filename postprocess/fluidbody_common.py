"""Helpers shared by the fluidbody figure scripts (Weissmann 2014, Figs. 2-5; docs/fluidbody.md
"Reference results"): trajectories from the snapshots (meshes `bodies`, `centres`, `vortices`,
docs/output.md), periods of an oscillation, colours, palette PNGs. Files are read by kirchhoff.load.
"""
import numpy as np

import kirchhoff
from kirchhoff import cli, plot
from kirchhoff.snapshots import group_names as snapshot_groups  # noqa: F401 (used by the figure tests)
from kirchhoff.snapshots import outlines_from_group as _outlines  # noqa: F401


def read_log(outdir):
    """(columns, data dict of Series by name, root attributes with the deck text) of a run's log."""
    run = kirchhoff.load(outdir)
    log = run.log
    attrs = dict(run.attrs, deck=run.deck_text)
    return log.names, dict(log), attrs


def read_snapshots(outdir):
    """Trajectories from OUTDIR/snapshots.h5.

    Returns a dict: time (T), step (T), centres (T, n, 2), theta (T, n), vortices (T, m, 2),
    K (m), and outline(i) -> list of (k, 2) arrays, the spatial body outlines of snapshot i.
    Falls back to outline centroids if a file predates the `centres` mesh.
    """
    snaps = kirchhoff.load(outdir).snapshots
    if not len(snaps):
        raise kirchhoff.LoadError(f"{snaps.path}: no snapshots (output.snapshot_interval is 0?)")
    T = len(snaps)
    meshes = snaps.mesh_names
    if "centres" in meshes:
        centres, theta = snaps.points("centres"), snaps.attribute("centres", "theta")
    elif "bodies" in meshes:
        centres = np.array([[polygon_centroid(o) for o in fr["bodies"].split()] for fr in snaps.frames])
        theta = np.full(centres.shape[:2], np.nan)
    else:
        centres, theta = np.zeros((T, 0, 2)), np.zeros((T, 0))
    if "vortices" in meshes:
        vortices = snaps.points("vortices")
        K = np.asarray(snaps.frames[-1]["vortices"].attributes["circulation"])
    else:
        vortices, K = np.zeros((T, 0, 2)), np.zeros(0)
    d = {"time": snaps.times, "step": snaps.steps, "centres": centres, "theta": theta,
         "vortices": vortices, "K": K, "path": snaps.path, "names": [fr.group for fr in snaps.frames]}

    def outline(i):
        fr = snaps.frames[i]
        return fr["bodies"].split() if "bodies" in fr else []

    d["outline"] = outline
    return d


def polygon_centroid(v):
    """Centroid of the polygon region with vertices v (k, 2)."""
    x, y = v[:, 0], v[:, 1]
    xn, yn = np.roll(x, -1), np.roll(y, -1)
    c = x * yn - xn * y
    a = 0.5 * c.sum()
    return np.array([((x + xn) * c).sum(), ((y + yn) * c).sum()]) / (6.0 * a)


def sweep_cases(outdir):
    """OUTDIR/case* folders of a sweep, sorted; [OUTDIR] if it is a single run."""
    run = kirchhoff.load(outdir)
    return [c.folder for c in run.cases] if run.is_sweep else [outdir]


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
    """A palette PNG (kirchhoff.plot.save_png)."""
    plot.save_png(fig, path, dpi, colours)


def figure_parser(doc, default_png):
    """Command line of a figure script: description and epilog from its docstring, -o PNG, --dpi."""
    return cli.parser(doc, output=default_png, dpi=100)
