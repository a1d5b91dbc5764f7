#!/usr/bin/python3
"""Vehicle displacement q(t) and the vehicle's energy share (slosh, docs/slosh.md).

usage: slosh_q.py OUTDIR [-o FIGURE.png]
"""
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from kirchhoff import cli  # noqa: E402
from slosh_common import load_invariants  # noqa: E402


def main(argv):
    ap = cli.parser(__doc__, output="")
    ap.add_argument("outdir", help="slosh output folder (-o of kirchhoff-slosh)")
    args = ap.parse_args(argv)
    c, deck = load_invariants(args.outdir)
    fig, ax = plt.subplots(2, 1, figsize=(8, 5.5), sharex=True)
    ax[0].plot(c["time"], c["q"], lw=0.7)
    ax[0].set_ylabel("q [m]")
    ax[0].set_title(f"{os.path.basename(os.path.normpath(args.outdir))}: vehicle displacement")
    share = c["vehicle_energy"] / c["energy"]
    ax[1].plot(c["time"], share, lw=0.7)
    ax[1].set_ylabel("vehicle energy / (E - E_rest)")
    ax[1].set_xlabel("t [s]")
    fig.tight_layout()
    out = args.output or os.path.join(args.outdir, "slosh_q.png")
    fig.savefig(out, dpi=130)
    print(f"q: max |q| = {abs(c['q']).max():.4e} m, vehicle energy share min {share.min():.3f} "
          f"max {share.max():.3f}; wrote {out}")


if __name__ == "__main__":
    sys.exit(cli.main(main))
