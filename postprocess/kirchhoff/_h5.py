"""HDF5 access for the kirchhoff reader: open a file with a clear error, decode strings, read
attributes. The only module of the package (and of postprocess/) that imports h5py."""
import os
import time

import numpy as np

from .errors import LoadError

try:
    import h5py
except ImportError as e:  # pragma: no cover - Debian's python3-h5py is a requirement
    raise ImportError("the kirchhoff reader needs h5py (Debian: apt-get install python3-h5py; "
                      "run the scripts with /usr/bin/python3)") from e


class _HDF5Failed(LoadError):
    """A LoadError from an HDF5 error (which a concurrent write of a live run can cause)."""


def text(v):
    """A string attribute or dataset value as str: fixed-length (bytes, numpy.bytes_) and
    variable-length UTF-8 (str) strings alike; 0-d and 1-element arrays are unwrapped; a 1-D
    array of 8-bit integers (a checkpoint's /deck, 1-D char) is read as its bytes."""
    if isinstance(v, np.ndarray) and v.ndim == 1 and v.dtype.kind in "iu" and v.dtype.itemsize == 1:
        return v.astype(np.uint8).tobytes().decode("utf-8", errors="replace")
    if isinstance(v, np.ndarray) and v.size == 1:
        v = v.reshape(()).item() if v.ndim else v[()]
    if isinstance(v, (bytes, np.bytes_)):
        return bytes(v).decode("utf-8", errors="replace")
    return v if isinstance(v, str) else str(v)


def plain(v):
    """An attribute value as a plain Python value (str, int, float) or numpy array."""
    if isinstance(v, (bytes, np.bytes_, str)):
        return text(v)
    if isinstance(v, np.ndarray):
        if v.dtype.kind in "SUO" and v.size == 1:
            return text(v)
        return v if v.size != 1 else v.reshape(()).item()
    if isinstance(v, np.generic):
        return v.item()
    return v


def attributes(obj):
    """All attributes of an HDF5 object as a dict of plain values."""
    return {k: plain(v) for k, v in obj.attrs.items()}


def is_hdf5(path):
    """True if `path` is an HDF5 file (also with a user block, as checkpoints have)."""
    try:
        return h5py.is_hdf5(path)
    except OSError:
        return False


def open_file(path):
    """Opens `path` read-only; LoadError (not an h5py traceback) when that is impossible."""
    if not os.path.exists(path):
        raise LoadError(f"{path}: no such file")
    if os.path.isdir(path):
        raise LoadError(f"{path}: is a folder, not a file")
    if not is_hdf5(path):
        raise LoadError(f"{path}: not an HDF5 file (kirchhoff writes invariants.h5, snapshots.h5, "
                        "flowfield.h5 and checkpoints/*.h5)")
    try:
        return h5py.File(path, "r")
    except OSError as e:
        raise _HDF5Failed(f"{path}: HDF5 cannot open it ({e}); is the run still writing it, or is "
                          "the file damaged?") from None


# A running kirchhoff writes invariants.h5 at most once a second, opening it for a few ms without
# HDF5's file lock (docs/output.md, "Reading a live run"); snapshots.h5 stays open and is flushed
# about once a second. A read that meets a write fails in HDF5 ("file is already open for
# write", "truncated file", a checksum error) and is tried again for up to LIVE_RETRY_SECONDS,
# if the file changed within the last LIVE_SECONDS (a live run); a damaged old file, or a file
# that is not HDF5 or lacks a part, fails at once.
LIVE_SECONDS = 10.0
LIVE_RETRY_SECONDS = 2.0


def _live(path):
    try:
        return time.time() - os.path.getmtime(path) < LIVE_SECONDS
    except OSError:
        return False


def read(path, reader):
    """reader(f) on the file `path` opened read-only, the file closed afterwards; a failure while
    the file is being written by a live run is retried (see LIVE_SECONDS)."""
    deadline = time.monotonic() + LIVE_RETRY_SECONDS
    while True:
        try:
            with open_file(path) as f:
                return reader(f)
        except (_HDF5Failed, OSError):
            if not _live(path) or time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def dataset(group, name, where):
    """group[name] read into memory, or a LoadError naming the file and what is missing."""
    if name not in group:
        raise LoadError(f"{where}: no dataset '{name}'")
    obj = group[name]
    if not isinstance(obj, h5py.Dataset):
        raise LoadError(f"{where}: '{name}' is a group, expected a dataset")
    try:
        return obj[()]
    except OSError as e:
        raise _HDF5Failed(f"{where}: cannot read '{name}' ({e}); the file may be damaged") from None


def is_dataset(obj):
    return isinstance(obj, h5py.Dataset)


def is_group(obj):
    return isinstance(obj, h5py.Group)
