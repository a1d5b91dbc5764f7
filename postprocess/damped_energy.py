#!/usr/bin/python3
"""Energy decay of damped runs against a reference run (docs/damped.md Sec. 1).

  damped_energy.py REF_OUTDIR OUTDIR... [-o energy.png]

REF_OUTDIR is a run of the same deck with scheme.method dop853 (or any run taken as reference);
each OUTDIR may be written OUTDIR=LABEL. Top: H(t) of every run (log scale). Bottom: |H - H_ref|
at the run's times (the reference interpolated if its log times differ). Prints a Markdown table
of max_t |H - H_ref| and the error at the final time.
"""
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from damped_common import on_times, read_run, read_runs  # noqa: E402
from kirchhoff import cli  # noqa: E402


def main(argv):
    ap = cli.parser(__doc__)
    ap.add_argument("reference", help="output folder of the reference run (scheme.method dop853)")
    ap.add_argument("runs", nargs="+", help="output folders to compare, each OUTDIR or OUTDIR=LABEL")
    ap.add_argument("-o", "--output", default="damped_energy.png")
    a = ap.parse_args(argv)
    ref_label, ref, _, _ = read_run(a.reference)
    fig, (top, bot) = plt.subplots(2, 1, figsize=(8, 7), sharex=True)
    top.semilogy(ref["time"], ref["energy"], "k--", lw=1.5, label=f"{ref_label} (reference)")
    print("| run | max abs(H - H_ref) | H(T) - H_ref(T) |\n|---|---|---|")
    for label, c, _ in read_runs(a.runs):
        err = c["energy"] - on_times(ref["time"], ref["energy"], c["time"])
        top.semilogy(c["time"], c["energy"], lw=1, label=label)
        bot.semilogy(c["time"], np.maximum(np.abs(err), 1e-17), lw=1, label=label)
        print(f"| {label} | {np.max(np.abs(err)):.3e} | {err[-1]:.3e} |")
    top.set_ylabel("energy H")
    top.legend(fontsize=8)
    top.set_title("energy decay against the reference")
    bot.set_xlabel("t")
    bot.set_ylabel("|H - H_ref|")
    bot.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(a.output, dpi=120)
    print(f"wrote {a.output}")


if __name__ == "__main__":
    sys.exit(cli.main(main))
