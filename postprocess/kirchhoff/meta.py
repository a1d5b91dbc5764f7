"""Metadata of one dataset: its own `units`, `description` and `kind` attributes first (the
source of truth), the fallback table (kirchhoff.fallback) for whatever the file does not say."""
from . import _h5
from .series import Series


def from_attributes(attrs, fallback):
    """(units, description, kind, source) from a dataset's attributes and a fallback triple
    (units, kind, description). source: "file" (units and kind from the file), "mixed" (one of
    them), "fallback" (neither)."""
    f_units, f_kind, f_desc = fallback
    units = attrs.get("units")
    kind = attrs.get("kind")
    desc = attrs.get("description")
    units = _h5.text(units) if units is not None else None
    kind = _h5.text(kind) if kind is not None else None
    desc = _h5.text(desc) if desc is not None else None
    source = "file" if units is not None and kind is not None else (
        "mixed" if units is not None or kind is not None else "fallback")
    return (units if units is not None else f_units, desc if desc is not None else f_desc,
            kind if kind is not None else f_kind, source)


def series(name, values, attrs, fallback):
    units, desc, kind, source = from_attributes(attrs, fallback)
    return Series(values, name=name, units=units, description=desc, kind=kind, source=source)
