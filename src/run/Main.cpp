// main() of every driver: MPI and PETSc start-up, command line, deck (read on rank 0, broadcast,
// validated on all ranks), PETSc options from deck and command line, run or sweep, exit code.
#include "run/Main.hpp"

#include <hdf5.h>
#include <petscsys.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <sstream>

#include "core/Collective.hpp"
#include "core/Mpi.hpp"
#include "core/PetscErrors.hpp"
#include "core/Version.hpp"
#include "io/OutputFolder.hpp"
#include "io/DeckOverrides.hpp"
#include "io/MpiIo.hpp"
#include "io/NoFollow.hpp"
#include "io/OutdirLock.hpp"
#include "io/RunConfig.hpp"
#include "io/TextFile.hpp"
#include "run/Cli.hpp"
#include "run/Signals.hpp"
#include "run/Simulation.hpp"
#include "run/Sweep.hpp"
#include "run/VersionReport.hpp"

namespace kirchhoff::run {

namespace fs = std::filesystem;

io::Schema driverSchema(const Driver& d) {
  io::Schema s(d.model);
  io::addRunKeys(s);
  if (d.addKeys) d.addKeys(s);
  return s;
}

std::string logReference(const Driver& d) {
  std::string s;
  for (const auto& [heading, columns] : d.logColumns) s += "\n" + heading + "\n\n" + columnTable(*columns);
  return s;
}

namespace {

int worldRank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

void printError(const std::string& msg) {
  if (worldRank() == 0) std::fprintf(stderr, "error: %s\n", msg.c_str()), std::fflush(stderr);
}

/// Reads the deck file on rank 0 (bounded: no FIFO, device or huge file) and broadcasts its text,
/// or the reason it cannot be read, which every rank then throws.
std::string readDeckText(const std::string& file) {
  std::string text;
  int ok = 1;
  if (worldRank() == 0) {
    try {
      text = io::readTextFile(file, "the deck");
    } catch (const DeckError& e) {
      ok = 0;
      text = e.what();
    }
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  broadcast(MPI_COMM_WORLD, text);
  if (!ok) throw DeckError(text);
  return text;
}

/// PETSc's -help: the options are listed as the solvers are built; nothing is run or written.
bool helpRequested() {
  PetscBool help = PETSC_FALSE;
  PetscOptionsHasHelp(nullptr, &help);
  return help == PETSC_TRUE;
}

/// Deck options first, then the command line again, so the command line wins.
void insertPetscOptions(const io::Deck& deck, const std::vector<std::string>& cli) {
  const std::string d = deck.petscOptions();
  if (!d.empty()) {
    std::istringstream ss(d);
    std::string tok;
    if (ss >> tok && tok[0] != '-')
      throw DeckError(deck.file() + ": key 'petsc_options': expected options starting with '-', got '" + tok + "'");
    if (PetscOptionsInsertString(nullptr, d.c_str()) != 0)
      throw DeckError(deck.file() + ": key 'petsc_options': PETSc cannot parse '" + d + "'");
  }
  std::string c;
  for (const auto& a : cli) c += (c.empty() ? "" : " ") + a;
  if (!c.empty() && PetscOptionsInsertString(nullptr, c.c_str()) != 0)
    throw UsageError("PETSc cannot parse the command-line options '" + c + "'");
}

void reportUnusedOptions() {
  PetscInt n = 0;
  char** names = nullptr;
  char** values = nullptr;
  if (PetscOptionsLeftGet(nullptr, &n, &names, &values) != 0) return;
  for (PetscInt i = 0; i < n; ++i) {
    const std::string name = names[i];
    if (name == "options_left" || name == "malloc_debug" || name == "malloc_dump" ||
        name == "log_view" || name == "no_signal_handler" || name == "malloc_test")
      continue;
    if (worldRank() == 0)
      std::fprintf(stderr, "warning: PETSc option -%s%s%s was not used (misspelled, or for a solver this run does not have)\n",
                   names[i], values[i] ? " " : "", values[i] ? values[i] : "");
  }
  PetscOptionsLeftRestore(nullptr, &n, &names, &values);
}

/// Rank 0: creates and locks a sweep's OUTDIR for the whole sweep (each case also locks its own
/// folder; `--case N` locks only its case, so the tasks of a job array run side by side).
/// Returns "" or why the folder cannot be used (exit 64).
std::string lockSweepFolder(const std::string& outdir, io::OutdirLock& lock) {
  if (std::string bad = io::prepareOutputFolder(outdir); !bad.empty()) return bad;
  try {
    std::string stale;
    lock.acquire(outdir, &stale);
    if (!stale.empty()) std::fprintf(stderr, "warning: %s\n", stale.c_str());
  } catch (const Error& e) {
    return e.what();
  }
  lock.keepAlive();
  return io::linkedOutput(outdir);
}

/// The driver whose model construction is set-up time: a stop signal then exits at once (75).
Driver stoppableSetUp(const Driver& d) {
  Driver g = d;
  g.make = [make = d.make](const io::Deck& deck, double dt, MPI_Comm comm) {
    const ImmediateStop setUp;
    return make(deck, dt, comm);
  };
  return g;
}

int runDeck(const Driver& plain, const CliOptions& cli, double startTime) {
  const Driver driver = stoppableSetUp(plain);
  const io::Schema schema = driverSchema(driver);
  std::optional<ImmediateStop> setUp(std::in_place);  // deck reading and tools: nothing to save
  std::vector<std::string> notes;
  // Every set-up verdict is collective: an MPMD launch (or a node-local file) can give ranks
  // different command lines and files, and an error on any rank must end every rank alike.
  const std::string text = readDeckText(cli.deck);
  const io::Deck deck = collectively(MPI_COMM_WORLD, [&] {
    return io::applyOverrides(io::Deck(text, cli.deck, schema), cli.sets, notes);
  });
  for (const auto& n : notes)
    if (worldRank() == 0) std::fprintf(stderr, "note: %s\n", n.c_str());
  collectively(MPI_COMM_WORLD, [&] { insertPetscOptions(deck, cli.petscArgs); });
  if (!cli.tool.empty()) {
    for (const auto& t : driver.tools)
      if (t.flag == cli.tool) return t.run(deck, PETSC_COMM_WORLD, cli.outdir);
  }
  setUp.reset();
  RunOptions o;
  o.outdir = cli.outdir.empty() ? "out/" + fs::path(cli.deck).stem().string() : cli.outdir;
  o.restart = cli.restart;
  o.checkpoint = cli.restartCheckpoint;
  o.steps = cli.steps;
  o.maxWall = cli.maxWall;
  o.startTime = startTime;
  o.overwrite = cli.overwrite;
  o.newLog = cli.newLog;
  for (const auto& s : cli.sets) o.overrides += (o.overrides.empty() ? "" : "\n") + s;
  const auto cases = io::sweepCases(deck);
  const bool sweep = !(cases.size() == 1 && cases.front().name.empty());
  if (helpRequested()) {  // build the model so that its solvers list their options, then stop
    driver.make(cases.front().deck, io::readRunConfig(cases.front().deck).dt, PETSC_COMM_WORLD);
    return kExitOk;
  }
  if (cli.caseIndex >= 0) {  // one case of a sweep (a job-array task), as if it were the whole deck
    const std::string flag = "--case " + std::to_string(cli.caseIndex) + ": ";
    if (!sweep) throw UsageError(flag + cli.deck + " has no sweep: section");
    if (cli.caseIndex >= static_cast<std::int64_t>(cases.size()))
      throw UsageError(flag + "the sweep of " + cli.deck + " has " + std::to_string(cases.size()) +
                       " cases (0.." + std::to_string(cases.size() - 1) + ")");
    const io::SweepCase& c = cases[static_cast<std::size_t>(cli.caseIndex)];
    o.outdir += "/" + c.name;
    o.label = c.name + ": ";
    return runSimulation(PETSC_COMM_WORLD, driver, c.deck, o).exitCode;
  }
  if (!sweep) return runSimulation(PETSC_COMM_WORLD, driver, deck, o).exitCode;
  io::OutdirLock lock;  // the sweep folder as a whole: a second sweep is refused before any case
  std::string bad = worldRank() == 0 ? lockSweepFolder(o.outdir, lock) : "";
  broadcast(MPI_COMM_WORLD, bad);
  if (!bad.empty()) throw UsageError(bad);
  const int per = static_cast<int>(deck.root().map("sweep").integer("ranks_per_case"));
  return runSweep(PETSC_COMM_WORLD, driver, cases, per, o);
}

}  // namespace

int main(int argc, char** argv, const Driver& driver) {
  installStopHandlers();  // a SIGUSR1 from the batch system during start-up must not kill us
  io::chooseMpiIoComponent();
  MPI_Init(&argc, &argv);
  const double start = MPI_Wtime();
  std::vector<std::string> flags;
  std::vector<std::pair<std::string, std::string>> toolHelp;
  for (const auto& t : driver.tools) flags.push_back(t.flag), toolHelp.emplace_back(t.flag, t.help);
  CliOptions cli;
  int code = kExitOk;
  try {
    cli = parseCommandLine(argc, argv, flags);
  } catch (const UsageError& e) {
    printError(std::string(e.what()) + "\n\n" + usage(driver.model, toolHelp));
    MPI_Finalize();
    return kExitUsage;
  }
  if (cli.help || cli.version || cli.deckReference || cli.logReference) {
    if (worldRank() == 0) {
      if (cli.help) std::printf("kirchhoff-%s: %s\n\n%s", driver.model.c_str(), driver.description.c_str(),
                                usage(driver.model, toolHelp).c_str());
      if (cli.version) std::printf("%s", versionReport(driver.model).c_str());
      if (cli.deckReference) std::printf("%s", driverSchema(driver).markdown().c_str());
      if (cli.logReference) std::printf("%s", logReference(driver).c_str());
    }
    MPI_Finalize();
    return kExitOk;
  }
  std::vector<char*> pargv = {argv[0]};
  for (auto& a : cli.petscArgs) pargv.push_back(a.data());
  pargv.push_back(nullptr);
  int pargc = static_cast<int>(pargv.size()) - 1;
  char** pp = pargv.data();
  if (PetscInitialize(&pargc, &pp, nullptr, nullptr) != 0) {
    printError("PETSc initialization failed");
    MPI_Finalize();
    return kExitNumerical;
  }
  recordPetscErrors();  // one line per error (the exception's), not a traceback on every rank
  installStopHandlers();
  try {
    code = runDeck(driver, cli, start);
  } catch (const Error& e) {
    printError(e.what());
    code = e.exitCode();
  } catch (const std::exception& e) {
    printError(std::string("internal error: ") + e.what());
    code = kExitNumerical;
  }
  reportUnusedOptions();
  stopRecordingPetscErrors();
  PetscFinalize();
  // A file HDF5 failed to close (a full disk) stays registered, and HDF5's own clean-up in
  // MPI_Finalize crashes on it (libhdf5 1.10): every message is out, so end without it.
  if (H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_FILE) > 0) {
    std::fflush(stdout);
    std::fflush(stderr);
    std::_Exit(code != kExitOk ? code : kExitData);
  }
  MPI_Finalize();
  return code;
}

}  // namespace kirchhoff::run
