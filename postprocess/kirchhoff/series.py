"""Series: a numpy array that carries the metadata of one logged quantity (name, units,
description, kind and where that metadata came from). Arithmetic returns plain arrays, so a
derived quantity never carries a label that no longer describes it."""
import numpy as np

KINDS = ("conserved", "diagnostic", "solver", "coordinate", "metadata")


class Series(np.ndarray):
    """1-D (or grid) values with `name`, `units` ("1": dimensionless), `description`, `kind`
    (conserved: constant along the exact flow, plotted as the error against its initial value;
    diagnostic: plotted as its value; solver: iteration counts and residuals; coordinate: step,
    time, grid axes; metadata: topology, names, flags) and `source` ("file": read from the dataset's attributes; "fallback": from
    kirchhoff.fallback for files written before the attributes existed)."""

    _meta = ("name", "units", "description", "kind", "source")

    def __new__(cls, values, name="", units="", description="", kind="diagnostic", source="fallback"):
        obj = np.asarray(values).view(cls)
        obj.name, obj.units, obj.description, obj.kind, obj.source = name, units, description, kind, source
        return obj

    def __array_finalize__(self, obj):
        for a in self._meta:
            setattr(self, a, getattr(obj, a, ""))

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        # Compute on plain arrays: results are plain ndarrays (or scalars).
        inputs = tuple(np.asarray(x) if isinstance(x, Series) else x for x in inputs)
        if "out" in kwargs:
            kwargs["out"] = tuple(np.asarray(x) if isinstance(x, Series) else x for x in kwargs["out"])
        return getattr(ufunc, method)(*inputs, **kwargs)

    def __reduce__(self):
        state = super().__reduce__()
        return state[0], state[1], state[2] + tuple(getattr(self, a) for a in self._meta)

    def __setstate__(self, state):
        *base, n, u, d, k, s = state
        super().__setstate__(tuple(base))
        self.name, self.units, self.description, self.kind, self.source = n, u, d, k, s

    @property
    def values(self):
        """The data as a plain numpy array."""
        return np.asarray(self)

    @property
    def label(self):
        """'name [units]' for axis labels ('name' alone when dimensionless)."""
        return self.name if self.units in ("", "1") else f"{self.name} [{self.units}]"

    def __repr__(self):
        return (f"Series({self.name!r}, {self.kind}, units={self.units!r}, n={self.size}, "
                f"source={self.source}: {self.description})")
