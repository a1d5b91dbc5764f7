#!/usr/bin/python3
"""Bodies that collide (docs/fluidbody.md "Contact"): one row of four panels per run, through the impacts.

  trajectories  body centres and vortices, the bodies at the start (filled) and at the first impact (outline)
  gap           min_body_body_distance (FB-80) with the contact distance, impacts marked
  speeds        |y_dot| of every body (from the snapshots' `centres` velocities)
  invariants    |H - H0| / H0 and the momentum maps' change |J - J0| / max(|J0|, sqrt(2 H0)), log scale

A table gives per run the impacts, the smallest gap, the contact distance, the speeds at the first and
last snapshot, the largest energy change and the largest momentum-map change.

  kirchhoff-fluidbody input/fluidbody_contact_headon.yaml -o out/headon
  kirchhoff-fluidbody input/fluidbody_contact_vortex_pair.yaml -o out/pair
  postprocess/fluidbody_contact.py out/headon out/pair -o contact.png
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


def contact_distance(attrs):
    """contact.distance from the deck stored in the log ('' if the deck does not set it)."""
    try:
        import yaml
        deck = yaml.safe_load(attrs.get("deck") or "") or {}
        return float((deck.get("contact") or {}).get("distance", "nan"))
    except Exception:  # no PyYAML or no key: the line is left out
        return float("nan")


def speeds(outdir, n):
    """(t, (T, n) speeds) from the snapshots' centre velocities."""
    snaps = kirchhoff.load(outdir).snapshots
    v = snaps.attribute("centres", "velocity") if n else np.zeros((len(snaps), 0, 2))
    return snaps.times, np.linalg.norm(np.asarray(v, dtype=float).reshape(len(snaps), n, 2), axis=-1)


def momentum_change(data):
    """|J - J0| of the three momentum maps (FB-27) over max(|J0|, sqrt(2 |H0|)): a momentum scale when
    J0 vanishes (two disks head-on)."""
    J = np.stack([data[c] for c in ("momentum_x", "momentum_y", "angular_momentum")], axis=1)
    scale = max(np.abs(J[0]).max(), np.sqrt(2 * abs(data["energy"][0])), 1e-300)
    return np.abs(J - J[0]).max(axis=1) / scale


def row(axes, run, s, data, delta):
    t = data["time"]
    hits = t[np.flatnonzero(np.diff(data["impacts"]) > 0) + 1] if "impacts" in data else np.zeros(0)
    ax = axes[0]
    first = s["outline"](0)
    for j, o in enumerate(first):
        ax.fill(o[:, 0], o[:, 1], color=fc.body_colour(j), alpha=0.35, ec="k", lw=0.8, zorder=0)
    if len(hits):
        k = int(np.argmin(np.abs(s["time"] - hits[0])))
        for o in s["outline"](k):
            ax.plot(np.append(o[:, 0], o[0, 0]), np.append(o[:, 1], o[0, 1]), "k-", lw=0.6)
    for j in range(s["centres"].shape[1]):
        ax.plot(s["centres"][:, j, 0], s["centres"][:, j, 1], "k-", lw=0.8, label="body centre" if j == 0 else None)
    for i, K in enumerate(s["K"]):
        ax.plot(s["vortices"][:, i, 0], s["vortices"][:, i, 1], "-", color=fc.vortex_colour(K), lw=0.6,
                label="vortex" if i == 0 else None)
    ax.set_aspect("equal")
    x0, x1 = ax.get_xlim()
    y0, y1 = ax.get_ylim()
    if y1 - y0 < 0.5 * (x1 - x0):  # a flat scene (head-on): room above and below
        ym = 0.5 * (y0 + y1)
        ax.set_ylim(ym - 0.25 * (x1 - x0), ym + 0.25 * (x1 - x0))
    ax.set_title(os.path.basename(os.path.normpath(run)), fontsize=10)
    ax.legend(fontsize=7, loc="best")
    ax = axes[1]
    ax.semilogy(t, data["min_body_body_distance"], "k-", lw=1, label="smallest gap")
    if np.isfinite(delta):
        ax.axhline(delta, color="tab:red", lw=0.8, ls="--", label=f"contact distance {delta:g}")
    for h in hits:
        ax.axvline(h, color="0.6", lw=0.6)
    ax.set_xlabel("t")
    ax.set_title("gap", fontsize=10)
    ax.legend(fontsize=7)
    ax = axes[2]
    ts, v = speeds(run, s["centres"].shape[1])
    for j in range(v.shape[1]):
        ax.plot(ts, v[:, j], "-", color=fc.body_colour(j) if j else "k", lw=1, label=f"body {j}")
    for h in hits:
        ax.axvline(h, color="0.6", lw=0.6)
    ax.set_xlabel("t")
    ax.set_title("speeds |y_dot|", fontsize=10)
    ax.legend(fontsize=7)
    ax = axes[3]
    E = data["energy"]
    ax.semilogy(t, np.abs(E - E[0]) / abs(E[0]) + 1e-17, "k-", lw=1, label="|H - H0| / H0")
    ax.semilogy(t, momentum_change(data) + 1e-17, "-", color="tab:blue", lw=1, label="momentum maps")
    for h in hits:
        ax.axvline(h, color="0.6", lw=0.6)
    ax.set_xlabel("t")
    ax.set_title("invariants", fontsize=10)
    ax.legend(fontsize=7)
    return hits, ts, v


def main(argv):
    p = fc.figure_parser(__doc__, "fluidbody_contact.png")
    p.add_argument("outdirs", nargs="+", help="run folders with two or more bodies and snapshots")
    a = p.parse_args(argv)
    fig, axes = plt.subplots(len(a.outdirs), 4, figsize=(17, 3.9 * len(a.outdirs)), squeeze=False,
                             constrained_layout=True)
    print(f"{'run':32s} {'impacts':>7s} {'min gap':>10s} {'delta':>8s} {'speeds first':>24s} {'speeds last':>24s} "
          f"{'max dE/E0':>10s} {'max dJ':>10s}")
    for k, run in enumerate(a.outdirs):
        cols, data, attrs = fc.read_log(run)
        for c in ("min_body_body_distance", "momentum_x"):
            if c not in cols:
                raise kirchhoff.LoadError(f"{run}: no column {c} (a run of two or more bodies is needed)")
        s = fc.read_snapshots(run)
        delta = contact_distance(attrs)
        hits, _, v = row(axes[k], run, s, data, delta)
        E = data["energy"]
        print(f"{run:32s} {len(hits):7d} {np.min(data['min_body_body_distance']):10.6g} {delta:8.3g} "
              f"{' '.join(f'{x:.6f}' for x in v[0]):>24s} {' '.join(f'{x:.6f}' for x in v[-1]):>24s} "
              f"{np.max(np.abs(E - E[0])) / abs(E[0]):10.3e} {np.max(momentum_change(data)):10.3e}")
    fc.save_png(fig, a.output, a.dpi)
    print(f"plot: {a.output}")
    return 0


if __name__ == "__main__":
    sys.exit(cli.main(main))
