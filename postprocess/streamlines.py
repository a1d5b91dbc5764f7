#!/usr/bin/python3
"""Stream lines of a sampled flow field, like Weissmann 2014 Fig. 1 (docs/fluidbody.md "Tools").

Reads the flow field of `kirchhoff-fluidbody --flow-field` (flowfield.h5, docs/output.md) and
draws, side by side, the stream lines of u_gamma alone (level sets of psi_gamma) and of u_gamma + u_I (level sets of psi_gamma + psi_I), with
the bodies and the vortices (marker size ~ |K|, red K > 0, blue K < 0). With --moving, the
right panel adds psi_B (the full velocity of moving bodies).

    streamlines.py OUTDIR/flowfield.h5 [-o OUT.png] [--levels 40] [--moving]
"""
import sys

import matplotlib
import numpy as np

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import kirchhoff  # noqa: E402
from kirchhoff import cli  # noqa: E402


def read(path):
    """The flow field of `path` (flowfield.h5, or the OUTDIR holding it) as a dict of arrays:
    x, y, psi_gamma, psi_I, psi_B, mask, bodies (list of (k, 2)), vortices (m, 2), K, attrs."""
    ff = kirchhoff.load(path).flow_field
    d = {k: np.asarray(ff.fields[k]) for k in ("psi_gamma", "psi_I", "psi_B") if k in ff.fields}
    d.update(x=np.asarray(ff.x), y=np.asarray(ff.y), mask=ff.mask, bodies=ff.bodies,
             vortices=ff.vortices, K=ff.K, attrs=ff.attrs)
    return d


def levels(psi, n):
    # Quantile levels: stream lines stay dense near the vortices and still cover the far field.
    finite = psi.compressed() if np.ma.isMaskedArray(psi) else psi[np.isfinite(psi)]
    lo, hi = np.percentile(finite, [1, 99])
    return np.unique(np.percentile(finite[(finite >= lo) & (finite <= hi)], np.linspace(0, 100, n)))


def panel(ax, d, psi, title, n):
    psi = np.ma.masked_where(d["mask"] != 0, psi)
    ax.contour(d["x"], d["y"], psi, levels=levels(psi, n), colors="tab:blue", linewidths=0.7, linestyles="solid")
    for b in d["bodies"]:
        ax.fill(b[:, 0], b[:, 1], color="0.75", ec="k", lw=1.0)
    for (x, y), k in zip(d["vortices"], d["K"]):
        ax.plot(x, y, "o", color="tab:red" if k > 0 else "tab:blue", ms=4 + 3 * abs(k), mec="k")
    ax.set_aspect("equal")
    ax.set_xlim(d["x"][0], d["x"][-1])
    ax.set_ylim(d["y"][0], d["y"][-1])
    ax.set_title(title)


def main(argv):
    p = cli.parser(__doc__, output="")
    p.add_argument("file", help="flowfield.h5 of kirchhoff-fluidbody --flow-field (or its OUTDIR)")
    p.add_argument("--levels", type=int, default=40, help="stream-line levels per panel")
    p.add_argument("--moving", action="store_true", help="right panel: psi_gamma + psi_I + psi_B")
    a = p.parse_args(argv)
    d = read(a.file)
    fig, axes = plt.subplots(1, 2, figsize=(11, 5.2), constrained_layout=True)
    panel(axes[0], d, d["psi_gamma"], r"$u_\gamma$ (vortices only)", a.levels)
    right = d["psi_gamma"] + d["psi_I"] + (d["psi_B"] if a.moving else 0.0)
    panel(axes[1], d, right, r"$u_\gamma + u_I$" + (r" $+ u_B$" if a.moving else ""), a.levels)
    out = a.output or a.file.rsplit(".", 1)[0] + "_streamlines.png"
    fig.savefig(out, dpi=130)
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(cli.main(main))
