#!/usr/bin/python3
"""Writes a fluidbody deck of n free disks on a square grid with point vortices between them: the
many-body configuration of the benchmarks (tests/benchmarks/BodyGrid.hpp, docs/fluidbody.md "Many bodies"):
disks of radius 0.5 (EDGES edges, density 1) at spacing SPACING, four vortices K = +-1 at the
cell centres around the first disk, then vortices of +-0.01 on a lattice of spacing 0.1 (0.75 from every
disk centre, 0.2 from the first four).

  input/generate_body_grid.py --bodies 1024 [--vortices 4] [--spacing 2] [--edges 32] > deck.yaml

With --speed V every disk starts at speed V in a direction drawn from Python's random.Random(--seed)
(a free suspension whose disks collide: docs/fluidbody.md "Contact"); --contact-distance and
--restitution write the deck's contact section.
"""
import argparse
import math
import random
import sys


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
    ap.add_argument("--end-time", type=float, default=1.0)
    ap.add_argument("--petsc-options", default="", help="the deck's petsc_options")
    ap.add_argument("--discretization", default="panel", help="fluid.discretization (default panel: "
                    "the benchmarks' 32-edge polygons)")
    ap.add_argument("--speed", type=float, default=0.0, help="initial speed of every disk (default 0: at rest)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the random directions (with --speed)")
    ap.add_argument("--contact-distance", type=float, help="contact.distance (default: the code's, 1e-3 of the disk diameter)")
    ap.add_argument("--restitution", type=float, help="contact.restitution (default: the code's, 1)")
    ap.add_argument("--contact-energy", choices=["discrete", "contact_point"], help="contact.energy")
    ap.add_argument("--dt", type=float, default=0.01, help="time.dt")
    ap.add_argument("--checkpoint-interval", type=int, default=10)
    ap.add_argument("--progress-interval", type=int, default=1)
    ap.add_argument("--snapshot-interval", type=int, default=0)
    a = ap.parse_args()
    if a.bodies < 1 or a.spacing <= 1.0:
        ap.error("--bodies must be >= 1 and --spacing > 1 (disks of radius 0.5 must not touch)")
    centres, vort = configuration(a.bodies, a.vortices, a.spacing, a.edges)
    written = " ".join(sys.argv[1:]) if len(sys.argv) > 1 else ""
    out = [f"# {a.bodies} disks (radius 0.5, {a.edges} edges) on a grid of spacing {a.spacing:g}, {len(vort)} vortices"
           + (f", speed {a.speed:g} in directions of seed {a.seed}" if a.speed > 0 else ""),
           f"# written by input/generate_body_grid.py {written}",
           "model: fluidbody",
           "time:", f"  dt: {a.dt:g}", f"  end_time: {a.end_time:g}",
           "output:", "  log_interval: 1", f"  checkpoint_interval: {a.checkpoint_interval}",
           f"  progress_interval: {a.progress_interval}"]
    if a.snapshot_interval > 0:
        out.append(f"  snapshot_interval: {a.snapshot_interval}")
    out += ["fluid:", f"  discretization: {a.discretization}"]
    contact = [f"  {k}: {v}" for k, v in (("distance", a.contact_distance), ("restitution", a.restitution),
                                          ("energy", a.contact_energy)) if v is not None]
    if contact:
        out += ["contact:"] + contact
    if a.petsc_options:
        out.append(f"petsc_options: \"{a.petsc_options}\"")
    out.append("bodies:")
    rng = random.Random(a.seed)
    for j, (x, y) in enumerate(centres):
        line = (f"  - {{name: disk{j}, shape: {{type: circle, radius: 0.5, edges: {a.edges}}}, density: 1.0, "
                f"pose: {{position: [{x:.17g}, {y:.17g}]}}")
        if a.speed > 0.0:
            phi = 2.0 * math.pi * rng.random()
            line += f", velocity: {{linear: [{a.speed * math.cos(phi):.17g}, {a.speed * math.sin(phi):.17g}]}}"
        out.append(line + "}")
    if vort:
        out.append("vortices:")
        for (x, y), k in vort:
            out.append(f"  - {{position: [{x:.17g}, {y:.17g}], circulation: {k:g}}}")
    print("\n".join(out))


if __name__ == "__main__":
    main()
