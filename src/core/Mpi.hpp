// Small MPI helpers shared by the I/O, run and fluid layers: a communicator rank, a string from one
// rank to all (error messages every rank must throw alike, the deck text read on rank 0), and an
// in-place sum over ranks of arrays of any length (MPI counts are int: longer arrays go in pieces).
#pragma once

#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <string>

namespace kirchhoff {

inline int rankOf(MPI_Comm comm) {
  int r = 0;
  MPI_Comm_rank(comm, &r);
  return r;
}

/// Replaces `text` on every rank by root's `text`: its length, then its bytes. Collective.
inline void broadcast(MPI_Comm comm, std::string& text, int root = 0) {
  long n = static_cast<long>(text.size());
  MPI_Bcast(&n, 1, MPI_LONG, root, comm);
  text.resize(static_cast<std::size_t>(n));
  MPI_Bcast(text.data(), static_cast<int>(n), MPI_CHAR, root, comm);
}

/// Sums `count` values of `type` (MPI_DOUBLE, MPI_INT, ...) over the ranks of `comm`, in place, in
/// pieces of at most `piece` values (2^30), so that a count past INT_MAX is summed whole instead of
/// wrapping negative. A no-op on one rank. Collective.
inline void sumOverRanks(MPI_Comm comm, void* data, std::size_t count, MPI_Datatype type,
                         std::size_t piece = std::size_t{1} << 30) {
  int ranks = 1, bytes = 0;
  MPI_Comm_size(comm, &ranks);
  if (ranks == 1) return;
  MPI_Type_size(type, &bytes);
  piece = std::max<std::size_t>(1, std::min<std::size_t>(piece, std::size_t{1} << 30));
  char* p = static_cast<char*>(data);
  for (std::size_t done = 0; done < count;) {
    const std::size_t n = std::min(piece, count - done);
    MPI_Allreduce(MPI_IN_PLACE, p + done * static_cast<std::size_t>(bytes), static_cast<int>(n), type, MPI_SUM, comm);
    done += n;
  }
}

inline void sumOverRanks(MPI_Comm comm, double* data, std::size_t count) { sumOverRanks(comm, data, count, MPI_DOUBLE); }

}  // namespace kirchhoff
