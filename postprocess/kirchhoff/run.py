"""kirchhoff.load: a run folder (the -o OUTDIR of a driver), a sweep folder (case* folders), or one
file (invariants.h5, snapshots.h5, flowfield.h5, a checkpoint), as a Run whose parts are read on
first use. Every failure is a LoadError naming the path and what is wrong."""
import glob
import json
import os

from . import _h5, checkpoint as _checkpoint, flowfield as _flowfield, log as _log, snapshots as _snapshots
from .errors import LoadError

try:  # python3-yaml: only used to parse the deck text the files store
    import yaml
except ImportError:  # pragma: no cover
    yaml = None

LOG, SNAPSHOTS, FLOW_FIELD = "invariants.h5", "snapshots.h5", "flowfield.h5"


def _deck_text(f):
    """The deck text stored in a file: the root dataset `deck` (logs, snapshots and checkpoints of
    this version), else the root attribute `deck` (logs written before the dataset)."""
    if "deck" in f and _h5.is_dataset(f["deck"]):
        return _h5.text(f["deck"][()])
    if "deck" in f.attrs:
        return _h5.text(f.attrs["deck"])
    return ""


def _parse_deck(text):
    if not text or yaml is None:
        return None
    try:
        d = yaml.safe_load(text)
    except yaml.YAMLError:
        return None
    return d if isinstance(d, dict) else None


def _file_kind(f):
    if "invariants" in f and _h5.is_group(f["invariants"]):
        return "log"
    if _flowfield.is_flow_field(f):
        return "flow_field"
    if _checkpoint.is_checkpoint(f):
        return "checkpoint"
    if _h5.text(f.attrs.get("format", "")).startswith("kirchhoff-snapshots-") or _snapshots.group_names(f) or len(f) == 0:
        return "snapshots"
    return None


class Run:
    """One run. Parts: log (Log), snapshots (Snapshots), flow_field (FlowField), checkpoints
    (paths, newest last) and checkpoint(i); a sweep folder has cases (list of Run) instead.
    model, name (deck name), deck_text, deck (dict, or None without python3-yaml),
    deck_file and attrs (root attributes of the log, else of the file loaded) describe it."""

    def __init__(self, path, folder=None, files=None, cases=None):
        self.path = path
        self.folder = folder
        self._files = dict(files or {})
        self.cases = cases or []
        self._cache = {}
        self.attrs = {}
        self.deck_text = ""
        self.warnings = []
        first = next((k for k in ("log", "flow_field", "checkpoint", "snapshots") if k in self._files), None)
        if first:
            self.attrs, self.deck_text = _h5.read(self._files[first],
                                                  lambda f: (_h5.attributes(f), _deck_text(f)))
        self.attrs.pop("deck", None)
        self.deck = _parse_deck(self.deck_text)
        self.deck_file = self.attrs.get("deck_file", "")
        self.model = self.attrs.get("model") or (self.deck or {}).get("model") or (
            self.cases[0].model if self.cases else "")

    # -- description -------------------------------------------------------------------------
    @property
    def name(self):
        """The deck's name (file stem) if known, else the folder's name."""
        if self.deck_file:
            return os.path.splitext(os.path.basename(self.deck_file))[0]
        return os.path.basename(os.path.normpath(self.folder or self.path))

    @property
    def is_sweep(self):
        return bool(self.cases)

    @property
    def summary(self):
        """OUTDIR/summary.json as a dict (docs/output.md, "summary.json"): status, exit_status,
        steps, wall_seconds, steps_per_second, max_relative_change, ...; for a sweep folder the
        aggregate of jobscripts/summarize. None when the run's folder has none."""
        if not self.folder:
            return None
        path = os.path.join(self.folder, "summary.json")
        if not os.path.exists(path):
            return None
        try:
            with open(path, encoding="utf-8") as f:
                return json.load(f)
        except (OSError, ValueError) as e:
            raise LoadError(f"{path}: not a readable summary ({e})") from None

    def has(self, part):
        """True if the run has `part`: 'log', 'snapshots', 'flow_field' or 'checkpoint'."""
        return part in self._files

    def deck_value(self, dotted, default=None):
        """A deck value by dotted key, e.g. 'time.dt' or 'bodies.0.density' (default if absent)."""
        node = self.deck
        try:
            for k in dotted.replace("[", ".").replace("]", "").split("."):
                node = node[int(k)] if isinstance(node, list) else node[k]
            return node
        except (KeyError, IndexError, TypeError, ValueError):
            return default

    # -- parts ---------------------------------------------------------------------------------
    def _part(self, part, reader):
        if part not in self._cache:
            if part not in self._files:
                what = {"log": f"no invariant log ({LOG})", "snapshots": f"no snapshots ({SNAPSHOTS}; "
                        "set output.snapshot_interval > 0 in the deck)",
                        "flow_field": f"no flow field ({FLOW_FIELD}; made by kirchhoff-fluidbody --flow-field)",
                        "checkpoint": "no checkpoint"}[part]
                hint = " (a sweep folder: use run.cases)" if self.cases else ""
                raise LoadError(f"{self.path}: {what}{hint}")
            path = self._files[part]
            self._cache[part] = _h5.read(path, lambda f: reader(f, path))
        return self._cache[part]

    @property
    def log(self):
        lg = self._part("log", lambda f, p: _log.read(f, p, self.model, self.deck))
        return lg

    @property
    def snapshots(self):
        return self._part("snapshots", _snapshots.read)

    @property
    def flow_field(self):
        return self._part("flow_field", _flowfield.read)

    @property
    def checkpoints(self):
        """Checkpoint files of the run, oldest first."""
        if "checkpoint" in self._files and not self.folder:
            return [self._files["checkpoint"]]
        if not self.folder:
            return []
        return sorted(glob.glob(os.path.join(self.folder, "checkpoints", "checkpoint_*.h5")))

    def checkpoint(self, index=-1):
        """The checkpoint checkpoints[index] (default: the newest)."""
        files = self.checkpoints
        if not files:
            raise LoadError(f"{self.path}: no checkpoint")
        path = files[index]
        return _h5.read(path, lambda f: _checkpoint.read(f, path))

    def __repr__(self):
        parts = [k for k in ("log", "snapshots", "flow_field") if k in self._files]
        if self.cases:
            parts.append(f"{len(self.cases)} cases")
        return f"Run({self.path!r}, model={self.model or '?'}, {', '.join(parts) or 'empty'})"


def _folder_files(folder):
    files = {}
    for part, name in (("log", LOG), ("snapshots", SNAPSHOTS), ("flow_field", FLOW_FIELD)):
        p = os.path.join(folder, name)
        if os.path.isfile(p):
            files[part] = p
    if "log" not in files and os.path.isfile(os.path.join(folder, LOG + ".ckpt")):
        files["log"] = os.path.join(folder, LOG + ".ckpt")
    ckpts = sorted(glob.glob(os.path.join(folder, "checkpoints", "checkpoint_*.h5")))
    if ckpts:
        files["checkpoint"] = ckpts[-1]
    return files


def _case_folders(folder):
    return sorted(p for p in glob.glob(os.path.join(folder, "case[0-9]*")) if os.path.isdir(p))


def load(path):
    """A Run from an output folder, a sweep folder or one kirchhoff HDF5 file.

        run = kirchhoff.load("out/fluidbody_disk_vortex")
        run.log["energy"]           # Series: values with .units, .kind, .description
        run.snapshots.points("vortices")
        kirchhoff.load("out/fig1/flowfield.h5").flow_field["psi_I"]
    """
    path = os.fspath(path)
    if not os.path.exists(path):
        raise LoadError(f"{path}: no such file or folder")
    if os.path.isdir(path):
        files = _folder_files(path)
        cases = _case_folders(path)
        if files:
            return Run(path, folder=path, files=files)
        if cases:
            return Run(path, folder=path, cases=[load(c) for c in cases])
        seen = sorted(os.listdir(path))[:6]
        raise LoadError(f"{path}: not a kirchhoff output folder: it holds none of {LOG}, {SNAPSHOTS}, "
                        f"{FLOW_FIELD}, checkpoints/ or case*/ folders "
                        f"({'it holds ' + ', '.join(seen) if seen else 'it is empty'}; "
                        "give the folder passed to the driver with -o)")
    kind, top = _h5.read(path, lambda f: (_file_kind(f), list(f)[:6]))
    if kind is None:
        raise LoadError(f"{path}: an HDF5 file, but not one kirchhoff writes (top level: {', '.join(top)})")
    base = os.path.basename(path)
    standard = {"log": (LOG, LOG + ".ckpt"), "snapshots": (SNAPSHOTS,), "flow_field": (FLOW_FIELD,)}
    if base in standard.get(kind, ()):
        folder = os.path.dirname(path) or "."
        files = _folder_files(folder)
        files[kind] = path
        return Run(path, folder=folder, files=files)
    return Run(path, files={kind: path})


def runs(paths):
    """Runs of several paths, a sweep folder standing for its cases (in case order)."""
    out = []
    for p in paths:
        r = load(p)
        out.extend(r.cases if r.is_sweep else [r])
    return out
