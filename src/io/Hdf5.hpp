// Thin RAII and error-checking helpers over the HDF5 C API (files, datasets, attributes),
// shared by the invariant log, checkpoints, snapshots and flow-field files.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <hdf5.h>

namespace kirchhoff::io::h5 {

/// Owns one HDF5 identifier and closes it with the matching H5?close.
class Handle {
 public:
  Handle() = default;
  explicit Handle(hid_t id) : id_(id) {}
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  Handle(Handle&& o) noexcept : id_(o.id_) { o.id_ = H5I_INVALID_HID; }
  Handle& operator=(Handle&& o) noexcept {
    if (this != &o) {
      close();
      id_ = o.id_;
      o.id_ = H5I_INVALID_HID;
    }
    return *this;
  }
  ~Handle() { close(); }
  hid_t get() const { return id_; }
  operator hid_t() const { return id_; }  // NOLINT: used directly in H5 calls
  bool valid() const { return id_ >= 0; }
  void close();

 private:
  hid_t id_ = H5I_INVALID_HID;
};

/// Throws kirchhoff::Error with `what` and the file name if id < 0 (or status < 0).
hid_t check(hid_t id, const std::string& what);
void checkStatus(herr_t status, const std::string& what);

/// Turns off HDF5's automatic error-stack printing (errors are reported by exceptions).
void silenceErrors();

/// The growing output files (invariants.h5 and its copy, snapshots.h5) are opened without HDF5's
/// file lock (docs/output.md, "Reading a live run"): a reader holding one open (h5py, h5dump,
/// ParaView) never makes a write fail; OUTDIR's lock (io/OutdirLock) keeps writers apart.
/// `flags`: H5F_ACC_RDWR or H5F_ACC_RDONLY. A symbolic link is refused (exit 65).
hid_t openOutput(const std::string& path, unsigned flags);
/// Creates such a file: a file of that name is replaced (unlinked, then created with O_EXCL, so
/// never through a symbolic link, and a reader of the old file keeps its copy); a link is refused.
/// `v110`: the 1.10 file format (invariants.h5).
hid_t createOutput(const std::string& path, bool v110);

/// Fixed-length string attribute (checkpoints); h5py returns it as bytes.
void writeStringAttribute(hid_t obj, const std::string& name, const std::string& value);
/// Variable-length UTF-8 string attribute: h5py returns it as str (logs, snapshots, flow fields).
void writeTextAttribute(hid_t obj, const std::string& name, const std::string& value);
/// Scalar / 1-D variable-length UTF-8 string datasets (long texts such as a deck; name lists).
void writeTextDataset(hid_t loc, const std::string& name, const std::string& value);
void writeTextList(hid_t loc, const std::string& name, const std::vector<std::string>& values);
/// The self-description of a dataset for h5py users (docs/output.md): `units` ("1":
/// dimensionless), `description` and `kind` (conserved, diagnostic, solver or coordinate).
void describe(hid_t obj, const std::string& units, const std::string& description,
              const std::string& kind);
void writeInt64Attribute(hid_t obj, const std::string& name, std::int64_t value);
void writeDoubleAttribute(hid_t obj, const std::string& name, double value);
bool hasAttribute(hid_t obj, const std::string& name);
std::string readStringAttribute(hid_t obj, const std::string& name);
std::int64_t readInt64Attribute(hid_t obj, const std::string& name);
double readDoubleAttribute(hid_t obj, const std::string& name);

/// Extendible 1-D dataset (chunked, unlimited) of doubles or int64 (type H5T_NATIVE_*).
hid_t createExtendible(hid_t loc, const std::string& name, hid_t type, hsize_t chunk);
/// Appends n values to an extendible 1-D dataset.
void append(hid_t dset, hid_t type, const void* data, hsize_t n);
/// Current length of a 1-D dataset.
hsize_t length(hid_t dset);
/// Reads a whole 1-D dataset of doubles / int64.
std::vector<double> readDoubles(hid_t loc, const std::string& name);
std::vector<std::int64_t> readInt64s(hid_t loc, const std::string& name);
/// Writes a whole 1-D dataset of doubles (fixed size) in one call; rank-local (serial files).
void writeDoubles(hid_t loc, const std::string& name, const std::vector<double>& v);
void writeInts(hid_t loc, const std::string& name, const std::vector<int>& v);

/// Extendible dataset of rows: shape (0, row...) growing along the first dimension, chunked by
/// `chunkRows` rows. appendRow writes one row at the end; setRows cuts (or grows) to n rows.
hid_t createRows(hid_t loc, const std::string& name, hid_t type, const std::vector<hsize_t>& row,
                 hsize_t chunkRows);
void appendRow(hid_t dset, hid_t type, const void* data);
void setRows(hid_t dset, hsize_t n);
/// Extent of every dimension of a dataset.
std::vector<hsize_t> shape(hid_t dset);
/// True if the dataset stores integers (older logs stored counts as float64).
bool isInteger(hid_t dset);

}  // namespace kirchhoff::io::h5
