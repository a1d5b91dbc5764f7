#!/usr/bin/python3
"""Time to reach the same final error: kirchhoff-top vs scipy's solve_ivp DOP853 (docs/heavytop.md,
"Per-step cost"; Ohsawa 2019 Sec. 5 Kovalevskaya top, T = 10).

Runs build/bin/bench_top --csv for kirchhoff's (error, seconds) curves (the four schemes at
dt = 0.04/2^k, their compositions of orders 4, 6, 8 and Gauss–Legendre s = 2, 3, 4
(docs/composition.md, docs/heavytop.md "Composition methods"), and the C++ DOP853 at
tol = 10^-k, with the DOP853 reference at 1e-14), then times
scipy.integrate.solve_ivp(method="DOP853") on the heavy-top equations (1.1) at rtol = atol = 10^-k,
best of 3. Both sides measure process CPU time (single thread), so other jobs on a shared machine
disturb the comparison little. For each scipy run, kirchhoff's time to the same error is interpolated log-log on its
curve (second-order schemes: time ~ error^-1/2 beyond the measured range). Prints a Markdown table,
then every method's time to the error 1e-10 (interpolated on both sides) with the ratios to scipy's
DOP853 and to the C++ DOP853.

    top_bench_scipy.py [BENCH_TOP_BINARY] [--quick]
"""
import math
import os
import subprocess
import sys
import time

import numpy as np
from scipy.integrate import solve_ivp

from kirchhoff import cli

I1, I2, I3 = 2.0, 2.0, 1.0
C1, C2, C3 = 1.0, 0.0, 0.0
MGL = 1.0
T = 10.0
Y0 = [2.0, 0.0, 4.0, 0.5, 0.0, math.sqrt(3.0) / 2.0]


def heavy_top(t, y):
    """dPi/dt = Pi x Omega + mgl Gamma x c, dGamma/dt = Gamma x Omega (plain floats: fastest)."""
    p1, p2, p3, g1, g2, g3 = y
    w1, w2, w3 = p1 / I1, p2 / I2, p3 / I3
    return [p2 * w3 - p3 * w2 + MGL * (g2 * C3 - g3 * C2),
            p3 * w1 - p1 * w3 + MGL * (g3 * C1 - g1 * C3),
            p1 * w2 - p2 * w1 + MGL * (g1 * C2 - g2 * C1),
            g2 * w3 - g3 * w2, g3 * w1 - g1 * w3, g1 * w2 - g2 * w1]


def best_seconds(fn, reps=3, min_seconds=0.05):
    best = float("inf")
    for _ in range(reps):
        n, t0 = 0, time.process_time()
        while True:
            fn()
            n += 1
            el = time.process_time() - t0
            if el >= min_seconds:
                break
        best = min(best, el / n)
    return best


def kirchhoff_curves(binary, quick):
    out = subprocess.run([binary, "--csv"] + (["--quick"] if quick else []), check=True,
                         capture_output=True, text=True).stdout.splitlines()
    ref = np.array([float(v) for v in out[0].split(",")[1:]])
    curves = {}
    for line in out[2:]:
        m, par, steps, err, sec = line.split(",")
        curves.setdefault(m, []).append((float(err), float(sec), float(par), int(steps)))
    return ref, curves


def time_at_error(curve, e, slope):
    """Seconds to reach error e on a measured (error, seconds) curve, log-log interpolation;
    outside the range, extrapolated with time ~ error^slope from the nearest end."""
    pts = sorted(curve)  # by error, ascending
    errs = np.log([p[0] for p in pts])
    secs = np.log([p[1] for p in pts])
    le = math.log(e)
    if le <= errs[0]:
        return math.exp(secs[0] + slope * (le - errs[0])), True
    if le >= errs[-1]:
        return math.exp(secs[-1] + slope * (le - errs[-1])), True
    return math.exp(float(np.interp(le, errs, secs))), False


def main(argv):
    ap = cli.parser(__doc__)
    ap.add_argument("binary", nargs="?", default="build/bin/bench_top", help="bench_top executable "
                    "(default build/bin/bench_top)")
    ap.add_argument("--quick", action="store_true", help="pass --quick to bench_top (fewer points)")
    a = ap.parse_args(argv)
    binary, quick = a.binary, a.quick
    if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
        ap.error("%s: no bench_top executable there (build it: cmake --build build --target bench_top)" % binary)
    ref, curves = kirchhoff_curves(binary, quick)
    print("## Time to the same final error, Kovalevskaya top, T = %g (reference: C++ DOP853 at 1e-14)\n" % T)
    print("scipy %s, solve_ivp DOP853, heavy-top right-hand side in plain Python floats; kirchhoff "
          "times from %s --csv (best of 3, process CPU time on both sides). '*' = extrapolated beyond kirchhoff's measured range "
          "(time ~ error^-1/2 for the midpoint schemes).\n" % (__import__("scipy").__version__, binary))
    print("| rtol = atol | scipy steps | scipy nfev | error | scipy s | collective IM s | speed-up | "
          "direct IM s | speed-up | C++ DOP853 s | speed-up |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    scipy_curve = []
    for k in range(3, 13):
        tol = 10.0 ** -k
        sol = solve_ivp(heavy_top, (0.0, T), Y0, method="DOP853", rtol=tol, atol=tol)
        err = float(np.linalg.norm(sol.y[:, -1] - ref))
        sec = best_seconds(lambda: solve_ivp(heavy_top, (0.0, T), Y0, method="DOP853", rtol=tol,
                                             atol=tol))
        scipy_curve.append((err, sec, tol, sol.t.size - 1))
        row = ["%.0e" % tol, str(sol.t.size - 1), str(sol.nfev), "%.2e" % err, "%.2e" % sec]
        for m, slope in (("collective_implicit_midpoint", -0.5), ("direct_implicit_midpoint", -0.5),
                         ("dop853_cpp", -1.0 / 8.0)):
            t, extrap = time_at_error(curves[m], err, slope)
            row += ["%.2e%s" % (t, "*" if extrap else ""), "%.0fx" % (sec / t)]
        print("| " + " | ".join(row) + " |")
    print_at_error(curves, scipy_curve, 1e-10)


def order_of(name):
    """Claimed order from the method name (docs/composition.md, docs/heavytop.md)."""
    for comp, p in (("+triple_jump", 4), ("+suzuki5", 4), ("+kahan_li6", 6), ("+kahan_li8", 8)):
        if name.endswith(comp):
            return p
    if name.startswith("collective_gauss_legendre("):
        return 2 * int(name.split("(")[1].split(")")[0])
    return 8 if name == "dop853_cpp" else 2


def print_at_error(curves, scipy_curve, e):
    """Every method's time to error e (log-log interpolation; '*' = extrapolated with
    time ~ error^(-1/p)), its ratio to scipy's and to the C++ DOP853's time at e."""
    ts, _ = time_at_error(scipy_curve, e, -1.0 / 8.0)
    tc, _ = time_at_error(curves["dop853_cpp"], e, -1.0 / 8.0)
    print("\n## Time to error %.0e, Kovalevskaya top, T = %g\n" % (e, T))
    print("scipy DOP853 %.3e s, C++ DOP853 %.3e s (interpolated).\n" % (ts, tc))
    print("| method | order | seconds | scipy DOP853 / method | C++ DOP853 / method |")
    print("|---|---|---|---|---|")
    rows = []
    for m, curve in curves.items():
        if m == "dop853_cpp":
            continue
        p = order_of(m)
        t, extrap = time_at_error(curve, e, -1.0 / p)
        rows.append((t, m, p, extrap))
    for t, m, p, extrap in sorted(rows):
        print("| %s | %d | %.3e%s | %.2fx | %.3fx |" % (m, p, t, "*" if extrap else "", ts / t, tc / t))
    t, m, p, _ = min(r for r in rows if "explicit" not in r[1])
    print("\nbest structure-preserving method at %.0e: %s, %.2fx faster than scipy DOP853, "
          "%.3fx the speed of the C++ DOP853" % (e, m, ts / t, tc / t))


if __name__ == "__main__":
    sys.exit(cli.main(main))
