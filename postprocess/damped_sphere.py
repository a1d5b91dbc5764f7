#!/usr/bin/python3
"""Trajectory of M/|M| on the unit sphere for rigid-body runs (docs/damped.md Sec. 2).

  damped_sphere.py OUTDIR[=LABEL]... [-o sphere.png]

Reads the columns M1, M2, M3 of invariants.h5. Scenario A ends at a pole of the largest-inertia
axis, scenario B on the great circle of the two equal largest moments (drawn when the deck's
inertia has two equal largest moments). Prints the final direction and distance to the limit set.
"""
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from damped_common import read_runs  # noqa: E402
from kirchhoff import cli  # noqa: E402


def main(argv):
    ap = cli.parser(__doc__)
    ap.add_argument("runs", nargs="+", help="rigid-body output folders, each OUTDIR or OUTDIR=LABEL")
    ap.add_argument("-o", "--output", default="damped_sphere.png")
    a = ap.parse_args(argv)
    fig = plt.figure(figsize=(7, 7))
    ax = fig.add_subplot(projection="3d")
    u, v = np.mgrid[0:2 * np.pi:40j, 0:np.pi:20j]
    ax.plot_wireframe(np.cos(u) * np.sin(v), np.sin(u) * np.sin(v), np.cos(v), color="0.85", lw=0.4)
    print("| run | final M/|M| | distance to limit set |\n|---|---|---|")
    circle_drawn = False
    for label, c, deck in read_runs(a.runs):
        M = np.stack([c["M1"], c["M2"], c["M3"]], axis=1)
        d = M / np.linalg.norm(M, axis=1)[:, None]
        ax.plot(d[:, 0], d[:, 1], d[:, 2], lw=1, label=label)
        ax.scatter(*d[-1], s=25)
        print(f"| {label} | ({d[-1, 0]:.6f}, {d[-1, 1]:.6f}, {d[-1, 2]:.6f}) | {c['distance'][-1]:.3e} |")
        inertia = np.asarray(((deck.get("rigid_body") or {}).get("inertia")) or [0, 0, 0], float)
        big = np.sort(inertia)[-2:]
        if not circle_drawn and big[0] > 0 and np.isclose(big[0], big[1]):
            axis = np.argmin(inertia)  # the circle is orthogonal to the smallest-moment axis
            t = np.linspace(0, 2 * np.pi, 200)
            pts = np.zeros((3, t.size))
            others = [i for i in range(3) if i != axis]
            pts[others[0]], pts[others[1]] = np.cos(t), np.sin(t)
            ax.plot(*pts, "k--", lw=1, label="limit circle")
            circle_drawn = True
    ax.set_box_aspect((1, 1, 1))
    ax.set_xlabel("M1/|M|")
    ax.set_ylabel("M2/|M|")
    ax.set_zlabel("M3/|M|")
    ax.legend(fontsize=8, loc="upper left")
    ax.set_title("M/|M| on the unit sphere")
    fig.tight_layout()
    fig.savefig(a.output, dpi=120)
    print(f"wrote {a.output}")


if __name__ == "__main__":
    sys.exit(cli.main(main))
