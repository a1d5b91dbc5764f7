#!/usr/bin/python3
"""scipy side of the damped-pendulum benchmark (docs/damped.md; compare `bench_damped scipy`).

    damped_bench_scipy.py [KIRCHHOFF_Q KIRCHHOFF_P]

Damped pendulum q' = p, p' = -sin q - eps p, eps = 0.01, (q0, p0) = (1.5, 0), T = 500, solved by
scipy.integrate.solve_ivp (DOP853 and RK45 at rtol = atol = 1e-6, 1e-9, 1e-12) and by Phi_2S in
a plain Python loop. Errors are against scipy's DOP853 at rtol = atol = 1e-13; the kirchhoff
reference (q, p)(500) printed by `bench_damped scipy` can be passed to cross-check the two DOP853
codes. Times are the best of 3 runs on this machine.
"""
import math
import sys
import time

import numpy as np
from scipy.integrate import solve_ivp

from kirchhoff import cli

EPS, T, Q0, P0 = 0.01, 500.0, 1.5, 0.0


def rhs(_t, y):
    return np.array([y[1], -math.sin(y[0]) - EPS * y[1]])


def best_of(fn, n=3):
    best, out = float("inf"), None
    for _ in range(n):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def phi_2s(h):
    """Alg. 3.1, DKD: half drift, exact flow of p' = -sin q - eps p with q frozen, half drift."""
    q, p = Q0, P0
    a = math.exp(-EPS * h)
    phi = -math.expm1(-EPS * h) / EPS  # h phi1(-eps h)
    for _ in range(int(round(T / h))):
        q += 0.5 * h * p
        p = a * p - phi * math.sin(q)
        q += 0.5 * h * p
    return np.array([q, p])


def main(argv):
    ap = cli.parser(__doc__)
    ap.add_argument("reference", nargs="*", type=float, metavar="Q_P",
                    help="kirchhoff's DOP853 (q, p)(500) from `bench_damped scipy`, to cross-check")
    a = ap.parse_args(argv)
    if len(a.reference) not in (0, 2):
        ap.error("give both KIRCHHOFF_Q and KIRCHHOFF_P, or neither")
    ref = solve_ivp(rhs, (0, T), [Q0, P0], method="DOP853", rtol=1e-13, atol=1e-13).y[:, -1]
    print(f"scipy DOP853 reference (q, p)(T) = ({ref[0]:.15e}, {ref[1]:.15e})")
    if a.reference:
        k = np.array(a.reference)
        print(f"|kirchhoff reference - scipy reference| = {np.linalg.norm(k - ref):.3e}")
    print("\n| method | setting | error |(q,p)(T) - ref| | ms | f evaluations |\n|---|---|---|---|---|")
    for method in ("DOP853", "RK45"):
        for tol in (1e-6, 1e-9, 1e-12):
            t, sol = best_of(lambda: solve_ivp(rhs, (0, T), [Q0, P0], method=method, rtol=tol, atol=tol))
            err = np.linalg.norm(sol.y[:, -1] - ref)
            print(f"| scipy {method} | rtol=atol={tol:.0e} | {err:.3e} | {1e3 * t:.1f} | {sol.nfev} |")
    for h in (0.1, 0.01):
        t, y = best_of(lambda: phi_2s(h))
        print(f"| Phi_2S dkd (Python loop) | h={h} | {np.linalg.norm(y - ref):.3e} | {1e3 * t:.1f} | {int(round(T / h))} |")


if __name__ == "__main__":
    sys.exit(cli.main(main))
