"""ParaView's default XDMF reader (Xdmf3ReaderS, what OpenDataFile picks) on the snapshot and
flow-field indexes of the tiny runs (docs/output.md "Snapshots", "Flow fields"): every .xmf opens
as one unstructured grid per time (no unnamed pieces), with the time steps of snapshots.h5, and
every attribute of every mesh is there with the values stored in the HDF5 file. Needs
python3-paraview (.ci/viewer-packages.sh installs it); exits 77 (skipped) where it is missing."""
import glob
import os
import sys
import unittest

import numpy as np

try:
    from paraview import servermanager
    from paraview.simple import Delete, OpenDataFile
    from vtkmodules.util.numpy_support import vtk_to_numpy
except ImportError as e:  # pragma: no cover
    print(f"test_paraview: skipped, ParaView's Python modules are missing ({e}); "
          "install python3-paraview (bash .ci/viewer-packages.sh)")
    sys.exit(77)

import h5py

RUNS = os.environ.get("KIRCHHOFF_RUNS", "")


def fetch(reader, t):
    reader.UpdatePipeline(t)
    return servermanager.Fetch(reader)


class Snapshots(unittest.TestCase):
    def check_run(self, run, meshes):
        folder = os.path.join(RUNS, run)
        with h5py.File(os.path.join(folder, "snapshots.h5"), "r") as f:
            times = f["time"][()]
            self.assertEqual(sorted(m for m in f.attrs["meshes"].split(",")), sorted(meshes))
            for mesh in meshes:
                g = f[mesh]
                xmf = os.path.abspath(os.path.join(folder, f"snapshots_{mesh}.xmf"))
                r = OpenDataFile(xmf)
                self.assertEqual(r.GetXMLName(), "Xdmf3ReaderS", xmf)
                np.testing.assert_allclose(list(r.TimestepValues), times, rtol=0, atol=1e-12)
                names = [a for a in g.attrs["attributes"].split(",") if a] + \
                        [a for a in g.attrs["vectors"].split(",") if a]
                self.assertTrue(mesh != "vortices" or {"id", "circulation", "velocity"} <= set(names))
                for k in sorted({0, len(times) // 2, len(times) - 1}):
                    d = fetch(r, times[k])
                    self.assertEqual(d.GetClassName(), "vtkUnstructuredGrid", f"{xmf} frame {k}")
                    coords = g["coordinates"][k]
                    self.assertEqual(d.GetNumberOfPoints(), coords.shape[0])
                    self.assertEqual(d.GetNumberOfCells(), int(g.attrs["cells"]))
                    pts = vtk_to_numpy(d.GetPoints().GetData())[:, :coords.shape[1]]
                    np.testing.assert_array_equal(pts, coords)
                    pd = d.GetPointData()
                    got = sorted(pd.GetArrayName(i) for i in range(pd.GetNumberOfArrays()))
                    self.assertEqual(got, sorted(names), f"{xmf} frame {k}")
                    for a in names:
                        v = vtk_to_numpy(pd.GetArray(a))
                        np.testing.assert_array_equal(v.reshape(g[a][k].shape), g[a][k], f"{mesh}/{a} frame {k}")
                Delete(r)

    def test_fluidbody(self):
        self.check_run("disk", ["bodies", "centres", "vortices"])

    def test_slosh_and_damped(self):
        self.check_run("slosh", ["surface"])
        self.check_run("rigidA", ["momentum_direction"])

    def test_flow_field(self):
        folder = os.path.join(RUNS, "fig1")
        xmf = os.path.abspath(os.path.join(folder, "flowfield.xmf"))
        r = OpenDataFile(xmf)
        self.assertEqual(r.GetXMLName(), "Xdmf3ReaderS")
        d = fetch(r, 0.0)
        if d.IsA("vtkMultiBlockDataSet"):
            d = d.GetBlock(0)
        with h5py.File(os.path.join(folder, "flowfield.h5"), "r") as f:
            self.assertIsInstance(f.attrs["time"], (float, np.floating))
            nx, ny = len(f["x"]), len(f["y"])
            self.assertEqual(d.GetNumberOfPoints(), nx * ny)
            pd = d.GetPointData()
            got = sorted(pd.GetArrayName(i) for i in range(pd.GetNumberOfArrays()))
            self.assertEqual(got, sorted(["psi_gamma", "psi_I", "psi_B", "u", "v", "mask"]))
            for a in got:
                np.testing.assert_array_equal(vtk_to_numpy(pd.GetArray(a)).reshape(ny, nx), f[a][()], a)
            b = d.GetBounds()
            np.testing.assert_allclose(b[:4], [f["x"][0], f["x"][-1], f["y"][0], f["y"][-1]], rtol=0, atol=1e-12)
        Delete(r)


if __name__ == "__main__":
    if not RUNS or not glob.glob(os.path.join(RUNS, "*")):
        print("test_paraview: KIRCHHOFF_RUNS does not hold the tiny runs (ctest fixture python_runs)")
        sys.exit(1)
    unittest.main(verbosity=2)
