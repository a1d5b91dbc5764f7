// summary.json: the fields of RunSummary as one JSON object, and the relative changes of the
// conserved columns read back from invariants.h5 (so rows from before a restart count too).
#include "run/RunSummary.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/Error.hpp"
#include "io/Hdf5.hpp"

namespace kirchhoff::run {

namespace {

std::string jsonString(const std::string& s) {
  std::string o = "\"";
  for (const char c : s) {
    switch (c) {
      case '"': o += "\\\""; break;
      case '\\': o += "\\\\"; break;
      case '\n': o += "\\n"; break;
      case '\t': o += "\\t"; break;
      case '\r': o += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char b[8];
          std::snprintf(b, sizeof b, "\\u%04x", static_cast<unsigned>(c));
          o += b;
        } else {
          o += c;
        }
    }
  }
  return o + "\"";
}

std::string number(double v) {
  if (!std::isfinite(v)) return "null";
  char b[32];
  std::snprintf(b, sizeof b, "%.6g", v);
  return b;
}

std::string overridesArray(const std::string& lines) {
  std::string o = "[";
  std::istringstream in(lines);
  std::string l;
  bool first = true;
  while (std::getline(in, l)) {
    if (l.empty()) continue;
    o += (first ? "" : ", ") + jsonString(l);
    first = false;
  }
  return o + "]";
}

}  // namespace

std::string statusName(int code) {
  switch (code) {
    case kExitOk: return "finished";
    case kExitRequeue: return "stopped";
    case kExitUsage:
    case kExitData: return "bad input";
    default: return "failed";
  }
}

std::string toJson(const RunSummary& s) {
  const std::int64_t steps = s.lastStep - s.firstStep;
  std::ostringstream o;
  o << "{\n"
    << "  \"model\": " << jsonString(s.model) << ",\n"
    << "  \"deck_file\": " << jsonString(s.deckFile) << ",\n"
    << "  \"deck_hash\": " << jsonString(s.deckHash) << ",\n"
    << "  \"overrides\": " << overridesArray(s.overrides) << ",\n"
    << "  \"code_version\": " << jsonString(s.codeVersion) << ",\n"
    << "  \"git_sha\": " << jsonString(s.gitSha) << ",\n"
    << "  \"outdir\": " << jsonString(s.outdir) << ",\n"
    << "  \"ranks\": " << s.ranks << ",\n"
    << "  \"dt\": " << number(s.dt) << ",\n"
    << "  \"first_step\": " << s.firstStep << ",\n"
    << "  \"last_step\": " << s.lastStep << ",\n"
    << "  \"final_step\": " << s.finalStep << ",\n"
    << "  \"steps\": " << steps << ",\n"
    << "  \"time\": " << number(s.time) << ",\n"
    << "  \"wall_seconds\": " << number(s.wallSeconds) << ",\n"
    << "  \"steps_per_second\": "
    << number(s.wallSeconds > 0 ? static_cast<double>(steps) / s.wallSeconds : std::nan("")) << ",\n"
    << "  \"exit_status\": " << s.exitStatus << ",\n"
    << "  \"status\": " << jsonString(statusName(s.exitStatus)) << ",\n"
    << "  \"message\": " << jsonString(s.message) << ",\n"
    << "  \"max_relative_change\": {";
  for (std::size_t i = 0; i < s.maxRelativeChange.size(); ++i)
    o << (i ? "," : "") << "\n    " << jsonString(s.maxRelativeChange[i].first) << ": "
      << number(s.maxRelativeChange[i].second);
  o << (s.maxRelativeChange.empty() ? "}\n}\n" : "\n  }\n}\n");
  return o.str();
}

void writeSummaryFile(const std::string& path, const RunSummary& s) {
  const std::string tmp = path + ".tmp";
  {
    std::error_code gone;
    std::filesystem::remove(tmp, gone);  // a new file, never written through a link of that name
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << toJson(s);
    out.close();
    if (!out) {  // a full disk: no temporary file left behind
      std::error_code ignored;
      std::filesystem::remove(tmp, ignored);
      throw Error("cannot write " + tmp, kExitData);
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);
    throw Error("cannot rename " + tmp + " to " + path + ": " + ec.message(), kExitData);
  }
}

std::vector<std::string> conservedColumns(const std::string& logPath) {
  std::vector<std::string> out;
  io::h5::silenceErrors();
  io::h5::Handle f(H5Fopen(logPath.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  io::h5::Handle g(f.valid() ? H5Gopen2(f, "invariants", H5P_DEFAULT) : -1);
  if (!g.valid() || !io::h5::hasAttribute(g, "columns")) return out;
  try {
    std::stringstream columns(io::h5::readStringAttribute(g, "columns"));
    for (std::string n; std::getline(columns, n, ',');) {
      io::h5::Handle d(H5Dopen2(g, n.c_str(), H5P_DEFAULT));
      if (d.valid() && io::h5::hasAttribute(d, "kind") && io::h5::readStringAttribute(d, "kind") == "conserved")
        out.push_back(n);
    }
  } catch (const Error&) {
    // an unreadable attribute: the columns found so far
  }
  return out;
}

std::vector<std::pair<std::string, double>> maxRelativeChanges(const std::string& logPath,
                                                               const std::vector<std::string>& names) {
  std::vector<std::pair<std::string, double>> out;
  io::h5::silenceErrors();
  io::h5::Handle f;
  try {
    f = io::h5::Handle(io::h5::openOutput(logPath, H5F_ACC_RDONLY));
  } catch (const Error&) {
    // no log: every quantity is reported as null
  }
  io::h5::Handle g(f.valid() ? H5Gopen2(f, "invariants", H5P_DEFAULT) : -1);
  for (const auto& n : names) {
    double worst = std::nan("");
    if (g.valid() && H5Lexists(g, n.c_str(), H5P_DEFAULT) > 0) {
      std::vector<double> v;
      try {
        v = io::h5::readDoubles(g, n);
      } catch (const Error&) {
        v.clear();  // unreadable column: reported as null
      }
      if (!v.empty()) {
        const double scale = std::abs(v.front()) > 1e-12 ? std::abs(v.front()) : 1.0;
        worst = 0.0;
        for (const double x : v) worst = std::max(worst, std::abs(x - v.front()) / scale);
      }
    }
    out.emplace_back(n, worst);
  }
  return out;
}

}  // namespace kirchhoff::run
