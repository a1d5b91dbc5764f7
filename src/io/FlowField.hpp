// HDF5 file of a flow field sampled on a grid (docs/output.md "Flow fields"; Weißmann 2014, Fig. 1):
// grid axes, stream functions psi_gamma, psi_I, psi_B, velocity (u, v), body mask, outlines, vortices.
#pragma once

#include <mpi.h>

#include <string>
#include <utility>
#include <vector>

namespace kirchhoff::io {

/// Plain arrays, no fluid types (io must not depend on src/fluid). Grid fields are row-major
/// (ny, nx): index iy * nx + ix.
struct FlowFieldData {
  std::vector<double> x, y;                                         ///< axes, nx and ny
  std::vector<std::pair<std::string, std::vector<double>>> fields;  ///< e.g. psi_gamma, psi_I, psi_B, u, v
  std::vector<int> mask;           ///< 0 fluid, 1 inside (or at) a body, 2 at a vortex
  std::vector<std::vector<double>> outlines;  ///< per body: x0, y0, x1, y1, ... (spatial vertices)
  std::vector<double> vortices;               ///< x0, y0, x1, y1, ...
  std::vector<double> circulations;           ///< K_i
  std::vector<std::pair<std::string, std::string>> attributes;  ///< root string attributes
  double time = 0.0;                                            ///< root attribute `time` (float64)
};

/// File layout: /x (nx), /y (ny), /<field> and /mask (ny, nx), /bodies/body_<j> (n_j, 2),
/// /vortices/positions (m, 2), /vortices/K (m), root attribute "kind" = "flow_field" plus
/// `attributes` and `time`; every dataset carries units, description and kind, and an XDMF index
/// (path with .xmf, a 2DRectMesh with the grid fields) lets ParaView open it.
/// Rank 0 of `comm` writes path + ".tmp" and renames it to `path` (a crashed
/// writer never leaves a half file under the final name). Collective; throws kirchhoff::Error
/// (exit code kExitData) on every rank if rank 0 fails or the sizes are inconsistent.
void writeFlowField(const std::string& path, const FlowFieldData& data, MPI_Comm comm);

/// Converts any sample with the members of fluid::FlowSample (x, y, psiGamma, psiI, psiB, u, v,
/// mask, outlines, vortexPositions, circulations) without io depending on src/fluid:
///   io::writeFlowField(path, io::flowFieldData(fluid::sampleFlow(...)), comm).
template <class Sample>
FlowFieldData flowFieldData(const Sample& s) {
  FlowFieldData d;
  d.x = s.x;
  d.y = s.y;
  d.fields = {{"psi_gamma", s.psiGamma}, {"psi_I", s.psiI}, {"psi_B", s.psiB}, {"u", s.u}, {"v", s.v}};
  d.mask = s.mask;
  for (const auto& o : s.outlines) {
    std::vector<double> xy;
    for (const auto& p : o) xy.insert(xy.end(), {p.x(), p.y()});
    d.outlines.push_back(std::move(xy));
  }
  for (const auto& p : s.vortexPositions) d.vortices.insert(d.vortices.end(), {p.x(), p.y()});
  d.circulations = s.circulations;
  return d;
}

}  // namespace kirchhoff::io
