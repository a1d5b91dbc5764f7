// Benchmark of the checkpoint cost against the length of the invariant log (it must not grow with the run;
// docs/output.md "The invariant log"): one checkpoint = the log's fallback copy brought up to
// date + a small checkpoint file, after 1000 new rows, for logs of 10^3 .. 10^6 rows.
// Usage: bench_checkpoint [--quick] (quick: up to 10^5). Prints ms of the log-copy update and of
// the checkpoint file with their ratio to the 10^3-row log, and the former full copy's cost.
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "core/State.hpp"
#include "io/Checkpoint.hpp"
#include "io/InvariantLog.hpp"

using namespace kirchhoff;
namespace fs = std::filesystem;

namespace {

double seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

const std::vector<std::string> kNames = {"energy", "casimir", "momentum_x", "momentum_y",
                                         "residual_norm", "iterations"};

void appendRows(io::InvariantLog& log, std::int64_t& step, std::int64_t n) {
  std::vector<double> row(kNames.size());
  for (std::int64_t i = 0; i < n; ++i, ++step) {
    for (std::size_t k = 0; k < row.size(); ++k) row[k] = 1.0 + 1e-9 * static_cast<double>(step + static_cast<std::int64_t>(k));
    log.append(step, 0.001 * static_cast<double>(step), row);
  }
}

struct Row {
  std::int64_t rows;
  double logMs, fileMs, fullCopyMs;  ///< log copy update, checkpoint file, former full copy
};

Row measure(const std::string& dir, std::int64_t rows) {
  fs::remove_all(dir);
  fs::create_directories(dir);
  io::InvariantLog log = io::InvariantLog::create(dir + "/invariants.h5", kNames, {{"model", "bench"}}, 1, 100);
  std::int64_t step = 0;
  appendRows(log, step, rows);
  log.snapshotForCheckpoint();
  io::CheckpointStore store(MPI_COMM_SELF, dir + "/checkpoints", 2);
  State s;
  s.add("q", std::vector<double>(64, 0.5));
  const int reps = 7;
  double bestLog = 1e300, bestFile = 1e300;
  for (int r = 0; r < reps; ++r) {
    appendRows(log, step, 1000);  // one checkpoint interval
    log.flush();                  // the rows a run would have flushed by now
    s.step = step;
    const double t0 = seconds();
    log.snapshotForCheckpoint();
    const double t1 = seconds();
    store.write(s, "bench", 0.001, 1, "model: bench\n");
    bestLog = std::min(bestLog, t1 - t0);
    bestFile = std::min(bestFile, seconds() - t1);
  }
  log.flush();
  const double t0 = seconds();
  fs::copy_file(dir + "/invariants.h5", dir + "/full_copy.h5", fs::copy_options::overwrite_existing);
  const double copy = seconds() - t0;
  return {rows, 1e3 * bestLog, 1e3 * bestFile, 1e3 * copy};
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  const std::string dir = (fs::temp_directory_path() / "kirchhoff-bench-checkpoint").string();
  std::vector<Row> out;
  for (std::int64_t n : {1000LL, 10000LL, 100000LL, 1000000LL}) {
    if (quick && n > 100000) break;
    out.push_back(measure(dir, n));
  }
  std::printf("checkpoint cost against log length (best of 7 checkpoints, each after 1000 new rows)\n");
  std::printf("%10s %14s %8s %18s %8s %20s\n", "log rows", "log copy [ms]", "ratio", "checkpoint [ms]",
              "ratio", "full log copy [ms]");
  for (const auto& r : out)
    std::printf("%10lld %14.3f %8.2f %18.3f %8.2f %20.3f\n", static_cast<long long>(r.rows), r.logMs,
                r.logMs / out.front().logMs, r.fileMs, r.fileMs / out.front().fileMs, r.fullCopyMs);
  fs::remove_all(dir);
  MPI_Finalize();
  return 0;
}
