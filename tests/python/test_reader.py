#!/usr/bin/python3
"""kirchhoff.load on real outputs of all four drivers (the tiny runs of make_runs.sh in
$KIRCHHOFF_RUNS): logs, snapshots, flow fields, checkpoints and sweeps as numpy arrays with units and
kinds, the values against what the drivers print and the physics they must show, and one-line
LoadErrors for everything that is not a kirchhoff output. Also: no other module of postprocess/
reads HDF5 itself (one reader)."""
import os
import re
import sys
import tempfile
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.environ.get("KIRCHHOFF_SOURCE_DIR", os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(SOURCE, "postprocess"))
RUNS = os.environ.get("KIRCHHOFF_RUNS", "")

import kirchhoff  # noqa: E402
from kirchhoff import fallback  # noqa: E402

# Kinds every model's log must report, per column (what kirchhoff.fallback says and what the
# C++ writer's `kind` attributes must agree with once it writes them).
EXPECTED_KINDS = {
    "disk": {"energy": "conserved", "momentum_x": "conserved", "angular_momentum": "conserved",
             "c2_momentum_y": "conserved", "impulse_x": "diagnostic", "legendre_residual": "diagnostic",
             "min_body_vortex_distance": "diagnostic", "snes_iterations": "solver", "residual_norm": "solver"},
    "kirchhoff3": {"energy": "conserved", "impulse_x": "conserved", "impulse_y": "conserved",
                   "angular_impulse": "conserved", "snes_function_evaluations": "solver"},
    "channel": {"min_body_body_distance": "diagnostic", "energy": "conserved"},
    "top": {"energy": "conserved", "f1": "conserved", "f2": "conserved", "kovalevskaya": "conserved",
            "Pi3": "diagnostic", "J1": "conserved", "newton_iterations": "solver", "error": "diagnostic"},
    "lagrange": {"Pi3": "conserved", "kovalevskaya": "diagnostic"},
    "pendulum": {"energy": "diagnostic", "dissipated": "diagnostic", "energy_balance": "conserved"},
    "elastic": {"J3": "conserved", "r_minus_rstar": "diagnostic"},
    "rigidA": {"casimir": "conserved", "distance": "diagnostic", "M1": "diagnostic"},
    "slosh": {"energy": "conserved", "momentum_balance": "conserved", "mass": "conserved",
              "q": "diagnostic", "min_stretch": "diagnostic"},
}
UNITS = {"slosh": {"time": "s", "energy": "J/m", "q": "m", "qdot": "m/s", "mass": "kg/m"},
         "disk": {"energy": "1", "time": "1"}}


def read_text(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def write(path, data):
    with open(path, "wb" if isinstance(data, bytes) else "w") as f:
        f.write(data)


def need_runs(test):
    return unittest.skipUnless(RUNS and os.path.isdir(RUNS), "KIRCHHOFF_RUNS not set (run via ctest)")(test)


def run(name):
    return kirchhoff.load(os.path.join(RUNS, name))


@need_runs
class Logs(unittest.TestCase):
    def test_every_driver_log_has_tagged_columns(self):
        for name, models in (("disk", "fluidbody"), ("top", "top"), ("rigidA", "damped"), ("slosh", "slosh")):
            r = run(name)
            self.assertEqual(r.model, models, name)
            log = r.log
            self.assertGreater(log.rows, 10, name)
            self.assertEqual(list(log)[:2], ["step", "time"])
            self.assertTrue(np.all(np.diff(log.step) > 0), name)
            for col in log.names:
                s = log[col]
                self.assertIsInstance(s, kirchhoff.Series)
                self.assertIn(s.kind, kirchhoff.KINDS, f"{name}:{col}")
                self.assertTrue(s.units, f"{name}:{col} has no units")
                self.assertTrue(s.description, f"{name}:{col} has no description")
                self.assertIn(s.source, ("file", "mixed", "fallback"))
                if s.source == "fallback":  # until the C++ side writes the attributes
                    u, k, d = fallback.lookup(r.model, col, r.deck)
                    self.assertEqual((s.units, s.kind, s.description), (u, k, d), f"{name}:{col}")

    def test_kinds_and_units(self):
        for name, kinds in EXPECTED_KINDS.items():
            log = run(name).log
            for col, kind in kinds.items():
                self.assertEqual(log[col].kind, kind, f"{name}:{col}")
        for name, units in UNITS.items():
            log = run(name).log
            for col, u in units.items():
                self.assertEqual(log[col].units, u, f"{name}:{col}")
        self.assertEqual(run("slosh").log.time.kind, "coordinate")

    def test_values_are_the_physics(self):
        # Momentum map exact, energy bounded (fluidbody); Casimirs to round-off (collective top,
        # DDB); slosh momentum balance and mass exact; the top's K(0) = 4, h(0) = 9.5 (docs/heavytop.md).
        disk = run("disk").log
        for col in ("momentum_x", "momentum_y", "angular_momentum"):
            v = np.asarray(disk[col])
            self.assertLess(np.max(np.abs(v - v[0])), 1e-10 * max(1.0, abs(v[0])), col)
        e = np.asarray(disk["energy"])
        self.assertLess(np.max(np.abs(e / e[0] - 1)), 1e-4)
        top = run("top").log
        self.assertAlmostEqual(top["energy"][0], 9.5, places=12)
        self.assertAlmostEqual(top["kovalevskaya"][0], 4.0, places=12)
        for col in ("f1", "f2"):
            v = np.asarray(top[col])
            self.assertLess(np.max(np.abs(v / v[0] - 1)), 1e-13, col)
        c = np.asarray(run("rigidB").log["casimir"])
        self.assertLess(np.max(np.abs(c / c[0] - 1)), 1e-13)
        sl = run("slosh").log
        self.assertEqual(float(np.ptp(sl["mass"])), 0.0)
        self.assertLess(float(np.ptp(sl["momentum_balance"])), 1e-12)

    def test_series_arithmetic_gives_plain_arrays(self):
        e = run("disk").log["energy"]
        d = e - e[0]
        self.assertIs(type(d), np.ndarray)
        self.assertIs(type(np.abs(e)), np.ndarray)
        self.assertIsInstance(float(e.max()), float)
        self.assertEqual(e[3:7].name, "energy")  # slices keep the metadata
        self.assertEqual(e.label, "energy")
        self.assertEqual(run("slosh").log["q"].label, "q [m]")

    def test_attributes_and_deck(self):
        r = run("disk")
        for k in ("model", "code_version", "git_sha", "deck_file", "nranks"):
            self.assertIn(k, r.attrs)
        self.assertEqual(r.name, "fluidbody_disk_vortex")
        self.assertIsInstance(r.attrs["model"], str)
        self.assertIn("bodies:", r.deck_text)
        self.assertEqual(r.deck_value("time.dt"), 0.025)
        self.assertEqual(r.deck_value("bodies[0].shape.edges"), 64)
        self.assertIsNone(r.deck_value("no.such.key"))

    def test_deck_dataset_and_older_attribute(self):
        # The deck text is the root dataset /deck (vlen UTF-8) in the log and the snapshots and a
        # 1-D char dataset in a checkpoint: each reads back as the deck file's exact text. A log
        # of an older version holds it in the root attribute `deck`: read from there instead.
        import h5py
        text = read_text(os.path.join(SOURCE, "input", "fluidbody_disk_vortex.yaml"))
        r = run("disk")
        self.assertEqual(r.deck_text, text)
        self.assertNotIn("deck", r.attrs)
        for part in ("invariants.h5", "snapshots.h5"):
            path = os.path.join(RUNS, "disk", part)
            with h5py.File(path, "r") as f:
                self.assertNotIn("deck", f.attrs, path)
                self.assertEqual(f["deck"].shape, (), path)
            self.assertEqual(kirchhoff.load(path).deck_text, text, path)
        self.assertEqual(kirchhoff.load(r.checkpoints[-1]).deck_text, text)
        with tempfile.TemporaryDirectory() as d:
            dst = os.path.join(d, "invariants.h5")
            with open(os.path.join(RUNS, "disk", "invariants.h5"), "rb") as a, open(dst, "wb") as b:
                b.write(a.read())
            with h5py.File(dst, "r+") as f:
                del f["deck"]
                f.attrs["deck"] = text
            old = kirchhoff.load(dst)
            self.assertEqual(old.deck_text, text)
            self.assertEqual(old.deck_value("time.dt"), 0.025)
            self.assertNotIn("deck", old.attrs)

    def test_summary_agrees_with_the_log(self):
        # The driver's summary.json (the kinds the model logs for its configuration) names exactly
        # the columns the reader tags conserved, and its changes are the log's max |c - c0| / |c0|.
        for name in EXPECTED_KINDS:
            with self.subTest(run=name):
                r = run(name)
                s = r.summary
                self.assertIsNotNone(s, f"{name}: no summary.json")
                self.assertEqual((s["model"], s["status"], s["exit_status"]), (r.model, "finished", 0))
                self.assertEqual(list(s["max_relative_change"]), r.log.of_kind("conserved"))
                for k, v in s["max_relative_change"].items():
                    c = np.asarray(r.log[k], dtype=float)
                    scale = abs(c[0]) if abs(c[0]) > 1e-12 else 1.0
                    ref = float(np.max(np.abs(c - c[0])) / scale)
                    self.assertLessEqual(abs(v - ref), 1e-5 * ref + 1e-300, (k, v, ref))
                self.assertEqual(s["last_step"], int(r.log["step"][-1]))

    def test_metadata_from_the_file_wins(self):
        # A copy of a log whose datasets carry units/description/kind attributes: the reader
        # takes them (source "file") and falls back per missing attribute.
        import h5py  # only the test writes HDF5
        src = os.path.join(RUNS, "disk", "invariants.h5")
        with tempfile.TemporaryDirectory() as d:
            dst = os.path.join(d, "invariants.h5")
            with open(src, "rb") as a, open(dst, "wb") as b:
                b.write(a.read())
            with h5py.File(dst, "r+") as f:
                g = f["invariants"]
                for d in g.values():  # an older file: no metadata on the datasets
                    for a in ("units", "description", "kind"):
                        if a in d.attrs:
                            del d.attrs[a]
                g["energy"].attrs.update(units="J", description="total energy", kind="conserved")
                g["impulse_x"].attrs["kind"] = "conserved"
                f.attrs["model"] = np.bytes_(b"fluidbody")
            log = kirchhoff.load(dst).log
            self.assertEqual((log["energy"].units, log["energy"].description, log["energy"].source),
                             ("J", "total energy", "file"))
            self.assertEqual((log["impulse_x"].kind, log["impulse_x"].source), ("conserved", "mixed"))
            self.assertEqual(log["momentum_x"].source, "fallback")


    def test_written_files_describe_every_dataset(self):
        # invariants.h5 and snapshots.h5 as written: units, description and kind on every dataset
        # (strings come back as str), counts stored as integers, the reader's source is "file".
        import h5py
        for run in ("disk", "channel"):
            for name in ("invariants.h5", "snapshots.h5"):
                path = os.path.join(RUNS, run, name)
                if not os.path.exists(path):
                    continue
                with h5py.File(path, "r") as f:
                    self.assertIsInstance(f.attrs["model"], str)
                    seen = []
                    f.visititems(lambda n, o: seen.append((n, o)) if isinstance(o, h5py.Dataset) else None)
                    self.assertTrue(seen, path)
                    for n, o in seen:
                        for a in ("units", "description", "kind"):
                            self.assertIn(a, o.attrs, f"{path}:/{n} has no {a}")
                            self.assertIsInstance(o.attrs[a], str, f"{path}:/{n}.{a}")
                        self.assertIn(o.attrs["kind"], ("conserved", "diagnostic", "solver", "coordinate", "metadata"))
                    if name == "invariants.h5":
                        self.assertEqual(f["invariants/snes_iterations"].dtype.kind, "i")
                        self.assertEqual(f["invariants/step"].dtype.kind, "i")
        log = kirchhoff.load(os.path.join(RUNS, "disk")).log
        self.assertTrue(all(log[n].source == "file" for n in log.names))
        self.assertEqual(log["snes_iterations"].dtype.kind, "i")


@need_runs
class OtherFiles(unittest.TestCase):
    def test_snapshots(self):
        s = run("disk").snapshots
        self.assertEqual(list(s.steps), [0, 20, 40, 60])
        self.assertEqual(s.mesh_names, ["bodies", "centres", "vortices"])
        self.assertEqual(s.points("bodies").shape, (4, 64, 2))
        self.assertEqual(s.points("vortices").shape, (4, 1, 2))
        self.assertEqual(s.frames[0]["bodies"].topology, "polygon")
        self.assertEqual(s.frames[0]["bodies"].cells, [64])
        np.testing.assert_allclose(s.attribute("vortices", "circulation"), 2 * np.pi)
        # snapshot centres against the log's time axis and the deck's initial data
        log = run("disk").log
        np.testing.assert_allclose(s.times, np.asarray(log.time)[s.steps], rtol=0, atol=1e-15)
        np.testing.assert_allclose(s.points("centres")[0, 0], [0.0, 0.0], atol=1e-15)
        sl = run("slosh").snapshots
        surf = sl.frames[0]["surface"]
        self.assertEqual(surf.topology, "polyline")
        self.assertEqual(surf.attributes["depth"].units, "m")
        self.assertAlmostEqual(float(surf.points[-1, 0]), 1.0, places=12)  # x_{N+1} = L
        three = run("rigidA").snapshots.points("momentum_direction")
        np.testing.assert_allclose(np.linalg.norm(three, axis=2), 1.0, rtol=1e-14)

    def test_snapshots_of_older_versions(self):
        # kirchhoff 0.1 wrote one group /step_NNNNNNNNNN per snapshot: still read, frame by frame.
        import h5py
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "snapshots.h5")
            with h5py.File(path, "w") as f:
                for k, step in enumerate((0, 5)):
                    g = f.create_group(f"step_{step:010d}")
                    g.attrs.update(step=step, time=0.5 * step, meshes=np.bytes_(b"vortices"))
                    m = g.create_group("vortices")
                    m.attrs.update(dim=2, topology=0, points=2, cells=2, attributes=np.bytes_(b"circulation"))
                    m["coordinates"] = np.array([k, 0.0, 1.0, 2.0 + k])
                    m["topology"] = np.array([1, 1, 0, 1, 1, 1], dtype=np.int32)
                    m["circulation"] = np.array([1.0, -1.0])
            s = kirchhoff.load(path).snapshots
            self.assertEqual(list(s.steps), [0, 5])
            np.testing.assert_array_equal(s.points("vortices")[1], [[1.0, 0.0], [1.0, 3.0]])
            c = s.attribute("vortices", "circulation")
            np.testing.assert_array_equal(c, [[1.0, -1.0], [1.0, -1.0]])
            self.assertEqual(s.frames[0]["vortices"].attributes["circulation"].source, "fallback")

    def test_snapshot_velocities_and_names(self):
        # The vortex velocity stored with each frame is the time derivative of its position:
        # central differences of the positions (frames every 20 steps of dt 0.025) agree to O(h^2).
        s = run("disk").snapshots
        fr = s.frames[1]
        self.assertEqual(fr["bodies"].cell_names, ["disk"])
        self.assertEqual(fr["vortices"].attributes["velocity"].source, "file")
        self.assertEqual(list(np.asarray(fr["vortices"].attributes["id"])), [0])
        x = s.points("vortices")[:, 0, :]
        v = np.asarray(s.attribute("vortices", "velocity"))[:, 0, :]
        dt = s.times[2] - s.times[0]
        fd = (x[2] - x[0]) / dt
        self.assertLess(np.linalg.norm(fd - v[1]) / np.linalg.norm(v[1]), 0.05)
        # body points: rigid motion, velocity of the outline's centroid = the centre's velocity
        bv = np.asarray(fr["bodies"].attributes["velocity"])
        cv = np.asarray(fr["centres"].attributes["velocity"])[0]
        np.testing.assert_allclose(bv.mean(axis=0), cv, rtol=0, atol=1e-12 * (1 + np.abs(cv).max()))

    def test_flow_field(self):
        r = kirchhoff.load(os.path.join(RUNS, "fig1", "flowfield.h5"))
        ff = r.flow_field
        self.assertEqual(r.model, "fluidbody")
        self.assertEqual(len(ff.x), 41)
        self.assertEqual(ff["psi_I"].shape, (len(ff.y), len(ff.x)))
        self.assertEqual(len(ff.bodies), 2)
        np.testing.assert_allclose(ff.K, [1.0, 2.0, -3.0])
        self.assertEqual(ff["u"].kind, "diagnostic")
        self.assertEqual(kirchhoff.load(os.path.join(RUNS, "fig1")).flow_field.path, ff.path)

    def test_checkpoint(self):
        r = run("top")
        c = r.checkpoint()
        self.assertEqual((c.model, c.step), ("top", 100))
        self.assertEqual(len(c["z"]), 8)
        self.assertAlmostEqual(c.time, 100 * 0.02, places=12)
        self.assertEqual(kirchhoff.load(r.checkpoints[0]).checkpoint().step, 0)

    def test_sweep(self):
        r = run("energy")
        self.assertTrue(r.is_sweep)
        self.assertEqual([os.path.basename(c.folder) for c in r.cases], ["case000", "case001", "case002"])
        dts = [c.log.time[1] - c.log.time[0] for c in r.cases]
        np.testing.assert_allclose(dts, [0.025, 0.1, 0.25])
        self.assertEqual(len(kirchhoff.runs([os.path.join(RUNS, "energy"), os.path.join(RUNS, "disk")])), 4)
        with self.assertRaisesRegex(kirchhoff.LoadError, "a sweep folder: use run.cases"):
            r.log

    def test_log_copy_and_file_paths(self):
        r = kirchhoff.load(os.path.join(RUNS, "disk", "invariants.h5"))
        self.assertTrue(r.has("snapshots"))  # the standard name: its folder's other files too
        self.assertTrue(kirchhoff.load(os.path.join(RUNS, "disk", "invariants.h5.ckpt")).has("log"))


class Errors(unittest.TestCase):
    def message(self, path):
        with self.assertRaises(kirchhoff.LoadError) as cm:
            kirchhoff.load(path)
        msg = str(cm.exception)
        self.assertEqual(len(msg.splitlines()), 1, msg)
        self.assertIn(path, msg)
        return msg

    def test_wrong_paths(self):
        with tempfile.TemporaryDirectory() as d:
            self.assertIn("no such file or folder", self.message(os.path.join(d, "missing")))
            self.assertIn("not a kirchhoff output folder", self.message(d))
            txt = os.path.join(d, "notes.txt")
            write(txt, "hello\n")
            self.assertIn("not an HDF5 file", self.message(txt))
            self.assertIn("it holds notes.txt", self.message(d))
            truncated = os.path.join(d, "invariants.h5")
            write(truncated, b"\x89HDF\r\n\x1a\n" + b"\0" * 40)
            msg = self.message(truncated)
            self.assertTrue("not an HDF5 file" in msg or "HDF5 cannot open" in msg, msg)

    @need_runs
    def test_missing_parts_and_columns(self):
        r = run("top")
        with self.assertRaisesRegex(kirchhoff.LoadError, "no snapshots .*snapshot_interval"):
            r.snapshots
        with self.assertRaisesRegex(kirchhoff.LoadError, "no flow field"):
            r.flow_field
        with self.assertRaises(KeyError) as cm:
            r.log["nope"]
        self.assertIsInstance(cm.exception, kirchhoff.LoadError)
        self.assertIn("columns: energy, f1", str(cm.exception))
        self.assertIsNone(r.log.get("nope"))


class OneReader(unittest.TestCase):
    def test_only_the_package_reads_hdf5(self):
        pp = os.path.join(SOURCE, "postprocess")
        offenders = []
        for root, _, files in os.walk(pp):
            for f in files:
                p = os.path.join(root, f)
                if not f.endswith(".py") or p.endswith(os.path.join("kirchhoff", "_h5.py")):
                    continue
                if re.search(r"^\s*(import h5py|from h5py)", read_text(p), re.M):
                    offenders.append(os.path.relpath(p, SOURCE))
        self.assertEqual(offenders, [], "read files through kirchhoff.load, not h5py")


if __name__ == "__main__":
    unittest.main(verbosity=2)
