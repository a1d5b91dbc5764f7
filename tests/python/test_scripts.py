#!/usr/bin/python3
"""Every postprocess/ script on the real outputs of make_runs.sh ($KIRCHHOFF_RUNS): it exits 0,
writes its figure (a PNG) and prints the numbers the physics implies; `--help` works everywhere
and does nothing else; a wrong folder is one line on stderr and exit code 2, no traceback.
The scripts' main(argv) run in this process (one import of matplotlib, scipy and h5py instead of
one per call); a few calls go through a real subprocess to cover the command-line entry."""
import contextlib
import importlib.util
import io
import os
import re
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.environ.get("KIRCHHOFF_SOURCE_DIR", os.path.join(HERE, "..", ".."))
PP = os.path.join(SOURCE, "postprocess")
RUNS = os.environ.get("KIRCHHOFF_RUNS", "")
PY = sys.executable
PNG = b"\x89PNG\r\n\x1a\n"
LIBRARIES = {"fluidbody_common.py", "top_common.py", "slosh_common.py", "damped_common.py"}
SCRIPTS = sorted(f for f in os.listdir(PP) if f.endswith(".py") and f not in LIBRARIES)


sys.path.insert(0, PP)
sys.dont_write_bytecode = True
from kirchhoff import cli  # noqa: E402

_modules = {}


class Result:
    def __init__(self, returncode, stdout, stderr):
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


def module(name):
    if name not in _modules:
        spec = importlib.util.spec_from_file_location(name[:-3], os.path.join(PP, name))
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        _modules[name] = mod
    return _modules[name]


def script(name, *args):
    """Runs the script's main(argv) here, as `python3 postprocess/NAME args` would (argv[0],
    stdout, stderr, exit code)."""
    mod = module(name)
    out, err = io.StringIO(), io.StringIO()
    argv0, sys.argv[0] = sys.argv[0], name
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                rc = cli.main(mod.main, list(args))
            except SystemExit as e:  # argparse: --help (0) and usage errors (2)
                rc = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    finally:
        sys.argv[0] = argv0
        import matplotlib.pyplot as plt
        plt.close("all")
    return Result(rc, out.getvalue(), err.getvalue())


def subprocess_script(name, *args, timeout=120):
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", MPLBACKEND="Agg")
    return subprocess.run([PY, os.path.join(PP, name), *args], capture_output=True, text=True,
                          timeout=timeout, env=env)


def r(name):
    return os.path.join(RUNS, name)


# script, arguments (OUT is replaced by the figure path), patterns the output must contain
CASES = [
    ("invariants.py", [r("disk"), "-o", "OUT"], [r"\| energy \| conserved \| 1 \|", r"\| snes_iterations \| solver"]),
    ("invariants.py", [r("slosh"), "-o", "OUT"], [r"\| energy \| conserved \| J/m \|", r"\| q \| diagnostic \| m \|"]),
    ("invariants.py", [os.path.join(r("top"), "invariants.h5"), "-o", "OUT", "--columns", "energy,f1"],
     [r"\| f1 \| conserved"]),
    ("fluidbody_trajectories.py", [r("disk"), "-o", "OUT"], [r"disk\s+4\s+1.5"]),
    ("fluidbody_energy.py", [r("energy"), "-o", "OUT"], [r"case002\s+0.25\s+12", r"fit: amplitude"]),
    ("fluidbody_ellipse.py", [r("ellipse"), "-o", "OUT"], [r"ellipse\s+30\s+3 "]),
    ("fluidbody_channel.py", [r("channel"), "-o", "OUT"], [r"channel\s+7\s+0.6\s+1.600000"]),
    ("fluidbody_contact.py", [r("contact"), "-o", "OUT"], [r"contact\s+1\s+0\.150\d*\s+0\.15\s"]),
    ("fluidbody_fig1.py", [os.path.join(r("fig1"), "flowfield.h5"), "-o", "OUT"], [r"^\s+0\s+\d+", r"^\s+1\s+\d+"]),
    ("streamlines.py", [r("fig1"), "-o", "OUT"], []),
    ("top_fig1.py", [r("top_collective_explicit"), r("top_direct_explicit"), r("top"), "-o", "OUT"],
     [r"\| collective_implicit_midpoint \| energy \| 9.5 \|"]),
    ("top_fig2.py", [r("top_direct_implicit"), r("top"), "-o", "OUT"], [r"K amplitude ratio direct / collective"]),
    ("damped_energy.py", [r("pendulum_ref"), r("pendulum"), "-o", "OUT"], [r"\| phi_2s dkd h=0.1 \|"]),
    ("damped_casimir.py", [r("rigidA"), r("rigidB"), "-o", "OUT"], [r"\| damped_rigid_body_A: ddb"]),
    # scenarios A and B run the same method: their labels must still differ
    ("damped_sphere.py", [r("rigidA"), r("rigidB"), "-o", "OUT"],
     [r"\| damped_rigid_body_A: ddb cayley plain h=0.1 \|", r"\| damped_rigid_body_B: ddb cayley plain h=0.1 \|"]),
    ("slosh_energy.py", [r("slosh"), "-o", "OUT"], [r"momentum balance max"]),
    ("slosh_q.py", [r("slosh"), "-o", "OUT"], [r"max \|q\|"]),
    ("slosh_spectrum.py", [r("slosh"), "-o", "OUT"], [r"# root \[rad/s\]"]),
    ("slosh_surface.py", [r("slosh"), "-o", "OUT"], [r"surface: 9 snapshots"]),
]
# scripts that read no kirchhoff output (benchmarks against scipy)
NO_INPUT = {"top_bench_scipy.py", "damped_bench_scipy.py"}


@unittest.skipUnless(RUNS and os.path.isdir(RUNS), "KIRCHHOFF_RUNS not set (run via ctest)")
class Figures(unittest.TestCase):
    def test_every_script_is_exercised(self):
        covered = {c[0] for c in CASES} | NO_INPUT
        self.assertEqual(sorted(set(SCRIPTS) - covered), [])

    def test_each_script_writes_its_figure(self):
        with tempfile.TemporaryDirectory() as d:
            jobs = []
            for k, (name, args, _) in enumerate(CASES):
                out = os.path.join(d, f"{k:02d}_{name[:-3]}.png")
                jobs.append((name, out, [out if a == "OUT" else a for a in args]))
            results = [script(j[0], *j[2]) for j in jobs]
            for (name, out, args), (_, _, patterns), res in zip(jobs, CASES, results):
                with self.subTest(script=name, args=args):
                    self.assertEqual(res.returncode, 0, res.stdout + res.stderr)
                    self.assertNotIn("Traceback", res.stderr)
                    with open(out, "rb") as f:
                        self.assertEqual(f.read(8), PNG, f"{out} is not a PNG")
                    for pat in patterns:
                        self.assertRegex(res.stdout, re.compile(pat, re.M))

    def test_invariants_default_output_and_sweeps(self):
        with tempfile.TemporaryDirectory() as d:
            res = subprocess_script("invariants.py", r("energy"), "-o", os.path.join(d, "inv.png"))
            self.assertEqual(res.returncode, 0, res.stderr)
            for c in ("case000", "case001", "case002"):
                self.assertTrue(os.path.isfile(os.path.join(d, f"inv_{c}.png")), c)


class CommandLines(unittest.TestCase):
    def test_help_everywhere(self):
        results = [script(n, "--help") for n in SCRIPTS]
        for name, res in zip(SCRIPTS, results):
            with self.subTest(script=name):
                self.assertEqual(res.returncode, 0, res.stderr)
                self.assertTrue(res.stdout.startswith("usage: " + name), res.stdout[:200])
                self.assertEqual(res.stderr, "")
                # --help must not run anything: no benchmark tables, no figures
                self.assertNotIn("|---", res.stdout)

    def test_wrong_folder_is_one_line(self):
        with tempfile.TemporaryDirectory() as d:
            names = [c[0] for c in CASES]
            names = sorted(set(names))
            results = [script(n, d, *([d] if n == "damped_energy.py" else [])) for n in names]
            for name, res in zip(names, results):
                with self.subTest(script=name):
                    self.assertEqual(res.returncode, 2, res.stdout + res.stderr)
                    self.assertNotIn("Traceback", res.stderr)
                    lines = res.stderr.strip().splitlines()
                    self.assertEqual(len(lines), 1, res.stderr)
                    self.assertRegex(lines[0], rf"^{re.escape(name)}: error: .*not a kirchhoff output folder")

    def test_real_command_lines(self):
        # The entry point itself: --help of a benchmark returns at once, a wrong folder gives exit 2.
        res = subprocess_script("damped_bench_scipy.py", "--help", timeout=30)
        self.assertEqual((res.returncode, res.stderr), (0, ""))
        self.assertIn("usage: damped_bench_scipy.py", res.stdout)
        with tempfile.TemporaryDirectory() as d:
            res = subprocess_script("fluidbody_trajectories.py", d)
        self.assertEqual(res.returncode, 2)
        self.assertNotIn("Traceback", res.stderr)
        self.assertIn("not a kirchhoff output folder", res.stderr)
        # A benchmark given a folder instead of its bench_top executable: one line, exit 2.
        with tempfile.TemporaryDirectory() as d:
            res = subprocess_script("top_bench_scipy.py", d, timeout=30)
        self.assertEqual(res.returncode, 2, res.stderr)
        self.assertNotIn("Traceback", res.stderr)
        self.assertRegex(res.stderr.strip().splitlines()[-1], r"^top_bench_scipy.py: error: .*no bench_top executable")


if __name__ == "__main__":
    unittest.main(verbosity=2)
