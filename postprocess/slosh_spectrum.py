#!/usr/bin/python3
"""Spectrum of q(t) (Hann window, FFT) with the predicted linear frequencies marked (docs/slosh.md).

Solid lines: roots of nu = omega^2 [m_v + m_f tan(kL/2)/(kL/2)] (antisymmetric, coupled);
dashed: symmetric modes 2 n pi c / L, which must not appear. Prints peak vs root per root.
usage: slosh_spectrum.py OUTDIR [-o FIGURE.png] [--roots 4]
"""
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from kirchhoff import cli  # noqa: E402
from slosh_common import coupled_frequencies, load_invariants, symmetric_frequencies  # noqa: E402


def main(argv):
    ap = cli.parser(__doc__, output="")
    ap.add_argument("outdir", help="slosh output folder (-o of kirchhoff-slosh)")
    ap.add_argument("--roots", type=int, default=4, help="coupled roots to mark and compare (default 4)")
    args = ap.parse_args(argv)
    c, deck = load_invariants(args.outdir)
    t, q = c["time"], c["q"]
    dt = np.median(np.diff(t))
    y = (q - q.mean()) * np.hanning(len(q))
    amp = np.abs(np.fft.rfft(y))
    omega = 2 * np.pi * np.fft.rfftfreq(len(q), dt)
    bin_ = omega[1]
    roots = coupled_frequencies(deck, args.roots)
    sym = symmetric_frequencies(deck, 3)
    wmax = 1.3 * max(roots.max(), sym.max())
    keep = omega <= wmax
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.semilogy(omega[keep], amp[keep] / amp.max(), lw=0.8, label="|FFT q| (Hann)")
    for i, r in enumerate(roots):
        ax.axvline(r, color="C1", lw=0.8, label="coupled roots" if i == 0 else None)
    for i, s in enumerate(sym):
        ax.axvline(s, color="C2", ls="--", lw=0.8, label="symmetric 2n pi c/L" if i == 0 else None)
    ax.set_xlabel("omega [rad/s]")
    ax.set_ylabel("amplitude / max")
    ax.set_title(f"{os.path.basename(os.path.normpath(args.outdir))}: spectrum of q(t), bin {bin_:.4f} rad/s")
    ax.legend(loc="upper right")
    fig.tight_layout()
    out = args.output or os.path.join(args.outdir, "slosh_spectrum.png")
    fig.savefig(out, dpi=130)
    print(f"# FFT resolution {bin_:.5f} rad/s, T = {t[-1] - t[0]:.1f} s")
    print("# root [rad/s]   FFT peak   error/bin")
    for r in roots:
        if r == 0.0:
            continue
        w = (omega > r - 5 * bin_) & (omega < r + 5 * bin_)
        k = np.argmax(amp * w)
        print(f"{r:12.6f} {omega[k]:10.6f} {abs(omega[k] - r) / bin_:8.3f}")
    print("# symmetric [rad/s]   amplitude there / max")
    for s in sym:
        k = int(round(s / bin_))
        print(f"{s:12.6f} {amp[max(k - 2, 0):k + 3].max() / amp.max():10.2e}")
    print(f"wrote {out}")


if __name__ == "__main__":
    sys.exit(cli.main(main))
