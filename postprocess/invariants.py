#!/usr/bin/python3
"""Plot and summarize any kirchhoff invariant log (OUTDIR/invariants.h5).

Every series of /invariants is drawn as its error against the initial value, relative where the
initial value is not ~0 (log scale), and a table gives for each series: the initial value, the
maximum error, the drift per unit time (slope of a linear least-squares fit) and the oscillation
amplitude (max - min of the residual of that fit, halved).

    /usr/bin/python3 postprocess/invariants.py OUTDIR/invariants.h5 [-o plot.png] [--columns a,b]
"""
import argparse
import sys

import h5py
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

DIAGNOSTICS = {"snes_iterations", "snes_function_evaluations", "residual_norm", "newton_iterations", "iterations"}


def read_log(path):
    with h5py.File(path, "r") as f:
        g = f["invariants"]
        order = g.attrs.get("columns", "")
        if isinstance(order, bytes):
            order = order.decode()
        names = [n for n in order.split(",") if n] or [k for k in g if k not in ("step", "time")]
        data = {k: g[k][:] for k in ["step", "time"] + names}
        attrs = {k: (v.decode() if isinstance(v, bytes) else v) for k, v in f.attrs.items()}
    return names, data, attrs


def summarize(t, v):
    """(initial, relative?, max error, drift per unit time, oscillation amplitude)."""
    v0 = v[0]
    relative = abs(v0) > 1e-12
    err = (v - v0) / abs(v0) if relative else v - v0
    if len(t) > 2 and t[-1] > t[0]:
        slope, icpt = np.polyfit(t, err, 1)
        resid = err - (slope * t + icpt)
        amp = 0.5 * (resid.max() - resid.min())
    else:
        slope, amp = 0.0, 0.0
    return v0, relative, np.max(np.abs(err)), slope, amp


def table(names, data):
    t = data["time"]
    rows = ["| series | initial | error | max error | drift / unit time | oscillation amplitude |",
            "|---|---|---|---|---|---|"]
    for n in names:
        v = data[n]
        if n in DIAGNOSTICS:
            rows.append(f"| {n} | - | - | max {np.max(v):.3g} | mean {np.mean(v[1:]) if len(v) > 1 else 0:.3g} | - |")
            continue
        v0, rel, emax, slope, amp = summarize(t, v)
        rows.append(f"| {n} | {v0:.10g} | {'relative' if rel else 'absolute'} | {emax:.3e} | {slope:.3e} | {amp:.3e} |")
    return "\n".join(rows)


def plot(names, data, attrs, out):
    t = data["time"]
    series = [n for n in names if n not in DIAGNOSTICS]
    fig, ax = plt.subplots(figsize=(9, 5.5))
    ax.set_prop_cycle(color=plt.cm.tab20(np.linspace(0, 1, 20)))
    for n in series:
        v = data[n]
        v0 = v[0]
        err = np.abs((v - v0) / abs(v0)) if abs(v0) > 1e-12 else np.abs(v - v0)
        err = np.where(err > 0, err, np.nan)
        if np.all(np.isnan(err[1:])):
            continue
        ax.semilogy(t, err, lw=0.8, label=n + (" (rel.)" if abs(v0) > 1e-12 else " (abs.)"))
    ax.set_xlabel("time")
    ax.set_ylabel("|error against the initial value|")
    ax.set_title(f"{attrs.get('model', '?')}: {attrs.get('deck_file', '')}")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(out, dpi=130)
    plt.close(fig)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("log")
    p.add_argument("-o", "--output", help="plot file (default: next to the log, invariants.png)")
    p.add_argument("--columns", help="comma-separated subset of series")
    a = p.parse_args()
    names, data, attrs = read_log(a.log)
    if a.columns:
        wanted = a.columns.split(",")
        missing = [c for c in wanted if c not in names]
        if missing:
            sys.exit(f"no such series: {', '.join(missing)} (have: {', '.join(names)})")
        names = wanted
    out = a.output or a.log.rsplit("/", 1)[0] + "/invariants.png" if "/" in a.log else "invariants.png"
    if a.output:
        out = a.output
    plot(names, data, attrs, out)
    print(f"{attrs.get('model', '?')} log {a.log}: {len(data['step'])} rows, t = {data['time'][0]:g}..{data['time'][-1]:g}")
    print(table(names, data))
    print(f"plot: {out}")


if __name__ == "__main__":
    main()
