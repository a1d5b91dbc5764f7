"""Trajectory snapshots OUTDIR/snapshots.h5 (docs/output.md "Snapshots").

Format kirchhoff-snapshots-2 (root attribute `format`): /step, /time, /end_of_run (one row per
frame) and per mesh (bodies, centres, vortices, surface, pendulum, chain, momentum_direction) a
group with `coordinates` (T, n, dim), an XDMF Mixed `topology` (written once), one (T, n)
dataset per point attribute (mesh attribute `attributes`), one (T, n, dim) dataset per vector
(`vectors`, e.g. velocity) and optionally `cell_names`. Older files (kirchhoff 0.1): one group
/step_NNNNNNNNNN per snapshot with the same datasets for that frame alone; both are read."""
import numpy as np

from . import _h5, fallback, meta
from .errors import LoadError

TOPOLOGY = {0: "points", 1: "polyline", 2: "polygon"}


class Mesh:
    """One mesh of one snapshot: points (n, dim), cells (point counts per polygon / polyline; one
    per point for a point set), attributes (name -> Series, one value per point)."""

    def __init__(self, name, topology, points, cells, attributes, cell_names=None):
        self.name, self.topology, self.points, self.cells, self.attributes = (
            name, topology, points, cells, attributes)
        self.cell_names = list(cell_names or [])

    def split(self):
        """The points grouped by cell: a list of (k, dim) arrays (one per body outline, ...)."""
        out, start = [], 0
        for n in self.cells:
            out.append(self.points[start:start + n])
            start += n
        return out

    def __repr__(self):
        return f"Mesh({self.name}, {self.topology}, {len(self.points)} points, attributes {list(self.attributes)})"


class Frame:
    def __init__(self, group, step, time, meshes):
        self.group, self.step, self.time, self.meshes = group, step, time, meshes

    def __getitem__(self, name):
        return self.meshes[name]

    def __contains__(self, name):
        return name in self.meshes

    def __repr__(self):
        return f"Frame(step {self.step}, t = {self.time:g}, meshes {list(self.meshes)})"


def group_names(f):
    """Snapshot group names of an open snapshots.h5 in step order."""
    return sorted((k for k in f if k.startswith("step_")), key=lambda s: int(s[5:]))


def cell_sizes(topology, npoints):
    """Point counts per cell from an XDMF Mixed topology list (1 1 i: a point; 2|3 n i...: a
    polyline or polygon of n points)."""
    t = np.asarray(topology).reshape(-1)
    sizes, k = [], 0
    while k + 1 < len(t):
        code, n = int(t[k]), int(t[k + 1])
        sizes.append(1 if code == 1 else n)
        k += 2 + (1 if code == 1 else n)
    return sizes if sizes else [npoints]


def outlines_from_group(g):
    """Per-body (k, 2) outlines of a snapshot group's `bodies` mesh (by its `body` attribute)."""
    xy = np.asarray(g["bodies/coordinates"][()]).reshape(-1, 2)
    body = np.asarray(g["bodies/body"][()]).astype(int)
    return [xy[body == j] for j in range(body.max() + 1)] if len(body) else []


def _mesh(g, name, where):
    mg = g[name]
    a = _h5.attributes(mg)
    dim = int(a.get("dim", 2))
    coords = np.asarray(_h5.dataset(mg, "coordinates", f"{where}/{name}"), dtype=float)
    points = coords.reshape(-1, dim)
    topo = TOPOLOGY.get(int(a.get("topology", 0)), "points")
    cells = cell_sizes(_h5.dataset(mg, "topology", f"{where}/{name}"), len(points)) if "topology" in mg else [len(points)]
    attrs = {}
    for an in [s for s in _h5.text(a.get("attributes", "")).split(",") if s]:
        if an in mg:
            attrs[an] = meta.series(an, np.asarray(mg[an][()]), _h5.attributes(mg[an]),
                                    fallback.SNAPSHOT.get(an, ("", "diagnostic", "")))
    return Mesh(name, topo, points, cells, attrs)


class Snapshots:
    """All snapshots of a run: frames[i] (Frame: step, time, meshes), steps, times, and per mesh
    the stacked points(mesh) (T, n, dim) and attribute(mesh, name) (T, n) when the point count
    does not change."""

    def __init__(self, path, frames):
        self.path = path
        self.frames = frames
        self.steps = np.array([fr.step for fr in frames], dtype=np.int64)
        self.times = np.array([fr.time for fr in frames], dtype=float)
        names = []
        for fr in frames:
            names += [m for m in fr.meshes if m not in names]
        self.mesh_names = names

    def __len__(self):
        return len(self.frames)

    def __getitem__(self, i):
        return self.frames[i]

    def _stack(self, mesh, get):
        rows = [get(fr.meshes[mesh]) if mesh in fr.meshes else None for fr in self.frames]
        if any(r is None for r in rows):
            raise LoadError(f"{self.path}: mesh '{mesh}' is missing in some snapshots")
        shapes = {r.shape for r in rows}
        if len(shapes) > 1:
            raise LoadError(f"{self.path}: mesh '{mesh}' changes its point count between snapshots; "
                            "use frames[i].meshes instead")
        return np.stack(rows) if rows else np.zeros((0,))

    def points(self, mesh):
        """(T, n, dim) coordinates of `mesh` over the snapshots."""
        return self._stack(mesh, lambda m: m.points)

    def attribute(self, mesh, name):
        """(T, n) values of point attribute `name` of `mesh` over the snapshots."""
        def get(m):
            if name not in m.attributes:
                raise LoadError(f"{self.path}: mesh '{mesh}' has no attribute '{name}' "
                                f"(has: {', '.join(m.attributes)})")
            return np.asarray(m.attributes[name])
        return self._stack(mesh, get)

    def __repr__(self):
        return f"Snapshots({self.path!r}, {len(self)} frames, meshes {self.mesh_names})"


def _read_v2(f, path):
    """Format 2: stacked per-mesh datasets; frames share the arrays (views, no copies)."""
    where = path
    steps = np.asarray(_h5.dataset(f, "step", where)).astype(np.int64).reshape(-1)
    times = np.asarray(_h5.dataset(f, "time", where), dtype=float).reshape(-1)
    T = min(len(steps), len(times))
    meshes = {}
    for name in [m for m in _h5.text(f.attrs.get("meshes", "")).split(",") if m]:
        if name not in f:
            continue
        mg = f[name]
        a = _h5.attributes(mg)
        w = f"{path}:/{name}"
        dim = int(a.get("dim", 2))
        coords = np.asarray(_h5.dataset(mg, "coordinates", w), dtype=float)
        topo = TOPOLOGY.get(int(a.get("topology", 0)), "points")
        cells = cell_sizes(_h5.dataset(mg, "topology", w), coords.shape[1] if coords.ndim > 1 else 0)
        series = {}
        for an in [x for x in _h5.text(a.get("attributes", "")).split(",") if x] + \
                [x for x in _h5.text(a.get("vectors", "")).split(",") if x]:
            if an in mg:
                series[an] = (np.asarray(mg[an][()]), _h5.attributes(mg[an]))
        names = [_h5.text(v) for v in mg["cell_names"][()]] if "cell_names" in mg else []
        T = min([T, coords.shape[0]] + [v.shape[0] for v, _ in series.values()])
        meshes[name] = (dim, coords, topo, cells, series, names)
    frames = []
    for k in range(T):
        fm = {}
        for name, (dim, coords, topo, cells, series, names) in meshes.items():
            attrs = {an: meta.series(an, v[k], at, fallback.SNAPSHOT.get(an, ("", "diagnostic", "")))
                     for an, (v, at) in series.items()}
            fm[name] = Mesh(name, topo, coords[k].reshape(-1, dim), cells, attrs, names)
        frames.append(Frame(f"frame {k}", int(steps[k]), float(times[k]), fm))
    return Snapshots(path, frames)


def read(f, path):
    if _h5.text(f.attrs.get("format", "")).startswith("kirchhoff-snapshots-"):
        return _read_v2(f, path)
    names = group_names(f)
    if not names:
        other = [k for k in f]
        if other:
            raise LoadError(f"{path}: no /step_* snapshot groups (found {', '.join(other[:5])}): "
                            "a snapshot layout this reader does not know")
    frames = []
    for n in names:
        g = f[n]
        a = _h5.attributes(g)
        where = f"{path}:/{n}"
        mesh_names = [m for m in _h5.text(a.get("meshes", "")).split(",") if m] or list(g)
        meshes = {m: _mesh(g, m, where) for m in mesh_names if m in g}
        frames.append(Frame(n, int(a.get("step", int(n[5:]))), float(a.get("time", np.nan)), meshes))
    return Snapshots(path, frames)
