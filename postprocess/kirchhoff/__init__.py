"""Reader for kirchhoff output files (docs/output.md): one entry point for the invariant log, the
snapshots, flow fields and checkpoints, as numpy arrays that carry units and kinds.

    import kirchhoff
    run = kirchhoff.load("out/fluidbody_disk_vortex")      # a run folder, a sweep folder or a file
    E = run.log["energy"]                                 # Series: E.units, E.kind, E.description
    run.log.of_kind("conserved")                          # ['energy', 'momentum_x', ...]
    run.snapshots.points("vortices")                      # (T, m, 2)
    kirchhoff.load("out/fig1/flowfield.h5").flow_field["psi_I"]

Use Debian's /usr/bin/python3 (numpy, h5py; python3-yaml for the deck), with PYTHONPATH=postprocess
or after `pip install --user ./postprocess`. Errors are kirchhoff.LoadError with a one-line message.
"""
from . import fallback
from .checkpoint import Checkpoint
from .errors import LoadError, MissingColumn
from .flowfield import FlowField
from .log import Log
from .run import Run, load, runs
from .series import KINDS, Series
from .snapshots import Frame, Mesh, Snapshots

__version__ = "0.1.0"
__all__ = ["load", "runs", "LoadError", "MissingColumn", "Run", "Log", "Series", "Snapshots", "Frame", "Mesh",
           "FlowField", "Checkpoint", "KINDS", "fallback"]
