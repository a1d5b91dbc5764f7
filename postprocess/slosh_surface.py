#!/usr/bin/python3
"""Space-time picture of the free surface h(x, t) of a slosh run (x in the tank frame).

Reads OUTDIR/snapshots.h5 (deck output.snapshot_interval > 0); each snapshot's particle positions are
interpolated onto a uniform x grid.
usage: slosh_surface.py OUTDIR [-o FIGURE.png]
"""
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from kirchhoff import cli  # noqa: E402
from slosh_common import load_invariants, load_surfaces  # noqa: E402


def main(argv):
    ap = cli.parser(__doc__, output="")
    ap.add_argument("outdir", help="slosh output folder (-o of kirchhoff-slosh)")
    args = ap.parse_args(argv)
    _, deck = load_invariants(args.outdir)
    times, xs, hs = load_surfaces(args.outdir)
    L = deck["tank"]["length"]
    xg = np.linspace(0.0, L, 400)
    H = np.array([np.interp(xg, x, h) for x, h in zip(xs, hs)])
    mean = H.mean()
    fig, ax = plt.subplots(1, 2, figsize=(11, 5), gridspec_kw={"width_ratios": [3, 2]})
    im = ax[0].pcolormesh(xg, times, H - mean, shading="auto", cmap="RdBu_r")
    fig.colorbar(im, ax=ax[0], label="h - mean [m]")
    ax[0].set_xlabel("x [m] (tank frame)")
    ax[0].set_ylabel("t [s]")
    ax[0].set_title(f"{os.path.basename(os.path.normpath(args.outdir))}: surface")
    for k in np.linspace(0, len(times) - 1, 5).astype(int):
        ax[1].plot(xs[k], hs[k], lw=0.8, label=f"t = {times[k]:.2f} s")
    ax[1].set_xlabel("x [m]")
    ax[1].set_ylabel("h [m]")
    ax[1].legend(fontsize=8)
    fig.tight_layout()
    out = args.output or os.path.join(args.outdir, "slosh_surface.png")
    fig.savefig(out, dpi=130)
    print(f"surface: {len(times)} snapshots, h in [{H.min():.4e}, {H.max():.4e}] m; wrote {out}")


if __name__ == "__main__":
    sys.exit(cli.main(main))
