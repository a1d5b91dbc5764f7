#!/usr/bin/python3
"""Casimir error of rigid-body runs on a log scale (docs/damped.md Sec. 2).

  damped_casimir.py OUTDIR[=LABEL]... [-o casimir.png]

Plots abs(|M(t)|/|M(0)| - 1) of every run (column 'casimir' of invariants.h5); zeros are drawn at
1e-17. DDB stays at round-off, RK4 and Lobatto IIIC drift. Prints the maximum per run.
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
    ap.add_argument("-o", "--output", default="damped_casimir.png")
    a = ap.parse_args(argv)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    print("| run | max relative Casimir error |\n|---|---|")
    for label, c, _ in read_runs(a.runs):
        err = np.abs(c["casimir"] / c["casimir"][0] - 1.0)
        ax.semilogy(c["time"], np.maximum(err, 1e-17), lw=1, label=label)
        print(f"| {label} | {np.max(err):.3e} |")
    ax.set_xlabel("t")
    ax.set_ylabel("abs(|M|/|M0| - 1)")
    ax.set_title("Casimir |M|: drift of each method")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(a.output, dpi=120)
    print(f"wrote {a.output}")


if __name__ == "__main__":
    sys.exit(cli.main(main))
