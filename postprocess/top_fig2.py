#!/usr/bin/python3
"""Ohsawa 2019, Fig. 2: h and K - their initial values under the implicit midpoint rule applied
directly to (1.1) (Austin et al. 1993, not Poisson; gray) and to the collective system (4.4) (red),
Kovalevskaya top, dt = 1/50 (docs/heavytop.md). The direct scheme keeps h to round-off; K oscillates
more under it than under the collective Lie-Poisson integrator.

    kirchhoff-top input/top_kovalevskaya_direct_implicit.yaml -o out/dim
    kirchhoff-top input/top_kovalevskaya.yaml -o out/cim
    /usr/bin/python3 postprocess/top_fig2.py out/dim out/cim -o fig2.png

Prints the oscillation amplitudes (max - min) of h and K per run and their ratio.
"""
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from kirchhoff import cli  # noqa: E402
from top_common import COLORS, LABELS, deviation, load_run  # noqa: E402


def main(argv):
    ap = cli.parser(__doc__, output="top_fig2.png")
    ap.add_argument("outdirs", nargs="+", help="kirchhoff-top output folders")
    a = ap.parse_args(argv)
    runs = [load_run(d) for d in a.outdirs]
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.8))
    amp = {}
    print("| scheme | quantity | amplitude max - min | max deviation |\n|---|---|---|---|")
    for (name, title), ax in zip([("energy", "(a) Hamiltonian h"),
                                  ("kovalevskaya", "(b) Kovalevskaya invariant K")], axes):
        for scheme, c, _ in runs:
            d = deviation(c[name])
            ax.plot(c["time"], d, color=COLORS.get(scheme), lw=0.8, label=LABELS.get(scheme, scheme))
            amp[(scheme, name)] = d.max() - d.min()
            print(f"| {scheme} | {name} | {amp[(scheme, name)]:.3e} | {abs(d).max():.3e} |")
        ax.set_title(title)
        ax.set_xlabel("t")
        ax.ticklabel_format(axis="y", style="sci", scilimits=(-3, 3))
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=8)
    k = ("direct_implicit_midpoint", "kovalevskaya"), ("collective_implicit_midpoint", "kovalevskaya")
    if all(x in amp for x in k):
        print(f"K amplitude ratio direct / collective: {amp[k[0]] / amp[k[1]]:.2f}")
    fig.tight_layout()
    fig.savefig(a.output, dpi=150)
    print(f"wrote {a.output}")


if __name__ == "__main__":
    sys.exit(cli.main(main))
