// Command-line parsing: our flags are taken out, the deck is the first non-option argument,
// and every remaining argument is a PETSc option (checked later with -options_left).
#include "run/Cli.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>

#include "core/Error.hpp"

namespace kirchhoff::run {

namespace {

bool endsWith(const std::string& s, const std::string& e) {
  return s.size() >= e.size() && s.compare(s.size() - e.size(), e.size(), e) == 0;
}

std::int64_t parseIndex(const std::string& flag, const std::string& what, const std::string& v) {
  char* end = nullptr;
  errno = 0;
  const long long n = std::strtoll(v.c_str(), &end, 10);
  constexpr long long kMax = 1LL << 53;  // as the deck's time.steps: step * dt stays exact
  if (v.empty() || *end != '\0' || errno || n < 0)
    throw UsageError(flag + " needs " + what + " >= 0, got '" + v + "'");
  if (n > kMax) throw UsageError(flag + " needs " + what + " <= 2^53 = " + std::to_string(kMax) + ", got '" + v + "'");
  return n;
}

bool isNumber(const std::string& v) {
  char* end = nullptr;
  std::strtod(v.c_str(), &end);
  return !v.empty() && *end == '\0';
}

double parseSeconds(const std::string& v) {
  char* end = nullptr;
  const double s = std::strtod(v.c_str(), &end);
  if (v.empty() || *end != '\0' || !(s >= 0))
    throw UsageError("--max-wall needs seconds >= 0, got '" + v + "'");
  return s;
}

}  // namespace

CliOptions parseCommandLine(int argc, char** argv, const std::vector<std::string>& toolFlags) {
  CliOptions o;
  std::vector<std::string> a(argv + 1, argv + argc);
  // A following option is a missing value; a negative number is a value (refused by its parser
  // with the reason, not as "missing").
  auto value = [&](std::size_t& i, const std::string& flag) {
    if (i + 1 >= a.size() || (a[i + 1].size() > 1 && a[i + 1][0] == '-' && !isNumber(a[i + 1])))
      throw UsageError(flag + " needs a value");
    return a[++i];
  };
  bool inPetsc = false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const std::string& s = a[i];
    if (s == "-h" || s == "--help") o.help = true;
    else if (s == "--version") o.version = true;
    else if (s == "--deck-reference") o.deckReference = true;
    else if (s == "--log-reference") o.logReference = true;
    else if (s == "-o" || s == "--output") {
      o.outdir = value(i, s);
      if (o.outdir.find_first_not_of(" \t") == std::string::npos)
        throw UsageError(s + " needs a folder name, got '" + o.outdir + "' (leave -o out for out/<deck name>)");
    }
    else if (s == "--steps") o.steps = parseIndex(s, "a step index", value(i, s));
    else if (s == "--case") o.caseIndex = parseIndex(s, "a case index", value(i, s));
    else if (s == "--max-wall") o.maxWall = parseSeconds(value(i, s));
    else if (s == "--overwrite") o.overwrite = true;
    else if (s == "--new-log") o.newLog = true;
    else if (s == "--set" || s.rfind("--set=", 0) == 0) {
      const std::string kv = s == "--set" ? value(i, s) : s.substr(6);
      if (kv.find('=') == std::string::npos || kv[0] == '=')
        throw UsageError("--set needs KEY=VALUE (e.g. --set time.dt=0.05), got '" + kv + "'");
      o.sets.push_back(kv);
    }
    else if (s == "--restart") {
      o.restart = true;
      if (i + 1 < a.size() && endsWith(a[i + 1], ".h5")) o.restartCheckpoint = a[++i];
    } else if (std::find(toolFlags.begin(), toolFlags.end(), s) != toolFlags.end()) {
      if (!o.tool.empty()) throw UsageError("give only one of " + o.tool + " and " + s);
      o.tool = s;
    } else if (s.rfind("--", 0) == 0) {
      throw UsageError("unknown option " + s + " (PETSc options start with a single '-')");
    } else if (s.size() > 1 && s[0] == '-') {
      inPetsc = true;
      o.petscArgs.push_back(s);
    } else if (o.deck.empty() && (!inPetsc || endsWith(s, ".yaml") || endsWith(s, ".yml"))) {
      o.deck = s;
    } else if (inPetsc) {
      o.petscArgs.push_back(s);  // value of the preceding PETSc option
    } else {
      throw UsageError("unexpected argument '" + s + "' (one deck only)");
    }
  }
  if (!o.help && !o.version && !o.deckReference && !o.logReference && o.deck.empty()) {
    if (std::find(o.petscArgs.begin(), o.petscArgs.end(), "-help") != o.petscArgs.end())
      throw UsageError("-help lists the PETSc and kirchhoff options of the solvers a deck builds: "
                       "give a deck (-h or --help for the command line)");
    throw UsageError("no deck given");
  }
  if (o.restart && o.overwrite) throw UsageError("--restart and --overwrite exclude each other");
  if (o.newLog && !o.restart) throw UsageError("--new-log needs --restart [CHECKPOINT.h5]");
  return o;
}

std::string usage(const std::string& model,
                  const std::vector<std::pair<std::string, std::string>>& tools) {
  std::string u =
      "usage: kirchhoff-" + model +
      " DECK.yaml [-o OUTDIR] [--set KEY=VALUE]... [--restart [CHECKPOINT.h5]] [--steps N]\n"
      "       [--max-wall S] [--case N] [--overwrite] [--new-log] [PETSc options]\n"
      "       kirchhoff-" + model + " --deck-reference | --log-reference | --version | --help\n\n"
      "  -o OUTDIR            output folder (default out/<deck name>)\n"
      "  --set KEY=VALUE      override a deck value, checked as in the file (repeatable), e.g.\n"
      "                       --set time.dt=0.05 --set bodies[0].density=2 --set rayleigh.scheme.method=heun\n"
      "  --restart [FILE]     continue from FILE or the newest valid checkpoint in OUTDIR\n"
      "  --steps N            end at step index N (absolute: a restart continues to N)\n"
      "  --max-wall S         wall-clock budget in seconds: checkpoint and exit 75 before it ends\n"
      "  --case N             run only case N of the deck's sweep, into OUTDIR/case<NNN> (job arrays)\n"
      "  --overwrite          start afresh in an OUTDIR that holds checkpoints (deletes them)\n"
      "  --new-log            with --restart: start a new invariant log at the checkpoint's step\n"
      "                       (e.g. --restart other/checkpoints/X.h5 -o NEWDIR, or lost logs)\n"
      "  --deck-reference     print every deck key (type, default, range, meaning)\n"
      "  --log-reference      print the invariant log's columns (kind, units, meaning)\n"
      "  --version            versions of the code, PETSc, HDF5, MPI, Eigen, yaml-cpp; build options\n"
      "  DECK -help           PETSc's help: every PETSc and kirchhoff option (-del_*, -panel_*) of the\n"
      "                       solvers the deck builds, with its default; nothing is run\n";
  for (const auto& t : tools) u += "  " + t.first + std::string(t.first.size() < 20 ? 21 - t.first.size() : 1, ' ') + t.second + "\n";
  u += "\nexit codes: 0 finished, 1 numerical failure (last checkpoint kept), 64 usage error or\n"
       "            output folder in use, 65 bad deck, changed deck on restart, unreadable checkpoint\n"
       "            or failed output (disk full), 71 out of memory, 75 stopped early (signal, wall clock,\n"
       "            watchdog): requeue\n";
  return u;
}

}  // namespace kirchhoff::run
