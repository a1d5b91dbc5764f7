"""A flow field sampled on a grid, OUTDIR/flowfield.h5 of `kirchhoff-fluidbody --flow-field`
(docs/output.md): axes /x (nx), /y (ny), fields (ny, nx) psi_gamma, psi_I, psi_B, u, v and mask,
body outlines /bodies/body_j (k, 2), vortices /vortices/positions (m, 2) and /vortices/K (m)."""
import numpy as np

from . import _h5, fallback, meta
from .errors import LoadError, MissingColumn

FIELDS = ("psi_gamma", "psi_I", "psi_B", "u", "v")


class FlowField:
    """x, y (Series), fields[name] (Series of shape (ny, nx)), mask (ny, nx ints), bodies (list of
    (k, 2) outlines), vortices (m, 2), K (m), time (float), attrs (root attributes)."""

    def __init__(self, path, attrs, x, y, fields, mask, bodies, vortices, K):
        self.path, self.attrs, self.x, self.y = path, attrs, x, y
        self.fields, self.mask, self.bodies, self.vortices, self.K = fields, mask, bodies, vortices, K
        t = attrs.get("time", np.nan)
        try:
            self.time = float(t)
        except (TypeError, ValueError):
            self.time = np.nan

    def __getitem__(self, name):
        if name in self.fields:
            return self.fields[name]
        raise MissingColumn(f"{self.path}: no field '{name}' (fields: {', '.join(self.fields)})")

    def __repr__(self):
        return (f"FlowField({self.path!r}, {len(self.y)} x {len(self.x)} grid, fields {list(self.fields)}, "
                f"{len(self.bodies)} bodies, {len(self.K)} vortices)")


def is_flow_field(f):
    return _h5.text(f.attrs.get("kind", "")) == "flow_field" or ("psi_gamma" in f and "x" in f)


def read(f, path):
    if not is_flow_field(f):
        raise LoadError(f"{path}: not a flow-field file (no kind = flow_field attribute)")
    where = path

    def s(name):
        return meta.series(name, np.asarray(_h5.dataset(f, name, where)), _h5.attributes(f[name]),
                           fallback.FLOW_FIELD.get(name, ("", "diagnostic", "")))

    x, y = s("x"), s("y")
    fields = {n: s(n) for n in FIELDS if n in f}
    for n, v in fields.items():
        if v.shape != (len(y), len(x)):
            raise LoadError(f"{path}: field {n} has shape {v.shape}, expected ({len(y)}, {len(x)})")
    mask = np.asarray(f["mask"][()]) if "mask" in f else np.zeros((len(y), len(x)), dtype=int)
    bodies = []
    if "bodies" in f:
        b = f["bodies"]
        for k in sorted(b, key=lambda n: int(n.split("_")[-1])):
            bodies.append(np.asarray(b[k][()], dtype=float).reshape(-1, 2))
    vortices, K = np.zeros((0, 2)), np.zeros(0)
    if "vortices" in f:
        vortices = np.asarray(f["vortices/positions"][()], dtype=float).reshape(-1, 2)
        K = np.asarray(f["vortices/K"][()], dtype=float).reshape(-1)
    return FlowField(path, _h5.attributes(f), x, y, fields, mask, bodies, vortices, K)
