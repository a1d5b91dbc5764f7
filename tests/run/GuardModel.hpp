// A tiny test Model for the run-loop numerical guards (never a silently wrong number): a harmonic oscillator
// advanced by its exact flow map (rotation by dt) that injects one chosen fault at step k.
#pragma once

#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <mpi.h>

#include "core/Error.hpp"
#include "core/Model.hpp"
#include "io/Deck.hpp"
#include "io/Schema.hpp"
#include "run/Main.hpp"

namespace kirchhoff::test {

/// Faults the guard model can inject (deck key guard.fault).
inline const std::vector<std::string>& guardFaults() {
  static const std::vector<std::string> f = {
      "none",           // a clean run
      "nan_state",      // step k writes NaN into the replicated field p[1]
      "inf_state",      // step k writes +Inf into the distributed field w (local index 1)
      "nan_invariant",  // the state at step k is finite but invariant 'energy' is NaN
      "step_throws",    // step k throws NumericalError (what DelSolver does when SNES diverges)
      "step_internal",  // step k throws a plain std::runtime_error (a bug, not a numerical error)
      "physical_stop",  // check() at step k throws NumericalError(checkpointState = true)
      "nan_initial",    // the initial state holds a NaN in w[0] (the invariants stay finite)
  };
  return f;
}

/// Harmonic oscillator q' = p, p' = -q advanced by the exact rotation through angle dt, so the
/// state at step k is (q0 cos kdt + p0 sin kdt, p0 cos kdt - q0 sin kdt) up to rounding.
/// Fields: q = [q] and p = [p, p] (replicated; the copy p[1] is where a NaN is injected) and
/// w (distributed, two values per rank: a per-rank copy of (q, p)).
class GuardModel : public Model {
 public:
  GuardModel(MPI_Comm comm, double dt, std::string fault, std::int64_t atStep, int onRank)
      : comm_(comm), dt_(dt), fault_(std::move(fault)), at_(atStep), onRank_(onRank) {
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
  }

  std::string name() const override { return "guard"; }

  State initialState() override {
    State s;
    s.add("q", {1.0});
    s.add("p", {0.0, 0.0});
    s.addDistributed("w", {1.0, 0.0}, 2u * static_cast<std::uint64_t>(rank_),
                     2u * static_cast<std::uint64_t>(size_));
    if (fault_ == "nan_initial" && mine()) s["w"][0] = std::nan("");
    return s;
  }

  void restore(State& s) override {
    if (!s.find("q") || !s.find("p") || !s.find("w")) throw CheckpointError("guard: missing field");
  }

  StepReport step(State& s) override {
    const std::int64_t next = s.step + 1;
    if (next == at_ && mine()) {
      if (fault_ == "step_throws")
        throw NumericalError("SNES (-del_) did not converge: DIVERGED_FNORM_NAN after 3 iterations");
      if (fault_ == "step_internal") throw std::runtime_error("guard model bug");
    }
    const double c = std::cos(dt_), sn = std::sin(dt_);
    const double q = s["q"][0], p = s["p"][0];
    s["q"][0] = c * q + sn * p;
    s["p"][0] = c * p - sn * q;
    s["p"][1] = s["p"][0];
    auto& w = s["w"];
    const double wq = w[0], wp = w[1];
    w[0] = c * wq + sn * wp;
    w[1] = c * wp - sn * wq;
    if (next == at_ && mine()) {
      if (fault_ == "nan_state") s["p"][1] = std::nan("");
      if (fault_ == "inf_state") w[1] = std::numeric_limits<double>::infinity();
    }
    return {1, 0.0};
  }

  static const std::vector<Column>& logColumns() {
    static const std::vector<Column> c = {{"energy", "1", Kind::Conserved, "(q^2 + p^2) / 2"},
                                          {"q", "1", Kind::Diagnostic, "position q"}};
    return c;
  }

  LogRow logRow(const State& s, const StepReport&) override {
    double e = 0.5 * (s["q"][0] * s["q"][0] + s["p"][0] * s["p"][0]);
    if (fault_ == "nan_invariant" && s.step == at_ && mine()) e = std::nan("");
    // Collective like a real model's: every rank returns the same values.
    int nan = std::isnan(e) ? 1 : 0, anyNan = 0;
    MPI_Allreduce(&nan, &anyNan, 1, MPI_INT, MPI_MAX, comm_);
    LogRow row(logColumns());
    row.add("energy", anyNan ? std::nan("") : e).add("q", s["q"][0]);
    return row;
  }

  void check(const State& s) override {
    if (fault_ == "physical_stop" && s.step == at_ && mine())
      throw NumericalError("vortex 0 is 0.01 from body 0, closer than one panel length", s.step, true);
  }

 private:
  bool mine() const { return onRank_ < 0 || onRank_ == rank_; }

  MPI_Comm comm_;
  double dt_;
  std::string fault_;
  std::int64_t at_;
  int onRank_;
  int rank_ = 0, size_ = 1;
};

/// The run::Driver of the guard model: deck key `guard: {fault, at_step, on_rank}`.
inline run::Driver guardDriver() {
  run::Driver d;
  d.model = "guard";
  d.description = "harmonic oscillator with one injected fault (tests of the run-loop guards)";
  d.restartKeys = {"guard."};  // a restart after a fault continues without it
  d.addKeys = [](io::Schema& s) {
    io::Section& g = s.root().map("guard", "the injected fault");
    g.enumeration("fault", guardFaults(), "which fault").def("none");
    g.integer("at_step", "step k at which it happens").def(1).min(0);
    g.integer("on_rank", "rank that injects it (-1: every rank)").def(-1).min(-1);
  };
  d.make = [](const io::Deck& deck, double dt, MPI_Comm comm) -> std::unique_ptr<Model> {
    const io::DeckNode g = deck.root().map("guard");
    return std::make_unique<GuardModel>(comm, dt, g.string("fault"),
                                        g.integer("at_step"), static_cast<int>(g.integer("on_rank")));
  };
  return d;
}

}  // namespace kirchhoff::test
