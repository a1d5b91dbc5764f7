#!/usr/bin/python3
"""Writes a fluidbody deck of n free disks on a square grid with point vortices between them: the
many-body configuration of the benchmarks (tests/benchmarks/BodyGrid.hpp, docs/fluidbody.md "Many bodies"):
disks of radius 0.5 (EDGES edges, density 1) at spacing SPACING, four vortices K = +-1 at the
cell centres around the first disk, then vortices of +-0.01 on a lattice of spacing 0.1 (0.75 from every
disk centre, 0.2 from the first four).

  input/generate_body_grid.py --bodies 1024 [--vortices 4] [--spacing 2] [--edges 32] [--speed 0.1] > deck.yaml

--speed v sets disk j moving at v (sin(1 + j), cos(2 + j)) with spin v sin(3 + j) (the moving cases of
tests/benchmarks/many_bodies.py); at rest by default.
"""
import argparse
import math


def configuration(n, vortices, spacing, edges):
    side = math.ceil(math.sqrt(n))
    centres = [(spacing * (j % side), spacing * (j // side)) for j in range(n)]
    h = 0.5 * spacing
    first = [((h, h), 1.0), ((-h, h), -1.0), ((-h, -h), 1.0), ((h, -h), -1.0)][:vortices]
    vort = list(first)
    rows = (n + side - 1) // side
    a = 0
    while len(vort) < vortices:
        y = -0.95 + 0.1 * a
        if y > spacing * rows:
            break
        b = 0
        while len(vort) < vortices:
            z = (-0.95 + 0.1 * b, y)
            b += 1
            if z[0] > spacing * side:
                break
            clear = all(math.dist(z, c) >= 0.75 for c in centres) and all(math.dist(z, p) >= 0.2 for p, _ in first)
            if clear:
                vort.append((z, -0.01 if len(vort) % 2 else 0.01))
        a += 1
    return centres, vort


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bodies", type=int, required=True)
    ap.add_argument("--vortices", type=int, default=4)
    ap.add_argument("--spacing", type=float, default=2.0)
    ap.add_argument("--edges", type=int, default=32)
    ap.add_argument("--speed", type=float, default=0.0, help="velocity scale of the disks (default 0: at rest)")
    ap.add_argument("--end-time", type=float, default=1.0)
    ap.add_argument("--petsc-options", default="", help="the deck's petsc_options")
    ap.add_argument("--discretization", default="panel", help="fluid.discretization (default panel: "
                    "the benchmarks' 32-edge polygons)")
    a = ap.parse_args()
    if a.bodies < 1 or a.spacing <= 1.0:
        ap.error("--bodies must be >= 1 and --spacing > 1 (disks of radius 0.5 must not touch)")
    centres, vort = configuration(a.bodies, a.vortices, a.spacing, a.edges)
    out = [f"# {a.bodies} disks (radius 0.5, {a.edges} edges) on a grid of spacing {a.spacing:g}, {len(vort)} vortices",
           f"# written by input/generate_body_grid.py --bodies {a.bodies} --vortices {a.vortices} --spacing {a.spacing:g} --edges {a.edges}"
           + (f" --speed {a.speed:g}" if a.speed else ""),
           "model: fluidbody",
           "time:", "  dt: 0.01", f"  end_time: {a.end_time:g}",
           "output:", "  log_interval: 1", "  checkpoint_interval: 10", "  progress_interval: 1"]
    out += ["fluid:", f"  discretization: {a.discretization}"]
    if a.petsc_options:
        out.append(f"petsc_options: \"{a.petsc_options}\"")
    out.append("bodies:")
    for j, (x, y) in enumerate(centres):
        moving = ""
        if a.speed:
            vx, vy, w = a.speed * math.sin(1.0 + j), a.speed * math.cos(2.0 + j), a.speed * math.sin(3.0 + j)
            moving = f", velocity: {{linear: [{vx:.17g}, {vy:.17g}], omega: {w:.17g}}}"
        out.append(f"  - {{name: disk{j}, shape: {{type: circle, radius: 0.5, edges: {a.edges}}}, density: 1.0, "
                   f"pose: {{position: [{x:.17g}, {y:.17g}]}}{moving}}}")
    if vort:
        out.append("vortices:")
        for (x, y), k in vort:
            out.append(f"  - {{position: [{x:.17g}, {y:.17g}], circulation: {k:g}}}")
    print("\n".join(out))


if __name__ == "__main__":
    main()
