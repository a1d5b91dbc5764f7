#!/usr/bin/python3
"""Relative energy error (E_n - E_0)/(E_0 - E_rest), momentum balance and mass of a slosh run.

The log's 'energy' column is already E - E_rest (E_rest: the flat state at rest).
usage: slosh_energy.py OUTDIR [-o FIGURE.png]
"""
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from kirchhoff import cli  # noqa: E402
from slosh_common import load_invariants  # noqa: E402


def main(argv):
    ap = cli.parser(__doc__, output="")
    ap.add_argument("outdir", help="slosh output folder (-o of kirchhoff-slosh)")
    args = ap.parse_args(argv)
    c, deck = load_invariants(args.outdir)
    t = c["time"]
    rel = (c["energy"] - c["energy"][0]) / c["energy"][0]
    mom = c["momentum_balance"] - c["momentum_balance"][0]
    mass = (c["mass"] - c["mass"][0]) / c["mass"][0]
    half = len(t) // 2
    drift = rel[half:].mean() - rel[:half].mean()
    fig, ax = plt.subplots(3, 1, figsize=(8, 7), sharex=True)
    ax[0].plot(t, rel, lw=0.6)
    ax[0].set_ylabel("(E - E0) / (E0 - E_rest)")
    ax[0].set_title(f"{os.path.basename(os.path.normpath(args.outdir))}: max |rel. error| "
                    f"{np.abs(rel).max():.3e}, drift of the mean {drift:.2e}")
    ax[1].plot(t, mom, lw=0.6)
    ax[1].set_ylabel("p + impulse - p0")
    ax[2].plot(t, mass, lw=0.6)
    ax[2].set_ylabel("mass rel. change")
    ax[2].set_xlabel("t [s]")
    fig.tight_layout()
    out = args.output or os.path.join(args.outdir, "slosh_energy.png")
    fig.savefig(out, dpi=130)
    print(f"energy: max |(E-E0)/(E0-E_rest)| = {np.abs(rel).max():.3e}, mean drift {drift:.3e}; "
          f"momentum balance max {np.abs(mom).max():.2e}; mass max {np.abs(mass).max():.2e}; wrote {out}")


if __name__ == "__main__":
    sys.exit(cli.main(main))
