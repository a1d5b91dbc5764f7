#!/usr/bin/python3
"""A free suspension of disks that collide (docs/fluidbody.md "Contact"): the many-body study of the
contact law. Writes the deck with input/generate_body_grid.py (disks of radius 0.5 on a grid of
spacing 2, speed 0.1 in directions from --seed, four vortices), runs kirchhoff-fluidbody on --ranks
ranks into OUTDIR and prints from its log: impacts, smallest gap, the energy and momentum-map changes
(largest and final), the largest fluid error estimate, the wall seconds per step of the run and the
residual evaluations per step against the smallest gap of the step (deterministic: the cost of the
steps near contact, the impact steps apart).

  tests/benchmarks/contact_suspension.py OUTDIR [--bodies 64] [--end-time 200] [--ranks 2]
      [--edges 64] [--contact-distance D] [--restitution E] [--seed 1] [--analyse-only]
  tests/benchmarks/contact_suspension.py OUTDIR --quick     (64 disks to t = 10, contact distance
      0.15 with 64 Nystrom nodes: a gap the uniform nodes resolve today)

The full study (64 disks to t = 200 on 2 ranks at the default contact distance, 1e-3 of the disk
diameter) needs the fluid's refinement near close gaps; input/fluidbody_contact_suspension.yaml is its
deck (what this script writes with the defaults), jobscripts/fluidbody_contact.sbatch runs it under SLURM.
"""
import argparse
import os
import subprocess
import sys
import time

import h5py
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.normpath(os.path.join(HERE, "..", ".."))


def deck_args(a):
    args = ["--bodies", str(a.bodies), "--vortices", str(a.vortices), "--edges", str(a.edges),
            "--discretization", "nystrom", "--speed", "0.1", "--seed", str(a.seed), "--end-time", f"{a.end_time:g}",
            "--checkpoint-interval", "500", "--progress-interval", "100", "--snapshot-interval", "50"]
    if a.contact_distance is not None:
        args += ["--contact-distance", f"{a.contact_distance:g}"]
    if a.restitution is not None:
        args += ["--restitution", f"{a.restitution:g}"]
    return args


def run(a, deck):
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1")
    cmd = [os.path.join(a.bin, "kirchhoff-fluidbody"), deck, "-o", a.outdir]
    cmd += ["--restart"] if os.path.isdir(os.path.join(a.outdir, "checkpoints")) else []
    if a.ranks > 1:
        cmd = ["mpirun", "-n", str(a.ranks)] + cmd
    t0 = time.time()
    rc = subprocess.call(cmd, env=env)
    return rc, time.time() - t0


def analyse(outdir, seconds=None, steps_run=None):
    with h5py.File(os.path.join(outdir, "invariants.h5"), "r") as f:
        g = f["invariants"]
        col = {k: g[k][:] for k in g}
    t, E, gap = col["time"], col["energy"], col["min_body_body_distance"]
    J = np.stack([col[c] for c in ("momentum_x", "momentum_y", "angular_momentum")], axis=1)
    scale = max(np.abs(J[0]).max(), np.sqrt(2 * abs(E[0])))
    impacts = col.get("impacts", np.zeros_like(t))
    loss = col.get("impact_energy_loss", np.zeros_like(t))
    print(f"# {outdir}: {len(t) - 1} steps to t = {t[-1]:g}")
    print(f"impacts {impacts[-1]:.0f}, smallest gap {gap.min():.6g} (step {int(col['step'][np.argmin(gap)])})")
    dE = (E + loss - E[0]) / abs(E[0])
    print(f"energy (+ impact loss): largest |dE/E0| {np.abs(dE).max():.3e}, final {dE[-1]:.3e}")
    print(f"momentum maps: largest |J - J0| / max(|J0|, sqrt(2 H0)) {np.abs(J - J[0]).max() / scale:.3e}")
    if "fluid_error_estimate" in col:
        print(f"fluid: largest error estimate {col['fluid_error_estimate'].max():.3e}, unknowns "
              f"{col['fluid_unknowns'].min():.0f} .. {col['fluid_unknowns'].max():.0f}")
    if seconds is not None and steps_run:
        print(f"cost: {seconds / steps_run:.3g} s/step (wall, this run, {steps_run} steps)")
    ev, hit = col["snes_function_evaluations"][1:], np.diff(impacts) > 0
    g = gap[:-1]  # the gap at the step's start
    print("\n| smallest gap at the step's start | steps | evaluations/step | impact steps | evaluations/impact step |")
    print("|---|---|---|---|---|")
    edges = [0.0, 0.2, 0.4, 0.6, 0.8, 1.0, np.inf]
    for lo, hi in zip(edges[:-1], edges[1:]):
        m = (g >= lo) & (g < hi)
        plain, imp = m & ~hit, m & hit
        cell = lambda x: f"{ev[x].mean():.1f}" if x.any() else ""
        print(f"| [{lo:g}, {hi:g}) | {plain.sum()} | {cell(plain)} | {imp.sum()} | {cell(imp)} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir")
    ap.add_argument("--bodies", type=int, default=64)
    ap.add_argument("--vortices", type=int, default=4)
    ap.add_argument("--edges", type=int, default=64, help="Nystrom nodes per disk (default 64)")
    ap.add_argument("--end-time", type=float, default=200.0)
    ap.add_argument("--ranks", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--contact-distance", type=float, help="contact.distance (default: the code's)")
    ap.add_argument("--restitution", type=float)
    ap.add_argument("--quick", action="store_true", help="to t = 10 at contact distance 0.15")
    ap.add_argument("--analyse-only", action="store_true", help="print the tables of an existing OUTDIR")
    ap.add_argument("--bin", default=os.path.join(SOURCE, "build", "bin"))
    a = ap.parse_args()
    if a.quick:
        a.end_time, a.contact_distance = 10.0, 0.15
    if a.analyse_only:
        analyse(a.outdir)
        return 0
    os.makedirs(a.outdir, exist_ok=True)
    deck = os.path.join(a.outdir, "deck.yaml")
    if not os.path.exists(deck):  # a continued study keeps its deck
        text = subprocess.check_output([sys.executable, os.path.join(SOURCE, "input", "generate_body_grid.py")] +
                                       deck_args(a), text=True)
        with open(deck, "w") as f:
            f.write(text)
    load = open("/proc/loadavg").read().split()[0]
    print(f"# contact_suspension.py: {os.cpu_count()} cores, load {load}, {a.ranks} rank(s)")
    steps0 = 0
    try:
        with h5py.File(os.path.join(a.outdir, "invariants.h5"), "r") as f:
            steps0 = int(f["invariants"]["step"][-1])
    except (OSError, KeyError):
        pass
    rc, seconds = run(a, deck)
    with h5py.File(os.path.join(a.outdir, "invariants.h5"), "r") as f:
        steps = int(f["invariants"]["step"][-1]) - steps0
    analyse(a.outdir, seconds, steps)
    return rc


if __name__ == "__main__":
    sys.exit(main())
