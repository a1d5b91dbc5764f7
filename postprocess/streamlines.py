#!/usr/bin/python3
"""Stream lines of a sampled flow field, like seed 000 Fig. 1 (fluidbody.md "Fluid quantities").

Reads a flow-field HDF5 file written by io/FlowField (datasets x, y, psi_gamma, psi_I, psi_B,
u, v, mask; groups bodies/, vortices/) and draws, side by side, the stream lines of u_gamma
alone (level sets of psi_gamma) and of u_gamma + u_I (level sets of psi_gamma + psi_I), with
the bodies and the vortices (marker size ~ |K|, red K > 0, blue K < 0). With --moving, the
right panel adds psi_B (the full velocity of moving bodies).

Usage: streamlines.py FLOW.h5 [-o OUT.png] [--levels 40] [--moving]
"""
import argparse
import sys

import h5py
import matplotlib
import numpy as np

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read(path):
    with h5py.File(path, "r") as f:
        d = {k: f[k][()] for k in ("x", "y", "psi_gamma", "psi_I", "psi_B", "mask") if k in f}
        d["bodies"] = [f["bodies"][k][()] for k in sorted(f["bodies"], key=lambda s: int(s.split("_")[1]))]
        d["vortices"] = f["vortices/positions"][()].reshape(-1, 2)
        d["K"] = f["vortices/K"][()]
        d["attrs"] = {k: (v.decode() if isinstance(v, bytes) else v) for k, v in f.attrs.items()}
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
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("file")
    p.add_argument("-o", "--output", default=None)
    p.add_argument("--levels", type=int, default=40)
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
    sys.exit(main(sys.argv[1:]))
