// HDF5 C API helpers: RAII close, checked calls, scalar attributes, extendible 1-D datasets.
// Errors become kirchhoff::Error exceptions; HDF5's own error printing is switched off.
#include "io/Hdf5.hpp"

#include <filesystem>

#include "core/Error.hpp"
#include "io/NoFollow.hpp"

namespace kirchhoff::io::h5 {

void Handle::close() {
  if (id_ < 0) return;
  switch (H5Iget_type(id_)) {
    case H5I_FILE: H5Fclose(id_); break;
    case H5I_GROUP: H5Gclose(id_); break;
    case H5I_DATASET: H5Dclose(id_); break;
    case H5I_DATASPACE: H5Sclose(id_); break;
    case H5I_DATATYPE: H5Tclose(id_); break;
    case H5I_ATTR: H5Aclose(id_); break;
    case H5I_GENPROP_LST: H5Pclose(id_); break;
    default: break;
  }
  id_ = H5I_INVALID_HID;
}

hid_t check(hid_t id, const std::string& what) {
  if (id < 0) throw Error("HDF5: " + what, kExitData);
  return id;
}

void checkStatus(herr_t status, const std::string& what) {
  if (status < 0) throw Error("HDF5: " + what, kExitData);
}

void silenceErrors() { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); }

namespace {
/// File access without HDF5's file lock (flock of the whole file, 1.10+), optionally the 1.10 format.
hid_t unlockedAccess(bool v110) {
  const hid_t fapl = check(H5Pcreate(H5P_FILE_ACCESS), "file access list");
#if H5_VERSION_GE(1, 10, 7)
  checkStatus(H5Pset_file_locking(fapl, false, true), "file locking off");
#else
  ::setenv("HDF5_USE_FILE_LOCKING", "FALSE", 1);  // read at every open before 1.10.7
#endif
  // The 1.10 format indexes the chunks of a dataset with one unlimited dimension by an
  // extensible array: appending costs O(1), not O(log rows) of a B-tree (bench_checkpoint).
  if (v110) checkStatus(H5Pset_libver_bounds(fapl, H5F_LIBVER_V110, H5F_LIBVER_V110), "format 1.10");
  return fapl;
}
}  // namespace

hid_t openOutput(const std::string& path, unsigned flags) {
  refuseLink(path, kExitData);
  silenceErrors();
  Handle fapl(unlockedAccess(false));
  return check(H5Fopen(path.c_str(), flags, fapl), "cannot open " + path);
}

hid_t createOutput(const std::string& path, bool v110) {
  refuseLink(path, kExitData);
  silenceErrors();
  std::error_code ec;
  std::filesystem::remove(path, ec);
  Handle fapl(unlockedAccess(v110));
  return check(H5Fcreate(path.c_str(), H5F_ACC_EXCL, H5P_DEFAULT, fapl), "cannot create " + path);
}

void writeStringAttribute(hid_t obj, const std::string& name, const std::string& value) {
  Handle type(check(H5Tcopy(H5T_C_S1), "string type"));
  checkStatus(H5Tset_size(type, value.empty() ? 1 : value.size()), "string size");
  checkStatus(H5Tset_strpad(type, H5T_STR_NULLPAD), "string pad");
  Handle space(check(H5Screate(H5S_SCALAR), "scalar space"));
  if (H5Aexists(obj, name.c_str()) > 0) H5Adelete(obj, name.c_str());
  Handle attr(check(H5Acreate2(obj, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT),
                    "create attribute " + name));
  const char zero = '\0';
  checkStatus(H5Awrite(attr, type, value.empty() ? &zero : value.data()), "write attribute " + name);
}

namespace {
hid_t textType() {
  const hid_t type = check(H5Tcopy(H5T_C_S1), "string type");
  checkStatus(H5Tset_size(type, H5T_VARIABLE), "string size");
  checkStatus(H5Tset_cset(type, H5T_CSET_UTF8), "string character set");
  return type;
}
}  // namespace

void writeTextAttribute(hid_t obj, const std::string& name, const std::string& value) {
  Handle type(textType());
  Handle space(check(H5Screate(H5S_SCALAR), "scalar space"));
  if (H5Aexists(obj, name.c_str()) > 0) H5Adelete(obj, name.c_str());
  Handle attr(check(H5Acreate2(obj, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT),
                    "create attribute " + name));
  const char* p = value.c_str();
  checkStatus(H5Awrite(attr, type, &p), "write attribute " + name);
}

void writeTextDataset(hid_t loc, const std::string& name, const std::string& value) {
  Handle type(textType());
  Handle space(check(H5Screate(H5S_SCALAR), "scalar space"));
  Handle d(check(H5Dcreate2(loc, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                 "create " + name));
  const char* p = value.c_str();
  checkStatus(H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, &p), "write " + name);
}

void writeTextList(hid_t loc, const std::string& name, const std::vector<std::string>& values) {
  Handle type(textType());
  hsize_t dims[1] = {values.size()};
  Handle space(check(H5Screate_simple(1, dims, nullptr), "space " + name));
  Handle d(check(H5Dcreate2(loc, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                 "create " + name));
  std::vector<const char*> p;
  for (const auto& v : values) p.push_back(v.c_str());
  if (!p.empty()) checkStatus(H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, p.data()), "write " + name);
}

void describe(hid_t obj, const std::string& units, const std::string& description,
              const std::string& kind) {
  writeTextAttribute(obj, "units", units);
  writeTextAttribute(obj, "description", description);
  writeTextAttribute(obj, "kind", kind);
}

namespace {
template <class T>
void writeScalarAttribute(hid_t obj, const std::string& name, hid_t type, T value) {
  Handle space(check(H5Screate(H5S_SCALAR), "scalar space"));
  if (H5Aexists(obj, name.c_str()) > 0) H5Adelete(obj, name.c_str());
  Handle attr(check(H5Acreate2(obj, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT),
                    "create attribute " + name));
  checkStatus(H5Awrite(attr, type, &value), "write attribute " + name);
}
template <class T>
T readScalarAttribute(hid_t obj, const std::string& name, hid_t type) {
  Handle attr(check(H5Aopen(obj, name.c_str(), H5P_DEFAULT), "missing attribute " + name));
  T v{};
  checkStatus(H5Aread(attr, type, &v), "read attribute " + name);
  return v;
}
}  // namespace

void writeInt64Attribute(hid_t obj, const std::string& name, std::int64_t value) {
  writeScalarAttribute(obj, name, H5T_NATIVE_INT64, value);
}
void writeDoubleAttribute(hid_t obj, const std::string& name, double value) {
  writeScalarAttribute(obj, name, H5T_NATIVE_DOUBLE, value);
}
bool hasAttribute(hid_t obj, const std::string& name) { return H5Aexists(obj, name.c_str()) > 0; }

std::string readStringAttribute(hid_t obj, const std::string& name) {
  Handle attr(check(H5Aopen(obj, name.c_str(), H5P_DEFAULT), "missing attribute " + name));
  Handle type(check(H5Aget_type(attr), "attribute type " + name));
  if (H5Tget_class(type) != H5T_STRING) throw Error("HDF5: attribute " + name + " is not a string", kExitData);
  if (H5Tis_variable_str(type) > 0) {
    char* s = nullptr;
    Handle mem(check(H5Tget_native_type(type, H5T_DIR_ASCEND), "native type"));
    checkStatus(H5Aread(attr, mem, &s), "read attribute " + name);
    std::string r = s ? s : "";
    H5free_memory(s);
    return r;
  }
  const std::size_t n = H5Tget_size(type);
  std::string r(n, '\0');
  checkStatus(H5Aread(attr, type, r.data()), "read attribute " + name);
  r.resize(r.find('\0') == std::string::npos ? n : r.find('\0'));
  return r;
}
std::int64_t readInt64Attribute(hid_t obj, const std::string& name) {
  return readScalarAttribute<std::int64_t>(obj, name, H5T_NATIVE_INT64);
}
double readDoubleAttribute(hid_t obj, const std::string& name) {
  return readScalarAttribute<double>(obj, name, H5T_NATIVE_DOUBLE);
}

hid_t createExtendible(hid_t loc, const std::string& name, hid_t type, hsize_t chunk) {
  hsize_t dims[1] = {0}, maxdims[1] = {H5S_UNLIMITED}, chunks[1] = {chunk};
  Handle space(check(H5Screate_simple(1, dims, maxdims), "space " + name));
  Handle plist(check(H5Pcreate(H5P_DATASET_CREATE), "plist"));
  checkStatus(H5Pset_chunk(plist, 1, chunks), "chunk " + name);
  return check(H5Dcreate2(loc, name.c_str(), type, space, H5P_DEFAULT, plist, H5P_DEFAULT),
               "create dataset " + name);
}

hsize_t length(hid_t dset) {
  Handle space(check(H5Dget_space(dset), "dataspace"));
  hsize_t dims[1] = {0};
  if (H5Sget_simple_extent_ndims(space) != 1) throw Error("HDF5: dataset is not 1-D", kExitData);
  H5Sget_simple_extent_dims(space, dims, nullptr);
  return dims[0];
}

void append(hid_t dset, hid_t type, const void* data, hsize_t n) {
  if (n == 0) return;
  const hsize_t old = length(dset);
  hsize_t newSize[1] = {old + n};
  checkStatus(H5Dset_extent(dset, newSize), "extend dataset");
  Handle fspace(check(H5Dget_space(dset), "dataspace"));
  hsize_t start[1] = {old}, count[1] = {n};
  checkStatus(H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start, nullptr, count, nullptr), "select");
  Handle mspace(check(H5Screate_simple(1, count, nullptr), "memspace"));
  checkStatus(H5Dwrite(dset, type, mspace, fspace, H5P_DEFAULT, data), "append");
}

namespace {
template <class T>
std::vector<T> readAll(hid_t loc, const std::string& name, hid_t type) {
  Handle d(check(H5Dopen2(loc, name.c_str(), H5P_DEFAULT), "missing dataset " + name));
  std::vector<T> v(length(d));
  if (!v.empty()) checkStatus(H5Dread(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()), "read " + name);
  return v;
}
}  // namespace

std::vector<double> readDoubles(hid_t loc, const std::string& name) {
  return readAll<double>(loc, name, H5T_NATIVE_DOUBLE);
}
std::vector<std::int64_t> readInt64s(hid_t loc, const std::string& name) {
  return readAll<std::int64_t>(loc, name, H5T_NATIVE_INT64);
}

void writeDoubles(hid_t loc, const std::string& name, const std::vector<double>& v) {
  hsize_t dims[1] = {v.size()};
  Handle space(check(H5Screate_simple(1, dims, nullptr), "space " + name));
  Handle d(check(H5Dcreate2(loc, name.c_str(), H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT,
                            H5P_DEFAULT), "create " + name));
  if (!v.empty()) checkStatus(H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()), "write " + name);
}

void writeInts(hid_t loc, const std::string& name, const std::vector<int>& v) {
  hsize_t dims[1] = {v.size()};
  Handle space(check(H5Screate_simple(1, dims, nullptr), "space " + name));
  Handle d(check(H5Dcreate2(loc, name.c_str(), H5T_NATIVE_INT, space, H5P_DEFAULT, H5P_DEFAULT,
                            H5P_DEFAULT), "create " + name));
  if (!v.empty()) checkStatus(H5Dwrite(d, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()), "write " + name);
}

hid_t createRows(hid_t loc, const std::string& name, hid_t type, const std::vector<hsize_t>& row,
                 hsize_t chunkRows) {
  std::vector<hsize_t> dims{0}, maxdims{H5S_UNLIMITED}, chunks{chunkRows < 1 ? 1 : chunkRows};
  for (hsize_t r : row) dims.push_back(r), maxdims.push_back(r), chunks.push_back(r < 1 ? 1 : r);
  const int rank = static_cast<int>(dims.size());
  Handle space(check(H5Screate_simple(rank, dims.data(), maxdims.data()), "space " + name));
  Handle plist(check(H5Pcreate(H5P_DATASET_CREATE), "plist"));
  checkStatus(H5Pset_chunk(plist, rank, chunks.data()), "chunk " + name);
  return check(H5Dcreate2(loc, name.c_str(), type, space, H5P_DEFAULT, plist, H5P_DEFAULT),
               "create dataset " + name);
}

std::vector<hsize_t> shape(hid_t dset) {
  Handle space(check(H5Dget_space(dset), "dataspace"));
  const int rank = H5Sget_simple_extent_ndims(space);
  if (rank < 0) throw Error("HDF5: dataspace rank", kExitData);
  std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
  if (rank > 0) H5Sget_simple_extent_dims(space, dims.data(), nullptr);
  return dims;
}

void appendRow(hid_t dset, hid_t type, const void* data) {
  std::vector<hsize_t> dims = shape(dset);
  if (dims.empty()) throw Error("HDF5: appendRow on a scalar dataset", kExitData);
  std::vector<hsize_t> start(dims.size(), 0), count = dims;
  start[0] = dims[0];
  count[0] = 1;
  dims[0] += 1;
  checkStatus(H5Dset_extent(dset, dims.data()), "extend dataset");
  Handle fspace(check(H5Dget_space(dset), "dataspace"));
  checkStatus(H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start.data(), nullptr, count.data(), nullptr),
              "select row");
  Handle mspace(check(H5Screate_simple(static_cast<int>(count.size()), count.data(), nullptr), "memspace"));
  checkStatus(H5Dwrite(dset, type, mspace, fspace, H5P_DEFAULT, data), "append row");
}

void setRows(hid_t dset, hsize_t n) {
  std::vector<hsize_t> dims = shape(dset);
  if (dims.empty()) throw Error("HDF5: setRows on a scalar dataset", kExitData);
  dims[0] = n;
  checkStatus(H5Dset_extent(dset, dims.data()), "resize dataset");
}

bool isInteger(hid_t dset) {
  Handle type(check(H5Dget_type(dset), "dataset type"));
  return H5Tget_class(type) == H5T_INTEGER;
}

}  // namespace kirchhoff::io::h5
