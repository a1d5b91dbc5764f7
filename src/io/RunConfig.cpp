// The shared deck keys (model, time, output, petsc_options, sweep), their reader, and the
// expansion of a sweep section into one re-validated deck per configuration.
#include "io/RunConfig.hpp"

#include <cmath>
#include <cstdio>

namespace kirchhoff::io {

namespace {
// Integer keys read into an int (intervals, counts): larger values would wrap on the cast.
constexpr double kIntMax = kIntKeyMax;
// At most this many sweep configurations from one linspace (each is a run; more is a typo).
constexpr long kMaxSweepCases = 10000;
}  // namespace

void addRunKeys(Schema& schema) {
  Section& r = schema.root();
  r.string("model", "driver this deck is for (kirchhoff-<model>)").required();
  Section& t = r.map("time", "time stepping", true);
  t.real("dt", "time step h").required().positive();
  t.integer("steps", "final step index (give steps or end_time)").min(0).max(kStepKeyMax);
  t.real("end_time", "final time, a whole number of steps: steps = end_time / dt, refused unless "
                     "within 1e-9 (relative) of an integer").positive();
  Section& o = r.map("output", "invariant log, checkpoints, snapshots, progress");
  o.integer("log_interval", "steps between rows of invariants.h5").def(1).min(1).max(kIntMax);
  o.integer("flush_interval", "rows buffered before invariants.h5 is written (at most once a second, "
                              "and at every checkpoint and the end)").def(100).min(1).max(kIntMax);
  o.integer("checkpoint_interval", "steps between checkpoints (0: only at the end and on signals)")
      .def(1000).min(0).max(kIntMax);
  o.integer("keep_checkpoints", "number of newest checkpoints kept").def(2).min(2).max(kIntMax);
  o.integer("progress_interval", "steps between progress lines on rank 0 (0: none)").def(100).min(0).max(kIntMax);
  o.integer("snapshot_interval", "steps between trajectory snapshots (0: none)").def(0).min(0).max(kIntMax);
  o.integer("check_interval", "steps between the model's physical stop checks (1: every step)")
      .def(1).min(1).max(kIntMax);
  o.real("max_wall", "wall-clock budget in seconds; the run checkpoints and exits 75 before it "
                     "runs out (0: no budget)").def(0.0).nonnegative();
  o.real("checkpoint_reserve", "seconds of max_wall kept back for the final checkpoint").def(30.0)
      .nonnegative();
  o.real("stall_timeout", "watchdog: a rank that makes no progress for this many seconds (at "
                          "least 50 steps' worth) stops the run with exit 75 (0: never)").def(900.0)
      .nonnegative();
  r.string("petsc_options", "PETSc options (e.g. \"-del_snes_rtol 1e-12\"); the command line "
                            "overrides them").def("");
  Section& s = r.map("sweep", "run several configurations, spread over sub-communicators");
  s.integer("ranks_per_case", "ranks per configuration (0: split COMM_WORLD evenly)").def(0).min(0).max(kIntMax);
  Section& p = s.list("parameters", "swept keys; all lists have the same length (zipped)", true, 1);
  p.string("key", "deck key to vary, e.g. bodies[0].density").required();
  p.realList("values", "values of the key, one per configuration").minItems(1);
  p.vector("linspace", 3, "[start, stop, count]: count evenly spaced values");
}

RunConfig readRunConfig(const Deck& deck) {
  const DeckNode root = deck.root();
  RunConfig c;
  c.model = root.string("model");
  const DeckNode t = root.map("time");
  c.dt = t.real("dt");
  if (t.has("steps") == t.has("end_time"))
    t.fail("", "give exactly one of 'time.steps' and 'time.end_time'");
  if (t.has("steps")) {
    c.steps = t.integer("steps");
  } else {
    const double n = t.real("end_time") / c.dt;
    if (!(n <= kStepKeyMax))  // 2^53: beyond it llround overflows and steps lose exactness
      t.fail("end_time", "end_time / dt = " + std::to_string(n) + " steps is too many");
    c.steps = static_cast<std::int64_t>(std::llround(n));
    if (std::abs(n - static_cast<double>(c.steps)) > 1e-9 * std::max(1.0, n))
      t.fail("end_time", "end_time is not a whole number of steps dt (" + std::to_string(n) + ")");
  }
  const DeckNode o = root.map("output");
  c.logInterval = static_cast<int>(o.integer("log_interval"));
  c.flushInterval = static_cast<int>(o.integer("flush_interval"));
  c.checkpointInterval = static_cast<int>(o.integer("checkpoint_interval"));
  c.keepCheckpoints = static_cast<int>(o.integer("keep_checkpoints"));
  c.progressInterval = static_cast<int>(o.integer("progress_interval"));
  c.snapshotInterval = static_cast<int>(o.integer("snapshot_interval"));
  c.checkInterval = static_cast<int>(o.integer("check_interval"));
  c.maxWall = o.real("max_wall");
  c.checkpointReserve = o.real("checkpoint_reserve");
  c.stallTimeout = o.real("stall_timeout");
  c.petscOptions = root.string("petsc_options");
  return c;
}

std::vector<SweepCase> sweepCases(const Deck& deck) {
  const DeckNode root = deck.root();
  if (!root.has("sweep")) return {SweepCase{"", deck}};
  const auto params = root.map("sweep").list("parameters");
  std::vector<std::pair<std::string, std::vector<double>>> columns;
  for (const auto& p : params) {
    if (p.has("values") == p.has("linspace"))
      p.fail("", "give exactly one of 'values' and 'linspace'");
    std::vector<double> v;
    if (p.has("values")) {
      v = p.vector("values");
    } else {
      const auto l = p.vector("linspace");
      if (!(l[2] >= 1.0 && l[2] <= static_cast<double>(kMaxSweepCases)))
        p.fail("linspace", "count must be a whole number in [1, " + std::to_string(kMaxSweepCases) + "]");
      const long n = std::lround(l[2]);
      if (std::abs(l[2] - static_cast<double>(n)) > 0) p.fail("linspace", "count must be a whole number >= 1");
      for (long i = 0; i < n; ++i) v.push_back(n == 1 ? l[0] : l[0] + (l[1] - l[0]) * static_cast<double>(i) / static_cast<double>(n - 1));
    }
    if (!columns.empty() && v.size() != columns.front().second.size())
      p.fail("", "every swept key needs the same number of values (" +
                     std::to_string(columns.front().second.size()) + ")");
    columns.emplace_back(p.string("key"), v);
  }
  std::vector<SweepCase> cases;
  const std::size_t n = columns.front().second.size();
  for (std::size_t i = 0; i < n; ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "case%03zu", i);
    Deck d = deck;
    bool first = true;
    for (const auto& col : columns) {
      char text[64];
      std::snprintf(text, sizeof text, "%.17g", col.second[i]);
      // Integer-valued keys (edges, ...) must stay integers in the YAML text.
      if (col.second[i] == std::floor(col.second[i]) && std::abs(col.second[i]) < 1e15)
        std::snprintf(text, sizeof text, "%.0f", col.second[i]);
      Deck next = (first ? deck : d).withOverride(col.first, YAML::Node(std::string(text)));
      d = next;
      first = false;
    }
    cases.push_back(SweepCase{name, d});
  }
  return cases;
}

}  // namespace kirchhoff::io
