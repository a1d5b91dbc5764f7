// The command line (docs/running.md "Running a driver"): a negative number reaches the parser of
// its flag (and is refused with the reason, not as a missing value), an empty -o is refused
// instead of silently meaning out/<deck name>, --steps stays within 2^53 like time.steps.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/Error.hpp"
#include "run/Cli.hpp"

using namespace kirchhoff;
using namespace kirchhoff::run;

namespace {

CliOptions parse(std::vector<std::string> args) {
  args.insert(args.begin(), "kirchhoff-fluidbody");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  return parseCommandLine(static_cast<int>(argv.size()), argv.data(), {});
}

/// The UsageError message of parsing `args` ("" if they parse).
std::string usageError(const std::vector<std::string>& args) {
  try {
    parse(args);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(Cli, NegativeNumbersAreRefusedByTheirFlagNotAsMissing) {
  EXPECT_EQ(usageError({"d.yaml", "--max-wall", "-5"}), "--max-wall needs seconds >= 0, got '-5'");
  EXPECT_EQ(usageError({"d.yaml", "--case", "-1"}), "--case needs a case index >= 0, got '-1'");
  EXPECT_EQ(usageError({"d.yaml", "--steps", "-1"}), "--steps needs a step index >= 0, got '-1'");
  EXPECT_EQ(usageError({"d.yaml", "--max-wall", "--overwrite"}), "--max-wall needs a value");
  EXPECT_EQ(usageError({"d.yaml", "--case"}), "--case needs a value");
}

TEST(Cli, EmptyOutputFolderIsRefused) {
  for (const char* o : {"", " "})
    EXPECT_EQ(usageError({"d.yaml", "-o", o}),
              "-o needs a folder name, got '" + std::string(o) + "' (leave -o out for out/<deck name>)");
  EXPECT_EQ(parse({"d.yaml", "-o", "run"}).outdir, "run");
  EXPECT_EQ(parse({"d.yaml"}).outdir, "");
}

TEST(Cli, StepsBeyond2To53AreRefused) {
  EXPECT_EQ(parse({"d.yaml", "--steps", "9007199254740992"}).steps, 9007199254740992);
  EXPECT_EQ(usageError({"d.yaml", "--steps", "9007199254740993"}),
            "--steps needs a step index <= 2^53 = 9007199254740992, got '9007199254740993'");
}
