#!/usr/bin/python3
"""Ohsawa 2019, Fig. 1: h, f1, f2 and K - their initial values along the Kovalevskaya-top runs of
the three schemes of Fig. 1 (explicit midpoint on (4.4), explicit midpoint on (1.1), implicit
midpoint on (4.4) = collective Lie-Poisson), dt = 1/50 (docs/heavytop.md).

    kirchhoff-top input/top_kovalevskaya_collective_explicit.yaml -o out/cem
    kirchhoff-top input/top_kovalevskaya_direct_explicit.yaml -o out/dem
    kirchhoff-top input/top_kovalevskaya.yaml -o out/cim
    /usr/bin/python3 postprocess/top_fig1.py out/cem out/dem out/cim -o fig1.png

Prints, per run and quantity, the largest deviation and the deviation at the final time.
"""
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from kirchhoff import cli  # noqa: E402
from top_common import COLORS, LABELS, deviation, load_run  # noqa: E402

PANELS = [("energy", "(a) Hamiltonian h"), ("f1", "(b) Casimir f1"), ("f2", "(c) Casimir f2"),
          ("kovalevskaya", "(d) Kovalevskaya invariant K")]


def main(argv):
    ap = cli.parser(__doc__, output="top_fig1.png")
    ap.add_argument("outdirs", nargs="+", help="kirchhoff-top output folders")
    a = ap.parse_args(argv)
    runs = [load_run(d) for d in a.outdirs]
    fig, axes = plt.subplots(2, 2, figsize=(11, 7), sharex=True)
    print("| scheme | quantity | initial | max deviation | final deviation |\n|---|---|---|---|---|")
    for (name, title), ax in zip(PANELS, axes.flat):
        for scheme, c, _ in runs:
            d = deviation(c[name])
            ax.plot(c["time"], d, color=COLORS.get(scheme), lw=0.8, label=LABELS.get(scheme, scheme))
            print(f"| {scheme} | {name} | {c[name][0]:.10g} | {abs(d).max():.3e} | {d[-1]:.3e} |")
        ax.set_title(title)
        ax.ticklabel_format(axis="y", style="sci", scilimits=(-3, 3))
        ax.grid(alpha=0.3)
    for ax in axes[1]:
        ax.set_xlabel("t")
    axes[0, 0].legend(fontsize=8)
    fig.suptitle("Kovalevskaya top, dt = %g: quantity minus its initial value" %
                 runs[0][2]["time"]["dt"])
    fig.tight_layout()
    fig.savefig(a.output, dpi=150)
    print(f"wrote {a.output}")


if __name__ == "__main__":
    sys.exit(cli.main(main))
