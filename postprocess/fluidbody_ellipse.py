#!/usr/bin/python3
"""Ellipse + point vortex (Weissmann 2014, Fig. 4): energy over time and the trajectories.

Reads RUN/invariants.h5 (energy, min_body_vortex_distance) and RUN/snapshots.h5 of a run of
input/fluidbody_ellipse_vortex.yaml and draws the relative energy error (E - E0)/|E0| over time
with the body-vortex distance on a second axis (the large energy peaks come with close
encounters), and the ellipse-centre and vortex trajectories with the ellipse at the first
(filled) and last (dashed) snapshot. Prints: steps, end time, energy amplitude (half
peak-to-peak), drift per unit time (slope of a linear fit), the mean error over the first and the
second half of the run (no drift: about equal), the largest error and the closest approach.

  kirchhoff-fluidbody input/fluidbody_ellipse_vortex.yaml -o out/ellipse
  postprocess/fluidbody_ellipse.py out/ellipse -o fig4.png
"""
import os
import sys

import matplotlib
import numpy as np

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fluidbody_common as fc  # noqa: E402
from kirchhoff import cli  # noqa: E402
import fluidbody_trajectories as ft  # noqa: E402


def main(argv):
    p = fc.figure_parser(__doc__, "fluidbody_ellipse.png")
    p.add_argument("outdir", help="run folder with invariants.h5 and snapshots.h5")
    a = p.parse_args(argv)
    cols, data, attrs = fc.read_log(a.outdir)
    t, e = data["time"], data["energy"]
    r = (e - e[0]) / abs(e[0])
    half = len(t) // 2
    drift = np.polyfit(t, r, 1)[0] if len(t) > 2 else float("nan")
    dist = data.get("min_body_vortex_distance")
    print(f"{'run':30s} {'steps':>7s} {'t_end':>8s} {'amplitude':>10s} {'drift/time':>11s} "
          f"{'mean_1st':>10s} {'mean_2nd':>10s} {'max|err|':>10s} {'dist_min':>9s}")
    print(f"{a.outdir:30s} {int(data['step'][-1]):7d} {t[-1]:8.4g} {0.5 * np.ptp(r):10.3e} {drift:11.3e} "
          f"{r[1:half].mean() if half > 1 else np.nan:10.3e} {r[half:].mean():10.3e} {np.abs(r).max():10.3e} "
          f"{dist.min() if dist is not None else np.nan:9.4g}")

    s = fc.read_snapshots(a.outdir)
    fig = plt.figure(figsize=(10, 7.2), constrained_layout=True)
    grid = fig.add_gridspec(2, 1, height_ratios=[1, 1.6])
    ax = fig.add_subplot(grid[0])
    ax.plot(t, r, lw=0.6, color="tab:purple")
    ax.set_xlabel("time")
    ax.set_ylabel(r"$(E - E_0)/|E_0|$")
    ax.set_title(f"energy, dt = {t[1] - t[0]:g}: amplitude {0.5 * np.ptp(r):.2e}, drift {drift:.1e} per unit time",
                 fontsize=10)
    ax.grid(alpha=0.3)
    if dist is not None:
        ax2 = ax.twinx()
        ax2.plot(t, dist, lw=0.5, color="0.6")
        ax2.set_ylabel("body-vortex distance", color="0.45")
        ax2.set_yscale("log")
    ft.draw(fig.add_subplot(grid[1]), s, "ellipse centre and vortex trajectories")
    fc.save_png(fig, a.output, a.dpi)
    print(f"plot: {a.output}")
    return 0


if __name__ == "__main__":
    sys.exit(cli.main(main))
