// Collective verdicts: the lowest failing rank found by one MPI_Allreduce, its exit code, flag and
// message broadcast from it; exceptions described as (message, exit code).
#include "core/Collective.hpp"

#include <filesystem>
#include <new>
#include <system_error>
#include <tuple>

#include "core/Error.hpp"

namespace kirchhoff {

Verdict agree(MPI_Comm comm, bool failed, int code, const std::string& msg, int extra) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int mine = failed ? rank : size, first = size;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
  Verdict v;
  if (first == size) return v;
  v.failed = true;
  int meta[3] = {code, extra, static_cast<int>(msg.size())};
  MPI_Bcast(meta, 3, MPI_INT, first, comm);
  v.code = meta[0];
  v.extra = meta[1];
  v.message.resize(static_cast<std::size_t>(meta[2]));
  if (meta[2] > 0) {
    if (rank == first) v.message = msg;
    MPI_Bcast(v.message.data(), meta[2], MPI_CHAR, first, comm);
  }
  return v;
}

std::pair<std::string, int> describe(const std::exception& e) {
  namespace fs = std::filesystem;
  if (const auto* k = dynamic_cast<const Error*>(&e)) return {k->what(), k->exitCode()};
  if (const auto* f = dynamic_cast<const fs::filesystem_error*>(&e)) {
    std::string m = f->code() == std::errc::no_space_on_device ? "no space left on device" : f->code().message();
    m += ": " + f->path1().string();
    return {m, kExitData};
  }
  if (dynamic_cast<const std::bad_alloc*>(&e))
    return {"out of memory (std::bad_alloc): the problem needs more memory than this process may "
            "use (ulimit -v, the batch job's memory); use more nodes or ranks, or a smaller problem",
            kExitNoMemory};
  return {std::string("internal error: ") + e.what(), kExitNumerical};
}

void settle(MPI_Comm comm, const std::exception_ptr& error) {
  std::string msg;
  int code = 0;
  if (error) {
    try {
      std::rethrow_exception(error);
    } catch (const std::exception& e) {
      std::tie(msg, code) = describe(e);
    } catch (...) {
      msg = "internal error: unknown exception", code = kExitNumerical;
    }
  }
  if (Verdict v = agree(comm, static_cast<bool>(error), code, msg); v.failed) throw Error(v.message, v.code);
}

}  // namespace kirchhoff
