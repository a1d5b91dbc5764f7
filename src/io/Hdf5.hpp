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

void writeStringAttribute(hid_t obj, const std::string& name, const std::string& value);
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

}  // namespace kirchhoff::io::h5
