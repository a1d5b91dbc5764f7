"""The invariant log OUTDIR/invariants.h5: group /invariants with equal-length 1-D datasets `step`,
`time` and one per quantity (order in the group attribute `columns`), root attributes describing
the run (docs/output.md). Read into Series ordered by step."""
from collections.abc import Mapping

import numpy as np

from . import _h5, fallback, meta
from .errors import LoadError, MissingColumn


class Log(Mapping):
    """Columns of an invariant log by name ('step', 'time', then the model's columns in order).

    log["energy"] is a Series (numpy array with .units, .kind, .description, .source);
    log.names lists the model's columns; log.of_kind("conserved") those of one kind."""

    def __init__(self, path, model, columns, warnings):
        self.path = path
        self.model = model
        self._columns = columns
        self.names = [n for n in columns if n not in ("step", "time")]
        self.warnings = warnings

    def __getitem__(self, name):
        try:
            return self._columns[name]
        except KeyError:
            raise MissingColumn(f"{self.path}: no column '{name}' (columns: {', '.join(self.names)})") from None

    def __iter__(self):
        return iter(self._columns)

    def __len__(self):
        return len(self._columns)

    @property
    def step(self):
        return self._columns["step"]

    @property
    def time(self):
        return self._columns["time"]

    @property
    def rows(self):
        return len(self._columns["step"])

    def of_kind(self, kind):
        return [n for n in self.names if self._columns[n].kind == kind]

    @property
    def units(self):
        """{column: units} ('1': dimensionless), from the file when it says so."""
        return {n: c.units for n, c in self._columns.items()}

    @property
    def kinds(self):
        """{column: kind} (conserved, diagnostic, solver, coordinate)."""
        return {n: c.kind for n, c in self._columns.items()}

    def __repr__(self):
        return f"Log({self.path!r}, model={self.model}, rows={self.rows}, columns={self.names})"


def read(f, path, model, deck):
    """Reads the log from the open file `f` (h5py.File). `deck` (parsed, or None) resolves the
    configuration-dependent kinds of the fallback table."""
    if "invariants" not in f or not _h5.is_group(f["invariants"]):
        raise LoadError(f"{path}: no /invariants group: not an invariant log")
    g = f["invariants"]
    order = _h5.text(g.attrs.get("columns", ""))
    names = [n for n in order.split(",") if n] or sorted(k for k in g if k not in ("step", "time"))
    where = f"{path}:/invariants"
    raw = {k: np.asarray(_h5.dataset(g, k, where)) for k in ["step", "time"] + names}
    warnings = []
    lengths = {k: v.shape[0] if v.ndim else 1 for k, v in raw.items()}
    n = min(lengths.values())
    if len(set(lengths.values())) > 1:
        warnings.append(f"{where}: columns of unequal length {sorted(set(lengths.values()))}; "
                        f"read the first {n} rows (was the run killed while writing?)")
    raw = {k: v.reshape(-1)[:n] for k, v in raw.items()}
    steps = raw["step"]
    if n > 1 and np.any(np.diff(steps) <= 0):
        order = np.argsort(steps, kind="stable")
        raw = {k: v[order] for k, v in raw.items()}
        warnings.append(f"{where}: rows were not in step order; sorted")
    columns = {}
    for k, v in raw.items():
        if k == "step":
            v = v.astype(np.int64)
        columns[k] = meta.series(k, v, _h5.attributes(g[k]), fallback.lookup(model, k, deck))
    return Log(path, model, columns, warnings)
