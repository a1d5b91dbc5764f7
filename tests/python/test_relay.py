#!/usr/bin/python3
"""The relay of the contact study (tests/benchmarks/contact_suspension.py --relay, docs/fluidbody.md "Contact"):
on synthetic logs, a segment records only its rows up to its newest checkpoint, measures energy and momentum
maps against t = 0 (reference.json, written by the first segment) and keeps that checkpoint; a second segment
continues from the first one's last step; the summary names every bound that is exceeded; a log that does
not reach back to the relay's last step is refused."""
import argparse
import contextlib
import csv
import importlib.util
import io
import os
import sys
import tempfile
import unittest

import h5py
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.environ.get("KIRCHHOFF_SOURCE_DIR", os.path.join(HERE, "..", ".."))
spec = importlib.util.spec_from_file_location("contact_suspension",
                                              os.path.join(SOURCE, "tests", "benchmarks", "contact_suspension.py"))
cs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cs)

E0, J0 = 0.5, np.array([0.01, -0.02, 2.0])


def outdir(root, name, steps, drift=None, checkpoints=()):
    """A run folder: log rows for `steps` (energy E0, J = J0 except `drift` {step: (dE/E0, dJ/|J0|)}) and
    checkpoint files (their step in the name, their bytes 'ck<step>')."""
    d = os.path.join(root, name)
    os.makedirs(os.path.join(d, "checkpoints"))
    n = len(steps)
    col = {"step": np.array(steps, dtype=float), "time": 0.01 * np.array(steps, dtype=float),
           "energy": np.full(n, E0), "impact_energy_loss": np.zeros(n),
           "momentum_x": np.full(n, J0[0]), "momentum_y": np.full(n, J0[1]), "angular_momentum": np.full(n, J0[2]),
           "min_body_body_distance": np.linspace(0.5, 0.1, n), "fluid_error_estimate": np.full(n, 1e-9),
           "impacts": np.zeros(n), "contact_substeps": np.ones(n), "fluid_unknowns": np.full(n, 4160.0),
           "snes_function_evaluations": np.full(n, 3.0)}
    for k, (de, dj) in (drift or {}).items():
        i = steps.index(k)
        col["energy"][i] = E0 * (1 + de)
        col["angular_momentum"][i] = J0[2] + dj * np.abs(J0).max()
    with h5py.File(os.path.join(d, "invariants.h5"), "w") as f:
        g = f.create_group("invariants")
        for k, v in col.items():
            g[k] = v
    for k in checkpoints:
        with open(os.path.join(d, "checkpoints", f"checkpoint_{k:010d}.h5"), "w") as f:
            f.write(f"ck{k}")
    return d


def record(relay, d):
    a = argparse.Namespace(relay=relay, outdir=d, bin=os.path.join(relay, "no-binary"))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        cs.relay_record(a, 12.0, 75)
    return out.getvalue()


def rows(relay):
    with open(os.path.join(relay, "segments.csv")) as f:
        return list(csv.DictReader(f))


class Relay(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = self.tmp.name
        self.relay = os.path.join(self.root, "relay")
        os.makedirs(self.relay)

    def tearDown(self):
        self.tmp.cleanup()

    def test_segments_measure_against_t0_up_to_their_checkpoint(self):
        # Segment 1: steps 0..30, checkpoints at 10 and 20; a 5e-13 momentum drift at step 15 counts, a 1e-9 one at
        # step 25 (after the newest checkpoint, to be run again) does not.
        d1 = outdir(self.root, "seg1", list(range(31)), {15: (2e-8, 5e-13), 25: (1e-3, 1e-9)}, (10, 20))
        record(self.relay, d1)
        (r,) = rows(self.relay)
        self.assertEqual((int(r["first_step"]), int(r["last_step"])), (0, 20))
        self.assertAlmostEqual(float(r["max_dJ"]), 5e-13, delta=1e-15)
        self.assertAlmostEqual(float(r["max_abs_dE"]), 2e-8, delta=1e-11)
        self.assertEqual(r["binary"], "unknown")
        self.assertEqual(r["exit"], "75")
        with open(os.path.join(self.relay, "checkpoint.h5")) as f:
            self.assertEqual(f.read(), "ck20")
        # Segment 2: a new log from step 20 (as --restart CHECKPOINT --new-log writes it) to 40, checkpoint 40; its
        # momentum maps are 2e-12 off t = 0's at step 33.
        d2 = outdir(self.root, "seg2", list(range(20, 41)), {33: (0.0, 2e-12)}, (30, 40))
        record(self.relay, d2)
        r1, r2 = rows(self.relay)
        self.assertEqual((int(r2["first_step"]), int(r2["last_step"])), (20, 40))
        self.assertAlmostEqual(float(r2["max_dJ"]), 2e-12, delta=1e-14)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            cs.relay_summary(argparse.Namespace(relay=self.relay))
        text = out.getvalue()
        self.assertIn("2 segment(s), steps 0 .. 40", text)
        self.assertRegex(text, r"momentum maps.*2\.000e-12 \(bound 1e-12: EXCEEDED\)")
        self.assertRegex(text, r"energy.*2\.000e-08 \(bound 1e-06: holds\)")
        self.assertIn("has not reached t = 200", text)

    def test_a_log_that_starts_after_the_relay_is_refused(self):
        record(self.relay, outdir(self.root, "seg1", list(range(11)), None, (10,)))
        late = outdir(self.root, "late", list(range(15, 31)), None, (30,))
        with self.assertRaises(SystemExit) as e:
            record(self.relay, late)
        self.assertIn("starts at step 15, after the relay's 10", str(e.exception.code))
        self.assertEqual(len(rows(self.relay)), 1)


if __name__ == "__main__":
    unittest.main()
