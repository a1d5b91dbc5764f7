#!/usr/bin/python3
"""Body-centre and vortex trajectories of fluidbody runs (Weissmann 2014, Fig. 2: the disk + vortex dance).

Each OUTDIR (a run folder with snapshots.h5; a sweep folder stands for its case* folders) gets one
panel: the trajectory of every body centre (from the snapshots' `centres` mesh) and of every vortex,
the bodies at the first snapshot (filled) and the last (outline). A table gives per run the
snapshots, the end time, the range of the body-vortex boundary distance and the period of the dance
(upward mid-level crossings of that distance, from the per-step invariant log when it has it).

Fig. 2 (four panels, after running the three decks):
  kirchhoff-fluidbody input/fluidbody_disk_vortex.yaml -o out/dv
  kirchhoff-fluidbody input/fluidbody_disk_vortex_coarse.yaml -o out/dvc
  kirchhoff-fluidbody input/fluidbody_disk_vortex_density.yaml -o out/dvd
  postprocess/fluidbody_trajectories.py out/dv out/dvc out/dvd -o fig2.png \\
      --labels "64 edges, dt 0.025" "16 edges, dt 0.25" "density 0.1" "density 4.0"
"""
import os
import sys

import matplotlib
import numpy as np

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fluidbody_common as fc  # noqa: E402
import kirchhoff  # noqa: E402
from kirchhoff import cli  # noqa: E402


def distance_series(run, snaps):
    """(t, distance from the nearest vortex to the nearest body boundary): from the log's
    min_body_vortex_distance when present, else centre-vortex distances from the snapshots."""
    try:
        cols, data, _ = fc.read_log(run)
        if "min_body_vortex_distance" in cols:
            return data["time"], data["min_body_vortex_distance"], "boundary"
    except kirchhoff.LoadError:  # no log: distances from the snapshots
        pass
    c, v = snaps["centres"], snaps["vortices"]
    if c.shape[1] == 0 or v.shape[1] == 0:
        return snaps["time"], np.full(len(snaps["time"]), np.nan), "none"
    d = np.linalg.norm(v[:, :, None, :] - c[:, None, :, :], axis=-1).min(axis=(1, 2))
    return snaps["time"], d, "centre"


def draw(ax, s, title):
    n = s["centres"].shape[1]
    first, last = s["outline"](0), s["outline"](len(s["time"]) - 1)
    for j, o in enumerate(first):
        ax.fill(o[:, 0], o[:, 1], color=fc.body_colour(j), alpha=0.35, ec="k", lw=0.8, zorder=0)
    for j, o in enumerate(last):
        ax.plot(np.append(o[:, 0], o[0, 0]), np.append(o[:, 1], o[0, 1]), "k--", lw=0.7)
    for j in range(n):
        ax.plot(s["centres"][:, j, 0], s["centres"][:, j, 1], "k-", lw=0.8,
                label="body centre" if j == 0 else None)
    for i, k in enumerate(s["K"]):
        ax.plot(s["vortices"][:, i, 0], s["vortices"][:, i, 1], "-", color=fc.vortex_colour(k), lw=0.6,
                label="vortex" if i == 0 else None)
        ax.plot(*s["vortices"][0, i], "o", color=fc.vortex_colour(k), mec="k", ms=5)
    ax.set_aspect("equal")
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=7, loc="upper right")


def main(argv):
    p = fc.figure_parser(__doc__, "fluidbody_trajectories.png")
    p.add_argument("outdirs", nargs="+", help="run folders (a sweep folder adds its case* folders)")
    p.add_argument("--labels", nargs="*", help="panel titles, one per run (default: folder names)")
    p.add_argument("--columns", type=int, default=2, help="panels per row")
    a = p.parse_args(argv)
    runs = [c for d in a.outdirs for c in fc.sweep_cases(d)]
    if a.labels and len(a.labels) != len(runs):
        p.error(f"{len(a.labels)} labels for {len(runs)} runs ({', '.join(runs)})")
    cols = min(a.columns, len(runs))
    rows = (len(runs) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(4.6 * cols, 4.4 * rows), squeeze=False, constrained_layout=True)
    print(f"{'run':40s} {'snaps':>6s} {'t_end':>8s} {'dist_min':>9s} {'dist_max':>9s} {'period':>9s} {'sd':>9s}")
    for k, run in enumerate(runs):
        s = fc.read_snapshots(run)
        t, d, kind = distance_series(run, s)
        per = fc.periods(t, d)
        period = per.mean() if len(per) else float("nan")
        spread = per.std() if len(per) > 1 else float("nan")
        print(f"{run:40s} {len(s['time']):6d} {s['time'][-1]:8.4g} {np.nanmin(d):9.4g} {np.nanmax(d):9.4g} "
              f"{period:9.4g} {spread:9.2e}")
        title = a.labels[k] if a.labels else os.path.basename(os.path.normpath(run))
        if np.isfinite(period):
            title += f" (period {period:.3g})"
        draw(axes[k // cols][k % cols], s, title)
    for k in range(len(runs), rows * cols):
        axes[k // cols][k % cols].axis("off")
    fc.save_png(fig, a.output, a.dpi)
    print(f"plot: {a.output}")
    return 0


if __name__ == "__main__":
    sys.exit(cli.main(main))
