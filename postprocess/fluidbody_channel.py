#!/usr/bin/python3
"""A vortex pair through a channel of flat bodies (Weissmann 2014, Fig. 5): before, after, wall separation.

Reads RUN/snapshots.h5 of a run of input/fluidbody_channel.yaml (four plates, two per wall) and
draws the bodies and vortices at the first snapshot (left) and the last (right, with the vortex
paths), and below the wall separation over time: mean centre height of the upper-wall bodies
minus that of the lower-wall bodies (bodies split by their initial height about the mean; the
upper wall is every body above it). Bernoulli: the fast flow between the walls lowers the
pressure there, so the separation shrinks while the pair passes. Prints: snapshots, end time,
the initial, smallest and final separation, the relative change, and the pair's mean x speed.

  kirchhoff-fluidbody input/fluidbody_channel.yaml -o out/channel
  postprocess/fluidbody_channel.py out/channel -o fig5.png
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


def separation(s):
    """Wall separation over the snapshots and the upper/lower body indices."""
    y0 = s["centres"][0, :, 1]
    upper, lower = np.where(y0 > y0.mean())[0], np.where(y0 <= y0.mean())[0]
    if len(upper) == 0 or len(lower) == 0:
        raise SystemExit("need bodies above and below their mean height (two walls)")
    ys = s["centres"][:, :, 1]
    return ys[:, upper].mean(axis=1) - ys[:, lower].mean(axis=1), upper, lower


def scene(ax, s, i, title, paths=False):
    for j, o in enumerate(s["outline"](i)):
        ax.fill(o[:, 0], o[:, 1], color="0.6", ec="k", lw=0.6)
    if paths:
        for k, K in enumerate(s["K"]):
            ax.plot(s["vortices"][: i + 1, k, 0], s["vortices"][: i + 1, k, 1], "-", lw=0.6,
                    color=fc.vortex_colour(K))
    for k, K in enumerate(s["K"]):
        ax.plot(*s["vortices"][i, k], "o", color=fc.vortex_colour(K), mec="k", ms=5)
    ax.set_aspect("equal")
    ax.set_title(title, fontsize=10)


def main(argv):
    p = fc.figure_parser(__doc__, "fluidbody_channel.png")
    p.add_argument("outdir", help="run folder with snapshots.h5")
    a = p.parse_args(argv)
    s = fc.read_snapshots(a.outdir)
    if s["centres"].shape[1] < 2:
        raise kirchhoff.LoadError(f"{a.outdir}: needs at least two bodies")
    sep, upper, lower = separation(s)
    t = s["time"]
    vx = np.polyfit(t, s["vortices"][:, :, 0].mean(axis=1), 1)[0] if s["vortices"].shape[1] and len(t) > 1 else np.nan
    print(f"{'run':30s} {'snaps':>6s} {'t_end':>8s} {'sep_0':>10s} {'sep_min':>10s} {'sep_end':>10s} "
          f"{'rel_change':>11s} {'pair_vx':>8s}")
    print(f"{a.outdir:30s} {len(t):6d} {t[-1]:8.4g} {sep[0]:10.6f} {sep.min():10.6f} {sep[-1]:10.6f} "
          f"{(sep[-1] - sep[0]) / sep[0]:11.3e} {vx:8.4g}")

    fig = plt.figure(figsize=(11, 5.4), constrained_layout=True)
    grid = fig.add_gridspec(2, 2, height_ratios=[0.8, 1])
    ax0, ax1 = fig.add_subplot(grid[0, 0]), fig.add_subplot(grid[0, 1])
    scene(ax0, s, 0, f"t = {t[0]:g}")
    scene(ax1, s, len(t) - 1, f"t = {t[-1]:g}", paths=True)
    xs = np.concatenate([s["vortices"][:, :, 0].ravel(), s["centres"][:, :, 0].ravel()])
    lim = (xs.min() - 1.5, xs.max() + 1.5)
    for ax in (ax0, ax1):
        ax.set_xlim(*lim)
        ax.set_ylim(-2.2, 2.2)
    ax = fig.add_subplot(grid[1, :])
    ax.plot(t, sep, "k-", lw=1.0)
    ax.axhline(sep[0], color="0.6", lw=0.6, ls="--")
    ax.set_xlabel("time")
    ax.set_ylabel("wall separation")
    ax.set_title(f"upper bodies {list(upper)} minus lower bodies {list(lower)}: "
                 f"{sep[0]:.4f} -> {sep[-1]:.4f} ({100 * (sep[-1] - sep[0]) / sep[0]:+.2f}%)", fontsize=10)
    ax.grid(alpha=0.3)
    fc.save_png(fig, a.output, a.dpi)
    print(f"plot: {a.output}")
    return 0


if __name__ == "__main__":
    sys.exit(cli.main(main))
