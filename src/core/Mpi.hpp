// Small MPI helpers shared by the I/O and run layers: a communicator rank, and a string from one
// rank to all (error messages every rank must throw alike, the deck text read on rank 0).
#pragma once

#include <mpi.h>

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

}  // namespace kirchhoff
