#!/usr/bin/python3
"""The many-body table (cost against bodies and ranks; docs/fluidbody.md "Many bodies"):
build/bin/bench_fluidbody_many on 1 and 2 ranks for each case (bodies at rest and moving), one process per
case, side by side in one script; prints a Markdown table with s/step (wall and CPU), the deterministic
counts per step (residual evaluations, Newton iterations, boundary solves, Krylov iterations per solve,
operator applications), peak memory per rank, the 2-rank speed-up (wall) and the fitted cost exponent in
panels.

  tests/benchmarks/many_bodies.py [--quick] [--timeout S] [--bin build/bin] [-- PETSc options...]
  tests/benchmarks/many_bodies.py --spacings 2,1.3,1.1,1.02 [--bodies 16]   (Krylov iterations against
      the gap between neighbours: disks of radius 0.5, so spacing 1.1 leaves gaps of 0.1)
"""
import argparse
import json
import math
import os
import signal
import subprocess
import sys

# (bodies, vortices, speed of the disks, ranks to run, target text)
CASES = [
    (16, 4, 0.0, (1, 2), "fast path vs dense: see test_fast_operator"),
    (64, 4, 0.0, (1, 2), "<= 5 evals/step, <= 0.15 s/step on 1 rank; speed-up >= 1.8"),
    (64, 4, 0.1, (1, 2), "speed-up >= 1.8"),
    (256, 4, 0.0, (1, 2), "speed-up >= 1.8"),
    (256, 4, 0.1, (1, 2), "speed-up >= 1.8"),
    (1024, 4, 0.0, (2,), "<= 3 s/step on 2 ranks; <= 2 GB per rank"),
    (16, 4096, 0.0, (2,), "<= 2 s/step on 2 ranks"),
]
QUICK = [(16, 4, 0.0, (1, 2), ""), (32, 4, 0.0, (1, 2), ""), (32, 4, 0.1, (1, 2), ""), (16, 256, 0.0, (1, 2), "")]


def run(binary, bodies, vortices, ranks, steps, timeout, extra, spacing=2.0, speed=0.0):
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1")
    cmd = ["mpirun", "-n", str(ranks), binary, "--bodies", str(bodies), "--vortices", str(vortices),
           "--steps", str(steps), "--spacing", str(spacing), "--speed", str(speed)] + extra
    # Own session, so a timeout kills mpirun and every rank it started (not mpirun alone).
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            start_new_session=True)
    try:
        stdout, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return {"error": f"timeout {timeout:.0f} s"}
    for line in stdout.splitlines():
        if line.startswith("{"):
            return json.loads(line)
    return {"error": failure(proc.returncode, stderr)}


def failure(returncode, stderr):
    """One table cell for a failed run: the benchmark's own message if it printed one, else the exit
    status (a signal by name: SIGKILL from the kernel usually means out of memory), never OpenMPI's
    help-aggregation chatter."""
    for line in stderr.splitlines():
        if line.startswith("bench_fluidbody_many:"):
            return line[len("bench_fluidbody_many:"):].strip()[:80]
    if returncode < 0:
        return f"killed by {signal.Signals(-returncode).name}"
    return f"exit {returncode}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="small cases only (a few minutes)")
    ap.add_argument("--timeout", type=float, default=1800.0, help="seconds per run (default 1800)")
    ap.add_argument("--steps", type=int, default=10, help="timed steps after the first (default 10)")
    ap.add_argument("--bin", default="build/bin", help="folder of bench_fluidbody_many")
    ap.add_argument("--max-bodies", type=int, default=1 << 30, help="skip the cases with more bodies")
    ap.add_argument("petsc", nargs="*", help="PETSc options passed to every run (after --)")
    ap.add_argument("--spacings", help="comma-separated grid spacings: Krylov iterations against the gap")
    ap.add_argument("--bodies", type=int, default=16, help="bodies of the --spacings table (default 16)")
    a = ap.parse_args()
    binary = os.path.join(a.bin, "bench_fluidbody_many")
    if a.spacings:
        spacing_table(a, binary)
        return
    load = open("/proc/loadavg").read().split()[0]
    print(f"# many_bodies.py: {os.cpu_count()} cores, load {load}, options {' '.join(a.petsc) or '(defaults)'}\n")
    print("| bodies | vortices | speed | panels | ranks | s/step | CPU s/step | evals/step | Newton/step "
          "| solves/step | Krylov its/solve | operator applications/step | DEL Jacobian | MB/rank | speed-up | target |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    per_panel = []
    for bodies, vortices, moving, ranks, target in (QUICK if a.quick else CASES):
        if bodies > a.max_bodies:
            print(f"| {bodies} | {vortices} | {moving:g} | | | not run (--max-bodies {a.max_bodies}) "
                  f"| | | | | | | | | | {target} |")
            continue
        one = None
        for r in ranks:
            res = run(binary, bodies, vortices, r, a.steps, a.timeout, a.petsc, speed=moving)
            if "error" in res:
                print(f"| {bodies} | {vortices} | {moving:g} | | {r} | {res['error']} | | | | | | | | | | {target} |")
                sys.stdout.flush()
                continue
            speed = ""
            if r == 1:
                one = res["s_per_step"]
            elif one:
                speed = f"{one / res['s_per_step']:.2f}"
            if vortices == 4 and moving == 0.0 and r == max(ranks):
                per_panel.append((res["panels"], res["s_per_step"]))
            print(f"| {bodies} | {res['vortices']} | {moving:g} | {res['panels']} | {r} | {res['s_per_step']:.3g} "
                  f"| {res['cpu_s_per_step']:.3g} | {res['evaluations_per_step']:.3g} | {res['newton_per_step']:.3g} "
                  f"| {res['boundary_solves_per_step']:.4g} | {res['krylov_per_solve']:.3g} "
                  f"| {res['operator_applications_per_step']:.4g} | {res['jacobian']} "
                  f"| {res['peak_mb_per_rank']:.0f} | {speed} | {target} |")
            sys.stdout.flush()
    pts = [(math.log(p), math.log(t)) for p, t in per_panel if p >= 2048]
    if len(pts) >= 2:
        mx = sum(x for x, _ in pts) / len(pts)
        my = sum(y for _, y in pts) / len(pts)
        slope = sum((x - mx) * (y - my) for x, y in pts) / sum((x - mx) ** 2 for x, _ in pts)
        print(f"\nfitted cost exponent in panels (>= 2048 panels, 4 vortices, largest rank count): {slope:.2f}")


def spacing_table(a, binary):
    print(f"# many_bodies.py --spacings: {a.bodies} disks, 1 rank, options {' '.join(a.petsc) or '(defaults)'}\n")
    print("| spacing | gap | Krylov its/solve | evals/step | s/step |")
    print("|---|---|---|---|---|")
    for sp in (float(x) for x in a.spacings.split(",")):
        res = run(binary, a.bodies, 4, 1, a.steps, a.timeout, a.petsc, sp)
        if "error" in res:
            print(f"| {sp:g} | {sp - 1:g} | {res['error']} | | |")
            continue
        print(f"| {sp:g} | {sp - 1:g} | {res['krylov_per_solve']:.3g} | {res['evaluations_per_step']:.3g} "
              f"| {res['s_per_step']:.3g} |")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
