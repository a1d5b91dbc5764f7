// summary.json (run/RunSummary; docs/output.md, "summary.json"): the relative changes are read
// back from the invariant log (relative to |c_0|, absolute when c_0 vanishes, NaN for a missing
// column), the JSON text escapes strings and writes non-finite numbers as null.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/Error.hpp"
#include "io/InvariantLog.hpp"
#include "run/RunSummary.hpp"

using namespace kirchhoff;

namespace {

std::string logWith(const std::string& name, const std::vector<std::vector<double>>& rows) {
  const std::string dir = ::testing::TempDir() + "/kirchhoff_summary_" + name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/invariants.h5";
  auto log = io::InvariantLog::create(path, {"energy", "momentum_x", "count"}, {{"model", "test"}}, 1, 2);
  for (std::size_t k = 0; k < rows.size(); ++k) log.append(static_cast<std::int64_t>(k), 0.1 * k, rows[k]);
  log.flush();
  return path;
}

}  // namespace

TEST(RunSummary, MaxRelativeChangeFromTheLog) {
  // energy 2 -> 2.5 -> 1: max |E - E0| / |E0| = 1 / 2; momentum_x starts at 0: absolute change 2e-3.
  const std::string path = logWith("changes", {{2.0, 0.0, 1}, {2.5, 1e-3, 2}, {1.0, -2e-3, 3}, {2.2, 0.0, 4}});
  const auto c = run::maxRelativeChanges(path, {"energy", "momentum_x", "missing"});
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0].first, "energy");
  EXPECT_DOUBLE_EQ(c[0].second, 0.5);
  EXPECT_EQ(c[1].first, "momentum_x");
  EXPECT_DOUBLE_EQ(c[1].second, 2e-3);
  EXPECT_TRUE(std::isnan(c[2].second)) << "a column the log lacks is reported, as NaN";
}

TEST(RunSummary, NoLogGivesNaN) {
  const auto c = run::maxRelativeChanges(::testing::TempDir() + "/no/such/invariants.h5", {"energy"});
  ASSERT_EQ(c.size(), 1u);
  EXPECT_TRUE(std::isnan(c[0].second));
}

TEST(RunSummary, JsonFieldsEscapesAndNulls) {
  run::RunSummary s;
  s.model = "fluidbody";
  s.deckFile = "my \"deck\".yaml";
  s.overrides = "time.dt=0.05\nbodies[0].density=2";
  s.ranks = 2;
  s.firstStep = 100;
  s.lastStep = 300;
  s.finalStep = 1000;
  s.wallSeconds = 4.0;
  s.exitStatus = kExitRequeue;
  s.message = "stopped at step 300\t(signal 10)";
  s.maxRelativeChange = {{"energy", 2.5e-7}, {"f1", std::nan("")}};
  const std::string j = run::toJson(s);
  for (const char* want : {"\"deck_file\": \"my \\\"deck\\\".yaml\"",
                           "\"overrides\": [\"time.dt=0.05\", \"bodies[0].density=2\"]", "\"ranks\": 2",
                           "\"steps\": 200", "\"steps_per_second\": 50", "\"exit_status\": 75",
                           "\"status\": \"stopped\"", "\"message\": \"stopped at step 300\\t(signal 10)\"",
                           "\"energy\": 2.5e-07", "\"f1\": null"})
    EXPECT_NE(j.find(want), std::string::npos) << "missing " << want << " in\n" << j;
  EXPECT_EQ(run::statusName(0), "finished");
  EXPECT_EQ(run::statusName(1), "failed");
  EXPECT_EQ(run::statusName(65), "bad input");
}

TEST(RunSummary, WrittenAtomically) {
  const std::string dir = ::testing::TempDir() + "/kirchhoff_summary_file";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  run::RunSummary s;
  s.model = "top";
  run::writeSummaryFile(dir + "/summary.json", s);
  std::ifstream in(dir + "/summary.json");
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_EQ(ss.str(), run::toJson(s));
  EXPECT_FALSE(std::filesystem::exists(dir + "/summary.json.tmp"));
  EXPECT_THROW(run::writeSummaryFile(dir + "/no/such/folder/summary.json", s), Error);
}
