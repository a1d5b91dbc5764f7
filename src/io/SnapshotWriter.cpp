// snapshots.h5 layout "kirchhoff-snapshots-2": /step, /time, /end_of_run (one row per frame) and
// per mesh /<mesh>/{coordinates (T, n, dim), topology (XDMF Mixed, once), <scalar> (T, n),
// <vector> (T, n, dim), cell_names}; the per-mesh XDMF files select frame k by hyperslab.
#include "io/SnapshotWriter.hpp"

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <filesystem>
#include <sstream>

#include "core/Error.hpp"
#include "core/LogEvents.hpp"
#include "io/NoFollow.hpp"

namespace kirchhoff::io {

namespace fs = std::filesystem;

namespace {

constexpr const char* kSnapshotFormat = "kirchhoff-snapshots-2";
constexpr const char* kTail = "  </Grid>\n </Domain>\n</Xdmf>\n";
constexpr double kFlushSeconds = 1.0;

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
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

int cellCount(const SnapshotMesh& m) {
  return m.topology == SnapshotMesh::Topology::Points ? m.pointCount()
                                                      : static_cast<int>(m.cellSizes.size());
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

std::string joinNames(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& n : v) s += (s.empty() ? "" : ",") + n;
  return s;
}

/// Rows per chunk: about 64 KiB per chunk (few chunks, a shallow chunk index).
hsize_t chunkRows(std::size_t rowBytes) {
  return static_cast<hsize_t>(std::max<std::size_t>(1, 65536 / std::max<std::size_t>(rowBytes, 1)));
}

void describeAs(hid_t obj, const Quantity& q) { h5::describe(obj, q.units, q.description, q.kind); }

/// What the snapshot's model says `name` is; plain positions or a neutral entry if it says nothing.
Quantity quantityOf(const Snapshot& snap, const std::string& name) {
  for (const auto& q : snap.quantities)
    if (q.name == name) return q;
  if (name == "coordinates") return Quantity{name, "1", "point coordinates (dim per point)", "coordinate", false};
  return Quantity{name, "", "", "diagnostic", false};
}

std::vector<std::int32_t> toInts(const std::vector<double>& v) {
  std::vector<std::int32_t> r(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) r[i] = static_cast<std::int32_t>(v[i]);
  return r;
}

}  // namespace

SnapshotWriter::SnapshotWriter(std::string h5path, std::string xmfPrefix, std::int64_t restartStep,
                               const std::map<std::string, std::string>& provenance,
                               std::string* warning, Quantity time)
    : h5_(std::move(h5path)), xmfPrefix_(std::move(xmfPrefix)), time_(std::move(time)) {
  h5::silenceErrors();
  if (fs::path(xmfPrefix_).extension() == ".xmf") xmfPrefix_ = fs::path(xmfPrefix_).replace_extension().string();
  std::string why;
  if (restartStep >= 0 && fs::exists(h5_)) {
    if (reopen(restartStep, &why)) {
      openSets();
      openXdmf(true);
      return;
    }
    std::error_code ec;
    const std::string aside = h5_ + ".unreadable-" + std::to_string(restartStep);
    fs::rename(h5_, aside, ec);
    if (warning)
      *warning = h5_ + " is unusable (" + why + "): kept aside as " + aside + "; new snapshots start at step " +
                 std::to_string(restartStep + 1);
  }
  createFile(provenance);
}

SnapshotWriter::SnapshotWriter(SnapshotWriter&& o) noexcept
    : h5_(std::move(o.h5_)), xmfPrefix_(std::move(o.xmfPrefix_)), time_(std::move(o.time_)),
      file_(std::move(o.file_)), stepSet_(std::move(o.stepSet_)), timeSet_(std::move(o.timeSet_)),
      endSet_(std::move(o.endSet_)), meshes_(std::move(o.meshes_)), times_(std::move(o.times_)),
      frames_(o.frames_), lastStep_(o.lastStep_), indexed_(o.indexed_), lastFlush_(o.lastFlush_),
      xmf_(std::move(o.xmf_)) {
  o.xmf_.clear();
}

SnapshotWriter& SnapshotWriter::operator=(SnapshotWriter&& o) noexcept {
  if (this != &o) {
    for (auto& x : xmf_)
      if (x.file) std::fclose(x.file);
    h5_ = std::move(o.h5_);
    xmfPrefix_ = std::move(o.xmfPrefix_);
    time_ = std::move(o.time_);
    file_ = std::move(o.file_);
    stepSet_ = std::move(o.stepSet_);
    timeSet_ = std::move(o.timeSet_);
    endSet_ = std::move(o.endSet_);
    meshes_ = std::move(o.meshes_);
    times_ = std::move(o.times_);
    frames_ = o.frames_;
    lastStep_ = o.lastStep_;
    indexed_ = o.indexed_;
    lastFlush_ = o.lastFlush_;
    xmf_ = std::move(o.xmf_);
    o.xmf_.clear();
  }
  return *this;
}

SnapshotWriter::~SnapshotWriter() {
  try {
    if (file_.valid()) flush();
  } catch (...) {
    // Destructors must not throw; a failed write was already reported by write() or flush().
  }
  for (auto& x : xmf_)
    if (x.file) std::fclose(x.file);
  for (auto& m : meshes_) m.sets.clear();  // datasets before the file
  endSet_.close();
  timeSet_.close();
  stepSet_.close();
}

void SnapshotWriter::openSets() {
  stepSet_ = h5::Handle(h5::check(H5Dopen2(file_, "step", H5P_DEFAULT), "step"));
  timeSet_ = h5::Handle(h5::check(H5Dopen2(file_, "time", H5P_DEFAULT), "time"));
  endSet_ = h5::Handle(h5::check(H5Dopen2(file_, "end_of_run", H5P_DEFAULT), "end_of_run"));
  for (auto& m : meshes_) {
    m.sets.clear();
    h5::Handle g(h5::check(H5Gopen2(file_, m.name.c_str(), H5P_DEFAULT), "mesh " + m.name));
    std::vector<std::string> all = {"coordinates"};
    all.insert(all.end(), m.scalars.begin(), m.scalars.end());
    all.insert(all.end(), m.vectors.begin(), m.vectors.end());
    for (const auto& a : all)
      m.sets.emplace_back(h5::check(H5Dopen2(g, a.c_str(), H5P_DEFAULT), m.name + "/" + a));
  }
}

void SnapshotWriter::createFile(const std::map<std::string, std::string>& provenance) {
  // Index files of an earlier run in this folder (other meshes, the old single snapshots.xmf).
  const fs::path dir = fs::path(h5_).parent_path().empty() ? fs::path(".") : fs::path(h5_).parent_path();
  const std::string stem = fs::path(xmfPrefix_).filename().string();
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string n = e.path().filename().string();
    if (e.path().extension() == ".xmf" && (n == stem + ".xmf" || n.rfind(stem + "_", 0) == 0))
      fs::remove(e.path(), ec);
  }
  file_ = h5::Handle(h5::createOutput(h5_, false));
  h5::writeTextAttribute(file_, "format", kSnapshotFormat);
  for (const auto& [k, v] : provenance) {
    if (k == "deck") {
      h5::writeTextDataset(file_, "deck", v);
      h5::Handle d(h5::check(H5Dopen2(file_, "deck", H5P_DEFAULT), "deck"));
      h5::describe(d, "", "the deck text (YAML) of the run", "metadata");
    } else if (k == "nranks") {
      h5::writeInt64Attribute(file_, k, std::stoll(v));
    } else {
      h5::writeTextAttribute(file_, k, v);
    }
  }
  h5::Handle s(h5::createRows(file_, "step", H5T_NATIVE_INT64, {}, 512));
  describeAs(s, stepQuantity());
  h5::Handle t(h5::createRows(file_, "time", H5T_NATIVE_DOUBLE, {}, 512));
  describeAs(t, time_);
  h5::Handle e(h5::createRows(file_, "end_of_run", H5T_NATIVE_INT8, {}, 4096));
  h5::describe(e, "1", "1: a frame written only because the run ended off the snapshot grid", "metadata");
  h5::checkStatus(H5Fflush(file_, H5F_SCOPE_GLOBAL), "flush " + h5_);
  openSets();
}

bool SnapshotWriter::reopen(std::int64_t restartStep, std::string* why) {
  try {
    file_ = h5::Handle(h5::openOutput(h5_, H5F_ACC_RDWR));
    if (!h5::hasAttribute(file_, "format") || h5::readStringAttribute(file_, "format") != kSnapshotFormat) {
      *why = h5_ + " is not a " + std::string(kSnapshotFormat) + " file (written by an older version)";
      file_.close();
      return false;
    }
    const auto steps = h5::readInt64s(file_, "step");
    times_ = h5::readDoubles(file_, "time");
    std::vector<std::int8_t> end(steps.size(), 0);
    {
      h5::Handle d(h5::check(H5Dopen2(file_, "end_of_run", H5P_DEFAULT), "end_of_run"));
      const hsize_t n = std::min<hsize_t>(h5::length(d), end.size());
      if (n > 0) {
        h5::Handle fs_(h5::check(H5Dget_space(d), "space"));
        hsize_t start[1] = {0}, count[1] = {n};
        H5Sselect_hyperslab(fs_, H5S_SELECT_SET, start, nullptr, count, nullptr);
        h5::Handle ms(h5::check(H5Screate_simple(1, count, nullptr), "space"));
        h5::checkStatus(H5Dread(d, H5T_NATIVE_INT8, ms, fs_, H5P_DEFAULT, end.data()), "read end_of_run");
      }
    }
    // Frames kept: those at or before the restart step (not an end-of-run frame), and only as
    // many as every dataset holds (a kill between two dataset writes leaves ragged rows).
    std::size_t keep = 0;
    while (keep < steps.size() && keep < times_.size() && steps[keep] <= restartStep &&
           !(end[keep] && steps[keep] == restartStep))
      ++keep;
    std::vector<std::string> names;
    if (h5::hasAttribute(file_, "meshes")) names = splitNames(h5::readStringAttribute(file_, "meshes"));
    meshes_.clear();
    for (const auto& name : names) {
      h5::Handle g(h5::check(H5Gopen2(file_, name.c_str(), H5P_DEFAULT), "mesh " + name));
      MeshLayout m;
      m.name = name;
      m.dim = static_cast<int>(h5::readInt64Attribute(g, "dim"));
      m.topology = static_cast<int>(h5::readInt64Attribute(g, "topology"));
      m.points = h5::readInt64Attribute(g, "points");
      m.cells = h5::readInt64Attribute(g, "cells");
      h5::Handle top(h5::check(H5Dopen2(g, "topology", H5P_DEFAULT), "topology of " + name));
      m.topologyLength = static_cast<long>(h5::length(top));
      m.scalars = splitNames(h5::readStringAttribute(g, "attributes"));
      m.vectors = splitNames(h5::readStringAttribute(g, "vectors"));
      std::vector<std::string> all = {"coordinates"};
      all.insert(all.end(), m.scalars.begin(), m.scalars.end());
      all.insert(all.end(), m.vectors.begin(), m.vectors.end());
      for (const auto& a : all) {
        h5::Handle d(h5::check(H5Dopen2(g, a.c_str(), H5P_DEFAULT), name + "/" + a));
        keep = std::min<std::size_t>(keep, h5::shape(d).at(0));
        if (std::find(m.scalars.begin(), m.scalars.end(), a) != m.scalars.end() && h5::isInteger(d))
          m.integers.push_back(a);
      }
      meshes_.push_back(std::move(m));
    }
    for (const char* n : {"step", "time", "end_of_run"}) {
      h5::Handle d(h5::check(H5Dopen2(file_, n, H5P_DEFAULT), n));
      h5::setRows(d, keep);
    }
    for (const auto& m : meshes_) {
      h5::Handle g(h5::check(H5Gopen2(file_, m.name.c_str(), H5P_DEFAULT), "mesh " + m.name));
      std::vector<std::string> all = {"coordinates"};
      all.insert(all.end(), m.scalars.begin(), m.scalars.end());
      all.insert(all.end(), m.vectors.begin(), m.vectors.end());
      for (const auto& a : all) {
        h5::Handle d(h5::check(H5Dopen2(g, a.c_str(), H5P_DEFAULT), m.name + "/" + a));
        h5::setRows(d, keep);
      }
    }
    times_.resize(keep);
    frames_ = static_cast<std::int64_t>(keep);
    lastStep_ = keep ? steps[keep - 1] : -1;
    h5::writeInt64Attribute(file_, "restarts",
                            (h5::hasAttribute(file_, "restarts") ? h5::readInt64Attribute(file_, "restarts") : 0) + 1);
    h5::checkStatus(H5Fflush(file_, H5F_SCOPE_GLOBAL), "flush " + h5_);
    return true;
  } catch (const Error& e) {
    *why = e.what();
    file_.close();
    meshes_.clear();
    times_.clear();
    frames_ = 0;
    lastStep_ = -1;
    return false;
  }
}

void SnapshotWriter::defineMeshes(const Snapshot& snap) {
  std::vector<std::string> names;
  for (const auto& m : snap.meshes) {
    names.push_back(m.name);
    if (H5Lexists(file_, m.name.c_str(), H5P_DEFAULT) > 0) H5Ldelete(file_, m.name.c_str(), H5P_DEFAULT);
    h5::Handle g(h5::check(H5Gcreate2(file_, m.name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                           "create mesh " + m.name));
    MeshLayout L;
    L.name = m.name;
    L.dim = m.dim;
    L.topology = static_cast<int>(m.topology);
    L.points = m.pointCount();
    L.cells = cellCount(m);
    const auto topology = mixedTopology(m);
    L.topologyLength = static_cast<long>(topology.size());
    h5::writeInt64Attribute(g, "dim", L.dim);
    h5::writeInt64Attribute(g, "topology", L.topology);
    h5::writeInt64Attribute(g, "points", L.points);
    h5::writeInt64Attribute(g, "cells", L.cells);
    h5::writeInts(g, "topology", topology);
    {
      h5::Handle d(h5::check(H5Dopen2(g, "topology", H5P_DEFAULT), "topology"));
      h5::describe(d, "1", "XDMF Mixed topology: per cell a type code (1 point, 2 polyline, 3 polygon), "
                   "the point count, the point indices", "metadata");
    }
    const hsize_t n = static_cast<hsize_t>(L.points), dim = static_cast<hsize_t>(L.dim);
    {
      h5::Handle d(h5::createRows(g, "coordinates", H5T_NATIVE_DOUBLE, {n, dim}, chunkRows(n * dim * 8)));
      describeAs(d, quantityOf(snap, "coordinates"));
    }
    for (const auto& [name, values] : m.attributes) {
      const Quantity q = quantityOf(snap, name);
      h5::Handle d(h5::createRows(g, name, q.integer ? H5T_NATIVE_INT32 : H5T_NATIVE_DOUBLE, {n},
                                  chunkRows(n * 8)));
      describeAs(d, q);
      L.scalars.push_back(name);
      if (q.integer) L.integers.push_back(name);
    }
    for (const auto& [name, values] : m.vectors) {
      h5::Handle d(h5::createRows(g, name, H5T_NATIVE_DOUBLE, {n, dim}, chunkRows(n * dim * 8)));
      describeAs(d, quantityOf(snap, name));
      L.vectors.push_back(name);
    }
    if (!m.cellNames.empty()) {
      h5::writeTextList(g, "cell_names", m.cellNames);
      h5::Handle d(h5::check(H5Dopen2(g, "cell_names", H5P_DEFAULT), "cell_names"));
      h5::describe(d, "", "name of each cell (the deck's body names)", "metadata");
    }
    h5::writeTextAttribute(g, "attributes", joinNames(L.scalars));
    h5::writeTextAttribute(g, "vectors", joinNames(L.vectors));
    meshes_.push_back(std::move(L));
  }
  h5::writeTextAttribute(file_, "meshes", joinNames(names));
  openSets();
  openXdmf(false);
}

void SnapshotWriter::checkLayout(const Snapshot& snap, std::int64_t step) const {
  auto fail = [&](const std::string& what) {
    throw Error("snapshot of step " + std::to_string(step) + ": " + what +
                    " (snapshots keep the layout of the first one)", kExitNumerical);
  };
  if (snap.meshes.size() != meshes_.size()) fail("the number of meshes changed");
  for (std::size_t i = 0; i < meshes_.size(); ++i) {
    const SnapshotMesh& m = snap.meshes[i];
    const MeshLayout& L = meshes_[i];
    if (m.name != L.name || m.dim != L.dim || m.pointCount() != L.points || cellCount(m) != L.cells)
      fail("mesh " + m.name + " changed its name, dimension, point or cell count");
    if (m.attributes.size() != L.scalars.size() || m.vectors.size() != L.vectors.size())
      fail("mesh " + m.name + " changed its attributes");
    for (std::size_t a = 0; a < m.attributes.size(); ++a)
      if (m.attributes[a].first != L.scalars[a] || static_cast<long>(m.attributes[a].second.size()) != L.points)
        fail("attribute " + m.name + "/" + m.attributes[a].first + " needs one value per point");
    for (std::size_t a = 0; a < m.vectors.size(); ++a)
      if (m.vectors[a].first != L.vectors[a] || static_cast<long>(m.vectors[a].second.size()) != L.points * L.dim)
        fail("vector " + m.name + "/" + m.vectors[a].first + " needs dim values per point");
    if (static_cast<long>(m.coordinates.size()) != L.points * L.dim) fail("mesh " + m.name + " coordinates");
  }
}

void SnapshotWriter::write(std::int64_t step, double time, const Snapshot& snap, bool endOfRun) {
  ScopedEvent ev(Phase::Snapshot);
  if (step <= lastStep_) return;
  if (meshes_.empty() && !snap.meshes.empty()) defineMeshes(snap);
  checkLayout(snap, step);
  for (std::size_t i = 0; i < meshes_.size(); ++i) {
    const SnapshotMesh& m = snap.meshes[i];
    const MeshLayout& L = meshes_[i];
    std::size_t k = 0;
    h5::appendRow(L.sets[k++], H5T_NATIVE_DOUBLE, m.coordinates.data());
    for (const auto& [name, values] : m.attributes) {
      if (std::find(L.integers.begin(), L.integers.end(), name) != L.integers.end())
        h5::appendRow(L.sets[k++], H5T_NATIVE_INT32, toInts(values).data());
      else
        h5::appendRow(L.sets[k++], H5T_NATIVE_DOUBLE, values.data());
    }
    for (const auto& v : m.vectors) h5::appendRow(L.sets[k++], H5T_NATIVE_DOUBLE, v.second.data());
  }
  // The frame's step last: a frame counts once /step has its row (see reopen).
  const std::int8_t e = endOfRun ? 1 : 0;
  h5::appendRow(endSet_, H5T_NATIVE_INT8, &e);
  h5::appendRow(timeSet_, H5T_NATIVE_DOUBLE, &time);
  h5::appendRow(stepSet_, H5T_NATIVE_INT64, &step);
  times_.push_back(time);
  lastStep_ = step;
  ++frames_;
  if (now() - lastFlush_ >= kFlushSeconds) flush();
}

void SnapshotWriter::flush() {
  h5::checkStatus(H5Fflush(file_, H5F_SCOPE_GLOBAL), "flush " + h5_);
  for (; indexed_ < frames_; ++indexed_)
    for (std::size_t i = 0; i < meshes_.size(); ++i)
      appendXdmfFrame(i, indexed_, times_[static_cast<std::size_t>(indexed_)]);
  for (std::size_t i = 0; i < xmf_.size(); ++i)
    if (std::fflush(xmf_[i].file) != 0)
      throw Error("cannot write " + xmfPrefix_ + "_" + meshes_[i].name + ".xmf", kExitData);
  lastFlush_ = now();
}

// --- XDMF ----------------------------------------------------------------------------------

std::string SnapshotWriter::frameText(const MeshLayout& m, std::int64_t frame, double time) const {
  const std::string file = fs::path(h5_).filename().string();
  const std::string base = file + ":/" + m.name + "/";
  const std::string rows = std::to_string(frame + 1);
  const std::string n = std::to_string(m.points), dim = std::to_string(m.dim);
  // Xdmf3 hyperslab of the heavy data: path|start:stride:count:dataspace.
  auto slab = [&](const std::string& name, bool vector, bool integer) {
    const std::string f = std::to_string(frame);
    const std::string sel = vector ? "|" + f + " 0 0:1 1 1:1 " + n + " " + dim + ":" + rows + " " + n + " " + dim
                                   : "|" + f + " 0:1 1:1 " + n + ":" + rows + " " + n;
    return "<DataItem Dimensions=\"" + (vector ? n + " " + dim : n) + "\" NumberType=\"" +
           (integer ? "Int\" Precision=\"4" : "Float\" Precision=\"8") + "\" Format=\"HDF\">" + base +
           name + sel + "</DataItem>";
  };
  std::ostringstream x;
  x.precision(17);
  x << "   <Grid Name=\"" << m.name << "\" GridType=\"Uniform\"><Time Value=\"" << time << "\"/>"
    << "<Topology TopologyType=\"Mixed\" NumberOfElements=\"" << m.cells << "\"><DataItem Dimensions=\""
    << m.topologyLength << "\" NumberType=\"Int\" Precision=\"4\" Format=\"HDF\">" << base
    << "topology</DataItem></Topology><Geometry GeometryType=\"" << (m.dim == 2 ? "XY" : "XYZ") << "\">"
    << slab("coordinates", true, false) << "</Geometry>";
  for (const auto& a : m.scalars) {
    const bool integer = std::find(m.integers.begin(), m.integers.end(), a) != m.integers.end();
    x << "<Attribute Name=\"" << a << "\" Center=\"Node\" AttributeType=\"Scalar\">" << slab(a, false, integer)
      << "</Attribute>";
  }
  for (const auto& a : m.vectors)
    x << "<Attribute Name=\"" << a << "\" Center=\"Node\" AttributeType=\"Vector\">" << slab(a, true, false)
      << "</Attribute>";
  x << "</Grid>\n";
  return x.str();
}

void SnapshotWriter::openXdmf(bool rebuild) {
  for (auto& x : xmf_)
    if (x.file) std::fclose(x.file);
  xmf_.assign(meshes_.size(), Xdmf{});
  for (std::size_t i = 0; i < meshes_.size(); ++i) {
    const std::string path = xmfPrefix_ + "_" + meshes_[i].name + ".xmf";
    std::FILE* f = createNoFollow(path);
    if (!f) throw Error("cannot write " + path, kExitData);
    std::fprintf(f, "<?xml version=\"1.0\" ?>\n<Xdmf Version=\"3.0\">\n <Domain>\n"
                    "  <Grid Name=\"%s\" GridType=\"Collection\" CollectionType=\"Temporal\">\n",
                 meshes_[i].name.c_str());
    if (rebuild)
      for (std::int64_t k = 0; k < frames_; ++k) {
        const std::string t = frameText(meshes_[i], k, times_[static_cast<std::size_t>(k)]);
        std::fwrite(t.data(), 1, t.size(), f);
      }
    xmf_[i].file = f;
    xmf_[i].bodyEnd = std::ftell(f);
    indexed_ = rebuild ? frames_ : 0;
    std::fputs(kTail, f);
    std::fflush(f);
  }
}

void SnapshotWriter::appendXdmfFrame(std::size_t mesh, std::int64_t frame, double time) {
  Xdmf& x = xmf_[mesh];
  const std::string t = frameText(meshes_[mesh], frame, time);
  std::fseek(x.file, x.bodyEnd, SEEK_SET);
  std::fwrite(t.data(), 1, t.size(), x.file);
  x.bodyEnd = std::ftell(x.file);
  std::fputs(kTail, x.file);
}

}  // namespace kirchhoff::io
