// Flow-field HDF5 writer (fluidbody.md "Fluid quantities"): plain HDF5 C API, rank 0 writes a
// temporary file and renames it; the outcome is broadcast so every rank throws or returns.
#include "io/FlowField.hpp"

#include <hdf5.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "core/Mpi.hpp"
#include "core/Error.hpp"
#include "core/Quantity.hpp"
#include "io/Hdf5.hpp"

namespace kirchhoff::io {

namespace {

struct Id {
  hid_t id;
  herr_t (*close)(hid_t);
  Id(hid_t i, herr_t (*c)(hid_t), const std::string& what) : id(i), close(c) {
    if (id < 0) throw std::runtime_error(what);
  }
  ~Id() {
    if (id >= 0) close(id);
  }
  Id(const Id&) = delete;
  Id& operator=(const Id&) = delete;
  operator hid_t() const { return id; }
};

void status(herr_t s, const std::string& what) {
  if (s < 0) throw std::runtime_error(what);
}

/// The datasets' attributes (docs/output.md "Flow fields"); body outlines are "outline".
Quantity flowFieldQuantity(const std::string& name) {
  static const std::vector<Quantity> t = {
      {"x", "1", "grid axis x", "coordinate"},
      {"y", "1", "grid axis y", "coordinate"},
      {"psi_gamma", "1", "stream function of the free vortices psi_gamma", "diagnostic"},
      {"psi_I", "1", "stream function of the image flow psi_I", "diagnostic"},
      {"psi_B", "1", "stream function of the body-motion flow <Psi_B, Xi>", "diagnostic"},
      {"u", "1", "fluid velocity, x component", "diagnostic"},
      {"v", "1", "fluid velocity, y component", "diagnostic"},
      {"mask", "1", "0 fluid, 1 inside or at a body, 2 at a vortex", "diagnostic", true},
      {"positions", "1", "vortex positions gamma_i", "coordinate"},
      {"K", "1", "vortex circulations K_i", "diagnostic"},
      {"outline", "1", "spatial outline of the body (vertices)", "coordinate"},
  };
  for (const auto& q : t)
    if (q.name == name) return q;
  return Quantity{name, "", "", "diagnostic", false};
}

void writeArray(hid_t loc, const std::string& name, hid_t type, const void* data,
                const std::vector<hsize_t>& dims) {
  Id space(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr), H5Sclose,
           "dataspace of " + name);
  Id set(H5Dcreate2(loc, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
         H5Dclose, "create dataset " + name);
  if (dims.empty() || dims[0] * (dims.size() > 1 ? dims[1] : 1) > 0)
    status(H5Dwrite(set, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data), "write dataset " + name);
  const Quantity q = flowFieldQuantity(name.rfind("body_", 0) == 0 ? "outline" : name);
  h5::describe(set, q.units, q.description, q.kind);
}

void writeAttribute(hid_t obj, const std::string& name, const std::string& value) {
  h5::writeTextAttribute(obj, name, value);
}

/// Uniform spacing of an axis (sampleFlow's grids are uniform); 1 for a single point.
double spacing(const std::vector<double>& a) {
  return a.size() > 1 ? (a.back() - a.front()) / static_cast<double>(a.size() - 1) : 1.0;
}

/// The XDMF index of the grid: a 3DCoRectMesh one point thick (ParaView's Xdmf3 readers put a
/// 2DCoRectMesh in the y-z plane and misread VXVY axes), fields (ny, nx) as node data.
void writeXdmf(const std::string& xmf, const std::string& h5file, const FlowFieldData& d) {
  const std::string nx = std::to_string(d.x.size()), ny = std::to_string(d.y.size());
  std::error_code ec;
  std::filesystem::remove(xmf, ec);  // a new file, never written through a link of that name
  std::ofstream x(xmf);
  x.precision(17);
  x << "<?xml version=\"1.0\" ?>\n<Xdmf Version=\"3.0\">\n <Domain>\n"
    << "  <Grid Name=\"flow_field\" GridType=\"Uniform\">\n   <Time Value=\"" << d.time << "\"/>\n"
    << "   <Topology TopologyType=\"3DCoRectMesh\" Dimensions=\"1 " << ny << " " << nx << "\"/>\n"
    << "   <Geometry GeometryType=\"ORIGIN_DXDYDZ\">\n"
    << "    <DataItem Dimensions=\"3\" NumberType=\"Float\" Precision=\"8\" Format=\"XML\">0 "
    << d.y.front() << " " << d.x.front() << "</DataItem>\n"
    << "    <DataItem Dimensions=\"3\" NumberType=\"Float\" Precision=\"8\" Format=\"XML\">1 "
    << spacing(d.y) << " " << spacing(d.x) << "</DataItem>\n   </Geometry>\n";
  auto attribute = [&](const std::string& name, bool integer) {
    x << "   <Attribute Name=\"" << name << "\" Center=\"Node\" AttributeType=\"Scalar\">\n"
      << "    <DataItem Dimensions=\"1 " << ny << " " << nx << "\" NumberType=\"" << (integer ? "Int" : "Float")
      << "\" Precision=\"" << (integer ? 4 : 8) << "\" Format=\"HDF\">" << h5file << ":/" << name
      << "</DataItem>\n   </Attribute>\n";
  };
  for (const auto& f : d.fields) attribute(f.first, false);
  if (!d.mask.empty()) attribute("mask", true);
  x << "  </Grid>\n </Domain>\n</Xdmf>\n";
  if (!x) throw std::runtime_error("cannot write " + xmf);
}

std::string consistency(const FlowFieldData& d) {
  const std::size_t cells = d.x.size() * d.y.size();
  for (const auto& f : d.fields)
    if (f.second.size() != cells)
      return "field " + f.first + " has " + std::to_string(f.second.size()) + " values for a " +
             std::to_string(d.y.size()) + " x " + std::to_string(d.x.size()) + " grid";
  if (!d.mask.empty() && d.mask.size() != cells) return "mask size does not match the grid";
  if (d.x.empty() || d.y.empty()) return "empty grid axes";
  for (const auto* a : {&d.x, &d.y})
    for (std::size_t i = 0; i < a->size(); ++i)
      if (std::abs((*a)[i] - (a->front() + spacing(*a) * static_cast<double>(i))) >
          1e-9 * std::max(1.0, std::abs(a->back() - a->front())))
        return "grid axes are not uniform (the XDMF index needs a uniform grid)";
  if (d.vortices.size() != 2 * d.circulations.size()) return "vortex positions and K differ in count";
  for (const auto& o : d.outlines)
    if (o.size() % 2) return "a body outline has an odd number of coordinates";
  return "";
}

/// Silences HDF5's error printing while alive (errors become exceptions), then restores it.
struct QuietErrors {
  H5E_auto2_t func = nullptr;
  void* data = nullptr;
  QuietErrors() {
    H5Eget_auto2(H5E_DEFAULT, &func, &data);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  }
  ~QuietErrors() { H5Eset_auto2(H5E_DEFAULT, func, data); }
};

void writeFile(const std::string& file, const FlowFieldData& d) {
  QuietErrors quiet;
  Id f(h5::createOutput(file, false), H5Fclose, "create " + file);  // never through a link
  writeAttribute(f, "kind", "flow_field");
  for (const auto& a : d.attributes) writeAttribute(f, a.first, a.second);
  h5::writeDoubleAttribute(f, "time", d.time);
  const hsize_t nx = d.x.size(), ny = d.y.size();
  writeArray(f, "x", H5T_NATIVE_DOUBLE, d.x.data(), {nx});
  writeArray(f, "y", H5T_NATIVE_DOUBLE, d.y.data(), {ny});
  for (const auto& fld : d.fields) writeArray(f, fld.first, H5T_NATIVE_DOUBLE, fld.second.data(), {ny, nx});
  if (!d.mask.empty()) writeArray(f, "mask", H5T_NATIVE_INT, d.mask.data(), {ny, nx});
  Id bodies(H5Gcreate2(f, "bodies", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose, "group bodies");
  for (std::size_t j = 0; j < d.outlines.size(); ++j)
    writeArray(bodies, "body_" + std::to_string(j), H5T_NATIVE_DOUBLE, d.outlines[j].data(),
               {d.outlines[j].size() / 2, 2});
  Id vort(H5Gcreate2(f, "vortices", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose, "group vortices");
  writeArray(vort, "positions", H5T_NATIVE_DOUBLE, d.vortices.data(), {d.circulations.size(), 2});
  writeArray(vort, "K", H5T_NATIVE_DOUBLE, d.circulations.data(), {d.circulations.size()});
}

}  // namespace

void writeFlowField(const std::string& path, const FlowFieldData& data, MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::string error = consistency(data);
  if (error.empty() && rank == 0) {
    const std::string tmp = path + ".tmp";
    try {
      writeFile(tmp, data);
      if (std::rename(tmp.c_str(), path.c_str()) != 0) error = "cannot rename " + tmp + " to " + path;
      const std::string xmf = std::filesystem::path(path).replace_extension(".xmf").string();
      if (error.empty()) writeXdmf(xmf + ".tmp", std::filesystem::path(path).filename().string(), data);
      if (error.empty() && std::rename((xmf + ".tmp").c_str(), xmf.c_str()) != 0) error = "cannot rename " + xmf;
    } catch (const std::exception& e) {
      error = e.what();
      std::remove(tmp.c_str());
    }
  }
  broadcast(comm, error);
  if (!error.empty()) throw Error("flow field " + path + ": HDF5 " + error, kExitData);
}

}  // namespace kirchhoff::io
