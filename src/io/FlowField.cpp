// Flow-field HDF5 writer (fluidbody.md "Fluid quantities"): plain HDF5 C API, rank 0 writes a
// temporary file and renames it; the outcome is broadcast so every rank throws or returns.
#include "io/FlowField.hpp"

#include <hdf5.h>

#include <cstdio>
#include <stdexcept>

#include "core/Mpi.hpp"
#include "core/Error.hpp"

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

void writeArray(hid_t loc, const std::string& name, hid_t type, const void* data,
                const std::vector<hsize_t>& dims) {
  Id space(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr), H5Sclose,
           "dataspace of " + name);
  Id set(H5Dcreate2(loc, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
         H5Dclose, "create dataset " + name);
  if (dims.empty() || dims[0] * (dims.size() > 1 ? dims[1] : 1) > 0)
    status(H5Dwrite(set, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data), "write dataset " + name);
}

void writeAttribute(hid_t obj, const std::string& name, const std::string& value) {
  Id type(H5Tcopy(H5T_C_S1), H5Tclose, "string type");
  status(H5Tset_size(type, value.empty() ? 1 : value.size()), "string size");
  Id space(H5Screate(H5S_SCALAR), H5Sclose, "scalar space");
  Id attr(H5Acreate2(obj, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
          "create attribute " + name);
  status(H5Awrite(attr, type, value.empty() ? "" : value.c_str()), "write attribute " + name);
}

std::string consistency(const FlowFieldData& d) {
  const std::size_t cells = d.x.size() * d.y.size();
  for (const auto& f : d.fields)
    if (f.second.size() != cells)
      return "field " + f.first + " has " + std::to_string(f.second.size()) + " values for a " +
             std::to_string(d.y.size()) + " x " + std::to_string(d.x.size()) + " grid";
  if (!d.mask.empty() && d.mask.size() != cells) return "mask size does not match the grid";
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
  Id f(H5Fcreate(file.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose, "create " + file);
  writeAttribute(f, "kind", "flow_field");
  for (const auto& a : d.attributes) writeAttribute(f, a.first, a.second);
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
    } catch (const std::exception& e) {
      error = e.what();
      std::remove(tmp.c_str());
    }
  }
  broadcast(comm, error);
  if (!error.empty()) throw Error("flow field " + path + ": HDF5 " + error, kExitData);
}

}  // namespace kirchhoff::io
