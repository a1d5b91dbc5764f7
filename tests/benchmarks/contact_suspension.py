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
  tests/benchmarks/contact_suspension.py OUTDIR --relay DIR [--max-wall S] [--record-only]
  tests/benchmarks/contact_suspension.py --relay DIR --relay-summary

The relay runs the full study in segments on machines that do not keep files between sessions: DIR
(tests/benchmarks/suspension/) holds the newest checkpoint, the reference invariants of t = 0 and one row of
figures per segment. A segment restarts input/fluidbody_contact_suspension.yaml from DIR/checkpoint.h5 into
OUTDIR (from t = 0 if DIR has none), runs for --max-wall seconds, then records its rows up to its newest
checkpoint and copies that checkpoint to DIR; --record-only records an OUTDIR run by hand the same way.
--relay-summary prints the acceptance figures over all segments (docs/fluidbody.md "Contact").

The full study (64 disks to t = 200 on 2 ranks at the default contact distance, 1e-3 of the disk
diameter) needs the fluid's refinement near close gaps; input/fluidbody_contact_suspension.yaml is its
deck (what this script writes with the defaults), jobscripts/fluidbody_contact.sbatch runs it under SLURM.
"""
import argparse
import csv
import glob
import json
import os
import re
import shutil
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


def run(a, deck, extra=()):
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1")
    cmd = [os.path.join(a.bin, "kirchhoff-fluidbody"), deck, "-o", a.outdir]
    if os.path.isdir(os.path.join(a.outdir, "checkpoints")):
        cmd += ["--restart"]
    cmd += list(extra)
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


# The relay (see the module's help): the deck, its fixed output settings, and the files of DIR.
RELAY_DECK = os.path.join(SOURCE, "input", "fluidbody_contact_suspension.yaml")
RELAY_SETTINGS = ["--set", "output.checkpoint_interval=10", "--set", "output.progress_interval=10"]
SEGMENT_FIELDS = ["first_step", "last_step", "t_end", "binary", "max_abs_dE", "final_dE", "max_dJ", "max_estimate",
                  "min_gap", "min_gap_step", "impacts", "substeps", "max_unknowns", "wall_s", "recorded", "exit"]


def checkpoint_step(path):
    m = re.search(r"checkpoint_(\d+)\.h5$", path)
    return int(m.group(1)) if m else -1


def binary_version(a):
    try:
        out = subprocess.run([os.path.join(a.bin, "kirchhoff-fluidbody"), "--version"], capture_output=True, text=True)
    except OSError:
        return "unknown"
    m = re.search(r"git ([0-9a-f]+)", out.stdout)
    return m.group(1) if m else "unknown"


def relay_segments(relay):
    path = os.path.join(relay, "segments.csv")
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return list(csv.DictReader(f))


def relay_run(a):
    """One segment: restart from the relay's checkpoint (or t = 0) into OUTDIR for --max-wall seconds."""
    ck = os.path.join(a.relay, "checkpoint.h5")
    extra = list(RELAY_SETTINGS)
    if a.max_wall:
        extra += ["--max-wall", str(a.max_wall)]
    if not os.path.isdir(os.path.join(a.outdir, "checkpoints")) and os.path.exists(ck):
        extra += ["--restart", ck, "--new-log"]
    os.makedirs(a.outdir, exist_ok=True)
    return run(a, RELAY_DECK, extra)


def relay_record(a, seconds=None, rc=None):
    """Appends OUTDIR's rows after the relay's last step, up to OUTDIR's newest checkpoint, as one segment, and
    copies that checkpoint to the relay. The invariants of t = 0 come from reference.json (written from a run
    that starts at t = 0)."""
    cks = sorted(glob.glob(os.path.join(a.outdir, "checkpoints", "checkpoint_*.h5")), key=checkpoint_step)
    if not cks:
        sys.exit(f"contact_suspension.py: {a.outdir} has no checkpoint to record")
    last = checkpoint_step(cks[-1])
    segs = relay_segments(a.relay)
    first = int(segs[-1]["last_step"]) if segs else 0
    with h5py.File(os.path.join(a.outdir, "invariants.h5"), "r") as f:
        g = f["invariants"]
        col = {k: g[k][:] for k in g}
    step = col["step"].astype(int)
    ref_path = os.path.join(a.relay, "reference.json")
    if not os.path.exists(ref_path):
        if step[0] != 0:
            sys.exit("contact_suspension.py: the relay has no reference.json and this log does not start at t = 0")
        J0 = [float(col[c][0]) for c in ("momentum_x", "momentum_y", "angular_momentum")]
        ref = {"deck": os.path.relpath(RELAY_DECK, SOURCE), "E0": float(col["energy"][0]), "J0": J0,
               "scale": max(max(abs(x) for x in J0), float(np.sqrt(2 * abs(col["energy"][0]))))}
        with open(ref_path, "w") as f:
            json.dump(ref, f, indent=1)
    with open(ref_path) as f:
        ref = json.load(f)
    if step[0] > first:
        sys.exit(f"contact_suspension.py: {a.outdir}'s log starts at step {step[0]}, after the relay's {first}")
    if last <= first:
        sys.exit(f"contact_suspension.py: {a.outdir}'s newest checkpoint (step {last}) is not after step {first}")
    m = (step > first) & (step <= last)
    E = col["energy"][m] + col["impact_energy_loss"][m]
    dE = (E - ref["E0"]) / abs(ref["E0"])
    J = np.stack([col[c][m] for c in ("momentum_x", "momentum_y", "angular_momentum")], axis=1)
    gap = col["min_body_body_distance"][m]
    row = {"first_step": first, "last_step": last, "t_end": f"{col['time'][m][-1]:.6g}", "binary": binary_version(a),
           "max_abs_dE": f"{np.abs(dE).max():.3e}", "final_dE": f"{dE[-1]:.3e}",
           "max_dJ": f"{np.abs(J - np.array(ref['J0'])).max() / ref['scale']:.3e}",
           "max_estimate": f"{col['fluid_error_estimate'][m].max():.3e}", "min_gap": f"{gap.min():.4e}",
           "min_gap_step": int(step[m][np.argmin(gap)]), "impacts": int(col["impacts"][m][-1]),
           "substeps": int(col["contact_substeps"][m].sum()), "max_unknowns": int(col["fluid_unknowns"][m].max()),
           "wall_s": f"{seconds:.0f}" if seconds else "", "recorded": time.strftime("%Y-%m-%d %H:%M"),
           "exit": "" if rc is None else rc}
    path = os.path.join(a.relay, "segments.csv")
    new = not os.path.exists(path)
    with open(path, "a", newline="") as f:
        w = csv.DictWriter(f, fieldnames=SEGMENT_FIELDS, lineterminator="\n")
        if new:
            w.writeheader()
        w.writerow(row)
    shutil.copyfile(cks[-1], os.path.join(a.relay, "checkpoint.h5.tmp"))
    os.replace(os.path.join(a.relay, "checkpoint.h5.tmp"), os.path.join(a.relay, "checkpoint.h5"))
    print(f"relay: recorded steps {first + 1} .. {last} (t = {row['t_end']}), checkpoint of step {last} kept")


def relay_summary(a):
    """The acceptance figures over every recorded segment."""
    segs = relay_segments(a.relay)
    if not segs:
        print(f"relay {a.relay}: no segment yet")
        return 1
    f = lambda k: max(float(s[k]) for s in segs)
    t_end = float(segs[-1]["t_end"])
    print(f"relay {a.relay}: {len(segs)} segment(s), steps 0 .. {segs[-1]['last_step']} (t = {t_end:g} of 200)")
    print(f"impacts {segs[-1]['impacts']}, smallest gap {min(float(s['min_gap']) for s in segs):.4e}, "
          f"sub-steps {sum(int(s['substeps']) for s in segs)}")
    checks = [("momentum maps, max |J - J0| / max(|J0|, sqrt(2 H0))", f("max_dJ"), 1e-12),
              ("energy (+ impact loss), max |dE/E0|", f("max_abs_dE"), 1e-6),
              ("fluid error estimate, max", f("max_estimate"), 1e-8)]
    for name, v, bound in checks:
        print(f"{name}: {v:.3e} (bound {bound:g}: {'holds' if v <= bound else 'EXCEEDED'})")
    print("the run has reached t = 200" if t_end >= 200 - 1e-9 else "the run has not reached t = 200 yet")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir", nargs="?")
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
    ap.add_argument("--relay", help="run / record one segment of the relayed study (DIR: tests/benchmarks/suspension)")
    ap.add_argument("--max-wall", type=float, help="with --relay: the segment's wall seconds (the driver's --max-wall)")
    ap.add_argument("--record-only", action="store_true", help="with --relay: record OUTDIR without running")
    ap.add_argument("--relay-summary", action="store_true", help="with --relay: the acceptance figures so far")
    a = ap.parse_args()
    if a.relay and a.relay_summary:
        return relay_summary(a)
    if not a.outdir:
        ap.error("OUTDIR is needed")
    if a.relay:
        rc, seconds = (0, None) if a.record_only else relay_run(a)
        relay_record(a, seconds, None if a.record_only else rc)  # 75: stopped with a checkpoint (wall, signal)
        analyse(a.outdir)
        return rc
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
