#!/usr/bin/python3
"""Plot and summarize the invariant log of any kirchhoff run (OUTDIR or OUTDIR/invariants.h5).

One panel per group of quantities, as the log's `kind` tags them (docs/output.md): the conserved
quantities as their error against the initial value (relative where the initial value is not
~0, log scale), then each diagnostic as its value, then the solver statistics (iterations and
residuals). The title is the deck's name. A Markdown table gives, per conserved quantity, the
initial value, the maximum error, the drift per unit time (slope of a linear least-squares fit)
and the oscillation amplitude (half the max - min of the residual of that fit); per diagnostic
its range and final value; per solver statistic its maximum and mean.

    /usr/bin/python3 postprocess/invariants.py out/fluidbody_disk_vortex          # -> OUTDIR/invariants.png
    /usr/bin/python3 postprocess/invariants.py OUTDIR/invariants.h5 -o plot.png --columns energy,momentum_x

A sweep folder is read case by case (one figure per case, in the case folder or -o with the
case name appended).
"""
import os
import sys
import textwrap

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402
import numpy as np  # noqa: E402

import kirchhoff  # noqa: E402
from kirchhoff import cli, plot as kplot  # noqa: E402


def error_against_initial(v):
    """(|v - v0| / |v0| or |v - v0|, relative?) with relative when |v0| > 1e-12 max(1, |v|max)."""
    v = np.asarray(v, dtype=float)
    v0 = v[0]
    relative = abs(v0) > 1e-12 * max(1.0, np.max(np.abs(v)))
    return (np.abs(v - v0) / abs(v0) if relative else np.abs(v - v0)), relative


def fit(t, e):
    """(drift per unit time, oscillation amplitude) of a signed error series e(t)."""
    if len(t) > 2 and t[-1] > t[0]:
        slope, icpt = np.polyfit(t, e, 1)
        resid = e - (slope * t + icpt)
        return slope, 0.5 * (resid.max() - resid.min())
    return 0.0, 0.0


def table(log, names):
    t = np.asarray(log.time)
    rows = ["| series | kind | units | initial | error | max error | drift / unit time | oscillation amplitude |",
            "|---|---|---|---|---|---|---|---|"]
    for n in names:
        v = np.asarray(log[n], dtype=float)
        s = log[n]
        if s.kind == "conserved":
            err, rel = error_against_initial(v)
            signed = (v - v[0]) / abs(v[0]) if rel else v - v[0]
            slope, amp = fit(t, signed)
            rows.append(f"| {n} | conserved | {s.units} | {v[0]:.10g} | {'relative' if rel else 'absolute'} | "
                        f"{err.max():.3e} | {slope:.3e} | {amp:.3e} |")
        elif s.kind == "solver":
            rows.append(f"| {n} | solver | {s.units} | - | - | max {v.max():.3g} | "
                        f"mean {v[1:].mean() if len(v) > 1 else v.mean():.3g} | - |")
        else:
            rows.append(f"| {n} | {s.kind} | {s.units} | {v[0]:.10g} | range | "
                        f"{v.min():.6g} .. {v.max():.6g} | final {v[-1]:.10g} | - |")
    return "\n".join(rows)


def groups(log, names):
    """[(title, [names])]: the conserved ones together, each diagnostic alone, the solver ones together."""
    conserved = [n for n in names if log[n].kind == "conserved"]
    diagnostics = [n for n in names if log[n].kind not in ("conserved", "solver", "coordinate")]
    solver = [n for n in names if log[n].kind == "solver"]
    out = []
    if conserved:
        out.append(("conserved quantities: |error against the initial value|", conserved))
    out += [(n, [n]) for n in diagnostics]
    if solver:
        out.append(("solver statistics", solver))
    return out


def draw_conserved(ax, t, log, names):
    colours = plt.cm.tab10(np.arange(10)) if len(names) <= 10 else plt.cm.tab20(np.linspace(0, 1, 20))
    drawn = 0
    for k, n in enumerate(names):
        err, rel = error_against_initial(log[n])
        err = np.where(err > 0, err, np.nan)
        if np.all(np.isnan(err)):
            ax.plot([], [], color=colours[k % len(colours)], label=f"{n}: exact (zero error)")
            continue
        ax.semilogy(t, err, lw=0.9, color=colours[k % len(colours)],
                    label=f"{n} ({'relative' if rel else 'absolute'})")
        drawn += 1
    if not drawn:
        ax.set_yscale("log")
    ax.set_ylabel("|error|", fontsize=8)


def draw_values(ax, t, s):
    v = np.asarray(s, dtype=float)
    ax.plot(t, v, lw=0.9, color="tab:purple", label=s.description or s.name)
    if np.all(v > 0) and v.max() > 100 * v.min():
        ax.set_yscale("log")
    else:  # plain tick labels: no offset or multiplier text over the title
        ax.yaxis.set_major_formatter(matplotlib.ticker.FormatStrFormatter("%.3g"))
    ax.set_ylabel(s.label, fontsize=8)


def smoothed(v, window, reduce):
    """Block reduction (mean or max) of v over `window` rows, at the blocks' last rows."""
    if window <= 1:
        return np.arange(len(v)), v
    n = len(v) // window * window
    blocks = v[:n].reshape(-1, window)
    return np.arange(window - 1, n, window), reduce(blocks, axis=1)


def draw_solver(ax, t, log, names):
    """Counts (left) and residuals (right, log); long logs in blocks of rows // 200 rows (counts
    averaged, residuals their maximum), so the panel stays readable."""
    counts = [n for n in names if "residual" not in n]
    residuals = [n for n in names if "residual" in n]
    window = max(1, len(t) // 200)
    per = f", mean of {window} rows" if window > 1 else ""
    for k, n in enumerate(counts):
        i, v = smoothed(np.asarray(log[n], dtype=float), window, np.mean)
        ax.step(t[i], v, where="post", lw=0.9, color=f"C{k}", label=n + per)
    ax.set_ylabel("count", fontsize=8)
    if residuals:
        ax2 = ax.twinx()
        for k, n in enumerate(residuals):
            i, r = smoothed(np.asarray(log[n], dtype=float), window, np.max)
            ax2.semilogy(t[i], np.where(r > 0, r, np.nan), lw=0.7, ls="--", color=f"C{len(counts) + k}",
                         label=f"{n} (right{', max of %d rows' % window if window > 1 else ''})")
        ax2.set_ylabel("residual", fontsize=8)
        ax2.tick_params(labelsize=8)
        h1, l1 = ax.get_legend_handles_labels()
        h2, l2 = ax2.get_legend_handles_labels()
        return h1 + h2, l1 + l2
    return ax.get_legend_handles_labels()


def plot(run, names, out, dpi):
    """Conserved panel (full width), the diagnostics two per row, the solver panel (full width)."""
    log = run.log
    t = np.asarray(log.time)
    panels = groups(log, names)
    wide = [p for p in panels if log[p[1][0]].kind in ("conserved", "solver")]
    small = [p for p in panels if p not in wide]
    cols = 2 if len(small) > 1 else 1
    rows = len(wide) + (len(small) + cols - 1) // cols
    heights = [2.6 if log[p[1][0]].kind == "conserved" else 1.9 for p in wide[:1]] + \
        [1.9] * (rows - min(len(wide), 1))
    fig = plt.figure(figsize=(11, 0.9 + sum(heights)), constrained_layout=True)
    grid = fig.add_gridspec(rows, cols, height_ratios=heights)
    order, r = [], 0
    for p in panels:
        if p in wide:
            if log[p[1][0]].kind == "solver":
                continue
            order.append((fig.add_subplot(grid[r, :]), p))
            r += 1
    for k, p in enumerate(small):
        order.append((fig.add_subplot(grid[r + k // cols, k % cols]), p))
    r += (len(small) + cols - 1) // cols
    for p in wide:
        if log[p[1][0]].kind == "solver":
            order.append((fig.add_subplot(grid[r, :]), p))
            r += 1
    for ax, (title, members) in order:
        kind = log[members[0]].kind
        if kind == "conserved":
            draw_conserved(ax, t, log, members)
            handles, labels = ax.get_legend_handles_labels()
        elif kind == "solver":
            handles, labels = draw_solver(ax, t, log, members)
        else:
            draw_values(ax, t, log[members[0]])
            handles, labels = [], []
            s = log[members[0]]
            title = textwrap.fill(f"{s.name}: {s.description}" if s.description else title,
                                  62 if cols == 2 else 120)
        ax.set_title(title, fontsize=8, loc="left", pad=9 if "\n" not in title else 4)
        ax.grid(True, which="both", alpha=0.3)
        ax.set_xlabel(log.time.label, fontsize=8)
        ax.tick_params(labelsize=8)
        if handles:
            ax.legend(handles, labels, fontsize=7.5, loc="upper left", bbox_to_anchor=(1.0 if kind == "conserved" else 1.06, 1.0),
                      frameon=False, borderaxespad=0.2)
    fig.suptitle(f"{run.name} ({run.model}): {len(t)} log rows, t = {t[0]:g} .. {t[-1]:g}", fontsize=11)
    kplot.save_png(fig, out, dpi)
    plt.close(fig)


def default_output(run):
    if run.folder:
        return os.path.join(run.folder, "invariants.png")
    stem = os.path.splitext(run.path)[0]
    return stem + "_invariants.png"


def process(run, columns, out, dpi):
    log = run.log
    names = log.names
    if columns:
        missing = [c for c in columns if c not in log.names]
        if missing:
            raise kirchhoff.LoadError(f"{log.path}: no such series: {', '.join(missing)} "
                                      f"(have: {', '.join(log.names)})")
        names = columns
    for w in log.warnings:
        print(f"warning: {w}", file=sys.stderr)
    plot(run, names, out, dpi)
    print(f"{run.name} ({run.model}) log {log.path}: {log.rows} rows, t = {log.time[0]:g}..{log.time[-1]:g}")
    print(table(log, names))
    print(f"plot: {out}")


def main(argv):
    p = cli.parser(__doc__, output="", dpi=110)
    p.add_argument("run", help="output folder (-o of the driver), sweep folder, or an invariants.h5")
    p.add_argument("--columns", help="comma-separated subset of series")
    a = p.parse_args(argv)
    run = kirchhoff.load(a.run)
    columns = [c for c in a.columns.split(",") if c] if a.columns else None
    if run.is_sweep:
        for case in run.cases:
            out = (os.path.splitext(a.output)[0] + "_" + os.path.basename(case.folder) + ".png"
                   if a.output else default_output(case))
            process(case, columns, out, a.dpi)
        return 0
    process(run, columns, a.output or default_output(run), a.dpi)
    return 0


if __name__ == "__main__":
    sys.exit(cli.main(main))
