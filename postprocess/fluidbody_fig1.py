#!/usr/bin/python3
"""Weissmann 2014, Fig. 1 from `kirchhoff-fluidbody --flow-field DECK`: stream lines of u_gamma, u_gamma + u_I.

Draws the two panels of postprocess/streamlines.py (same reader and panels) as a compact palette
PNG, and checks the boundary condition the right panel shows: on the ring of fluid grid points
next to each body, the spread (max - min) of psi_gamma + psi_I is small compared with the spread of
psi_gamma alone, since u_gamma + u_I has no normal flux through the body (psi constant on it).
Prints per body: ring points, spread of psi_gamma, spread of psi_gamma + psi_I, their ratio.

  kirchhoff-fluidbody input/fluidbody_fig1.yaml --flow-field    # writes out/fluidbody_fig1/flowfield.h5
  postprocess/fluidbody_fig1.py out/fluidbody_fig1/flowfield.h5 -o fig1.png
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
import streamlines  # noqa: E402


def inside(poly, X, Y):
    """Even-odd point-in-polygon test on grid arrays (poly: (k, 2) vertices)."""
    res = np.zeros(X.shape, dtype=bool)
    x, y = poly[:, 0], poly[:, 1]
    for k in range(len(poly)):
        x0, y0, x1, y1 = x[k - 1], y[k - 1], x[k], y[k]
        cross = (y0 > Y) != (y1 > Y)
        with np.errstate(divide="ignore", invalid="ignore"):
            xi = x0 + (Y - y0) * (x1 - x0) / (y1 - y0)
        res ^= cross & (X < xi)
    return res


def boundary_check(d):
    """Per body: (ring points, spread psi_gamma, spread psi_gamma + psi_I)."""
    X, Y = np.meshgrid(d["x"], d["y"])
    fluid = d["mask"] == 0
    rows = []
    for b in d["bodies"]:
        body = inside(b, X, Y)
        near = np.zeros_like(body)
        near[1:, :] |= body[:-1, :]
        near[:-1, :] |= body[1:, :]
        near[:, 1:] |= body[:, :-1]
        near[:, :-1] |= body[:, 1:]
        ring = near & fluid & ~body
        if ring.sum() == 0:
            rows.append((0, np.nan, np.nan))
            continue
        g = d["psi_gamma"][ring]
        rows.append((int(ring.sum()), np.ptp(g), np.ptp(g + d["psi_I"][ring])))
    return rows


def main(argv):
    p = fc.figure_parser(__doc__, "fluidbody_fig1.png")
    p.add_argument("file", help="flowfield.h5 of --flow-field")
    p.add_argument("--levels", type=int, default=40, help="stream-line levels per panel")
    p.add_argument("--moving", action="store_true", help="right panel: psi_gamma + psi_I + psi_B")
    a = p.parse_args(argv)
    d = streamlines.read(a.file)
    print(f"{'body':>4s} {'ring_points':>11s} {'spread_psi_gamma':>17s} {'spread_psi_gamma+I':>19s} {'ratio':>8s}")
    for j, (n, g, gi) in enumerate(boundary_check(d)):
        print(f"{j:4d} {n:11d} {g:17.4e} {gi:19.4e} {gi / g if g > 0 else np.nan:8.3f}")
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.4), constrained_layout=True)
    streamlines.panel(axes[0], d, d["psi_gamma"], r"$u_\gamma$ (vortices only)", a.levels)
    right = d["psi_gamma"] + d["psi_I"] + (d["psi_B"] if a.moving else 0.0)
    streamlines.panel(axes[1], d, right, r"$u_\gamma + u_I$" + (r" $+ u_B$" if a.moving else ""), a.levels)
    fc.save_png(fig, a.output, a.dpi)
    print(f"plot: {a.output}")
    return 0


if __name__ == "__main__":
    sys.exit(cli.main(main))
