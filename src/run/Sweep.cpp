// Sweep execution: groups of ranks take cases round-robin, run them one after another, and
// rank 0 of the world collects one summary row per case.
#include "run/Sweep.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/Error.hpp"
#include "run/Signals.hpp"

namespace kirchhoff::run {

int combineExitCodes(const std::vector<int>& codes) {
  for (int c : {kExitUsage, kExitData, kExitRequeue, kExitNumerical})
    if (std::find(codes.begin(), codes.end(), c) != codes.end()) return c;
  for (int c : codes)
    if (c != 0) return c;
  return 0;
}

int runSweep(MPI_Comm world, const Driver& driver, const std::vector<io::SweepCase>& cases,
             int ranksPerCase, const RunOptions& options) {
  int rank = 0, size = 1;
  MPI_Comm_rank(world, &rank);
  MPI_Comm_size(world, &size);
  const int n = static_cast<int>(cases.size());
  int per = ranksPerCase > 0 ? std::min(ranksPerCase, size) : std::max(1, size / std::max(1, std::min(n, size)));
  const int groups = std::max(1, size / per);
  const int color = rank / per < groups ? rank / per : MPI_UNDEFINED;  // left-over ranks idle
  MPI_Comm sub = MPI_COMM_NULL;
  MPI_Comm_split(world, color, rank, &sub);
  int subRank = -1;
  if (sub != MPI_COMM_NULL) MPI_Comm_rank(sub, &subRank);
  if (rank == 0)
    std::printf("sweep: %d configurations on %d group(s) of %d rank(s)\n", n, groups, per), std::fflush(stdout);

  // Per case: exit code, final step, time, summary (filled by the group's rank 0).
  std::vector<int> codes(static_cast<std::size_t>(n), 0);
  std::vector<long long> steps(static_cast<std::size_t>(n), 0);
  std::vector<std::string> summaries(static_cast<std::size_t>(n));
  bool stopped = false;
  if (sub != MPI_COMM_NULL) {
    for (int c = color; c < n; c += groups) {
      const auto& sc = cases[static_cast<std::size_t>(c)];
      if (stopped) {
        codes[static_cast<std::size_t>(c)] = kExitRequeue;
        summaries[static_cast<std::size_t>(c)] = "not started (stopped early)";
        continue;
      }
      RunOptions o = options;
      o.outdir = options.outdir + "/" + sc.name;
      o.label = sc.name + ": ";
      // Continuing a sweep with --restart: a case that never started has no checkpoint yet.
      if (o.restart && o.checkpoint.empty()) {
        int has = 0;
        if (subRank == 0) {
          std::error_code ec;
          for (const auto& e : std::filesystem::directory_iterator(o.outdir + "/checkpoints", ec))
            if (e.path().filename().string().rfind("checkpoint_", 0) == 0 && e.path().extension() == ".h5") has = 1;
        }
        MPI_Bcast(&has, 1, MPI_INT, 0, sub);
        o.restart = has != 0;
      }
      RunResult r = runSimulation(sub, driver, sc.deck, o);
      codes[static_cast<std::size_t>(c)] = r.exitCode;
      steps[static_cast<std::size_t>(c)] = r.step;
      summaries[static_cast<std::size_t>(c)] = r.exitCode == 0 ? r.summary : r.message;
      if (r.exitCode == kExitRequeue) stopped = true;
    }
  }
  // Collect on world rank 0 from each group's rank 0.
  std::vector<int> allCodes(static_cast<std::size_t>(n), 0);
  std::vector<long long> allSteps(static_cast<std::size_t>(n), 0);
  MPI_Reduce(codes.data(), allCodes.data(), n, MPI_INT, MPI_MAX, 0, world);
  MPI_Reduce(steps.data(), allSteps.data(), n, MPI_LONG_LONG, MPI_MAX, 0, world);
  std::vector<std::string> allSummaries = summaries;
  for (int c = 0; c < n; ++c) {
    const int owner = (c % groups) * per;  // world rank of the group's rank 0
    if (owner == 0) continue;
    if (rank == owner) {
      int len = static_cast<int>(summaries[static_cast<std::size_t>(c)].size());
      MPI_Send(&len, 1, MPI_INT, 0, c, world);
      MPI_Send(summaries[static_cast<std::size_t>(c)].data(), len, MPI_CHAR, 0, c, world);
    } else if (rank == 0) {
      int len = 0;
      MPI_Recv(&len, 1, MPI_INT, owner, c, world, MPI_STATUS_IGNORE);
      allSummaries[static_cast<std::size_t>(c)].resize(static_cast<std::size_t>(len));
      MPI_Recv(allSummaries[static_cast<std::size_t>(c)].data(), len, MPI_CHAR, owner, c, world,
               MPI_STATUS_IGNORE);
    }
  }
  if (sub != MPI_COMM_NULL) MPI_Comm_free(&sub);
  int result = 0;
  if (rank == 0) {
    std::ostringstream t;
    t << "| case | exit | final step | result |\n|---|---|---|---|\n";
    for (int c = 0; c < n; ++c)
      t << "| " << cases[static_cast<std::size_t>(c)].name << " (" << cases[static_cast<std::size_t>(c)].deck.file()
        << ") | " << allCodes[static_cast<std::size_t>(c)] << " | " << allSteps[static_cast<std::size_t>(c)]
        << " | " << allSummaries[static_cast<std::size_t>(c)] << " |\n";
    std::printf("\nsweep summary (also in %s/sweep_summary.md):\n%s", options.outdir.c_str(), t.str().c_str());
    std::ofstream(options.outdir + "/sweep_summary.md") << t.str();
    std::printf("each case's summary.json is in its folder; jobscripts/summarize %s aggregates them\n",
                options.outdir.c_str());
    result = combineExitCodes(allCodes);
  }
  MPI_Bcast(&result, 1, MPI_INT, 0, world);
  return result;
}

}  // namespace kirchhoff::run
