#!/usr/bin/python3
"""Bitwise comparison of kirchhoff outputs, used by the regression scripts.

  h5compare.py logs A/invariants.h5 B/invariants.h5   every /invariants dataset identical
  h5compare.py state A/checkpoints B/checkpoints      newest checkpoints: same step and state
  h5compare.py snapshots A/snapshots.h5 B/snapshots.h5  every snapshot dataset identical
  h5compare.py newest DIR                             prints the step of the newest checkpoint
"""
import glob
import os
import sys

import h5py
import numpy as np


def newest(d):
    files = sorted(glob.glob(os.path.join(d, "checkpoint_*.h5")))
    if not files:
        sys.exit(f"no checkpoint in {d}")
    return files[-1]


def same(a, b, what):
    if a.shape != b.shape or a.dtype != b.dtype or a.tobytes() != b.tobytes():
        diff = np.max(np.abs(a.astype(float) - b.astype(float))) if a.shape == b.shape else "shape"
        sys.exit(f"{what} differs: {a.shape} vs {b.shape}, max |diff| {diff}")


def logs(a, b):
    with h5py.File(a, "r") as fa, h5py.File(b, "r") as fb:
        ka, kb = sorted(fa["invariants"]), sorted(fb["invariants"])
        if ka != kb:
            sys.exit(f"columns differ: {ka} vs {kb}")
        for k in ka:
            same(fa["invariants"][k][:], fb["invariants"][k][:], f"log column {k}")
        print(f"logs identical: {len(ka)} columns x {fa['invariants']['step'].shape[0]} rows")


def snapshots(a, b):
    with h5py.File(a, "r") as fa, h5py.File(b, "r") as fb:
        def datasets(f):
            out = []
            f.visititems(lambda n, o: out.append(n) if isinstance(o, h5py.Dataset) else None)
            return sorted(out)
        ka, kb = datasets(fa), datasets(fb)
        if ka != kb:
            sys.exit(f"snapshot datasets differ: {ka} vs {kb}")
        for k in ka:
            if fa[k].dtype.kind == "O":
                if np.asarray(fa[k][()]).reshape(-1).tolist() != np.asarray(fb[k][()]).reshape(-1).tolist():
                    sys.exit(f"snapshot dataset {k} differs")
            else:
                same(fa[k][()], fb[k][()], f"snapshot dataset {k}")
        print(f"snapshots identical: {len(ka)} datasets x {fa['step'].shape[0]} frames")


def state(a, b):
    pa, pb = newest(a), newest(b)
    with h5py.File(pa, "r") as fa, h5py.File(pb, "r") as fb:
        if fa.attrs["step"] != fb.attrs["step"]:
            sys.exit(f"final steps differ: {fa.attrs['step']} vs {fb.attrs['step']}")
        for k in sorted(fa["state"]):
            same(fa["state"][k][:], fb["state"][k][:], f"state field {k}")
        print(f"states identical at step {fa.attrs['step']}")


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "logs":
        logs(sys.argv[2], sys.argv[3])
    elif cmd == "snapshots":
        snapshots(sys.argv[2], sys.argv[3])
    elif cmd == "state":
        state(sys.argv[2], sys.argv[3])
    elif cmd == "newest":
        with h5py.File(newest(sys.argv[2]), "r") as f:
            print(int(f.attrs["step"]))
    else:
        sys.exit(f"unknown command {cmd}")
