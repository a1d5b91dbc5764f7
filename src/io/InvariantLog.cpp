// The invariant log: buffered rows appended to extendible datasets of /invariants, truncation to
// a checkpoint's step on restart, and a checkpoint-time copy used when the log itself is damaged.
#include "io/InvariantLog.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "core/Error.hpp"
#include "core/LogEvents.hpp"
#include "io/Hdf5.hpp"

namespace kirchhoff::io {

namespace fs = std::filesystem;

namespace {
double secondsSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}
}  // namespace

InvariantLog::InvariantLog(std::string path, std::vector<std::string> names, int flushInterval)
    : path_(std::move(path)), names_(std::move(names)), flushInterval_(flushInterval),
      columns_(names_.size()), ckColumns_(names_.size()) {}

InvariantLog::InvariantLog(InvariantLog&&) noexcept = default;
InvariantLog& InvariantLog::operator=(InvariantLog&&) noexcept = default;

InvariantLog::~InvariantLog() {
  try {
    flush();
  } catch (...) {
    // Destructors must not throw; a failed final flush was already reported by flush() callers.
  }
}

InvariantLog InvariantLog::create(const std::string& path, const std::vector<std::string>& names,
                                  const std::map<std::string, std::string>& attributes,
                                  std::int64_t nranks, int flushInterval,
                                  const std::vector<Quantity>& quantities, const Quantity& time) {
  h5::silenceErrors();
  const std::string tmp = path + ".tmp";
  {
    h5::Handle f(h5::createOutput(tmp, true));  // the 1.10 format: O(1) appends
    // Provenance as root attributes, except the deck text: a scalar vlen UTF-8 dataset /deck
    // (any length; as in snapshots.h5), so no reader depends on large attributes (docs/output.md).
    for (const auto& [k, v] : attributes) {
      if (k != "deck") {
        h5::writeTextAttribute(f, k, v);
        continue;
      }
      h5::writeTextDataset(f, "deck", v);
      h5::Handle d(h5::check(H5Dopen2(f, "deck", H5P_DEFAULT), "deck"));
      h5::describe(d, "", "the deck text (YAML) of the run", "metadata");
    }
    h5::writeInt64Attribute(f, "nranks", nranks);
    auto quantity = [&](std::size_t i, const std::string& n) {
      return i < quantities.size() && quantities[i].name == n ? quantities[i] : Quantity{n, "", "", "diagnostic", false};
    };
    h5::Handle g(h5::check(H5Gcreate2(f, "invariants", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                           "create /invariants"));
    h5::Handle s(h5::createExtendible(g, "step", H5T_NATIVE_INT64, 1024));
    const Quantity qs = stepQuantity(), qt = time;
    h5::describe(s, qs.units, qs.description, qs.kind);
    h5::Handle t(h5::createExtendible(g, "time", H5T_NATIVE_DOUBLE, 1024));
    h5::describe(t, qt.units, qt.description, qt.kind);
    std::string order;
    for (std::size_t i = 0; i < names.size(); ++i) {
      const std::string& n = names[i];
      if (n == "step" || n == "time") throw Error("invariant name '" + n + "' is reserved", kExitNumerical);
      const Quantity q = quantity(i, n);
      h5::Handle d(h5::createExtendible(g, n, q.integer ? H5T_NATIVE_INT64 : H5T_NATIVE_DOUBLE, 1024));
      h5::describe(d, q.units, q.description, q.kind);
      order += (order.empty() ? "" : ",") + n;
    }
    h5::writeTextAttribute(g, "columns", order);
  }
  fs::rename(tmp, path);
  InvariantLog log(path, names, flushInterval);
  log.rebuildCopy();
  return log;
}

namespace {

/// Opens `path`, checks its columns, and cuts it after `step`. Returns false if unusable.
/// Rows kept: steps s <= step on the logging grid (s % interval == 0); the last must be the grid
/// point at or below `step`, which proves the log is complete up to the checkpoint.
bool truncateLog(const std::string& path, const std::vector<std::string>& names, std::int64_t step,
                 int interval, std::string* why) {
  if (!fs::exists(path)) return *why = path + " does not exist", false;
  try {
    h5::Handle f(h5::openOutput(path, H5F_ACC_RDWR));
    h5::Handle g(h5::check(H5Gopen2(f, "invariants", H5P_DEFAULT), "no /invariants in " + path));
    const auto steps = h5::readInt64s(g, "step");
    std::size_t keep = 0;
    while (keep < steps.size() && steps[keep] <= step && steps[keep] % interval == 0) ++keep;
    const std::int64_t last = step - step % interval;
    if (keep == 0 || steps[keep - 1] != last) {
      *why = path + " has no row for step " + std::to_string(last);
      return false;
    }
    std::vector<std::string> all = {"step", "time"};
    all.insert(all.end(), names.begin(), names.end());
    for (const auto& n : all) {
      h5::Handle d(h5::check(H5Dopen2(g, n.c_str(), H5P_DEFAULT), "column " + n + " missing in " + path));
      if (h5::length(d) < keep) {
        *why = path + ": column " + n + " is shorter than the step column";
        return false;
      }
      hsize_t size[1] = {keep};
      h5::checkStatus(H5Dset_extent(d, size), "truncate " + n);
    }
    h5::writeInt64Attribute(f, "restarts",
                            (h5::hasAttribute(f, "restarts") ? h5::readInt64Attribute(f, "restarts") : 0) + 1);
    return true;
  } catch (const Error& e) {
    *why = e.what();
    return false;
  }
}

}  // namespace

InvariantLog InvariantLog::reopen(const std::string& path, const std::vector<std::string>& names,
                                  std::int64_t step, int logInterval, int flushInterval,
                                  std::string* warning) {
  h5::silenceErrors();
  std::string why;
  if (!truncateLog(path, names, step, logInterval, &why)) {
    const std::string backup = path + ".ckpt";
    std::string whyBackup;
    const std::string hint = " (to start a new log at the checkpoint's step: --restart [CHECKPOINT.h5] --new-log)";
    if (!fs::exists(backup)) throw CheckpointError("cannot continue the invariant log: " + why + hint);
    // The copy is cut on a temporary file: only a usable one replaces the damaged log.
    const std::string tmp = path + ".tmp";
    bool ok = false;
    try {
      fs::copy_file(backup, tmp, fs::copy_options::overwrite_existing);
      ok = truncateLog(tmp, names, step, logInterval, &whyBackup);
      if (ok) fs::rename(tmp, path);
    } catch (...) {
      std::error_code ec;
      fs::remove(tmp, ec);
      throw;
    }
    if (!ok) {
      std::error_code ec;
      fs::remove(tmp, ec);
      throw CheckpointError("cannot continue the invariant log: " + why + "; its copy: " + whyBackup + hint);
    }
    if (warning) *warning = "invariant log unusable (" + why + "); continued from " + backup;
  }
  InvariantLog log(path, names, flushInterval);
  // The copy is cut to the same step; if that fails (a kill while it was being appended to), it
  // is rebuilt from the log once, here.
  std::string whyCopy;
  if (!fs::exists(path + ".ckpt") || !truncateLog(path + ".ckpt", names, step, logInterval, &whyCopy))
    log.rebuildCopy();
  else
    log.copyValid_ = true;
  return log;
}

void InvariantLog::append(std::int64_t step, double time, const std::vector<double>& values) {
  if (values.size() != names_.size())
    throw Error("invariant row has " + std::to_string(values.size()) + " values, expected " +
                    std::to_string(names_.size()), kExitNumerical);
  steps_.push_back(step);
  times_.push_back(time);
  for (std::size_t i = 0; i < values.size(); ++i) columns_[i].push_back(values[i]);
  ckSteps_.push_back(step);
  ckTimes_.push_back(time);
  for (std::size_t i = 0; i < values.size(); ++i) ckColumns_[i].push_back(values[i]);
  // At most one write a second: each write opens the file, and a reader opening it at that
  // moment is refused by HDF5 and must retry (docs/output.md, "Reading a live run").
  if (static_cast<int>(steps_.size()) >= flushInterval_ && secondsSince(lastFlush_) >= kMinFlushSeconds) flush();
}

namespace {
/// Appends rows to the columns of the log file at `path` and flushes it.
void appendRows(const std::string& path, const std::vector<std::string>& names,
                const std::vector<std::int64_t>& steps, const std::vector<double>& times,
                const std::vector<std::vector<double>>& columns) {
  h5::Handle f(h5::openOutput(path, H5F_ACC_RDWR));
  h5::Handle g(h5::check(H5Gopen2(f, "invariants", H5P_DEFAULT), "no /invariants in " + path));
  auto put = [&](const std::string& n, hid_t type, const void* data) {
    h5::Handle d(h5::check(H5Dopen2(g, n.c_str(), H5P_DEFAULT), "column " + n));
    h5::append(d, type, data, steps.size());
  };
  put("step", H5T_NATIVE_INT64, steps.data());
  put("time", H5T_NATIVE_DOUBLE, times.data());
  for (std::size_t i = 0; i < names.size(); ++i) {
    h5::Handle d(h5::check(H5Dopen2(g, names[i].c_str(), H5P_DEFAULT), "column " + names[i]));
    if (h5::isInteger(d)) {  // counts: exact small integers held as double by the models
      std::vector<std::int64_t> v(columns[i].size());
      for (std::size_t k = 0; k < v.size(); ++k) v[k] = static_cast<std::int64_t>(std::llround(columns[i][k]));
      h5::append(d, H5T_NATIVE_INT64, v.data(), v.size());
    } else {
      h5::append(d, H5T_NATIVE_DOUBLE, columns[i].data(), columns[i].size());
    }
  }
  h5::checkStatus(H5Fflush(f, H5F_SCOPE_GLOBAL), "flush " + path);
}
}  // namespace

void InvariantLog::flush() {
  ScopedEvent ev(Phase::InvariantLog);
  if (steps_.empty() || path_.empty()) return;
  appendRows(path_, names_, steps_, times_, columns_);
  lastFlush_ = std::chrono::steady_clock::now();
  steps_.clear();
  times_.clear();
  for (auto& c : columns_) c.clear();
}

double InvariantLog::firstValue(const std::string& name) const {
  h5::Handle f;
  try {
    f = h5::Handle(h5::openOutput(path_, H5F_ACC_RDONLY));
  } catch (const Error&) {
    return std::nan("");
  }
  h5::Handle g(H5Gopen2(f, "invariants", H5P_DEFAULT));
  if (!g.valid() || H5Lexists(g, name.c_str(), H5P_DEFAULT) <= 0) return std::nan("");
  h5::Handle d(H5Dopen2(g, name.c_str(), H5P_DEFAULT));
  if (!d.valid() || h5::length(d) == 0) return std::nan("");
  h5::Handle space(H5Dget_space(d));
  hsize_t start[1] = {0}, count[1] = {1};
  H5Sselect_hyperslab(space, H5S_SELECT_SET, start, nullptr, count, nullptr);
  h5::Handle mem(H5Screate_simple(1, count, nullptr));
  double v = std::nan("");
  if (H5Dread(d, H5T_NATIVE_DOUBLE, mem, space, H5P_DEFAULT, &v) < 0) return std::nan("");
  return v;
}

void InvariantLog::snapshotForCheckpoint() {
  flush();
  if (copyValid_ && !ckSteps_.empty()) {
    try {
      appendRows(path_ + ".ckpt", names_, ckSteps_, ckTimes_, ckColumns_);
    } catch (const Error&) {
      copyValid_ = false;  // e.g. deleted by hand: rebuilt below
    }
  }
  if (!copyValid_) rebuildCopy();
  ckSteps_.clear();
  ckTimes_.clear();
  for (auto& c : ckColumns_) c.clear();
}

void InvariantLog::rebuildCopy() {
  flush();
  const std::string tmp = path_ + ".ckpt.tmp";
  try {
    fs::copy_file(path_, tmp, fs::copy_options::overwrite_existing);
    fs::rename(tmp, path_ + ".ckpt");
  } catch (...) {
    std::error_code ec;
    fs::remove(tmp, ec);  // no temporary file left behind (a full disk)
    throw;
  }
  copyValid_ = true;
  ckSteps_.clear();
  ckTimes_.clear();
  for (auto& c : ckColumns_) c.clear();
}

void InvariantLog::recordRestartChanges(std::int64_t step, const std::string& changes) {
  for (const std::string& p : {path_, path_ + ".ckpt"}) {
    if (!fs::exists(p)) continue;
    h5::Handle f(h5::openOutput(p, H5F_ACC_RDWR));
    const std::string old = h5::hasAttribute(f, "restart_changes") ? h5::readStringAttribute(f, "restart_changes") : "";
    h5::writeStringAttribute(f, "restart_changes",
                             old + (old.empty() ? "" : "\n") + "step " + std::to_string(step) + ": " + changes);
  }
}

}  // namespace kirchhoff::io
