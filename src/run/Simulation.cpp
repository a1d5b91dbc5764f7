// The run loop shared by every driver: fresh start or restart, then per step
// step -> agree on failure -> finite check -> check -> log -> snapshot -> checkpoint -> progress.
#include "run/Simulation.hpp"

#include <petscsys.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <sstream>
#include <system_error>
#include <tuple>
#include <utility>

#include "core/Collective.hpp"
#include "core/LogEvents.hpp"
#include "core/Mpi.hpp"
#include "core/PetscOptionText.hpp"
#include "core/Version.hpp"
#include "io/Checkpoint.hpp"
#include "io/DeckChanges.hpp"
#include "io/Hdf5.hpp"
#include "io/InvariantLog.hpp"
#include "io/NoFollow.hpp"
#include "io/OutdirLock.hpp"
#include "io/OutputFolder.hpp"
#include "io/RunConfig.hpp"
#include "io/SnapshotWriter.hpp"
#include "io/SpaceHint.hpp"
#include "run/Progress.hpp"
#include "run/RunSummary.hpp"
#include "run/Signals.hpp"
#include "run/Watchdog.hpp"

namespace kirchhoff::run {

namespace fs = std::filesystem;

namespace {

class Loop {
 public:
  Loop(MPI_Comm comm, const Driver& d, const io::Deck& deck, const RunOptions& o)
      : comm_(comm), driver_(d), deck_(deck), opt_(o), wall0_(MPI_Wtime()) {
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
  }

  RunResult run() {
    dog_ = std::make_unique<Watchdog>(
        stallTimeout(), opt_.label + (size_ > 1 ? "rank " + std::to_string(rank_) + ": " : ""),
        [this] { lock_.heartbeat(); }, io::OutdirLock::kHeartbeatSeconds);
    {
      ScopedStage stage(Stage::SetUp);
      setUp();
    }
    ScopedStage stage(Stage::TimeSteps);
    while (state_.step < finalStep_) {
      if (const std::string why = stopReason(); !why.empty()) return stopEarly(why);
      if (auto r = advance()) return *r;
    }
    finish();
    RunResult res;
    res.step = state_.step;
    res.time = state_.time;
    res.summary = model_->summary(state_);
    return res;
  }

  void say(const std::string& s) const {
    if (rank_ == 0) std::fprintf(stdout, "%s%s\n", opt_.label.c_str(), s.c_str()), std::fflush(stdout);
  }
  void warn(const std::string& s) const {
    if (rank_ == 0)
      std::fprintf(stderr, "%swarning: %s\n", opt_.label.c_str(), s.c_str()), std::fflush(stderr);
  }
  const State& state() const { return state_; }
  ~Loop() {
    dog_.reset();  // first: its thread writes the lock's heartbeat
    log_.reset();
    snaps_.reset();
    lock_.release();
  }

  /// OUTDIR/summary.json on rank 0, after any end of the run (a warning if it cannot be written).
  /// Only under the folder's lock: a run refused because another one holds OUTDIR must not open
  /// that run's log (HDF5's file lock would make the holder's next write fail) nor replace its files.
  void writeSummary(const RunResult& r) {
    if (rank_ != 0 || !lock_.held()) return;
    RunSummary s;
    s.model = driver_.model;
    s.deckFile = deck_.file();
    char hash[20];
    std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(deck_.hash()));
    s.deckHash = hash;
    s.gitSha = kGitSha;
    s.codeVersion = kCodeVersion;
    s.overrides = opt_.overrides;
    s.outdir = opt_.outdir;
    s.ranks = size_;
    s.firstStep = firstStep_ < 0 ? r.step : firstStep_;
    s.lastStep = r.step;
    s.finalStep = finalStep_;
    s.time = r.time;
    s.dt = cfg_.dt;
    s.wallSeconds = MPI_Wtime() - wall0_;
    s.exitStatus = r.exitCode;
    s.message = r.message;
    try {
      if (log_) log_->flush();
      if (model_) {  // the conserved columns (their kind as the model logs them), in the log's order
        const std::string path = opt_.outdir + "/invariants.h5";
        std::vector<std::string> cols;
        for (const auto& q : columns_)
          if (q.kind == "conserved") cols.push_back(q.name);
        if (columns_.empty()) cols = conservedColumns(path);  // a restart that failed before its first row
        s.maxRelativeChange = maxRelativeChanges(path, cols);
      }
      if (fs::is_directory(opt_.outdir)) writeSummaryFile(opt_.outdir + "/summary.json", s);
    } catch (const std::exception& e) {
      warn(std::string("no summary.json: ") + e.what());
    }
  }

 private:
  /// Runs `f` on rank 0 only; an exception there is thrown on every rank (as Error with its exit
  /// code), so no rank waits in a collective for a rank that gave up (a 2-rank run would deadlock).
  /// A full disk is named as such (a failed copy on a full tmpfs reports "Input/output error").
  template <class F>
  void onRoot(F&& f) {
    std::string err;
    int code = 0;
    if (rank_ == 0) {
      try {
        f();
      } catch (const std::exception& e) {
        std::tie(err, code) = describe(e);
        if (err.find("no space left") == std::string::npos) err += io::spaceHint(opt_.outdir);
      }
    }
    if (Verdict a = agree(comm_, !err.empty(), code, err); a.failed) throw Error(a.message, a.code);
  }

  /// The deck's output.stall_timeout (read before the full set-up; 0 disables the watchdog).
  double stallTimeout() const {
    try {
      return io::readRunConfig(deck_).stallTimeout;
    } catch (const std::exception&) {
      return 0.0;  // setUp reports the deck error
    }
  }

  // --- set-up ------------------------------------------------------------------------------
  void setUp() {
    cfg_ = io::readRunConfig(deck_);
    finalStep_ = opt_.steps >= 0 ? opt_.steps : cfg_.steps;
    maxWall_ = opt_.maxWall >= 0 ? opt_.maxWall : cfg_.maxWall;
    model_ = collectively(comm_, [&] { return driver_.make(deck_, cfg_.dt, comm_); });
    monitored_ = model_->monitoredInvariant();
    const std::string ckdir = opt_.outdir + "/checkpoints";
    store_ = std::make_unique<io::CheckpointStore>(comm_, ckdir, cfg_.keepCheckpoints);
    prepareOutdir();
    petscOptions_ = allPetscOptions();  // stored in the log and every checkpoint
    if (opt_.restart) restartFromCheckpoint();
    else freshStart();
    firstStep_ = state_.step;
    say("kirchhoff-" + driver_.model + " " + kCodeVersion + " (" + kGitSha + "), " +
        std::to_string(size_) + " rank(s): " + deck_.file() + " -> " + opt_.outdir + ", steps " +
        std::to_string(state_.step) + ".." + std::to_string(finalStep_) + ", dt " + num(cfg_.dt));
    progress_.start(state_.step, finalStep_, monitored_);
    dog_->beat("step " + std::to_string(state_.step + 1));
  }

  void prepareOutdir() {
    int bad = 0;
    std::string msg;
    if (rank_ == 0) {
      std::error_code ec;
      msg = io::prepareOutputFolder(opt_.outdir);
      if (!msg.empty()) bad = 2;  // the -o argument is unusable: a usage error (64)
      if (!bad) {  // one run per folder: every rank's writes below happen under rank 0's lock
        try {
          std::string stale;
          lock_.acquire(opt_.outdir, &stale);
          if (!stale.empty()) warn(stale);
        } catch (const Error& e) {
          bad = 2, msg = e.what();
        }
      }
      if (!bad && !(msg = io::linkedOutput(opt_.outdir)).empty()) bad = 2;  // never written through
      if (!bad && !opt_.restart && !store_->list().empty()) {
        if (opt_.overwrite) {
          fs::remove_all(store_->directory(), ec);
          for (const char* f : {"invariants.h5", "invariants.h5.ckpt", "snapshots.h5", "snapshots.xmf"})
            fs::remove(opt_.outdir + "/" + f, ec);
          for (const auto& e : fs::directory_iterator(opt_.outdir, ec)) {  // snapshots_<mesh>.xmf
            const std::string n = e.path().filename().string();
            if (n.rfind("snapshots_", 0) == 0 && e.path().extension() == ".xmf") fs::remove(e.path(), ec);
          }
        } else {
          bad = 2;
          msg = opt_.outdir + " already holds checkpoints of a run: continue it with --restart, "
                "start afresh with --overwrite, or choose another -o OUTDIR";
        }
      }
      // A checkpoint write killed half-way leaves a temporary file: remove it.
      if (!bad && fs::is_directory(store_->directory(), ec))
        for (const auto& e : fs::directory_iterator(store_->directory(), ec))
          if (e.path().extension() == ".tmp") fs::remove(e.path(), ec);
      // summary.json describes the run that ended last; this one writes its own at its end. Removed now, so
      // that a run killed before then (SIGKILL, a lost node) leaves none rather than its predecessor's.
      if (!bad) fs::remove(opt_.outdir + "/summary.json", ec);
    }
    MPI_Bcast(&bad, 1, MPI_INT, 0, comm_);
    if (bad) {
      broadcast(comm_, msg);
      throw UsageError(msg);
    }
  }

  void freshStart() {
    state_ = model_->initialState();
    const std::string bad = nonFiniteField();  // else checkpoint 0 would keep it as "good"
    // A non-finite initial state comes from the deck's values (overflow): name where they are.
    const std::string at = deck_.locate(driver_.initialKeys) + ": ";
    if (Verdict a = agree(comm_, !bad.empty(), kExitNumerical, bad); a.failed)
      throw NumericalError(at + "the initial state: " + a.message);
    model_->check(state_);
    const auto inv = firstRow();
    checkFinite(inv, at + "the initial state");
    const std::string& petsc = petscOptions_;
    onRoot([&] {
      std::map<std::string, std::string> attrs = {
          {"model", driver_.model}, {"code_version", kCodeVersion}, {"git_sha", kGitSha},
          {"deck", deck_.text()}, {"deck_file", deck_.file()}, {"petsc_options", petsc},
          {"overrides", opt_.overrides}};
      log_.emplace(io::InvariantLog::create(opt_.outdir + "/invariants.h5", names_, attrs, size_,
                                            cfg_.flushInterval, columns_, time_));
      log_->append(state_.step, state_.time, inv);
      attrs["nranks"] = std::to_string(size_);
      if (cfg_.snapshotInterval > 0)
        snaps_.emplace(opt_.outdir + "/snapshots.h5", opt_.outdir + "/snapshots", -1, attrs, nullptr, time_);
    });
    if (energyColumn_ >= 0) energy0_ = lastEnergy_ = inv[static_cast<std::size_t>(energyColumn_)];
    maxRelChange_ = 0.0;
    writeSnapshot();
    checkpoint();  // step 0, so a failure or a kill before the first interval can restart
  }

  void restartFromCheckpoint() {
    State s = model_->initialState();
    std::vector<std::string> warnings;
    io::CheckpointInfo info = opt_.checkpoint.empty()
                                  ? store_->readNewest(s, driver_.model, &warnings)
                                  : store_->read(opt_.checkpoint, s, driver_.model);
    for (const auto& w : warnings) warn(w);
    model_->restore(s);
    state_ = std::move(s);
    lastCheckpoint_ = state_.step;
    lastCheckpointPath_ = info.path;  // a stop before the next checkpoint names this one
    say("restarting from " + info.path + " (step " + std::to_string(info.step) + ", t = " +
        num(info.time) + ")");
    if (finalStep_ < info.step)  // before anything in OUTDIR changes
      throw UsageError((opt_.steps >= 0 ? "--steps " + std::to_string(finalStep_) : "the deck's final step " + std::to_string(finalStep_)) +
                       " is before the checkpoint's step " + std::to_string(info.step) + " (" + info.path +
                       "): the final step is absolute; give a later one, or --restart an older checkpoint");
    const std::string& petsc = petscOptions_;
    const std::string changes = checkDeckChanges(info, petsc);
    const auto inv = firstRow();
    onRoot([&] {
      if (opt_.newLog) {
        startNewLog(info, petsc, inv);
      } else {
        std::string w;
        log_.emplace(io::InvariantLog::reopen(opt_.outdir + "/invariants.h5", names_, state_.step,
                                              cfg_.logInterval, cfg_.flushInterval, &w));
        if (!w.empty()) warn(w);
      }
      if (!changes.empty()) log_->recordRestartChanges(state_.step, changes);
      if (energyColumn_ >= 0) {
        energy0_ = opt_.newLog ? inv[static_cast<std::size_t>(energyColumn_)] : log_->firstValue(monitored_);
        log_->flush();  // the running maximum of the progress line counts the rows before the restart
        maxRelChange_ = maxRelativeChanges(log_->path(), {monitored_}).front().second;
      }
      if (cfg_.snapshotInterval > 0) continueSnapshots();
      retireNewerCheckpoints(info);
    });
    double shared[2] = {energy0_, maxRelChange_};
    MPI_Bcast(shared, 2, MPI_DOUBLE, 0, comm_);
    energy0_ = shared[0];
    maxRelChange_ = std::isfinite(shared[1]) ? shared[1] : 0.0;
    if (energyColumn_ >= 0) noteEnergy(inv[static_cast<std::size_t>(energyColumn_)]);
  }

  /// After a rewind (--restart FILE of an older checkpoint) the newer checkpoints continue the
  /// abandoned run and the log no longer has their rows (or they were skipped as unreadable):
  /// they are moved aside. Rank 0.
  void retireNewerCheckpoints(const io::CheckpointInfo& info) {
    const std::string folder = store_->retireNewerThan(info.step, info.path);
    if (!folder.empty())
      warn("restarted from step " + std::to_string(info.step) + ": the newer checkpoints (not continued "
           "by this restart: a rewind, or unreadable) are moved to " + folder +
           "; delete them when no longer needed");
  }

  /// --new-log: a fresh invariant log whose first row is the checkpoint's step (an existing log
  /// is kept aside), attributes naming the checkpoint it started from. Rank 0.
  void startNewLog(const io::CheckpointInfo& info, const std::string& petsc, const std::vector<double>& inv) {
    const std::string p = opt_.outdir + "/invariants.h5";
    std::error_code ec;
    if (fs::exists(p, ec)) {
      const std::string aside = p + ".replaced-" + std::to_string(state_.step);
      fs::rename(p, aside);
      warn("--new-log: the old invariant log is kept as " + aside);
    }
    fs::remove(p + ".ckpt", ec);
    std::map<std::string, std::string> attrs = {
        {"model", driver_.model}, {"code_version", kCodeVersion}, {"git_sha", kGitSha},
        {"deck", deck_.text()}, {"deck_file", deck_.file()}, {"petsc_options", petsc},
        {"started_from_checkpoint", info.path + " (step " + std::to_string(info.step) + ")"}};
    log_.emplace(io::InvariantLog::create(p, names_, attrs, size_, cfg_.flushInterval, columns_, time_));
    if (onGrid(cfg_.logInterval)) log_->append(state_.step, state_.time, inv);  // reopen needs grid rows
    say("--new-log: invariant log " + p + " starts at step " + std::to_string(state_.step));
  }

  /// Refuses (exit 65) a restart whose deck changes what the checkpointed state means, or whose
  /// PETSc options change the discretisation (driver's newLogOptions) without --new-log; returns
  /// the allowed changes ("" if none) for the log's attributes.
  std::string checkDeckChanges(const io::CheckpointInfo& info, const std::string& petsc) const {
    io::DeckChanges c;
    if (info.deckText.empty()) {  // a checkpoint of an older version: only the hash is known
      if (info.dt != cfg_.dt)
        throw DeckError(deck_.file() + ": key 'time.dt' changed since " + info.path + " (" +
                        num(info.dt) + " -> " + num(cfg_.dt) + "): a restart must keep the time step");
      if (info.deckHash != deck_.hash())
        warn("the deck changed since " + info.path + " (hash mismatch; the checkpoint predates stored "
             "decks, so the changed keys are unknown): continuing with " + deck_.file());
    } else {
      c = io::compareDecks(info.deckText, deck_.text(), driver_.restartKeys);
    }
    if (!c.refused.empty())
      throw DeckError(deck_.file() + ": a restart from " + info.path + " cannot change these keys "
                      "(the checkpointed state would mean something else):" + listed(c.refused, "\n  ") +
                      "\nrestore them, or start a new run in another -o OUTDIR");
    if (info.hasPetscOptions) {  // older checkpoints did not store the options
      const io::DeckChanges o = io::compareOptions(info.petscOptions, petsc, driver_.newLogOptions);
      if (!o.newLog.empty() && !opt_.newLog)
        throw DeckError("a restart from " + info.path + " cannot change these PETSc options into the "
                        "same invariant log (they change the discrete equations, so its conserved "
                        "quantities would jump):" + listed(o.newLog, "\n  ") +
                        "\nrestore them, or continue into a new log: --restart " + info.path +
                        " --new-log (with -o NEWDIR to keep this folder as it is)");
      c.allowed.insert(c.allowed.end(), o.newLog.begin(), o.newLog.end());
      c.allowed.insert(c.allowed.end(), o.allowed.begin(), o.allowed.end());
    }
    const std::string allowed = listed(c.allowed, "; ");
    if (!allowed.empty()) say("deck changes since the checkpoint (allowed): " + allowed.substr(2));
    return allowed.empty() ? "" : allowed.substr(2);
  }

  /// "<sep>key: old -> new" for every change.
  static std::string listed(const std::vector<io::DeckChange>& changes, const std::string& sep) {
    std::string s;
    for (const auto& d : changes) s += sep + d.describe();
    return s;
  }

  /// Continues snapshots.h5 at the restart step. A file HDF5 cannot open, or one the writer
  /// cannot continue (e.g. a snapshot cut short by a full disk), is renamed to
  /// snapshots.h5.unreadable-<step> with a warning rather than replaced (its frames stay readable). Rank 0.
  void continueSnapshots() {
    const std::string p = opt_.outdir + "/snapshots.h5", prefix = opt_.outdir + "/snapshots";
    const std::map<std::string, std::string> attrs{{"model", driver_.model}};
    std::error_code ec;
    std::string why, w;
    if (fs::exists(p, ec)) {
      io::h5::silenceErrors();
      try {
        io::h5::Handle f(io::h5::openOutput(p, H5F_ACC_RDONLY));
      } catch (const Error&) {
        why = "unreadable";
      }
    }
    if (why.empty()) {
      try {
        snaps_.emplace(p, prefix, state_.step, attrs, &w, time_);
        if (!w.empty()) warn(w);
        return;
      } catch (const Error& e) {
        snaps_.reset();
        why = std::string("cannot be continued (") + e.what() + ")";
      }
    }
    const std::string aside = p + ".unreadable-" + std::to_string(state_.step);
    fs::rename(p, aside);
    warn(p + " is " + why + ": kept aside as " + aside + "; snapshots restart from step " +
         std::to_string(state_.step));
    w.clear();
    snaps_.emplace(p, prefix, state_.step, attrs, &w, time_);
    if (!w.empty()) warn(w);
  }

  /// The model's row at the start (step 0 or the restart's state); its columns are the log's.
  std::vector<double> firstRow() {
    const LogRow row = model_->logRow(state_, StepReport{});
    names_ = row.names();
    columns_ = row.quantities();
    time_ = row.time();
    for (std::size_t i = 0; i < names_.size(); ++i)
      if (names_[i] == monitored_) energyColumn_ = static_cast<int>(i);
    return row.values();
  }

  // --- one step ------------------------------------------------------------------------------
  std::optional<RunResult> advance() {
    const double t0 = MPI_Wtime();
    dog_->beat("step " + std::to_string(state_.step + 1));
    StepReport rep;
    std::string err;
    int code = 0;
    bool keep = false;  // a stop the model raised on the unchanged, valid state k: checkpoint it
    try {
      rep = model_->step(state_);
    } catch (const NumericalError& e) {
      err = e.what();
      code = e.exitCode();
      keep = e.checkpointState();
    } catch (const Error& e) {
      err = e.what();
      code = e.exitCode();
    } catch (const std::exception& e) {
      err = std::string("internal error: ") + e.what();
      code = kExitNumerical;
    }
    if (Verdict a = agree(comm_, !err.empty(), code, err, keep ? 1 : 0); a.failed) {
      const std::string at = "step " + std::to_string(state_.step + 1) + " failed: " + a.message;
      if (!a.extra) return failure(a.code, at + keptCheckpointText());
      std::string path;
      try {
        path = checkpoint();
      } catch (const Error& e) {
        return outputFailure("the checkpoint of step " + std::to_string(state_.step), e);
      }
      return failure(a.code, at + "; checkpoint of step " + std::to_string(state_.step) + " written: " + path);
    }
    state_.step += 1;
    state_.time = static_cast<double>(state_.step) * cfg_.dt;
    const std::string bad = nonFiniteField();
    if (Verdict a = agree(comm_, !bad.empty(), kExitNumerical, bad); a.failed) {
      return failure(kExitNumerical, "step " + std::to_string(state_.step) + ": " + a.message +
                                         keptCheckpointText());
    }
    if (onGrid(cfg_.checkInterval) || state_.step == finalStep_)
      if (auto r = physicalChecks()) return r;
    if (onGrid(cfg_.logInterval) || state_.step == finalStep_) {
      const auto inv = model_->logRow(state_, rep).values();
      try {
        checkFinite(inv, "step " + std::to_string(state_.step));
      } catch (const Error& e) {
        return failure(kExitNumerical, std::string(e.what()) + keptCheckpointText());
      }
      try {
        onRoot([&] { log_->append(state_.step, state_.time, inv); });
      } catch (const Error& e) {
        return outputFailure("the invariant log", e);
      }
      if (energyColumn_ >= 0) noteEnergy(inv[static_cast<std::size_t>(energyColumn_)]);
    }
    try {
      if (cfg_.snapshotInterval > 0 && onGrid(cfg_.snapshotInterval)) writeSnapshot();
    } catch (const Error& e) {
      return outputFailure("the snapshot", e);
    }
    try {
      if (cfg_.checkpointInterval > 0 && onGrid(cfg_.checkpointInterval)) checkpoint();
    } catch (const Error& e) {
      return outputFailure("the checkpoint", e);
    }
    stepSeconds_ = MPI_Wtime() - t0;
    dog_->observe(stepSeconds_ - lastCheckpointSeconds(), checkpointSeconds_);
    if (cfg_.progressInterval > 0 && onGrid(cfg_.progressInterval))
      say(progress_.line(state_.step, state_.time, largestEnergyError(), rep.iterations));
    return std::nullopt;
  }

  /// An output that failed at this step (same on every rank): the step, the error and the kept
  /// checkpoint; exit 65 (data) unless the error says otherwise.
  RunResult outputFailure(const std::string& what, const Error& e) {
    return failure(e.exitCode() == kExitNumerical ? kExitData : e.exitCode(),
                   "step " + std::to_string(state_.step) + ": writing " + what + " failed: " +
                       e.what() + spaceText(e.what()) + keptCheckpointText());
  }

  /// The disk-full diagnosis of OUTDIR, unless the message has it already.
  std::string spaceText(const std::string& message) const {
    std::string h;
    if (rank_ == 0 && message.find("no space left") == std::string::npos) h = io::spaceHint(opt_.outdir);
    broadcast(comm_, h);
    return h;
  }

  double lastCheckpointSeconds() const { return lastCheckpoint_ == state_.step ? lastCheckpointCost_ : 0.0; }

  std::optional<RunResult> physicalChecks() {
    std::string err;
    bool ck = false;
    try {
      model_->check(state_);
    } catch (const NumericalError& e) {
      err = e.what();
      ck = e.checkpointState();
    }
    Verdict a = agree(comm_, !err.empty(), kExitNumerical, err, ck ? 1 : 0);
    if (!a.failed) return std::nullopt;
    std::string where;
    if (a.extra) where = "; checkpoint written: " + checkpoint();
    else where = keptCheckpointText();
    return failure(kExitNumerical, "step " + std::to_string(state_.step) + ": " + a.message + where);
  }

  std::string nonFiniteField() const {
    for (const auto& f : state_.fields)
      for (std::size_t i = 0; i < f.data.size(); ++i)
        if (!std::isfinite(f.data[i]))
          return "non-finite value (NaN/Inf) in state field '" + f.name + "'[" +
                 std::to_string(f.distributed ? f.offset + i : i) + "]";
    return "";
  }

  void checkFinite(const std::vector<double>& inv, const std::string& where) const {
    if (inv.size() != names_.size())
      throw Error("model returned " + std::to_string(inv.size()) + " invariants for " +
                  std::to_string(names_.size()) + " names", kExitNumerical);
    for (std::size_t i = 0; i < inv.size(); ++i)
      if (!std::isfinite(inv[i]))
        throw NumericalError(where + ": invariant '" + names_[i] + "' is not finite (NaN/Inf)");
  }

  bool onGrid(int interval) const { return interval > 0 && state_.step % interval == 0; }

  // --- output ----------------------------------------------------------------------------------
  /// Collective (models gather to rank 0); `endOfRun`: the final state off the snapshot grid.
  void writeSnapshot(bool endOfRun = false) {
    if (cfg_.snapshotInterval <= 0) return;
    Snapshot snap;
    const bool has = model_->snapshot(state_, snap);
    onRoot([&] {
      if (snaps_ && has) snaps_->write(state_.step, state_.time, snap, endOfRun);
    });
  }

  std::string checkpoint() {
    if (lastCheckpoint_ == state_.step) return lastCheckpointPath_;
    const double t0 = MPI_Wtime();
    dog_->beat("checkpoint of step " + std::to_string(state_.step));
    onRoot([&] {
      if (log_) log_->snapshotForCheckpoint();
      if (snaps_) snaps_->flush();  // a restart from this checkpoint finds every frame up to it
    });
    lastCheckpointPath_ = store_->write(state_, driver_.model, cfg_.dt, deck_.hash(), deck_.text(), petscOptions_);
    lastCheckpoint_ = state_.step;
    lastCheckpointCost_ = MPI_Wtime() - t0;
    checkpointSeconds_ = std::max(checkpointSeconds_, lastCheckpointCost_);
    return lastCheckpointPath_;
  }

  std::string keptCheckpointText() const {
    const auto files = store_->list();
    return files.empty() ? "; no checkpoint was written yet"
                         : "; last good checkpoint kept: " + files.front();
  }

  /// Why the run stops here, the same text on every rank: a signal (the one any rank caught: mpirun may
  /// forward it to rank 1 first) or the wall-clock budget; empty to go on.
  std::string stopReason() {
    int local[2] = {stopRequested() ? stopSignal() : 0, 0}, all[2] = {0, 0};
    if (maxWall_ > 0) {
      const double reserve = std::max(std::min(cfg_.checkpointReserve, 0.25 * maxWall_),
                                      2.0 * checkpointSeconds_);
      local[1] = MPI_Wtime() - opt_.startTime + 2.0 * stepSeconds_ + reserve >= maxWall_ ? 1 : 0;
    }
    MPI_Allreduce(local, all, 2, MPI_INT, MPI_MAX, comm_);
    if (all[0] != 0) return "signal " + std::to_string(all[0]);
    return all[1] != 0 ? "wall-clock budget of " + num(maxWall_) + " s" : "";
  }

  RunResult stopEarly(const std::string& why) {
    std::string path;
    try {
      path = checkpoint();
      onRoot([&] {
        if (log_) log_->flush();
      });
    } catch (const Error& e) {
      return outputFailure("the final checkpoint", e);
    }
    RunResult r;
    r.exitCode = kExitRequeue;
    r.step = state_.step;
    r.time = state_.time;
    r.message = "stopped at step " + std::to_string(state_.step) + " (" + why + "); checkpoint " +
                path + "; continue with --restart" + mpirunTermNote();
    return r;
  }

  /// Open MPI's mpirun answers a SIGTERM by ending the job and exiting 1 itself, whatever its
  /// ranks return (4.1; it refuses to forward SIGTERM as it forwards SIGUSR1): say where the
  /// run's own exit code is.
  std::string mpirunTermNote() const {
    if (stopSignal() != SIGTERM || !std::getenv("OMPI_COMM_WORLD_SIZE")) return "";
    return " (mpirun itself exits 1 after a SIGTERM; this run's exit code, 75, is in " + opt_.outdir +
           "/summary.json; a SIGUSR1 to mpirun reaches the ranks and mpirun exits 75)";
  }

  RunResult failure(int code, const std::string& msg) {
    std::string also;
    try {
      onRoot([&] {
        if (log_) log_->flush();
      });
    } catch (const Error& e) {
      also = std::string("; the invariant log could not be flushed: ") + e.what();
    }
    RunResult r;
    r.exitCode = code;
    r.step = state_.step;
    r.time = state_.time;
    r.message = msg + also;
    return r;
  }

  void finish() {
    if (!onGrid(cfg_.snapshotInterval)) writeSnapshot(true);  // the final state is always a frame
    checkpoint();
    onRoot([&] {
      if (log_) log_->flush();
    });
    say("finished at step " + std::to_string(state_.step) + ", t = " + num(state_.time) +
        (energyColumn_ >= 0 ? ", relative change of " + monitored_ + " " + num(relativeEnergyError()) +
                                  " (largest over the run " + num(largestEnergyError()) + ")"
                            : ""));
  }

  /// |E - E0| / |E0|, or |E - E0| when E0 vanishes (e.g. two vortices at unit distance).
  /// A logged value of the monitored invariant: the last one and the running maximum.
  void noteEnergy(double e) {
    lastEnergy_ = e;
    const double r = relativeEnergyError();
    if (std::isfinite(r)) maxRelChange_ = std::max(maxRelChange_, r);
  }

  /// The running maximum of relativeEnergyError() (NaN when there is none).
  double largestEnergyError() const {
    return energyColumn_ >= 0 && std::isfinite(energy0_) ? maxRelChange_ : std::nan("");
  }

  double relativeEnergyError() const {
    if (energyColumn_ < 0 || !std::isfinite(energy0_)) return std::nan("");
    const double scale = std::abs(energy0_) > 1e-12 ? std::abs(energy0_) : 1.0;
    return std::abs(lastEnergy_ - energy0_) / scale;
  }

  static std::string num(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.6g", v);
    return b;
  }

  MPI_Comm comm_;
  int rank_ = 0, size_ = 1;
  const Driver& driver_;
  const io::Deck& deck_;
  RunOptions opt_;
  io::RunConfig cfg_;
  std::int64_t finalStep_ = 0;
  double maxWall_ = 0.0;
  std::unique_ptr<Model> model_;
  std::vector<std::string> names_;  ///< the log's columns, as the model's first row has them
  std::vector<Quantity> columns_;    ///< their units, descriptions and kinds
  Quantity time_;
  int energyColumn_ = -1;
  std::string monitored_;
  double energy0_ = std::nan(""), lastEnergy_ = std::nan("");
  double maxRelChange_ = 0.0;  ///< max over the logged rows of relativeEnergyError() (progress line)
  State state_;
  std::unique_ptr<io::CheckpointStore> store_;
  std::optional<io::InvariantLog> log_;
  std::optional<io::SnapshotWriter> snaps_;
  std::int64_t lastCheckpoint_ = -1;
  std::string lastCheckpointPath_;
  std::string petscOptions_;  ///< all PETSc options in effect (deck and command line)
  double stepSeconds_ = 0.0, checkpointSeconds_ = 0.0, lastCheckpointCost_ = 0.0;
  Progress progress_;
  io::OutdirLock lock_;  // rank 0: the output folder is ours while it is held
  std::unique_ptr<Watchdog> dog_;
  double wall0_ = 0.0;
  std::int64_t firstStep_ = -1;
};

}  // namespace

RunResult runSimulation(MPI_Comm comm, const Driver& driver, const io::Deck& deck,
                        const RunOptions& options) {
  Loop loop(comm, driver, deck, options);
  RunResult r;
  try {
    r = loop.run();
  } catch (const Error& e) {
    r.exitCode = e.exitCode();
    r.message = e.what();
    r.step = loop.state().step;
  } catch (const std::exception& e) {
    std::tie(r.message, r.exitCode) = describe(e);
  }
  loop.writeSummary(r);
  if (!r.message.empty()) {
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    if (rank == 0)
      std::fprintf(stderr, "%s%s: %s\n", options.label.c_str(),
                   r.exitCode == kExitRequeue ? "stopped" : "error", r.message.c_str());
  }
  return r;
}

}  // namespace kirchhoff::run
