#!/usr/bin/python3
"""Energy oscillation against the time step (Weissmann 2014, Fig. 3: disk + vortex at dt 0.025, 0.1, 0.25).

Reads the energy column of RUN/invariants.h5 for each run (a sweep folder stands for its case*
folders, e.g. the output of input/fluidbody_disk_vortex_energy.yaml) and draws the relative energy
error (E - E0)/|E0| over time, one panel per time step, plus a panel with every curve divided by
dt^p (p the fitted order): if the oscillations agree up to scale, these curves coincide.
Prints a table: dt, steps, amplitude (half the peak-to-peak relative error), drift (slope of a
linear fit per unit time), the order between successive dt, and the least-squares fit
log amplitude = p log dt + log C over all runs.

  kirchhoff-fluidbody input/fluidbody_disk_vortex_energy.yaml -o out/energy
  postprocess/fluidbody_energy.py out/energy -o fig3.png
"""
import os
import sys

import matplotlib
import numpy as np

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fluidbody_common as fc  # noqa: E402
import kirchhoff  # noqa: E402
from kirchhoff import cli  # noqa: E402


def energy_error(run):
    """(dt, t, relative energy error) of one run; dt from the log's time axis (log_interval 1)
    or the deck's time.dt."""
    r = kirchhoff.load(run)
    log = r.log
    t, e = np.asarray(log.time), np.asarray(log["energy"])
    if len(t) < 3:
        raise kirchhoff.LoadError(f"{run}: the log has {len(t)} rows, too few for an oscillation")
    steps = np.diff(log.step)
    dt = (t[1] - t[0]) / steps[0] if steps[0] > 0 else r.deck_value("time.dt", float("nan"))
    return float(dt), t, (e - e[0]) / abs(e[0])


def main(argv):
    p = fc.figure_parser(__doc__, "fluidbody_energy.png")
    p.add_argument("outdirs", nargs="+", help="run folders, or a sweep folder with case* folders")
    a = p.parse_args(argv)
    runs = [c for d in a.outdirs for c in fc.sweep_cases(d)]
    series = sorted((energy_error(r) + (r,) for r in runs), key=lambda s: s[0])
    dts = np.array([s[0] for s in series])
    amp = np.array([0.5 * np.ptp(s[2]) for s in series])
    print(f"{'run':36s} {'dt':>8s} {'steps':>7s} {'amplitude':>11s} {'drift/time':>11s} {'order':>6s}")
    for k, (dt, t, r, run) in enumerate(series):
        drift = np.polyfit(t, r, 1)[0]
        order = np.log(amp[k] / amp[k - 1]) / np.log(dts[k] / dts[k - 1]) if k > 0 and dts[k] != dts[k - 1] else np.nan
        print(f"{run:36s} {dt:8.4g} {len(t) - 1:7d} {amp[k]:11.3e} {drift:11.3e} {order:6.2f}")
    fit = np.polyfit(np.log(dts), np.log(amp), 1) if len(series) > 1 and np.ptp(dts) > 0 else [np.nan, np.nan]
    print(f"fit: amplitude = {np.exp(fit[1]):.4g} * dt^{fit[0]:.3f}  ({len(series)} runs)")

    n = len(series) + (1 if np.isfinite(fit[0]) else 0)
    fig, axes = plt.subplots(n, 1, figsize=(8, 1.9 * n + 0.6), sharex=True, constrained_layout=True, squeeze=False)
    colours = plt.cm.viridis(np.linspace(0, 0.85, len(series)))
    for k, (dt, t, r, run) in enumerate(series):
        ax = axes[k][0]
        ax.plot(t, r, lw=0.7, color=colours[k])
        ax.set_ylabel(r"$(E - E_0)/|E_0|$", fontsize=8)
        ax.set_title(f"dt = {dt:g}: amplitude {amp[k]:.2e}", fontsize=9)
        ax.grid(alpha=0.3)
    if np.isfinite(fit[0]):
        ax = axes[-1][0]
        for k, (dt, t, r, run) in enumerate(series):
            ax.plot(t, r / dt ** fit[0], lw=0.7, color=colours[k], label=f"dt = {dt:g}")
        ax.set_ylabel(rf"$(E - E_0)/(|E_0|\,dt^{{{fit[0]:.2f}}})$", fontsize=8)
        ax.set_title(f"scaled by dt^p, fitted order p = {fit[0]:.2f}", fontsize=9)
        ax.legend(fontsize=7, ncol=len(series), loc="upper left", framealpha=0.9)
        ax.grid(alpha=0.3)
    axes[-1][0].set_xlabel("time")
    fc.save_png(fig, a.output, a.dpi)
    print(f"plot: {a.output}")
    return 0


if __name__ == "__main__":
    sys.exit(cli.main(main))
