"""A checkpoint OUTDIR/checkpoints/checkpoint_<step>.h5 (docs/output.md): root attributes format,
model, step, time, dt, deck_hash, state_hash, nranks and group /state with one 1-D dataset per
state field (the model's one-step state). The 512-byte seal in front of the HDF5 data is
skipped by HDF5 itself; this reader does not check it (the drivers do, on --restart)."""
import numpy as np

from . import _h5
from .errors import LoadError


class Checkpoint:
    def __init__(self, path, attrs, state):
        self.path, self.attrs, self.state = path, attrs, state
        self.model = attrs.get("model", "")
        self.step = int(attrs.get("step", -1))
        self.time = float(attrs.get("time", np.nan))

    def __getitem__(self, name):
        return self.state[name]

    def __repr__(self):
        return f"Checkpoint({self.path!r}, {self.model}, step {self.step}, t = {self.time:g}, fields {list(self.state)})"


def is_checkpoint(f):
    return "state" in f and _h5.text(f.attrs.get("format", "")).startswith("kirchhoff-checkpoint")


def read(f, path):
    if not is_checkpoint(f):
        raise LoadError(f"{path}: not a kirchhoff checkpoint (no format attribute and /state group)")
    g = f["state"]
    state = {k: np.asarray(_h5.dataset(g, k, f"{path}:/state")) for k in g}
    return Checkpoint(path, _h5.attributes(f), state)
