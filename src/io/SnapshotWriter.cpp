// Snapshot groups /<step>/<mesh>/{coordinates, topology, <attributes>} in HDF5 and an XDMF 3
// temporal collection (Mixed topology: polygons, polylines, point sets) rewritten after each write.
#include "io/SnapshotWriter.hpp"

#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "core/Error.hpp"
#include "core/LogEvents.hpp"
#include "io/Hdf5.hpp"

namespace kirchhoff::io {

namespace fs = std::filesystem;

namespace {

std::string groupName(std::int64_t step) {
  char b[32];
  std::snprintf(b, sizeof b, "step_%010" PRId64, step);
  return b;
}

/// XDMF Mixed topology: per cell a type code (1 polyvertex, 2 polyline, 3 polygon), the
/// number of nodes (for 2 and 3; polyvertex cells carry a count too), then node indices.
std::vector<int> mixedTopology(const SnapshotMesh& m) {
  std::vector<int> t;
  if (m.topology == SnapshotMesh::Topology::Points) {
    for (int i = 0; i < m.pointCount(); ++i) t.insert(t.end(), {1, 1, i});
    return t;
  }
  const int code = m.topology == SnapshotMesh::Topology::Polyline ? 2 : 3;
  int next = 0;
  for (int n : m.cellSizes) {
    t.push_back(code);
    t.push_back(n);
    for (int k = 0; k < n; ++k) t.push_back(next++);
  }
  return t;
}

std::vector<std::string> splitNames(const std::string& s) {
  std::vector<std::string> out;
  std::size_t pos = 0;
  while (pos < s.size()) {
    std::size_t end = s.find(',', pos);
    if (end == std::string::npos) end = s.size();
    out.push_back(s.substr(pos, end - pos));
    pos = end + 1;
  }
  return out;
}

int cellCount(const SnapshotMesh& m) {
  return m.topology == SnapshotMesh::Topology::Points ? m.pointCount()
                                                      : static_cast<int>(m.cellSizes.size());
}

}  // namespace

SnapshotWriter::SnapshotWriter(std::string h5path, std::string xmfPath, std::int64_t restartStep)
    : h5_(std::move(h5path)), xmf_(std::move(xmfPath)) {
  h5::silenceErrors();
  if (restartStep < 0 || !fs::exists(h5_)) {
    h5::Handle f(h5::check(H5Fcreate(h5_.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT),
                           "cannot create " + h5_));
    writeXdmf();
    return;
  }
  // Restart: drop snapshots after restartStep, rebuild the index from what remains.
  h5::Handle f(H5Fopen(h5_.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
  if (!f.valid()) {
    h5::Handle fresh(h5::check(H5Fcreate(h5_.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT),
                               "cannot create " + h5_));
    writeXdmf();
    return;
  }
  H5G_info_t info;
  h5::checkStatus(H5Gget_info(f, &info), "snapshot index");
  std::vector<std::string> names;
  for (hsize_t i = 0; i < info.nlinks; ++i) {
    char buf[64];
    H5Lget_name_by_idx(f, ".", H5_INDEX_NAME, H5_ITER_INC, i, buf, sizeof buf, H5P_DEFAULT);
    names.emplace_back(buf);
  }
  for (const auto& n : names) {
    h5::Handle g(h5::check(H5Gopen2(f, n.c_str(), H5P_DEFAULT), "snapshot " + n));
    const std::int64_t step = h5::readInt64Attribute(g, "step");
    if (step > restartStep) {
      g.close();
      H5Ldelete(f, n.c_str(), H5P_DEFAULT);
      continue;
    }
    Entry e{step, h5::readDoubleAttribute(g, "time"), {}};
    const auto meshes = splitNames(h5::readStringAttribute(g, "meshes"));
    for (const auto& name : meshes) {
      h5::Handle mg(h5::check(H5Gopen2(g, name.c_str(), H5P_DEFAULT), "mesh " + name));
      MeshLayout m;
      m.name = name;
      m.dim = static_cast<int>(h5::readInt64Attribute(mg, "dim"));
      m.points = h5::readInt64Attribute(mg, "points");
      m.cells = h5::readInt64Attribute(mg, "cells");
      h5::Handle top(h5::check(H5Dopen2(mg, "topology", H5P_DEFAULT), "topology"));
      m.topologyLength = static_cast<long>(h5::length(top));
      m.attributes = splitNames(h5::readStringAttribute(mg, "attributes"));
      e.meshes.push_back(std::move(m));
    }
    entries_.push_back(std::move(e));
  }
  writeXdmf();
}

void SnapshotWriter::write(std::int64_t step, double time, const Snapshot& snap) {
  ScopedEvent ev(Phase::Snapshot);
  h5::Handle f(h5::check(H5Fopen(h5_.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), "cannot open " + h5_));
  const std::string gname = groupName(step);
  if (H5Lexists(f, gname.c_str(), H5P_DEFAULT) > 0) H5Ldelete(f, gname.c_str(), H5P_DEFAULT);
  h5::Handle g(h5::check(H5Gcreate2(f, gname.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), "group"));
  h5::writeInt64Attribute(g, "step", step);
  h5::writeDoubleAttribute(g, "time", time);
  std::string meshNames;
  Entry e{step, time, {}};
  for (const auto& m : snap.meshes) {
    meshNames += (meshNames.empty() ? "" : ",") + m.name;
    h5::Handle mg(h5::check(H5Gcreate2(g, m.name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), "mesh"));
    h5::writeInt64Attribute(mg, "dim", m.dim);
    h5::writeInt64Attribute(mg, "topology", static_cast<std::int64_t>(m.topology));
    h5::writeInt64Attribute(mg, "points", m.pointCount());
    h5::writeInt64Attribute(mg, "cells", cellCount(m));
    h5::writeDoubles(mg, "coordinates", m.coordinates);
    const auto topology = mixedTopology(m);
    h5::writeInts(mg, "topology", topology);
    MeshLayout layout{m.name, m.dim, m.pointCount(), cellCount(m), static_cast<long>(topology.size()), {}};
    std::string attrNames;
    for (const auto& [name, values] : m.attributes) {
      if (static_cast<int>(values.size()) != m.pointCount())
        throw Error("snapshot attribute " + name + " needs one value per point", kExitNumerical);
      h5::writeDoubles(mg, name, values);
      attrNames += (attrNames.empty() ? "" : ",") + name;
      layout.attributes.push_back(name);
    }
    h5::writeStringAttribute(mg, "attributes", attrNames);
    e.meshes.push_back(std::move(layout));
  }
  h5::writeStringAttribute(g, "meshes", meshNames);
  h5::checkStatus(H5Fflush(f, H5F_SCOPE_GLOBAL), "flush " + h5_);
  while (!entries_.empty() && entries_.back().step >= step) entries_.pop_back();
  entries_.push_back(std::move(e));
  writeXdmf();
}

void SnapshotWriter::writeXdmf() const {
  const std::string file = fs::path(h5_).filename().string();
  const std::string tmp = xmf_ + ".tmp";
  {
    std::ofstream x(tmp);
    x << "<?xml version=\"1.0\" ?>\n<Xdmf Version=\"3.0\">\n <Domain>\n"
      << "  <Grid Name=\"trajectory\" GridType=\"Collection\" CollectionType=\"Temporal\">\n";
    x.precision(17);
    for (const auto& e : entries_) {
      const std::string g = groupName(e.step);
      x << "   <Grid Name=\"" << g << "\" GridType=\"Collection\" CollectionType=\"Spatial\">\n"
        << "    <Time Value=\"" << e.time << "\"/>\n";
      for (const auto& m : e.meshes) {
        const std::string base = file + ":/" + g + "/" + m.name;
        const long np = m.points;
        const long ntop = m.topologyLength;
        x << "    <Grid Name=\"" << m.name << "\" GridType=\"Uniform\">\n"
          << "     <Topology TopologyType=\"Mixed\" NumberOfElements=\"" << m.cells << "\">\n"
          << "      <DataItem Dimensions=\"" << ntop << "\" NumberType=\"Int\" Format=\"HDF\">"
          << base << "/topology</DataItem>\n     </Topology>\n"
          << "     <Geometry GeometryType=\"" << (m.dim == 2 ? "XY" : "XYZ") << "\">\n"
          << "      <DataItem Dimensions=\"" << np << " " << m.dim
          << "\" NumberType=\"Float\" Precision=\"8\" Format=\"HDF\">" << base
          << "/coordinates</DataItem>\n     </Geometry>\n";
        for (const auto& a : m.attributes)
          x << "     <Attribute Name=\"" << a << "\" Center=\"Node\">\n"
            << "      <DataItem Dimensions=\"" << np << "\" NumberType=\"Float\" Precision=\"8\" "
            << "Format=\"HDF\">" << base << "/" << a << "</DataItem>\n     </Attribute>\n";
        x << "    </Grid>\n";
      }
      x << "   </Grid>\n";
    }
    x << "  </Grid>\n </Domain>\n</Xdmf>\n";
  }
  fs::rename(tmp, xmf_);
}

}  // namespace kirchhoff::io
