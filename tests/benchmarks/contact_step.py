#!/usr/bin/python3
"""The cost of steps near contact (docs/fluidbody.md "Contact", (FB-93b), (FB-88a)): restarts
kirchhoff-fluidbody from a checkpoint for a few steps, once per binary (or per PETSc option set), one after
another in this script, and prints from -log_view and the invariant log the deterministic counts (approach
sub-steps, Newton iterations, residual evaluations, boundary solves, GMRES iterations, SNES flops) and the wall
seconds, with ratios to the first run.

  tests/benchmarks/contact_step.py DECK CHECKPOINT --steps N [--ranks 2] [--binary B]... [--options "..."]...

Each --binary (default: build/bin/kirchhoff-fluidbody) runs once per --options string (default: none). The
64-disk suspension's first approach, as measured in docs/fluidbody.md:
  mpirun -n 2 build/bin/kirchhoff-fluidbody input/fluidbody_contact_suspension.yaml -o ck --steps 541 \\
      --set output.checkpoint_interval=541
  tests/benchmarks/contact_step.py input/fluidbody_contact_suspension.yaml ck/checkpoints/checkpoint_0000000541.h5 \\
      --steps 542 --binary OLD/kirchhoff-fluidbody --binary build/bin/kirchhoff-fluidbody
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

import h5py

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.normpath(os.path.join(HERE, "..", ".."))
EVENTS = ("SNESSolve", "SNESFunctionEval", "PanelSolve", "KSPGMRESOrthog")


def log_view_counts(text):
    """Counts and flops of the time-step stage's events (the last occurrence of each: stage 3)."""
    out = {}
    for event in EVENTS:
        rows = re.findall(rf"^{event}\s+(\d+)\s+\S+\s+(\S+)\s+\S+\s+(\S+)", text, re.M)
        if rows:
            count, seconds, flops = rows[-1]
            out[event] = (int(count), float(seconds), float(flops))
    return out


def run(binary, deck, checkpoint, steps, ranks, options):
    with tempfile.TemporaryDirectory(prefix="contact_step_") as out:
        cmd = ["mpirun", "-n", str(ranks), binary, deck, "--restart", checkpoint, "--new-log", "-o", out,
               "--steps", str(steps), "-log_view"] + options.split()
        env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
                   OMPI_MCA_rmaps_base_oversubscribe="1")
        t0 = time.time()
        p = subprocess.run(cmd, capture_output=True, text=True, env=env)
        wall = time.time() - t0
        if p.returncode != 0:
            sys.exit(f"{' '.join(cmd)} failed ({p.returncode}):\n{p.stderr[-2000:]}")
        with h5py.File(os.path.join(out, "invariants.h5"), "r") as f:
            g = f["invariants"]
            cols = {k: g[k][()] for k in ("contact_substeps", "snes_iterations", "energy", "min_body_body_distance")}
        counts = log_view_counts(p.stdout)
    e = cols["energy"]
    return {"wall": wall, "counts": counts, "substeps": int(cols["contact_substeps"][1:].sum()),
            "newton": int(cols["snes_iterations"][1:].sum()), "gap": float(cols["min_body_body_distance"].min()),
            "dE": float(abs(e[1:] - e[0]).max() / abs(e[0])) if len(e) > 1 else float("nan")}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("deck")
    ap.add_argument("checkpoint")
    ap.add_argument("--steps", type=int, required=True, help="final step (absolute)")
    ap.add_argument("--ranks", type=int, default=2)
    ap.add_argument("--binary", action="append")
    ap.add_argument("--options", action="append", help="PETSc options for one run, e.g. \"-panel_relaxation 0\"")
    a = ap.parse_args()
    binaries = a.binary or [os.path.join(SOURCE, "build", "bin", "kirchhoff-fluidbody")]
    cases = [(b, o) for b in binaries for o in (a.options or [""])]
    print(f"{a.deck} from {a.checkpoint} to step {a.steps}, {a.ranks} rank(s), {os.uname().nodename}, "
          f"{os.cpu_count()} cores")
    first = None
    for b, o in cases:
        r = run(b, a.deck, a.checkpoint, a.steps, a.ranks, o)
        c = r["counts"]
        snes = c.get("SNESSolve", (0, 0, 0))
        evals = c.get("SNESFunctionEval", (0, 0, 0))[0]
        solves = c.get("PanelSolve", (0, 0, 0))[0]
        gmres = c.get("KSPGMRESOrthog", (0, 0, 0))[0]
        row = [r["substeps"], r["newton"], evals, solves, gmres, snes[2], r["wall"]]
        first = first or row
        ratio = "  ".join(f"{x / y:.2f}" if y else "-" for x, y in zip(first[1:], row[1:]))
        print(f"{b} {o}".strip())
        print(f"  sub-steps {row[0]}, Newton iterations {r['newton']}, residual evaluations {evals}, boundary solves {solves}, GMRES iterations {gmres}, "
              f"SNES flops {snes[2]:.3g}, wall {r['wall']:.1f} s; smallest gap {r['gap']:.3g}, max |dE/E0| {r['dE']:.2e}")
        print(f"  first run / this (Newton, evaluations, solves, GMRES, flops, wall): {ratio}")


if __name__ == "__main__":
    main()
