// Collective verdicts (docs/running.md, "Restart and wall-clock budgets": errors reach every
// rank): an error on some ranks is made known to all, so no rank waits for one that gave up.
#pragma once

#include <mpi.h>

#include <exception>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

namespace kirchhoff {

/// An error seen on some ranks, as every rank knows it: the lowest failing rank's.
struct Verdict {
  bool failed = false;
  int code = 0;
  int extra = 0;  ///< a flag of the caller's (e.g. "checkpoint the state"), from the same rank
  std::string message;
};

/// Collective: every rank says whether it failed (with exit code, flag and message).
Verdict agree(MPI_Comm comm, bool failed, int code, const std::string& message, int extra = 0);

/// An exception as a message and exit code: ours keep theirs; file-system errors (a full disk,
/// a read-only folder) are data errors (65) naming the path; std::bad_alloc is out of memory (71).
std::pair<std::string, int> describe(const std::exception& e);

/// Collective: if `error` is set on any rank, every rank throws Error with the message and exit
/// code of the lowest such rank.
void settle(MPI_Comm comm, const std::exception_ptr& error);

/// Runs f() on every rank of comm and settles its outcome: a throw on any rank is thrown on all.
/// f must not enter a collective after a point where it can throw on some ranks only.
template <class F>
auto collectively(MPI_Comm comm, F&& f) -> decltype(f()) {
  std::exception_ptr error;
  if constexpr (std::is_void_v<decltype(f())>) {
    try {
      f();
    } catch (...) {
      error = std::current_exception();
    }
    settle(comm, error);
  } else {
    std::optional<decltype(f())> r;
    try {
      r.emplace(f());
    } catch (...) {
      error = std::current_exception();
    }
    settle(comm, error);
    return std::move(*r);
  }
}

}  // namespace kirchhoff
